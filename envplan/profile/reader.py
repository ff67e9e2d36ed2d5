"""A collector of input problems: typed getters that record what is wrong instead of raising."""

from __future__ import annotations

import difflib
import re
from typing import Any

from packaging.version import Version

from envplan.errors import Problem
from envplan.kb.variants import CC, DisplayVersion, parse_cc

__all__ = ["Reader"]


class Reader:
    """Reads values out of parsed TOML tables; each bad value becomes one Problem."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[Problem] = []

    def add(self, key: str, message: str, hint: str = "", *, ref: str = "bad-value") -> None:
        self.problems.append(Problem(ref=ref, path=self.path, key=key, message=message + (f"; {hint}" if hint else "")))

    def keys(self, table: dict[str, Any], prefix: str, allowed: set[str]) -> None:
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(key, sorted(allowed), n=1)
                hint = f"did you mean {close[0]!r}?" if close else "known keys: " + ", ".join(sorted(allowed))
                self.add(f"{prefix}.{key}" if prefix else key, "unknown key", hint, ref="unknown-key")

    def table(self, data: dict[str, Any], key: str, *, required: bool = False) -> dict[str, Any]:
        value = data.get(key)
        if value is None:
            if required:
                self.add(key, "missing table", f"add a [{key}] table", ref="missing-key")
            return {}
        if not isinstance(value, dict):
            self.add(key, f"must be a table, not {_kind(value)}", f"write it as [{key}]", ref="wrong-type")
            return {}
        return value

    def string(self, table: dict[str, Any], key: str, *, required: bool = False) -> str | None:
        value = table.get(_leaf(key))
        if value is None:
            if required:
                self.add(key, "missing", "this key is required", ref="missing-key")
            return None
        if not isinstance(value, str) or not value.strip():
            self.add(key, f"must be a non-empty string, not {_kind(value)}", "quote the value", ref="wrong-type")
            return None
        return value.strip()

    def strings(self, table: dict[str, Any], key: str) -> list[str]:
        value = table.get(_leaf(key), [])
        if not isinstance(value, list):
            self.add(
                key, f"must be a list of strings, not {_kind(value)}", 'write it as ["...", "..."]', ref="wrong-type"
            )
            return []
        wrong = [(i, v) for i, v in enumerate(value) if not isinstance(v, str)]
        if wrong:
            i, v = wrong[0]
            quoted = ", ".join(f'"{x}"' if isinstance(x, (str, int, float)) else '"..."' for x in value)
            self.add(
                f"{key}[{i}]",
                f"{v!r} must be a quoted string, not {_kind(v)}",
                f"write it as [{quoted}]",
                ref="wrong-type",
            )
            return []
        return [v.strip() for v in value]

    def choice(self, table: dict[str, Any], key: str, options: tuple[str, ...], *, default: str) -> str | None:
        value = self.string(table, key)
        if value is None:
            return default if _leaf(key) not in table else None
        if value.lower() not in options:
            self.add(key, f"{value!r} is not one of {', '.join(options)}", f"use one of {', '.join(options)}")
            return None
        return value.lower()

    def version(self, table: dict[str, Any], key: str, pattern: re.Pattern[str], what: str) -> Version | None:
        value = table.get(_leaf(key))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            self.add(key, f"{value!r} must be a quoted string", f'write it as "{value}"', ref="wrong-type")
            return None
        text = self.string(table, key)
        if text is None:
            return None
        try:
            if pattern.fullmatch(text) is not None:
                return DisplayVersion(text)
        except ValueError:  # InvalidVersion, or a number longer than int() takes
            pass
        self.add(key, f"{text!r} is not {what}", f"write {what}", ref="bad-version")
        return None

    def cc(self, text: str, key: str) -> CC | None:
        cc = parse_cc(text)
        if cc is None:
            self.add(key, f"{text!r} is not a compute capability", "write it as major.minor, e.g. 8.0", ref="bad-value")
        return cc


def _leaf(key: str) -> str:
    return key.rsplit(".", 1)[-1]


def _kind(value: object) -> str:
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a table",
    }.get(type(value), type(value).__name__)
