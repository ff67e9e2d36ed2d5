"""pyproject.toml: PEP 621 dependencies (extras and dependency groups too), requires-python, and uv's
`[[tool.uv.index]]` and `[tool.uv.sources]` (an index, a URL or a git ref per package)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement

from envplan import tomlread
from envplan.errors import EnvplanError
from envplan.importers.model import Dep, FileFacts, canonical
from envplan.importers.requirements import url_dep

__all__ = ["read_pyproject", "read_toml"]


def read_toml(path: Path, shown: str) -> dict[str, Any]:
    try:
        return tomlread.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise EnvplanError("unreadable", f"cannot read: {exc}", where=shown) from None
    except tomlread.TOMLDecodeError as exc:
        raise EnvplanError("toml-syntax", f"not valid TOML: {exc}", where=shown, hint="fix the syntax there") from None


def read_pyproject(path: Path, shown: str) -> FileFacts:
    data = read_toml(path, shown)
    project: dict[str, Any] = data["project"] if isinstance(data.get("project"), dict) else {}
    tool: dict[str, Any] = data["tool"] if isinstance(data.get("tool"), dict) else {}
    uv: dict[str, Any] = tool["uv"] if isinstance(tool.get("uv"), dict) else {}
    indexes = {str(i.get("name")): i for i in uv.get("index", []) if isinstance(i, dict)}
    sources = uv.get("sources", {}) if isinstance(uv.get("sources"), dict) else {}
    deps: list[Dep] = []
    notes: list[str] = []
    for group, key, items in _requirement_lists(project, data):
        for i, text in enumerate(items):
            dep = _dep(str(text), f"{shown}: {key}[{i}]", group, (indexes, sources))
            if dep is None:
                notes.append(f"{shown}: {key}[{i}]: {text!r} is not a PEP 508 requirement: left out")
            else:
                deps.append(dep)
    default = next((str(i["url"]) for i in indexes.values() if i.get("default") and i.get("url")), "")
    return FileFacts(
        path=shown,
        format="pyproject.toml",
        deps=tuple(deps),
        python=str(project.get("requires-python") or ""),
        python_where=f"{shown}: project.requires-python",
        indexes=tuple(str(i["url"]) for i in indexes.values() if i.get("url")),
        default_index=default,
        name=str(project.get("name") or ""),
        notes=tuple(notes),
    )


def _requirement_lists(project: dict[str, Any], data: dict[str, Any]) -> list[tuple[str, str, list[Any]]]:
    """(extra or group name, dotted key, requirement strings): dependencies first, then extras and groups."""
    out: list[tuple[str, str, list[Any]]] = [("", "project.dependencies", list(project.get("dependencies") or []))]
    for extra, items in (project.get("optional-dependencies") or {}).items():
        out.append((f"extra {extra}", f"project.optional-dependencies.{extra}", list(items or [])))
    for group, items in (data.get("dependency-groups") or {}).items():
        if isinstance(items, list):
            out.append((f"group {group}", f"dependency-groups.{group}", [x for x in items if isinstance(x, str)]))
    return out


def _dep(text: str, where: str, group: str, uv: tuple[dict[str, Any], dict[str, Any]]) -> Dep | None:
    try:
        req = Requirement(text)
    except InvalidRequirement:
        return None
    name = canonical(req.name)
    source = _source(uv[1].get(req.name) or uv[1].get(name), group)
    if req.url or source.get("url") or source.get("git"):
        return _url(req, source, where, group)
    pins = [s.version for s in req.specifier if s.operator in ("==", "===")]
    index = uv[0].get(str(source.get("index")), {}).get("url", "") if source.get("index") else ""
    return Dep(
        name=name,
        where=where,
        text=text,
        requirement=str(req),
        version=pins[0] if len(pins) == 1 and "*" not in pins[0] else "",
        index=str(index),
        marker=str(req.marker or ""),
        optional=group,
    )


def _source(entry: object, group: str) -> dict[str, Any]:
    """The uv source for a requirement: one table, or the first of a list whose extra/group matches."""
    entries = entry if isinstance(entry, list) else [entry] if isinstance(entry, dict) else []
    kind, _, name = group.partition(" ")
    for e in entries:
        if not isinstance(e, dict):
            continue
        wanted = e.get("extra") if kind == "extra" else e.get("group") if kind == "group" else None
        if wanted is None and ("extra" in e or "group" in e):
            continue
        if wanted is None or wanted == name:
            return e
    return {}


def _url(req: Requirement, source: dict[str, Any], where: str, group: str) -> Dep | None:
    url = req.url or str(source.get("url") or "")
    if source.get("git"):
        ref = source.get("rev") or source.get("tag") or source.get("branch")
        url = f"git+{source['git']}" + (f"@{ref}" if ref else "")
    dep = url_dep(url, where, marker=str(req.marker or ""), text=str(req), name=req.name)
    if dep is None:
        return None
    return replace(dep, optional=group)
