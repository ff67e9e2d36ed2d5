"""C++ symbol names as people read them, through binutils' c++filt (the names unchanged when it is missing)."""

from __future__ import annotations

import subprocess

__all__ = ["demangle", "demangle_one"]


def demangle(symbols: list[str]) -> list[str]:
    """One c++filt run for all of `symbols`; the input itself when c++filt fails or answers out of step."""
    if not symbols:
        return []
    try:
        out = subprocess.run(
            ["c++filt"], input="\n".join(symbols), capture_output=True, text=True, timeout=60, check=True
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return list(symbols)
    return out if len(out) == len(symbols) else list(symbols)


def demangle_one(symbol: str) -> str:
    return demangle([symbol])[0]
