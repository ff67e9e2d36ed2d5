"""The rest of the stack: companions, compiled extensions the KB knows, other packages, and the indexes."""

from __future__ import annotations

import re
from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

from envplan.errors import EnvplanError
from envplan.importers.evidence import index_variant
from envplan.importers.model import Dep, FileFacts
from envplan.kb import KB
from envplan.profile.model import DEFAULT_PYPI, DEFAULT_PYTORCH
from envplan.resolve.model import is_family

__all__ = ["Others", "companion", "extensions", "indexes", "other_packages"]

# conda packages with no PyPI twin worth keeping (the interpreter, CUDA libraries, metapackages, C libraries)
_CONDA_ONLY = frozenset(
    {"python", "pip", "cudatoolkit", "cudatoolkit-dev", "pytorch-cuda", "pytorch-mutex", "cpuonly", "cudnn", "nccl"}
    | {"mkl", "mkl-service", "blas", "nomkl", "libtorch", "python-abi", "magma", "cuda-version", "ffmpeg"}
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Others:
    packages: tuple[str, ...]
    notes: tuple[str, ...]


def companion(deps: list[Dep], name: str, variant: str) -> str:
    """torchvision / torchaudio: the exact version the files pin, "auto" when they name it unpinned, "" if absent."""
    found = [d for d in deps if d.name == name]
    if not found:
        return ""
    for d in found:
        label = d.label
        if label and variant not in (label, "auto") and re.fullmatch(r"cpu|cu\d+|rocm[\d.]+", label):
            raise EnvplanError(
                "mixed-variant",
                f"{d.text.strip()} is the {label} build, torch is {variant}",
                where=d.where,
                hint=f"every torch package must be one build: use {name}==X+{variant} (or pass --variant {label})",
            )
    versions = sorted({d.base_version for d in found if d.base_version}, key=Version)
    return versions[-1] if len(versions) == 1 else "auto"


def extensions(deps: list[Dep], kb: KB) -> list[tuple[str, str, str]]:
    """(name, version or "", where) of the compiled extensions the KB knows."""
    out: dict[str, tuple[str, str, str]] = {}
    for d in deps:
        if kb.extension(d.name) is None:
            continue
        version = _pep440(d.base_version)
        if d.name not in out or (version and not out[d.name][1]):
            out[d.name] = (d.name, version, d.where)
    return list(out.values())


def _pep440(text: str) -> str:
    try:
        return str(Version(text)) if text else ""
    except InvalidVersion:
        return ""


def _from_the_build(d: Dep) -> bool:
    """A bare name tied to a PyTorch index (what `export uv` lists so its source applies): part of the torch
    build's closure, not a package the project asked for."""
    return bool(d.index) and index_variant(d.index) is not None and d.requirement == d.name


def other_packages(deps: list[Dep], kb: KB) -> Others:
    """The project's other requirements, as PEP 508 strings (first wins when a name repeats)."""
    kept: dict[str, Dep] = {}
    notes: list[str] = []
    skipped_optional: set[str] = set()
    for d in deps:
        if is_family(d.name) or kb.extension(d.name) is not None or not d.direct or _from_the_build(d):
            continue
        if d.optional:
            skipped_optional.add(d.optional)
            continue
        if d.manager == "conda" and (d.name in _CONDA_ONLY or d.name.startswith(("lib", "_", "cuda-"))):
            continue
        if not d.requirement:
            continue
        if d.name in kept:
            if kept[d.name].requirement != d.requirement:
                first = kept[d.name]
                notes.append(
                    f"{d.name} is required twice ({first.requirement} at {first.where}; {d.requirement} at "
                    f"{d.where}): the first is kept"
                )
            continue
        kept[d.name] = d
    if skipped_optional:
        notes.append("not kept (optional): " + ", ".join(sorted(skipped_optional)))
    if any(d.manager == "conda" for d in kept.values()):
        notes.append("packages from conda specs keep their conda names: check each is the PyPI name")
    return Others(packages=tuple(d.requirement for d in kept.values()), notes=tuple(notes))


def indexes(facts: list[FileFacts], pytorch_base: str) -> tuple[dict[str, str], list[str]]:
    """The profile's [indexes] (only what differs from the defaults) and the index URLs it cannot keep."""
    out: dict[str, str] = {}
    if pytorch_base and pytorch_base.rstrip("/") != DEFAULT_PYTORCH:
        out["pytorch"] = pytorch_base.rstrip("/")
    pypi = next((f.default_index for f in facts if f.default_index and index_variant(f.default_index) is None), "")
    if pypi and pypi.rstrip("/") != DEFAULT_PYPI:
        out["pypi"] = pypi.rstrip("/")
    dropped = []
    for url in dict.fromkeys(u for f in facts for u in f.indexes):
        if index_variant(url) is None and url.rstrip("/") not in (DEFAULT_PYPI, out.get("pypi", "")):
            dropped.append(url)
    notes = [f"index not kept (a profile has one PyPI and one PyTorch index): {u}" for u in dropped]
    return out, notes
