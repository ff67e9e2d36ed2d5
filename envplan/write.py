"""The one writer. A plan directory is replaced whole: the path holds the old plan or the new one at every
moment (an atomic exchange where the kernel has one), and a folder envplan did not write is never deleted
without --force. Single files are replaced atomically, through symlinks, keeping their mode. Everything is
created with the user's umask.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from envplan import __version__
from envplan.errors import EXIT_BAD_INPUT, EXIT_FAILED, EnvplanError
from envplan.paths import current_umask

__all__ = ["LOCK_STAMP", "MARKER", "check_lock_dir", "check_out", "is_plan_dir", "write_file", "write_tree"]

LOCK_STAMP = "lock.json"  # in every lock folder: what envplan wrote there
_LOCK_FILES = ("requirements.txt", "pylock.toml", "environment.yml", "conda-lock.yml")
MARKER = ".envplan-plan"  # in every plan folder: envplan wrote it, so envplan may replace it
_STAGE, _OLD, _LEGACY_OLD = "stage-", "old-", "old."


def write_tree(out: Path, files: Mapping[str, str], *, force: bool = False, keep: Sequence[Path] = ()) -> Path:
    """Replace directory `out` with exactly `files` ({relative path: text}) and the marker; a failure leaves
    `out` as it was. Returns the directory written (behind a symlink to a plan, the plan itself). Even with
    `force`, a folder holding the current directory or one of `keep` (the profile being planned) is refused."""
    target = _target(out, force, keep)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _failed(target, exc) from None
    with _locked(target.parent):
        _recover(target)
        staging = _stage(target, files)
        try:
            _swap(staging, target)
        except OSError as exc:
            raise _failed(target, exc) from None
        finally:
            _remove(staging)
    return target


def check_out(out: Path, *, force: bool = False, keep: Sequence[Path] = ()) -> None:
    """Raise now what write_tree(out, force=force, keep=keep) would refuse."""
    _target(out, force, keep)


def check_lock_dir(out: Path, *, force: bool = False) -> None:
    """`envplan lock` writes its files into `out` one by one: refuse to overwrite lock files envplan did not
    write there (no lock.json beside them) unless forced."""
    if os.path.lexists(out) and not out.is_dir():
        raise _refused(out, "exists and is not a directory", "choose another --out")
    if force or not out.is_dir() or (out / LOCK_STAMP).is_file():
        return
    foreign = [name for name in _LOCK_FILES if os.path.lexists(out / name)]
    if foreign:
        raise _refused(
            out,
            f"has {', '.join(foreign)} that envplan did not write (no {LOCK_STAMP})",
            "choose another --out, or pass --force to overwrite them",
        )


def is_plan_dir(path: Path) -> bool:
    """A folder envplan wrote: it has the marker, or (written before markers) plan.json and PLAN.md."""
    if (path / MARKER).is_file():
        return True
    try:
        doc = json.loads((path / "plan.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and "schema" in doc and "steps" in doc and (path / "PLAN.md").is_file()


def _target(out: Path, force: bool, keep: Sequence[Path] = ()) -> Path:
    """Where the plan goes, or a refusal: never a file, never a foreign folder, never through a symlink
    into something envplan did not write, never a folder holding what must survive."""
    target = _chosen(out, force)
    if target.is_dir() and not target.is_symlink() and not is_plan_dir(target):
        for precious in (Path.cwd(), *keep):
            if Path(os.path.realpath(precious)).is_relative_to(os.path.realpath(target)):
                raise _refused(target, f"holds {precious}: replacing it would delete that too", "choose another --out")
    return target


def _chosen(out: Path, force: bool) -> Path:
    out = Path(os.path.abspath(out))
    if out.is_symlink():
        real = Path(os.path.realpath(out))
        if real.is_dir() and is_plan_dir(real):
            return real
        if not force:
            raise _refused(
                out,
                f"is a symbolic link to {real}, which is not an envplan plan",
                "choose another --out, or pass --force to replace the link with the plan (what it points to is "
                "left alone)",
            )
        return out
    if out.exists() and not out.is_dir():
        raise _refused(out, "exists and is not a directory", "choose another --out or remove it")
    blocker = file_above(out)
    if blocker is not None:
        raise _refused(out, f"cannot be a folder: {blocker} is a file", "choose another --out")
    if out.is_dir() and not force and not is_plan_dir(out) and any(out.iterdir()):
        raise _refused(
            out,
            f"is a folder envplan did not write (it has files and no {MARKER})",
            "choose another --out, or pass --force to replace the folder and everything in it",
        )
    return out


def file_above(path: Path) -> Path | None:
    """The existing file that sits where one of `path`'s folders should be, if any."""
    for parent in Path(os.path.abspath(path)).parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def _refused(out: Path, message: str, hint: str) -> EnvplanError:
    return EnvplanError("out-refused", message, where=str(out), hint=hint, exit_code=EXIT_BAD_INPUT)


def _failed(out: Path, exc: OSError) -> EnvplanError:
    return EnvplanError(
        "write-failed",
        f"cannot write: {exc.strerror or exc}",
        where=str(out),
        hint="check the permissions and free space, or choose another --out",
        exit_code=EXIT_FAILED,
    )


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One envplan writer at a time in `folder` (an advisory lock on the folder itself: no lock file)."""
    try:
        import fcntl

        fd = os.open(folder, os.O_RDONLY)
    except (ImportError, OSError):
        yield
        return
    try:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _leftovers(target: Path, kind: str) -> list[Path]:
    prefix = f".{target.name}.{kind}"
    try:
        return sorted(p for p in target.parent.iterdir() if p.name.startswith(prefix) and not p.is_symlink())
    except OSError:
        return []


def _recover(target: Path) -> None:
    """Undo what a killed writer left (under the lock, nobody else is writing): a plan moved aside but not
    replaced goes back in place; staging and old folders are removed."""
    for old in _leftovers(target, _OLD) + _leftovers(target, _LEGACY_OLD):
        inner = old if old.name.startswith(f".{target.name}.{_OLD}") else old / target.name
        if not os.path.lexists(target) and inner.is_dir() and is_plan_dir(inner):
            with contextlib.suppress(OSError):
                os.rename(inner, target)
        _remove(old)
    for stale in _leftovers(target, _STAGE):
        _remove(stale)


def _stage(target: Path, files: Mapping[str, str]) -> Path:
    umask = current_umask()
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.{_STAGE}", dir=target.parent))
    except OSError as exc:
        raise _failed(target, exc) from None
    try:
        staging.chmod(0o777 & ~umask)
        for rel, text in {**files, MARKER: _marker()}.items():
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            if rel.endswith(".sh"):
                path.chmod(0o777 & ~umask)
    except OSError as exc:
        _remove(staging)
        raise _failed(target, exc) from None
    except BaseException:
        _remove(staging)
        raise
    return staging


def _marker() -> str:
    doc = {"schema": 1, "written-by": f"envplan {__version__}", "note": "envplan replaces this folder whole"}
    return json.dumps(doc, indent=2) + "\n"


def _swap(staging: Path, target: Path) -> None:
    """Put the staged tree at `target`; what was there (a plan, an empty folder, a link) ends up at `staging`
    and is removed by the caller."""
    if not os.path.lexists(target):
        os.rename(staging, target)
        return
    if _exchange(staging, target):
        return
    old = target.parent / f".{target.name}.{_OLD}{os.getpid()}"
    os.rename(target, old)  # no atomic exchange here: a kill now is repaired by the next run (_recover)
    try:
        os.rename(staging, target)
    except OSError:
        os.rename(old, target)
        raise
    os.rename(old, staging)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2 RENAME_EXCHANGE); False where the system cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    errno = ctypes.get_errno()
    if errno in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: this file system cannot exchange
        return False
    raise OSError(errno, os.strerror(errno), str(b))


def _remove(path: Path) -> None:
    """Remove a leftover of envplan's own: a link is unlinked (never followed), a folder removed whole."""
    if path.is_symlink() or path.is_file():
        with contextlib.suppress(OSError):
            path.unlink()
    elif path.is_dir():
        shutil.rmtree(path, ignore_errors=True)


def write_file(path: Path, text: str, *, parents: bool = False, executable: bool = False) -> None:
    """Write one file atomically (a temporary file beside it, then rename). A symlink is followed, so the
    file it points to is updated and the link stays; an existing file keeps its mode, a new one gets the
    umask's (with the execute bits when `executable`). With `parents`, missing folders above it are created."""
    try:
        real = Path(os.path.realpath(path))
        if parents:
            real.parent.mkdir(parents=True, exist_ok=True)
        fresh = (0o777 if executable else 0o666) & ~current_umask()
        mode = real.stat().st_mode & 0o7777 if real.is_file() else fresh
        fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", dir=real.parent)
    except ValueError as exc:  # a NUL in the path
        raise EnvplanError("bad-path", f"not a usable path: {exc}", where=repr(str(path))) from None
    except OSError as exc:
        raise _write_error(path, exc) from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, real)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _write_error(path, exc) from None
        raise


def _write_error(path: Path, exc: OSError) -> EnvplanError:
    blocker = file_above(path)
    if blocker is not None:
        reason, hint = f"{blocker} is a file, not a folder", "write somewhere else"
    elif not Path(os.path.abspath(path)).parent.exists():
        reason, hint = "its folder does not exist", "create the folder first, or write somewhere else"
    else:
        reason, hint = str(exc.strerror or exc), "check that the folder is writable, or write somewhere else"
    return EnvplanError("write-failed", f"cannot write: {reason}", where=str(path), hint=hint, exit_code=EXIT_FAILED)
