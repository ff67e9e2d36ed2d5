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
    if out.exists() and not out.is_dir():
        raise EnvplanError(
            "write-failed", "exists and is not a directory", where=str(out), hint="choose another --out or remove it"
        )
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    except OSError as exc:
        raise _failed(out, exc) from None
    try:
        for rel, text in files.items():
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            if rel.endswith(".sh"):
                target.chmod(0o755)
        _swap(staging, out)
    except OSError as exc:
        raise _failed(out, exc) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _failed(out: Path, exc: OSError) -> EnvplanError:
    return EnvplanError(
        "write-failed",
        f"cannot write: {exc.strerror}",
        where=str(out),
        hint="check the permissions and free space, or choose another --out",
        exit_code=EXIT_FAILED,
    )


def _swap(staging: Path, out: Path) -> None:
    """Move the staged tree into place; an existing tree is moved aside first and removed after."""
    if not out.exists():
        os.replace(staging, out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
    try:
        os.replace(out, old / out.name)
        os.replace(staging, out)
    except OSError:
        if not out.exists() and (old / out.name).exists():
            os.replace(old / out.name, out)
        raise
    finally:
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
