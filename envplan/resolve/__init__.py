"""Resolver backends behind one small interface (uv, pip-tools), and the checks on what they return."""

from __future__ import annotations

TYPE_CHECKING = False  # typing and envplan.errors are not imported here: the unchanged-lock path goes through
if TYPE_CHECKING:
    from envplan.resolve.backend import Backend

__all__ = ["BACKENDS", "find_uv", "interpreter_arg", "make_backend"]

BACKENDS = ("uv", "pip-tools")


def make_backend(name: str, *, python: str | None = None, python_flag: str = "--python") -> Backend:
    """`python_flag` is what the running command calls the interpreter option (lock: --python, upgrade:
    --lock-python), so messages name the flag the user can pass."""
    from envplan.errors import EnvplanError
    from envplan.resolve.runner import sweep_stale_temp

    sweep_stale_temp()  # what runs killed outright left in the temporary folder
    if name == "uv":
        from envplan.resolve.uv import UvBackend

        if python:
            raise EnvplanError(
                "bad-argument",
                f"{python_flag} is for --backend pip-tools; uv locks for the profile's Python without running it",
                where=python_flag,
                hint=f"drop {python_flag}, or add --backend pip-tools",
            )
        return UvBackend(uv=find_uv())
    if name == "pip-tools":
        import sys

        from envplan.resolve.piptools import PipToolsBackend

        return PipToolsBackend(python=interpreter_arg(python, python_flag) or sys.executable, python_flag=python_flag)
    raise EnvplanError("bad-argument", f"unknown backend {name!r}", where="--backend", hint="use uv or pip-tools")


def interpreter_arg(path: str | None, flag: str) -> str | None:
    """An interpreter given on the command line: a runnable file (or a name on PATH), else bad input."""
    import os
    import shutil

    from envplan.errors import EnvplanError

    if path is None:
        return None
    found = shutil.which(path)
    if found is None and os.path.isfile(path) and os.access(path, os.X_OK):
        found = path
    if found is None:
        why = "not executable" if os.path.isfile(path) else "no such interpreter"
        raise EnvplanError(
            "bad-argument",
            f"{path}: {why}",
            where=flag,
            hint=f"give {flag} the path of a Python interpreter, e.g. .venv/bin/python; `uv python find 3.12` "
            "prints one",
        )
    return path


def find_uv() -> str:
    """uv on PATH, else the binary the `uv` package installed beside envplan (first where pip puts scripts next to
    this interpreter, one stat; then the package's own search, which costs a few ms of imports)."""
    import os
    import sys

    from envplan.fastio import is_executable, which

    found = which("uv")
    if found:
        return found
    beside = os.path.join(os.path.dirname(sys.executable), "uv.exe" if sys.platform == "win32" else "uv")
    if is_executable(beside):
        return beside
    try:
        from uv import find_uv_bin

        return str(find_uv_bin())
    except (ImportError, FileNotFoundError):
        return "uv"
