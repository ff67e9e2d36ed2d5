"""Where envplan keeps its user-level files (the KB overlay, caches), how a cache entry is written, and the
rules every output path follows: names are names, and a path built from one stays under its directory."""

from __future__ import annotations

import contextlib
import os
import re
import threading
import warnings
from pathlib import Path

from envplan.errors import EXIT_BAD_INPUT, EnvplanError
from envplan.fastio import cache_dir, file_key

__all__ = [
    "NAME_RULE",
    "CacheWarning",
    "cache_root",
    "current_umask",
    "inside",
    "safe_name",
    "stat_key",
    "store_cache",
    "warn_cache",
]

# A name that becomes a folder (lock-<name>, a fleet's <out>/<name>, a plan step): no separators, no `..`,
# no control characters, nothing a shell or YAML treats specially, not starting with `.` or `-`.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}", re.ASCII)
NAME_RULE = "letters, digits, '.', '_' and '-' (starting with a letter or digit, at most 100 characters)"


class CacheWarning(UserWarning):
    """A cache file envplan cannot use: it is ignored (and rebuilt where envplan can rebuild it)."""


def warn_cache(path: Path, what: str) -> None:
    """Say, once per process and file, that a cache file was ignored (the CLI prints it as a warning line)."""
    warnings.warn(f"{path}: {what}", CacheWarning, stacklevel=2)


def cache_root() -> Path:
    return Path(cache_dir())


def safe_name(text: str) -> bool:
    """True when `text` may name a folder: one path component, never `.`/`..`, no control characters."""
    return _NAME.fullmatch(text) is not None and ".." not in text


def inside(root: Path, relative: str, *, what: str) -> Path:
    """`root / relative`, refused (exit 2) unless it resolves to a place under `root`."""
    base = Path(os.path.realpath(root))
    try:
        path = Path(os.path.realpath(base / relative))
    except (ValueError, OSError):
        path = Path("/")
    if "\0" in relative or not path.is_relative_to(base) or path == base:
        raise EnvplanError(
            "path-escapes",
            f"{relative!r} would be written outside {root}",
            where=what,
            hint=f"a name must be one folder name: {NAME_RULE}",
            exit_code=EXIT_BAD_INPUT,
        )
    return path


def current_umask() -> int:
    """The process umask, read without changing it where the system says it (Linux), else set and restored."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def stat_key(path: str | Path) -> str:
    """`path|size|mtime_ns`: what a cache entry derived from a file is keyed by (the path alone if it is gone)."""
    return file_key(str(path))


def store_cache(path: Path, data: str | bytes) -> bool:
    """Write a cache entry atomically (a temporary file of this thread beside it, then rename), so a concurrent
    reader sees the old entry or the new one, never half of one. A cache that cannot be written only costs
    time: the failure is swallowed, and False says so."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            tmp.write_text(data, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):  # the folder itself may be what failed
            tmp.unlink()
        return False
    return True
