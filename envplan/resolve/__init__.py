"""Resolver backends behind one small interface (uv, pip-tools), and the checks on what they return."""

from __future__ import annotations

from envplan.errors import EnvplanError
from envplan.resolve.backend import Backend

__all__ = ["BACKENDS", "Backend", "find_uv", "make_backend"]

BACKENDS = ("uv", "pip-tools")


def make_backend(name: str, *, python: str | None = None) -> Backend:
    from envplan.resolve.runner import sweep_stale_temp

    sweep_stale_temp()  # what runs killed outright left in the temporary folder
    if name == "uv":
        from envplan.resolve.uv import UvBackend

        if python:
            raise EnvplanError(
                "bad-argument",
                "--python is for --backend pip-tools; uv locks for the profile's Python without running it",
                where="--python",
            )
        return UvBackend(uv=find_uv())
    if name == "pip-tools":
        import sys

        from envplan.resolve.piptools import PipToolsBackend

        return PipToolsBackend(python=python or sys.executable)
    raise EnvplanError("bad-argument", f"unknown backend {name!r}", where="--backend", hint="use uv or pip-tools")


def find_uv() -> str:
    """uv on PATH, else the binary the `uv` package installed beside envplan."""
    import shutil

    found = shutil.which("uv")
    if found:
        return found
    try:
        from uv import find_uv_bin

        return str(find_uv_bin())
    except (ImportError, FileNotFoundError):
        return "uv"
