"""Which build of a compiled extension a plan step installs: a prebuilt wheel that matches the step's torch
minor, CUDA major, C++ ABI and Python exactly, or a source build. Pure: facts in, a choice out."""

from __future__ import annotations

from dataclasses import dataclass

from packaging.version import Version

from envplan.kb import KB
from envplan.kb.extmodel import ExtensionFacts, ExtRelease
from envplan.kb.model import Release, minor_of
from envplan.profile import Extension, Machine
from envplan.variants import parse_variant

__all__ = ["ExtChoice", "choose_build"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ExtChoice:
    method: str  # "wheel-url" | "wheel-index" | "find-links" | "source"
    spec: str  # what pip installs: a URL, name==version, or a source spec
    version: Version | None
    index: str = ""  # the index (wheel-index) or find-links page
    reasons: tuple[str, ...] = ()
    verified: bool = True
    warning: str = ""  # something the user must know (no release supports the target, ...)


@dataclass(frozen=True, kw_only=True, slots=True)
class Target:
    """What the wheel must match."""

    release: Release
    variant: str
    python: Version
    machine: Machine
    pytorch_index: str = ""

    @property
    def abi(self) -> str:
        return "TRUE" if self.release.cxx11_abi_for(self.variant) else "FALSE"


def choose_build(ext: Extension, target: Target, kb: KB) -> ExtChoice:
    facts = kb.extension(ext.name)
    if facts is None:
        return _source(ext, None, (f"{ext.name} is not in the KB: built from its PyPI sdist",))
    if facts.ships == "github-release":
        return _github(ext, facts, target)
    if facts.ships == "pytorch-index":
        return _index(ext, facts, target)
    if facts.ships == "find-links":
        rows = facts.releases or next((f.releases for f in kb.extensions if f.name == facts.same_pages_as), ())
        return _find_links(ext, facts, rows, target)
    return _source(ext, facts, (f"{facts.name} publishes no wheels ({facts.note.split(';')[0]})",))


def _source(ext: Extension, facts: ExtensionFacts | None, reasons: tuple[str, ...], warning: str = "") -> ExtChoice:
    if ext.version is not None:
        spec = f"{ext.name}=={ext.version}"
    elif facts is not None and facts.source_spec:
        spec = facts.source_spec
    else:
        spec = ext.name
    return ExtChoice(method="source", spec=spec, version=ext.version, reasons=reasons, warning=warning)


# --- GitHub-release wheels (flash-attn, causal-conv1d, mamba-ssm) ---------------------------------------


def _wheel_for(facts: ExtensionFacts, row: ExtRelease, version: Version, t: Target) -> tuple[str, str] | None:
    """(wheel URL, why) when `row` published a wheel for the target, else None."""
    v = parse_variant(t.variant)
    if v is None or v.cuda is None or (t.machine.os, t.machine.arch) != ("linux", "x86_64"):
        return None
    if not (row.covers_torch(t.release.torch) and row.covers_python(t.python)):
        return None
    cuda = row.cuda_for(v.cuda.major, t.release.torch)
    flavours = row.abi_flavours(t.release.torch)
    if cuda is None or (flavours and t.abi not in flavours):
        return None
    if row.glibc is not None and t.machine.glibc is not None and t.machine.glibc < row.glibc:
        return None
    token = f"{cuda.major}" if row.cuda_token == "major" else f"{cuda.major}{cuda.minor}"
    py = f"{t.python.major}{t.python.minor}"
    wheel = facts.wheel.format(
        version=version, cuda=token, torch=f"{t.release.torch.major}.{t.release.torch.minor}", abi=t.abi, py=py
    )
    why = (
        f"{facts.name} {version} publishes {wheel} (CUDA {cuda} build, torch {minor_of(t.release.torch)}, "
        f"cxx11abi{t.abi}, cp{py})"
    )
    if not flavours:
        why += "; the reference does not say which ABI flavours this release built, so the URL may be missing"
    return facts.url.format(version=version, wheel=wheel), why


def _github(ext: Extension, facts: ExtensionFacts, t: Target) -> ExtChoice:
    matches = [(row, row.newest) for row in facts.releases if row.newest is not None]
    wanted = ext.version
    if wanted is not None:
        for row in facts.rows_for(wanted):
            hit = _wheel_for(facts, row, wanted, t)
            if hit:
                return ExtChoice(
                    method="wheel-url", spec=hit[0], version=wanted, reasons=(hit[1],), verified=row.verified is True
                )
    found = [(ver, hit) for row, ver in matches if ver is not None and (hit := _wheel_for(facts, row, ver, t))]
    force = " ".join(f"{k}={v}" for k, v in facts.force_build.items())
    if wanted is None and found:
        ver, hit = max(found, key=lambda f: f[0])
        return ExtChoice(method="wheel-url", spec=hit[0], version=ver, reasons=(hit[1],))
    reasons = [
        f"no prebuilt {facts.name} {wanted or ''} wheel matches torch {t.release.torch}+{t.variant} "
        f"(cxx11abi{t.abi}, Python {t.python}): built from source with {force}"
    ]
    if found:
        newest = max(found, key=lambda f: f[0])[0]
        reasons.append(f"alternative: {facts.name} {newest} publishes a matching wheel (set its version to {newest})")
    warning = "" if found else _unsupported(facts, t)
    return _source(ext, facts, tuple(reasons), warning)


def _unsupported(facts: ExtensionFacts, t: Target) -> str:
    covered = [r for r in facts.releases if r.covers_torch(t.release.torch)]
    if covered or not facts.releases:
        return ""
    last = max(
        (max(r.torch) if r.torch else r.torch_range[1] if r.torch_range else Version("0")) for r in facts.releases
    )
    return (
        f"no {facts.name} release in the KB publishes wheels for torch {minor_of(t.release.torch)} (the newest "
        f"covered is torch {minor_of(last)}): a source build may fail to compile; alternatives: stay on torch "
        f"{minor_of(last)}, or build a source revision that supports {minor_of(t.release.torch)} "
        f"(github.com/{facts.repo})"
    )


# --- wheels on the PyTorch index (xformers) and find-links pages (PyG) ---------------------------------


def _index(ext: Extension, facts: ExtensionFacts, t: Target) -> ExtChoice:
    fits = [
        (v, row)
        for row in facts.releases
        for v in row.versions
        if row.covers_torch(t.release.torch) and t.variant in row.variants
    ]
    if ext.version is not None:
        fits = [f for f in fits if f[0] == ext.version] or fits
    if not fits:
        reason = f"no {facts.name} build in the KB is made for torch {t.release.torch}+{t.variant}"
        return _source(ext, facts, (reason,), _unsupported(facts, t))
    version, row = max(fits, key=lambda f: f[0])
    from_pypi = t.variant == t.release.pypi_default and t.machine.os == "linux"
    index = "" if from_pypi else t.pytorch_index
    why = [
        f"{facts.name} {version} is built for torch {t.release.torch} {t.variant}"
        + (" on the stable ABI (it keeps working on later torch)" if row.torch_and_later else " exactly")
    ]
    if ext.version is not None and version != ext.version:
        why.append(f"{facts.name} {ext.version} was built for another torch: {version} replaces it")
    return ExtChoice(
        method="wheel-index",
        spec=f"{facts.name}=={version}",
        version=version,
        index=index,
        reasons=tuple(why),
        verified=row.verified is True,
    )


def _find_links(ext: Extension, facts: ExtensionFacts, rows: tuple[ExtRelease, ...], t: Target) -> ExtChoice:
    row = next((r for r in rows if r.covers_torch(t.release.torch) and t.variant in r.variants), None)
    if row is None:
        reason = f"the PyG pages in the KB list no {t.variant} wheels for torch {minor_of(t.release.torch)}"
        return _source(ext, facts, (reason,), _unsupported(facts, t) if rows else "")
    page = facts.find_links.format(torch_minor=minor_of(t.release.torch), variant=t.variant)
    spec = f"{facts.name}=={ext.version}" if ext.version else facts.name
    return ExtChoice(
        method="find-links",
        spec=spec,
        version=ext.version,
        index=page,
        reasons=(f"{facts.name} wheels for torch {minor_of(t.release.torch)} {t.variant}: {page}",),
        verified=row.verified is True and facts.verified is True,
    )
