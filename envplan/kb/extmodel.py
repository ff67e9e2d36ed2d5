"""Typed facts about compiled extensions: how each ships, and which builds each release published."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from packaging.version import Version

from envplan.kb.model import Verified, minor_of

__all__ = ["ExtRelease", "ExtensionFacts"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ExtRelease:
    """One row of an extension's published-wheel matrix."""

    versions: tuple[Version, ...] = ()  # explicit tags
    version_range: tuple[Version, Version] | None = None  # when the reference elides tags
    python: tuple[Version, Version] | None = None
    torch: tuple[Version, ...] = ()  # torch versions the wheels were built against
    torch_range: tuple[Version, Version] | None = None  # minors, when the middle is elided
    torch_and_later: bool = False
    cuda: tuple[Version, ...] = ()
    cuda_token: str = "major"  # "minor": cu118 / cu122; "major": cu11 / cu12
    cuda_torch_max: Mapping[str, Version] = field(default_factory=dict)
    cuda_torch_min: Mapping[str, Version] = field(default_factory=dict)
    variants: tuple[str, ...] = ()  # for index / find-links wheels
    abi: str = "unknown"  # "both", "TRUE", "FALSE", "unknown"
    abi_false_torch: tuple[Version, ...] = ()  # minors that also got cxx11abiFALSE wheels
    glibc: Version | None = None
    verified: Verified = True
    note: str = ""

    def has_version(self, version: Version) -> bool:
        if version in self.versions:
            return True
        return self.version_range is not None and self.version_range[0] <= version <= self.version_range[1]

    @property
    def newest(self) -> Version | None:
        if self.versions:
            return max(self.versions)
        return self.version_range[1] if self.version_range else None

    def covers_torch(self, torch: Version) -> bool:
        minor = minor_of(torch)
        if self.torch_range is not None:
            return self.torch_range[0] <= minor <= self.torch_range[1]
        if self.torch_and_later and self.torch and torch >= min(self.torch):
            return True
        if self.variants and not self.cuda:  # index wheels are built for one exact torch
            return torch in self.torch
        return minor in {minor_of(t) for t in self.torch}

    def covers_python(self, python: Version) -> bool:
        return self.python is None or self.python[0] <= python <= self.python[1]

    def cuda_for(self, major: int, torch: Version) -> Version | None:
        """The CUDA this row built for a CUDA major and torch, if any."""
        minor = minor_of(torch)
        for cuda in self.cuda:
            key = str(cuda)
            if cuda.major != major:
                continue
            if key in self.cuda_torch_max and minor > self.cuda_torch_max[key]:
                continue
            if key in self.cuda_torch_min and minor < self.cuda_torch_min[key]:
                continue
            return cuda
        return None

    def abi_flavours(self, torch: Version) -> tuple[str, ...]:
        if self.abi == "both":
            return ("TRUE", "FALSE")
        if self.abi == "TRUE":
            return ("TRUE", "FALSE") if minor_of(torch) in self.abi_false_torch else ("TRUE",)
        if self.abi == "FALSE":
            return ("FALSE",)
        return ()


@dataclass(frozen=True, kw_only=True, slots=True)
class ExtensionFacts:
    name: str
    import_name: str
    repo: str
    ships: str  # github-release | pytorch-index | find-links | source
    wheel: str = ""
    url: str = ""
    find_links: str = ""
    source_spec: str = ""  # what pip builds from when there is no PyPI sdist
    force_build: Mapping[str, str] = field(default_factory=dict)
    force_cxx11_abi: str = ""
    toolkit_match: str = "major"  # or "major.minor" (apex)
    min_nvcc: Version | None = None
    min_compute_capability: Version | None = None
    needs: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    stable_abi_from: Version | None = None
    build_memory_gb_per_job: float = 2.0
    releases: tuple[ExtRelease, ...] = ()
    same_pages_as: str = ""  # find-links pages shared with (and listed for) another extension
    verified: Verified = True
    source: str = ""
    note: str = ""

    def rows_for(self, version: Version) -> tuple[ExtRelease, ...]:
        return tuple(r for r in self.releases if r.has_version(version))
