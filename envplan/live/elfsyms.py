"""What an ELF shared object needs and provides: undefined and defined dynamic symbols, NEEDED, RPATH.

Parsed with pyelftools, never by importing the library. Parsed libraries are cached per process, and on
disk keyed by path, size and mtime, so the 400 MB libtorch_cpu.so is read once.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from elftools.common.exceptions import ELFError
from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

from envplan.paths import cache_root, store_cache

__all__ = ["DynInfo", "ElfInfo", "read_dynamic", "read_elf"]


@dataclass(frozen=True, slots=True)
class ElfInfo:
    path: str
    needed: tuple[str, ...]
    rpath: tuple[str, ...]
    defined: frozenset[str]
    undefined: frozenset[str]  # strong (non-weak) undefined symbols


@dataclass(frozen=True, slots=True)
class DynInfo:
    """Only what the dynamic loader reads to find a library's dependencies: cheap even for a 1 GB library."""

    path: str
    soname: str
    needed: tuple[str, ...]
    rpath: tuple[str, ...]  # DT_RPATH (searched for this object's dependencies and theirs)
    runpath: tuple[str, ...]  # DT_RUNPATH (this object's direct dependencies only, after LD_LIBRARY_PATH)


@cache
def read_dynamic(path: str) -> DynInfo | None:
    """The dynamic section of `path`, or None when it is not an ELF shared object."""
    try:
        with open(path, "rb") as f:
            elf = ELFFile(f)
            if elf["e_type"] != "ET_DYN":
                return None
            tags = _tags(elf)
    except (ELFError, OSError, ValueError):
        return None
    return DynInfo(
        path=path,
        soname=next((v for k, v in tags if k == "DT_SONAME"), ""),
        needed=tuple(v for k, v in tags if k == "DT_NEEDED"),
        rpath=tuple(p for k, v in tags if k == "DT_RPATH" for p in v.split(":") if p),
        runpath=tuple(p for k, v in tags if k == "DT_RUNPATH" for p in v.split(":") if p),
    )


def _tags(elf: ELFFile) -> list[tuple[str, str]]:
    names = {"DT_NEEDED": "needed", "DT_RPATH": "rpath", "DT_RUNPATH": "runpath", "DT_SONAME": "soname"}
    out = []
    for section in elf.iter_sections():
        if isinstance(section, DynamicSection):
            for tag in section.iter_tags():
                kind = tag.entry.d_tag
                if kind in names:
                    out.append((str(kind), str(getattr(tag, names[kind], ""))))
    return out


_CACHE_FROM = 1_000_000  # bytes: smaller libraries parse faster than their cache entry loads


def _cache_dir() -> Path:
    return cache_root() / "elf"


def read_elf(path: str | Path) -> ElfInfo | None:
    """The dynamic symbols of `path`, or None when it is not an ELF shared object."""
    p = Path(path).resolve()
    try:
        st = p.stat()
    except OSError:
        return None
    return _read(str(p), st.st_size, st.st_mtime_ns)


@cache
def _read(path: str, size: int, mtime: int) -> ElfInfo | None:
    key = hashlib.sha256(f"{path}\0{size}\0{mtime}".encode()).hexdigest()[:32]
    cached = _cache_dir() / f"{key}.json"
    if size > _CACHE_FROM and cached.is_file():
        try:
            return _from_json(json.loads(cached.read_text()))
        except (OSError, ValueError, KeyError):
            pass
    info = _parse(path)
    if info is not None and size > _CACHE_FROM:
        _store(cached, info)
    return info


def _parse(path: str) -> ElfInfo | None:
    try:
        with open(path, "rb") as f:
            elf = ELFFile(f)
            needed, rpath = _dynamic(elf)
            defined, undefined = _symbols(elf)
    except (ELFError, OSError, ValueError):
        return None
    return ElfInfo(path=path, needed=needed, rpath=rpath, defined=defined, undefined=undefined)


def _dynamic(elf: ELFFile) -> tuple[tuple[str, ...], tuple[str, ...]]:
    needed: list[str] = []
    rpath: list[str] = []
    for section in elf.iter_sections():
        if isinstance(section, DynamicSection):
            for tag in section.iter_tags():
                kind = tag.entry.d_tag
                if kind == "DT_NEEDED":
                    needed.append(str(getattr(tag, "needed", "")))
                elif kind in ("DT_RPATH", "DT_RUNPATH"):
                    rpath += str(getattr(tag, "rpath" if kind == "DT_RPATH" else "runpath", "")).split(":")
    return tuple(needed), tuple(rpath)


def _symbols(elf: ELFFile) -> tuple[frozenset[str], frozenset[str]]:
    dynsym = elf.get_section_by_name(".dynsym")
    defined: set[str] = set()
    undefined: set[str] = set()
    if isinstance(dynsym, SymbolTableSection):
        for sym in dynsym.iter_symbols():
            if not sym.name:
                continue
            if sym["st_shndx"] == "SHN_UNDEF":
                if sym["st_info"]["bind"] == "STB_GLOBAL":
                    undefined.add(sym.name)
            else:
                defined.add(sym.name)
    return frozenset(defined), frozenset(undefined)


def _store(path: Path, info: ElfInfo) -> None:
    store_cache(
        path,
        json.dumps(
            {
                "path": info.path,
                "needed": info.needed,
                "rpath": info.rpath,
                "defined": sorted(info.defined),
                "undefined": sorted(info.undefined),
            }
        ),
    )


def _from_json(d: dict[str, list[str] | str]) -> ElfInfo:
    return ElfInfo(
        path=str(d["path"]),
        needed=tuple(d["needed"]),
        rpath=tuple(d["rpath"]),
        defined=frozenset(d["defined"]),
        undefined=frozenset(d["undefined"]),
    )
