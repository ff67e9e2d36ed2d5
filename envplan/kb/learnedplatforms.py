"""Per-platform availability of a learned release, read from the wheel filenames the index served.

`envplan kb update` keeps every torch wheel filename of a learned release (with its sha256) as proof. Those names
say, per platform, which variants exist (`+cu128`, none for macOS) and which CPython tags (`cp313t` included); PyPI's
files say which build `pip install torch` gets on each platform. That is all an index proves: compiled GPU
architectures and driver floors are not in a filename, so they stay unknown (and decisions treat unknown as unknown,
not as yes).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping

from packaging.utils import InvalidWheelFilename, parse_wheel_filename
from packaging.version import Version

from envplan.kb.model import Availability
from envplan.kb.variants import variant_sort_key

__all__ = ["availability_from_files", "platform_of_tag", "platforms_of_wheel", "python_of"]

_CPYTHON = re.compile(r"cp3(\d{1,2})(t?)", re.ASCII)


_LINUX_ARCH = {"x86_64": "linux-x86_64", "aarch64": "linux-aarch64"}
_MAC_ARCH = {"arm64": ("macos-arm64",), "x86_64": ("macos-x86_64",), "universal2": ("macos-arm64", "macos-x86_64")}


def platform_of_tag(tag: str) -> tuple[str, ...]:
    """The envplan platforms a wheel platform tag installs on (`universal2` is both macOS ones)."""
    if tag == "win_amd64":
        return ("windows-x86_64",)
    if tag.startswith(("manylinux", "linux_", "musllinux")):
        linux = next((p for arch, p in _LINUX_ARCH.items() if tag.endswith(f"_{arch}")), None)
        return (linux,) if linux else ()
    if tag.startswith("macosx_"):
        return next((p for arch, p in _MAC_ARCH.items() if tag.endswith(f"_{arch}")), ())
    return ()


def platforms_of_wheel(filename: str) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
    """(variant, platforms, CPython tags) of a torch wheel filename; None when it is not one."""
    try:
        _, version, _, tags = parse_wheel_filename(filename)
    except InvalidWheelFilename:
        return None
    platforms = tuple(dict.fromkeys(p for t in tags for p in platform_of_tag(t.platform)))
    python = tuple(dict.fromkeys(tag for t in tags if (tag := python_of(t.interpreter, t.abi))))
    return (str(version.local) if version.local else "cpu"), platforms, python


def python_of(interpreter: str, abi: str) -> str:
    """ "3.13" or "3.13t" (free-threaded: the ABI tag says it, `cp313-cp313t`), "" for no CPython tag."""
    m = _CPYTHON.fullmatch(abi) or _CPYTHON.fullmatch(interpreter)
    return f"3.{m.group(1)}{m.group(2)}" if m else ""


def availability_from_files(
    torch: Version, files: Iterable[str], pypi_defaults: Mapping[str, str], *, source: str
) -> tuple[Availability, ...]:
    """One unverified Availability row per platform the release's wheels install on."""
    variants: dict[str, set[str]] = defaultdict(set)
    python: dict[str, set[str]] = defaultdict(set)
    for entry in files:
        parsed = platforms_of_wheel(entry.split(" ", 1)[0])
        if parsed is None:
            continue
        variant, platforms, tags = parsed
        for platform in platforms:
            variants[platform].add(variant)
            python[platform].update(tags)
    return tuple(
        Availability(
            line=str(torch),
            releases=(torch,),
            platform=platform,
            variants=tuple(sorted(variants[platform], key=variant_sort_key)),
            python=tuple(sorted(python[platform], key=_python_order)),
            pypi_default=pypi_defaults.get(platform, ""),
            verified=False,
            source=f"wheel filenames on the index ({source})",
            note="learned: which variants and Python tags exist here; compiled architectures are not known",
        )
        for platform in sorted(variants)
    )


def _python_order(tag: str) -> tuple[int, bool]:
    return int(tag[2:].rstrip("t")), tag.endswith("t")
