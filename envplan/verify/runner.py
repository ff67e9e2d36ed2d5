"""`envplan verify PLAN_DIR`: find the Python the plan's steps were resolved for (or say how to get it, before
running anything), run the plan's nox sessions in order, stop at the first failing step, and write
verify-report.json and each verified step's ENVIRONMENT.md.

The step environments live outside the plan, under the user cache (`<cache>/envplan/verify-envs/<plan>-<id>`,
or `$ENVPLAN_VERIFY_ENVS/<plan>-<id>`); a step's environment is removed once it passed unless `keep_envs`, and a
failed step's is kept to look into. `Verified.envs` says where they are and how much disk they use."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from envplan.errors import EXIT_BAD_INPUT, EnvplanError
from envplan.export.planfiles import PlanDir, load_plan_json
from envplan.render.progress import StepBar
from envplan.resolve.runner import run_streamed
from envplan.verify.status import SessionStatus, disk_usage

__all__ = ["Envs", "StepResult", "Verified", "envs_root", "verify_plan"]


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


@dataclass(frozen=True, kw_only=True, slots=True)
class Envs:
    """Where the step environments are after the run, and how much disk they use (0 when none is left)."""

    path: Path
    kept: tuple[str, ...]  # the steps whose environment is still there
    size: int

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "kept": list(self.kept), "bytes": self.size}


@dataclass(frozen=True, kw_only=True, slots=True)
class Verified:
    steps: list[StepResult]
    envs: Envs


def envs_root(plan_dir: Path) -> Path:
    """The folder of this plan's step environments: one per plan path, under the user cache."""
    from envplan.paths import cache_root

    base = Path(os.environ["ENVPLAN_VERIFY_ENVS"]) if os.environ.get("ENVPLAN_VERIFY_ENVS") else None
    ident = hashlib.sha256(str(plan_dir).encode()).hexdigest()[:8]
    return (base or cache_root() / "verify-envs") / f"{plan_dir.name}-{ident}"


def _steps(plan_dir: Path) -> list[tuple[str, str | None]]:
    plan = load_plan_json(plan_dir)
    if not (plan_dir / "noxfile.py").is_file():
        raise EnvplanError(
            "not-a-plan",
            "no noxfile.py: written by an older envplan?",
            where=str(plan_dir),
            hint="run envplan upgrade again",
        )
    return [(s["name"], s.get("python") if isinstance(s.get("python"), str) else None) for s in plan.get("steps", [])]


def _interpreters(plan_dir: Path, pythons: set[str], finder: Callable[[str], str | None]) -> dict[str, str]:
    """Each Python the steps need, found; the first missing one is bad input, said before anything runs."""
    from envplan.verify.pythonfind import missing_python

    found: dict[str, str] = {}
    for version in sorted(pythons):
        exe = finder(version)
        if exe is None:
            raise missing_python(version, str(plan_dir))
        found[version] = exe
    return found


def _default_finder(version: str) -> str | None:
    from envplan.resolve import find_uv
    from envplan.verify.pythonfind import find_python

    uv = find_uv()
    return find_python(version, uv=None if uv == "uv" and shutil.which("uv") is None else uv)


def _read_report(folder: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads((folder / "verify.json").read_text(encoding="utf-8"))
        return data
    except (OSError, ValueError):
        return {}


@dataclass(frozen=True, kw_only=True, slots=True)
class _Session:
    name: str
    python: str | None  # the interpreter found for the step (None: the noxfile's own choice)
    envdir: Path


def _run_session(plan_dir: Path, session: _Session, require_gpu: bool, bar: StepBar) -> StepResult:
    name = session.name
    (plan_dir / name / "verify.json").unlink(missing_ok=True)
    env = {**os.environ, "ENVPLAN_REQUIRE_GPU": "1" if require_gpu else ""}
    argv = [sys.executable, "-m", "nox", "-f", str(plan_dir / "noxfile.py"), "-s", name]
    argv += ["--envdir", str(session.envdir)]
    if session.python:
        argv += ["--force-python", session.python]
    started = time.monotonic()
    status = SessionStatus(bar, session.envdir)
    with status.watching():
        proc = run_streamed(argv, cwd=plan_dir, env=env, on_line=status.follow)
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


def verify_plan(
    plan_dir: Path,
    *,
    step: str | None = None,
    require_gpu: bool = False,
    keep_envs: bool = False,
    bar: StepBar | None = None,
    finder: Callable[[str], str | None] = _default_finder,
) -> Verified:
    plan_dir = plan_dir.resolve()
    steps = _steps(plan_dir)
    names = [n for n, _ in steps]
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
    wanted = {n: p for n, p in steps if n in names}
    bar = bar or StepBar("verifying")
    bar.expect(len(names))
    pythons = {p for p in wanted.values() if p}
    bar.status("finding Python " + ", ".join(sorted(pythons)) if pythons else "starting")
    found = _interpreters(plan_dir, pythons, finder)
    root = envs_root(plan_dir)
    results: list[StepResult] = []
    for name in names:
        if any(r.result == "failed" for r in results):  # every later step builds on this one: none runs
            results.append(StepResult(name=name, result="not run"))
            continue
        python = wanted[name]
        bar.start(name)
        session = _Session(name=name, python=found[python] if python else None, envdir=root / name)
        results.append(_run_session(plan_dir, session, require_gpu, bar))
        if results[-1].result == "passed" and not keep_envs:
            shutil.rmtree(session.envdir, ignore_errors=True)
        bar.advance()
    _record(plan_dir, results)
    return Verified(steps=results, envs=_envs(root))


def _envs(root: Path) -> Envs:
    """What is left under `root`; an empty root is removed."""
    kept = tuple(sorted(p.name for p in root.iterdir() if p.is_dir())) if root.is_dir() else ()
    if not kept:
        shutil.rmtree(root, ignore_errors=True)
    return Envs(path=root, kept=kept, size=disk_usage(root) if kept else 0)


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
