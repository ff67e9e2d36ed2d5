"""What a plan records about its locks: the upgrade's own options and the steps' exact pins.

Kept apart from planlock (which locks a plan directory and pulls in the lock backends), so that
`upgrade --no-lock` and the renderers need not import the locking machinery.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from envplan.core.plan import LockState, Plan
    from envplan.resolve.outcome import LockOutcome

__all__ = ["lock_state", "planned_with"]


def planned_with(target: str, variant: str | None, python: str | None, via_minors: bool) -> dict[str, Any]:
    """The upgrade's own options, as plan.json records them."""
    return {"to": target, "variant": variant, "python-version": python, "via-minors": via_minors}


def lock_state(base: LockState, plan: Plan, outcomes: Sequence[LockOutcome]) -> LockState:
    """`base` with the steps' exact pins read from their locks (not locked when there are no outcomes)."""
    from envplan.resolve.reqparse import parse_requirements

    pins = {
        step.name: tuple(f"{p.name}=={p.version}" for p in parse_requirements(o.files.get("requirements.txt", "")))
        for step, o in zip(plan.steps, outcomes, strict=False)
    }
    return replace(base, locked=bool(outcomes), pins=pins)
