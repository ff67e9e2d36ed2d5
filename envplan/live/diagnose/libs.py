"""The C and C++ runtimes a binary needs newer than the system has: glibc, libstdc++ (GLIBCXX, CXXABI)."""

from __future__ import annotations

import re

from envplan.kb import KB

from .model import Candidate, found
from .text import Text

__all__ = ["glibc_too_old", "uv_platform_below"]

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
# (a compressed tag set names its lowest floor first: "-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl")
_REFUSED_MANYLINUX = re.compile(
    r"-manylinux(?:_(?P<major>\d+)_(?P<minor>\d+)|(?P<legacy>2014|2010|1))_\w+?(?:\.(?:many|musl)linux\w+?)*\.whl\s*"
    r"is\s*not\s*a\s*supported\s*wheel",
    re.IGNORECASE,
)
_LEGACY_FLOOR = {"2014": (2, 17), "2010": (2, 12), "1": (2, 5)}
# the system's glibc as stated ("glibc 2.17", "GLIBC version: 2.17", ldd's "(GNU libc) 2.17")
_GLIBC_STATED = re.compile(
    r"(?:glibc|GNU\s+libc\)?)(?:\s+version)?\s*[:=(]?\s*(?:is\s+)?(?P<major>2)\.(?P<minor>\d{1,2})(?!\d|\.\d)", re.I
)


def _refused_for_glibc(text: Text, kb: KB) -> list[Candidate]:
    """A manylinux wheel refused on a system whose glibc, stated or that of the distribution release named, is below
    the wheel's floor."""
    wheel = text.search(_REFUSED_MANYLINUX)
    system = _system_glibc(text, kb) if wheel is not None else None
    if wheel is None or system is None:
        return []
    have, where = system
    legacy = wheel.group("legacy")
    floor = _LEGACY_FLOOR[legacy] if legacy else (int(wheel.group("major")), int(wheel.group("minor")))
    if have >= floor:
        return []
    need = f"{floor[0]}.{floor[1]}"
    cause = f"the wheel is built for glibc >= {need} (its manylinux tag); {where} {have[0]}.{have[1]}"
    return [found("glibc-too-old", text, wheel.start(), 0.85, cause=cause, fix=glibc_fix(need, kb))]


def _system_glibc(text: Text, kb: KB) -> tuple[tuple[int, int], str] | None:
    """The system's glibc as the text states it, or as the distribution release it names ships it (KB), with how the
    cause says where it comes from; None when the text says neither."""
    system = text.search(_GLIBC_STATED)
    if system is not None:
        return (int(system.group("major")), int(system.group("minor"))), "this system's glibc is"
    distro = distro_named(text, kb)
    if distro is None:
        return None
    return _glibc_pair(distro[1]), f"{distro[0]} ships glibc"


# uv's resolver naming this machine's platform tag and the platforms the release has wheels for (uv 0.13.9, a
# manylinux_2_17 target against a manylinux_2_28 wheel: "torch==2.7.0 has no wheels with a matching platform tag (e.g.,
# `manylinux_2_17_x86_64`) ... hint: Wheels are available for `torch` (v2.7.0) on the following platforms:
# `manylinux_2_28_x86_64`, `win_amd64`"; uv sync's form: "You're on Linux (`manylinux_2_27_x86_64`), but `torch`
# (v2.7.0) only has wheels for the following platforms: ..."): every Linux wheel of the machine's architecture asks a
# newer glibc than the machine's tag allows
_ARCHES = r"x86_64|aarch64|i686|ppc64le|s390x|armv7l|riscv64"
_UV_MACHINE_TAG = re.compile(
    r"(?:has\s+no\s+wheels?\s+with\s+a\s+matching\s+platform\s+tag\s*\(e\.g\.,?\s*|You['\u2019]re\s+on\s+Linux\s*\()"
    rf"`?manylinux_2_(?P<minor>\d+)_(?P<arch>{_ARCHES})`?\)",
    re.IGNORECASE,
)
_UV_WHEELS_FOR = re.compile(
    r"(?:available\s+for\s+`?[\w.-]+`?\s*(?:\(v[\w.+!-]+\))?\s+on|only\s+has\s+wheels\s+for)\s+the\s+following\s+"
    r"platforms?:\s*(?P<tags>[^\n]+)",
    re.IGNORECASE,
)
_LINUX_TAG = re.compile(
    rf"(?:many|musl)?linux(?:_(?P<major>\d+)_(?P<minor>\d+)|(?P<legacy>2014|2010|1))?_(?P<arch>{_ARCHES})"
)


def uv_platform_below(text: Text) -> tuple[re.Match[str], str] | None:
    """uv's resolver saying this machine's manylinux tag (its glibc) is below the floor of every Linux wheel the
    release has for its architecture: (uv's words naming the machine's tag, the glibc the wheels need); None
    otherwise."""
    machine = text.search(_UV_MACHINE_TAG)
    listed = text.search(_UV_WHEELS_FOR) if machine is not None else None
    if machine is None or listed is None:
        return None
    have = (2, int(machine.group("minor")))
    floors = []
    for tag in _LINUX_TAG.finditer(listed.group("tags")):
        if tag.group("arch") != machine.group("arch") or tag.group(0).startswith("musl"):
            continue
        legacy = tag.group("legacy")
        if not legacy and not tag.group("major"):
            return None  # a plain linux_ARCH wheel: no glibc floor to be below
        floors.append(_LEGACY_FLOOR[legacy] if legacy else (int(tag.group("major")), int(tag.group("minor"))))
    if not floors or min(floors) <= have:
        return None
    need = min(floors)
    return machine, f"{need[0]}.{need[1]}"


# the user saying the system's glibc is already new enough ("I have updated my system's GLIBC and confirmed that
# `manylinux_2_28` is supported by Python and pip"): uv reports the glibc of an interpreter it cached before (uv#14268,
# settled by --refresh), not the system's
_GLIBC_UPDATED = re.compile(
    r"(?:updated|upgraded)\s+(?:\w+['\u2019]?s?\s+){0,3}?g?libc|`?manylinux_2_\d+`?\s+is\s+supported", re.IGNORECASE
)


def _uv_glibc(text: Text, kb: KB) -> list[Candidate]:
    below = uv_platform_below(text)
    if below is None or text.has(_GLIBC_UPDATED):
        return []
    m, need = below
    cause = (
        f"the release's Linux wheels need glibc >= {need} (their manylinux tag); uv reports this machine as "
        f"manylinux_2_{m.group('minor')}_{m.group('arch')} (glibc 2.{m.group('minor')})"
    )
    return [found("glibc-too-old", text, m.start(), 0.85, cause=cause, fix=glibc_fix(need, kb))]


# a torch release said not to install or not to be supported ("on centos 7, glibc version 2.17 / pytorch 2.7 is not
# supported"), on a system whose glibc the text states (or its distribution's): the KB's floor of that release's Linux
# wheels above it is why (dots.ocr#35)
_TORCH_REFUSED = re.compile(
    r"(?<![A-Za-z0-9_-])(?:py)?torch\s*(?:==|v)?\s*(?P<v>[12]\.\d{1,2})(?:\.\d+)?(?![\d])[^\n.]{0,30}?"
    r"(?:(?:is\s+|are\s+)?not\s+supported|can(?:no|['\u2019])?t\s+(?:be\s+)?install\w*|fails?\s+to\s+install)",
    re.IGNORECASE,
)


def _torch_floor_above_system(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_TORCH_REFUSED)
    system = _system_glibc(text, kb) if m is not None else None
    if m is None or system is None:
        return []
    have, where = system
    floors = [_glibc_pair(str(r.glibc)) for r in kb.releases if str(r.minor) == m.group("v")]
    if not floors or min(floors) <= have:
        return []
    need = f"{min(floors)[0]}.{min(floors)[1]}"
    cause = f"torch {m.group('v')}'s Linux wheels need glibc >= {need}; {where} {have[0]}.{have[1]}"
    return [found("glibc-too-old", text, m.start(), 0.75, cause=cause, fix=glibc_fix(need, kb))]


# a distribution release as people write it ("Ubuntu 18.04.5 LTS", "ubuntu18.04", "CentOS Linux release 7.9.2009",
# "centos7", "CentOS Stream 9", "Debian GNU/Linux 11", "RHEL8", "Red Hat Enterprise Linux 7.9", "Amazon Linux 2",
# "openSUSE Leap 15.3"); the release the KB's distro_glibc lists it under: Ubuntu and openSUSE by major.minor, the
# others by major
_DISTRO = re.compile(
    r"(?<![A-Za-z])(?:(?P<ubuntu>ubuntu)[\s_-]*(?:linux\s*)?(?P<ubuntu_rel>\d{2}\.\d{2})|"
    r"(?P<opensuse>open\s*suse)[\s_-]*(?:leap[\s_-]*)?(?P<opensuse_rel>15\.\d)|"
    r"(?P<other>debian|centos|rhel|red\s*hat(?:\s+enterprise\s+linux)?|rocky|alma|oracle|amazon|fedora)"
    r"(?:[\s_-]*(?:GNU/)?linux)?[\s_-]*(?:server[\s_-]*)?(?:release[\s_-]*)?(?P<stream>stream[\s_-]*)?"
    r"(?P<major>\d{1,4}))"
    r"(?![\d])",
    re.IGNORECASE,
)
_DISTRO_ID = {
    "red": "rhel",
    "rocky": "rockylinux",
    "alma": "almalinux",
    "oracle": "oraclelinux",
    "amazon": "amazonlinux",
}
_DISTRO_SHOWN = {
    "ubuntu": "Ubuntu",
    "opensuse": "openSUSE",
    "debian": "Debian",
    "centos": "CentOS",
    "rhel": "RHEL",
    "rockylinux": "Rocky Linux",
    "almalinux": "AlmaLinux",
    "oraclelinux": "Oracle Linux",
    "amazonlinux": "Amazon Linux",
    "fedora": "Fedora",
}


def distro_named(text: Text, kb: KB) -> tuple[str, str] | None:
    """The first distribution release the text names whose glibc the KB knows: (its name as shown, its glibc)."""
    for m in _DISTRO.finditer(text.raw):
        if m.group("ubuntu") or m.group("opensuse"):
            name = "ubuntu" if m.group("ubuntu") else "opensuse"
            release = m.group(f"{name}_rel")
        else:
            word = m.group("other").lower().split()[0]
            name = _DISTRO_ID.get(word, word)
            release = ("stream" if m.group("stream") else "") + m.group("major")
        glibc = kb.distro_glibc.get(f"{name} {release}")
        if glibc is not None:
            shown = _DISTRO_SHOWN[name] + (" Stream " + release[6:] if release.startswith("stream") else f" {release}")
            return shown, glibc
    return None


def _glibc_pair(version: str) -> tuple[int, int]:
    major, minor = version.split(".")[:2]
    return int(major), int(minor)


def _tag_above_distro(text: Text, kb: KB) -> list[Candidate]:
    """A GLIBC_2.NN symbol version the text names in any words ("Can not upgrade GLIBC_2.27 on CentOS 7"), with a
    distribution release whose glibc (KB) is older: the binary that needs it cannot load there."""
    distro = distro_named(text, kb)
    if distro is None:
        return []
    for m in _TAG.finditer(text.raw):
        if m.group("lib").upper() != "GLIBC":
            continue
        need = _glibc_pair(m.group("ver"))
        if need > _glibc_pair(distro[1]):
            ver = f"{need[0]}.{need[1]}"
            cause = f"the binary needs glibc {ver} or newer ({m.group(0)}); {distro[0]} ships glibc {distro[1]}"
            return [found("glibc-too-old", text, m.start(), 0.8, cause=cause, fix=glibc_fix(ver, kb))]
    return []


def _tag_missing(text: Text) -> re.Match[str] | None:
    for m in _TAG.finditer(text.raw):
        window = text.raw[max(0, m.start() - 80) : m.end() + 80]
        if _MISSING_WORDS.search(window) or (m.group("lib") == "GLIBC" and _UNDEFINED_REFERENCE.search(window)):
            return m
    return None


def glibc_fix(ver: str, kb: KB | None = None) -> str:
    ships = _first_releases_with(kb, ver) if kb is not None and ver else ""
    return (
        f"use a system or container with glibc >= {ver or 'the one the binary was built on'}{ships}, or a build "
        "made for an older glibc (torch's own floor per release: envplan matrix; flash-attn 2.8 wheels need 2.32)"
    )


# the families whose oldest release with a glibc new enough the fix names, in this order
_FIX_FAMILIES = ("ubuntu", "debian", "rockylinux")


def _first_releases_with(kb: KB, ver: str) -> str:
    """ " (Ubuntu 20.04, Debian 11, Rocky Linux 9 ship it)": the oldest release of each family whose glibc (KB) is
    ver or newer; "" when the KB knows none."""
    need = _glibc_pair(ver)
    first: dict[str, str] = {}
    for key, glibc in sorted(kb.distro_glibc.items(), key=lambda item: _glibc_pair(item[1])):
        name, release = key.split(" ", 1)
        if name not in _FIX_FAMILIES or name in first or _glibc_pair(glibc) < need:
            continue
        if name == "ubuntu" and not _ubuntu_lts(release):
            continue
        first[name] = f"{_DISTRO_SHOWN[name]} {release}"
    named = [first[name] for name in _FIX_FAMILIES if name in first]
    return f" ({', '.join(named)} ship it)" if named else ""


def _ubuntu_lts(release: str) -> bool:
    """Ubuntu's long-term releases are the April releases of even years (14.04, ..., 24.04: its release cycle page)."""
    year, month = release.split(".")
    return month == "04" and int(year) % 2 == 0


def glibc_too_old(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_GLIBC)
    score = 0.93
    if m is None:
        m, score = _tag_missing(text), 0.8
    if m is None:
        # in words, it is the claim reader's (prose.py)
        return (
            _refused_for_glibc(text, kb)
            or _uv_glibc(text, kb)
            or _tag_above_distro(text, kb)
            or _torch_floor_above_system(text, kb)
        )
    lib = (m.groupdict().get("lib") or "GLIBC").upper()
    ver = m.groupdict().get("ver") or m.groupdict().get("bare") or ""
    if lib == "GLIBC":
        need = f"glibc {ver} or newer" if ver else "a newer glibc than the system's"
        distro = distro_named(text, kb)
        older = distro is not None and bool(ver) and _glibc_pair(distro[1]) < _glibc_pair(ver)
        cause = f"the binary needs {need}; " + (
            f"{distro[0]} ships glibc {distro[1]}" if distro and older else "this system's glibc is older"
        )
        fix = glibc_fix(ver, kb)
    else:
        cause = f"the binary needs a newer libstdc++ ({lib}_{ver}) than the one loaded"
        fix = (
            "load a newer libstdc++ (conda install -c conda-forge libstdcxx-ng, or LD_PRELOAD the newer "
            "libstdc++.so.6), or build with the system compiler"
        )
    return [
        Candidate(ref="glibc-too-old", score=score, at=m.start(), evidence=text.line(m.start()), cause=cause, fix=fix)
    ]
