"""`envplan verify PLAN_DIR`: run the plan's nox sessions in order, stop at the first failing step, and
write verify-report.json and each verified step's ENVIRONMENT.md."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from envplan.errors import EXIT_BAD_INPUT, EnvplanError
from envplan.export.planfiles import PlanDir, load_plan_json
from envplan.resolve.runner import run_captured

__all__ = ["StepResult", "verify_plan"]


@dataclass(frozen=True, kw_only=True, slots=True)
class StepResult:
    name: str
    result: str  # "passed" | "failed" | "not run"
    seconds: float = 0.0
    skipped: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()
    output: str = ""  # the session's output, kept for a failed step
    observed: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "result": self.result,
            "seconds": round(self.seconds, 1),
            "skipped": list(self.skipped),
            "failed": list(self.failed),
            "observed": self.observed,
        }


def _steps(plan_dir: Path) -> list[str]:
    plan = load_plan_json(plan_dir)
    if not (plan_dir / "noxfile.py").is_file():
        raise EnvplanError(
            "not-a-plan",
            "no noxfile.py: written by an older envplan?",
            where=str(plan_dir),
            hint="run envplan upgrade again",
        )
    return [s["name"] for s in plan.get("steps", [])]


def _read_report(folder: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads((folder / "verify.json").read_text(encoding="utf-8"))
        return data
    except (OSError, ValueError):
        return {}


def _run_session(plan_dir: Path, name: str, require_gpu: bool) -> StepResult:
    (plan_dir / name / "verify.json").unlink(missing_ok=True)
    env = {**os.environ, "ENVPLAN_REQUIRE_GPU": "1" if require_gpu else ""}
    started = time.monotonic()
    proc = run_captured(
        [sys.executable, "-m", "nox", "-f", str(plan_dir / "noxfile.py"), "-s", name], cwd=plan_dir, env=env
    )
    seconds = time.monotonic() - started
    report = _read_report(plan_dir / name)
    results = report.get("results", [])
    skipped = tuple(f"{r['check']}: {r['detail']}" for r in results if r["status"] == "skipped")
    failed = tuple(f"{r['check']}: {r['detail']}" for r in results if r["status"] == "FAILED")
    ok = proc.returncode == 0
    if not ok and not failed:
        tail = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()][-3:]
        failed = ("session failed before the checks: " + " | ".join(tail),)
    return StepResult(
        name=name,
        result="passed" if ok else "failed",
        seconds=seconds,
        skipped=skipped,
        failed=failed,
        output="" if ok else proc.stdout + proc.stderr,
        observed=report.get("observed", {}),
    )


def verify_plan(plan_dir: Path, *, step: str | None = None, require_gpu: bool = False) -> list[StepResult]:
    plan_dir = plan_dir.resolve()
    names = _steps(plan_dir)
    if step is not None:
        if step not in names:
            raise EnvplanError(
                "unknown-step",
                f"no step {step!r} in this plan",
                where=str(plan_dir),
                hint="steps: " + ", ".join(names),
                exit_code=EXIT_BAD_INPUT,
            )
        names = [step]
    plan = PlanDir(root=plan_dir, doc=load_plan_json(plan_dir))
    for name in names:  # a --no-lock plan: say how to lock it, before minutes of building environments
        plan.require_locked(name)
    results: list[StepResult] = []
    for name in names:
        if any(r.result == "failed" for r in results):  # every later step builds on this one: none runs
            results.append(StepResult(name=name, result="not run"))
            continue
        results.append(_run_session(plan_dir, name, require_gpu))
    _record(plan_dir, results)
    return results


def _record(plan_dir: Path, results: list[StepResult]) -> None:
    from envplan.write import write_file

    doc = {"schema": 1, "steps": [r.to_dict() for r in results]}
    write_file(plan_dir / "verify-report.json", json.dumps(doc, indent=2) + "\n")
    for r in results:
        md = plan_dir / r.name / "ENVIRONMENT.md"
        if r.observed and md.is_file():
            text = md.read_text(encoding="utf-8").split("## Observed by `envplan verify`")[0]
            seen = "\n".join(f"- {k}: {v}" for k, v in r.observed.items())
            write_file(md, f"{text}## Observed by `envplan verify`\n\n- result: {r.result}\n{seen}\n")
