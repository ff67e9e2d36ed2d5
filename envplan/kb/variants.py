"""Wheel variants (cpu, cuXYZ, rocmX.Y, xpu) and compute capabilities, parsed at the boundary."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal

from packaging.version import Version

__all__ = [
    "CC",
    "TORCH_FAMILY",
    "DisplayVersion",
    "Variant",
    "format_cc",
    "parse_cc",
    "parse_sm",
    "parse_variant",
    "sm_cc",
    "variant_sort_key",
]

CC = tuple[int, int]
_VARIANT = re.compile(r"cpu|xpu|cu(\d{1,2})(\d)|rocm(\d{1,3}(?:\.\d{1,3}){0,3})", re.ASCII)  # ASCII digits only
TORCH_FAMILY = ("torch", "torchvision", "torchaudio")  # the one definition: torch and its companions

_CC = re.compile(r"(\d{1,2})\.(\d)", re.ASCII)
_SM = re.compile(r"(?:sm_|compute_)?(\d{1,2})(\d)[af]?", re.ASCII)


@dataclass(frozen=True, slots=True)
class Variant:
    """One build flavour of the torch wheels, named as the PyTorch index names it."""

    name: str
    kind: Literal["cpu", "cuda", "rocm", "xpu"]
    version: Version | None = None

    @property
    def cuda(self) -> Version | None:
        return self.version if self.kind == "cuda" else None

    @property
    def family(self) -> str:
        """What a choice keeps: "cuda12", "cuda13", "rocm6", "rocm7", "cpu", "xpu"."""
        return f"{self.kind}{self.version.major}" if self.version is not None else self.kind

    def __str__(self) -> str:
        return self.name


@cache
def parse_variant(text: str) -> Variant | None:
    """`cu118` -> CUDA 11.8, `cu130` -> CUDA 13.0, `rocm6.2.4`, `cpu`, `xpu` (Intel GPUs); None if not a variant."""
    m = _VARIANT.fullmatch(text)
    if m is None:
        return None
    if text in ("cpu", "xpu"):
        return Variant(text, "cpu" if text == "cpu" else "xpu")
    if m.group(1):
        return Variant(text, "cuda", Version(f"{m.group(1)}.{m.group(2)}"))
    return Variant(text, "rocm", Version(m.group(3)))


def variant_sort_key(name: str) -> tuple[str, Version]:
    """cpu, cu102 ... cu132, rocm5.1.1 ... rocm7.2, xpu: by kind, then by version (cu130 after cu128)."""
    v = parse_variant(name)
    if v is None:
        return ("~", Version("0"))
    return (v.kind, v.version or Version("0"))


def parse_cc(text: str) -> CC | None:
    """`8.6` -> (8, 6); None when not a compute capability."""
    m = _CC.fullmatch(text.strip())
    return (int(m.group(1)), int(m.group(2))) if m else None


def parse_sm(token: str) -> CC | None:
    """The other spelling of a compute capability: `sm_86`, `compute_90a`, `sm_120` or bare `86` -> (8, 6) ...;
    the last digit is the minor. None when not one."""
    m = _SM.fullmatch(token.strip())
    return (int(m.group(1)), int(m.group(2))) if m else None


def sm_cc(token: str) -> CC:
    """parse_sm for a token a pattern already matched: a ValueError, not None, when it is not one."""
    cc = parse_sm(token)
    if cc is None:
        raise ValueError(f"not an sm architecture: {token!r}")
    return cc


def format_cc(cc: CC) -> str:
    return f"{cc[0]}.{cc[1]}"


class DisplayVersion(Version):
    """A Version that prints as written (`535.104.05`, not `535.104.5`): driver numbers keep their zeros."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._text = text

    def __str__(self) -> str:
        return self._text

    def __reduce__(self) -> tuple[type[DisplayVersion], tuple[str]]:
        return DisplayVersion, (self._text,)
