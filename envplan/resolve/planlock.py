"""`envplan lock PLAN_DIR`: lock every step of a plan written by `upgrade --no-lock` (or check the locks of any
plan), with the lock options the plan recorded. The plan is planned again from the profile it keeps
(source-profile.toml) and must give the very steps plan.json lists; each step's lock files are then written
atomically, and PLAN.md, the ENVIRONMENT.md files and plan.json last, so the plan says it is locked only
once every lock is in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.version import Version

from envplan.core.plan import LockState, Plan
from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.export.planfiles import PlanDir, read_plan_dir
from envplan.render.planfiles import SOURCE_PROFILE
from envplan.resolve.locking import LockSettings, Progress, lock_plan
from envplan.resolve.lockstate import lock_state
from envplan.resolve.outcome import LockOutcome

__all__ = ["LockOptions", "PlanLock", "lock_plan_dir"]


@dataclass(frozen=True, kw_only=True, slots=True)
class LockOptions:
    """What the command line says about locking; None: what the plan recorded."""

    backend: str | None = None
    conda: str | None = None  # "rattler" | "conda-lock"
    python: str | None = None
    check: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class PlanLock:
    root: Path
    lock: LockState  # as now recorded in plan.json (or, with --check, as it would be)
    outcomes: list[LockOutcome]


def lock_plan_dir(root: Path, options: LockOptions, progress: Progress | None = None) -> PlanLock:
    from envplan.kb import load_kb
    from envplan.profile.model import load_profile
    from envplan.resolve import make_backend

    found = read_plan_dir(root)
    recorded = _recorded(found)
    asked = _asked(found)
    source = found.root / SOURCE_PROFILE
    profile = load_profile(source)
    text = source.read_text(encoding="utf-8")
    kb = load_kb()
    plan = _plan_again(found, profile, kb, asked)
    backend = options.backend or recorded.backend
    conda = options.conda or recorded.conda
    python = options.python or (recorded.python if backend == recorded.backend else "")
    state = LockState(locked=True, backend=backend, conda=conda, python=python if backend == "pip-tools" else "")
    settings = LockSettings(
        backend=make_backend(backend, python=python or None, python_flag="--python"),
        kb=kb,
        profile_text=text,
        conda_alias=profile.indexes.conda if conda else None,
        conda_tool=conda or "rattler",
        check=options.check,
        progress=progress,
    )
    outcomes = lock_plan(plan, profile.machine, found.root, settings)
    state = lock_state(state, plan, outcomes)
    if not options.check:
        _write(found.root, plan, kb=kb, text=text, state=state, asked=asked, outcomes=outcomes)
    return PlanLock(root=found.root, lock=state, outcomes=outcomes)


def _recorded(found: PlanDir) -> LockState:
    row = found.doc.get("lock")
    if not isinstance(row, dict):
        return LockState()
    backend = row.get("backend")
    return LockState(
        locked=row.get("locked") is True,
        backend=backend if backend in ("uv", "pip-tools") else "uv",
        conda=str(row["conda"]) if row.get("conda") in ("rattler", "conda-lock") else "",
        python=str(row.get("python") or ""),
    )


def _asked(found: PlanDir) -> dict[str, Any]:
    asked = found.doc.get("planned-with")
    if (
        not isinstance(asked, dict)
        or not isinstance(asked.get("to"), str)
        or not (found.root / SOURCE_PROFILE).is_file()
    ):
        raise EnvplanError(
            "not-lockable",
            f"the plan does not keep what it was planned from (plan.json planned-with, {SOURCE_PROFILE}): "
            "written by an older envplan",
            where=str(found.root),
            hint="write it again with `envplan upgrade PROFILE --to VERSION`, which locks it",
        )
    return asked


def _plan_again(found: PlanDir, profile: Any, kb: Any, asked: dict[str, Any]) -> Plan:
    """The plan from its own profile and options: it must be the plan on disk, step for step."""
    from envplan.core.planner import plan_upgrade, resolve_target
    from envplan.profile.model import PythonSpec
    from envplan.render.data import plan_document

    python = asked.get("python-version")
    spec = PythonSpec(version=Version(python.removesuffix("t")), free_threaded=python.endswith("t")) if python else None
    target = resolve_target(asked["to"], kb)
    plan = plan_upgrade(
        profile, target, kb, variant=asked.get("variant"), python=spec, via_minors=bool(asked.get("via-minors"))
    )
    now = [_without_lock(s) for s in plan_document(plan)["steps"]]
    then = [_without_lock(s) for s in found.steps]
    if plan.status not in ("ok", "current") or now != then:
        differs = next((n["name"] for n, t in zip(now, then, strict=False) if n != t), "the list of steps")
        raise EnvplanError(
            "plan-changed",
            f"planned again from {SOURCE_PROFILE}, the plan differs from plan.json ({differs}): the KB or envplan "
            "changed since it was written",
            where=str(found.root),
            hint=f"write it again: envplan upgrade {found.root / SOURCE_PROFILE} --to {asked['to']} --out PLAN_DIR",
            exit_code=EXIT_FAILED,
        )
    return plan


def _without_lock(step: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in step.items() if k != "locked"}


def _write(
    root: Path,
    plan: Plan,
    *,
    kb: Any,
    text: str,
    state: LockState,
    asked: dict[str, Any],
    outcomes: Sequence[LockOutcome],
) -> None:
    """Each step's lock files (lock.json last), then what tells about them, plan.json last of all."""
    from envplan.render.planfiles import plan_files
    from envplan.resolve.freshness import STAMP
    from envplan.write import write_file

    for step, outcome in zip(plan.steps, outcomes, strict=True):
        if outcome.status != "locked":
            continue
        for name in sorted(outcome.files, key=lambda n: n == STAMP):
            write_file(root / step.name / name, outcome.files[name])
    files = plan_files(plan, kb, text, lock=state, planned_with=asked)
    telling = [f"{s.name}/ENVIRONMENT.md" for s in plan.steps]
    if state.conda:
        telling += [f"{s.name}/environment.yml" for s in plan.steps]
    for name in [*telling, "PLAN.md", "plan.json"]:
        write_file(root / name, files[name])
