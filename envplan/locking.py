"""Lock many environments at once: fresh locks are reused without resolving, the rest run concurrently.

Each lock's folder gets requirements.txt, pylock.toml and lock.json; lock.json records the inputs (the
request, the profile's content, the KB, the backend and its version) and the hash of every file written.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.kb import KB, kb_digest
from envplan.plan_model import Plan
from envplan.profile import Machine, Profile
from envplan.resolve.backend import Backend
from envplan.resolve.model import Lock, LockRequest
from envplan.resolve.verify import verify_lock

__all__ = ["STAMP", "LockOutcome", "lock_many", "lock_plan", "lock_profile", "read_previous", "stamp_inputs"]

STAMP = "lock.json"
LOCK_FILES = ("requirements.txt", "pylock.toml")


@dataclass(frozen=True, kw_only=True, slots=True)
class LockOutcome:
    name: str
    status: str  # "locked" | "fresh" | "stale"
    files: dict[str, str] = field(default_factory=dict)  # the lock's files, lock.json included
    changed: tuple[str, ...] = ()  # why a lock is stale (or was redone)
    packages: int = 0


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def stamp_inputs(request: LockRequest, profile_text: str, backend: Backend) -> dict[str, str]:
    return {
        "request": request.digest(),
        "profile": _sha(profile_text),
        "kb": kb_digest(),
        "backend": f"{backend.name} {backend.version}",
    }


def _changes(inputs: Mapping[str, str], previous: Mapping[str, str]) -> tuple[str, ...]:
    """What differs from the lock on disk ("" entries when it is fresh)."""
    if STAMP not in previous:
        return ("no lock yet",)
    try:
        stamp: dict[str, Any] = json.loads(previous[STAMP])
    except ValueError:
        return ("lock.json is unreadable",)
    changed = [f"{k} changed" for k, v in inputs.items() if stamp.get("inputs", {}).get(k) != v]
    for name in LOCK_FILES:
        if name not in previous:
            changed.append(f"{name} is missing")
        elif stamp.get("files", {}).get(name) != _sha(previous[name]):
            changed.append(f"{name} was edited")
    return tuple(changed)


def _stamp(inputs: Mapping[str, str], files: Mapping[str, str]) -> str:
    return (
        json.dumps({"schema": 1, "inputs": dict(inputs), "files": {k: _sha(v) for k, v in files.items()}}, indent=2)
        + "\n"
    )


Progress = Callable[[str, str], None]  # (lock name, event): "start", "done", "fresh"


def lock_many(
    jobs: list[tuple[LockRequest, dict[str, str], dict[str, str]]],
    backend: Backend,
    *,
    check: bool = False,
    progress: Progress | None = None,
    workers: int = 4,
) -> list[LockOutcome]:
    """jobs: (request, stamp inputs, the files of the previous lock). Fresh ones are reused; with `check`,
    nothing is resolved and stale ones are reported."""
    report = progress or (lambda name, event: None)
    outcomes: dict[str, LockOutcome] = {}
    todo = []
    for request, inputs, previous in jobs:
        changed = _changes(inputs, previous)
        if not changed:
            outcomes[request.name] = LockOutcome(name=request.name, status="fresh", files=dict(previous))
            report(request.name, "fresh")
        elif check:
            outcomes[request.name] = LockOutcome(name=request.name, status="stale", changed=changed)
        else:
            todo.append((request, inputs, changed))
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(todo) or 1))) as pool:
        futures = {r.name: pool.submit(_lock_one, backend, r, i, c, report) for r, i, c in todo}
        for name, future in futures.items():
            outcomes[name] = future.result()
    return [outcomes[r.name] for r, _, _ in jobs]


def _lock_one(
    backend: Backend, request: LockRequest, inputs: dict[str, str], changed: tuple[str, ...], report: Progress
) -> LockOutcome:
    report(request.name, "start")
    lock: Lock = backend.lock(request)
    verify_lock(lock)
    files = dict(lock.files)
    files[STAMP] = _stamp(inputs, files)
    report(request.name, "done")
    return LockOutcome(name=request.name, status="locked", files=files, changed=changed, packages=len(lock.packages))


def read_previous(folder: Path) -> dict[str, str]:
    """The lock files already in `folder` (missing ones are simply absent)."""
    return {
        name: (folder / name).read_text(encoding="utf-8") for name in (*LOCK_FILES, STAMP) if (folder / name).is_file()
    }


def lock_profile(
    profile: Profile,
    profile_text: str,
    kb: KB,
    backend: Backend,
    out: Path,
    *,
    check: bool = False,
    progress: Progress | None = None,
) -> LockOutcome:
    """Lock the profile's stack into `out` (files replaced one by one atomically, lock.json last)."""
    from envplan.check import check_profile
    from envplan.planner import stack_step
    from envplan.resolve.request import request_for_step
    from envplan.write import write_file

    errors = [f for f in check_profile(profile, kb) if f.severity == "error"]
    if errors:
        raise EnvplanError(
            "profile-fails-check",
            f"the stack does not pass `envplan check` ({errors[0].message})",
            where=profile.path,
            hint="fix the profile first: envplan check " + profile.path,
            exit_code=EXIT_FAILED,
        )
    request = request_for_step(stack_step(profile, kb), profile.machine)
    job = (request, stamp_inputs(request, profile_text, backend), read_previous(out))
    (outcome,) = lock_many([job], backend, check=check, progress=progress)
    if outcome.status == "locked":
        out.mkdir(parents=True, exist_ok=True)
        for name in (*LOCK_FILES, STAMP):
            write_file(out / name, outcome.files[name])
    return outcome


def lock_plan(
    plan: Plan,
    machine: Machine,
    profile_text: str,
    backend: Backend,
    previous_dir: Path,
    *,
    progress: Progress | None = None,
) -> list[LockOutcome]:
    """Lock every step of a plan; steps whose lock in `previous_dir` is fresh are reused as they are."""
    from envplan.resolve.request import request_for_step

    jobs = []
    for step in plan.steps:
        request = request_for_step(step, machine)
        jobs.append((request, stamp_inputs(request, profile_text, backend), read_previous(previous_dir / step.name)))
    return lock_many(jobs, backend, progress=progress)
