"""Which packages a torch build brings from its PyTorch index: discovered, not listed.

A first, small resolution of the torch-family pins alone, with the PyTorch index searched first (uv's
first-index rule: a name that index lists is taken from it and from nowhere else), says which packages come from
there: triton under whatever name the build uses, the CUDA runtime wheels, the dependencies the index mirrors.
Both backends then lock every one of them from that index only, and everything else from PyPI only; no name
list can miss a dependency a new build adds (torchtriton was one). Nothing is cached on disk: an answer keyed by
the index URL outlives a change of the index, and uv's own HTTP cache already makes this cheap.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from pathlib import Path

from packaging.utils import canonicalize_name

from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.resolve.model import LockRequest
from envplan.resolve.reqparse import parse_requirements
from envplan.resolve.runner import ToolFailed, clean_env, run_tool

__all__ = ["discover_closure", "pin_names"]


def pin_names(request: LockRequest) -> set[str]:
    """The canonical names of the request's exact torch-family pins."""
    return {canonicalize_name(re.split(r"[=<>!~; \[]", pin, maxsplit=1)[0]) for pin in request.family}


def discover_closure(
    request: LockRequest, *, uv: str, work: Path, env: Mapping[str, str] | None = None, offline: bool = False
) -> dict[str, str]:
    """{canonical name: version} of every package the pins resolve to from the PyTorch index ({} without one)."""
    if not request.pytorch_index:
        return {}
    (work / "family.in").write_text("\n".join(request.family) + "\n")
    argv = [
        uv,
        "pip",
        "compile",
        "--no-config",
        "--quiet",
        "--no-header",
        "--emit-index-annotation",
        "--python",
        sys.executable,
        "--python-version",
        request.python,
        "--python-platform",
        request.platform,
        "--default-index",
        request.pypi_index,
        "--index",
        f"pytorch={request.pytorch_index}",
        *(["--offline"] if offline else []),
        "family.in",
    ]
    try:
        out = run_tool(argv, cwd=work, env=env or clean_env(), where=request.name).stdout
    except ToolFailed as exc:
        raise EnvplanError(
            "resolution-failed",
            f"the torch family of {request.name} does not resolve:\n" + "\n".join(exc.output.splitlines()[-8:]),
            where=request.name,
            hint=f"check that {request.pytorch_index} serves {', '.join(request.family)} for Python "
            f"{request.python} on {request.platform}",
            exit_code=EXIT_FAILED,
        ) from None
    home = request.pytorch_index.rstrip("/")
    return {canonicalize_name(p.name): p.version for p in parse_requirements(out) if p.index.rstrip("/") == home}
