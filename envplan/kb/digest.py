"""A hash of the KB's data files, without importing the KB: locks record it, so a change to any KB file makes them
stale. It is on the unchanged-lock path, so it is read from a memo in the user cache keyed by each file's size and
mtime (hashing the 250 KB of TOML costs a few ms; reading the memo a tenth of one), and this module imports only
what the interpreter has loaded already."""

from __future__ import annotations

import os
from functools import cache

from envplan.fastio import cache_dir, file_key, sha256_hex

__all__ = ["KB_DATA", "MEMO", "kb_digest"]

KB_DATA = os.path.dirname(os.path.abspath(__file__))
MEMO = "kb-digest.txt"  # the files' keys, one a line, then the digest


@cache
def kb_digest() -> str:
    files = sorted((entry.name, entry.path) for entry in os.scandir(KB_DATA) if entry.name.endswith(".toml"))
    key = "\n".join(file_key(path) for _, path in files)
    memo = os.path.join(cache_dir(), MEMO)
    try:
        with open(memo, encoding="utf-8") as saved:
            saved_key, _, digest = saved.read().rpartition("\n")
        if saved_key == key and len(digest) == 64:
            return digest
    except (OSError, ValueError):
        pass
    digest = _digest(files)
    from pathlib import Path

    from envplan.paths import store_cache

    store_cache(Path(memo), f"{key}\n{digest}")
    return digest


def _digest(files: list[tuple[str, str]]) -> str:
    data = bytearray()
    for name, path in files:
        with open(path, "rb") as toml:
            data += name.encode() + b"\0" + toml.read()
    return sha256_hex(bytes(data))
