"""What the unchanged-lock path needs of the system: SHA-256 as lock.json records it, the user cache folder, a
file's stat key and `which`, each without the start-up cost of the module that usually provides it (hashlib
loads OpenSSL, ~3 ms; pathlib ~2 ms; shutil ~3 ms), because an unchanged `envplan lock` must cost little more
than the interpreter's own start-up. Only os and sys are imported (the interpreter has loaded both)."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing itself costs ~3 ms to import; mypy reads this name as typing's
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    class _Hash(Protocol):
        def hexdigest(self) -> str: ...


__all__ = ["cache_dir", "file_key", "is_executable", "sha256_hex", "which"]


def _sha256() -> Callable[[bytes], _Hash]:
    """CPython's own SHA-256 (`_sha256` up to 3.11, `_sha2` from 3.12): the algorithm hashlib.sha256 computes,
    without loading OpenSSL; hashlib's where neither exists (another interpreter)."""
    own = "_sha2" if sys.version_info >= (3, 12) else "_sha256"
    for name in (own, "hashlib"):
        try:
            factory: Callable[[bytes], _Hash] = __import__(name).sha256
        except (ImportError, AttributeError):
            continue
        return factory
    raise ImportError("no SHA-256 implementation")  # unreachable on CPython: hashlib always has one


_SHA256 = _sha256()


def sha256_hex(data: bytes) -> str:
    return _SHA256(data).hexdigest()


def cache_dir() -> str:
    """Where envplan keeps its user-level files: $XDG_CACHE_HOME/envplan, else ~/.cache/envplan."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "envplan")


def file_key(path: str) -> str:
    """`path|size|mtime_ns`: what a cache entry derived from a file is keyed by (the path alone if it is gone)."""
    try:
        st = os.stat(path)
    except OSError:
        return path
    return f"{path}|{st.st_size}|{st.st_mtime_ns}"


def which(command: str) -> str | None:
    """shutil.which: on POSIX an executable file in a PATH folder, found without importing shutil; shutil itself
    on Windows (PATHEXT) and for a command given with a folder."""
    if sys.platform == "win32" or os.sep in command:
        import shutil

        return shutil.which(command)
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(folder, command)
        if is_executable(path):
            return path
    return None


def is_executable(path: str) -> bool:
    """An executable file (what `which` looks for in each PATH folder)."""
    return os.path.isfile(path) and os.access(path, os.X_OK)
