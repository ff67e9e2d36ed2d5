"""Installing a package other than torch: no build of it for this Python or platform (pip's words, the package's
own refusal, a source build where wheels were expected). torch's own readings, with the KB's ranges, are install.py's;
the patterns of pip's messages both read are here."""

from __future__ import annotations

import re
from collections.abc import Mapping

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envplan.kb import KB

from .facts import WINDOWS_NAMED, python_minors, python_seen
from .fixes import spelled
from .model import Candidate, found
from .text import Text

__all__ = [
    "NOTHING_LISTED",
    "PIP_FINDS_NONE",
    "TORCH_NAMED",
    "WHEEL_POOR_PLATFORM",
    "WINDOWS_PROMPT",
    "ceiling_said",
    "floor_not_offered",
    "floor_said",
    "linux_only_extension_on_windows",
    "newer_python_fails",
    "newest_python_fix",
    "nvidia_stub_without_wheel",
    "own_refusal",
    "package_without_platform_wheel",
    "pin_not_offered",
    "pin_older_than_python",
    "platform_before_wheels",
    "platform_named",
    "pure_python_torchvision",
    "python_bound_inside",
    "python_bound_package",
    "source_of_a_wheel_package",
    "torch_needs_python",
    "wheel_missing_said",
    "wheel_only_package",
    "windows_refused_said",
]

# pip's two lines for a requirement it finds nothing for; the package's name follows
# (a title may lose its first letters: "ould not find a version that satisfies the requirement torch==...")
# (as retyped too, "not" lost where pip's list still follows: "could find a version that satisfy the requirement
# torch==1.7.0 (from versions: none)")
PIP_FINDS_NONE = (
    r"(?:(?:C|(?<![A-Za-z]))o?uld (?:not |(?=[^\n]*\(from versions))find a version that satisf(?:ies|y) the requirement"
    r"|No matching distribution found for)\s*"
)
# what pip may write between a requirement and its list: "(from -r requirements.txt (line 1))", "(from chromadb)"
BEFORE_LIST = r"(?:[^\n(]*\((?!from\s+versions)[^()\n]*(?:\([^()\n]*\))?[^()\n]*\))*[^\n(]*"
# pip failing to reach the index at all (DNS, connection, TLS, proxy), or ignoring it (an http index not given as a
# trusted host: "The repository located at pypi.v2ex.com is not a trusted or secure host and is being ignored"): what
# it then lists is what it could fetch
INDEX_UNREACHABLE = re.compile(
    r"NewConnectionError|Name\s+or\s+service\s+not\s+known|Temporary\s+failure\s+in\s+name\s+resolution|"
    r"Max\s+retries\s+exceeded\s+with\s+url|ConnectTimeoutError|ProxyError|Could\s+not\s+fetch\s+URL|"
    r"not\s+a\s+trusted\s+or\s+secure\s+host\s+and\s+is\s+being\s+ignored",
    re.IGNORECASE,
)
# ... or reaching it and losing the download ("ReadTimeoutError: ... Read timed out."): the network failed
_DOWNLOAD_LOST = re.compile(r"Read\s+timed\s+out|ReadTimeoutError|IncompleteRead|Connection\s+(?:reset|broken)", re.I)
TORCH_NAMED = re.compile(r"(?<![\w-])torch(?:vision|audio)?(?![A-Za-z_])", re.IGNORECASE)
NOTHING_LISTED = re.compile(r"\(from versions:?\s*(?:none)?\s*\)", re.IGNORECASE)


# pip finding nothing at all for a package (no version listed, or "none"), on a platform the text names that many
# compiled packages publish no wheels for
# (another package may ask it: "piper-phonemize~=1.1.0 (from piper-tts) (from versions: none)")
_NOTHING_FOR = re.compile(
    rf"{PIP_FINDS_NONE}(?P<name>[A-Za-z][\w.-]*)(?P<spec>[^\s(]*)[^\n(]*?(?:\(from\s+(?!versions)[^)\n]*\)\s*)?"
    # (pip before 20 printed an empty list: "(from versions: )")
    r"(?:\(from versions:\s*(?:none)?\s*\)|$)",
    re.IGNORECASE | re.MULTILINE,
)
# ... retold in prose, after the command ("using the <pip install torch-directml> getting a no matching distribution
# found error", ComfyUI#1702 on Windows 10)
_NOTHING_SAID = re.compile(
    r"pip3?\s+install\s+(?P<name>[A-Za-z][\w.-]*)[^\n]{0,40}?no\s+matching\s+distribution(?:\s+found)?(?!\s+for)",
    re.IGNORECASE,
)
# conda's own packages for torch's builds (pytorch-cuda, cudatoolkit, pytorch-mutex, cpuonly), which PyPI has never had:
# pip finding none of them is a conda requirement handed to pip (a requirements.txt copied from a conda command), not a
# platform without wheels
_CONDA_ONLY = re.compile(r"pytorch-cuda|cudatoolkit|pytorch-mutex|cpuonly", re.IGNORECASE)
# (ARM boards by their SoC too: "rk3588板子", "Orange Pi 5")
WHEEL_POOR_PLATFORM = re.compile(
    r"(?<![A-Za-z])(?:Jetson|aarch64|arm64|armv7l?|ppc64le|s390x|Raspberry|win32|win\s?1[01]|32-?bit|windows|macOS|"
    r"mac\s*OS|"
    r"(?-i:[Mm]ac(?:[Bb]ook)?)|"
    r"apple\s*(?:silicon|M[1-5])|RK35[68]8|Rockchip|Orange\s*Pi|riscv64|loongarch64)(?![A-Za-z])|树莓派",
    re.IGNORECASE,
)


# a Windows prompt or path ("PS C:\\Github\\LatentSync>", "E:\\StableTuner>") names the platform too
WINDOWS_PROMPT = re.compile(r"(?<![A-Za-z])[A-Z]:\\[\w .-]*(?:\\[\w .-]*)*>|(?<![A-Za-z])PS [A-Z]:\\")


def platform_named(text: Text) -> str | None:
    """The platform many compiled packages publish no wheels for that the text names (a Windows prompt as Windows)."""
    platform = text.search(WHEEL_POOR_PLATFORM)
    if platform is not None:
        return platform.group(0)
    return "Windows" if text.has(WINDOWS_PROMPT) else None


def package_without_platform_wheel(text: Text) -> list[Candidate]:
    """Any package pip finds nothing of, the text naming a platform: no wheel of it for that platform (torch's own
    case is read above, with the KB's ranges)."""
    m = text.search(_NOTHING_FOR)
    where = platform_named(text)
    if m is None and where is not None:
        m = text.search(_NOTHING_SAID)
    if m is None or TORCH_NAMED.fullmatch(m.group("name")) or _CONDA_ONLY.fullmatch(m.group("name")):
        return []
    if where is None:
        return _package_without_python_wheel(text, m)
    name = m.group("name")
    # (triton on Windows: the corpus settles it 2 to 1 as no Windows wheel, once as torch.compile missing there)
    cause = f"pip finds no {name} build at all for this platform ({where}): none is published for it"
    fix = (
        f"check which platforms and Pythons {name} publishes wheels for (its PyPI files); build it from source, use a "
        "fork that publishes wheels for this platform, or run on a platform it supports"
    )
    return [_no_build(text, m.start(), 0.65, cause, fix)]


def wheel_only_package(text: Text, kb: KB) -> list[Candidate]:
    """pip finding nothing at all of a compiled package the KB knows publishes wheels only, most for a few platforms
    (triton: Linux; faiss-gpu: Linux x86_64): no wheel for this platform or Python, not a package that is not there.
    pip's line cut before its list counts when it pins a release the package has on PyPI (the KB lists them: a pin of
    one that never was, "decord==0.5.9", says nothing of the platform)."""
    listed = text.has(NOTHING_LISTED)
    cut = not listed and not text.has(_VERSIONS_LIST)
    if not listed and not cut:
        return _wheel_only_said(text, kb)
    for m in _NOTHING_FOR.finditer(text.raw):
        name = canonicalize_name(m.group("name"))
        if name not in kb.wheel_only:
            continue
        platforms, python, instead = kb.wheel_only[name]
        if cut and not _a_release(m.group("spec"), kb.wheel_only_releases.get(name, ())):
            continue
        latest = f"; its latest release needs Python {python}" if python else ""
        cause = (
            f"{name} publishes wheels only, for {', '.join(platforms)}{latest}, and no source: pip finds none for this "
            "platform or Python"
        )
        return [_no_build(text, m.start(), 0.75, cause, _wheel_only_fix(platforms, instead))]
    return _wheel_only_said(text, kb)


def _a_release(spec: str, releases: tuple[str, ...]) -> bool:
    pin = re.fullmatch(r"==\s*([\w.!+-]+)", spec.strip())
    return pin is not None and pin.group(1) in releases


_VERSIONS_LIST = re.compile(r"from\s+versions", re.IGNORECASE)
# installing a package said to fail ("decord is not installing properly", "无法安装decord")
_WONT_INSTALL = (
    # (not "triton is not installed": absent is not uninstallable)
    r"(?:can(?:no|[\u2019'`])?t|cannot|(?:un|not\s+)able\s+to|fail(?:s|ed)?\s+to|(?:is|are)\s+not)\s+"
    r"(?:be\s+(?:install|buil)(?:ed|t)|(?:pip\s+)?(?:install|build)(?!ed))|无法安装|不能安装|装不上|安装失败|"
    # (pip run as a subprocess by an app: "... 'pip', 'install', 'onnxruntime-gpu']' returned non-zero exit status 1")
    r"returned\s+non-zero\s+exit\s+status"
)
# the wheel a platform named needs (Macs sold since 2020 are Apple silicon)
_PLATFORM_WHEEL = (
    (re.compile(r"(?<![A-Za-z])(?:windows|win\s?1[01]|win_amd64)(?![A-Za-z])", re.IGNORECASE), "windows-x86_64"),
    (
        re.compile(
            r"(?<![A-Za-z])(?:mac\s*OS|(?-i:[Mm]ac(?:[Bb]ook)?)|apple\s*silicon|M[1-5]\s+(?:Mac|chip|Pro|Max))"
            r"(?![A-Za-z])|"
            # (a macOS application bundle's path: "/Applications/Slicer.app/Contents/bin")
            r"(?<![\w.])/Applications/[^\s/]+\.app/",
            re.IGNORECASE,
        ),
        "macos-arm64",
    ),
    (
        re.compile(r"(?<![A-Za-z])(?:Jetson|aarch64|arm64|Raspberry|RK35[68]8|Orange\s*Pi)(?![A-Za-z])", re.IGNORECASE),
        "linux-aarch64",
    ),
)


def _wheel_only_said(text: Text, kb: KB) -> list[Candidate]:
    """A package the KB knows publishes wheels only, said not to install on a platform it has no wheel for."""
    need = next((wheel for pattern, wheel in _PLATFORM_WHEEL if text.has(pattern)), None)
    if need is None:
        return []
    for name, (platforms, _, instead) in kb.wheel_only.items():
        if need in platforms:
            continue
        named = rf"(?<![\w-]){spelled(name)}(?![\w-])"
        said = re.search(
            rf"{named}[^\n]{{0,40}}?(?:{_WONT_INSTALL})|(?:{_WONT_INSTALL})\s+{named}", text.raw, re.IGNORECASE
        )
        if said is None:
            continue
        cause = f"{name} publishes wheels only, for {', '.join(platforms)}, and no source: none for {need}"
        return [_no_build(text, said.start(), 0.65, cause, _wheel_only_fix(platforms, instead))]
    return []


def _wheel_only_fix(platforms: tuple[str, ...], instead: str) -> str:
    fix = f"install it on {' or '.join(platforms)} with a Python its releases support (its PyPI files list them)"
    return fix + (f"; or use {instead}" if instead else "")


# NVIDIA's placeholder packages on PyPI (nvidia-dali-*, cudf-cu12, ...: "nvidia_stub.error.InstallFailedError", "This
# is a special placeholder package which downloads a real wheel package from https://pypi.nvidia.com"), failing on a
# platform the text names: NVIDIA's index has no wheel of it there (without a platform named, the stub's own words
# allow an unreachable index too)
_NVIDIA_STUB = re.compile(
    r"nvidia_stub\.error\.InstallFailedError|INFO:nvidia-stub:Testing\s+wheel|"
    r"special\s+placeholder\s+package\s+which\s+downloads\s+a\s+real\s+wheel",
    re.IGNORECASE,
)


def nvidia_stub_without_wheel(text: Text) -> list[Candidate]:
    stub = text.search(_NVIDIA_STUB)
    where = platform_named(text)
    if stub is None or where is None:
        return []
    cause = (
        f"the package is NVIDIA's placeholder, which downloads the real wheel from pypi.nvidia.com, and that index has "
        f"none for this platform ({where}) or Python"
    )
    fix = (
        "check the platforms and Pythons the package's wheels on https://pypi.nvidia.com cover (most are Linux "
        "only); on Windows use WSL2 or a Linux container, or leave out the extra that asks for it"
    )
    return [_no_build(text, stub.start(), 0.7, cause, fix)]


def python_bound_package(text: Text, kb: KB) -> list[Candidate]:
    """pip finding nothing at all of a package every release of which declares a Python range the KB knows (TTS: below
    3.12; chai-lab: 3.10 and up), the text stating no Python inside it: no release for this interpreter."""
    bound = _python_bound_named(text, kb)
    if bound is None or bound[3]:
        return []
    m, (floor, ceiling, instead), py, _ = bound
    accepts = f"Python {floor} to {_minor_before(ceiling)}" if ceiling else f"Python {floor} or newer"
    said = f" (this one is {py})" if py else ""
    cause = f"every {m.group('name')} release on PyPI accepts only {accepts}: pip finds none for this interpreter{said}"
    fix = f"install it in an environment with {accepts}" + (f"; or use {instead}" if instead else "")
    return [_no_build(text, m.start(), 0.7, cause, fix)]


def python_bound_inside(text: Text, kb: KB) -> bool:
    """pip finding nothing of a package whose Python range the KB knows, the text stating a Python inside it: not the
    interpreter (a mirror without it, a typo, an index that is not PyPI), whatever else pip's line suggests."""
    bound = _python_bound_named(text, kb)
    return bound is not None and bound[3]


def _python_bound_named(text: Text, kb: KB) -> tuple[re.Match[str], tuple[str, str, str], str, bool] | None:
    """The first package pip finds nothing of that the KB's python_bound lists, its range, the text's Python ("" when
    it states none), and whether that Python lies inside the range."""
    if not text.has(NOTHING_LISTED):
        return None
    for m in _NOTHING_FOR.finditer(text.raw):
        bound = kb.python_bound.get(canonicalize_name(m.group("name")))
        if bound is not None:
            py = python_seen(text.raw)
            return m, bound, py, bool(py) and _inside(py, bound[0], bound[1])
    return None


def _minor_before(ceiling: str) -> str:
    major, minor = ceiling.split(".")
    return f"{major}.{int(minor) - 1}"


def _inside(py: str, floor: str, ceiling: str) -> bool:
    try:
        said = Version(py)
    except InvalidVersion:
        return False
    minor = Version(f"{said.major}.{said.minor}")
    return Version(floor) <= minor and (not ceiling or minor < Version(ceiling))


def _required_by_another(text: Text, name: str) -> bool:
    """pip's note that the requirement comes from another package ("satisfies the requirement cuequivariance-ops-torch;
    extra == "torch" (from mace-jax[gpu,test,torch])")."""
    note = rf"requirement\s+{re.escape(name)}(?![\w.-])[^\n(]*\(from\s+(?!versions)[A-Za-z]"
    return re.search(note, text.raw, re.IGNORECASE) is not None


def _package_without_python_wheel(text: Text, m: re.Match[str]) -> list[Candidate]:
    """pip finding nothing at all of a package ("(from versions: none)"), the text stating the interpreter: no wheel
    of it for that Python (with neither a platform nor a Python stated, a package not on PyPI at all says the same)."""
    py = python_seen(text.raw)
    name = m.group("name")
    if not py or not text.has(NOTHING_LISTED) or _required_by_another(text, name):
        return []  # a dependency of another package: its name is that package's metadata, which may be wrong
    cause = f"pip finds no {name} build at all for Python {py} (or this platform): none is published for it"
    fix = (
        f"check which Pythons and platforms {name} publishes wheels for (its PyPI files); use a Python it supports "
        "(a new environment with that Python), or build it from source"
    )
    return [_no_build(text, m.start(), 0.65, cause, fix)]


# pip offering other releases of a package than the exact one pinned ("kaolin==0.18.0 (from versions: 0.1)"), with the
# interpreter stated: the pinned release publishes no file for this Python (pip lists only what it could install);
# without it, only a pin older than each of several offers says as much (_older_than_every_offer)
# what follows pip's requirement up to the releases it offers: an environment marker ('; extra == "tensorrt"'), the
# package or file that asks it ("(from stable-audio-tools)", "(from -r requirements.txt (line 3))")
THEN_OFFERED = rf"{BEFORE_LIST}\(from\s+versions:\s*(?P<listed>[^)\n]+)\)"
_PIN_NOT_OFFERED = re.compile(
    # (the pin may follow other clauses of the specifier: "onnxruntime<=1.8.0,==1.8.0")
    rf"{PIP_FINDS_NONE}(?P<name>[A-Za-z][\w.-]*)(?:[<>!~]=?\d[\w.*]*,\s*)*==(?P<pin>\d[\w.]*){THEN_OFFERED}",
    re.IGNORECASE,
)


def _offered_as_post(pin: str, listed: list[str]) -> bool:
    """The release pinned offered as a post release only ("causal-conv1d==1.2.0" against "1.2.0.post1, 1.2.0.post2"):
    pip can install that release here, the pin misses its suffix; this Python is not what fails."""
    try:
        wanted = Version(pin)
    except InvalidVersion:
        return False
    for v in listed:
        try:
            offered = Version(v)
        except InvalidVersion:
            continue
        if offered.is_postrelease and offered.release == wanted.release and not wanted.is_postrelease:
            return True
    return False


# torch's own dependencies that PyTorch's index serves and PyPI does not (pytorch-triton-rocm stops at 2.1.0 there), as
# a +rocm/+cu/+xpu torch asks for them: the index is missing from the command, not a build for the interpreter
_INDEX_ONLY_DEPENDENCY = re.compile(
    r"pytorch-triton(?:-rocm|-xpu)?==[^\s(]*\s*\(from\s+torch==[\d.]+\+(?:rocm|cu|xpu)", re.IGNORECASE
)


def pin_not_offered(text: Text) -> list[Candidate]:
    m = text.search(_PIN_NOT_OFFERED)
    if m is None or TORCH_NAMED.fullmatch(m.group("name")) or text.has(_INDEX_ONLY_DEPENDENCY):
        return []
    listed = [v.strip() for v in m.group("listed").split(",")]
    if m.group("pin") in listed or listed == ["none"] or _offered_as_post(m.group("pin"), listed):
        return []
    name, pin, py = m.group("name"), m.group("pin"), python_seen(text.raw)
    if not py:
        return _older_than_every_offer(text, m, listed) or _newer_than_every_offer(text, m, listed)
    cause = f"{name} {pin} publishes no file for Python {py}: pip offers only other releases of it here"
    fix = (
        f"use a Python that {name} {pin} has wheels for (its PyPI files list them), or a {name} release built for "
        f"Python {py}"
    )
    return [_no_build(text, m.start(), 0.6, cause, fix)]


# pip offering only releases older than a package's floor ("taichi>=1.2.0 (from versions: 0.7.13, ..., 1.0.4)"), the
# interpreter stated: the releases at or above the floor publish nothing for this Python (pip lists every release it
# could install here)
_FLOOR_NOT_OFFERED = re.compile(
    rf"{PIP_FINDS_NONE}(?P<name>[A-Za-z][\w.-]*)>=(?P<floor>\d[\w.]*)(?:,[^\s(]*)?{THEN_OFFERED}", re.IGNORECASE
)


def floor_not_offered(text: Text) -> list[Candidate]:
    m = text.search(_FLOOR_NOT_OFFERED)
    py = python_seen(text.raw)
    if m is None or not py or TORCH_NAMED.fullmatch(m.group("name")):
        return []
    try:
        floor, offered = Version(m.group("floor")), [Version(v.strip()) for v in m.group("listed").split(",")]
    except InvalidVersion:
        return []  # "(from versions: none)": nothing at all, read above
    if max(offered) >= floor:
        return []
    name = m.group("name")
    cause = (
        f"no {name} release from {floor} on publishes a file for Python {py}: pip offers only older ones (up to "
        f"{max(offered)})"
    )
    fix = (
        f"use a Python that {name} {floor} and later have wheels for (their PyPI files list them; a new environment "
        f"with it), or a {name} release older than {floor} if what asks for it allows"
    )
    return [_no_build(text, m.start(), 0.6, cause, fix)]


def _older_than_every_offer(text: Text, m: re.Match[str], listed: list[str]) -> list[Candidate]:
    """A pin older than each of two or more releases pip offers ("onnxruntime-gpu==1.16.3 (from versions: 1.17.0,
    1.17.1, ...)", "onnxruntime==1.10.0 (from versions: 1.12.0, 1.12.1)"): the old release has files, but none this
    interpreter or platform installs (pip hides those), while the newer releases have; a single offer, or a pin inside
    the range, says too little (a yanked or typo'd pin; monotonic-align 0.0.3 against 1.0.0 was settled otherwise)."""
    try:
        pin, offered = Version(m.group("pin")), [Version(v) for v in listed]
    except InvalidVersion:
        return []
    if len(offered) < 2 or pin >= min(offered):
        return []
    name = m.group("name")
    cause = (
        f"{name} {pin} publishes no file this Python or platform installs: pip offers only newer releases "
        f"({listed[0]} on)"
    )
    fix = (
        f"use the Python and platform {name} {pin} has wheels for (its PyPI files list them; envplan doctor shows "
        f"this interpreter), or pin a release of {name} that pip offers here"
    )
    return [_no_build(text, m.start(), 0.5, cause, fix)]


def _newer_than_every_offer(text: Text, m: re.Match[str], listed: list[str]) -> list[Candidate]:
    """A pin newer than every release pip offers, asked by another package ("nnunetv2==2.2 (from TotalSegmentator)
    (from versions: 2.0)") or against three or more offers ("spconv-cu114==2.2.3 (from versions: 2.1.5, ...)"): pip
    lists every release this interpreter and platform can install, so the newer ones publish nothing for them (a
    newer Python floor, dropped wheels). A direct pin against one or two offers, or of a major release none offered
    has ("somepkg==2.5" against 1.x), may be a release that does not exist; another package's pin names one that
    does."""
    try:
        pin, offered = Version(m.group("pin")), [Version(v) for v in listed]
    except InvalidVersion:
        return []
    if not offered or pin <= max(offered):
        return []
    direct = not _required_by_another(text, m.group("name"))
    if direct and (len(offered) < 3 or pin.major != max(offered).major):
        return []
    name = m.group("name")
    cause = (
        f"{name} {pin} publishes no file this Python or platform installs: pip offers only older releases "
        f"(up to {max(offered)})"
    )
    fix = (
        f"use a Python and platform {name} {pin} has wheels for (its PyPI files list them, with its Requires-Python; "
        f"envplan doctor shows this interpreter)"
    )
    return [_no_build(text, m.start(), 0.5, cause, fix)]


# packages that publish wheels for Windows, macOS and Linux in (nearly) every release: their PyPI files, read from
# PyPI's JSON on 2026-12-06, show such wheels for all but one or two of each one's releases since 2019 (numpy 96/96,
# scipy 76/76, pandas 70/70, grpcio 207/207, lxml 52/52, h5py 22/22, scikit-learn 51/51, pillow 46/47, matplotlib 72/73,
# tokenizers 98/101, safetensors 51/52, pyarrow 50/51; sentencepiece 18/18, read for round AR). pip building one from
# its source archive means none of the release's wheels fits this interpreter or platform ("Downloading
# numpy-1.24.4.tar.gz" on Python 3.12: numpy 1.24 predates it), and the build is what then fails
_WHEEL_PACKAGE_SOURCE = re.compile(
    r"(?<![\w.-])(?P<pkg>numpy|scipy|pandas|grpcio|lxml|h5py|scikit[-_]learn|pillow|matplotlib|tokenizers|"
    r"safetensors|pyarrow|sentencepiece)-(?P<ver>\d+(?:\.\d+)+(?:rc\d+)?)\.(?:tar\.gz|zip)\b",
    re.IGNORECASE,
)
_SOURCE_BUILD_FAILED = re.compile(
    r"(?:Preparing metadata|Getting requirements to build wheel|Installing build dependencies|Building wheel)"
    r"[^\n]*?(?:\.\.\.\s*error|finished with status 'error')|subprocess-exited-with-error|did not run successfully|"
    r"Failed (?:to build|building wheel)|RuntimeError:",
    re.IGNORECASE,
)


def source_of_a_wheel_package(text: Text) -> list[Candidate]:
    m = text.search(_WHEEL_PACKAGE_SOURCE)
    if m is None or _SOURCE_BUILD_FAILED.search(text.raw, m.end()) is None:
        return []
    pkg, ver = m.group("pkg"), m.group("ver")
    py = python_seen(text.raw)
    on = f" (Python {py})" if py else ""
    cause = (
        f"{pkg} {ver} has no wheel for this interpreter or platform{on}, so pip builds its source, which fails: "
        f"{pkg} publishes wheels for the Pythons and platforms of its time, and this one is newer (or not among them)"
    )
    fix = (
        f"use a Python that {pkg} {ver} has wheels for (its PyPI files list them), or a newer {pkg} release (relax "
        "the pin that asks for it)"
    )
    return [_no_build(text, m.start(), 0.6, cause, fix)]


# (cause, fix) of a package's own Python floor, however its setup words it
_FLOOR_SAID = (
    "the package being installed needs Python >= {need}, and this interpreter is older",
    "use Python >= {need} (a new environment with it), or pin a release of the package that supports this Python",
)
# a package's own refusal of the interpreter or the platform, as its setup script or import raises it: a pattern, the
# finding's score, and its cause and fix with the pattern's groups filled in
_OWN_REFUSALS: tuple[tuple[re.Pattern[str], float, str, str], ...] = (
    # its supported range ("RuntimeError: Cannot install on Python version 3.12.0; only versions >=3.8,<3.12 are
    # supported."): no release of it for that Python
    (
        re.compile(
            r"Cannot\s+install\s+on\s+Python\s+version\s+(?P<py>3\.\d+)(?:\.\d+)?;?\s+only\s+versions?\s+"
            r"(?P<range>[^\n]*?)\s+(?:are|is)\s+supported",
            re.IGNORECASE,
        ),
        0.85,
        "the package refuses Python {py}: it supports Python {range} only",
        "use a Python in {range} (a new environment with it), or a release of the package that supports Python {py}",
    ),
    # only its floor ("RuntimeError: Python version >= 3.9 required.", scipy's sdist on Python 3.8)
    (
        re.compile(
            r"(?:Runtime|Environment|System)?Error:\s*Python\s+(?:version\s+)?>=?\s*(?P<need>3\.\d+)(?:\.\d+)?\s+"
            r"(?:or\s+(?:later|newer)\s+)?(?:is\s+)?required",
            re.IGNORECASE,
        ),
        0.75,
        *_FLOOR_SAID,
    ),
    # ... in other words (TVM 0.7's setup: "Exception: The minimal Python requirement is Python 3.6")
    (
        re.compile(
            r"(?:Exception|Error):\s*(?:The\s+)?minim(?:al|um)\s+Python\s+(?:version\s+)?(?:requirement\s+)?(?:is\s+)?"
            r"(?:Python\s*)?v?(?P<need>3\.\d+)",
            re.IGNORECASE,
        ),
        0.75,
        *_FLOOR_SAID,
    ),
    # the platform ("RuntimeError: uvloop does not support Windows at the moment", petals on Windows)
    (
        re.compile(
            r"(?:Error|raise\s+\w+\()\W{0,3}(?P<pkg>[A-Za-z][\w.-]*)\s+(?:does\s+not|doesn'?t|is\s+not\s+supported\s+"
            r"on|cannot\s+run\s+on)\s*(?:support\s+)?(?P<plat>Windows|mac\s*OS|OS\s*X|Apple\s+silicon|aarch64|ARM64)",
            re.IGNORECASE,
        ),
        0.7,
        "{pkg} refuses to install or run on {plat}: it has no build for this platform",
        "run on a platform {pkg} supports (on Windows, WSL2 or a Linux container), or leave out what needs {pkg} (an "
        "optional extra)",
    ),
)


def own_refusal(text: Text) -> list[Candidate]:
    """The first of the package's own refusals the text shows."""
    for pattern, score, cause, fix in _OWN_REFUSALS:
        m = text.search(pattern)
        if m is not None:
            said = m.groupdict()
            return [_no_build(text, m.start(), score, cause.format(**said), fix.format(**said))]
    return []


# a package's Python floor said in words, the interpreter stated below it ("my python version is 3.10.15 ... prompting
# the python version bottom, must be 3.11 and above")
_FLOOR_IN_WORDS = re.compile(
    r"python[^\n]{0,40}?(?:must\s+be|requires?|needs?|at\s+least)\s+(?:python\s*)?(?:version\s*)?(?:>=?\s*)?v?"
    r"(?P<need>3\.\d{1,2})\s*(?:\+|and\s+(?:above|higher|later|newer|up)|or\s+(?:above|higher|later|newer))|"
    # ("SAM-2 requires a Python version higher than 3.10")
    r"(?:requires?|needs?)\s+(?:an?\s+)?python(?:\s+version)?\s+(?:higher|greater|newer|later)\s+than\s+"
    r"(?:python\s*)?(?P<above>3\.\d{1,2})(?![\d.]\d)",
    re.IGNORECASE,
)


def floor_said(text: Text) -> list[Candidate]:
    m = text.search(_FLOOR_IN_WORDS)
    need = (m.group("need") or m.group("above")) if m else ""
    py = python_seen(text.raw)
    if m is None or not py or _minor(py) >= _minor(need):
        return []
    cause, fix = _FLOOR_SAID
    cause = cause.format(need=need) + f" (Python {py})"
    return [_no_build(text, m.start(), 0.7, cause, fix.format(need=need))]


def _stated_outside(text: Text, m: re.Match[str]) -> list[int]:
    """The Python 3 minors the text states outside a match (the interpreter, not the Python the match speaks of)."""
    return [minor for minor, at in python_minors(text.raw) if not m.start() <= at < m.end()]


# a package's wheels said to stop at a Python ("这个diffq 好像只有cp310以下版本的轮子", "wheels only up to cp310"), the
# interpreter stated above it (a cp tag or a Python version): no build of it for this Python
_CEILING_IN_WORDS = re.compile(
    r"只有\s*(?:py(?:thon)?\s*|cp)3\.?(?P<zh>\d{1,2})\s*(?:及)?以下[^\n]{0,8}?(?:轮子|wheel)|"
    r"wheels?\s+(?:are\s+|exist\s+)?only\s+(?:up\s+to|until|for\s+up\s+to)\s+(?:py(?:thon)?\s*|cp)3\.?(?P<en>\d{1,2})|"
    # ("the gym only supports up to 3.8, while you're using Python 3.9")
    r"only\s+supports?\s+(?:python\s*)?(?:up\s+to|until)\s+(?:python\s*)?3\.(?P<sup>\d{1,2})(?!\d|\.\d)",
    re.IGNORECASE,
)


def ceiling_said(text: Text) -> list[Candidate]:
    m = text.search(_CEILING_IN_WORDS)
    if m is None:
        return []
    top = int(m.group("zh") or m.group("en") or m.group("sup"))
    mine = max(_stated_outside(text, m), default=0)
    if mine <= top:
        return []
    cause = f"the package's wheels stop at Python 3.{top} (said in words) and this interpreter is Python 3.{mine}"
    fix = (
        f"use Python 3.{top} (a new environment with it), or a release of the package with wheels for Python 3.{mine} "
        "(its PyPI files list the cp tags)"
    )
    return [_no_build(text, m.start(), 0.7, cause, fix)]


# an interpreter said too new for the torch asked for ("3.10 should be used since 3.11 is too new for requested pytorch
# version", simple-llm-finetuner#9): no build of that release for it
_TOO_NEW_FOR_TORCH = re.compile(
    r"(?<![\w.])(?:python\s*)?3\.(?P<minor>\d{1,2})(?![\d.]\d)\s+(?:is|was)\s+too\s+new\s+for\s+"
    r"(?:the\s+|this\s+|that\s+)?(?:requested\s+|pinned\s+|required\s+)?(?:py)?torch",
    re.IGNORECASE,
)


def too_new_said(text: Text) -> list[Candidate]:
    m = text.search(_TOO_NEW_FOR_TORCH)
    if m is None:
        return []
    cause = f"Python 3.{m.group('minor')} is newer than the torch release asked for supports (said in words)"
    fix = "use a Python that release has wheels for (a new environment with it), or a newer torch that supports it"
    return [_no_build(text, m.start(), 0.7, cause, fix)]


# a torch release said to require one Python ("I think the version of torch your using (1.0.0) requires Python 3.6",
# "Support for Python 3.8?", MODNet#32), the text stating a newer one: that release has no build for it (a floor, "3.6+"
# or "or later", is floor_said's)
_TORCH_NEEDS_PYTHON = re.compile(
    r"(?<![\w-])(?:py)?torch[^\n.]{0,40}?\(?\d+\.\d+(?:\.\d+)?\)?[^\n.]{0,12}?(?:requires?|needs?|only\s+supports?)\s+"
    r"python\s*3\.(?P<need>\d{1,2})(?![\d.]\d|\s*\+|\s*(?:and|or)\s+(?:above|higher|later|newer|up))",
    re.IGNORECASE,
)


def torch_needs_python(text: Text) -> list[Candidate]:
    m = text.search(_TORCH_NEEDS_PYTHON)
    if m is None:
        return []
    need = int(m.group("need"))
    mine = max(_stated_outside(text, m), default=0)
    if mine <= need:
        return []
    cause = (
        f"the torch release asked for requires Python 3.{need} (said in words) and this interpreter is Python 3.{mine}"
    )
    fix = (
        f"pin a torch release with wheels for Python 3.{mine} (its PyPI files list the cp tags), or use Python "
        f"3.{need} (a new environment with it)"
    )
    return [_no_build(text, m.start(), 0.7, cause, fix)]


# an install said to fail on one Python 3 release and to have worked on an older one, in any two sentences ("pip install
# anylabeling failing with build wheel error in 3.12 ... Previously when I had 3.10 it worked properly"): the package
# (or a dependency) has no build for the newer Python, and pip fell back to building one from source
_FAILS_ON = re.compile(
    r"fail\w*[^\n]{0,60}?(?<![\w.])(?:in|with|on|under|using|for)\s+(?:python\s*)?3\.(?P<new>\d{1,2})(?!\d|\.\d)",
    re.IGNORECASE,
)
_WORKED_ON = re.compile(
    r"(?<![\w.])(?:had|with|on|using|under|in)\s+(?:python\s*)?3\.(?P<old>\d{1,2})(?!\d|\.\d)[^\n.]{0,30}?"
    r"(?:work|succe|install)",
    re.IGNORECASE,
)
# ... or the verb first: "fails with python 3.13, works with 3.12"
_WORKS_ON = re.compile(
    r"(?<![A-Za-z])(?:works?|worked|succeed\w*|installs?|installed)\s+(?:fine\s+|ok\s+|well\s+)?"
    r"(?:in|with|on|under|using)\s+(?:python\s*)?3\.(?P<old>\d{1,2})(?!\d|\.\d)",
    re.IGNORECASE,
)
_INSTALLING = re.compile(r"(?<![A-Za-z])(?:pip|install\w*)(?![A-Za-z])|安装", re.IGNORECASE)
_PYTHON_NAMED = re.compile(r"python", re.IGNORECASE)


def newer_python_fails(text: Text) -> list[Candidate]:
    fails = text.search(_FAILS_ON)
    if fails is None or not text.has(_INSTALLING) or not text.has(_PYTHON_NAMED):
        return []
    # (not the failing Python's own words: "fails with python 3.13, works" is no Python that worked)
    said = [*_WORKED_ON.finditer(text.raw), *_WORKS_ON.finditer(text.raw)]
    worked = next((m for m in said if not fails.start() <= m.start("old") < fails.end()), None)
    if worked is None:
        return []
    new, old = int(fails.group("new")), int(worked.group("old"))
    if old >= new:
        return []
    cause = (
        f"the package (or a dependency) has no build for Python 3.{new}; it installed on Python 3.{old} (said in "
        "words): pip fell back to building it from source"
    )
    fix = (
        f"use Python 3.{old} (a new environment with it), or releases of the package and its dependencies with wheels "
        f"for Python 3.{new} (their PyPI files list the cp tags)"
    )
    return [_no_build(text, fails.start(), 0.65, cause, fix)]


def _minor(version: str) -> tuple[int, int]:
    major, minor = version.split(".")[:2]
    return int(major), int(minor)


# torchvision 0.2.2.post3 is the last release on PyPI with a pure-Python wheel (py2.py3-none-any); every release from
# 0.3.0 on ships compiled, CPython-tagged wheels only (read from https://pypi.org/pypi/torchvision/json, 2026-12-06).
# pip landing on one of those on Python 3.8 or newer, which no torch of that time supported, fell back to it: no
# current torchvision build for that interpreter (or platform) on the index used
_PURE_TORCHVISION = re.compile(
    r"(?<![\w-])torchvision\s*(?:={1,2}|:|\s|-)\s*(?P<v>0\.(?:1\.\d+|2\.[0-2](?:\.post\d)?))(?!\d|\.\d)", re.IGNORECASE
)


def pure_python_torchvision(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_PURE_TORCHVISION)
    py = python_seen(text.raw)
    if m is None or not py or _minor(py) < (3, 8):
        return []
    newest = max((r for r in kb.releases if py in r.python_versions), key=lambda r: r.torch, default=None)
    cause = (
        f"pip fell back to torchvision {m.group('v')}, a pure-Python release from before torchvision shipped compiled "
        f"wheels: the index has no current torchvision build for Python {py} (or this platform)"
    )
    fix = (
        "install torch and torchvision together from one index, with a Python their release supports (envplan "
        "matrix lists them)"
    )
    if newest is not None:
        fix += f" (torch {newest.torch} with torchvision {newest.torchvision}: the newest pair with Python {py} wheels)"
    return [_no_build(text, m.start(), 0.7, cause, fix)]


def _no_build(text: Text, at: int, score: float, cause: str, fix: str) -> Candidate:
    return found("python-unsupported", text, at, score, cause=cause, fix=fix)


# installing it said to fail or asked how to, in any language ("无法安装causal_conv1d", "how to download this package")
_CANNOT_INSTALL = re.compile(
    r"(?:can(?:no|')?t|cannot|unable\s+to|fail(?:s|ed)?\s+to|how\s+(?:to|do\s+i|can\s+i))\s+(?:pip\s+)?"
    r"(?:install|download|build)|无法安装|不能安装|装不上|安装失败",
    re.IGNORECASE,
)


# a package said not to support Windows ("Horovod doesn't support Windows", "installing MinkowskiEngine on Windows ...
# a message saying it's not supported on Windows"): no build of it there (not a feature, a GPU stack or torch's own
# compiler refused there: NCCL, torch.compile, CUDA)
_REFUSES_WINDOWS = re.compile(
    r"(?<![\w.-])(?P<who>it|[A-Za-z][\w.-]+)(?:[\u2019']s|\s+is|\s+are)\s+not\s+supported\s+on\s+Windows|"
    r"(?<![\w.-])(?P<who2>[A-Za-z][\w.-]+)\s+(?:does\s*n[o'\u2019]?t|does\s+not)\s+support\s+Windows",
    re.IGNORECASE,
)
_NOT_A_PACKAGE = re.compile(
    r"cuda|gpus?|nccl|gloo|torch\.compile|compile|dynamo|inductor|distributed|fp16|bf16|this|that|which|feature|mode|"
    r"option|flag|backend|"
    # what a program is made of or does, not a package pip installs ("this model is not supported on Windows")
    r"models?|scripts?|code|programs?|projects?|repo(?:sitory)?|app(?:lication)?s?|tools?|methods?|training|"
    r"inference|tokenizers?|demos?|notebooks?|examples?|functions?|commands?|operations?|ops?|layers?",
    re.IGNORECASE,
)


def windows_refused_said(text: Text) -> list[Candidate]:
    m = text.search(_REFUSES_WINDOWS)
    if m is None:
        return []
    who = m.group("who") or m.group("who2")
    if _NOT_A_PACKAGE.fullmatch(who) or (who.lower() == "it" and not text.has(_INSTALLING)):
        return []
    cause = "the package publishes no build for Windows (said in words): pip has nothing to install there"
    fix = "run it on Linux or WSL2 (or a Linux container), or use an alternative the project names for Windows"
    return [_no_build(text, m.start(), 0.6, cause, fix)]


# the asker saying the package needs Linux, which their machine is not ("mamba_ssm必须要用linux系统", "does flash-attn
# only work on Linux?")
_LINUX_ONLY_SAID = re.compile(
    r"(?:必须|只能|仅能|只支持|仅支持|只可以)[要得]?\s*(?:用|在|使用|于|装在|安装在)?\s*linux|"
    r"only\s+(?:works?|runs?|supports?|installs?|be\s+installed|available)\s+(?:on|for|in|under)\s+linux|"
    r"(?<![\w-])linux[- ]only(?![\w-])|must\s+(?:use|be\s+on|run\s+on|be\s+run\s+on)\s+linux",
    re.IGNORECASE,
)
# ... unless the text shows a Linux machine (a distribution, a Linux wheel or path): then it is not the platform
_ON_LINUX = re.compile(
    r"(?<![A-Za-z])(?:ubuntu|debian|centos|fedora|rocky|rhel|arch\s*linux|wsl2?)(?![A-Za-z])|linux_x86_64|"
    r"x86_64-linux-gnu|/home/|/usr/|(?<![A-Za-z])I(?:'m|\s+am)\s+(?:on|using|running)\s+(?:a\s+)?linux",
    re.IGNORECASE,
)


def linux_only_extension_on_windows(text: Text, kb: KB) -> list[Candidate]:
    """Windows named and installing a compiled extension said to fail, or the extension said to need Linux on a
    machine not shown to be Linux, where the KB's extension ships its prebuilt wheels for Linux only (causal-conv1d,
    mamba-ssm, flash-attn: linux_x86_64 in its wheel name template): on Windows there is no wheel, and pip builds it
    from source, which its setup does not support there."""
    on_windows = text.has(WINDOWS_NAMED) and text.has(_CANNOT_INSTALL)
    if not on_windows and (not text.has(_LINUX_ONLY_SAID) or text.has(_ON_LINUX)):
        return []
    for ext in kb.extensions:
        if not ext.wheel or "linux_" not in ext.wheel or "win" in ext.wheel:
            continue
        named = re.search(rf"(?<![A-Za-z0-9_-]){spelled(ext.name)}(?![A-Za-z0-9_-])", text.raw, re.IGNORECASE)
        if named is None:
            continue
        cause = f"{ext.name} publishes prebuilt wheels for Linux only: on Windows pip has to build it from source"
        fix = (
            f"run on Linux or WSL2, where {ext.name}'s wheels install; on Windows only a community build or a source "
            "build with MSVC and a CUDA toolkit is left"
        )
        return [_no_build(text, named.start(), 0.6, cause, fix)]
    return []


# the platforms of platform_since.toml as texts name them (a Windows path or pathlib's WindowsPath names Windows too)
_PLATFORM_SAID = {
    "windows": re.compile(
        rf"{WINDOWS_NAMED.pattern}|(?<![A-Za-z])WindowsPath(?![A-Za-z])|(?<![A-Za-z])[A-Z]:\\\\?\w", re.I
    ),
    # (not a Jetson: the aarch64 wheels are built for server ARM's CUDA, not JetPack's; see gpus.toml's tegra-source)
    "linux-aarch64": re.compile(r"(?<![A-Za-z])(?:aarch64|Graviton|GH200)(?![A-Za-z])", re.I),
    # (Apple silicon only: no release has an Intel Mac wheel)
    "macos-arm64": re.compile(r"(?<![A-Za-z])(?:apple\s*silicon|M[1-5]\s*(?:mac|pro|max|ultra|chip))", re.I),
}
_JETSON = re.compile(r"(?<![A-Za-z])(?:Jetson|JetPack|Tegra|L4T)(?![A-Za-z])", re.I)
_PLATFORM_WORDS = {
    "windows": "Windows",
    "linux-aarch64": "Linux on ARM (aarch64)",
    "macos-arm64": "an Apple-silicon Mac",
}
# the package's own native library loaded there (a community build's DLL), or its CUDA sources reporting an error
# ("at line 167 in file D:\\ai\\tool\\bitsandbytes\\csrc\\ops.cu"): a build for the platform runs, the failure is
# another
_NATIVE_RUNS = r"lib{name}\w*\.(?:dll|dylib)|{name}[\\/]+csrc[\\/]"
# the package failing or said not to support the platform ("bits_and_bytes not support windows", "报错bitsandbytes",
# "No module named 'bitsandbytes.cuda_setup.paths'", "argument of type 'WindowsPath' is not iterable")
_FAILS_THERE = re.compile(
    r"not\s+support|unsupported|报错|错误|error|fail|can(?:no|')?t\s+(?:run|use|install|train|load)|No\s+module\s+named",
    re.IGNORECASE,
)


_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z][A-Za-z0-9_-]*")
_VERSION_AFTER = re.compile(r"[^\n\d]{0,30}?v?(\d+\.\d+(?:\.\d+)?)")


def _mentions(text: Text, name: str) -> list[re.Match[str]]:
    """Where the text names the package, its separators aside ("bits_and_bytes" is bitsandbytes)."""
    bare = re.sub(r"[-_.]", "", name).lower()
    return [m for m in _TOKEN.finditer(text.raw) if re.sub(r"[-_]", "", m.group(0)).lower() == bare]


def platform_before_wheels(text: Text, kb: KB) -> list[Candidate]:
    """A package the KB knows ships a platform's wheels only from some release, failing or said unsupported on that
    platform, with no release of it from then stated and no native library of its own loaded there (a community build's
    DLL, say): the release installed predates the platform's wheels (bitsandbytes on Windows before 0.43.0)."""
    for name, since in kb.platform_since.items():
        named = _mentions(text, name)
        if (
            not named
            or not text.has(_FAILS_THERE)
            or re.search(_NATIVE_RUNS.format(name=re.escape(name)), text.raw, re.I)
        ):
            continue
        for platform, first in since.items():
            if not text.has(_PLATFORM_SAID[platform]) or _release_from(text, named, Version(first)):
                continue
            if platform == "linux-aarch64" and text.has(_JETSON):
                continue
            where = _PLATFORM_WORDS[platform]
            cause = (
                f"{name} publishes wheels for {where} only from {first} (PyPI): the release installed ships no native "
                "library for this platform"
            )
            fix = f"pip install -U '{name}>={first}' (its first release with a wheel for {where})"
            return [_no_build(text, named[0].start(), 0.6, cause, fix)]
    return []


def _release_from(text: Text, named: list[re.Match[str]], first: Version) -> bool:
    """The text states a release of the package from `first` on ("bitsandbytes==0.45.5", "bitsandbytes 0.43.1")."""
    for m in named:
        v = _VERSION_AFTER.match(text.raw, m.end())
        if v is not None and Version(v.group(1)) >= first:
            return True
    return False


# a pinned release named ("numpy==1.21.6", "requires numpy 1.23.5") of a package whose releases' wheels the KB knows
_PINNED = r"(?<![\w-]){name}\s*(?:==|\s)\s*v?(?P<v>\d+\.\d+\.\d+)(?![\w.])"


def pin_older_than_python(text: Text, kb: KB) -> list[Candidate]:
    """A pinned release of a package the KB knows the wheels of (release_wheels.toml: numpy), on a Python newer than
    the newest its wheels are built for: pip finds none of it there (its requires-python stops below) or builds it
    from source, which fails (numpy before 1.26 on Python 3.12)."""
    stated = [minor for minor, _ in python_minors(text.raw)]
    if not stated or not text.has(_INSTALLING) or text.has(INDEX_UNREACHABLE) or text.has(_DOWNLOAD_LOST):
        return []
    mine = max(stated)
    for name, newest in kb.release_newest_python.items():
        for m in re.finditer(_PINNED.format(name=re.escape(name)), text.raw, re.IGNORECASE):
            top = newest.get(m.group("v"))
            if top is None or mine <= _minor(top)[1]:
                continue
            cause = (
                f"{name} {m.group('v')} publishes wheels up to Python {top} (PyPI), and this is Python 3.{mine}: pip "
                "finds no release of it here, or builds it from source, which fails"
            )
            return [_no_build(text, m.start(), 0.7, cause, newest_python_fix(name, newest, top, mine))]
    return []


def newest_python_fix(name: str, newest: Mapping[str, str], top: str, mine: int) -> str:
    """Use Python `top` (the newest the pinned release has wheels for), or the package's first release with wheels for
    Python 3.`mine` (`newest`: each release's newest Python, release_wheels.toml)."""
    rows = sorted(newest.items(), key=lambda kv: Version(kv[0]))
    first = next((v for v, py in rows if _minor(py)[1] >= mine), "")
    later = f", or {name}>={first} (its first release with Python 3.{mine} wheels)" if first else ""
    return f"use Python {top}{later}"


# a platform's wheels said to be missing from a release ("Windows 64-bit wheel is missing for 0.3.3", "aarch64 linux
# missing from 0.3.3 release"), or pip building a Rust package from source for want of one ("error: can't find Rust
# compiler": tokenizers, safetensors and their like publish wheels, so pip compiling one means none fits here)
_PLATFORM_WORD = rf"(?:{WHEEL_POOR_PLATFORM.pattern}|win_amd64)"
_WHEEL_MISSING = re.compile(
    rf"{_PLATFORM_WORD}[^\n]{{0,25}}?(?:wheels?|builds?|releases?)\s+(?:is\s+|are\s+)?missing|"
    rf"{_PLATFORM_WORD}[^\n]{{0,25}}?missing\s+from\s+(?:the\s+)?v?\d+(?:\.\d+)+\s+release|"
    rf"(?:wheels?|builds?)\s+for\s+{_PLATFORM_WORD}[^\n]{{0,15}}?(?:is|are)\s+missing|"
    # ("`torchao==0.3.1` can't be found for mac platform", torchtune#1572)
    rf"(?:can[\u2019']?t|cannot|could\s*n[o\u2019']t)\s+be\s+found\s+for\s+(?:the\s+|a\s+)?{_PLATFORM_WORD}",
    re.IGNORECASE,
)
_RUST_BUILD = re.compile(r"can[\u2019']?t\s+find\s+Rust\s+compiler", re.IGNORECASE)


# the interpreters a release's wheels cover, said ("those versions of torch have wheels only for `cp310`, `cp311`,
# `cp312`", "the wheels available on PyPi for cuequivariance-ops-torch-cu12 are only for cp313", cuEquivariance#226): a
# Python stated elsewhere outside the list has none
_CP = r"[`'\"]?cp3\d{1,2}t?[`'\"]?"
_WHEELS_ONLY_FOR = re.compile(
    rf"wheels?\b[^\n.]{{0,80}}?\bonly\s+for\s+(?P<tags>{_CP}(?:\s*,\s*(?:and\s+|or\s+)?{_CP}|\s+(?:and|or)\s+{_CP})*)",
    re.IGNORECASE,
)


def _wheels_only_for(text: Text) -> list[Candidate]:
    m = text.search(_WHEELS_ONLY_FOR)
    if m is None:
        return []
    covered = {minor for minor, _ in python_minors(m.group("tags"))}
    outside = [minor for minor in _stated_outside(text, m) if minor not in covered]
    if not outside:
        return []
    cause = f"the release's wheels cover only {m.group('tags')}; Python 3.{outside[0]} gets none"
    fix = "use a Python the release publishes wheels for, or a release with wheels for this Python (its PyPI files)"
    return [_no_build(text, m.start(), 0.75, cause, fix)]


# a package's wheels said to be for Linux alone, asked from Windows ("how do I install mmcv-full on windows? ... all
# the wheels are for manylinux")
_WHEELS_LINUX_ONLY = re.compile(
    r"all\s+(?:the\s+|of\s+the\s+)?wheels?\s+(?:are\s+|were\s+)?(?:only\s+)?(?:for|built\s+for)\s+(?:many)?linux|"
    r"wheels?\s+(?:are\s+|were\s+)?only\s+(?:for|built\s+for)\s+(?:many)?linux|"
    r"only\s+(?:many)?linux\w*\s+wheels?",
    re.IGNORECASE,
)


def _wheels_for_linux_only(text: Text) -> list[Candidate]:
    m = text.search(_WHEELS_LINUX_ONLY)
    if m is None or not text.has(WINDOWS_NAMED) or text.has(_ON_LINUX):
        return []
    cause = "the package publishes its wheels for Linux only (said in words): on Windows pip has none to install"
    fix = "run it on Linux or WSL2, where its wheels install, or build it from source on Windows (MSVC, a CUDA toolkit)"
    return [_no_build(text, m.start(), 0.7, cause, fix)]


# pip's "is not a supported wheel on this platform" retold after prebuilt wheels ("your precompiled wheels worked fine
# on Google Colab until today. Now I'm getting an error that it's not supported by the platform", xformers_wheels#2):
# the wheel's tags (its Python, most often) are not the interpreter's
_WHEEL_REFUSAL_RETOLD = re.compile(
    r"wheels?\b[\s\S]{0,200}?not\s+supported\s+(?:by|on)\s+(?:the|this)\s+platform", re.IGNORECASE
)


def _wheel_refusal_retold(text: Text) -> list[Candidate]:
    m = text.search(_WHEEL_REFUSAL_RETOLD)
    if m is None:
        return []
    cause = "pip refuses the wheel for this interpreter (said in words): its tags name another Python or platform"
    fix = (
        "install the wheel built for this Python and platform (its cpXY and platform tags), or use the Python it names"
    )
    return [_no_build(text, m.start(), 0.6, cause, fix)]


def wheel_missing_said(text: Text) -> list[Candidate]:
    m = text.search(_WHEEL_MISSING)
    if m is not None:
        cause = "the release has no wheel for this platform (said in words): pip has nothing to install, or builds it"
        fix = "use a release with a wheel for this platform (its PyPI files list them), or build it from source"
        return [_no_build(text, m.start(), 0.7, cause, fix)]
    only = _wheels_only_for(text) or _wheels_for_linux_only(text) or _wheel_refusal_retold(text)
    if only:
        return only
    m = text.search(_RUST_BUILD)
    if m is None:
        return []
    cause = (
        "pip is building a Rust-based package (tokenizers, safetensors, ...) from source: the release it chose has no "
        "wheel for this Python or platform"
    )
    fix = (
        "use a Python and platform the package publishes wheels for, or a release that has them (its PyPI files list "
        "the cp tags); building it needs Rust (rustup)"
    )
    return [_no_build(text, m.start(), 0.65, cause, fix)]
