"""The doctor's report for people."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from envplan.core.findings import Finding
from envplan.live.probe import Observed
from envplan.render.console import findings_view

__all__ = ["doctor_view"]


def doctor_view(obs: Observed, findings: list[Finding]) -> Group:
    torch = obs.torch or {}
    seen = [
        f"Python {obs.python} ({obs.executable})",
        f"torch {torch.get('version', '-')}, CUDA {torch.get('cuda')}, cuDNN {torch.get('cudnn')}, "
        f"C++11 ABI {int(bool(torch.get('cxx11_abi')))}, cuda available: {torch.get('cuda_available')}"
        if torch
        else f"torch: {obs.torch_error or 'not installed'}",
        f"GPUs: {', '.join(f'{n} ({c})' for n, c in obs.gpus) or 'none visible'}; driver {obs.driver or '-'}"
        + (f" (CUDA <= {obs.driver_cuda})" if obs.driver_cuda else ""),
        f"nvcc: {obs.nvcc or '-'}; CUDA_HOME: {obs.cuda_home or '-'}; glibc {obs.glibc or '-'}",
    ]
    lines: list[Text | Group] = [Text("seen", "bold"), *[Text(f"  {s}") for s in seen]]
    lines += [Text(f"  note: {n}", "dim") for n in obs.notes]
    lines.append(findings_view("findings", findings) if findings else Text("no problems found", "bold green"))
    return Group(*lines)
