"""Quoting, one helper per output format. Every string that comes from a profile (or from a plan.json a
person may have edited) passes through one of these before it reaches a shell command (build.sh, install.sh,
PLAN.md's copy-paste lines), a YAML file (the CI workflow, environment.yml), a Dockerfile or a comment line.

- shell: `shell_join(argv)` / `shell_word(text)` (shlex: POSIX single quotes)
- YAML: `yaml_dump(data)`, a block emitter whose every string is a double-quoted (JSON) scalar
- Dockerfile: `docker_run(argv)`, the JSON (exec) form of RUN: no shell ever parses the arguments
- comments (any format): `comment(text)`, one line with control characters made visible
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeGuard

__all__ = ["comment", "docker_run", "shell_comment", "shell_join", "shell_word", "yaml_dump", "yaml_scalar"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*", re.ASCII)
# plain scalars: start with a letter, digit, `_` or `-` followed by no space; no `#`, quotes, brackets or other
# indicators anywhere; words and numbers a YAML 1.1 reader would turn into booleans, nulls or numbers are quoted
_PLAIN = re.compile(r"(?:[A-Za-z0-9_]|-(?=[^ ]))[A-Za-z0-9 _.+=<>!~,;:/()@-]*(?<! )", re.ASCII)
_RESERVED = frozenset({"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"})
_NUMBERISH = re.compile(r"[-+]?[0-9][0-9A-Fa-f_.:xXoO+-]*|[-+]?\.(inf|nan)", re.ASCII | re.I)
YamlValue = str | int | float | bool | None | Mapping[str, "YamlValue"] | Sequence["YamlValue"]


def shell_word(text: str) -> str:
    """One word for a POSIX shell, whatever it holds."""
    return shlex.quote(text)


def shell_join(argv: Iterable[str]) -> str:
    """A command line for a POSIX shell: each argument one word."""
    return shlex.join(list(argv))


def comment(text: str) -> str:
    """Text that stays on its comment line: newlines and other control characters become `?`."""
    return _CONTROL.sub("?", text)


shell_comment = comment  # a `#` line in a shell script follows the same rule


def docker_run(argv: Sequence[str]) -> str:
    """A Dockerfile RUN instruction in exec (JSON) form: the arguments reach the program as they are."""
    return "RUN " + json.dumps(list(argv))


def yaml_scalar(value: str | int | float | bool | None) -> str:
    """A YAML scalar that cannot be read as anything else: a string stays plain only when no YAML reader could
    take it for something other than that string (`numpy<2`, `torch==2.1.2+cu118`), else it is double-quoted
    (JSON strings are valid YAML)."""
    if isinstance(value, str) and _plain_safe(value):
        return value
    return json.dumps(value)


def _plain_safe(text: str) -> bool:
    return (
        _PLAIN.fullmatch(text) is not None
        and ": " not in text
        and not text.endswith(":")
        and text.lower() not in _RESERVED
        and _NUMBERISH.fullmatch(text) is None
    )


def yaml_dump(data: Mapping[str, YamlValue]) -> str:
    """Block-style YAML of mappings, lists and scalars; keys plain only when they are simple identifiers."""
    return "\n".join(_mapping(data, 0)) + "\n"


def _key(key: str) -> str:
    return key if _PLAIN_KEY.fullmatch(key) else json.dumps(key)


def _mapping(data: Mapping[str, YamlValue], indent: int) -> list[str]:
    pad, out = " " * indent, []
    for key, value in data.items():
        head = f"{pad}{_key(key)}:"
        if isinstance(value, Mapping) and value:
            out += [head, *_mapping(value, indent + 2)]
        elif _is_list(value) and value:
            out += [head, *_sequence(value, indent + 2)]
        else:
            out.append(f"{head} {_inline(value)}")
    return out


def _sequence(items: Sequence[YamlValue], indent: int) -> list[str]:
    pad, out = " " * indent, []
    for item in items:
        if isinstance(item, Mapping) and item:
            first, *rest = _mapping(item, indent + 2)
            out += [f"{pad}- {first.lstrip()}", *rest]
        elif _is_list(item) and item:
            out += [f"{pad}-", *_sequence(item, indent + 2)]
        else:
            out.append(f"{pad}- {_inline(item)}")
    return out


def _inline(value: YamlValue) -> str:
    if isinstance(value, Mapping):
        return "{}"
    if _is_list(value):
        return "[]"
    assert value is None or isinstance(value, (str, int, float, bool))
    return yaml_scalar(value)


def _is_list(value: object) -> TypeGuard[Sequence[YamlValue]]:
    return isinstance(value, Sequence) and not isinstance(value, str)
