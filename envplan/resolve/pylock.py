"""Write a PEP 751 pylock.toml from pinned packages and the index files behind them."""

from __future__ import annotations

import tomlkit

from envplan.index.simple import IndexFile
from envplan.resolve.model import LockedPackage

__all__ = ["render_pylock"]


def render_pylock(python: str, entries: list[tuple[LockedPackage, str, list[IndexFile]]]) -> str:
    """entries: (package, the index it comes from, its files there that match its hashes)."""
    doc = tomlkit.document()
    doc["lock-version"] = "1.0"
    doc["created-by"] = "envplan"
    doc["requires-python"] = f">={python}"
    packages = tomlkit.aot()
    for package, index, files in entries:
        table = tomlkit.table()
        table["name"] = package.name
        table["version"] = package.version
        table["index"] = index
        wheels = [f for f in files if f.filename.endswith(".whl")]
        sdists = [f for f in files if not f.filename.endswith(".whl")]
        if wheels:
            table["wheels"] = [_file(f) for f in wheels]
        if sdists:
            table["sdist"] = _file(sdists[0])
        packages.append(table)
    doc["packages"] = packages
    return tomlkit.dumps(doc)


def _file(f: IndexFile) -> tomlkit.items.InlineTable:
    item = tomlkit.inline_table()
    item.update({"name": f.filename, "url": f.url, "hashes": {"sha256": f.sha256}})
    return item
