"""Is a lock on disk still the lock of these inputs? Answered before anything heavy is imported: the request
is a pure function of the profile, the KB and envplan's version, so when those and the backend are unchanged
(and the files are as written), nothing needs planning or resolving.

This module is the whole of an unchanged `envplan lock`, which must cost little more than the interpreter's
start-up: it imports only os (loaded before envplan runs), envplan.fastio and the KB digest. lock.json
is read in the exact form envplan writes it without the json module, which takes over for any other form, and
no pattern is compiled."""

from __future__ import annotations

import os

from envplan import __version__
from envplan.fastio import cache_dir, file_key, sha256_hex, which
from envplan.kb.digest import kb_digest

__all__ = [
    "CONDA_LOCK",
    "LOCK_FILES",
    "STAMP",
    "UV_VERSION_MEMO",
    "FreshLock",
    "fresh_lock",
    "fresh_message",
    "pinned",
    "quick_fresh",
    "read_stamp",
    "remember_uv_version",
    "remembered_uv_version",
    "text_digest",
]

STAMP = "lock.json"
LOCK_FILES = ("requirements.txt", "pylock.toml")
CONDA_LOCK = "conda-lock.yml"
UV_VERSION_MEMO = "uv-version.txt"  # per uv binary, newest first: its file_key on one line, its version on the next
_UV_MEMO_KEPT = 8  # binaries remembered (a user's venvs, pipx, the system's): more are asked again

FreshLock = tuple[str, dict[str, str]]  # (the lock's folder, its files as read, lock.json included)

_PAIR_INDENT = "    "  # lock.json as envplan writes it: json.dumps(stamp, indent=2), string values


def text_digest(text: str) -> str:
    """How lock.json records the profile and every file it stamps."""
    return sha256_hex(text.encode())


def fresh_message(where: str) -> str:
    return f"{where}: up to date (inputs unchanged, nothing resolved)"


def read_stamp(text: str) -> tuple[dict[str, str], dict[str, str]] | None:
    """lock.json's (inputs, files), or None when it is not a stamp envplan could have written."""
    own = _own_form(text)
    if own is not None:
        return own
    import json  # a stamp reformatted by hand: ~1 ms more

    try:
        stamp = json.loads(text)
        inputs, files = stamp["inputs"], stamp["files"]
    except (ValueError, KeyError, TypeError):
        return None
    if not (isinstance(inputs, dict) and isinstance(files, dict)):
        return None
    return inputs, files


def _own_form(text: str) -> tuple[dict[str, str], dict[str, str]] | None:
    """The stamp in the exact form envplan writes, read line by line (the json module and a compiled pattern
    would each cost more than the rest of the unchanged-lock path); None for any other form."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if lines[:3] != ["{", '  "schema": 1,', '  "inputs": {'] or lines[-1] != "}":
        return None
    try:
        split = lines.index("  },")
    except ValueError:
        return None
    if lines[split + 1 : split + 2] != ['  "files": {'] or lines[-2] != "  }":
        return None
    inputs, files = _own_pairs(lines[3:split]), _own_pairs(lines[split + 2 : -2])
    return None if inputs is None or files is None else (inputs, files)


def _own_pairs(lines: list[str]) -> dict[str, str] | None:
    pairs = {}
    for n, line in enumerate(lines):
        last = n == len(lines) - 1
        body = line.removeprefix(_PAIR_INDENT).removesuffix("" if last else ",")
        key, sep, value = body.partition('": "')
        if not (line.startswith(_PAIR_INDENT + '"') and sep and value.endswith('"')):
            return None
        key, value = key[1:], value[:-1]
        if any(c in part for part in (key, value) for c in '"\\') or not (key.isprintable() and value.isprintable()):
            return None  # an escape or a control character: json reads it
        pairs[key] = value
    return pairs


def remembered_uv_version(uv: str) -> tuple[str, str | None]:
    """(this binary's key: path, size, mtime; the version `uv --version` printed for it, or None when not known)."""
    path = uv if os.sep in uv else (which(uv) or uv)
    key = file_key(path) if os.path.exists(path) else ""
    return key, (_uv_memo().get(key) if key else None)


def remember_uv_version(key: str, version: str) -> None:
    """Remember `version` for the binary `key` beside the others remembered (the newest first, a few kept): envplan
    run with each of a user's uv binaries in turn answers an unchanged lock without running any of them."""
    if not key or not version or "\n" in key or "\n" in version:
        return
    from pathlib import Path

    from envplan.paths import store_cache

    others = [(k, v) for k, v in _uv_memo().items() if k != key][: _UV_MEMO_KEPT - 1]
    text = "\n".join(f"{k}\n{v}" for k, v in [(key, version), *others])
    store_cache(Path(cache_dir()) / UV_VERSION_MEMO, text)


def _uv_memo() -> dict[str, str]:
    """The remembered (binary key, version) pairs, newest first; {} when there is no memo or it cannot be read. (A
    memo written before several binaries were kept holds one pair, read the same way.)"""
    try:
        with open(os.path.join(cache_dir(), UV_VERSION_MEMO), encoding="utf-8") as memo:
            lines = memo.read().split("\n")
    except (OSError, ValueError):
        return {}
    pairs: dict[str, str] = {}
    for key, version in zip(lines[0::2], lines[1::2], strict=False):
        if key and version and key not in pairs:
            pairs[key] = version
    return pairs


def quick_fresh(folder: str, profile_text: str, backend: str, *, conda: bool) -> dict[str, str] | None:
    """The lock's files as read (lock.json included) when they are still the lock of these inputs, else None."""
    stamp_text = _read(os.path.join(folder, STAMP))
    stamp = None if stamp_text is None else read_stamp(stamp_text)
    if stamp_text is None or stamp is None:
        return None
    inputs, files = stamp
    same = (
        inputs.get("profile") == text_digest(profile_text)
        and inputs.get("kb") == kb_digest()
        and inputs.get("backend") == backend
        and inputs.get("envplan") == __version__
        and ("conda" in inputs) == conda
        and (CONDA_LOCK in files) == conda
    )
    if not same:
        return None
    texts = {STAMP: stamp_text}
    for name, digest in files.items():
        text = _read(os.path.join(folder, name))
        if text is None or text_digest(text) != digest:
            return None
        texts[name] = text
    return texts


def fresh_lock(profile: str, out: str | None, backend: str, *, conda: bool) -> FreshLock | None:
    """`envplan lock PROFILE [--out OUT]`'s lock when it is current, read without parsing the profile into a
    model (None: take the full path, which also reports whatever is wrong)."""
    if backend != "uv":
        return None  # pip-compile's version costs a Python start-up: the full path is as quick
    text = _read(profile)
    if text is None:
        return None
    if not out:
        name = _profile_name(text)
        if name is None:
            return None
        out = f"lock-{name}"
    from envplan.resolve import find_uv

    version = remembered_uv_version(find_uv())[1]
    if version is None:
        return None  # the full path runs uv once and remembers it
    texts = quick_fresh(out, text, f"uv {version}", conda=conda)
    return None if texts is None else (out, {n: texts[n] for n in (*LOCK_FILES, STAMP) if n in texts})


def pinned(requirements: str) -> int:
    """How many packages a locked requirements.txt pins."""
    return sum(1 for line in requirements.splitlines() if "==" in line and not line.startswith("#"))


def _profile_name(text: str) -> str | None:
    """The profile's top-level `name = "..."` when it can only mean one thing: a plain line before any table and
    any multi-line string, a plain name; None otherwise (the full path reads the TOML)."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") or '"""' in line or "'''" in line:
            return None
        key, sep, value = line.partition("=")
        if key.strip() != "name" or not sep:
            continue
        value = value.split("#", 1)[0].strip()
        if len(value) > 2 and value[0] == value[-1] and value[0] in "\"'":
            name = value[1:-1]
            return name if _plain_name(name) else None
        return None
    return None


def _plain_name(name: str) -> bool:
    """paths.safe_name's rule (a letter or digit, then letters, digits, '.', '_', '-'), checked without re."""
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    return (
        0 < len(name) <= 100 and name[0].isascii() and name[0].isalnum() and set(name) <= allowed and ".." not in name
    )


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:  # newlines as Path.read_text reads them: digests agree
            return f.read()
    except (OSError, ValueError):
        return None
