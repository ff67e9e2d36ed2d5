"""requirements.txt as pip reads it: index options, -r/-c includes, per-line options, URLs, markers.

Also the `pip:` section of an environment.yml (the same lines). A line pip would not take but a project's own
installer does (`torch==2.0.1+cu118 torchvision==0.15.2+cu118 --extra-index-url ...`, read as `pip install LINE`)
is split into its requirements; a line that is none of these is noted, not fatal.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import InvalidWheelFilename, parse_wheel_filename

from envplan.errors import EnvplanError
from envplan.importers.model import Dep, FileFacts, canonical

__all__ = ["parse_lines", "read_requirements", "url_dep"]

_OPTION_START = re.compile(r"(^|\s)--?[A-Za-z]")
_URL = re.compile(r"^(https?|file|git\+\w+)://|^git\+", re.I)
_EGG = re.compile(r"[#&]egg=([A-Za-z0-9][A-Za-z0-9._-]*)")
_INDEX_OPTIONS = {
    "-i": "index",
    "--index-url": "index",
    "--extra-index-url": "extra",
    "-f": "links",
    "--find-links": "links",
}
_INCLUDE_OPTIONS = {"-r", "--requirement", "-c", "--constraint"}
_VALUE_OPTIONS = {
    *_INDEX_OPTIONS,
    *_INCLUDE_OPTIONS,
    "-e",
    "--editable",
    "--trusted-host",
    "--hash",
    "--config-settings",
}
_VALUE_OPTIONS |= {"--global-option", "--install-option", "--no-binary", "--only-binary", "--use-feature"}


@dataclass
class _State:
    """What the lines read so far have said (mutable while parsing one file and its includes)."""

    deps: list[Dep] = field(default_factory=list)
    indexes: list[str] = field(default_factory=list)
    default_index: str = ""
    notes: list[str] = field(default_factory=list)
    seen: set[Path] = field(default_factory=set)


def read_requirements(path: Path, shown: str) -> FileFacts:
    """A requirements file (and what it includes) as facts; `shown` is how messages name it."""
    state = _State()
    _read_file(path, shown, state)
    return FileFacts(
        path=shown,
        format="requirements.txt",
        deps=tuple(state.deps),
        indexes=tuple(dict.fromkeys(state.indexes)),
        default_index=state.default_index,
        notes=tuple(state.notes),
    )


def parse_lines(lines: list[str], where: str, base: Path) -> tuple[list[Dep], list[str], str, list[str]]:
    """(deps, index URLs, PyPI replacement, notes) of requirement lines (e.g. an environment.yml pip section)."""
    state = _State()
    for i, line in enumerate(lines):
        _line(line, f"{where}[{i}]", base, state)
    return state.deps, state.indexes, state.default_index, state.notes


def _read_file(path: Path, shown: str, state: _State) -> None:
    resolved = path.resolve()
    if resolved in state.seen:
        return
    state.seen.add(resolved)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise EnvplanError(
            "unreadable", f"cannot read: {exc}", where=shown, hint="give a readable requirements file"
        ) from None
    for number, line in _logical_lines(text):
        _line(line, f"{shown}:{number}", path.parent, state)


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, text) with backslash continuations joined and comments removed."""
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        joined = (pending + line).strip()
        pending = ""
        if joined:
            out.append((start, joined))
    return out


def _line(line: str, where: str, base: Path, state: _State) -> None:
    line = line.strip()
    if not line:
        return
    m = _OPTION_START.search(line)
    head, options = (line[: m.start()].strip(), line[m.start() :].strip()) if m else (line, "")
    per_line = _options(options, where, base, state)
    if head:
        _requirements(head, where, per_line, state)


def _options(text: str, where: str, base: Path, state: _State) -> str:
    """Apply the options of a line; return the index URL a per-line --index-url names ("" if none)."""
    try:
        tokens = shlex.split(text)
    except ValueError:
        state.notes.append(f"{where}: cannot read the options {text!r}: left out")
        return ""
    index = ""
    i = 0
    while i < len(tokens):
        name, _, value = tokens[i].partition("=")
        if name in _VALUE_OPTIONS and not value and i + 1 < len(tokens):
            value, i = tokens[i + 1], i + 1
        index = _option(name, value, where, base, state) or index
        i += 1
    return index


def _option(name: str, value: str, where: str, base: Path, state: _State) -> str:
    kind = _INDEX_OPTIONS.get(name)
    if kind is not None:
        state.indexes.append(value)
        if kind == "index":
            state.default_index = value
            return value
        return ""
    if name in _INCLUDE_OPTIONS:
        _read_file(base / value, str(Path(where.rsplit(":", 1)[0]).parent / value), state)
    elif name in ("-e", "--editable"):
        _requirements(value, where, "", state, editable=True)
    return ""


def _requirements(text: str, where: str, index: str, state: _State, *, editable: bool = False) -> None:
    dep = _one(text, where, index, editable=editable)
    if dep is not None:
        state.deps.append(dep)
        return
    if _URL.search(text):
        state.notes.append(f"{where}: {text!r} names no package (add #egg=NAME to keep it): left out")
        return
    parts = text.split()
    deps = [_one(p, where, index) for p in parts] if len(parts) > 1 else []
    if deps and all(d is not None for d in deps):
        state.deps.extend(d for d in deps if d is not None)
        state.notes.append(f"{where}: {len(deps)} requirements on one line (read as `pip install LINE` reads them)")
        return
    state.notes.append(f"{where}: {text!r} is a local path or not a requirement: left out")


def _one(text: str, where: str, index: str, *, editable: bool = False) -> Dep | None:
    if _URL.search(text):
        url, _, marker = text.partition(";")
        return url_dep(url.strip(), where, marker=marker.strip(), text=text)
    if editable or text.startswith((".", "/")):
        return None
    try:
        req = Requirement(text)
    except InvalidRequirement:
        return None
    return _from_requirement(req, where, index, text)


def _from_requirement(req: Requirement, where: str, index: str, text: str) -> Dep | None:
    pins = [s.version for s in req.specifier if s.operator in ("==", "===") and "*" not in s.version]
    if req.url:
        return url_dep(req.url, where, marker=str(req.marker or ""), text=text, name=req.name)
    return Dep(
        name=canonical(req.name),
        where=where,
        text=text,
        requirement=str(req),
        version=pins[0] if len(pins) == 1 and len(req.specifier) == 1 else "",
        index=index,
        marker=str(req.marker or ""),
    )


def url_dep(url: str, where: str, *, marker: str = "", text: str = "", name: str = "") -> Dep | None:
    """A direct-URL requirement: the name and version from the wheel's file name, or `#egg=` for a git URL."""
    filename = Path(urlparse(url).path).name
    version = ""
    if filename.endswith(".whl"):
        try:
            wheel_name, wheel_version, _, _ = parse_wheel_filename(filename)
            name, version = name or str(wheel_name), str(wheel_version)
        except InvalidWheelFilename:
            pass
    egg = _EGG.search(url)
    name = name or (egg.group(1) if egg else "")
    if not name:
        return None
    requirement = f"{canonical(name)} @ {url}" + (f"; {marker}" if marker else "")
    return Dep(
        name=canonical(name),
        where=where,
        text=text or url,
        requirement=requirement,
        version=version,
        url=url,
        marker=marker,
    )
