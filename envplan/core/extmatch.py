"""Which build of a compiled extension a plan step installs: a prebuilt wheel that matches the step's torch
minor, CUDA major, C++ ABI and Python exactly, or a source build. Pure: facts in, a choice out."""

from __future__ import annotations

from dataclasses import dataclass

from packaging.version import Version

from envplan.kb import KB
from envplan.kb.extmodel import ExtensionFacts, ExtRelease
from envplan.kb.model import ExtWheel, Release, minor_of
from envplan.kb.variants import parse_variant
from envplan.profile.model import Extension, Machine

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
    free_threaded: bool = False
    pytorch_index: str = ""

    @property
    def abi(self) -> str:
        return "TRUE" if self.release.cxx11_abi_for(self.variant) else "FALSE"


def choose_build(ext: Extension, target: Target, kb: KB) -> ExtChoice:
    facts = kb.extension(ext.name)
    if facts is None:
        return _source(ext, None, (f"{ext.name} is not in the KB: built from its PyPI sdist",))
    if facts.ships == "github-release":
        return _github(ext, facts, target, kb.ext_wheels)
    if facts.ships == "pytorch-index":
        return _index(ext, facts, target)
    if facts.ships == "find-links":
        rows = facts.releases or next((f.releases for f in kb.extensions if f.name == facts.same_pages_as), ())
        return _find_links(ext, facts, rows, target)
    return _source(ext, facts, (f"{facts.name} publishes no wheels ({facts.note.split(';')[0]})",))


def _source(
    ext: Extension,
    facts: ExtensionFacts | None,
    reasons: tuple[str, ...],
    warning: str = "",
    version: Version | None = None,
) -> ExtChoice:
    version = version or ext.version
    spec, how = source_spec(ext.name, facts, version)
    return ExtChoice(method="source", spec=spec, version=version, reasons=(*reasons, how), warning=warning)


def source_spec(name: str, facts: ExtensionFacts | None, version: Version | None) -> tuple[str, str]:
    """What pip builds from, and why: the PyPI sdist when it carries the sources, else the repository at an
    immutable ref (the release's commit, else its tag; for git-only extensions the commit the KB read)."""
    if facts is not None and facts.ships == "source":
        ref, note = facts.source_ref, f" ({facts.source_ref_note})" if facts.source_ref_note else ""
        return f"git+{facts.git_url}@{ref}", f"source: {facts.repo} at commit {ref}{note}"
    if version is None:
        return name, f"source: the newest {name} sdist on the index"
    if facts is None or facts.sdist_builds(version) is not False:
        return f"{name}=={version}", f"source: the {name} {version} sdist from PyPI"
    commit = facts.commit_of(version)
    tag = facts.tag.format(version=version)
    kind = f"commit {commit[:12]} (tag {tag})" if commit else f"tag {tag}"
    return f"git+{facts.git_url}@{commit or tag}", f"source: {facts.repo} at {kind}; {_no_sdist(facts, version)}"


def _no_sdist(facts: ExtensionFacts, version: Version) -> str:
    if any(r.has_version(version) and not r.on_pypi for r in facts.releases):
        return f"{version} is a git tag, not a PyPI release"
    return f"its PyPI sdist carries no sources to compile ({facts.sdist_source})"


# --- GitHub-release wheels (flash-attn, causal-conv1d, mamba-ssm) ---------------------------------------


@dataclass(frozen=True, slots=True)
class _Wheel:
    version: Version
    url: str
    why: str
    verified: bool
    certainty: int  # 3: the file was seen; 2: a verified row naming the ABI flavours; 1: a verified row; 0: partial


def _wheel_for(facts: ExtensionFacts, row: ExtRelease, version: Version, t: Target) -> _Wheel | None:
    """The wheel `row` published for the target at `version`, else None."""
    v = parse_variant(t.variant)
    if v is None or v.cuda is None or (t.machine.os, t.machine.arch) != ("linux", "x86_64") or t.free_threaded:
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
        version=row.wheel_version or version,
        cuda=token,
        torch=f"{t.release.torch.major}.{t.release.torch.minor}",
        abi=t.abi,
        py=py,
    )
    why = (
        f"{facts.name} {version} publishes {wheel} (CUDA {cuda} build, torch {minor_of(t.release.torch)}, "
        f"cxx11abi{t.abi}, cp{py})"
    )
    if not flavours:
        why += "; the reference does not say which ABI flavours this release built, so the URL may be missing"
    url = facts.url.format(version=version, wheel=wheel)
    certainty = (2 if flavours else 1) if row.verified is True else 0
    return _Wheel(version, url, why, row.verified is True, certainty)


def _wheels(facts: ExtensionFacts, t: Target, learned: tuple[ExtWheel, ...] = ()) -> list[_Wheel]:
    """Every release known to publish a wheel for the target, oldest first: the files `envplan kb update` saw on
    the GitHub releases, else the release rows of the reviewed KB."""
    found = {
        w.version: w for row in facts.releases for ver in row.known_versions if (w := _wheel_for(facts, row, ver, t))
    }
    found.update({w.version: w for seen in learned if (w := _seen_wheel(facts, seen, t))})
    return [found[v] for v in sorted(found)]


def _seen_wheel(facts: ExtensionFacts, seen: ExtWheel, t: Target) -> _Wheel | None:
    """A wheel file seen on the release, when its name fits the target (as the package's setup.py would pick it)."""
    v = parse_variant(t.variant)
    fits = (
        seen.extension == facts.name
        and v is not None
        and v.cuda is not None
        and seen.cuda_major == v.cuda.major
        and seen.torch_minor == f"{t.release.torch.major}.{t.release.torch.minor}"
        and seen.abi == (t.abi == "TRUE")
        and seen.python == f"{t.python.major}.{t.python.minor}"
        and not t.free_threaded
        and (t.machine.os, t.machine.arch) == ("linux", seen.arch)
    )
    if not fits:
        return None
    name = seen.url.rsplit("/", 1)[-1]
    why = (
        f"{facts.name} {seen.tag} publishes {name} (seen on its GitHub release by envplan kb update, {seen.learned_on})"
    )
    return _Wheel(Version(seen.tag), seen.url, why, True, 3)


def _wheel_choice(w: _Wheel, reasons: tuple[str, ...]) -> ExtChoice:
    return ExtChoice(method="wheel-url", spec=w.url, version=w.version, reasons=reasons, verified=w.verified)


def _github(ext: Extension, facts: ExtensionFacts, t: Target, learned: tuple[ExtWheel, ...] = ()) -> ExtChoice:
    wheels = _wheels(facts, t, learned)
    wanted = ext.version
    exact = next((w for w in wheels if w.version == wanted), None)
    if exact is not None:
        return _wheel_choice(exact, (exact.why,))
    if wanted is None and wheels:
        return _wheel_choice(wheels[-1], (wheels[-1].why,))
    py = f"{t.python}{'t' if t.free_threaded else ''}"
    missing = (
        f"{facts.name}{' ' + str(wanted) if wanted else ''} publishes no wheel for torch "
        f"{t.release.torch}+{t.variant} (cxx11abi{t.abi}, Python {py})"
    )
    later = [w for w in wheels if wanted is not None and w.version > wanted and w.version.major == wanted.major]
    later.sort(key=lambda w: (-w.certainty, w.version))  # the nearest of the best-known wheels
    if later and wanted is not None and not ext.pin:
        return _wheel_choice(later[0], (_replaces(missing, later[0], wanted), later[0].why))
    force = " ".join(f"{k}={v}" for k, v in facts.force_build.items())
    reasons = [f"{missing}: built from source with {force}"]
    if later:
        reasons.append(f"pin = true keeps {wanted}; {later[0].version} would have been a prebuilt wheel")
    elif wheels:
        reasons.append(f"alternative: {facts.name} {wheels[-1].version} publishes a matching wheel (another major)")
    version = wanted or _newest_covering(facts, t)
    return _source(ext, facts, tuple(reasons), "" if wheels else _unsupported(facts, t), version)


def _replaces(missing: str, w: _Wheel, wanted: Version) -> str:
    return (
        f"{missing}; {w.version} is the nearest later {wanted.major}.x release known to, so its wheel replaces a "
        f"source build of {wanted} (hours of compiling, and old sources often no longer compile against a new "
        f"torch); set pin = true in its [[extensions]] entry to build {wanted} from source instead"
    )


def _newest_covering(facts: ExtensionFacts, t: Target) -> Version | None:
    covering = [v for r in facts.releases if r.covers_torch(t.release.torch) for v in r.known_versions]
    every = [v for r in facts.releases for v in r.known_versions]
    return max(covering or every) if (covering or every) else None


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
