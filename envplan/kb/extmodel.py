"""Typed facts about compiled extensions: how each ships, and which builds each release published."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from envplan.kb.model import Verified, minor_of

__all__ = ["BoundRelease", "ExtRelease", "ExtensionFacts", "TorchBound"]


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
    commits: Mapping[str, str] = field(default_factory=dict)  # version -> the commit its tag points at
    nightly: tuple[Version, ...] = ()  # minors whose wheels were built against a torch nightly: not offered
    wheel_version: str = ""  # the version in its wheel file names when it differs from the tag (1.6.1.post4 -> 1.6.1)
    on_pypi: bool = True  # False: a git tag only, which `pip install name==version` cannot resolve
    verified: Verified = True
    note: str = ""

    @property
    def known_versions(self) -> tuple[Version, ...]:
        """The tags this row names: its versions, or the two ends of its range."""
        if self.versions:
            return self.versions
        return tuple(dict.fromkeys(self.version_range)) if self.version_range else ()

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
        if minor in self.nightly:
            return False
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
    git: str = ""  # the repository to build from ("" = https://github.com/<repo>.git)
    tag: str = "v{version}"  # a release's git tag
    sdist_builds_from: Version | None = None  # the first release whose PyPI sdist carries the sources a build needs
    sdist_source: str = ""  # how that is known
    source_ref: str = ""  # git-only extensions: the commit to build (no release is usable)
    source_ref_note: str = ""
    arch_env: str = "TORCH_CUDA_ARCH_LIST"  # what its setup.py reads for the architectures ("" = hard-coded)
    arch_format: str = "torch"  # "torch" (8.0;9.0) or "sm" (80;90)
    arch_env_from: Version | None = None  # the first release known to read arch_env
    default_archs: tuple[tuple[Version, str], ...] = ()  # (nvcc from, archs compiled) when hard-coded
    build_core_minutes_per_arch: float | None = None  # measured: minutes x cores for one architecture
    build_time_source: str = ""
    force_build: Mapping[str, str] = field(default_factory=dict)
    force_cxx11_abi: str = ""
    toolkit_match: str = "major"  # or "major.minor" (apex)
    min_nvcc: Version | None = None
    min_compute_capability: Version | None = None
    needs: tuple[str, ...] = ()  # run-time requirements (Requires-Dist without the torch family)
    build_needs: tuple[str, ...] = ()  # what a --no-build-isolation source build imports
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

    @property
    def git_url(self) -> str:
        return self.git or f"https://github.com/{self.repo}.git"

    def commit_of(self, version: Version) -> str:
        return next((r.commits[str(version)] for r in self.releases if str(version) in r.commits), "")

    def sdist_builds(self, version: Version) -> bool | None:
        """Whether `pip install name==version` from PyPI can compile it (None: the KB does not know)."""
        if any(r.has_version(version) and not r.on_pypi for r in self.releases):
            return False
        if self.sdist_builds_from is None:
            return None
        return version >= self.sdist_builds_from

    def archs_for(self, nvcc: Version) -> str:
        """The architectures a hard-coded build list compiles with this nvcc ("" when not hard-coded/known)."""
        fitting = [archs for since, archs in self.default_archs if nvcc >= since]
        return fitting[-1] if fitting else ""


@dataclass(frozen=True, kw_only=True, slots=True)
class BoundRelease:
    """One release of a torch-bound package: what it requires of torch and its companions."""

    version: Version
    torch: SpecifierSet
    companions: Mapping[str, SpecifierSet] = field(default_factory=dict)
    python: SpecifierSet | None = None
    compiled: int = 0  # shared objects in its wheel
    glibc: Version | None = None  # the floor its Linux x86_64 wheel tag raises
    source: str = ""

    @property
    def exact(self) -> bool:
        return any(s.operator in ("==", "===") for s in self.torch)


@dataclass(frozen=True, kw_only=True, slots=True)
class TorchBound:
    """A package that pins torch or ships code compiled against one torch: it moves with torch."""

    name: str
    releases: tuple[BoundRelease, ...]
    note: str = ""
    source: str = ""
