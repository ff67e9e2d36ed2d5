"""GPU names as people and nvidia-smi write them, and CUDA's rule for which builds run on a GPU."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from envplan.kb.model import Gpu
from envplan.variants import CC

__all__ = ["GpuMatch", "MachineGpu", "find_gpu", "machine_gpus", "normalize_gpu_name", "runs_on"]

_NOISE = frozenset({"nvidia", "geforce", "tesla", "quadro"})
_SPLIT = re.compile(r"[\s\-_/(),]+")


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
        for known in gpu.names:
            key = normalize_gpu_name(known)
            if key and words[: len(key)] == key and (best is None or len(key) > best[0]):
                best = (len(key), GpuMatch(gpu, known))
    return best[1] if best else None


def runs_on(cc: CC, cubins: Iterable[CC], ptx: Iterable[CC] = ()) -> bool:
    """CUDA's rule: a cubin for X.Z with Z <= Y (same major X) runs on X.Y; PTX for any arch <= X.Y JITs."""
    return any(c[0] == cc[0] and c[1] <= cc[1] for c in cubins) or any(p <= cc for p in ptx)


@dataclass(frozen=True, slots=True)
class MachineGpu:
    """A GPU of a profile with the compute capability envplan will use for it."""

    name: str
    cc: CC | None
    origin: str  # "profile" (compute-capability given), "kb" (looked up), "unknown"
    verified: bool = True

    @property
    def sm(self) -> str:
        return f"sm_{self.cc[0]}{self.cc[1]}" if self.cc else "sm_?"


def machine_gpus(names: tuple[str, ...], ccs: tuple[CC, ...], gpus: Iterable[Gpu]) -> tuple[MachineGpu, ...]:
    """Pair each GPU with its capability: the profile's compute-capability wins, else the KB's."""
    if ccs:
        labels = names or tuple(f"GPU {i}" for i in range(len(ccs)))
        return tuple(MachineGpu(n, cc, "profile") for n, cc in zip(labels, ccs, strict=True))
    out = []
    for name in names:
        match = find_gpu(name, gpus)
        if match is None:
            out.append(MachineGpu(name, None, "unknown", verified=False))
        else:
            out.append(MachineGpu(name, match.gpu.compute_capability, "kb", match.gpu.verified))
    return tuple(out)
