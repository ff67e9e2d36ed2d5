"""The C and C++ runtimes a binary needs newer than the system has: glibc, libstdc++ (GLIBCXX, CXXABI)."""

from __future__ import annotations

import re

from envplan.kb import KB

from .model import Candidate, found
from .text import Text

__all__ = ["glibc_too_old"]

_GLIBC = re.compile(
    r"(?P<lib>GLIBC|GLIBCXX|CXXABI)_(?P<ver>[\d.]+)'?\s*not\s*found|"
    r"glibc\s*(?:version\s*)?(?P<bare>2\.\d+)[\"'\u201d]?\s*not\s*found",  # ('"glibc 2.29" not found', retold)
    re.IGNORECASE,
)
# the same versioned symbol tags in other words or languages: "GLIBCXX_3.4.21 ... 符号未找到", "requires GLIBC_2.27"
_TAG = re.compile(r"(?<![A-Za-z0-9_])(?P<lib>GLIBC|GLIBCXX|CXXABI)_(?P<ver>\d+(?:\.\d+)+)")
_MISSING_WORDS = re.compile(
    r"not\s*found|missing|requires?|required|needs?|未找到|找不到|缺失|缺少|依赖", re.IGNORECASE
)
# a linker's "undefined reference to `powf@GLIBC_2.27'" (in Chinese: ...未定义的引用): a library linked needs that
# symbol version of the system's C library (for libstdc++'s GLIBCXX the same words are as often a __cxx11 string of
# another compiler's ABI: those are the symbol reader's)
_UNDEFINED_REFERENCE = re.compile(r"undefined\s*reference|未定义的?引用", re.IGNORECASE)


# a wheel pip refuses whose manylinux tag names a glibc floor (PEP 600: manylinux_2_28 loads on glibc >= 2.28;
# manylinux2014 = 2.17, manylinux2010 = 2.12, manylinux1 = 2.5), next to the system's glibc stated lower
_REFUSED_MANYLINUX = re.compile(
    r"-manylinux(?:_(?P<major>\d+)_(?P<minor>\d+)|(?P<legacy>2014|2010|1))_\w+?\.whl\s*is\s*not\s*a\s*supported\s*wheel",
    re.IGNORECASE,
)
_LEGACY_FLOOR = {"2014": (2, 17), "2010": (2, 12), "1": (2, 5)}
# the system's glibc as stated ("glibc 2.17", "GLIBC version: 2.17", ldd's "(GNU libc) 2.17")
_GLIBC_STATED = re.compile(
    r"(?:glibc|GNU\s+libc\)?)(?:\s+version)?\s*[:=(]?\s*(?:is\s+)?(?P<major>2)\.(?P<minor>\d{1,2})(?![\d.])", re.I
)


def _refused_for_glibc(text: Text) -> list[Candidate]:
    """A manylinux wheel refused on a system whose stated glibc is below the wheel's floor."""
    wheel, system = text.search(_REFUSED_MANYLINUX), text.search(_GLIBC_STATED)
    if wheel is None or system is None:
        return []
    legacy = wheel.group("legacy")
    floor = _LEGACY_FLOOR[legacy] if legacy else (int(wheel.group("major")), int(wheel.group("minor")))
    have = (int(system.group("major")), int(system.group("minor")))
    if have >= floor:
        return []
    need = f"{floor[0]}.{floor[1]}"
    cause = f"the wheel is built for glibc >= {need} (its manylinux tag); this system's glibc is {have[0]}.{have[1]}"
    return [found("glibc-too-old", text, wheel.start(), 0.85, cause=cause, fix=glibc_fix(need))]


def _tag_missing(text: Text) -> re.Match[str] | None:
    for m in _TAG.finditer(text.raw):
        window = text.raw[max(0, m.start() - 80) : m.end() + 80]
        if _MISSING_WORDS.search(window) or (m.group("lib") == "GLIBC" and _UNDEFINED_REFERENCE.search(window)):
            return m
    return None


def glibc_fix(ver: str) -> str:
    return (
        f"use a system or container with glibc >= {ver or 'the one the binary was built on'}, or a build made "
        "for an older glibc (torch's own floor per release: envplan matrix; flash-attn 2.8 wheels need 2.32)"
    )


def glibc_too_old(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_GLIBC)
    score = 0.93
    if m is None:
        m, score = _tag_missing(text), 0.8
    if m is None:
        return _refused_for_glibc(text)  # in words, it is the claim reader's (prose.py)
    lib = (m.groupdict().get("lib") or "GLIBC").upper()
    ver = m.groupdict().get("ver") or m.groupdict().get("bare") or ""
    if lib == "GLIBC":
        need = f"glibc {ver} or newer" if ver else "a newer glibc than the system's"
        cause = f"the binary needs {need}; this system's glibc is older"
        fix = glibc_fix(ver)
    else:
        cause = f"the binary needs a newer libstdc++ ({lib}_{ver}) than the one loaded"
        fix = (
            "load a newer libstdc++ (conda install -c conda-forge libstdcxx-ng, or LD_PRELOAD the newer "
            "libstdc++.so.6), or build with the system compiler"
        )
    return [
        Candidate(ref="glibc-too-old", score=score, at=m.start(), evidence=text.line(m.start()), cause=cause, fix=fix)
    ]
