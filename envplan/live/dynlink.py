"""Where the dynamic loader finds a shared library, by the rules of ld.so(8), over parsed dynamic sections.

A library named in DT_NEEDED is taken, in order: from the libraries already loaded (by soname: this is how an
extension that links `libcudart.so.13` without any RPATH uses the copy torch loaded from
`site-packages/nvidia/cu13/lib` through its own RPATH); from the DT_RPATH of the object and of the objects that
loaded it (when the object has no DT_RUNPATH); from LD_LIBRARY_PATH; from the object's DT_RUNPATH; from the
system's directories (/etc/ld.so.conf and the trusted defaults).
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

from envplan.live.elfsyms import DynInfo, read_dynamic

__all__ = ["find_library", "load_closure", "system_dirs"]

_TRUSTED = ("/lib64", "/usr/lib64", "/lib", "/usr/lib")


def _expand(dirs: Iterable[str], origin: str) -> list[str]:
    return [d.replace("${ORIGIN}", origin).replace("$ORIGIN", origin) for d in dirs]


@cache
def system_dirs() -> tuple[str, ...]:
    """The directories of /etc/ld.so.conf (following `include`), then the trusted defaults."""
    found: list[str] = []
    _read_conf(Path("/etc/ld.so.conf"), found, depth=0)
    return tuple(dict.fromkeys([*found, *_TRUSTED]))


def _read_conf(path: Path, found: list[str], *, depth: int) -> None:
    if depth > 8:
        return
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if line.startswith("include "):
            pattern = line.split(None, 1)[1]
            pattern = pattern if pattern.startswith("/") else str(path.parent / pattern)
            for conf in sorted(glob.glob(pattern)):
                _read_conf(Path(conf), found, depth=depth + 1)
        elif line.startswith("/"):
            found.append(line)


def find_library(
    name: str,
    obj: DynInfo,
    *,
    loaded: Mapping[str, str],
    inherited_rpath: tuple[str, ...] = (),
    ld_library_path: tuple[str, ...] = (),
) -> str:
    """The file the loader would use for `name` needed by `obj`, or "" when it finds none."""
    if "/" in name:
        return name if os.path.isfile(name) else ""
    if name in loaded:
        return loaded[name]
    origin = str(Path(obj.path).parent)
    dirs = [] if obj.runpath else [*_expand(obj.rpath, origin), *inherited_rpath]
    dirs += [*ld_library_path, *_expand(obj.runpath, origin), *system_dirs()]
    for d in dirs:
        candidate = os.path.join(d, name)
        if os.path.isfile(candidate):
            return candidate
    return ""


def load_closure(roots: Iterable[str], *, ld_library_path: tuple[str, ...] = ()) -> dict[str, str]:
    """Every library loading `roots` brings in, by soname (and file name) -> path."""
    loaded: dict[str, str] = {}
    queue: list[tuple[str, tuple[str, ...]]] = [(r, ()) for r in roots]
    while queue:
        path, inherited = queue.pop(0)
        info = read_dynamic(path)
        if info is None:
            continue
        for key in (info.soname, Path(path).name):
            if key:
                loaded.setdefault(key, path)
        passed_on = inherited if info.runpath else (*_expand(info.rpath, str(Path(path).parent)), *inherited)
        for need in info.needed:
            if need in loaded:
                continue
            found = find_library(need, info, loaded=loaded, inherited_rpath=inherited, ld_library_path=ld_library_path)
            if found:
                loaded[need] = found
                queue.append((found, passed_on))
    return loaded
