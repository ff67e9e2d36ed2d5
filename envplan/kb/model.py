"""Typed, immutable facts of the knowledge base. Every fact keeps its source and how sure it is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from packaging.version import Version

from envplan.variants import CC, parse_cc

__all__ = [
    "CondaFacts",
    "CudaToolkit",
    "DockerImage",
    "Gpu",
    "Platform",
    "Release",
    "Verified",
    "WheelArch",
    "minor_of",
]

Verified = bool | Literal["partial"]


@cache
def minor_of(version: Version) -> Version:
    """2.1.2 -> 2.1"""
    return Version(f"{version.major}.{version.minor}")


@dataclass(frozen=True, kw_only=True, slots=True)
class Release:
    """One torch patch release and everything published with it."""

    torch: Version
    torchvision: Version
    torchaudio: Version
    conda_torchvision: Version | None = None
    conda_torchaudio: Version | None = None
    python_min: Version
    python_max: Version
    python_experimental: tuple[str, ...] = ()
    variants: tuple[str, ...]
    unadvertised_variants: tuple[str, ...] = ()
    pypi_default: str | None = None
    cxx11_abi: bool
    cxx11_abi_by_variant: Mapping[str, bool] = field(default_factory=dict)
    glibc: Version
    glibc_by_variant: Mapping[str, Version] = field(default_factory=dict)
    manylinux: str
    cpp_standard: str
    release_md_cuda_stable: tuple[str, ...] = ()
    release_md_cuda_experimental: tuple[str, ...] = ()
    release_md_rocm: str = ""
    conda_pytorch_channel: bool
    verified: Verified
    unverified_fields: tuple[str, ...] = ()
    source: str
    note: str = ""

    @property
    def minor(self) -> Version:
        return minor_of(self.torch)

    @property
    def python_versions(self) -> tuple[str, ...]:
        """Every CPython minor with wheels, oldest first ("3.8", "3.9", ...)."""
        lo, hi = self.python_min.release, self.python_max.release
        return tuple(f"{lo[0]}.{m}" for m in range(lo[1], hi[1] + 1))

    def cxx11_abi_for(self, variant: str) -> bool:
        return self.cxx11_abi_by_variant.get(variant, self.cxx11_abi)

    def glibc_for(self, variant: str) -> Version:
        return self.glibc_by_variant.get(variant, self.glibc)

    def publishes(self, variant: str) -> bool:
        return variant in self.variants or variant in self.unadvertised_variants

    def is_doubtful(self, fact: str) -> bool:
        return fact in self.unverified_fields


@dataclass(frozen=True, kw_only=True, slots=True)
class CudaToolkit:
    """A CUDA toolkit version: the drivers it needs and the architectures it compiles."""

    version: Version
    driver_linux: Version | None
    driver_windows: Version | None
    minor_compat_linux: Version | None
    minor_compat_windows: Version | None
    latest_update_driver_linux: str = ""  # verbatim, e.g. "520.61.05" or "535.104.05 (12.2 Update 2)"
    latest_update_driver_windows: str = ""
    arch_min: CC
    arch_max: CC
    drivers_verified: bool
    arch_verified: bool
    note: str = ""

    def driver(self, os: str) -> Version | None:
        return self.driver_windows if os == "windows" else self.driver_linux

    def minor_compat_driver(self, os: str) -> Version | None:
        return self.minor_compat_windows if os == "windows" else self.minor_compat_linux

    def compiles_for(self, cc: CC) -> bool:
        return self.arch_min <= cc <= self.arch_max


@dataclass(frozen=True, kw_only=True, slots=True)
class WheelArch:
    """The architectures compiled into one variant's wheels for a range of torch minors."""

    torch_from: Version
    torch_to: Version
    variant: str
    archs: tuple[CC, ...]
    ptx: tuple[CC, ...] = ()
    aarch64: tuple[CC, ...] | None = None
    aarch64_ptx: tuple[CC, ...] = ()
    verified: Verified
    source: str
    note: str = ""

    def covers(self, minor: Version, variant: str) -> bool:
        return variant == self.variant and self.torch_from <= minor <= self.torch_to

    def for_arch(self, machine_arch: str) -> tuple[tuple[CC, ...], tuple[CC, ...]] | None:
        """(cubins, ptx) for a machine architecture; None when the KB does not know them."""
        if machine_arch == "aarch64":
            return None if self.aarch64 is None else (self.aarch64, self.aarch64_ptx)
        return self.archs, self.ptx

    def arch_list(self, machine_arch: str = "x86_64") -> str:
        """TORCH_CUDA_ARCH_LIST spelling: 7.5;8.0;12.0+PTX"""
        known = self.for_arch(machine_arch)
        if known is None:
            return ""
        cubins, ptx = known
        return ";".join(f"{a[0]}.{a[1]}" + ("+PTX" if a in ptx else "") for a in cubins)


@dataclass(frozen=True, kw_only=True, slots=True)
class Gpu:
    """A GPU model family row: the names it covers and its compute capability."""

    names: tuple[str, ...]
    compute_capability: CC
    verified: bool
    source: str
    reference_name: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class DockerImage:
    tag: str
    verified: bool
    source: str

    @property
    def torch(self) -> str:
        return self.tag.rsplit(":", 1)[1].split("-", 1)[0]


@dataclass(frozen=True, kw_only=True, slots=True)
class Platform:
    """Torch availability on a platform other than Linux x86_64."""

    os: str
    arch: str
    last_torch: Version | None = None
    variants: tuple[str, ...] = ()
    pypi_default: str | None = None
    verified: Verified
    source: str
    note: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class CondaFacts:
    pytorch_channel_last_version: Version
    statement: str
    source: str
    cuda_selection: str
    alternative: str
    pytorch_cuda: tuple[str, ...] = ()
    cudatoolkit: tuple[str, ...] = ()


def cc_of(text: str) -> CC:
    """Parse a KB compute capability; "12.x" means every 12.y."""
    if text.endswith(".x"):
        return (int(text[:-2]), 9)
    cc = parse_cc(text)
    if cc is None:
        raise ValueError(f"not a compute capability: {text!r}")
    return cc
