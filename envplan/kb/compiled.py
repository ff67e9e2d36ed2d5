"""The compiled KB: the parsed knowledge base kept as plain JSON in the user cache, so start-up does not parse
the TOML files again. Data only: reading it builds nothing but the KB's own frozen dataclasses, versions,
specifier sets, tuples, sets and mappings, from a fixed list of classes. Unlike a pickle, a planted file
cannot run code; a file that is not a KB this version can read is refused (the caller rebuilds it)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from envplan.kb.variants import DisplayVersion

__all__ = ["FORMAT", "dumps", "loads"]

FORMAT = 1
Decoder = Callable[[Any], Any]


@cache
def _classes() -> dict[str, type[Any]]:
    """The only classes a compiled KB may contain: KB and the dataclasses of the KB's model modules."""
    from envplan.kb import KB, extmodel, model

    kinds = [KB] + [
        v
        for module in (model, extmodel)
        for v in vars(module).values()
        if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == module.__name__
    ]
    return {k.__name__: k for k in kinds}


def _fields(kind: type[Any]) -> list[str]:
    return [f.name for f in dataclasses.fields(kind) if f.init]


def dumps(kb: object) -> str:
    """The KB as JSON: classes as ["c", name, [field values in order]], with each class's field names once."""
    fields = {name: _fields(kind) for name, kind in _classes().items()}
    return json.dumps({"format": FORMAT, "fields": fields, "kb": _encode(kb)}, separators=(",", ":"))


_AS_TEXT = ((DisplayVersion, "d"), (Version, "v"), (SpecifierSet, "p"))  # values kept as their text


def _encode(value: object) -> Any:
    tag = next((t for kind, t in _AS_TEXT if isinstance(value, kind)), None)
    if tag is not None:
        return [tag, str(value)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        if _classes().get(name) is not type(value):
            raise TypeError(f"{name} is not a KB class")
        return ["c", name, [_encode(getattr(value, f)) for f in _fields(type(value))]]
    if isinstance(value, (tuple, list, frozenset, set)):
        tag = {tuple: "t", list: "l"}.get(type(value), "s")
        return [tag, [_encode(v) for v in value]]
    if isinstance(value, Mapping):
        if not all(isinstance(k, str) for k in value):
            raise TypeError("only string keys")
        return ["m", {k: _encode(v) for k, v in value.items()}]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"{type(value).__name__} cannot be compiled")


def loads(text: str | bytes) -> Any:
    """The KB in `text`; raises ValueError (or TypeError/KeyError) for anything else."""
    doc = json.loads(text)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError("not a compiled KB of this format")
    if doc.get("fields") != {name: _fields(kind) for name, kind in _classes().items()}:
        raise ValueError("compiled by a KB model with other fields")
    return _decoder({})(doc["kb"])


def _decoder(versions: dict[str, Version]) -> Decoder:
    classes = {name: (kind, _fields(kind)) for name, kind in _classes().items()}
    containers: dict[str, Callable[[list[Any]], Any]] = {"t": tuple, "l": list, "s": frozenset}

    def version(text: str, kind: type[Version]) -> Version:
        key = f"{kind.__name__}:{text}"
        found = versions.get(key)
        if found is None:
            found = versions[key] = kind(text)
        return found

    def decode(value: Any) -> Any:
        kind = type(value)
        if kind is not list:
            if kind is dict:
                raise ValueError("untagged mapping")
            return value
        tag = value[0]
        if tag in containers:
            return containers[tag]([v if type(v) in _SCALARS else decode(v) for v in value[1]])
        if tag == "c":
            kind, names = classes[value[1]]
            return kind(**{k: v if type(v) in _SCALARS else decode(v) for k, v in zip(names, value[2], strict=True)})
        if tag in ("v", "d"):
            return version(str(value[1]), Version if tag == "v" else DisplayVersion)
        if tag == "p":
            return SpecifierSet(str(value[1]))
        if tag == "m":
            return {str(k): decode(v) for k, v in value[1].items()}
        raise ValueError(f"unknown tag {tag!r}")

    return decode


_SCALARS = frozenset({str, int, float, bool, type(None)})
