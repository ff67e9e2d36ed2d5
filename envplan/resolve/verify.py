"""Checks on a resolver's result before it is written: envplan trusts no resolver with the torch family."""

from __future__ import annotations

from envplan import tomlread
from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.resolve.model import Lock, LockedPackage, is_family

__all__ = ["lock_problems", "verify_lock"]

_PINNED = ("torch", "torchvision", "torchaudio")


def verify_lock(lock: Lock) -> None:
    problems = lock_problems(lock)
    if problems:
        raise EnvplanError(
            "unsafe-lock",
            f"the lock of {lock.request.name} is not safe: " + "; ".join(problems),
            where=lock.request.name,
            hint="nothing was written; check the indexes in the profile",
            exit_code=EXIT_FAILED,
        )


def lock_problems(lock: Lock) -> list[str]:
    req = lock.request
    problems = [f"{p.name}=={p.version} has no hash" for p in lock.packages if not p.hashes]
    problems += [_index_problem(p, req.pytorch_index, req.pypi_index) for p in lock.packages]
    wanted = {f.split("==")[0]: f.split("==")[1] for f in req.family}
    got = {p.name: p for p in lock.packages}
    for name, version in wanted.items():
        if name not in got or got[name].version != version:
            found = got[name].version if name in got else "nothing"
            problems.append(f"{name} should be {version}, the resolver chose {found}")
    labels = {_label(p.version) for p in lock.packages if p.name in _PINNED}
    if len(labels) > 1:
        problems.append(
            "mixed variants in the torch family: "
            + ", ".join(f"{p.name}=={p.version}" for p in lock.packages if p.name in _PINNED)
        )
    problems += _pylock_problems(lock)
    return [p for p in problems if p]


def _label(version: str) -> str:
    return version.partition("+")[2]


def _index_problem(p: LockedPackage, pytorch: str, pypi: str) -> str:
    if not p.index:
        return ""
    came = p.index.rstrip("/")
    if p.name in _PINNED and pytorch and came != pytorch.rstrip("/"):
        return f"{p.name} came from {p.index}, not from the PyTorch index {pytorch}"
    if not is_family(p.name) and came != pypi.rstrip("/"):
        return f"{p.name} came from {p.index}, not from {pypi}"
    return ""


def _pylock_problems(lock: Lock) -> list[str]:
    text = lock.files.get("pylock.toml")
    if text is None:
        return []
    data = tomlread.loads(text)
    try:
        from packaging.pylock import Pylock, PylockValidationError

        try:
            Pylock.from_dict(data)
        except PylockValidationError as exc:
            return [f"pylock.toml is not valid PEP 751: {exc}"]
    except ImportError:  # packaging < 25 has no PEP 751 model
        pass
    in_pylock = {(p["name"], p["version"]) for p in data.get("packages", [])}
    in_txt = {(p.name, p.version) for p in lock.packages}
    if in_pylock != in_txt:
        return [f"requirements.txt and pylock.toml disagree: {sorted(in_pylock ^ in_txt)}"]
    return []
