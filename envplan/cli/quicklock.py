"""`envplan lock` when its lock is current, answered before argparse (and anything else heavy) is imported: the
answer costs about what the interpreter's start-up does. Only the plain forms of the command are read here
(`lock [PROFILE] [--out DIR] [--check] [--json] [--force]`); any other argument, a stale lock or an error in the
inputs takes the full path, which gives the same answer for a fresh lock and reports everything else."""

from __future__ import annotations

import os
import sys

from envplan.resolve.freshness import LOCK_FILES, fresh_lock, fresh_message, pinned

TYPE_CHECKING = False  # neither typing nor collections.abc is imported: this is the unchanged-lock path
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["answer", "lock_row", "render_fresh"]

DEFAULT_PROFILE = "envplan.toml"
_IGNORED = frozenset({"--check", "--force"})  # neither changes what a fresh lock is answered with


def answer(argv: list[str]) -> int | None:
    """The exit code of `envplan lock ARGV` when its lock is fresh; None when the full path must answer."""
    parsed = _parse(argv)
    if parsed is None:
        return None
    profile, out, as_json = parsed
    if os.path.isdir(profile) or (out and not _plain_path(out)):
        return None
    found = fresh_lock(profile, out, "uv", conda=False)
    if found is None:
        return None
    return render_fresh(profile, found[0], found[1], as_json=as_json, backend="uv")


def render_fresh(profile: str, folder: str, files: dict[str, str], *, as_json: bool, backend: str) -> int:
    """What `envplan lock` prints for a fresh lock (the full path prints it too)."""
    if not as_json:
        sys.stdout.write(fresh_message(folder) + "\n")
        return 0
    import json

    row = lock_row(folder, "fresh", (), pinned(files.get(LOCK_FILES[0], "")), files)
    doc = {"schema": 1, "profile": profile, "out": folder, "backend": backend, "locks": [row]}
    sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    return 0


def lock_row(name: str, status: str, changed: Iterable[str], packages: int, files: Iterable[str]) -> dict[str, object]:
    """One lock in `envplan lock --json` (and upgrade's): its folder, status, why, packages, files."""
    return {"name": name, "status": status, "changed": list(changed), "packages": packages, "files": sorted(files)}


def _parse(argv: list[str]) -> tuple[str, str | None, bool] | None:
    profile: str | None = None
    out: str | None = None
    as_json = False
    words = iter(argv)
    for word in words:
        if word in _IGNORED:
            continue
        if word == "--json":
            as_json = True
        elif word == "--out":
            out = next(words, None)
            if out is None or out.startswith("-"):
                return None
        elif word.startswith("-") or profile is not None:
            return None
        else:
            profile = word
    return profile or DEFAULT_PROFILE, out, as_json


def _plain_path(path: str) -> bool:
    """A folder written as pathlib would print it (the full path names the folder that way)."""
    return path == os.path.normpath(path) and ".." not in path.split(os.sep)
