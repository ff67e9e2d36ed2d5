"""From what the files say to one stack: the torch release, its build, the companions and the Python.

Anything that cannot be decided from the files (no torch, two torch pins, torch from conda and from pip,
no build anywhere) is an error naming the file and what to set; `--torch` and `--variant` settle it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from packaging.markers import InvalidMarker, Marker
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from envplan.errors import EnvplanError
from envplan.importers.evidence import Evidence, evidence_for
from envplan.importers.model import Dep, FileFacts
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.kb.variants import parse_variant

__all__ = ["ImportOptions", "Picked", "marker_env", "pick_python", "pick_torch", "pick_variant", "visible"]

_RELEASE = re.compile(r"\d+\.\d+\.\d+")
_MINORS = [f"3.{m}" for m in range(8, 16)]


@dataclass(frozen=True, kw_only=True, slots=True)
class ImportOptions:
    torch: str = ""  # --torch: choose this release
    variant: str = ""  # --variant: choose this build
    os: str = "linux"
    arch: str = "x86_64"
    fallback_python: str = "3.11"  # when no file names a Python


@dataclass(frozen=True, kw_only=True, slots=True)
class Picked:
    """A decision and why (the comment the profile gets)."""

    value: str
    why: str
    detail: str = ""  # e.g. the PyTorch index base URL behind a variant


def _bad(ref: str, message: str, where: str, hint: str) -> EnvplanError:
    return EnvplanError(ref, message, where=where, hint=hint)


def marker_env(python: str, opts: ImportOptions) -> dict[str, str]:
    system = {"linux": "Linux", "macos": "Darwin", "windows": "Windows"}[opts.os]
    platform = {"linux": "linux", "macos": "darwin", "windows": "win32"}[opts.os]
    machine = "arm64" if (opts.os, opts.arch) == ("macos", "aarch64") else opts.arch
    return {
        "python_version": python,
        "python_full_version": f"{python}.0",
        "sys_platform": platform,
        "platform_system": system,
        "platform_machine": machine,
        "os_name": "nt" if opts.os == "windows" else "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "",
    }


def visible(dep: Dep, env: dict[str, str]) -> bool:
    """Whether the dependency applies on the target machine (its marker holds there)."""
    if not dep.marker:
        return True
    try:
        return Marker(dep.marker).evaluate(env)
    except (InvalidMarker, KeyError, ValueError):
        return True


def pick_torch(torches: list[Dep], files: list[str], opts: ImportOptions) -> Picked:
    """The torch release: --torch, else the one exact pin the files agree on."""
    shown = ", ".join(files)
    if opts.torch:
        if _RELEASE.fullmatch(opts.torch) is None:
            raise _bad("bad-argument", f"{opts.torch!r} is not a release", "--torch", "write it as X.Y.Z, e.g. 2.1.2")
        return Picked(value=opts.torch, why="--torch")
    if not torches:
        raise _bad(
            "no-torch",
            "no file installs torch",
            shown,
            "add the file that pins torch, or pass --torch X.Y.Z --variant V",
        )
    managers = {d.manager for d in torches}
    if len(managers) > 1:
        conda = next(d for d in torches if d.manager == "conda")
        pip = next(d for d in torches if d.manager == "pip")
        raise _bad(
            "conda-and-pip-torch",
            f"torch comes from conda ({conda.text} at {conda.where}) and from pip ({pip.text} at {pip.where})",
            shown,
            "one environment has one torch: remove one of them (or give only the files of one)",
        )
    versions = sorted({d.base_version for d in torches if d.base_version}, key=Version)
    if len(versions) > 1:
        pins = "; ".join(f"{v} at {next(d.where for d in torches if d.base_version == v)}" for v in versions)
        raise _bad("two-torch-pins", f"torch is pinned to {len(versions)} releases ({pins})", shown, _choose(versions))
    if not versions:
        first = torches[0]
        raise _bad(
            "torch-not-pinned",
            f"torch is not pinned to one release ({first.text.strip()} at {local(first.where)})",
            _path(first.where),
            "pin it (torch==X.Y.Z), give the lock file too, or pass --torch X.Y.Z",
        )
    where = next(d.where for d in torches if d.base_version == versions[0])
    return Picked(value=versions[0], why=where)


def local(where: str) -> str:
    """The place inside the file: "line 3", "dependencies[4]", "package torch 2.1.2"."""
    m = re.fullmatch(r".*:(\d+)", where)
    if m:
        return f"line {m.group(1)}"
    return where.split(": ", 1)[1] if ": " in where else where


def _choose(versions: list[str]) -> str:
    return f"keep one, or pass --torch {versions[-1]} (or --torch {versions[0]}) to choose"


def pick_variant(
    torches: list[Dep], facts: dict[str, FileFacts], release: Release | None, ctx: tuple[str, ImportOptions]
) -> Picked:
    """The build: --variant, else the one build all the evidence names."""
    version, opts = ctx
    found: list[Evidence] = []
    for dep in torches:
        if dep.base_version in ("", version):
            found += evidence_for(dep, facts[_file_of(dep, facts)], release, (opts.os, opts.arch))
    if opts.variant:
        return _forced(opts.variant, found)
    names = list(dict.fromkeys(e.variant for e in found))
    if len(names) > 1:
        said = "; ".join(f"{n} ({next(e.why for e in found if e.variant == n)})" for n in names)
        raise _bad(
            "two-torch-builds", f"the files name {len(names)} torch builds: {said}", _files(torches), _variants(names)
        )
    if not names:
        raise _bad("no-variant", f"nothing says which build of torch {version} to use", _files(torches), _hint(release))
    picked = _wheel_twin(found[0], release)
    base = next((e.index_base for e in found if e.index_base), "")
    return Picked(value=picked.value, why=picked.why, detail=base)


def _forced(variant: str, found: list[Evidence]) -> Picked:
    if variant != "auto" and parse_variant(variant) is None:
        raise _bad("bad-argument", f"{variant!r} is not a variant", "--variant", "use cpu, cuXYZ, rocmX.Y or auto")
    others = sorted({e.variant for e in found} - {variant})
    why = "--variant" + (f" (the files say {', '.join(others)})" if others else "")
    base = next((e.index_base for e in found if e.variant == variant and e.index_base), "")
    return Picked(value=variant, why=why, detail=base)


def _wheel_twin(e: Evidence, release: Release | None) -> Picked:
    """A conda CUDA build with no wheel of the same CUDA (conda-forge's cuda120) becomes `auto`, said so."""
    if e.conda and release is not None and e.variant not in release.variants:
        return Picked(
            value="auto",
            why=f"{e.why}: torch {release.torch} has no {e.variant} wheels, so the plan picks the wheel build for "
            "the machine",
        )
    return Picked(value=e.variant, why=e.why, detail=e.index_base)


def _variants(names: list[str]) -> str:
    return f"give the files of one build, or pass --variant {names[0]} (or --variant {names[-1]})"


def _hint(release: Release | None) -> str:
    if release is not None and release.pypi_default:
        return (
            f"pass --variant: {release.pypi_default} is what pip takes from PyPI for {release.torch} on Linux x86_64; "
            "cpu, another cuXYZ, or auto (the best for the machine) otherwise"
        )
    return "pass --variant cpu, cuXYZ (e.g. cu118) or auto, or pin torch with its label (torch==X.Y.Z+cu118)"


def _files(deps: list[Dep]) -> str:
    return ", ".join(dict.fromkeys(_path(d.where) for d in deps))


def _path(where: str) -> str:
    return re.split(r":(?: |\d)", where, maxsplit=1)[0]


def _file_of(dep: Dep, facts: dict[str, FileFacts]) -> str:
    path = _path(dep.where)
    return path if path in facts else next(iter(facts))


def pick_python(all_facts: list[FileFacts], release: Release | None, fallback: str) -> Picked:
    """An exact Python from the files; else the lowest minor every range (and torch) allows; else `fallback`."""
    exact = {f.python: f.python_where for f in all_facts if re.fullmatch(r"3\.\d+", f.python)}
    if len(exact) > 1:
        said = "; ".join(f"{v} at {w}" for v, w in exact.items())
        files = ", ".join(dict.fromkeys(_path(w) for w in exact.values()))
        raise _bad("two-pythons", f"the files name {len(exact)} Pythons ({said})", files, "make them agree")
    if exact:
        (version, where), *_ = exact.items()
        return Picked(value=version, why=where)
    ranges = [(f.python, f.python_where) for f in all_facts if f.python]
    allowed = [m for m in _MINORS if all(_allows(spec, m) for spec, _ in ranges) and _torch_allows(release, m)]
    if ranges and allowed:
        torch = f" and torch {release.torch}" if release else ""
        said = ", ".join(f"{s} ({w})" for s, w in ranges)
        return Picked(value=allowed[0], why=f"the lowest Python that {said}{torch} allow")
    return Picked(value=fallback, why="no file names a Python: this is envplan's own; set the project's")


def _allows(spec: str, minor: str) -> bool:
    try:
        return SpecifierSet(spec.replace(" ", "")).contains(Version(f"{minor}.0"), prereleases=True)
    except InvalidSpecifier:
        return True


def _torch_allows(release: Release | None, minor: str) -> bool:
    return release is None or release.python_min <= Version(minor) <= release.python_max


def known_release(kb: KB, version: str) -> Release | None:
    return kb.release(version) if _RELEASE.fullmatch(version) else None
