"""An offline wheelhouse for one plan step: every file of its pylock.toml, hash-verified and resumable,
and install.sh that installs them on an air-gapped machine with --no-index --require-hashes."""

from __future__ import annotations

import hashlib
import os
import shutil
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from envplan import tomlread
from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.export.planfiles import PlanDir
from envplan.paths import inside
from envplan.quoting import shell_comment
from envplan.write import write_file

__all__ = ["WheelFile", "build_wheelhouse", "fetch_all", "files_of", "render_install_sh"]

Progress = Callable[[str, int, int], None]  # (filename, bytes done, bytes total)


@dataclass(frozen=True, slots=True)
class WheelFile:
    name: str
    url: str
    sha256: str
    size: int | None


def files_of(pylock: Path) -> list[WheelFile]:
    """Every wheel (and sdist) the step's pylock.toml names, with its hash."""
    try:
        data = tomlread.loads(pylock.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise EnvplanError(
            "no-lock",
            "no readable pylock.toml",
            where=str(pylock),
            hint="lock the plan first (envplan upgrade without --no-lock)",
        ) from None
    out = []
    for package in data.get("packages", []):
        entries = list(package.get("wheels", [])) + ([package["sdist"]] if "sdist" in package else [])
        for e in entries:
            url = e["url"]
            name = e.get("name") or urllib.parse.unquote(url.rsplit("/", 1)[-1])
            out.append(WheelFile(name=name, url=url, sha256=e["hashes"]["sha256"], size=e.get("size")))
    return out


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def build_wheelhouse(plan: PlanDir, step: str, out: Path, progress: Progress | None = None) -> tuple[int, int, int]:
    """Fill `out` with the step's files, its requirements, the verifier and install.sh: (files, downloaded, kept)."""
    folder = inside(plan.root, step, what=f"{plan.root / 'plan.json'}: steps")
    files = files_of(folder / "pylock.toml")
    try:
        out.mkdir(parents=True, exist_ok=True)
        fetched, kept = fetch_all(files, out, progress=progress)
        for source in (folder / "requirements.txt", folder / "expect.json", plan.root / "envplan_verify.py"):
            shutil.copyfile(source, out / source.name)
    except OSError as exc:
        raise EnvplanError(
            "write-failed",
            f"cannot write the wheelhouse: {exc.strerror or exc}",
            where=str(getattr(exc, "filename", None) or out),
            hint="give -o a folder that can be created and written",
            exit_code=EXIT_FAILED,
        ) from None
    write_file(out / "install.sh", render_install_sh(step), executable=True)
    return len(files), fetched, kept


def fetch_all(files: list[WheelFile], out: Path, progress: Progress | None = None) -> tuple[int, int]:
    """(downloaded, already there): files present with the right hash are kept (resumable)."""
    out.mkdir(parents=True, exist_ok=True)
    fetched = kept = 0
    for f in files:
        target = inside(out, f.name, what=f"pylock.toml: {f.url}")
        if target.is_file() and _sha256(target) == f.sha256:
            kept += 1
            continue
        _download(f, target, progress)
        fetched += 1
    return fetched, kept


def _download(f: WheelFile, target: Path, progress: Progress | None) -> None:
    part = target.with_name(target.name + ".part")
    h = hashlib.sha256()
    try:
        with urllib.request.urlopen(f.url, timeout=120) as response, part.open("wb") as sink:
            total = int(response.headers.get("Content-Length") or f.size or 0)
            done = 0
            for chunk in iter(lambda: response.read(1 << 20), b""):
                sink.write(chunk)
                h.update(chunk)
                done += len(chunk)
                if progress:
                    progress(f.name, done, total)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise EnvplanError(
            "download-failed",
            f"cannot download {f.url}: {exc}",
            where=f.name,
            hint="check that the index answers; rerun to resume",
            exit_code=EXIT_FAILED,
        ) from None
    if h.hexdigest() != f.sha256:
        part.unlink(missing_ok=True)
        raise EnvplanError(
            "hash-mismatch",
            f"{f.url} does not have the locked sha256 {f.sha256}",
            where=f.name,
            hint="the index serves another file than the lock recorded: do not use it",
            exit_code=EXIT_FAILED,
        )
    os.replace(part, target)


def render_install_sh(step: str) -> str:
    return f"""#!/usr/bin/env bash
# {shell_comment(step)}: install this wheelhouse on a machine without network (generated by envplan).
#   PYTHON=/path/to/python bash install.sh
set -euo pipefail
here="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
PYTHON="${{PYTHON:-python}}"
"$PYTHON" -m pip install --no-index --find-links "$here" --require-hashes --no-deps -r "$here/requirements.txt"
"$PYTHON" "$here/envplan_verify.py" "$here/expect.json"
"""
