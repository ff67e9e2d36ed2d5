"""conda-lock.yml (conda-lock's format, version 1): the packages of one platform, their exact builds and
channels; the packages nothing else depends on are what the environment asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from envplan.errors import EnvplanError
from envplan.importers.condaenv import CondaSpec, conda_dep, read_yaml
from envplan.importers.model import Dep, FileFacts, canonical

__all__ = ["read_conda_lock"]

_SUBDIRS = ("linux-64", "linux-aarch64", "osx-arm64", "osx-64", "win-64", "noarch")


def read_conda_lock(path: Path, shown: str, platform: str = "linux-64") -> FileFacts:
    data = read_yaml(path, shown)
    if not isinstance(data, dict) or not isinstance(data.get("package"), list):
        raise EnvplanError("bad-conda-lock", "not a conda-lock.yml (no `package:` list)", where=shown)
    if data.get("version") not in (1, None):
        raise EnvplanError(
            "bad-conda-lock",
            f"conda-lock format version {data.get('version')} is not supported",
            where=shown,
            hint="write it with conda-lock (format version 1)",
        )
    platforms = [str(p) for p in (data.get("metadata") or {}).get("platforms") or []]
    chosen = platform if platform in platforms or not platforms else platforms[0]
    records = [p for p in data["package"] if isinstance(p, dict) and p.get("platform") == chosen]
    needed = {canonical(str(n), "conda") for r in records for n in (r.get("dependencies") or {})}
    deps = [_dep(r, shown, needed) for r in records if r.get("name")]
    python = next((_minor(r) for r in records if r.get("name") in ("python", "python_abi")), "")
    notes = [] if chosen == platform else [f"{shown}: no {platform} packages in the lock: read {chosen}"]
    return FileFacts(
        path=shown,
        format="conda-lock.yml",
        deps=tuple(deps),
        python=python,
        python_where=f"{shown}: python ({chosen})",
        channels=tuple(str(c.get("url")) for c in (data.get("metadata") or {}).get("channels") or [] if c),
        notes=tuple(notes),
    )


def _minor(record: dict[str, Any]) -> str:
    parts = str(record.get("version") or "").split(".")
    return ".".join(parts[:2]) if len(parts) >= 2 else ""


def _dep(record: dict[str, Any], shown: str, needed: set[str]) -> Dep:
    name, version = str(record["name"]), str(record.get("version") or "")
    url = str(record.get("url") or "")
    build = str(record.get("build") or "") or _build_from_url(url, name, version)
    where = f"{shown}: {name} {version} ({record.get('platform')})"
    direct = canonical(name, "conda") not in needed
    if record.get("manager") == "pip":
        return Dep(
            name=canonical(name),
            where=where,
            text=f"{name}=={version}",
            requirement=f"{canonical(name)}=={version}",
            version=version,
            url=url,
            locked=True,
            direct=direct,
        )
    spec = CondaSpec(_channel(url), name, version, build, exact=True)
    return conda_dep(spec, where, f"{name}={version}={build}", locked=True, direct=direct)


def _build_from_url(url: str, name: str, version: str) -> str:
    filename = Path(urlparse(url).path).name
    stem = filename.removesuffix(".conda").removesuffix(".tar.bz2")
    prefix = f"{name}-{version}-"
    return stem[len(prefix) :] if stem.startswith(prefix) else ""


def _channel(url: str) -> str:
    """https://conda.anaconda.org/conda-forge/linux-64/x.conda -> https://conda.anaconda.org/conda-forge"""
    parts = url.split("/")
    for i, part in enumerate(parts):
        if part in _SUBDIRS and i > 0:
            return "/".join(parts[:i])
    return ""
