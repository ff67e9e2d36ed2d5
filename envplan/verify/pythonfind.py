"""Find the Python a plan step was resolved for (`3.12`, or `3.13t` free-threaded) on this machine.

Where, in order: uv's Pythons (`uv python find X.Y`, never downloading), `pythonX.Y` on PATH, and on
Windows the launcher (`py -X.Y`). Every candidate is run once to confirm its version: a pyenv shim or a
stale link that names the version but does not run it is skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

from envplan.errors import EXIT_BAD_INPUT, EnvplanError

__all__ = ["find_python", "missing_python"]

_PROBE = (
    "import sys, sysconfig; print(sys.executable); "
    "print('%d.%d' % sys.version_info[:2] + ('t' if sysconfig.get_config_var('Py_GIL_DISABLED') else ''))"
)


def find_python(
    version: str, *, path: str | None = None, uv: str | None = None, windows: bool | None = None, timeout: float = 30
) -> str | None:
    """The executable of a Python `version` (as plan.json writes it: "3.12", "3.13t"), or None."""
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    for argv in _candidates(version, env, uv=uv, windows=os.name == "nt" if windows is None else windows):
        found = _confirm(argv, version, env, timeout)
        if found:
            return found
    return None


def _candidates(version: str, env: dict[str, str], *, uv: str | None, windows: bool) -> Iterator[list[str]]:
    if uv:
        found = _run([uv, "python", "find", version], {**env, "UV_PYTHON_DOWNLOADS": "never"}, 30)
        if found:
            yield [found.splitlines()[0]]
    for folder in env.get("PATH", "").split(os.pathsep):  # every one: a pyenv shim first must not hide the next
        exe = shutil.which(f"python{version}", path=folder) if folder else None
        if exe:
            yield [exe]
    py = shutil.which("py", path=env.get("PATH")) if windows else None
    if py:
        yield [py, f"-{version}"]


def _confirm(argv: list[str], version: str, env: dict[str, str], timeout: float) -> str | None:
    """argv's real executable when it runs and is `version`; None otherwise."""
    out = _run([*argv, "-c", _PROBE], env, timeout)
    lines = out.splitlines() if out else []
    if len(lines) < 2 or lines[1].strip() != version:
        return None
    reported = lines[0].strip()
    return reported if reported and Path(reported).is_file() else argv[0]


def _run(argv: list[str], env: dict[str, str], timeout: float) -> str | None:
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else None


def missing_python(version: str, where: str, *, windows: bool | None = None) -> EnvplanError:
    """The one line verify says, before running anything, when the plan's Python is not on this machine."""
    windows = os.name == "nt" if windows is None else windows
    looked = f"uv python find {version}, python{version} on PATH" + (f", py -{version}" if windows else "")
    return EnvplanError(
        "python-missing",
        f"Python {version} not found ({looked}): the plan's steps were resolved for Python {version}, "
        "so their environments are built with it",
        where=where,
        hint=f"install it with `uv python install {version}` or the OS package python{version}, "
        "then run envplan verify again",
        exit_code=EXIT_BAD_INPUT,
    )
