"""Banners of libraries that report the torch they were built for against the installed one (xFormers)."""

from __future__ import annotations

import re

from envplan.kb import KB

from .cpu import cpu_fix
from .facts import TorchSeen, torch_seen
from .fixes import rebuild_fix
from .model import Candidate
from .text import Text

__all__ = ["built_for_banner"]

_BUILT_FOR = re.compile(
    r"PyTorch\s+(?P<built>\d[\w.+]*)\s+with\s+CUDA\s+(?P<cuda>\d+)\s*\(you have\s+(?P<have>\d[\w.+]*)\)", re.I
)


def built_for_banner(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_BUILT_FOR)
    if m is None:
        return []
    built, have = m.group("built"), m.group("have")
    evidence = text.line(m.start())
    if have.endswith("+cpu") and not built.endswith("+cpu"):
        return [
            Candidate(
                ref="cpu-only-build",
                score=0.88,
                at=m.start(),
                evidence=evidence,
                cause=f"torch {have} is a CPU build; xFormers (built for {built}) cannot use the GPU",
                fix=cpu_fix(kb, torch_seen(f"torch {have}")),
            )
        ]
    if built == have:
        return []  # same torch: the banner has another reason (no NVIDIA GPU, a Python patch release)
    seen = torch_seen(f"torch {have}")
    return [
        Candidate(
            ref="extension-torch-mismatch",
            score=0.88,
            at=m.start(),
            evidence=evidence,
            cause=f"xformers was built for torch {built}, the installed torch is {have}",
            fix=rebuild_fix("xformers", seen if isinstance(seen, TorchSeen) else None)
            + "; xformers pins its torch, so pick the xformers release made for this torch",
        )
    ]
