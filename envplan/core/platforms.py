"""What a torch release publishes for one platform, and which GPU architectures its builds carry there. Pure.

The KB answers per (release, platform): Linux x86_64, Linux aarch64, Windows, macOS arm64, macOS x86_64. Where
it has no row for a platform, the answer says so (`known = False`): unknown is never read as yes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

from packaging.version import Version

from envplan.kb import KB
from envplan.kb.model import ArchList, Release, Verified
from envplan.kb.variants import parse_variant
from envplan.profile.model import Machine

__all__ = ["ArchSupport", "Offer", "arch_support", "conda_subdir", "offer_for", "platform_label"]

_LABELS = {
    "linux-x86_64": "Linux x86_64",
    "linux-aarch64": "Linux aarch64",
    "windows-x86_64": "Windows x86_64",
    "macos-arm64": "macOS arm64 (Apple silicon)",
    "macos-x86_64": "macOS x86_64 (Intel)",
}


def platform_label(platform: str) -> str:
    return _LABELS.get(platform, platform)


def conda_subdir(machine: Machine) -> str:
    """The conda subdir (linux-64, linux-aarch64, osx-arm64, osx-64, win-64) of the machine."""
    if machine.os == "macos":
        return "osx-arm64" if machine.arch == "aarch64" else "osx-64"
    if machine.os == "windows":
        return "win-64"
    return "linux-aarch64" if machine.arch == "aarch64" else "linux-64"


@dataclass(frozen=True, kw_only=True, slots=True)
class Offer:
    """The wheels a release publishes for one platform, as far as the KB knows."""

    release: Release
    platform: str
    variants: tuple[str, ...]
    python: tuple[str, ...]  # CPython tags: "3.12", "3.13t"
    pypi_default: str  # the build `pip install torch` gets from PyPI there; "none"; "" when unknown
    known: bool  # False: the KB has no row for this platform (the variants are Linux x86_64's)
    verified: Verified
    source: str
    note: str = ""

    @property
    def label(self) -> str:
        return platform_label(self.platform)

    def publishes(self, variant: str) -> bool:
        return variant in self.variants

    def python_tags(self, *, free_threaded: bool) -> tuple[str, ...]:
        return tuple(p for p in self.python if p.endswith("t") == free_threaded)


def offer_for(kb: KB, release: Release, platform: str) -> Offer:
    return _offer(kb, release.torch, platform)


@cache
def _offer(kb: KB, torch: Version, platform: str) -> Offer:
    release = kb.release(torch)
    assert release is not None  # offer_for is called with the KB's own releases
    row = kb.availability_of(release, platform)
    if row is not None:
        return Offer(
            release=release,
            platform=platform,
            variants=row.variants,
            python=row.python,
            pypi_default=row.pypi_default,
            known=True,
            verified=row.verified,
            source=row.source,
            note=row.note,
        )
    x86 = platform == "linux-x86_64"  # the release rows themselves describe Linux x86_64
    return Offer(
        release=release,
        platform=platform,
        variants=release.variants,
        python=(*release.python_versions, *release.python_experimental),
        pypi_default=(release.pypi_default or "") if x86 else "",
        known=x86,
        verified=release.verified,
        source=release.source,
    )


Status = Literal["known", "inferred", "unknown"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ArchSupport:
    """The GPU architectures a variant's wheels carry on a platform, and how the KB knows it."""

    cubins: tuple[tuple[int, int], ...] = ()
    ptx: tuple[tuple[int, int], ...] = ()
    status: Status = "unknown"
    verified: Verified = False
    source: str = ""

    @property
    def arch_list(self) -> str:
        """TORCH_CUDA_ARCH_LIST spelling: 7.5;8.0;12.0+PTX"""
        return ";".join(f"{a[0]}.{a[1]}" + ("+PTX" if a in self.ptx else "") for a in self.cubins)


def arch_support(kb: KB, release: Release, variant: str, platform: str) -> ArchSupport:
    """Which architectures `variant` of `release` carries on `platform`: read for that platform (known), derived
    from another platform's list by a documented rule (inferred), or not known."""
    return _arch_support(kb, release.torch, variant, platform)


@cache
def _arch_support(kb: KB, torch: Version, variant: str, platform: str) -> ArchSupport:
    release = kb.release(torch)
    v = parse_variant(variant)
    if release is None or v is None or v.kind != "cuda":
        return ArchSupport()
    row = kb.availability_of(release, platform)
    if row is not None and variant in row.arch_lists:
        return _support(row.arch_lists[variant], "known", row.verified, row.source)
    wheel = kb.wheel_archs(release, variant)
    if platform == "linux-x86_64" and wheel is not None:
        return _support((wheel.archs, wheel.ptx), "known", wheel.verified, wheel.source)
    if platform == "linux-aarch64" and wheel is not None and wheel.aarch64 is not None:
        return _support((wheel.aarch64, wheel.aarch64_ptx), "known", wheel.verified, wheel.source)
    if platform == "windows-x86_64" and wheel is not None:
        return ArchSupport(
            cubins=wheel.archs,
            status="inferred",
            verified=False,
            source="the Linux x86_64 list without PTX (RELEASE.md: '+PTX available on linux builds only'); "
            "not read from the Windows build scripts",
        )
    return ArchSupport()


def arch_floor(kb: KB, release: Release, variant: str, platform: str) -> tuple[tuple[int, int], str] | None:
    """The lowest architecture `variant` can carry when its own list is unknown: that of the nearest older CUDA
    build of the same release on the same platform whose list is known. PyTorch drops old architectures as its
    CUDA versions rise and never adds them back within a release, so an architecture below this floor is absent."""
    v = parse_variant(variant)
    if v is None or v.cuda is None:
        return None
    older = []
    for other in (*release.variants, *release.unadvertised_variants):
        o = parse_variant(other)
        if o is not None and o.cuda is not None and o.cuda < v.cuda:
            support = arch_support(kb, release, other, platform)
            if support.status == "known" and support.cubins:
                older.append((o.cuda, other, min(support.cubins)))
    if not older:
        return None
    _, name, floor = max(older)
    return floor, name


def _support(archs: ArchList, status: Status, verified: Verified, source: str) -> ArchSupport:
    return ArchSupport(cubins=archs[0], ptx=archs[1], status=status, verified=verified, source=source)
