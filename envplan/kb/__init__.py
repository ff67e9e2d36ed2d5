"""The knowledge base: verified compatibility facts shipped as data, with typed queries.

`load_kb()` reads the TOML files beside this module once; everything it returns is immutable.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache

from packaging.version import Version

from envplan.kb import loader
from envplan.kb.extmodel import ExtensionFacts
from envplan.kb.model import (
    CondaFacts,
    CudaToolkit,
    DockerImage,
    Gpu,
    Platform,
    Release,
    WheelArch,
    minor_of,
)
from envplan.kbdigest import kb_digest
from envplan.variants import parse_variant

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
    learned: frozenset[Version] = frozenset()  # releases that come from the user's overlay, not the embedded KB

    def release(self, torch: Version | str) -> Release | None:
        want = Version(str(torch))
        return next((r for r in self.releases if r.torch == want), None)

    def minor_releases(self, minor: Version | str) -> tuple[Release, ...]:
        want = minor_of(Version(str(minor)))
        return tuple(r for r in self.releases if r.minor == want)

    def latest(self) -> Release:
        return self.releases[-1]

    def toolkit(self, cuda: Version) -> CudaToolkit | None:
        """The CUDA toolkit row of a version such as 11.8 (patch ignored)."""
        want = minor_of(cuda)
        return next((c for c in self.cuda if c.version == want), None)

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

    def docker_images(self, torch: Version) -> tuple[DockerImage, ...]:
        return tuple(i for i in self.docker if i.torch == str(torch))


@cache
def load_kb(*, overlay: bool = True) -> KB:
    """The embedded knowledge base, plus the releases `envplan kb update` learned (read once per process)."""
    embedded = _embedded()
    if not overlay or os.environ.get("ENVPLAN_NO_OVERLAY"):
        return embedded
    from envplan.kb.overlay import overlay_path, read_overlay, releases_from_overlay

    if not overlay_path().exists():
        return embedded
    learned = releases_from_overlay(read_overlay(), embedded.releases)
    return replace(
        embedded,
        releases=tuple(sorted(embedded.releases + learned, key=lambda r: r.torch)),
        learned=frozenset(r.torch for r in learned),
    )


def _parse() -> KB:
    return KB(
        releases=loader.load_releases(),
        cuda=loader.load_cuda(),
        wheel_arch=loader.load_wheel_arch(),
        gpus=loader.load_gpus(),
        docker=loader.load_docker(),
        platforms=loader.load_platforms(),
        conda=loader.load_conda(),
        dependents=loader.load_dependents(),
        extensions=loader.load_extensions(),
    )


@cache
def _embedded() -> KB:
    """The parsed embedded KB, from a compiled copy in the user cache when its data files are unchanged."""
    import pickle

    from envplan import __version__
    from envplan.paths import cache_root, store_cache

    compiled = cache_root() / f"kb-{__version__}-{kb_digest()[:16]}.pickle"
    try:
        kb = pickle.loads(compiled.read_bytes())
        if isinstance(kb, KB):
            return kb
    except (OSError, pickle.PickleError, EOFError, AttributeError, TypeError, ValueError):
        pass
    kb = _parse()
    store_cache(compiled, pickle.dumps(kb, protocol=pickle.HIGHEST_PROTOCOL))
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
