"""Read back what `envplan upgrade` wrote: plan.json and the steps' files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envplan.errors import EXIT_BAD_INPUT, EnvplanError
from envplan.paths import NAME_RULE, safe_name

__all__ = ["PlanDir", "load_plan_json", "not_locked", "read_plan_dir"]


@dataclass(frozen=True, slots=True)
class PlanDir:
    root: Path
    doc: dict[str, Any]

    @property
    def steps(self) -> list[dict[str, Any]]:
        return list(self.doc.get("steps", []))

    def step(self, name: str | None) -> list[dict[str, Any]]:
        if name is None:
            return self.steps
        found = [s for s in self.steps if s["name"] == name]
        if not found:
            raise EnvplanError(
                "unknown-step",
                f"no step {name!r} in this plan",
                where=str(self.root),
                hint="steps: " + ", ".join(s["name"] for s in self.steps),
            )
        return found

    def locked(self, name: str) -> bool:
        """plan.json says the step is locked (plans written before it said so: its lock is there)."""
        said = next((s.get("locked") for s in self.steps if s.get("name") == name), None)
        return said is not False and (self.root / name / "requirements.txt").is_file()

    def require_locked(self, name: str) -> None:
        """Refuse a step that has no lock yet (a plan written with --no-lock), saying how to lock it."""
        if not self.locked(name):
            raise not_locked(self.root, name)


def not_locked(root: Path, step: str) -> EnvplanError:
    """A step without a lock, for a command that installs it: exit 2, and the one command that fixes it."""
    return EnvplanError(
        "not-locked",
        f"step {step} is not locked",
        where=str(root),
        hint=f"run `envplan lock {root}` first",
        exit_code=EXIT_BAD_INPUT,
    )


def load_plan_json(root: Path) -> dict[str, Any]:
    """The plan.json of a directory `envplan upgrade` wrote, or a clear error when there is none or it was
    edited into something else (every step a table with a name that is one folder name)."""
    try:
        doc: Any = json.loads((root / "plan.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        raise EnvplanError(
            "not-a-plan", "no readable plan.json", where=str(root), hint="give the directory `envplan upgrade` wrote"
        ) from None
    steps = doc.get("steps") if isinstance(doc, dict) else None
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        raise EnvplanError("not-a-plan", "plan.json has no list of steps", where=str(root / "plan.json"))
    for i, step in enumerate(steps):
        name = step.get("name")
        if not isinstance(name, str) or not safe_name(name):
            raise EnvplanError(
                "not-a-plan",
                f"{name!r} is not a step name",
                where=f"{root / 'plan.json'}: steps[{i}].name",
                hint=f"write the plan again with envplan upgrade; step names are folder names: {NAME_RULE}",
            )
    return dict(doc)


def read_plan_dir(root: Path) -> PlanDir:
    doc = load_plan_json(root)
    if doc.get("status") not in ("ok", "current"):
        raise EnvplanError("blocked-plan", "this plan is blocked: there is nothing to export", where=str(root))
    return PlanDir(root=root.resolve(), doc=doc)
