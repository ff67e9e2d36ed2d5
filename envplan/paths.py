"""Where envplan keeps its user-level files (the KB overlay, caches), and how a cache entry is written."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

__all__ = ["cache_root", "stat_key", "store_cache"]


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "envplan"


def stat_key(path: str | Path) -> str:
    """`path|size|mtime_ns`: what a cache entry derived from a file is keyed by (the path alone if it is gone)."""
    try:
        st = Path(path).stat()
    except OSError:
        return str(path)
    return f"{path}|{st.st_size}|{st.st_mtime_ns}"


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
