"""Is a lock on disk still the lock of these inputs? Answered before anything heavy is imported: the request
is a pure function of the profile, the KB and envplan's version, so when those and the backend are unchanged
(and the files are as written), nothing needs planning or resolving."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from envplan import __version__
from envplan.kb.digest import kb_digest

__all__ = [
    "CONDA_LOCK",
    "LOCK_FILES",
    "STAMP",
    "LockOutcome",
    "pinned",
    "quick_fresh",
    "remembered_uv_version",
    "text_digest",
    "unchanged_lock",
]

STAMP = "lock.json"
LOCK_FILES = ("requirements.txt", "pylock.toml")
CONDA_LOCK = "conda-lock.yml"
UV_VERSION_MEMO = "uv-version.json"


@dataclass(frozen=True, kw_only=True, slots=True)
class LockOutcome:
    name: str
    status: str  # "locked" | "fresh" | "stale"
    files: dict[str, str] = field(default_factory=dict)  # the lock's files, lock.json included
    changed: tuple[str, ...] = ()  # why a lock is stale (or was redone)
    packages: int = 0


def pinned(requirements: str) -> int:
    """How many packages a locked requirements.txt pins."""
    return sum(1 for line in requirements.splitlines() if "==" in line and not line.startswith("#"))


def remembered_uv_version(uv: str) -> tuple[str, str | None]:
    """(this binary's key: path, size, mtime; the version `uv --version` printed for it, or None when not known)."""
    from envplan.paths import cache_root, stat_key

    path = Path(shutil.which(uv) or uv)
    key = stat_key(path) if path.exists() else ""
    try:
        saved = json.loads((cache_root() / UV_VERSION_MEMO).read_text())
        if key and saved.get("key") == key and isinstance(saved.get("version"), str):
            return key, str(saved["version"])
    except (OSError, ValueError, AttributeError):
        pass
    return key, None


def text_digest(text: str) -> str:
    """How lock.json records the profile and every file it stamps."""
    return hashlib.sha256(text.encode()).hexdigest()


def quick_fresh(folder: Path, profile_text: str, backend: str, *, conda: bool) -> dict[str, str] | None:
    """The lock's files as read (lock.json included) when they are still the lock of these inputs, else None."""
    try:
        stamp_text = (folder / STAMP).read_text(encoding="utf-8")
        stamp = json.loads(stamp_text)
        inputs, files = stamp["inputs"], stamp["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    same = (
        inputs.get("profile") == text_digest(profile_text)
        and inputs.get("kb") == kb_digest()
        and inputs.get("backend") == backend
        and inputs.get("envplan") == __version__
        and ("conda" in inputs) == conda
        and ("conda-lock.yml" in files) == conda
    )
    if not same:
        return None
    texts = {STAMP: stamp_text}
    for name, digest in files.items():
        try:
            texts[name] = (folder / name).read_text(encoding="utf-8")
        except OSError:
            return None
        if text_digest(texts[name]) != digest:
            return None
    return texts


def unchanged_lock(profile: Path, out: str | None, backend: str, *, conda: bool) -> LockOutcome | None:
    """`envplan lock PROFILE`'s answer when its lock is current ("fresh", named by its folder), read without
    parsing the profile into a model (None: take the full path, which also reports whatever is wrong)."""
    from envplan import tomlread
    from envplan.errors import EnvplanError
    from envplan.paths import safe_name

    if backend != "uv":
        return None  # pip-compile's version costs a Python start-up: the full path is as quick
    try:
        text = profile.read_text(encoding="utf-8")
        name = tomlread.loads(text)["name"]
        if not out and not (isinstance(name, str) and safe_name(name)):
            return None
        from envplan.resolve import find_uv

        version = remembered_uv_version(find_uv())[1]
        if version is None:
            return None  # the full path runs uv once and remembers it
    except (OSError, ValueError, KeyError, TypeError, EnvplanError):
        return None
    folder = Path(out or f"lock-{name}")
    texts = quick_fresh(folder, text, f"uv {version}", conda=conda)
    if texts is None:
        return None
    files = {n: texts[n] for n in (*LOCK_FILES, STAMP) if n in texts}
    return LockOutcome(name=str(folder), status="fresh", files=files, packages=pinned(files.get(LOCK_FILES[0], "")))
