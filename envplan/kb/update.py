"""`envplan kb update`: learn torch releases from the indexes pip and uv read.

From the PyTorch index's all-variant pages (<base>/torch/, /torchvision/, /torchaudio/): each release's
variants, Python tags, manylinux floor and hashes; the companions from their wheels' METADATA (PEP 658
`.metadata` files: never a multi-GB download); PyPI's default build from the PyPI torch wheel's METADATA.
Facts an index cannot give (driver floors, compiled architectures) stay the embedded KB's. Pure over a
`fetch` function; the only network code is in httpcache.
"""

from __future__ import annotations

import re
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from email.parser import HeaderParser

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import InvalidWheelFilename, parse_wheel_filename
from packaging.version import Version

from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.index.simple import Fetch, IndexFile, project_files
from envplan.kb import KB

__all__ = ["Learned", "UpdateResult", "learn"]

_MANYLINUX = re.compile(r"manylinux_(\d+)_(\d+)|manylinux(2014)|manylinux(2010)|manylinux(1)")
_FLOORS = {"2014": "2.17", "2010": "2.12", "1": "2.5"}


@dataclass(frozen=True, kw_only=True, slots=True)
class Learned:
    torch: str
    variants: tuple[str, ...]
    python: tuple[str, ...]  # CPython minors with wheels, "3.13t" for free-threaded
    glibc: str  # "" when the files do not say (linux_x86_64 tags)
    torchvision: str = ""
    torchaudio: str = ""
    pypi_default: str = ""  # Linux x86_64's
    pypi_defaults: tuple[tuple[str, str], ...] = ()  # (platform, "cu130" | "cpu" | "none") for every platform
    hashes: int = 0
    source: str = ""
    files: tuple[str, ...] = ()  # "<torch wheel filename> sha256:<hex>": what the index served, the proof


@dataclass(kw_only=True, slots=True)
class UpdateResult:
    learned: list[Learned] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _wheels(files: list[IndexFile]) -> list[tuple[IndexFile, Version, frozenset[str]]]:
    out = []
    for f in files:
        try:
            _, version, _, tags = parse_wheel_filename(f.filename)
        except InvalidWheelFilename:
            continue
        out.append((f, version, frozenset(str(t) for t in tags)))
    return out


def _python(tags: set[str]) -> tuple[str, ...]:
    from envplan.kb.learnedplatforms import python_of

    found = set()
    for tag in tags:
        interpreter, abi, _ = tag.split("-", 2)
        if p := python_of(interpreter, abi):
            found.add(p)
    return tuple(sorted(found, key=lambda p: (int(p[2:].rstrip("t")), p.endswith("t"))))


def _glibc(tags: set[str]) -> str:
    floors = []
    for tag in tags:
        m = _MANYLINUX.search(tag)
        if m:
            floors.append(f"{m.group(1)}.{m.group(2)}" if m.group(1) else _FLOORS[next(g for g in m.groups()[2:] if g)])
    return max(floors, key=Version) if floors else ""


def _group(files: list[IndexFile]) -> dict[Version, list[tuple[IndexFile, Version, frozenset[str]]]]:
    by_release: dict[Version, list[tuple[IndexFile, Version, frozenset[str]]]] = defaultdict(list)
    for entry in _wheels(files):
        by_release[Version(entry[1].public)].append(entry)
    return by_release


def _metadata_requires(fetch: Fetch, wheel: IndexFile) -> list[Requirement]:
    body, _ = fetch(wheel.url + ".metadata")
    headers = HeaderParser().parsestr(body.decode("utf-8", "replace"))
    out = []
    for text in headers.get_all("Requires-Dist") or []:
        try:
            out.append(Requirement(text))
        except InvalidRequirement:
            continue
    return out


def _companions(fetch: Fetch, base: str, name: str) -> dict[str, str]:
    """torch version -> the newest `name` version whose METADATA requires exactly it (or >= it)."""
    pairs: dict[str, Version] = {}
    groups = _group(project_files(base, name, fetch))

    def read(item: tuple[Version, list[tuple[IndexFile, Version, frozenset[str]]]]) -> tuple[Version, str]:
        version, entries = item
        wheel = next((f for f, _, _ in entries if f.metadata), None)
        if wheel is None:
            return version, ""
        torch = next((r for r in _metadata_requires(fetch, wheel) if r.name == "torch"), None)
        pins = [s.version for s in torch.specifier if s.operator in ("==", ">=")] if torch else []
        return version, pins[0] if pins else ""

    with ThreadPoolExecutor(max_workers=4) as pool:
        for version, torch in pool.map(read, groups.items()):
            if torch and (torch not in pairs or version > pairs[torch]):
                pairs[torch] = version
    return {t: str(v) for t, v in pairs.items()}


def _pypi_defaults(fetch: Fetch, pypi: str, torch: Version) -> dict[str, str]:
    """platform -> the build `pip install torch==X` gets from PyPI there: "cuXYZ" when the wheel's METADATA requires
    the CUDA runtime wheels, "cpu" otherwise, "none" when PyPI has no wheel for the platform."""
    from envplan.kb.learnedplatforms import platform_of_tag
    from envplan.kb.model import PLATFORMS

    entries = [e for e in _group(project_files(pypi, "torch", fetch)).get(torch, []) if not e[1].local]
    if not entries:
        return {}
    by_platform: dict[str, list[IndexFile]] = defaultdict(list)
    for f, _, tags in entries:
        for platform in {p for t in tags for p in platform_of_tag(t.rsplit("-", 1)[-1])}:
            by_platform[platform].append(f)
    out = dict.fromkeys(PLATFORMS, "none")
    for platform, wheels in by_platform.items():
        out[platform] = "cpu"
        wheel = next((f for f in wheels if f.metadata), None)
        if platform.startswith("linux") and wheel is not None:
            out[platform] = _cuda_of(_metadata_requires(fetch, wheel))
    return out


def _cuda_of(requires: list[Requirement]) -> str:
    for req in requires:
        spec = next(iter(req.specifier), None)
        m = re.match(r"(\d+)\.(\d+)", spec.version) if spec else None
        if m and (req.name.startswith("nvidia-cuda-runtime") or req.name == "cuda-toolkit"):
            return f"cu{m.group(1)}{m.group(2)}"
    return "cpu"


def learn(kb: KB, fetch: Fetch, *, pytorch: str, pypi: str, since: Version | None = None) -> UpdateResult:
    """Every torch release on the PyTorch index newer than `since`, and its conflicts with verified facts."""
    result = UpdateResult()
    torch_files = project_files(pytorch, "torch", fetch)
    if not _wheels(torch_files):
        raise EnvplanError(
            "index-empty",
            f"{pytorch}/torch/ lists no torch wheels with hashes",
            where="--pytorch-index",
            hint="give the base URL of a PyTorch index (the folder holding torch/, e.g. https://download.pytorch.org/whl)",
            exit_code=EXIT_FAILED,
        )
    vision, audio = _companions(fetch, pytorch, "torchvision"), _companions(fetch, pytorch, "torchaudio")
    for version, entries in sorted(_group(torch_files).items()):
        if since is not None and version <= since:
            continue
        tags = {t for _, _, ts in entries for t in ts}
        defaults = _pypi_defaults(fetch, pypi, version)
        learned = Learned(
            torch=str(version),
            variants=tuple(sorted({str(e[1].local) for e in entries if e[1].local})),
            python=_python(tags),
            glibc=_glibc(tags),
            torchvision=vision.get(str(version), ""),
            torchaudio=audio.get(str(version), ""),
            pypi_default=defaults.get("linux-x86_64", ""),
            pypi_defaults=tuple(sorted(defaults.items())),
            hashes=len(entries),
            source=f"{pytorch} and {pypi}",
            files=tuple(sorted(f"{f.filename} sha256:{f.sha256}" for f, _, _ in entries)),
        )
        result.conflicts += _conflicts(kb, learned)
        result.learned.append(learned)
    return result


def _conflicts(kb: KB, learned: Learned) -> list[str]:
    release = kb.release(learned.torch)
    if release is None or release.verified is False:
        return []
    out = []
    for name in ("torchvision", "torchaudio"):
        seen = getattr(learned, name)
        if seen and Version(seen) != getattr(release, name) and not release.is_doubtful(name):
            out.append(
                f"torch {learned.torch}: the index pairs {name} {seen}, the verified KB says "
                f"{getattr(release, name)} (kept)"
            )
    missing = set(release.variants) - set(learned.variants) - {v for v in release.variants if v.startswith("rocm")}
    if learned.variants and missing and not release.is_doubtful("variants"):
        out.append(
            f"torch {learned.torch}: the verified KB lists {', '.join(sorted(missing))}, which the index does "
            "not serve (kept)"
        )
    return out
