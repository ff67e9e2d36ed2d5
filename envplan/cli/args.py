"""Arguments that need more than argparse: versions, URLs, variants, Pythons, input files. Each error names
the flag of the command that was run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from packaging.version import Version

from envplan.errors import EnvplanError

if TYPE_CHECKING:
    from envplan.kb.facts import KB
    from envplan.profile.model import PythonSpec

__all__ = ["python_arg", "read_input", "target_python", "url_arg", "variant_arg", "version_arg"]


def version_arg(text: str, where: str, hint: str) -> Version:
    """A version from the command line: ASCII digits, a sane length, PEP 440."""
    try:
        if text.isascii() and len(text) <= 64:
            return Version(text)
    except ValueError:  # InvalidVersion
        pass
    raise EnvplanError("bad-argument", f"{text[:64]!r} is not a version", where=where, hint=hint)


def url_arg(text: str, where: str) -> str:
    from envplan.profile.model import index_url_problem

    problem = index_url_problem(text.rstrip("/"))
    if problem is not None:
        raise EnvplanError("bad-argument", problem, where=where, hint="give the index's full URL")
    return text.rstrip("/")


def variant_arg(text: str | None, kb: KB) -> str | None:
    """--variant: auto, or a build some torch release in the KB publishes (a typo is bad input, not a blocker)."""
    from envplan.kb.variants import parse_variant

    if text is None or text == "auto":
        return text
    if parse_variant(text) is None:
        raise EnvplanError(
            "bad-argument",
            f"{text!r} is not a variant",
            where="--variant",
            hint="use cpu, cuXYZ (e.g. cu121), rocmX.Y or auto",
        )
    published = (v for r in kb.releases for v in (*r.variants, *r.unadvertised_variants))
    known = {*published, *(v for a in kb.availability for v in a.variants)}
    if text not in known:
        from envplan.kb.variants import variant_sort_key

        raise EnvplanError(
            "bad-argument",
            f"no torch release in the KB publishes a {text} build",
            where="--variant",
            hint=f"use auto or one of {', '.join(sorted(known, key=variant_sort_key))}; "
            "`envplan kb update` learns newer builds",
        )
    return text


def python_arg(text: str | None) -> PythonSpec | None:
    import re

    from envplan.profile.model import PythonSpec

    if text is None:
        return None
    m = re.fullmatch(r"(3\.\d{1,2})(t?)", text, re.ASCII)
    if m is None:
        raise EnvplanError(
            "bad-argument",
            f"{text!r} is not a Python version",
            where="--python-version",
            hint="write 3.12, or 3.13t for free-threaded CPython",
        )
    return PythonSpec(version=Version(m.group(1)), free_threaded=bool(m.group(2)))


def target_python(arg: str | None) -> str:
    import shutil

    from envplan.resolve import interpreter_arg

    return interpreter_arg(arg, "--python") or shutil.which("python3") or shutil.which("python") or sys.executable


def read_input(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise EnvplanError(
            "unreadable",
            f"cannot read: {exc.strerror}",
            where=name,
            hint="give a log file, or - to read standard input",
        ) from None
