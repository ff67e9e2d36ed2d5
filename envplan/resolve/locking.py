"""Lock many environments at once: fresh locks are reused without resolving, the rest run concurrently.

Each lock's folder gets requirements.txt, pylock.toml and lock.json; lock.json records the inputs (the
request, the profile's content, the KB, the backend and its version) and the hash of every file written.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from envplan import __version__
from envplan.core.plan import Plan, Step
from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.kb import KB, kb_digest
from envplan.profile.model import Machine, Profile
from envplan.resolve.backend import Backend
from envplan.resolve.freshness import CONDA_LOCK, LOCK_FILES, STAMP, pinned, text_digest
from envplan.resolve.model import Lock, LockRequest
from envplan.resolve.outcome import LockOutcome

if TYPE_CHECKING:
    from envplan.resolve.conda import CondaRequest

__all__ = [
    "LockJob",
    "LockSettings",
    "Progress",
    "lock_many",
    "lock_plan",
    "lock_profile",
    "read_previous",
    "stamp_inputs",
]


def stamp_inputs(
    request: LockRequest, profile_text: str, backend: Backend, conda: CondaRequest | None = None
) -> dict[str, str]:
    inputs = {
        "request": request.digest(),
        "profile": text_digest(profile_text),
        "kb": kb_digest(),
        "backend": f"{backend.name} {backend.version}",
        "envplan": __version__,
    }
    if conda is not None:
        inputs["conda"] = conda.digest()
    return inputs


def _changes(job: LockJob) -> tuple[str, ...]:
    """What differs from the lock on disk (nothing when it is fresh)."""
    previous = job.previous
    if STAMP not in previous:
        return ("no lock yet",)
    try:
        stamp: dict[str, Any] = json.loads(previous[STAMP])
    except ValueError:
        return ("lock.json is unreadable",)
    changed = [f"{k} changed" for k, v in job.inputs.items() if stamp.get("inputs", {}).get(k) != v]
    changed += [f"{k} dropped" for k in stamp.get("inputs", {}) if k not in job.inputs]
    for name in job.files:
        if name not in previous:
            changed.append(f"{name} is missing")
        elif stamp.get("files", {}).get(name) != text_digest(previous[name]):
            changed.append(f"{name} was edited")
    return tuple(changed)


def _stamp(inputs: Mapping[str, str], files: Mapping[str, str]) -> str:
    return (
        json.dumps(
            {"schema": 1, "inputs": dict(inputs), "files": {k: text_digest(v) for k, v in files.items()}}, indent=2
        )
        + "\n"
    )


Progress = Callable[[str, str], None]  # (lock name, event): "start", "done", "fresh"


@dataclass(frozen=True, kw_only=True, slots=True)
class LockJob:
    request: LockRequest
    inputs: dict[str, str]  # what the lock is made from (see stamp_inputs)
    previous: dict[str, str]  # the files of the lock already on disk
    conda: CondaRequest | None = None  # also solve the conda environment
    conda_tool: str = "rattler"  # or "conda-lock" (runs conda-lock itself)
    environment_yml: str = ""

    @property
    def files(self) -> tuple[str, ...]:
        return (*LOCK_FILES, CONDA_LOCK) if self.conda else LOCK_FILES


def lock_many(
    jobs: list[LockJob],
    backend: Backend,
    *,
    check: bool = False,
    progress: Progress | None = None,
    workers: int = 4,
    cache: dict[str, Future[dict[str, str]]] | None = None,
) -> list[LockOutcome]:
    """Fresh locks are reused; the others are resolved concurrently. With `check`, nothing is resolved and
    stale locks are reported."""
    report = progress or (lambda name, event: None)
    outcomes: dict[str, LockOutcome] = {}
    todo = []
    for job in jobs:
        name, changed = job.request.name, _changes(job)
        if not changed:
            outcomes[name] = LockOutcome(name=name, status="fresh", files=dict(job.previous))
            report(name, "fresh")
        elif check:
            outcomes[name] = LockOutcome(name=name, status="stale", changed=changed)
        else:
            todo.append((job, changed))
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(todo) or 1, os.cpu_count() or 1))) as pool:
        shared = {} if cache is None else cache
        futures = {j.request.name: pool.submit(_lock_one, backend, j, c, report, shared) for j, c in todo}
        for name, future in futures.items():
            outcomes[name] = future.result()
    return [outcomes[j.request.name] for j in jobs]


_CACHE_LOCK = threading.Lock()


def _lock_one(
    backend: Backend, job: LockJob, changed: tuple[str, ...], report: Progress, cache: dict[str, Future[dict[str, str]]]
) -> LockOutcome:
    report(job.request.name, "start")
    key = "|".join(
        [job.request.content_digest(), job.conda.digest() if job.conda else "", job.conda_tool, job.inputs["backend"]]
    )
    with _CACHE_LOCK:  # identical steps (in one plan or across a fleet) wait for one resolution
        pending = cache.get(key)
        owner = pending is None
        if owner:
            pending = cache[key] = Future()
    assert pending is not None
    if owner:
        try:
            pending.set_result(_resolve(backend, job))
        except BaseException as exc:
            pending.set_exception(exc)
    files = dict(pending.result())
    files[STAMP] = _stamp(job.inputs, files)
    report(job.request.name, "done")
    return LockOutcome(
        name=job.request.name, status="locked", files=files, changed=changed, packages=pinned(files["requirements.txt"])
    )


def _resolve(backend: Backend, job: LockJob) -> dict[str, str]:
    from envplan.resolve.conda import run_conda_lock, solve_conda
    from envplan.resolve.lockcheck import verify_lock

    lock: Lock = backend.lock(job.request)
    verify_lock(lock)
    files = dict(lock.files)
    if job.conda is not None and job.conda_tool == "conda-lock":
        files[CONDA_LOCK] = run_conda_lock(job.conda, job.environment_yml)
    elif job.conda is not None:
        files[CONDA_LOCK] = solve_conda(job.conda)
    return files


def read_previous(folder: Path) -> dict[str, str]:
    """The lock files already in `folder` (missing or unreadable ones are simply absent: another envplan may be
    replacing the folder right now)."""
    found = {}
    for name in (*LOCK_FILES, CONDA_LOCK, STAMP):
        try:
            found[name] = (folder / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return found


@dataclass(frozen=True, kw_only=True, slots=True)
class LockSettings:
    backend: Backend
    kb: KB
    profile_text: str  # the profile's content: a lock records it, so editing the profile makes it stale
    conda_alias: str | None = None  # solve conda environments too, with channels under this alias
    conda_tool: str = "rattler"  # "conda-lock": run conda-lock itself (needs conda, mamba or micromamba)
    check: bool = False
    progress: Progress | None = None
    cache: dict[str, Future[dict[str, str]]] = field(default_factory=dict)  # identical requests: resolved once


def _job(step: Step, machine: Machine, settings: LockSettings, previous: dict[str, str]) -> LockJob:
    from envplan.resolve.request import request_for_step

    request = request_for_step(step, machine)
    conda = None
    if settings.conda_alias:
        from envplan.resolve.conda import conda_request

        conda = conda_request(step, machine, settings.kb, settings.conda_alias)
    inputs = stamp_inputs(request, settings.profile_text, settings.backend, conda)
    if conda is not None:
        inputs["conda"] += f" {settings.conda_tool}"
    return LockJob(
        request=request,
        inputs=inputs,
        previous=previous,
        conda=conda,
        conda_tool=settings.conda_tool,
        environment_yml=_environment_yml(step, settings.kb, machine) if conda else "",
    )


def lock_profile(profile: Profile, out: Path, settings: LockSettings) -> LockOutcome:
    """Lock the profile's stack into `out` (files replaced one by one atomically, lock.json last)."""
    from envplan.core.check import check_profile
    from envplan.core.planner import stack_step
    from envplan.write import write_file

    kb = settings.kb
    errors = [f for f in check_profile(profile, kb) if f.severity == "error"]
    if errors:
        raise EnvplanError(
            "profile-fails-check",
            f"the stack does not pass `envplan check` ({errors[0].message})",
            where=profile.path,
            hint="fix the profile first: envplan check " + profile.path,
            exit_code=EXIT_FAILED,
        )
    step = stack_step(profile, kb)
    job = _job(step, profile.machine, settings, read_previous(out))
    (outcome,) = lock_many([job], settings.backend, check=settings.check, progress=settings.progress)
    if outcome.status == "locked":
        out.mkdir(parents=True, exist_ok=True)
        if job.conda is not None:
            write_file(out / "environment.yml", job.environment_yml)
        for name in (*job.files, STAMP):
            write_file(out / name, outcome.files[name])
    return outcome


def lock_plan(plan: Plan, machine: Machine, previous_dir: Path, settings: LockSettings) -> list[LockOutcome]:
    """Lock every step of a plan; steps whose lock in `previous_dir` is fresh are reused as they are. With
    `settings.check`, nothing is resolved and stale locks are reported."""
    jobs = [_job(step, machine, settings, read_previous(previous_dir / step.name)) for step in plan.steps]
    return lock_many(jobs, settings.backend, check=settings.check, progress=settings.progress, cache=settings.cache)


def _environment_yml(step: Step, kb: KB, machine: Machine) -> str:
    from envplan.core.platforms import conda_subdir
    from envplan.render.envfiles import render_environment_yml

    return render_environment_yml(step, kb, conda_subdir(machine))
