"""The one writer: a directory of files, written atomically (all of it or none of it)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from envplan.errors import EXIT_FAILED, EnvplanError

__all__ = ["write_file", "write_tree"]


def write_tree(out: Path, files: Mapping[str, str]) -> None:
    """Replace directory `out` with exactly `files` ({relative path: text}); a failure leaves `out` as it was."""
    out = out.resolve()
    parent = out.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=parent))
    except OSError as exc:
        raise EnvplanError(
            "write-failed",
            f"cannot create {parent}: {exc.strerror}",
            where=str(out),
            hint="choose another --out",
            exit_code=EXIT_FAILED,
        ) from None
    try:
        for rel, text in files.items():
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        _swap(staging, out)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise EnvplanError(
            "write-failed",
            f"cannot write: {exc.strerror}",
            where=str(out),
            hint="check the permissions and free space",
            exit_code=EXIT_FAILED,
        ) from None


def _swap(staging: Path, out: Path) -> None:
    if not out.exists():
        os.replace(staging, out)
        return
    if not out.is_dir():
        raise EnvplanError(
            "write-failed", "exists and is not a directory", where=str(out), hint="choose another --out or remove it"
        )
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
    os.replace(out, old / out.name)
    os.replace(staging, out)
    shutil.rmtree(old, ignore_errors=True)


def write_file(path: Path, text: str) -> None:
    """Write one file atomically (temporary file beside it, then rename)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise EnvplanError(
            "write-failed", f"cannot write: {exc.strerror}", where=str(path), exit_code=EXIT_FAILED
        ) from None
