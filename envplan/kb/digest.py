"""A hash of the KB's data files, without importing the KB (the fast path of a fresh lock needs only this)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

__all__ = ["KB_DATA", "kb_digest"]

KB_DATA = Path(__file__).resolve().parent


@cache
def kb_digest() -> str:
    """Locks record it, so a change to any KB file makes them stale."""
    h = hashlib.sha256()
    for entry in sorted(KB_DATA.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            h.update(entry.name.encode() + b"\0" + entry.read_bytes())
    return h.hexdigest()
