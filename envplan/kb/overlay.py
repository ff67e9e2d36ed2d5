"""The user-level overlay of learned releases: written by `envplan kb update`, read over the embedded KB.

The embedded KB stays the reviewed baseline: the overlay only adds releases it does not have, each with
its provenance, never changing a fact the embedded KB holds.
"""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import tomlkit
from packaging.version import Version

from envplan import tomlread
from envplan.kb.model import Release
from envplan.paths import cache_root
from envplan.variants import DisplayVersion

if TYPE_CHECKING:
    from envplan.kb.update import Learned

__all__ = ["merge_learned", "overlay_path", "read_overlay", "releases_from_overlay", "write_overlay"]


def overlay_path() -> Path:
    return Path(os.environ.get("ENVPLAN_KB_OVERLAY") or cache_root() / "kb-overlay.toml")


def read_overlay(path: Path | None = None) -> list[dict[str, object]]:
    p = path or overlay_path()
    try:
        data = tomlread.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return list(data.get("release", []))


def merge_learned(existing: list[dict[str, object]], learned: list[Learned], today: date) -> list[dict[str, object]]:
    by_torch = {str(r["torch"]): r for r in existing}
    for item in learned:
        by_torch[item.torch] = {
            "torch": item.torch,
            "torchvision": item.torchvision,
            "torchaudio": item.torchaudio,
            "python": list(item.python),
            "variants": list(item.variants),
            "glibc": item.glibc,
            "pypi-default": item.pypi_default,
            "learned-from": item.source,
            "learned-on": today.isoformat(),
        }
    return [by_torch[k] for k in sorted(by_torch, key=Version)]


def write_overlay(releases: list[dict[str, object]], path: Path | None = None) -> Path:
    from envplan.write import write_file

    p = path or overlay_path()
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
    doc["release"] = table
    p.parent.mkdir(parents=True, exist_ok=True)
    write_file(p, tomlkit.dumps(doc))
    return p


def releases_from_overlay(rows: list[dict[str, object]], embedded: tuple[Release, ...]) -> tuple[Release, ...]:
    """Typed releases for the overlay rows the embedded KB does not have (and that have a torchvision)."""
    known = {r.torch for r in embedded}
    newest = embedded[-1]
    out = []
    for row in rows:
        torch = Version(str(row["torch"]))
        if torch in known or not row.get("torchvision"):
            continue
        out.append(_release(row, torch, newest))
    return tuple(out)


def _release(row: dict[str, object], torch: Version, newest: Release) -> Release:
    python = _strings(row.get("python"))
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
        variants=tuple(_strings(row.get("variants"))),
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
