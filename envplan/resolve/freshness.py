"""Is a lock on disk still the lock of these inputs? Answered before anything heavy is imported: the request
is a pure function of the profile, the KB and envplan's version, so when those and the backend are unchanged
(and the files are as written), nothing needs planning or resolving."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from envplan import __version__
from envplan.kb.digest import kb_digest

__all__ = ["quick_fresh", "text_digest"]


def text_digest(text: str) -> str:
    """How lock.json records the profile and every file it stamps."""
    return hashlib.sha256(text.encode()).hexdigest()


def quick_fresh(folder: Path, profile_text: str, backend: str, *, conda: bool) -> bool:
    try:
        stamp = json.loads((folder / "lock.json").read_text(encoding="utf-8"))
        inputs, files = stamp["inputs"], stamp["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    same = (
        inputs.get("profile") == text_digest(profile_text)
        and inputs.get("kb") == kb_digest()
        and inputs.get("backend") == backend
        and inputs.get("envplan") == __version__
        and ("conda" in inputs) == conda
        and ("conda-lock.yml" in files) == conda
    )
    if not same:
        return False
    for name, digest in files.items():
        try:
            if text_digest((folder / name).read_text(encoding="utf-8")) != digest:
                return False
        except OSError:
            return False
    return True
