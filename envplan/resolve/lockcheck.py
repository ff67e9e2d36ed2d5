"""Checks on a resolver's result before it is written: envplan trusts no resolver with the torch family, nor with
where any package comes from."""

from __future__ import annotations

from typing import Any

from packaging.utils import canonicalize_name

from envplan import tomlread
from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.kb.variants import TORCH_FAMILY
from envplan.resolve.model import Lock

__all__ = ["lock_problems", "verify_lock"]


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
    problems += [_index_problem(p.name, p.index, lock, "requirements.txt") for p in lock.packages]
    wanted = {f.split("==")[0]: f.split("==")[1] for f in req.family}
    got = {p.name: p for p in lock.packages}
    for name, version in wanted.items():
        if name not in got or got[name].version != version:
            found = got[name].version if name in got else "nothing"
            problems.append(f"{name} should be {version}, the resolver chose {found}")
    labels = {_label(p.version) for p in lock.packages if p.name in TORCH_FAMILY}
    if len(labels) > 1:
        problems.append(
            "mixed variants in the torch family: "
            + ", ".join(f"{p.name}=={p.version}" for p in lock.packages if p.name in TORCH_FAMILY)
        )
    problems += _pylock_problems(lock)
    return [p for p in problems if p]


def _label(version: str) -> str:
    return version.partition("+")[2]


def home_index(name: str, lock: Lock) -> str:
    """The one index `name` may come from: the PyTorch index for what the torch family brought from there,
    PyPI for everything else."""
    req = lock.request
    from_pytorch = req.pytorch_index and canonicalize_name(name) in lock.pytorch_names
    return req.pytorch_index if from_pytorch else req.pypi_index


def _index_problem(name: str, index: str, lock: Lock, where: str) -> str:
    must = home_index(name, lock).rstrip("/")
    if not index:
        return f"{name} in {where} does not say which index it comes from (it must be {must})"
    if index.rstrip("/") != must:
        return f"{name} in {where} comes from {index}, not from {must}"
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
    packages: list[dict[str, Any]] = data.get("packages", [])
    in_pylock = {(p["name"], p["version"]) for p in packages}
    in_txt = {(p.name, p.version) for p in lock.packages}
    if in_pylock != in_txt:
        return [f"requirements.txt and pylock.toml disagree: {sorted(in_pylock ^ in_txt)}"]
    hashes = {p.name: set(p.hashes) for p in lock.packages}
    problems = [_index_problem(p["name"], str(p["index"]), lock, "pylock.toml") for p in packages if "index" in p]
    return problems + [_file_problem(p, hashes.get(p["name"], set())) for p in packages]


def _file_problem(package: dict[str, Any], allowed: set[str]) -> str:
    """Every file pylock.toml names must be one requirements.txt allows (whose index was checked above)."""
    files = [*package.get("wheels", []), *([package["sdist"]] if "sdist" in package else [])]
    other = [f.get("url", "?") for f in files if f"sha256:{f.get('hashes', {}).get('sha256')}" not in allowed]
    return f"{package['name']} in pylock.toml names files requirements.txt does not: {other}" if other else ""
