"""The user-level overlay of learned releases: written by `envplan kb update`, read over the embedded KB.

The embedded KB stays the reviewed baseline: the overlay only adds releases it does not have, each with
its provenance, never changing a fact the embedded KB holds.
"""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from packaging.version import Version

from envplan import tomlread
from envplan.kb.model import Availability, CondaBuild, Release
from envplan.kb.variants import DisplayVersion, parse_variant
from envplan.paths import cache_root, warn_cache

if TYPE_CHECKING:
    from envplan.kb.update import Learned

__all__ = [
    "availability_from_overlay",
    "conda_builds_from_overlay",
    "merge_conda",
    "merge_learned",
    "overlay_path",
    "read_overlay",
    "releases_from_overlay",
    "write_overlay",
]


def overlay_path() -> Path:
    return Path(os.environ.get("ENVPLAN_KB_OVERLAY") or cache_root() / "kb-overlay.toml")


def read_overlay(path: Path | None = None, *, table: str = "release") -> list[dict[str, object]]:
    """The overlay's rows of one kind: learned releases ("release") or conda channel builds ("conda"). A file
    that is not an overlay is ignored with a warning (kb update rewrites it, kb reset drops it), so no command
    fails because of it."""
    p = path or overlay_path()
    try:
        data = tomlread.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError, RecursionError) as exc:
        warn_cache(p, f"not a readable overlay ({type(exc).__name__}); ignored: envplan kb update rewrites it")
        return []
    rows = data.get(table, [])
    if not isinstance(rows, list):
        warn_cache(p, f"{table} is not a list of tables; ignored: envplan kb update rewrites it")
        return []
    return [r for r in rows if isinstance(r, dict)]


def merge_learned(existing: list[dict[str, object]], learned: list[Learned], today: date) -> list[dict[str, object]]:
    by_torch = {str(r["torch"]): r for r in existing}
    for item in learned:
        by_torch[item.torch] = {
            "torch": item.torch,
            "files": list(item.files),
            "torchvision": item.torchvision,
            "torchaudio": item.torchaudio,
            "python": list(item.python),
            "variants": list(item.variants),
            "glibc": item.glibc,
            "pypi-default": item.pypi_default,
            "pypi-default-by-platform": dict(item.pypi_defaults),
            "learned-from": item.source,
            "learned-on": today.isoformat(),
        }
    return [by_torch[k] for k in sorted(by_torch, key=Version)]


def write_overlay(
    releases: list[dict[str, object]],
    path: Path | None = None,
    *,
    conda: list[dict[str, object]] | None = None,
    wheels: list[dict[str, object]] | None = None,
) -> Path:
    """Write the overlay; the conda and extension-wheel rows already there are kept unless replaced."""
    import tomlkit  # only `kb update` writes: reading plans must not pay for tomlkit

    from envplan.write import write_file

    p = path or overlay_path()
    conda = read_overlay(p, table="conda") if conda is None else conda
    wheels = read_overlay(p, table="ext-wheel") if wheels is None else wheels
    doc = tomlkit.document()
    doc.add(
        tomlkit.comment(
            "Releases learned by `envplan kb update` (provenance on each). `envplan kb reset` drops this file."
        )
    )
    doc["schema"] = 1
    table = tomlkit.aot()
    for r in releases:
        table.append(tomlkit.item(r))
    if releases:
        doc["release"] = table
    for key, extra in (("conda", conda), ("ext-wheel", wheels)):
        if extra:
            rows = tomlkit.aot()
            for r in extra:
                rows.append(tomlkit.item(r))
            doc[key] = rows
    write_file(p, tomlkit.dumps(doc), parents=True)
    return p


def releases_from_overlay(rows: list[dict[str, object]], embedded: tuple[Release, ...]) -> tuple[Release, ...]:
    """Typed releases for the overlay rows the embedded KB does not have, that have a torchvision and carry the
    files that prove them (the index's torch wheels with their hashes); any other row is skipped with a warning."""
    known = {r.torch for r in embedded}
    newest = embedded[-1]
    out = []
    for i, row in enumerate(rows):
        try:
            torch = Version(str(row["torch"]))
            if torch in known or not row.get("torchvision"):
                continue
            if not _proven(row.get("files"), torch):
                raise ValueError("no torch wheels with sha256 hashes to prove it: run envplan kb update again")
            out.append(_release(row, torch, newest))
        except (KeyError, TypeError, ValueError) as exc:
            warn_cache(overlay_path(), f"release[{i}] ignored: {exc}")
    return tuple(out)


def availability_from_overlay(rows: list[dict[str, object]], learned: tuple[Release, ...]) -> tuple[Availability, ...]:
    """Per-platform rows for the learned releases, from the wheel filenames that prove them (unverified)."""
    from envplan.kb.learnedplatforms import availability_from_files

    wanted = {r.torch for r in learned}
    out: list[Availability] = []
    for row in rows:
        try:
            torch = Version(str(row.get("torch")))
        except ValueError:  # releases_from_overlay has said so
            continue
        if torch not in wanted:
            continue
        defaults = row.get("pypi-default-by-platform")
        by_platform = {str(k): str(v) for k, v in defaults.items()} if isinstance(defaults, dict) else {}
        if not by_platform and row.get("pypi-default"):  # an overlay from before per-platform defaults
            by_platform = {"linux-x86_64": str(row["pypi-default"])}
        source = f"{row.get('learned-from')}, learned on {row.get('learned-on')}"
        out += availability_from_files(torch, _strings(row.get("files")), by_platform, source=source)
    return tuple(out)


_PROOF = re.compile(r"(?P<file>[^\s/]+\.whl) sha256:[0-9a-f]{64}", re.ASCII)
_PYTHON = re.compile(r"3\.\d{1,2}t?", re.ASCII)
_GLIBC = re.compile(r"\d{1,2}\.\d{1,3}", re.ASCII)


def _proven(files: object, torch: Version) -> bool:
    """Every entry names a torch wheel of exactly this release, with its sha256 as the index served it."""
    return isinstance(files, list) and bool(files) and all(_proves(entry, torch) for entry in files)


def _proves(entry: object, torch: Version) -> bool:
    from packaging.utils import InvalidWheelFilename, parse_wheel_filename  # packaging.tags: only with an overlay

    m = _PROOF.fullmatch(entry) if isinstance(entry, str) else None
    if m is None:
        return False
    try:
        name, version, _, _ = parse_wheel_filename(m.group("file"))
    except InvalidWheelFilename:
        return False
    return name == "torch" and Version(version.public) == torch


def _checked(row: dict[str, object]) -> tuple[list[str], list[str]]:
    """(python versions, variants) of a row, or ValueError when the file was edited into something else."""
    python, variants = _strings(row.get("python")), _strings(row.get("variants"))
    bad = [p for p in python if _PYTHON.fullmatch(p) is None] + [v for v in variants if parse_variant(v) is None]
    if bad or not variants:
        raise ValueError(f"not python versions and variants: {bad or 'no variants'}")
    if row.get("glibc") and _GLIBC.fullmatch(str(row["glibc"])) is None:
        raise ValueError(f"glibc {row['glibc']!r} is not a glibc version")
    return python, variants


def _release(row: dict[str, object], torch: Version, newest: Release) -> Release:
    python, variants = _checked(row)
    regular = sorted((Version(p) for p in python if not p.endswith("t")), key=lambda v: v)
    glibc = str(row.get("glibc") or "")
    doubtful = ["cxx11-abi", "cpp-standard"]
    if not glibc:
        doubtful.append("glibc")
    if not row.get("torchaudio"):
        doubtful.append("torchaudio")
    floor = Version(glibc) if glibc else newest.glibc
    return Release(
        torch=torch,
        torchvision=Version(str(row["torchvision"])),
        torchaudio=Version(str(row.get("torchaudio") or newest.torchaudio)),
        python_min=regular[0] if regular else newest.python_min,
        python_max=regular[-1] if regular else newest.python_max,
        python_experimental=tuple(p for p in python if p.endswith("t")),
        variants=tuple(variants),
        pypi_default=str(row.get("pypi-default") or "") or None,
        cxx11_abi=floor >= Version("2.28"),
        glibc=DisplayVersion(str(floor)),
        manylinux="manylinux_2_28" if floor >= Version("2.28") else "manylinux2014",
        cpp_standard="unknown",
        conda_pytorch_channel=False,
        verified=False,
        unverified_fields=tuple(doubtful),
        source=f"learned by envplan kb update from {row.get('learned-from')} on {row.get('learned-on')}",
        note="C++11 ABI from the rule that manylinux_2_28 wheels (torch >= 2.7) use it; driver floors and compiled "
        "architectures are not on an index: the KB does not know them for this release",
    )


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def merge_conda(existing: list[dict[str, object]], learned: list[dict[str, object]]) -> list[dict[str, object]]:
    """A channel learned again replaces what was known of it (per subdir); other channels stay."""
    fresh = {(r["channel"], r["subdir"]) for r in learned}
    kept = [r for r in existing if (r.get("channel"), r.get("subdir")) not in fresh]
    return kept + learned


def conda_builds_from_overlay(rows: list[dict[str, object]]) -> tuple[CondaBuild, ...]:
    out = []
    for row in rows:
        try:
            out.append(
                CondaBuild(
                    channel=str(row["channel"]),
                    subdir=str(row["subdir"]),
                    name=str(row["name"]),
                    version=str(row["version"]),
                    build=str(row["build"]),
                    python=str(row.get("python", "")),
                    cuda=str(row.get("cuda", "")),
                    torch=tuple(_strings(row.get("torch"))),
                    source=f"learned by envplan kb update from {row['channel']} on {row.get('learned-on')}",
                )
            )
        except KeyError:
            continue
    return tuple(out)
