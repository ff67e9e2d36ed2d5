"""Which torch build a file means: a local label, a PyTorch index URL, a conda build string or CUDA metapackage,
or PyPI's default build for a lock that took torch from PyPI. Each piece of evidence says where it comes from."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlparse

from envplan.importers.condaenv import parse_spec
from envplan.importers.model import Dep, FileFacts
from envplan.kb.condabuild import conda_cuda, cuda_variant
from envplan.kb.model import Release
from envplan.kb.variants import parse_variant

__all__ = ["Evidence", "evidence_for", "index_variant"]

_HINTS = {"cudatoolkit": "cuda", "pytorch-cuda": "cuda", "cuda-version": "cuda", "cpuonly": "cpu"}


@dataclass(frozen=True, kw_only=True, slots=True)
class Evidence:
    variant: str  # cpu | cuXYZ | rocmX.Y
    why: str  # "+cu118 in requirements.txt:3"
    index_base: str = ""  # the PyTorch index base URL (the variant segment removed) when an index says it
    conda: bool = False  # from a conda build or metapackage: the CUDA may have no wheel twin


def index_variant(url: str) -> tuple[str, str] | None:
    """(variant, base URL) for a PyTorch-style index: .../whl/cu118, .../cu118/torch_stable.html, .../rocm6.2."""
    parsed = urlparse(url.rstrip("/"))
    segments = parsed.path.split("/")
    for back in (1, 2):
        if len(segments) > back and parse_variant(segments[-back]) is not None:
            base = parsed._replace(path="/".join(segments[:-back])).geturl()
            return segments[-back], base
    return None


def evidence_for(dep: Dep, facts: FileFacts, release: Release | None, os_arch: tuple[str, str]) -> list[Evidence]:
    """Everything that says which build `dep` (a torch requirement) installs."""
    if dep.manager == "conda":
        return _conda(dep, facts)
    found = []
    if dep.label and parse_variant(dep.label) is not None:
        found.append(Evidence(variant=dep.label, why=f"+{dep.label} in {dep.where}"))
    found += _indexes(dep, facts)
    if not found and dep.locked and release is not None and release.pypi_default and os_arch == ("linux", "x86_64"):
        found.append(
            Evidence(
                variant=release.pypi_default,
                why=f"{dep.where} takes torch from {dep.index or 'PyPI'}: PyPI's default Linux build is "
                f"{release.pypi_default}",
            )
        )
    return found


def _indexes(dep: Dep, facts: FileFacts) -> list[Evidence]:
    urls = [dep.index] if dep.index else ([] if dep.locked else list(facts.indexes))
    out = []
    for url in urls:
        hit = index_variant(url)
        if hit is not None:
            where = dep.where if dep.index else facts.path
            out.append(Evidence(variant=hit[0], why=f"the index {url} ({where})", index_base=hit[1]))
    return out


def _conda(dep: Dep, facts: FileFacts) -> list[Evidence]:
    cuda = conda_cuda(dep.build)
    if cuda:
        return [Evidence(variant=cuda_variant(cuda), why=f"the conda build {dep.build} ({dep.where})", conda=True)]
    out = []
    for hint in facts.deps:
        kind = _HINTS.get(hint.name)
        if kind is None or hint.manager != "conda":
            continue
        if kind == "cpu":
            out.append(Evidence(variant="cpu", why=f"cpuonly ({hint.where})", conda=True))
            continue
        spec = parse_spec(hint.text)
        m = re.match(r"=?=?(\d+)\.(\d+)", spec.version if spec else "")
        if m:
            variant = f"cu{m.group(1)}{m.group(2)}"
            out.append(Evidence(variant=variant, why=f"{hint.text.strip()} ({hint.where})", conda=True))
    return out
