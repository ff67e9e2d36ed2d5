"""The pip-tools backend: `pip-compile --generate-hashes`, as users of the design know it.

pip-compile resolves for the interpreter it runs under and cannot tie a package to one index, so this
backend refuses a profile whose Python or platform differs from that interpreter, pins every package the torch
family brings from the PyTorch index to the exact version found there (closure.py), and afterwards checks every
hash against the one index each package may come from: a hash that index does not serve fails the lock.
"""

from __future__ import annotations

import sys
import tempfile
from functools import cache
from pathlib import Path

from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import Version

from envplan.errors import EXIT_BAD_INPUT, EXIT_FAILED, EnvplanError
from envplan.index.simple import IndexFile, project_files
from envplan.resolve import find_uv
from envplan.resolve.closure import discover_closure, pin_names
from envplan.resolve.model import Lock, LockedPackage, LockRequest
from envplan.resolve.pylock import render_pylock
from envplan.resolve.reqparse import parse_requirements
from envplan.resolve.runner import ToolFailed, clean_env, run_tool, temp_dir

__all__ = ["PipToolsBackend"]

_PROBE = (
    "import platform, sys; print(f'{sys.version_info[0]}.{sys.version_info[1]} {platform.system()} "
    "{platform.machine()}')"
)


class PipToolsBackend:
    name = "pip-tools"

    def __init__(self, *, python: str = sys.executable, python_flag: str = "--python") -> None:
        self.python = python
        self.python_flag = python_flag  # what the running command calls the option, for hints

    @property
    def version(self) -> str:
        return _piptools_version(self.python)

    def lock(self, request: LockRequest) -> Lock:
        self._check_interpreter(request)
        with temp_dir("piptools") as tmp:
            work = Path(tmp)
            closure = discover_closure(request, uv=find_uv(), work=work)
            pinned = pin_names(request)
            exact = [f"{name}=={version}" for name, version in sorted(closure.items()) if name not in pinned]
            (work / "requirements.in").write_text("\n".join([*request.family, *exact, *request.requirements]) + "\n")
            try:
                run_tool(self._argv(request), cwd=work, env=clean_env(), where=request.name)
            except ToolFailed as exc:
                raise EnvplanError(
                    "resolution-failed",
                    f"pip-compile could not lock {request.name}:\n" + "\n".join(exc.output.splitlines()[-8:]),
                    where=request.name,
                    hint="check the pins exist on the indexes",
                    exit_code=EXIT_FAILED,
                ) from None
            text = (work / "requirements.txt").read_text()
        packages = parse_requirements(text)
        from_pytorch = frozenset(pinned | set(closure)) if request.pytorch_index else frozenset()
        entries = [_provenance(p, request, from_pytorch) for p in packages]
        located = tuple(
            LockedPackage(name=p.name, version=p.version, hashes=p.hashes, index=index) for p, index, _ in entries
        )
        header = (
            f"# locked by envplan with pip-tools {self.version} for Python {request.python}\n"
            f"# indexes: {request.pytorch_index or '-'} (the torch family and what it brings from there), "
            f"{request.pypi_index} (everything else)\n"
        )
        return Lock(
            request=request,
            backend=f"pip-tools {self.version}",
            packages=located,
            files={"requirements.txt": header + text, "pylock.toml": render_pylock(request.python, entries)},
            pytorch_names=from_pytorch,
        )

    def _argv(self, request: LockRequest) -> list[str]:
        argv = [
            self.python,
            "-m",
            "piptools",
            "compile",
            "--no-config",
            "--quiet",
            "--generate-hashes",
            "--allow-unsafe",
            "--strip-extras",
            "--no-emit-index-url",
            "--no-emit-find-links",
            "--no-header",
            "--no-annotate",
            "--index-url",
            request.pypi_index,
            "-o",
            "requirements.txt",
            "requirements.in",
        ]
        if request.pytorch_index:
            argv[argv.index("--index-url") + 2 : argv.index("--index-url") + 2] = [
                "--extra-index-url",
                request.pytorch_index,
            ]
        return argv

    def _check_interpreter(self, request: LockRequest) -> None:
        py, system, machine = _interpreter(self.python)
        want_system = {"linux": "Linux", "macos": "Darwin", "windows": "Windows"}
        os_name = "macos" if "apple" in request.platform else ("windows" if "windows" in request.platform else "linux")
        arch = request.platform.split("-")[0]
        if py != request.python or system != want_system[os_name] or machine not in (arch, "arm64", "AMD64"):
            raise EnvplanError(
                "interpreter-mismatch",
                f"pip-compile resolves for the interpreter it runs under ({self.python}: Python {py} on {system} "
                f"{machine}), not for the profile's Python {request.python} on {request.platform}",
                where=request.name,
                exit_code=EXIT_BAD_INPUT,
                hint=f"pass {self.python_flag} PATH of a Python {request.python} on that platform, or use --backend uv",
            )


def _provenance(
    p: LockedPackage, request: LockRequest, from_pytorch: frozenset[str]
) -> tuple[LockedPackage, str, list[IndexFile]]:
    """The one index `p` must come from, and its files there; every hash must be one of them."""
    home = request.pytorch_index if canonicalize_name(p.name) in from_pytorch else request.pypi_index
    files = _matching(home, p)
    known = {f"sha256:{f.sha256}" for f in files}
    foreign = [h for h in p.hashes if h not in known]
    if foreign or not files:
        raise EnvplanError(
            "unsafe-lock",
            f"{p.name}=={p.version} in {request.name} has files that {home} does not "
            "serve: pip could install it from another index (dependency confusion)",
            where=request.name,
            hint="use --backend uv, which ties each package to one index",
            exit_code=EXIT_FAILED,
        )
    return p, home, [f for f in files if f"sha256:{f.sha256}" in p.hashes]


def _matching(index: str, p: LockedPackage) -> list[IndexFile]:
    """The index's files of exactly this name and version."""
    want = (canonicalize_name(p.name), Version(p.version))
    return [f for f in project_files(index, p.name) if _name_version(f.filename) == want]


def _name_version(filename: str) -> tuple[str, Version] | None:
    try:
        if filename.endswith(".whl"):
            name, version, *_ = parse_wheel_filename(filename)
        else:
            name, version = parse_sdist_filename(filename)
    except (InvalidWheelFilename, InvalidSdistFilename):
        return None
    return name, version


@cache
def _interpreter(python: str) -> tuple[str, str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        out = run_tool([python, "-c", _PROBE], cwd=Path(tmp), env=clean_env(), where=python).stdout.split()
    return out[0], out[1], out[2]


@cache
def _piptools_version(python: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        try:
            out = run_tool(
                [python, "-m", "piptools", "compile", "--version"], cwd=Path(tmp), env=clean_env(), where=python
            ).stdout
        except ToolFailed:
            raise EnvplanError(
                "tool-missing",
                f"pip-tools is not installed for {python}",
                where="--backend pip-tools",
                hint=f"{python} -m pip install pip-tools",
                exit_code=EXIT_FAILED,
            ) from None
    return out.strip().rsplit(" ", 1)[-1]
