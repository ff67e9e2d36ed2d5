"""Python lock files: uv.lock (uv's own format) and pylock.toml (PEP 751). Every entry is an exact, installed
version with the index it came from; what the project itself asked for is read where the lock says it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from envplan.errors import EnvplanError
from envplan.importers.model import Dep, FileFacts, canonical
from envplan.importers.pyproject import read_toml

__all__ = ["read_pylock", "read_uv_lock"]

_ROOT_SOURCES = ("editable", "virtual")


def read_uv_lock(path: Path, shown: str) -> FileFacts:
    data = read_toml(path, shown)
    packages = [p for p in data.get("package", []) if isinstance(p, dict) and p.get("name")]
    if "version" not in data:
        raise EnvplanError("bad-uv-lock", "not a uv.lock (no version or [[package]])", where=shown)
    roots = [p for p in packages if any(k in (p.get("source") or {}) for k in _ROOT_SOURCES)]
    wanted = _root_requirements(roots)
    deps = [_uv_dep(p, shown, wanted, path.parent) for p in packages if p not in roots]
    notes = [] if roots else [f"{shown}: no project entry in the lock: which packages the project asks for is unknown"]
    return FileFacts(
        path=shown,
        format="uv.lock",
        deps=tuple(deps),
        python=str(data.get("requires-python") or ""),
        python_where=f"{shown}: requires-python",
        name=str(roots[0]["name"]) if roots else "",
        notes=tuple(notes),
    )


def _root_requirements(roots: list[dict[str, Any]]) -> dict[str, str]:
    """{name: the project's requirement as written}: requires-dist in the lock's metadata, else the bare name."""
    wanted: dict[str, str] = {}
    for root in roots:
        for entry in root.get("dependencies", []):
            wanted.setdefault(canonical(str(entry.get("name"))), "")
        for entry in (root.get("metadata") or {}).get("requires-dist", []):
            name = canonical(str(entry.get("name")))
            if not entry.get("extra") and name in wanted:
                wanted[name] = f"{name}{entry.get('specifier') or ''}"
    return wanted


def _index_url(registry: str, base: Path) -> str:
    """uv writes a local index as a path: make it a file:// URL again (relative to the lock's folder)."""
    if not registry or "://" in registry:
        return registry
    return (base / registry).resolve().as_uri()


def _uv_dep(package: dict[str, Any], shown: str, wanted: dict[str, str], base: Path) -> Dep:
    name = canonical(str(package["name"]))
    version = str(package.get("version") or "")
    source = package.get("source") or {}
    url = str(source.get("url") or "") or (f"git+{source['git']}" if source.get("git") else "")
    return Dep(
        name=name,
        where=f"{shown}: package {name} {version}",
        text=f"{name}=={version}",
        requirement=wanted.get(name) or f"{name}=={version}",
        version=version,
        index=_index_url(str(source.get("registry") or ""), base),
        url=url,
        locked=True,
        direct=name in wanted,
    )


def read_pylock(path: Path, shown: str) -> FileFacts:
    data = read_toml(path, shown)
    packages = data.get("packages")
    if not isinstance(packages, list) or "lock-version" not in data:
        raise EnvplanError("bad-pylock", "not a pylock.toml (no lock-version or [[packages]])", where=shown)
    needed = {canonical(str(d.get("name"))) for p in packages for d in p.get("dependencies", []) if isinstance(d, dict)}
    deps = [_pylock_dep(p, shown, i, needed) for i, p in enumerate(packages) if isinstance(p, dict) and p.get("name")]
    notes = (
        []
        if needed
        else [f"{shown}: the lock does not say which packages the project asked for: every locked one is kept"]
    )
    return FileFacts(
        path=shown,
        format="pylock.toml",
        deps=tuple(deps),
        python=str(data.get("requires-python") or ""),
        python_where=f"{shown}: requires-python",
        notes=tuple(notes),
    )


def _pylock_dep(package: dict[str, Any], shown: str, i: int, needed: set[str]) -> Dep:
    name = canonical(str(package["name"]))
    version = str(package.get("version") or "")
    vcs = package.get("vcs") or {}
    archive = package.get("archive") or {}
    url = str(archive.get("url") or "") or (f"git+{vcs['url']}@{vcs.get('commit-id', '')}" if vcs.get("url") else "")
    return Dep(
        name=name,
        where=f"{shown}: packages[{i}]",
        text=f"{name}=={version}",
        requirement=f"{name}=={version}" if version else name,
        version=version,
        index=str(package.get("index") or ""),
        url=url,
        marker=str(package.get("marker") or ""),
        locked=True,
        direct=name not in needed,
    )
