"""The knowledge base: verified compatibility facts shipped as data, with typed queries.

`load_kb()` reads the TOML files beside this module once; everything it returns is immutable.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from packaging.version import Version

from envplan.kb import loader
from envplan.kb.digest import kb_digest
from envplan.kb.extmodel import ExtensionFacts, TorchBound
from envplan.kb.model import (
    Availability,
    CondaBuild,
    CondaFacts,
    CudaToolkit,
    DockerImage,
    DriverFloor,
    ExtWheel,
    Gpu,
    Platform,
    Release,
    RocmDriver,
    RocmWheel,
    WheelArch,
    minor_of,
)
from envplan.kb.variants import parse_variant

__all__ = ["KB", "Release", "kb_digest", "load_kb"]


@dataclass(frozen=True, kw_only=True, slots=True, eq=False)  # identity: a KB is a value read once
class KB:
    releases: tuple[Release, ...]
    cuda: tuple[CudaToolkit, ...]
    wheel_arch: tuple[WheelArch, ...]
    gpus: tuple[Gpu, ...]
    docker: tuple[DockerImage, ...]
    platforms: tuple[Platform, ...]
    conda: CondaFacts
    dependents: Mapping[str, tuple[str, ...]]
    extensions: tuple[ExtensionFacts, ...] = ()
    availability: tuple[Availability, ...] = ()
    rocm_wheels: tuple[RocmWheel, ...] = ()
    rocm_drivers: tuple[RocmDriver, ...] = ()
    torch_bound: tuple[TorchBound, ...] = ()
    ext_wheels: tuple[ExtWheel, ...] = ()  # learned from the extensions' GitHub releases (kb update)
    learned: frozenset[Version] = frozenset()  # releases that come from the user's overlay, not the embedded KB
    conda_builds: tuple[CondaBuild, ...] = ()  # learned from conda channels (kb update --conda-channel)
    driver_floors: tuple[DriverFloor, ...] = ()  # CUDA toolkits older than the rows of `cuda`: their drivers only
    # compiled packages with wheels for a few platforms and no source: name -> (platforms, Python range, alternative)
    wheel_only: Mapping[str, tuple[tuple[str, ...], str, str]] = field(default_factory=dict)
    wheel_only_latest: Mapping[str, str] = field(default_factory=dict)  # name -> its latest release on PyPI
    wheel_only_releases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # name -> its releases on PyPI
    # torch, torchvision, torchaudio -> (the first release the list is whole from, every release published, oldest
    # first: PyPI's, and the few on PyTorch's own index only)
    published_releases: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    # torchvision/torchaudio releases older than the matrix: name -> {release: the torch specifier its wheel requires}
    companion_pins: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # compiled packages whose older releases install on a platform without its native library: name -> {platform:
    # the first release with a wheel for it} ("bitsandbytes" -> {"windows": "0.43.0", ...})
    platform_since: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # packages whose pinned releases break on newer interpreters: name -> {release: the newest Python 3 minor its
    # wheels are built for} ("numpy" -> {"1.21.6": "3.10", ...})
    release_newest_python: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # compiled torch extensions whose build imports torch: name -> what an isolated build does ("fails",
    # "downloads-torch": its pyproject lists torch, "varies")
    build_imports_torch: Mapping[str, str] = field(default_factory=dict)
    # packages every release of which declares a requires-python: name -> (oldest minor accepted, first minor none
    # accepts or "", alternative)
    python_bound: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    # the glibc each Linux distribution release ships: "ubuntu 18.04" -> "2.27"
    distro_glibc: Mapping[str, str] = field(default_factory=dict)

    def release(self, torch: Version | str) -> Release | None:
        want = Version(str(torch))
        return next((r for r in self.releases if r.torch == want), None)

    def minor_releases(self, minor: Version | str) -> tuple[Release, ...]:
        want = minor_of(Version(str(minor)))
        return tuple(r for r in self.releases if r.minor == want)

    def companion_minors(self, torch: Version, package: str) -> set[Version]:
        """The major.minor releases of torchvision or torchaudio made for this torch's minor: the matrix's, or before
        it the releases whose wheel pins a torch of that minor exactly (companion_pins.toml)."""
        releases = self.minor_releases(torch)
        if releases:
            return {minor_of(getattr(r, package)) for r in releases}
        want = minor_of(torch)
        return {
            minor_of(Version(release))
            for release, spec in self.companion_pins.get(package, {}).items()
            if spec.startswith("==") and minor_of(Version(spec[2:].split("+")[0].rstrip(".*"))) == want
        }

    def latest(self) -> Release:
        return self.releases[-1]

    def toolkit(self, cuda: Version) -> CudaToolkit | None:
        """The CUDA toolkit row of a version such as 11.8 (patch ignored)."""
        want = minor_of(cuda)
        return next((c for c in self.cuda if c.version == want), None)

    def driver_floor(self, cuda: Version, os: str) -> Version | None:
        """The lowest driver that runs a CUDA (its toolkit's driver; for CUDA 11+ minor-version compatibility may
        go lower), for the toolkits of `cuda` and the older ones of `driver_floors`; None when the KB has neither."""
        tk = self.toolkit(cuda)
        if tk is not None:
            return tk.driver(os)
        want = minor_of(cuda)
        old = next((f for f in self.driver_floors if f.version == want), None)
        return old.driver(os) if old else None

    def toolkit_for_variant(self, variant: str) -> CudaToolkit | None:
        v = parse_variant(variant)
        return self.toolkit(v.version) if v is not None and v.version is not None and v.kind == "cuda" else None

    def wheel_archs(self, release: Release, variant: str) -> WheelArch | None:
        return _wheel_arch_index(self).get((release.minor, variant))

    def extension(self, name: str) -> ExtensionFacts | None:
        from packaging.utils import canonicalize_name

        want = canonicalize_name(name)
        return next((e for e in self.extensions if e.name == want), None)

    def platform(self, os: str, arch: str) -> Platform | None:
        return next((p for p in self.platforms if p.os == os and p.arch == arch), None)

    def availability_of(self, release: Release | Version | str, platform: str) -> Availability | None:
        """What `platform` gets for this release, or None when the KB does not know."""
        torch = release.torch if isinstance(release, Release) else Version(str(release))
        return _availability_index(self).get((torch, platform))

    def bound(self, name: str) -> TorchBound | None:
        """The torch-bound package of that name (pins torch, or ships code compiled against it)."""
        from packaging.utils import canonicalize_name

        want = canonicalize_name(name)
        return next((b for b in self.torch_bound if b.name == want), None)

    def rocm_gfx(self, release: Release, variant: str) -> RocmWheel | None:
        """The gfx targets of `variant` of `release`, when the KB knows them."""
        return next((w for w in self.rocm_wheels if w.torch == release.minor and variant in w.variants), None)

    def rocm_driver(self, host: Version) -> RocmDriver | None:
        """What a host amdgpu driver (named by its ROCm major.minor, or amdgpu 30.x) runs, when the KB knows."""
        return next((d for d in self.rocm_drivers if d.driver == minor_of(host)), None)

    def docker_images(self, torch: Version) -> tuple[DockerImage, ...]:
        return tuple(i for i in self.docker if i.torch == str(torch))


@cache
def load_kb(*, overlay: bool = True) -> KB:
    """The embedded knowledge base, plus the releases `envplan kb update` learned (read once per process)."""
    embedded = _embedded()
    if not overlay or os.environ.get("ENVPLAN_NO_OVERLAY"):
        return embedded
    from envplan.kb.assets import ext_wheels_from_overlay
    from envplan.kb.overlay import (
        availability_from_overlay,
        conda_builds_from_overlay,
        overlay_path,
        read_overlay,
        releases_from_overlay,
    )

    if not overlay_path().exists():
        return embedded
    rows = read_overlay()
    learned = releases_from_overlay(rows, embedded.releases)
    return replace(
        embedded,
        releases=tuple(sorted(embedded.releases + learned, key=lambda r: r.torch)),
        availability=embedded.availability + availability_from_overlay(rows, learned),
        learned=frozenset(r.torch for r in learned),
        conda_builds=conda_builds_from_overlay(read_overlay(table="conda")),
        ext_wheels=ext_wheels_from_overlay(read_overlay(table="ext-wheel")),
    )


def _parse() -> KB:
    rocm = loader.load_rocm()
    return KB(
        releases=loader.load_releases(),
        cuda=loader.load_cuda(),
        driver_floors=loader.load_driver_floors(),
        wheel_arch=loader.load_wheel_arch(),
        gpus=loader.load_gpus(),
        docker=loader.load_docker(),
        platforms=loader.load_platforms(),
        conda=loader.load_conda(),
        dependents=loader.load_dependents(),
        wheel_only=loader.load_wheel_only(),
        wheel_only_latest=loader.load_wheel_only_latest(),
        wheel_only_releases=loader.load_wheel_only_releases(),
        companion_pins=loader.load_companion_pins(),
        published_releases=loader.load_published_releases(),
        platform_since=loader.load_platform_since(),
        release_newest_python=loader.load_release_wheels(),
        build_imports_torch=loader.load_build_imports_torch(),
        python_bound=loader.load_python_bound(),
        distro_glibc=loader.load_distro_glibc(),
        extensions=loader.load_extensions(),
        availability=loader.load_availability(),
        rocm_wheels=rocm[0],
        rocm_drivers=rocm[1],
        torch_bound=loader.load_torch_bound(),
    )


def compiled_path() -> Path:
    """Where the compiled KB of these data files and this model is kept."""
    from envplan import __version__
    from envplan.paths import cache_root

    return cache_root() / f"kb-{__version__}-{kb_digest()[:16]}-{_model_digest()}.json"


@cache
def _embedded() -> KB:
    """The parsed embedded KB, from a compiled copy in the user cache when its data files are unchanged. The copy
    is data (JSON), never code: one that cannot be read is ignored with a warning and written again."""
    from envplan.kb import compiled
    from envplan.paths import store_cache, warn_cache

    path = compiled_path()
    try:
        kb = compiled.loads(path.read_bytes())
        if isinstance(kb, KB):
            return kb
        warn_cache(path, "not a compiled KB; ignored and rebuilt")
    except FileNotFoundError:
        pass
    except (OSError, ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
        warn_cache(path, f"unreadable compiled KB ({type(exc).__name__}); ignored and rebuilt")
    kb = _parse()
    with contextlib.suppress(TypeError, ValueError):  # a value the format cannot hold: no copy, slower starts
        store_cache(path, compiled.dumps(kb))
    return kb


@cache
def _wheel_arch_index(kb: KB) -> dict[tuple[Version, str], WheelArch]:
    """(torch minor, variant) -> the architecture row that covers it (the first row wins, as in the data)."""
    index: dict[tuple[Version, str], WheelArch] = {}
    for release in kb.releases:
        for variant in release.variants:
            row = next((w for w in kb.wheel_arch if w.covers(release.minor, variant)), None)
            if row is not None:
                index.setdefault((release.minor, variant), row)
    return index


@cache
def _availability_index(kb: KB) -> dict[tuple[Version, str], Availability]:
    return {(v, a.platform): a for a in kb.availability for v in a.releases}


def _model_digest() -> str:
    """The compiled KB holds instances of these classes and the KB class: a change to them must not load an old
    copy."""
    from envplan.fastio import sha256_hex  # (CPython's own SHA-256: hashlib would load OpenSSL, 3 ms a start)

    here = os.path.dirname(__file__)
    sources = []
    for name in ("model.py", "extmodel.py", "facts.py"):  # (facts.py: the KB class itself)
        with open(os.path.join(here, name), "rb") as f:
            sources.append(f.read())
    return sha256_hex(b"".join(sources))[:12]
