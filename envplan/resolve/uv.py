"""The uv backend: `uv pip compile` for the profile's Python and platform, each package tied to one index.

Every package the torch-family pins resolve to from the PyTorch index (closure.py discovers them: triton, the
CUDA runtime wheels, the mirrored basics) is tied to that index with an explicit index and per-package sources,
so uv cannot take it from anywhere else; everything else comes from PyPI, the default index, only.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.resolve.closure import discover_closure, pin_names
from envplan.resolve.freshness import remember_uv_version, remembered_uv_version
from envplan.resolve.model import Lock, LockRequest
from envplan.resolve.reqparse import parse_requirements
from envplan.resolve.runner import ToolFailed, clean_env, run_tool, temp_dir

__all__ = ["UvBackend"]


class UvBackend:
    name = "uv"

    def __init__(self, *, uv: str = "uv", cache_dir: Path | None = None, offline: bool = False) -> None:
        self.uv = uv
        self.cache_dir = cache_dir
        self.offline = offline

    @property
    def version(self) -> str:
        return _uv_version(self.uv)

    def lock(self, request: LockRequest) -> Lock:
        with temp_dir("uv") as tmp:
            work = Path(tmp)
            closure = discover_closure(request, uv=self.uv, work=work, env=self._env(), offline=self.offline)
            (work / "pyproject.toml").write_text(_pyproject(request, closure))
            with ThreadPoolExecutor(max_workers=2) as pool:
                txt = pool.submit(self._compile, request, work, ["--emit-index-annotation"], "requirements.txt")
                lock = pool.submit(self._compile, request, work, ["--format", "pylock.toml"], "pylock.toml")
                requirements, pylock = txt.result(), lock.result()
        header = _header(request, self.version)
        return Lock(
            request=request,
            backend=f"uv {self.version}",
            packages=parse_requirements(requirements),
            files={"requirements.txt": header + requirements, "pylock.toml": header + pylock},
            pytorch_names=frozenset(pin_names(request) | set(closure)) if request.pytorch_index else frozenset(),
        )

    def _base(self, request: LockRequest) -> list[str]:
        argv = [
            self.uv,
            "pip",
            "compile",
            "--no-config",
            "--quiet",
            "--no-header",
            "--generate-hashes",
            # resolve for the profile's Python, but build with this one: no interpreter search (0.45 s a call)
            "--python",
            sys.executable,
            "--python-version",
            request.python_minor,
            "--python-platform",
            request.platform,
            "--default-index",
            request.pypi_index,
        ]
        return argv + (["--offline"] if self.offline else [])

    def _env(self) -> dict[str, str]:
        return clean_env({"UV_CACHE_DIR": str(self.cache_dir)} if self.cache_dir else {})

    def _compile(self, request: LockRequest, work: Path, extra: list[str], out: str) -> str:
        argv = [*self._base(request), *extra, "-o", out, "pyproject.toml"]
        try:
            run_tool(argv, cwd=work, env=self._env(), where=request.name)
        except ToolFailed as exc:
            raise _explain(exc, request) from None
        return (work / out).read_text()


def _pyproject(request: LockRequest, closure: dict[str, str]) -> str:
    """The lock's input: the pins, the closure's names, the other requirements; the first two tied to the
    PyTorch index (explicit: nothing else can come from it)."""
    pinned = pin_names(request)
    deps = list(request.family) + [n for n in sorted(closure) if n not in pinned] + list(request.requirements)
    lines = [
        "[project]",
        'name = "envplan-lock"',
        'version = "0"',
        f'requires-python = ">={request.python_minor}"',
        f"dependencies = {json.dumps(deps)}",
    ]
    if request.pytorch_index:
        lines += [
            "",
            "[[tool.uv.index]]",
            'name = "pytorch"',
            f"url = {json.dumps(request.pytorch_index)}",
            "explicit = true",
            "",
            "[tool.uv.sources]",
            *[f'{json.dumps(n)} = {{ index = "pytorch" }}' for n in sorted(pinned | set(closure))],
        ]
    return "\n".join(lines) + "\n"


def _header(request: LockRequest, version: str) -> str:
    indexes = (
        f"pytorch={request.pytorch_index} (the torch family and what it brings from there), "
        if request.pytorch_index
        else ""
    )
    return (
        f"# locked by envplan with uv {version} for Python {request.python} on "
        f"{request.platform}\n# indexes: {indexes}pypi={request.pypi_index} (everything else)\n"
    )


_UNREACHABLE = re.compile(
    r"(dns error|Connect|connection refused|Failed to fetch|error sending request|"
    r"Could not connect|Network is unreachable|failed to read from file)",
    re.I,
)


_USAGE = re.compile(r"error: (invalid value|unexpected argument)|For more information, try '--help'")


def _explain(exc: ToolFailed, request: LockRequest) -> EnvplanError:
    tail = "\n".join(exc.output.splitlines()[-8:])
    indexes = ", ".join(i for i in (request.pytorch_index, request.pypi_index) if i)
    if _UNREACHABLE.search(exc.output):
        hint = f"check that the indexes answer ({indexes}), or set [indexes] in the profile to a reachable mirror"
        ref = "index-unreachable"
    elif _USAGE.search(exc.output):  # uv refused the command line itself: nothing was resolved
        hint = "this uv does not accept the command line envplan gave it: update uv, or report it as an envplan bug"
        ref = "tool-usage"
    else:
        hint = (
            "the pins cannot be satisfied from those indexes: check the versions exist there for Python "
            f"{request.python} on {request.platform}, or relax stack.packages (what torch brings from the "
            "PyTorch index, its mirrored numpy too, is locked from that index only)"
        )
        ref = "resolution-failed"
    return EnvplanError(
        ref, f"uv could not lock {request.name}:\n{tail}", where=request.name, hint=hint, exit_code=EXIT_FAILED
    )


@cache
def _uv_version(uv: str) -> str:
    """`uv --version`, remembered on disk for this binary (path, size, mtime): a fresh lock runs no uv at all."""
    key, known = remembered_uv_version(uv)
    if known is not None:
        return known
    with tempfile.TemporaryDirectory() as tmp:
        out = run_tool([uv, "--version"], cwd=Path(tmp), env=clean_env(), where="uv").stdout
    version = out.split()[1] if len(out.split()) > 1 else out.strip()
    remember_uv_version(key, version)
    return version
