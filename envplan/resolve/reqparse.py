"""Read back a hashed requirements.txt as written by uv or pip-compile."""

from __future__ import annotations

import re

from envplan.resolve.model import LockedPackage

__all__ = ["parse_requirements"]

_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;\\]+)")
_HASH = re.compile(r"--hash=(sha256:[0-9a-f]{64})")
_FROM = re.compile(r"^\s+# from (\S+)")


def parse_requirements(text: str) -> tuple[LockedPackage, ...]:
    """Each `name==version` entry with its hashes and, when annotated, the index it came from."""
    out: list[LockedPackage] = []
    current: dict[str, object] | None = None
    for line in text.splitlines():
        pin = _PIN.match(line)
        if pin:
            if current:
                out.append(_done(current))
            current = {"name": pin.group(1), "version": pin.group(3), "hashes": _HASH.findall(line), "index": ""}
            continue
        if current is None:
            continue
        hashes = current["hashes"]
        assert isinstance(hashes, list)
        hashes += _HASH.findall(line)
        origin = _FROM.match(line)
        if origin:
            current["index"] = origin.group(1)
    if current:
        out.append(_done(current))
    return tuple(out)


def _done(entry: dict[str, object]) -> LockedPackage:
    hashes = entry["hashes"]
    assert isinstance(hashes, list)
    return LockedPackage(
        name=str(entry["name"]), version=str(entry["version"]), hashes=tuple(hashes), index=str(entry["index"])
    )
