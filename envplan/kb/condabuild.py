"""What a conda build string says about CUDA: the pytorch channel's `py3.10_cuda11.8_cudnn8.7.0_0` and
`py310_cu118`, conda-forge's `cuda118_py310h..._301` / `cuda126_mkl_py312h...`, and the CPU builds."""

from __future__ import annotations

import re

__all__ = ["conda_cuda", "cuda_variant"]

_DOTTED = re.compile(r"(?:^|_)cuda(\d+)\.(\d+)(?:_|$)")  # pytorch channel: py3.10_cuda11.8_cudnn8.7.0_0
_PREFIX = re.compile(r"^cuda(\d{1,2})(\d)(?=_|py|$)")  # conda-forge: cuda118_py310h..., cuda126_mkl_py312h...
_TOKEN = re.compile(r"(?:^|_)cu(\d{1,2})(\d)(?:_|$)")  # pytorch channel companions: py310_cu118
_CPU = re.compile(r"(?:^|_)cpu(?:_|$)")


def conda_cuda(build: str) -> str:
    """ "cpu", "11.8", or "" when the build string does not say."""
    m = _DOTTED.search(build) or _PREFIX.match(build) or _TOKEN.search(build)
    if m:
        return f"{int(m.group(1))}.{int(m.group(2))}"
    return "cpu" if _CPU.search(build) else ""


def cuda_variant(cuda: str) -> str:
    """ "11.8" -> "cu118", "cpu" -> "cpu"."""
    if cuda == "cpu":
        return "cpu"
    major, _, minor = cuda.partition(".")
    return f"cu{major}{minor.split('.')[0] or '0'}"
