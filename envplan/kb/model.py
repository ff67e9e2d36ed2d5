"""Typed, immutable facts of the knowledge base. Every fact keeps its source and how sure it is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from packaging.version import Version

from envplan.kb.variants import CC, parse_cc

__all__ = [
    "PLATFORMS",
    "Availability",
    "CondaBuild",
    "CondaFacts",
    "CudaToolkit",
    "DockerImage",
    "DriverFloor",
    "ExtWheel",
    "Gpu",
    "Platform",
    "Release",
    "RocmDriver",
    "RocmWheel",
    "Verified",
    "WheelArch",
    "minor_of",
]

Verified = bool | Literal["partial"]
ArchList = tuple[tuple[CC, ...], tuple[CC, ...]]  # (cubins, PTX)
PLATFORMS = ("linux-x86_64", "linux-aarch64", "windows-x86_64", "macos-arm64", "macos-x86_64")


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
class Availability:
    """Which torch wheels one platform gets for a release line: variants, CPython tags, PyPI's default build,
    and the GPU architectures its CUDA builds carry where a source gives them."""

    line: str  # "2.9", or "2.12.0" when patch releases differ
    releases: tuple[Version, ...]
    platform: str  # one of PLATFORMS
    variants: tuple[str, ...]
    python: tuple[str, ...]  # "3.13", "3.13t" (free-threaded)
    pypi_default: str  # "cpu", "cu130", or "none" (PyPI has no wheel for this platform)
    arch_lists: Mapping[str, ArchList] = field(default_factory=dict)
    arch_list_note: str = ""
    verified: Verified
    note: str = ""
    source: str

    def publishes(self, variant: str) -> bool:
        return variant in self.variants

    def has_python(self, tag: str) -> bool:
        return tag in self.python

    def python_span(self, *, free_threaded: bool = False) -> tuple[str, ...]:
        """The CPython tags of one kind (regular or free-threaded), oldest first."""
        return tuple(p for p in self.python if p.endswith("t") == free_threaded)


@dataclass(frozen=True, kw_only=True, slots=True)
class ExtWheel:
    """One prebuilt extension wheel seen on its GitHub release (`envplan kb update`): its file name's facts."""

    extension: str  # flash-attn, causal-conv1d, mamba-ssm
    tag: str  # the release tag without "v": 2.8.3, 1.6.1.post4
    cuda_major: int
    torch_minor: str  # "2.8"
    abi: bool  # cxx11abiTRUE
    python: str  # "3.12"
    arch: str  # x86_64 | aarch64
    url: str
    learned_from: str
    learned_on: str


@dataclass(frozen=True, kw_only=True, slots=True)
class RocmWheel:
    """The gfx targets the official rocmX.Y wheels of a torch minor are compiled for."""

    torch: Version  # the minor
    variants: tuple[str, ...]
    gfx: tuple[str, ...]
    verified: Verified
    source: str
    note: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class RocmDriver:
    """Which ROCm user-space versions a host amdgpu kernel driver (named by its ROCm or amdgpu version) runs."""

    driver: Version
    runs: tuple[Version, ...]  # ROCm major.minor
    verified: Verified
    source: str


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
class DriverFloor:
    """The driver an old CUDA toolkit needs (one the KB builds nothing for), from NVIDIA's release notes."""

    version: Version  # CUDA major.minor
    driver_linux: Version
    driver_windows: Version
    verified: bool
    note: str = ""
    arch_max: CC | None = None  # the newest compute capability it compiles for natively, where the KB knows it

    def driver(self, os: str) -> Version:
        return self.driver_windows if os == "windows" else self.driver_linux


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
    """A GPU model family row: the names it covers and its architecture (NVIDIA: compute capability; AMD: the
    LLVM gfx target)."""

    names: tuple[str, ...]
    compute_capability: CC | None
    verified: bool
    source: str
    reference_name: str = ""
    vendor: Literal["nvidia", "amd", "intel"] = "nvidia"
    gfx: str = ""
    tegra: bool = False  # a Jetson before Thor: JetPack's L4T CUDA stack, not SBSA


@dataclass(frozen=True, kw_only=True, slots=True)
class CondaBuild:
    """One build of a package on a conda channel, learned from its repodata by `envplan kb update --conda-channel`."""

    channel: str  # the channel's URL
    subdir: str  # linux-64, osx-arm64, ...
    name: str  # pytorch, torchvision, torchaudio, xformers, flash-attn
    version: str
    build: str
    python: str = ""  # "3.10"; "" when the build does not depend on one Python
    cuda: str = ""  # "11.8", "cpu", or "" when neither the build string nor its depends say
    torch: tuple[str, ...] = ()  # the pytorch versions of the channel it installs with (companions, extensions)
    source: str = ""  # where and when it was learned


@dataclass(frozen=True, kw_only=True, slots=True)
class DockerImage:
    tag: str
    verified: Verified
    source: str
    note: str = ""
    cuda: str = ""  # "12.1"; "" when only the tag says
    flavor: str = ""  # "runtime" | "devel"; "" when only the tag says

    @property
    def doubtful(self) -> bool:
        """A tag the reference doubts exists (seen once, for a CUDA its release never built)."""
        return self.verified is False and self.note.startswith("DOUBTFUL")

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
