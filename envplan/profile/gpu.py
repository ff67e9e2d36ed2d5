"""GPU names as people and nvidia-smi write them, and CUDA's rule for which builds run on a GPU."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Literal

from envplan.kb.model import Gpu
from envplan.kb.variants import CC

__all__ = [
    "GpuMatch",
    "MachineGpu",
    "Vendor",
    "find_gpu",
    "gpu_vendor",
    "machine_gpus",
    "normalize_gpu_name",
    "runs_on",
]

Vendor = Literal["nvidia", "amd", "intel"]
_NOISE = frozenset({"nvidia", "geforce", "tesla", "quadro", "amd", "radeon", "instinct", "intel"})
_SPLIT = re.compile(r"[\s\-_/(),]+")
_AMD = re.compile(r"\b(amd|radeon|instinct|mi\d{2,3}[a-z]?|gfx\d{2,4}[a-z]?)\b", re.I | re.ASCII)
_INTEL = re.compile(r"\b(intel|arc\s*[ab]\d{3}|data\s*center\s*gpu\s*max|flex\s*\d{3})\b", re.I | re.ASCII)
_GFX = re.compile(r"\bgfx\d{2,4}[a-z]?\b", re.I | re.ASCII)


def gpu_vendor(name: str) -> Vendor:
    """Who makes a GPU, from its name as people or the vendor's tools write it (NVIDIA unless it says otherwise)."""
    if _AMD.search(name):
        return "amd"
    if _INTEL.search(name):
        return "intel"
    return "nvidia"


@dataclass(frozen=True, slots=True)
class GpuMatch:
    gpu: Gpu
    name: str  # the KB name that matched


def normalize_gpu_name(name: str) -> tuple[str, ...]:
    """`NVIDIA A100-SXM4-80GB` -> ("a100", "sxm4", "80gb"); vendor and brand words dropped."""
    return tuple(t for t in _SPLIT.split(name.lower()) if t and t not in _NOISE)


def find_gpu(name: str, gpus: Iterable[Gpu]) -> GpuMatch | None:
    """The KB row whose model name is the longest word-prefix of `name`, or None."""
    words = normalize_gpu_name(name)
    best: tuple[int, GpuMatch] | None = None
    for gpu in gpus:
        for known, key in _keys(gpu):
            if key and words[: len(key)] == key and (best is None or len(key) > best[0]):
                best = (len(key), GpuMatch(gpu, known))
    return best[1] if best else None


@cache
def _keys(gpu: Gpu) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((known, normalize_gpu_name(known)) for known in gpu.names)


def runs_on(cc: CC, cubins: Iterable[CC], ptx: Iterable[CC] = ()) -> bool:
    """CUDA's rule: a cubin for X.Z with Z <= Y (same major X) runs on X.Y; PTX for any arch <= X.Y JITs."""
    return any(c[0] == cc[0] and c[1] <= cc[1] for c in cubins) or any(p <= cc for p in ptx)


@dataclass(frozen=True, slots=True)
class MachineGpu:
    """A GPU of a profile with the architecture envplan will use for it: a CUDA compute capability for NVIDIA,
    an LLVM gfx target for AMD."""

    name: str
    cc: CC | None
    origin: str  # "profile" (compute-capability given), "kb" (looked up), "unknown"
    verified: bool = True
    vendor: Vendor = "nvidia"
    gfx: str = ""  # AMD: "gfx942"
    tegra: bool = False  # a Jetson before Thor (JetPack's L4T CUDA stack)

    @property
    def sm(self) -> str:
        if self.vendor == "amd":
            return self.gfx or "gfx?"
        return f"sm_{self.cc[0]}{self.cc[1]}" if self.cc else "sm_?"

    @property
    def known(self) -> bool:
        """Whether its architecture is known (a compute capability, or a gfx target)."""
        return bool(self.gfx) if self.vendor == "amd" else self.cc is not None or self.vendor != "nvidia"


def machine_gpus(names: tuple[str, ...], ccs: tuple[CC | str, ...], gpus: Iterable[Gpu]) -> tuple[MachineGpu, ...]:
    """Pair each GPU with its architecture: the profile's compute-capability wins, else the KB's."""
    rows = tuple(gpus)
    if ccs:
        labels = names or tuple(f"GPU {i}" for i in range(len(ccs)))
        return tuple(_given(n, cc, rows) for n, cc in zip(labels, ccs, strict=True))
    return tuple(_one_gpu(name, rows) for name in names)


def _given(name: str, arch: CC | str, rows: tuple[Gpu, ...]) -> MachineGpu:
    """A GPU whose architecture the profile gives: a compute capability, or an AMD gfx target."""
    if isinstance(arch, str):
        return MachineGpu(name, None, "profile", vendor="amd", gfx=arch)
    match = find_gpu(name, (g for g in rows if g.vendor == "nvidia"))
    return MachineGpu(name, arch, "profile", tegra=bool(match and match.gpu.tegra))


def _one_gpu(name: str, rows: tuple[Gpu, ...]) -> MachineGpu:
    vendor = gpu_vendor(name)
    written = _GFX.search(name)
    if written:
        return MachineGpu(name, None, "profile", vendor="amd", gfx=written.group(0).lower())
    match = find_gpu(name, (g for g in rows if g.vendor == vendor))
    if match is None:
        return MachineGpu(name, None, "unknown", verified=False, vendor=vendor)
    g = match.gpu
    return MachineGpu(name, g.compute_capability, "kb", g.verified, vendor=g.vendor, gfx=g.gfx, tegra=g.tegra)
