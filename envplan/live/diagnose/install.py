"""Installing torch: no wheel for this Python or platform (pip's and uv's words)."""

from __future__ import annotations

import re

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from envplan.kb import KB, Release
from envplan.kb.variants import parse_variant

from .facts import WINDOWS_NAMED, python_minors, python_seen
from .libs import uv_platform_below
from .model import Candidate, found
from .packages import (
    BEFORE_LIST,
    INDEX_UNREACHABLE,
    NOTHING_LISTED,
    PIP_FINDS_NONE,
    TORCH_NAMED,
    WHEEL_POOR_PLATFORM,
    WINDOWS_PROMPT,
    ceiling_said,
    floor_not_offered,
    floor_said,
    linux_only_extension_on_windows,
    newer_python_fails,
    newest_python_fix,
    nvidia_stub_without_wheel,
    own_refusal,
    package_without_platform_wheel,
    pin_not_offered,
    pin_older_than_python,
    platform_before_wheels,
    platform_named,
    pure_python_torchvision,
    python_bound_inside,
    python_bound_package,
    source_of_a_wheel_package,
    too_new_said,
    torch_needs_python,
    wheel_missing_said,
    wheel_only_package,
    windows_refused_said,
)
from .text import Text

__all__ = ["RENAMED_WHEEL", "WHEEL_NAME", "python_unsupported"]

_FAMILY = r"torch(?:vision|audio)?"
_NO_VERSION = re.compile(
    rf"{PIP_FINDS_NONE}(?P<name>{_FAMILY})\b(?P<spec>[^\s(]*)"
    rf"(?:{BEFORE_LIST}\(from versions:?\s*(?P<listed>[^)]*)\))?",
    re.IGNORECASE,
)
# pip's words, as its error says them ("requires a different Python: 3.8.10 not in '>=3.9'") and as its verbose log
# does ("Link requires a different Python (3.13.2 not in: '<3.13,>=3.9')")
_DIFFERENT_PYTHON = re.compile(
    r"requires a different Python\s*[:(]?\s*(?P<have>[\d.]+)\s*not in:?\s*'(?P<spec>[^']+)'|"
    r"Ignored the following versions that require a different python version",
    re.IGNORECASE,
)
# a package's own check of the interpreter ("TTS requires python >= 3.9 and < 3.12 but your Python version is 3.12.0")
_OWN_CHECK = re.compile(
    r"requires\s+python\s*(?P<spec>(?:[<>=!~]=?\s*3(?:\.\d+)*\s*(?:,|and)?\s*)+?)\s*,?\s*but\s+(?:your|the\s+current|this)"
    r"\s+python(?:\s+version)?\s+is\s+(?P<have>3\.\d+(?:\.\d+)?)",
    re.IGNORECASE,
)
# the install tied to a Python release in the asker's own words, a title most often: "How to install tensorrt-llm in
# python3.11?", "Unable to install torch on python 3.8.16", "Can't install on python 3.13"
# (or torch "not found" for one: "torch version is not found in python3.9.1")
_INSTALL_ON_PYTHON = re.compile(
    r"(?:(?:how\s+(?:to|do\s+i|can\s+i)|can'?t|cannot|unable\s+to|fail(?:ed|s)?\s+to)\s+(?:pip\s+)?install\b"
    r"|(?<![\w-])(?:py)?torch(?:\s+version)?\s+(?:is\s+|was\s+)?not\s+found)[^\n.?]{0,40}?"
    r"\b(?:in|on|for|with|under)\s+(?:python|py|cpython)\s?(?P<py>3\.?\d{1,2})(?:\.\d+)?\b|"
    # the Python first, pip's finding said after it ("install latest version of python 3.9, but it cannot install
    # pyqlib, report not find version")
    r"(?:python|py|cpython)\s?(?P<py2>3\.\d{1,2})(?:\.\d+)?,?\s+but\s+(?:it\s+|i\s+)?(?:can'?t|cannot|unable\s+to)\s+"
    r"(?:pip\s+)?install\b[^\n.?]{0,60}?\b(?:not\s+find\s+(?:a\s+|any\s+)?version|no\s+matching\s+distribution)|"
    # a package said not to work with a Python ("ComfyUi-3D-Pack doesn't work with comfyUI embedded Python 3.13")
    r"(?:does\s*n[o']t|does\s+not|won'?t)\s+work\s+(?:with|on|in|under)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:c?python)\s*"
    r"(?:version\s*)?(?P<py3>3\.\d{1,2})",
    re.IGNORECASE,
)
_SAYS_SO = re.compile(r"python\s*(?P<py>3\.\d+)\s*(?:doesn'?t|does not|don'?t)\s*support\s*torch", re.IGNORECASE)
# an installer finding no wheel for this interpreter or platform at all (uv, pip); torch must be the package in play
_NO_WHEEL = re.compile(
    r"doesn'?t have a source distribution or wheel for the current platform|"
    r"has\s+no\s+wheels?\s+with\s+a\s+matching\s+(?:Python\s+ABI|Python\s+implementation|Python\s+version|platform)\s+tag|"
    # uv's hint after it: "Wheels are available for `torch` (v2.3.0) on the following platforms: ..."
    r"Wheels\s+are\s+available\s+for\s+`?(?:torch|torchvision|torchaudio)`?\s*(?:\(v[\w.+]+\))?\s+on\s+the\s+following\s+"
    r"platforms|"
    # ... and its newer words: "You're on macOS (`macosx_15_0_arm64`), but `torch` (v2.8.0+cu128) only has wheels for
    # the following platforms: `manylinux_2_28_x86_64`, `win_amd64`"
    r"`?(?:torch|torchvision|torchaudio)`?\s*(?:\(v[\w.+]+\))?\s+only\s+has\s+wheels\s+for\s+the\s+following\s+platforms|"
    r"(?:torch|torchvision|torchaudio)-[\w.+!-]+\.whl is not a supported wheel on this platform",
    re.IGNORECASE,
)
# uv's resolver: "torch==2.6.0 depends on Python>=3.9.0" for a Python the project allows
_DEPENDS_ON_PYTHON = re.compile(
    r"(?<![\w-])torch(?:vision|audio)?(?:==[\w.+]+)?\s+depends on Python\s*(?P<spec>[<>=!~]=?\s*[\d.]+)", re.IGNORECASE
)
# pip's line paraphrased, the package name dropped: "couldn't find the version that satisfies the requirement ==1.9.1"
_PARAPHRASED = re.compile(
    r"could(?:n'?t| not) find (?:a|the|any) version that satisf\w* the requirement\s*(?P<spec>[=<>~!]=?\s*\d[\d.]*)",
    re.I,
)
# any wheel pip refuses for this interpreter, whose tag names another Python than the one the text states
# (a title may cut it short: "... is not a supported wheel on this platf")
_TAGGED_WHEEL = re.compile(
    r"(?<![\w.+!-])(?P<wheel>[\w.+!-]+?-cp(?P<cp>3\d{1,2})-[\w.-]+?\.whl) is not a supported wheel", re.I
)


# a compiled module asking the interpreter for a C-API function it does not export: built for another Python build
# (another minor version, a UCS2/UCS4 unicode build, a debug or free-threaded build)
_PY_SYMBOL = re.compile(
    r"(?<![^\s:'\"(\[])(?P<path>[^\s:'\"(\[]+?\.(?:so|pyd)(?:\.\d+)*)\b[^\n]{0,80}?undefined\s*symbol\s*:?\s*"
    r"(?P<sym>_?Py[A-Z]\w+)"
)


# pip offering only the 0.1.2 placeholders PyPI keeps under the name torch: no real torch for this interpreter
_PLACEHOLDERS_ONLY = re.compile(
    r"from\s+versions:?\s*0\.1\.2(?:[,\s]+0\.1\.2\.?post\d)*\s*(?:\)|ERROR|$)", re.IGNORECASE | re.MULTILINE
)


def python_unsupported(text: Text, kb: KB) -> list[Candidate]:
    if uv_platform_below(text) is not None:
        return []  # uv says why no wheel fits: the machine's glibc is below the wheels' floor (libs.py reads it)
    return [] if _nightly_pin_gone(text) else _no_build(text, kb)


# pip failing on a dated nightly pin ("No matching distribution found for torchvision==0.17.0.dev20230907",
# "torch==2.7.0.dev20250311+cu128 (from versions: none)"): the nightly index keeps recent builds only, so an old pin is
# gone for every Python (executorch#258, EasyReforge#17, LXLTX-nsfc_writer#2 settle it as the pin): not the interpreter,
# unless the text shows a platform the package has no builds for (a Mac with Intel's chip, executorch#9772; triton's
# dev pin on Windows, its "file:///C:/Users/..." path alone telling, kernl#149)
# (written with a hyphen too: "torch==2.1.0.dev-20230614+rocm5.5", stable-diffusion-webui#12704; or a nightly
# package's dated release: "torchrl-nightly==2025.1.1", purged from PyPI, tdmpc2#90)
_NIGHTLY_PIN = re.compile(
    PIP_FINDS_NONE + r"[`'\"]?(?:[A-Za-z][\w.-]*\s*==\s*\d+(?:\.\d+)*\.dev-?20\d{6}|"
    r"[A-Za-z][\w.-]*-nightly\s*==\s*20\d\d\.\d{1,2}\.\d{1,2}(?!\d|\.\d))",
    re.IGNORECASE,
)
_WINDOWS_PATH = re.compile(r"(?<![A-Za-z])[A-Z]:[/\\](?:Users|Program Files|Windows)[/\\]", re.IGNORECASE)


def _nightly_pin_gone(text: Text) -> bool:
    if not text.has(_NIGHTLY_PIN):
        return False
    return not (platform_named(text) or text.has(WINDOWS_NAMED) or text.has(_WINDOWS_PATH) or text.has(_MAC))


def _no_build(text: Text, kb: KB) -> list[Candidate]:
    stated = _stated(text, kb) or _tagged_wheel(text, kb) or _python_symbol(text, kb) or _cuda_build_on_mac(text)
    if stated:
        return stated
    # pip looked for a PyTorch index or build that does not exist (the pin is wrong, not the Python), or could not
    # reach the index (its "(from versions: none)" then says nothing of the Python), or was given a find-links page
    # as the index, which it reads nothing from
    index_unread = text.has(INDEX_UNREACHABLE) or text.has(_PAGE_AS_INDEX)
    if _index_never_published(text, kb) or _build_never_published(text, kb) or index_unread:
        return []
    if python_bound_inside(text, kb):
        return []  # every release of the package accepts the Python the text states: not the interpreter
    stated = (
        _outside_range(text, kb)
        or _placeholder_taken(text, kb)
        or _cuda_wheel_placeholders(text)
        or wheel_only_package(text, kb)
        or nvidia_stub_without_wheel(text)
        or python_bound_package(text, kb)
        or _requires_python_excludes(text)
        or package_without_platform_wheel(text)
        or platform_before_wheels(text, kb)
        or _triton_on_windows(text)
        or _only_torch_floors(text, kb)
        or _libtorch_other_arch(text)
        or _conda_platform_missing(text)
        or _opam_platform_missing(text)
        or _poetry_python_range(text)
        or own_refusal(text)
        or floor_said(text)
        or ceiling_said(text)
        or too_new_said(text)
        or torch_needs_python(text)
        or wheel_missing_said(text)
        or newer_python_fails(text)
        or pure_python_torchvision(text, kb)
        or linux_only_extension_on_windows(text, kb)
        or windows_refused_said(text)
        or _vllm_on_windows(text)
        or _macos_other_arch(text)
        or _musl_linux(text)
        or _intel_mac_release(text, kb)
        or _exec_format(text)
        or _distutils_gone(text)
        or _torch_dataclass_refused(text)
        or _older_python_syntax(text)
        or pin_not_offered(text)
        or pin_older_than_python(text, kb)
        or floor_not_offered(text)
        or source_of_a_wheel_package(text)
    )
    if stated:
        return stated
    matches = list(re.finditer(_NO_VERSION, text.raw))
    index = text.has(_PYTORCH_INDEX) or text.has(NOTHING_LISTED) or text.has(_LOCAL_OFFERED)
    verdicts = [_no_version(m, kb, index) for m in matches]
    if not matches or any(v is None for v in verdicts):
        return []  # one of pip's lines shows another reason (a missing index URL, a version that never existed)
    (score, wanted), m = max((v for v in verdicts if v is not None), key=lambda v: v[0]), matches[0]
    py = python_seen(text.raw)
    cause = f"pip finds no {m.group('name')}{m.group('spec')} wheel for this Python/platform" + (
        f" (Python {py})" if py else ""
    )
    return [_candidate(text, m.start(), score, cause, _fix(kb, wanted))]


# Poetry's words for pip's "no matching distribution": "Unable to find installation candidates for torch (2.5.1)";
# uv's: "No compatible version found for: torch" (verbose), "have no wheels with a matching Python ABI tag (e.g.,
# `cp314`)" (any package of the stack)
_POETRY_NONE = re.compile(
    r"Unable\s+to\s+find\s+installation\s+candidates\s+for\s+torch\b|No\s+compatible\s+version\s+found\s+for:?\s+torch\b",
    re.IGNORECASE,
)
_NO_ABI_TAG = re.compile(
    r"have\s+no\s+wheels\s+with\s+a\s+matching\s+Python\s+ABI\s+tag(?:\s*\(e\.g\.,?\s*`?(?P<tag>cp\d+t?)`?\))?", re.I
)
# uv's hint on a URL dependency's wheel ("The wheel is compatible with CPython 3.10 (`cp310`), but you're using
# CPython 3.11 (`cp311`)"): the wheel the requirement names is for another Python
_URL_WHEEL_OTHER_PYTHON = re.compile(
    r"wheel\s+is\s+compatible\s+with\s+CPython\s+(?P<built>3\.\d+)[^\n]*?but\s+you(?:'|\u2019)?re\s+using\s+CPython\s+"
    r"(?P<py>3\.\d+)",
    re.IGNORECASE,
)


def _installer_says(text: Text, kb: KB) -> list[Candidate]:
    """uv's and Poetry's own words for no wheel of this interpreter."""
    tag = text.search(_NO_ABI_TAG)
    if tag:
        wanted = f" ({tag.group('tag')})" if tag.group("tag") else ""
        cause = f"the package publishes no wheel for this interpreter's ABI{wanted}: no build for this Python"
        return [_candidate(text, tag.start(), 0.85, cause, _fix(kb, None))]
    url = text.search(_URL_WHEEL_OTHER_PYTHON)
    if url:
        cause = (
            f"the wheel the requirement's URL names is built for CPython {url.group('built')}; this interpreter is "
            f"CPython {url.group('py')}"
        )
        fix = (
            f"use a Python {url.group('built')} environment, or point the requirement at the same wheel built for "
            f"Python {url.group('py')} (its index lists one per cpXY tag, where it publishes one)"
        )
        return [_candidate(text, url.start(), 0.85, cause, fix)]
    none = text.search(_POETRY_NONE)
    if none is None:
        return []
    py = python_seen(text.raw)
    cause = "the installer finds no torch wheel of that release for this Python/platform"
    cause += f" (Python {py})" if py else ""
    return [_candidate(text, none.start(), 0.65, cause, _fix(kb, None))]


def _stated(text: Text, kb: KB) -> list[Candidate]:
    """The installer or the user saying it outright: another Python required, no wheel for this platform."""
    said = _installer_says(text, kb)
    if said:
        return said
    m = text.search(_DIFFERENT_PYTHON) or text.search(_SAYS_SO)
    # (a pure-Python package torch depends on, resolved too new for the interpreter, says nothing of torch's builds)
    if m and not _ignored_are_others(text, m) and not _torch_dependency_refused(text, m):
        return [_candidate(text, m.start(), 0.8, _cause_from(m, text), _fix(kb, None))]
    m = text.search(_DEPENDS_ON_PYTHON)
    if m:
        cause = f"torch requires Python {m.group('spec')}; the environment allows another Python"
        return [_candidate(text, m.start(), 0.8, cause, _fix(kb, None))]
    m = text.search(_PARAPHRASED)
    if m and text.has(TORCH_NAMED):
        cause = f"pip finds no torch{m.group('spec')} wheel for this Python/platform"
        return [_candidate(text, m.start(), 0.6, cause, _fix(kb, _wanted(m.group("spec"))))]
    m = text.search(_NO_WHEEL)
    if m and text.has(TORCH_NAMED) and not _uv_platforms_contradicted(text, kb):
        py = python_seen(text.raw)
        cause = "no torch wheel exists for this interpreter or platform" + (f" (Python {py})" if py else "")
        return [_candidate(text, m.start(), 0.8, cause, _fix(kb, None))]
    return (
        _conda_python(text, kb)
        or _own_check(text)
        or _install_on_python(text, kb)
        or _build_needs_newer_python(text, kb)
        or _zero_placeholder(text)
    )


# uv's words for a locked or resolved torch with no wheel for this machine: "You're on Linux
# (`manylinux_2_39_x86_64`), but `torch` (v2.5.1) only has wheels for the following platform: `linux_aarch64`"
_UV_ONLY_HAS = re.compile(
    r"You(?:'|\u2019)re\s+on\s+[\w ]+\(`(?P<tag>[\w.]+)`\),?\s+but\s+`?torch`?\s+\(v(?P<v>\d+\.\d+\.\d+)"
    r"(?:\+(?P<variant>[\w.]+))?\)\s+only\s+has\s+wheels\s+for\s+the\s+following\s+platforms?:\s*(?P<listed>[^\n;]+)",
    re.IGNORECASE,
)
# the PyTorch index a command or uv's registry names ("--index-url https://download.pytorch.org/whl/cu131",
# "registry+https://download.pytorch.org/whl/cu124"), a full stop after it ending the sentence
# (the release candidates' channel too: "download.pytorch.org/whl/test/cu124")
_INDEX_LABEL = re.compile(
    r"download\.pytorch\.org/whl/(?:nightly/|test/)?(?P<label>cu\d{3}|cpu|rocm\d+(?:\.\d+)*)(?!\w|\.\d)",
    re.IGNORECASE,
)


def _uv_platforms_contradicted(text: Text, kb: KB) -> bool:
    """uv saying a torch build has wheels only for other platforms, where the KB has that build for this machine's
    platform for every Python those others have it for: the lock (or a narrowed index) left the machine's wheels out,
    no wheel is missing (uv#11418: a stale uv.lock that recorded the aarch64 wheel alone)."""
    from envplan.kb.learnedplatforms import platform_of_tag  # only for uv's words: keep explain's imports light

    m = text.search(_UV_ONLY_HAS)
    registry = text.search(_INDEX_LABEL)
    variant = (m.group("variant") if m else None) or (registry.group("label") if registry else None)
    if m is None or variant is None:
        return False
    variant = variant.lower()
    here = platform_of_tag(m.group("tag"))
    listed = {p for tag in re.findall(r"`([\w.]+)`", m.group("listed")) for p in platform_of_tag(tag)}
    mine = kb.availability_of(m.group("v"), here[0]) if len(here) == 1 and here[0] not in listed else None
    if mine is None or not mine.publishes(variant):
        return False
    others = [kb.availability_of(m.group("v"), p) for p in listed]
    if not others or any(a is None for a in others):
        return False  # a platform the KB does not know: nothing to contradict uv with
    return all(set(a.python) <= set(mine.python) for a in others if a is not None and a.publishes(variant))


# pip's list of the releases it ignored for their Python ("Ignored the following versions that require a different
# python version: 1.16.0 Requires-Python >=3.11; ..."), and the exact pin it then finds nothing of
_IGNORED_LIST = re.compile(r"(?<![\w.])(?P<v>\d[\w.]*)\s+Requires-Python", re.IGNORECASE)
_EXACT_PIN = re.compile(
    rf"{PIP_FINDS_NONE}[A-Za-z][\w.-]*==(?P<pin>\d[\w.+]*){BEFORE_LIST}"
    r"(?:\(from\s+versions:\s*(?P<listed>[^)\n]*)\))?",
    re.IGNORECASE,
)


# the pure-Python packages torch requires (Requires-Dist of the torch 2.13.0 wheel's METADATA and of torch 2.15.0 on
# PyPI's JSON API: filelock, typing-extensions, setuptools, sympy, networkx, jinja2, fsspec) and theirs (mpmath,
# markupsafe). PyTorch's index serves copies of them without their Requires-Python (networkx 3.2.1 to Python 3.8,
# translation_layoutrecovery#9): one pip refuses for the interpreter is resolved too new, not torch missing a build
_TORCH_DEPENDENCY_REFUSED = re.compile(
    r"Package\s+'(?:filelock|typing[-_]extensions|setuptools|sympy|networkx|jinja2|fsspec|mpmath|markupsafe)'\s+"
    r"requires\s+a\s+different\s+Python",
    re.IGNORECASE,
)


def _torch_dependency_refused(text: Text, m: re.Match[str]) -> bool:
    refused = text.search(_TORCH_DEPENDENCY_REFUSED)
    return refused is not None and refused.end() >= m.start() >= refused.start()


def _ignored_are_others(text: Text, m: re.Match[str]) -> bool:
    """pip ignored some releases for their Python, but the exact release pinned is none of them and not newer than
    every release offered (releases a newer Python is needed for are hidden): the ignored ones are another package's
    ("1.16.0 Requires-Python >=3.11" next to bpy==4.0, torch==2.11.0.dev20251224+cu128), not the reason."""
    if not m.group(0).lower().startswith("ignored"):
        return False
    end = text.raw.find("\n", m.end())
    ignored = {v.group("v") for v in _IGNORED_LIST.finditer(text.raw[m.end() : end if end >= 0 else None])}
    pin = text.search(_EXACT_PIN)
    if not ignored or pin is None or pin.group("pin") in ignored:
        return False
    try:
        wanted, offered = Version(pin.group("pin")), [Version(v) for v in _versions(pin.group("listed") or "")]
    except InvalidVersion:
        return True
    return not offered or wanted <= max(offered)


# pip naming the package's Requires-Python and offering no release ("Requires-Python <3.11,>=3.8", then "(from versions:
# none)"), the text asking for a Python outside it ("publishing to PyPI for Python-3.11 and 3.12", ai-hub-models#108)
_REQUIRES_PYTHON = re.compile(
    r"Requires-Python\s*:?\s*(?P<spec>[<>=!~]=?\s*\d[\d.*]*(?:\s*,\s*[<>=!~]=?\s*\d[\d.*]*)*)", re.IGNORECASE
)


def _requires_python_excludes(text: Text) -> list[Candidate]:
    m = text.search(_REQUIRES_PYTHON)
    if m is None or not text.has(NOTHING_LISTED):
        return []
    try:
        spec = SpecifierSet(re.sub(r"\s+", "", m.group("spec")))
    except InvalidSpecifier:
        return []
    asked = [minor for minor, _ in python_minors(text.raw)]
    outside = [minor for minor in asked if not spec.contains(f"3.{minor}")]
    if not outside:
        return []
    cause = f"the package requires Python {spec}: on Python 3.{outside[0]} pip finds no release of it"
    fix = (
        f"use a Python in {spec} (a new environment with it), or wait for a release that supports Python 3.{outside[0]}"
    )
    return [_candidate(text, m.start(), 0.75, cause, fix)]


# a package's build script using Python syntax newer than the interpreter ("TypeError: 'type' object is not
# subscriptable" for list[str] before 3.9) while pip prepares it: the package needs a newer Python
_NEWER_SYNTAX = re.compile(r"TypeError:\s*'type'\s*object\s*is\s*not\s*subscriptable", re.IGNORECASE)
_BUILDING = re.compile(r"build_meta|setup\.py|Preparing (?:wheel )?metadata|egg_info|bdist_wheel|pyproject", re.I)
# conda's solvers finding no torch build for the environment's Python: the classic solver's "pytorch ->
# python[version='>=3.6,<3.7.0a0|...']", libmamba's "nothing provides python >=3.8,<3.9.0a0 needed by pytorch-1.8.0"
# and "pytorch 1.13.1 is not installable because it requires python >=3.8,<3.9.0a0"
_CONDA_PYTHON = re.compile(
    r"(?<![\w-])(?:py)?torch(?:vision|audio)?(?:[=\s][\w.*=]+)?\s*->\s*python\[version\s*=|"
    r"nothing\s+provides\s+(?:requested\s+)?python\s*[<>=][^\n]{0,40}?needed\s+by\s+(?:py)?torch(?:vision|audio)?\b|"
    r"(?<![\w-])(?:py)?torch(?:vision|audio)?[\s=]+\d[\w.]*[^\n]{0,60}?requires\s*\n?[\s\u2500-\u257f]*python\s*[<>=]",
    re.IGNORECASE,
)
_CONDA_YOUR_PYTHON = re.compile(r"Your\s+python\s*:\s*python\s*=+\s*(?P<py>3\.\d+)", re.IGNORECASE)
# a package's 0.0.0 source placeholder downloaded from an index ("Using cached torch_tensorrt-0.0.0.tar.gz"): the
# project publishes real files only for other platforms or Pythons
_ZERO_PLACEHOLDER = re.compile(
    r"(?:Using cached|Downloading)\s+(?:\S*/)?(?P<name>[A-Za-z][\w.-]*?)-0\.0\.0\.tar\.gz", re.IGNORECASE
)


def _conda_python(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_CONDA_PYTHON)
    if m is None:
        return []
    yours = _CONDA_YOUR_PYTHON.search(text.raw)
    py = yours.group("py") if yours else python_seen(text.raw[: m.start()] + text.raw[m.end() :])
    cause = "conda finds no torch build for the environment's Python" + (f" (Python {py})" if py else "")
    return [_candidate(text, m.start(), 0.8, cause, _fix(kb, None))]


def _build_needs_newer_python(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_NEWER_SYNTAX)
    if m is None or not text.has(_BUILDING):
        return []
    py = python_seen(text.raw)
    cause = "the package's build script uses Python syntax this interpreter predates (list[str] needs 3.9)"
    cause += f" (Python {py})" if py else ""
    return [_candidate(text, m.start(), 0.65, cause, _fix(kb, None))]


def _zero_placeholder(text: Text) -> list[Candidate]:
    m = text.search(_ZERO_PLACEHOLDER)
    if m is None:
        return []
    name = m.group("name")
    cause = (
        f"pip took {name}'s 0.0.0 placeholder: the project publishes no real {name} file for this platform or Python"
    )
    fix = (
        f"check which platforms and Pythons {name} publishes wheels for (its release page or PyPI files); run on one "
        "of those (Linux x86_64 in most cases), or build it from source"
    )
    return [_candidate(text, m.start(), 0.75, cause, fix)]


def _install_on_python(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_INSTALL_ON_PYTHON)
    if m is None:
        return []
    said = m.group("py") or m.group("py2") or m.group("py3")
    py = said if "." in said else f"3.{said[1:]}"
    cause = f"the package publishes nothing installable for Python {py}, as the text says"
    return [_candidate(text, m.start(), 0.55, cause, _fix(kb, None))]


# the placeholder itself installed ("but you'll have torch 0.1.2.post2", "torch-0.1.2.post2.tar.gz"): pip found no
# real torch for this interpreter and took PyPI's stand-in
# (the archive's name goes on after the version: ".tar.gz")
_PLACEHOLDER_TAKEN = re.compile(r"(?<![\w.-])torch(?:==|-|\s+)0\.1\.2(?:\.post\d)?(?!\d|\.\d)", re.IGNORECASE)
# pip building torch from a source distribution it downloaded: PyPI's only torch sdists are those placeholders
_PLACEHOLDER_BUILT = re.compile(
    r"setup\(\s*name\s*=\s*[\"']torch[\"']\s*,\s*version\s*=\s*[\"']0\.1\.2|"
    r"pip-install-\w+[/\\]+torch[/\\]+setup\.py|"
    r"(?:Running setup\.py (?:install|bdist_wheel) for|Building wheel for) torch \(setup\.py\)|"
    r"Failed (?:building wheel|to build) (?:for )?torch(?![\w-])|"
    # the placeholder's own words when pip runs its setup.py
    r"PyTorch\s+does\s+not\s+currently\s+provide\s+packages\s+for\s+PyPI",
    re.IGNORECASE,
)


# torchcodec's only source distribution on PyPI is its 0.0.0.dev0 name holder (844 bytes, 2024-05-17; every release
# since is wheels alone: PyPI's JSON API, read 2026-12-07): pip installs it where no torchcodec wheel fits the
# interpreter or platform (torchcodec#1007, Python 3.14 before torchcodec's cp314 wheels)
_CODEC_PLACEHOLDER = re.compile(r"(?<![\w.-])torchcodec(?:==|-|\s+|`\s*)0\.0\.0\.dev0(?![\w.])", re.IGNORECASE)


def _placeholder_taken(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_PLACEHOLDER_TAKEN)
    if m is not None:
        cause = "pip installed PyPI's torch 0.1.2 placeholder: no torch wheel exists for this interpreter or platform"
        return [_candidate(text, m.start(), 0.85, cause, _fix(kb, None))]
    m = text.search(_CODEC_PLACEHOLDER)
    if m is not None:
        cause = (
            "pip installed torchcodec 0.0.0.dev0, PyPI's empty name holder and its only source distribution: no "
            "torchcodec wheel fits this interpreter or platform"
        )
        fix = (
            "use a Python and platform torchcodec publishes wheels for (its PyPI files list them), then reinstall "
            "torchcodec; envplan doctor shows this interpreter and platform"
        )
        return [_candidate(text, m.start(), 0.8, cause, fix)]
    m = text.search(_PLACEHOLDER_BUILT)
    if m is None or text.has(_TORCH_SOURCE_BUILD):
        return []
    cause = (
        "pip is building torch from a source distribution, and PyPI's only torch sources are the 0.1.2 "
        "placeholders: no torch wheel exists for this interpreter or platform"
    )
    return [_candidate(text, m.start(), 0.75, cause, _fix(kb, None))]


# a real build of torch from its source tree (a checkout, CMake), which is no placeholder
_TORCH_SOURCE_BUILD = re.compile(r"cmake|ninja|caffe2|git clone|pytorch[/\\]setup\.py|USE_CUDA", re.IGNORECASE)


def _outside_range(text: Text, kb: KB) -> list[Candidate]:
    """pip finding no torch==X, and the Python the text states outside the range the KB lists for X; or pip
    offering nothing but PyPI's 0.1.2 placeholders."""
    m = text.search(_NO_VERSION)
    if m is None:
        return []
    wanted, name = _wanted(m.group("spec")), m.group("name").lower()
    release = _matrix_release(kb, name, wanted)
    py = python_seen(text.raw)
    if release is not None and py and not release.python_min <= Version(py) <= release.python_max:
        asked = f"torch {release.torch}" if name == "torch" else f"{name} {wanted} (made for torch {release.torch})"
        cause = f"{asked} has wheels for Python {release.python_min}-{release.python_max}; this is {py}"
        return [_candidate(text, m.start(), 0.9, cause, _fix(kb, release.torch))]
    newest = _newest_python(kb, wanted) if release is None and name == "torch" else ""
    if newest and py and Version(py) > Version(newest):
        cause = f"torch {wanted} has wheels up to Python {newest} (PyPI); this is {py}"
        fix = newest_python_fix("torch", kb.release_newest_python["torch"], newest, Version(py).minor)
        return [_candidate(text, m.start(), 0.9, cause, fix)]
    placeholders = text.search(_PLACEHOLDERS_ONLY)
    if placeholders is not None:
        cause = "pip offers only PyPI's 0.1.2 placeholder packages: no torch wheel exists for this interpreter"
        return [_candidate(text, m.start(), 0.85, cause, _fix(kb, wanted))]
    return []


def _newest_python(kb: KB, wanted: Version | None) -> str:
    """The newest Python a torch release before the matrix has wheels for (release_wheels.toml: PyPI's files)."""
    return kb.release_newest_python.get("torch", {}).get(str(wanted), "") if wanted else ""


def _matrix_release(kb: KB, name: str, wanted: Version | None) -> Release | None:
    """The matrix's release a pin of torch or of a companion belongs to (torchvision 0.20.1: torch 2.5.1's)."""
    if wanted is None:
        return None
    if name == "torch":
        return kb.release(wanted)
    return next((r for r in kb.releases if getattr(r, name) == wanted), None)


# a Mac, as reports say it (Apple silicon, macOS, darwin wheels)
_MAC = re.compile(
    r"apple\s*(?:silicon|M[1-5])|mac\s*OS|darwin|macbook|(?<![A-Za-z])mac(?![A-Za-z])|(?<![A-Za-z0-9])M[1-5]\s+"
    r"(?:Pro|Max|Ultra|chip|Mac)|(?<![A-Za-z])OS\s?X(?![A-Za-z])",
    re.IGNORECASE,
)


# a +cpu torch an installer fails to find or install (Poetry's "Updating torch (1.13.0 -> 1.13.0+cpu): Failed",
# "Unable to find installation candidates for torch (2.5.1+cpu)", a pin "^2.5.1+cpu")
_CPU_LOCAL = re.compile(
    r"(?<![\w-])torch\b[^\n]{0,40}?\d+\.\d+(?:\.\d+)?\+cpu\b[^\n]{0,20}?(?:Failed|fails?\b|error)|"
    r"(?:Unable\s+to\s+find\s+(?:installation\s+)?candidates\s+for|No\s+matching\s+distribution\s+found\s+for)\s+"
    r"torch\b[^\n]{0,12}?\+cpu\b",
    re.IGNORECASE,
)
_CPU_PINNED = re.compile(r"(?<![\w-])torch\s*=\s*\{[^}\n]*\+cpu\b", re.IGNORECASE)
_FINDS_NONE = re.compile(r"Unable\s+to\s+find\s+(?:installation\s+)?candidates|failing\s+to\s+find|Failed", re.I)


def _cpu_build_on_mac(text: Text) -> list[Candidate]:
    """A +cpu torch asked for on a Mac: torch's macOS wheels carry no local version, so no index has a +cpu one."""
    if not text.has(_MAC):
        return []
    m = text.search(_CPU_LOCAL)
    if m is None:
        pinned = text.search(_CPU_PINNED)
        m = pinned if pinned is not None and text.has(_FINDS_NONE) else None
    if m is None:
        return []
    cause = "torch's macOS wheels are plain releases without a +cpu tag: no index has a +cpu torch for a Mac"
    fix = (
        "on a Mac depend on the plain release (torch==X.Y.Z, from PyPI; it is the CPU/MPS build) and keep the +cpu "
        "pin and the CPU index for Linux and Windows only (an environment marker: sys_platform != 'darwin')"
    )
    return [_candidate(text, m.start(), 0.8, cause, fix)]


# conda's CUDA packages asked for where they fail ("unable to install the required cudatoolkit=10.2",
# "ResolvePackageNotFound: - cudatoolkit=11.3"): on a Mac no channel builds them
_CONDA_CUDA_PACKAGE = re.compile(r"(?<![\w-])(?:cudatoolkit|pytorch-cuda|cuda-toolkit)\s*[=<>]", re.IGNORECASE)
_CONDA_CUDA_FAILS = re.compile(
    r"ResolvePackageNotFound|PackagesNotFoundError|not\s+available\s+from\s+current\s+channels|unable\s+to\s+install|"
    r"can(?:'|no)t\s+install|fails?\b|failed",
    re.IGNORECASE,
)


def _conda_cuda_on_mac(text: Text) -> list[Candidate]:
    m = text.search(_CONDA_CUDA_PACKAGE)
    if m is None or not text.has(_MAC) or not text.has(_CONDA_CUDA_FAILS):
        return []
    cause = "conda's CUDA packages (cudatoolkit, pytorch-cuda) have no macOS builds: the environment file asks for them"
    fix = (
        "on a Mac drop cudatoolkit / pytorch-cuda (and any +cu pins) from the environment and install the plain "
        "pytorch package (CPU, and MPS on Apple silicon); keep the CUDA pins for Linux and Windows"
    )
    return [_candidate(text, m.start(), 0.75, cause, fix)]


def _cuda_build_on_mac(text: Text) -> list[Candidate]:
    """A +cuXXX torch asked for on a Mac: torch publishes no CUDA builds for macOS, on any index."""
    m = text.search(_NO_VERSION)
    if m is None or "+cu" not in m.group("spec").lower() or not text.has(_MAC):
        return _conda_cuda_on_mac(text) or _cpu_build_on_mac(text)
    cause = f"torch publishes no CUDA build for macOS: there is no {m.group('name')}{m.group('spec')} for a Mac"
    fix = (
        "on a Mac install the plain release (pip install torch; it runs on the CPU and, on Apple silicon, the MPS "
        "device), or run the CUDA build on a Linux or Windows machine with an NVIDIA GPU"
    )
    return [_candidate(text, m.start(), 0.85, cause, fix)]


# the kernel refusing a binary or a container image built for another CPU architecture ("exec format error" running
# the x86_64 pytorch/pytorch image on a Jetson); a script without its #! line says the same, so the text must name an
# architecture or an ARM machine
_EXEC_FORMAT = re.compile(r"exec\s+format\s+error", re.IGNORECASE)
_ARCHITECTURE = re.compile(
    r"(?<![A-Za-z])(?:Jetson|aarch64|arm64|ARM(?:v\d|64)?|Raspberry|Apple\s*silicon|M[1-4]\s+(?:Mac|chip)|RK35[68]8|"
    r"x86[_-]64|amd64|Graviton|Grace|DGX\s*Spark|GB10)(?![A-Za-z])|架构",
    re.IGNORECASE,
)


def _exec_format(text: Text) -> list[Candidate]:
    m = text.search(_EXEC_FORMAT)
    if m is None or not text.has(_ARCHITECTURE):
        return []
    cause = "the binary or container image was built for another CPU architecture than this machine's"
    fix = (
        "use the build for this machine's architecture (uname -m): on a Jetson NVIDIA's L4T/JetPack images and "
        "wheels, on other ARM machines the linux/arm64 image or aarch64 wheels; docker image inspect shows an "
        "image's architecture"
    )
    return [_candidate(text, m.start(), 0.75, cause, fix)]


# distutils left the standard library in Python 3.12: a package (or its build) that still imports it has no release
# for that Python yet (on an older Python the same error is a distribution's split-off python3-distutils package)
_DISTUTILS = re.compile(
    r"No\s+module\s+named\s+['\"`]?distutils|[`'\"]?distutils[`'\"]?\s+(?:package\s+|module\s+)?"
    r"(?:is\s+not\s+installed|was\s+removed|is\s+missing|not\s+found)",
    re.IGNORECASE,
)
# pkgutil.ImpImporter left in the same release: an old setuptools (or a package's old build) running on 3.12+
_IMP_IMPORTER = re.compile(r"pkgutil['\"`]?\s+has\s+no\s+attribute\s+['\"`]?ImpImporter", re.IGNORECASE)
_PYTHON_312_ON = re.compile(r"(?<![\w.])(?:python|py)\s*v?3\.1[2-9]|(?<![\w.])3\.1[2-9]\+", re.IGNORECASE)


# A package's code using Python 3.8 syntax (What's New In Python 3.8: the f-string "=" specifier, bpo-36817; the
# walrus operator, PEP 572) failing to parse in an older interpreter's site-packages: Python 3.6 shows the f-string
# as 'File "<fstring>", line 1' over "(norm=)"
_PY38_SYNTAX = re.compile(
    r"File\s+\"<fstring>\",\s+line\s+\d+\s*\n\s*\(\s*[\w.\[\]'\"]+\s*=\s*\)|"
    r"^[^\n]*\w\s*:=\s*[^\n]*\n[\s^]*\n?\s*SyntaxError:\s+invalid\s+syntax",
    re.MULTILINE,
)
_OLD_PYTHON_PATH = re.compile(r"python3\.[0-7](?![\d])", re.IGNORECASE)


def _older_python_syntax(text: Text) -> list[Candidate]:
    m, py = text.search(_PY38_SYNTAX), text.search(_OLD_PYTHON_PATH)
    if m is None or py is None:
        return []
    cause = (
        f"the package's code uses Python 3.8 syntax (the f-string '=' specifier or ':='), which {py.group(0)} cannot "
        "parse: the release installed needs a newer Python"
    )
    fix = "use Python 3.8 or newer (the package's requires-python names its floor), or an older release of the package"
    return [_candidate(text, m.start(), 0.75, cause, fix)]


# Python 3.11's dataclasses refusing a default of one of torch's own classes ("ValueError: mutable default <class
# 'torch.distributed._shard.sharding_spec.api.ShardingSpec'> for field ... is not allowed: use default_factory",
# Lightning#15614 on Python 3.11.0): a torch older than the interpreter (Python 3.11 wheels came with torch 1.13)
_TORCH_DATACLASS = re.compile(r"mutable\s+default\s+<class\s+'torch\.[\w.]+'?", re.IGNORECASE)


def _torch_dataclass_refused(text: Text) -> list[Candidate]:
    m = text.search(_TORCH_DATACLASS)
    if m is None:
        return []
    cause = (
        "Python's dataclasses (3.11 and later) refuse a default of one of torch's own classes: the torch installed "
        "is older than this Python (its first wheels for 3.11 came with 1.13)"
    )
    fix = "use Python 3.10, or a torch release with wheels for this Python (envplan matrix lists them)"
    return [_candidate(text, m.start(), 0.75, cause, fix)]


def _distutils_gone(text: Text) -> list[Candidate]:
    m = text.search(_IMP_IMPORTER)  # only on 3.12+: no Python need be stated
    if m is None:
        m = text.search(_DISTUTILS)
        if m is None or not text.has(_PYTHON_312_ON):
            return []
    cause = (
        "a package (or its build) still uses what Python 3.12 removed (distutils, pkgutil.ImpImporter): the release "
        "pinned has no build for this Python"
    )
    fix = (
        "use Python 3.11 (or the newest Python the package supports), or a release of the package that supports "
        "Python 3.12 (pip install setuptools restores a distutils shim for some)"
    )
    return [_candidate(text, m.start(), 0.7, cause, fix)]


# pip's resolver giving up when every version of a package conflicts only on a torch floor ("trl 0.2.1 depends on
# torch>=1.4.0", for each version, nothing else named): no torch at all installs here, so nothing that needs it does
_CONFLICT_CAUSED = re.compile(r"The conflict is caused by:\s*\n(?P<lines>(?:[ \t]*\S[^\n]*\n?)+)", re.IGNORECASE)
_DEPENDS_ON_TORCH_FLOOR = re.compile(
    r"^\s*[A-Za-z][\w.-]*\s+\S+\s+depends\s+on\s+torch(?:\s*>=?\s*[\w.]+)?\s*$", re.IGNORECASE
)


def _only_torch_floors(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_CONFLICT_CAUSED)
    if m is None:
        return []
    lines = [line for line in m.group("lines").splitlines() if line.strip()]
    lines = lines[: next((i for i, line in enumerate(lines) if not line[:1].isspace()), len(lines))] or lines
    if not lines or not all(_DEPENDS_ON_TORCH_FLOOR.match(line) for line in lines):
        return []
    py = python_seen(text.raw)
    cause = "pip finds no torch at all for this interpreter or platform, so no release of the package that needs it "
    cause += "installs" + (f" (Python {py})" if py else "")
    return [_candidate(text, m.start(), 0.7, cause, _fix(kb, None))]


# the linker passing over a libtorch built for another CPU ("skipping incompatible .../libtorch_cuda.so when searching
# for -ltorch_cuda"): the libtorch downloaded is an x86_64 one on an aarch64 machine (or the other way round)
# (Apple's linker: "ignoring file .../libtorch/lib/libc10.dylib, building for macOS-arm64 but attempting to link with
# file built for macOS-x86_64", a package manager's libtorch for Intel Macs on an Apple silicon one)
_SKIPPING_INCOMPATIBLE = re.compile(
    r"skipping\s+incompatible\s+\S*lib(?:torch|c10)\w*\.so\S*\s+when\s+searching\s+for\s+-l(?:torch|c10)|"
    r"ignoring\s+file\s+\S*lib(?:torch|c10)\w*\.dylib,?\s+building\s+for\s+macOS-(?P<mac>arm64|x86_64)\s+but\s+"
    r"attempting\s+to\s+link\s+with\s+file\s+built\s+for\s+macOS-(?:arm64|x86_64)",
    re.I,
)


# Poetry's solver on a dependency whose Python range excludes the project's ("tts requires Python >=3.9.0, <3.12, so it
# will not be satisfied for Python >=3.12,<3.13"): no release of it supports that Python
_POETRY_PYTHON_RANGE = re.compile(
    r"(?<![\w.-])(?P<pkg>[A-Za-z][\w.-]*)\s+(?:\([^)\n]*\)\s+)?requires\s+Python\s+(?P<range>[<>=!~][^\n]*?),?\s+so\s+it\s+will\s+"
    r"not\s+be\s+satisfied\s+for\s+Python\s+(?P<py>[<>=!~]*[\d.]+)",
    re.IGNORECASE,
)


def _poetry_python_range(text: Text) -> list[Candidate]:
    m = text.search(_POETRY_PYTHON_RANGE)
    if m is None:
        return []
    pkg, wanted = m.group("pkg"), m.group("range").strip().rstrip(",")
    cause = f"{pkg} supports Python {wanted} only; the project asks for Python {m.group('py').lstrip('<>=!~')}"
    fix = (
        f"use a Python inside {pkg}'s range (narrow the project's python constraint to it), or a release or fork "
        f"of {pkg} that supports the newer Python"
    )
    return [_candidate(text, m.start(), 0.85, cause, fix)]


# vLLM publishes Linux wheels only: its compiled ops missing on Windows ("No module named 'vllm._C'" and "Doesnt work
# on Windows") is no build for the platform, not a broken install
_VLLM_OPS_MISSING = re.compile(r"No\s+module\s+named\s+['\"`]?vllm\._C\b", re.IGNORECASE)


def _vllm_on_windows(text: Text) -> list[Candidate]:
    m = text.search(_VLLM_OPS_MISSING)
    if m is None or not (text.has(WINDOWS_NAMED) or text.has(WINDOWS_PROMPT)):
        return []
    cause = "vLLM publishes no Windows build: its compiled ops (vllm._C) do not exist there"
    fix = "run vLLM under WSL2 or in a Linux container (its docs list the platforms), or use another backend on Windows"
    return [_candidate(text, m.start(), 0.75, cause, fix)]


# conda finding no package for the machine's platform ("PackagesNotFoundError ... Current channels:
# https://conda.anaconda.org/pytorch/osx-arm64"): the channel builds it for other platforms only (a misspelt name or a
# missing channel says the same on linux-64, so the platform must show: a non-x86 subdir or the machine named)
# (conda before 4.6: "PackageNotFoundError: Packages missing in current channels")
_CONDA_NOT_FOUND = re.compile(
    r"ResolvePackageNotFound|PackagesNotFoundError|not\s+available\s+from\s+current\s+channels|"
    r"PackageNotFoundError:\s*Packages\s+missing\s+in\s+current\s+channels",
    re.IGNORECASE,
)
_CONDA_SUBDIR = re.compile(
    r"(?<![\w-])(?:osx-arm64|linux-aarch64|linux-ppc64le|linux-armv7l|win-arm64|win-32)(?![\w-])"
)


# the packages conda lists as missing ("  - cudatoolkit=11.1"): CUDA's own packages missing from the channels named
# are a channel or version the command got wrong (cudatoolkit 11.1 is on conda-forge, not on the nvidia channel), not
# a platform without builds
_CONDA_MISSING_SPEC = re.compile(r"^\s*-\s*(?P<name>[A-Za-z][\w.-]*)\s*(?:[=<>!~][^\s]*)?\s*$", re.MULTILINE)
# (the pytorch channel's old CUDA metapackages too: cuda80, cuda90, cuda92)
_CUDA_PACKAGE = re.compile(r"cudatoolkit|cuda(?:-[\w-]+|\d{2,3})?|pytorch-cuda|cudnn|nccl", re.IGNORECASE)


def _cuda_packages_only(text: Text, at: int) -> bool:
    listed = [m.group("name") for m in _CONDA_MISSING_SPEC.finditer(text.raw, at)][:8]
    return bool(listed) and all(_CUDA_PACKAGE.fullmatch(name) for name in listed)


def _conda_platform_missing(text: Text) -> list[Candidate]:
    m = text.search(_CONDA_NOT_FOUND)
    platform = text.search(_CONDA_SUBDIR) or text.search(WHEEL_POOR_PLATFORM)
    if m is None or platform is None or _cuda_packages_only(text, m.end()):
        return []
    cause = f"the conda channel has no build of the package for this platform ({platform.group(0)})"
    fix = (
        "check the package's platforms on its channel (conda search -c CHANNEL PACKAGE --subdir SUBDIR); use the "
        "channel that builds it for this platform (conda-forge builds osx-arm64 and linux-aarch64), pip's wheels, "
        "or a platform it supports"
    )
    return [_candidate(text, m.start(), 0.7, cause, fix)]


# opam (OCaml's package manager) refusing a package its platform condition excludes ("torch unmet availability
# conditions: os = \"linux\"", ocaml-torch on macOS): the package is not built for this platform
_OPAM_PLATFORM = re.compile(
    r"unmet\s+availability\s+conditions?\s*:?\s*['\"]?(?P<cond>(?:os|arch|os-distribution)\s*!?=\s*\"?[\w-]+\"?)", re.I
)


def _opam_platform_missing(text: Text) -> list[Candidate]:
    m = text.search(_OPAM_PLATFORM)
    if m is None:
        return []
    cause = f"the opam package's availability condition ({m.group('cond')}) leaves this machine out: no build for it"
    fix = (
        "use the platform the package supports, or a release of it whose opam file lists this one (opam show "
        "PACKAGE --field=available)"
    )
    return [_candidate(text, m.start(), 0.75, cause, fix)]


# macOS's loader refusing a compiled module built for another CPU ("mach-o file, but is an incompatible architecture
# (have 'x86_64', need 'arm64e')") or not a macOS binary at all ("(not a mach-o file)": a Linux .so): the wheel
# installed is not a build for this Mac
# an Intel Mac named ("Intel Macs", "macOS x86_64", "OSX64") with a torch release asked of pip that the KB says has no
# macOS x86_64 wheels (torch 2.3 on: "requires torch=2.5.1 but Intel Macs will not be able to install this"); conda
# named stays silent (conda-forge builds osx-64 later than PyPI)
_INTEL_MAC = re.compile(
    r"intel[- ]?(?:based\s+)?macs?(?:book)?\b|mac\s*os\s*(?:x\s*)?(?:\(?\s*)?(?:x86(?:[_-]64)?|intel)|"
    # ("any mac running on Intel CPU")
    r"(?<![A-Za-z])mac(?:book)?s?\s+(?:running\s+on|with)\s+(?:an?\s+)?intel(?![A-Za-z])|"
    r"(?<![\w-])x86[_-]64\s+mac|(?<![\w-])osx[-_ ]?64(?![\w])",
    re.IGNORECASE,
)
# (a floor may name the minor alone: "torch>=2.4"; so may a sentence: "will not be able to install torch 2.6")
_TORCH_ASKED = re.compile(
    r"(?<![\w-])(?:py)?torch\s*(?:(?:[=~<>!]=?=?)?\s*v?(?P<v>[12]\.\d{1,2}\.\d{1,2})|(?:>=?\s*)?v?(?P<minor>[12]\.\d{1,2}))"
    r"(?!\d|\.\d)",
    re.I,
)
_INSTALLING_WORDS = re.compile(
    r"install|(?<![A-Za-z])pip(?![A-Za-z])|(?<![A-Za-z])uv\s|poetry|wheel|requirements", re.I
)
_CONDA_NAMED = re.compile(r"(?<![A-Za-z])(?:conda|mamba|pixi)(?![A-Za-z])", re.IGNORECASE)


def _intel_mac_release(text: Text, kb: KB) -> list[Candidate]:
    intel = text.has(_INTEL_MAC)
    if not (intel or text.has(_MACOS)) or not text.has(_INSTALLING_WORDS) or text.has(_CONDA_NAMED):
        return []  # (no Mac named: the KB's releases are not read)
    served = [r.torch for r in kb.releases if (a := kb.availability_of(r, "macos-x86_64")) and a.variants]
    last = max(served) if served else None
    if last is None or not (intel or _mac_held_at(text, last)):
        return []
    m = next((m for m in _TORCH_ASKED.finditer(text.raw) if _no_intel_mac_wheels(kb, _asked(m))), None)
    if m is None:
        return []
    cause = (
        f"torch {_asked(m)} publishes no macOS x86_64 (Intel Mac) wheels: {last} is the last release built for "
        "Intel Macs"
    )
    fix = (
        f"on an Intel Mac use torch <= {last} (with its companions), or run on Apple silicon, Linux or Windows, where "
        "the newer releases are built"
    )
    return [_candidate(text, m.start(), 0.7, cause, fix)]


# macOS by name (not _MAC's wider "Mac": an "M1 Pro" line holding 2.2.2 is no Intel Mac)
_MACOS = re.compile(r"(?<![A-Za-z])(?:mac\s*os|osx)(?![A-Za-z])", re.IGNORECASE)


def _mac_held_at(text: Text, last: Version) -> bool:
    """macOS said to get the last Intel Mac release where other platforms get newer ("macOS vs. Linux/Windows install
    different versions of `torch` (2.2.2 vs. latest)"): the Macs are Intel ones."""
    held = re.compile(rf"(?<![\d.]){re.escape(str(last))}(?![\d]|\.\d)")
    return any(_MACOS.search(line) and held.search(line) for line in text.raw.splitlines())


def _asked(m: re.Match[str]) -> Version:
    """The torch release a pin or floor names ("torch>=2.4": 2.4.0)."""
    return Version(m.group("v") or f"{m.group('minor')}.0")


def _no_intel_mac_wheels(kb: KB, torch: Version) -> bool:
    known = kb.availability_of(torch, "macos-x86_64")
    return known is not None and not known.variants


# musl-based Linux (Alpine), named or recognised by its loader's own words ("Error relocating ...: symbol not found";
# glibc's says "undefined symbol"), where torch fails to load or install: torch's PyPI files (987 read on 2026-12-06,
# tests/test_explain_kinds_aq.py re-reads them) hold no musllinux wheel and no source distribution, and its manylinux
# wheels need glibc (pytorch#1618: "Error loading shared library ld-linux-x86-64.so.2")
_MUSL = re.compile(r"(?<![A-Za-z])(?:alpine|musl(?:linux)?)(?![A-Za-z])|Error\s+relocating\s+\S+:", re.IGNORECASE)
# (torch's own files failing to load, or pip finding no torch: not an HPC cluster named Alpine slow to solve)
_TORCH_FAILS_HERE = re.compile(
    r"(?:site|dist)-packages/torch/\S*\.so|(?:requirement|distribution\s+found\s+for)\s+torch(?![\w-])",
    re.IGNORECASE,
)


# ... or said so beside torch ("Some builds of pyro-vision requirements seems to not be available for alpine docker
# image (open-cv, torch)", pyro-engine#25; "Alpine linux used in addon-base ... doesn't support glibc and so torch is
# unsupported", hassio-addons/app-base#283)
_NOT_AVAILABLE = re.compile(
    r"not\s+(?:to\s+)?(?:be\s+)?available|no\s+(?:wheels?|builds?)\b|(?<![A-Za-z])(?:un|not\s+)supported(?![A-Za-z])",
    re.IGNORECASE,
)


def _unavailable_beside_torch(line: str) -> bool:
    return bool(_NOT_AVAILABLE.search(line) and TORCH_NAMED.search(line))


def _musl_linux(text: Text) -> list[Candidate]:
    musl = text.search(_MUSL)
    if musl is None:
        return []
    failing = text.search(_TORCH_FAILS_HERE)
    if failing is not None:
        at = min(musl.start(), failing.start())
    else:
        said = [m.start() for m in _MUSL.finditer(text.raw) if _unavailable_beside_torch(text.line(m.start()))]
        if not said:
            return []
        at = said[0]
    cause = (
        "torch publishes no wheels for musl-based Linux (Alpine): PyPI has no musllinux torch and no source to build, "
        "and the manylinux wheels need glibc"
    )
    fix = (
        "use a glibc-based image or system for torch (python:3.x-slim, Debian, Ubuntu), or build torch from source "
        "against musl"
    )
    return [_candidate(text, at, 0.75, cause, fix)]


_MACH_O = re.compile(
    r"mach-o\s+file,\s+but\s+is\s+an\s+incompatible\s+architecture|\(not\s+a\s+mach-o\s+file\)", re.IGNORECASE
)


def _macos_other_arch(text: Text) -> list[Candidate]:
    m = text.search(_MACH_O)
    if m is None:
        return []
    cause = "the compiled module is not a build for this Mac (another CPU architecture, or another OS's binary)"
    fix = (
        "install the package's macOS build for this CPU (arm64 on Apple silicon; python -c 'import platform; "
        "print(platform.machine())' shows it, and an x86_64 Python under Rosetta pulls x86_64 wheels), build it "
        "from source on this Mac, or run on a platform the package publishes builds for"
    )
    return [_candidate(text, m.start(), 0.75, cause, fix)]


def _libtorch_other_arch(text: Text) -> list[Candidate]:
    m = text.search(_SKIPPING_INCOMPATIBLE)
    if m is None:
        return []
    if m.group("mac"):
        cause = f"the libtorch the build links is for another Mac CPU than the one it builds for (macOS-{m['mac']})"
        fix = (
            "use a libtorch built for this Mac's CPU (on Apple silicon: the arm64 libtorch, or the pip torch's "
            "torch/lib with LIBTORCH/CMAKE_PREFIX_PATH pointing at it), not the package manager's x86_64 one"
        )
        return [_candidate(text, m.start(), 0.75, cause, fix)]
    cause = "the libtorch the build links is for another CPU architecture than this machine's (x86_64 vs aarch64)"
    fix = (
        "use a libtorch built for this machine's architecture (on aarch64: PyTorch's aarch64 wheels' torch/lib, or "
        "NVIDIA's JetPack build on a Jetson), not the x86_64 download"
    )
    return [_candidate(text, m.start(), 0.75, cause, fix)]


# torch.compile's inductor finding no triton ("Cannot find a working triton installation"), on Windows: triton
# publishes no Windows wheels (pytorch#136361: "expected, there is no Triton build for Windows yet")
_NO_WORKING_TRITON = re.compile(r"Cannot\s+find\s+a\s+working\s+triton\s+installation", re.IGNORECASE)


# ... or a program that imports it failing on Windows ("ModuleNotFoundError: No module named 'triton'", "It say's no
# module named Triton"); xFormers' warning that continues without it ("Error caught was: No module named 'triton'",
# "A matching Triton is not available") is no failure, and a submodule missing ("triton.common") is another triton
_NO_TRITON = re.compile(r"No\s+module\s+named\s+['\"`]?triton(?![\w.])['\"`]?", re.IGNORECASE)
_TRITON_WARNING = re.compile(r"(?:caught\s+was|(?<![A-Za-z])Error)\s*[:\uff1a]\s*$", re.IGNORECASE)
_MATCHING_TRITON = re.compile(r"A\s+matching\s+Triton\s+is\s+not\s+available", re.IGNORECASE)
# ... or said in words ("now requires triton, which not supported on Windows", "triton doesn't support Windows")
_TRITON_NOT_ON_WINDOWS = re.compile(
    r"(?<![\w-])triton(?![\w-])[^\n.]{0,40}?(?:not|n['\u2019]t)\s+(?:be\s+)?(?:supported|available)\s+(?:on|for|in|under)\s+"
    r"windows|(?<![\w-])triton(?![\w-])\s+(?:does\s*n['\u2019]?t|does\s+not|won['\u2019]?t)\s+support\s+windows",
    re.IGNORECASE,
)


def _triton_missing(text: Text) -> re.Match[str] | None:
    m = text.search(_NO_WORKING_TRITON) or text.search(_TRITON_NOT_ON_WINDOWS)
    if m is not None:
        return m
    m = text.search(_NO_TRITON)
    if m is None or text.has(_MATCHING_TRITON) or _TRITON_WARNING.search(text.raw[max(0, m.start() - 24) : m.start()]):
        return None
    return m


def _triton_on_windows(text: Text) -> list[Candidate]:
    m = _triton_missing(text)
    if m is None or not (text.has(WINDOWS_NAMED) or text.has(WINDOWS_PROMPT)):
        return []
    cause = (
        "the code needs triton (as torch.compile does), and triton publishes no Windows wheels: there is none to "
        "install here"
    )
    fix = (
        "on Windows use the community build (pip install triton-windows, matched to the torch release), run under "
        "WSL or Linux, or compile without inductor (torch.compile(backend='aot_eager'))"
    )
    return [_candidate(text, m.start(), 0.65, cause, fix)]


def _index_never_published(text: Text, kb: KB) -> bool:
    """A cuXXX index no release of the KB was built for, of a CUDA newer than the oldest release's variants (so an
    index the KB would list if it existed: cu120, cu122 and cu131 never did; cu115 predates the KB)."""
    found_labels = (m.group("label").lower() for m in _INDEX_LABEL.finditer(text.raw))
    labels = {label for label in found_labels if label.startswith("cu")}  # the CUDA indexes (not cpu, rocmX.Y)
    if not labels:
        return False
    known = {v for r in kb.releases for v in (*r.variants, *r.unadvertised_variants)}
    first = min(kb.releases, key=lambda r: r.torch)
    oldest = max(int(v[2:]) for v in first.variants if v.startswith("cu"))
    return any(label not in known and int(label[2:]) > oldest for label in labels)


# a find-links page passed as an index URL ("--extra-index-url https://download.pytorch.org/whl/torch_stable.html"):
# an index is a folder of project pages, so pip finds no project there and lists only the other indexes' releases
# (pytorch#86630); the PyTorch index's own folders (".../whl/cu111") are indexes
_PAGE_AS_INDEX = re.compile(r"(?:--(?:extra-)?index-url|(?<![\w-])-i)[\s=]+['\"`]?https?://\S+?\.html?(?![\w/])", re.I)


# pip finding nothing of an exact torch build ("torch==1.9.0+cu118 (from versions: none)")
_TORCH_BUILD_PINNED = re.compile(
    rf"{PIP_FINDS_NONE}torch==(?P<v>\d+\.\d+(?:\.\d+)?)\+(?P<label>cu\d{{3}})(?![\w.])", re.IGNORECASE
)


def _build_never_published(text: Text, kb: KB) -> bool:
    """An exact torch build that was never published: a release the KB knows without that CUDA variant, or one older
    than the KB's first release built for a variant the KB's oldest release lacks (torch 1.9.0+cu118: cu118 came
    with 2.0). pip finding none of it is the pin's fault, whatever the Python."""
    m = text.search(_TORCH_BUILD_PINNED)
    if m is None:
        return _release_without_the_index_variant(text, kb)
    label, version = m.group("label").lower(), Version(m.group("v"))
    release = kb.release(version)
    if release is not None:
        return not release.publishes(label)
    carrying = [r.torch for r in kb.releases if r.publishes(label)]
    oldest = min(kb.releases, key=lambda r: r.torch)
    return bool(carrying) and not oldest.publishes(label) and version < min(carrying)


# ... or a release pinned without its local version on one CUDA variant's index the release was never built for,
# pip listing what the index has for this interpreter ("pip install torch==2.7.0 ... --index-url
# https://download.pytorch.org/whl/test/cu124", "(from versions: 2.4.0+cu124, ..., 2.6.0+cu124)": 2.7.0 has no cu124
# build, Wan2GP#441); an empty list ("from versions: none") is the interpreter's, which the index has nothing for
_TORCH_RELEASE_PINNED = re.compile(
    rf"{PIP_FINDS_NONE}torch==(?P<v>\d+\.\d+\.\d+)(?![\w.+])[^\n(]*\(from versions:\s*(?!none\s*\))[^)\s]",
    re.IGNORECASE,
)


def _release_without_the_index_variant(text: Text, kb: KB) -> bool:
    pin, index = text.search(_TORCH_RELEASE_PINNED), text.search(_INDEX_LABEL)
    if pin is None or index is None or not index.group("label").lower().startswith("cu"):
        return False
    release = kb.release(Version(pin.group("v")))
    return release is not None and not release.publishes(index.group("label").lower())


# pip offering a CUDA library's wheel (nvidia-cudnn-cu11, nvidia-cublas-cu12, ...) as placeholders only: PyPI keeps an
# sdist stand-in (0.0.1.devN; dated versions on NVIDIA's index) under each name, and real wheels only for the
# platforms NVIDIA builds (Linux x86_64 at first; Windows and aarch64 later): no wheel for this platform
_CUDA_WHEEL_NONE = re.compile(
    rf"{PIP_FINDS_NONE}(?P<name>nvidia-[a-z-]+-cu1\d)\b(?P<spec>[^\s(]*)[^\n(]*\(from versions:\s*(?P<listed>[^)]*)\)",
    re.IGNORECASE,
)
_STAND_IN = re.compile(r"0\.0\.1(?:\.dev\d+)?|20\d\d\.\d{1,2}\.\d{1,2}")


def _cuda_wheel_placeholders(text: Text) -> list[Candidate]:
    m = text.search(_CUDA_WHEEL_NONE)
    if m is None:
        return []
    listed = [v.strip() for v in m.group("listed").split(",") if v.strip()]
    if not listed or not all(_STAND_IN.fullmatch(v) for v in listed):
        return []
    cause = (
        f"pip offers only placeholder versions of {m.group('name')}: NVIDIA publishes no wheel of it for this "
        "platform or interpreter"
    )
    fix = (
        f"{m.group('name')} wheels exist for Linux x86_64 (and, for later releases, Windows x64 and Linux aarch64): "
        "run on one of those, or take the torch build for this platform, which brings its own CUDA libraries "
        "(envplan matrix lists the platforms per release)"
    )
    return [_candidate(text, m.start(), 0.8, cause, fix)]


# a wheel renamed by hand ("x-1.0-py311-cp311-win_amd64.whl"): a py3XX interpreter tag with a cp3XX ABI tag is a
# combination no interpreter accepts, so pip refuses it wherever it runs: its name is the trouble, not the platform
RENAMED_WHEEL = re.compile(r"-py3\d+-cp3\d+t?-\w+\.whl", re.IGNORECASE)


# an installer's own range in its words ("Please install Python 3.10.0 or higher (maximum 3.11.100)"), and the
# interpreter the text states outside it
_INSTALLER_RANGE = re.compile(
    r"(?:install|requires?|needs?|supports?)\s+Python\s+(?P<lo>3\.\d+)(?:\.\d+)?\s+or\s+(?:higher|newer|later|above)\s*"
    r"\(?\s*(?:maximum|max\.?|up\s+to)\s*(?P<hi>3\.\d+)(?:\.\d+)?",
    re.IGNORECASE,
)


def _installer_range(text: Text) -> list[Candidate]:
    m = text.search(_INSTALLER_RANGE)
    have = python_seen(text.raw[: m.start()] + " " + text.raw[m.end() :]) if m else ""
    if m is None or not have:
        return []
    lo, hi, py = Version(m.group("lo")), Version(m.group("hi")), Version(have)
    if lo <= py <= hi:
        return []
    cause = f"the installer accepts Python {lo} to {hi} only, and this is Python {have}"
    fix = (
        f"install a Python in {lo}-{hi} and run the installer with it (a new environment: uv venv --python {hi} / "
        f"conda create python={hi})"
    )
    return [_candidate(text, m.start(), 0.8, cause, fix)]


def _own_check(text: Text) -> list[Candidate]:
    m = text.search(_OWN_CHECK)
    if m is None:
        return _installer_range(text)
    spec = re.sub(r"\s*(?:,|and)\s*", ",", m.group("spec").strip().rstrip(",")).replace(" ", "")
    try:
        allowed = SpecifierSet(spec)
    except InvalidSpecifier:
        return []
    if allowed.contains(m.group("have"), prereleases=True):
        return []  # the interpreter is in the range: the check failed for another reason
    cause = f"the package requires Python {allowed}, and this is Python {m.group('have')}"
    fix = (
        f"use a Python in {allowed} for it (a new environment: uv venv --python 3.X / conda create python=3.X), or "
        "a release (or maintained fork) of the package that supports this Python"
    )
    return [_candidate(text, m.start(), 0.85, cause, fix)]


# any wheel's file name in the text (the refused one, the same in pip's command line or in a download URL): its tags
# are the wheel's, never the interpreter's
WHEEL_NAME = re.compile(r"(?<![\w.+!-])[\w.+!-]+-cp3\d{1,2}t?-[\w.-]+\.whl", re.IGNORECASE)
# a platform tag a wheel can carry (PEP 425/600/656, macOS, Windows; "." joins a compressed set): anything else
# ("linux_x86_64whl", a name mangled by a rename) no installer accepts anywhere
_ARCH = (
    r"(?:x86_64|aarch64|i686|i386|armv6l|armv7l|ppc64le|ppc64|s390x|riscv64|loongarch64|arm64|universal2|intel|amd64)"
)
_PLATFORM_TAG = re.compile(
    rf"(?:any|win32|win_(?:amd64|arm64)|linux_{_ARCH}|manylinux(?:1|2010|2014|_\d+_\d+)_{_ARCH}|"
    rf"musllinux_\d+_\d+_{_ARCH}|macosx_\d+_\d+_{_ARCH})"
)


def _valid_platform_tag(wheel: str) -> bool:
    tags = wheel[: -len(".whl")].rsplit("-", 1)[-1]
    return all(_PLATFORM_TAG.fullmatch(t) for t in tags.split("."))


def _tagged_wheel(text: Text, kb: KB) -> list[Candidate]:
    """A wheel pip refuses whose cp tag is not the Python the text states elsewhere (not in any wheel's own name:
    two cp310 wheels refused, or the refused one in pip's command line, say nothing about the interpreter)."""
    m = text.search(_TAGGED_WHEEL)
    if m is None or RENAMED_WHEEL.search(m.group("wheel")) or not _valid_platform_tag(m.group("wheel")):
        return []  # a file renamed by hand: its name, not the interpreter, is the trouble
    py = python_seen(WHEEL_NAME.sub(" ", text.raw))
    built = f"3.{m.group('cp')[1:]}"
    if py == built:
        # the Python matches, unless the text names another interpreter too ("python 3.10.11" on the system, then
        # "python_embeded\python.exe -V is using Python 3.11.3", comfyui-reactor-node#29): pip ran one of them
        other = _other_python(text, built)
        if not other:
            return []  # the platform tag is another matter
        cause = f"{m.group('wheel')} is built for Python {built}; the text names Python {other} too, likely pip's"
        return [_candidate(text, m.start(), 0.7, cause, _fix(kb, None))]
    if not py:  # no Python stated: the wheel's tags are not this interpreter's or platform's, whichever it is
        cause = f"{m.group('wheel')} is built for Python {built} on its platform tag, which is not this interpreter's"
        return [_candidate(text, m.start(), 0.7, cause, _fix(kb, None))]
    cause = f"{m.group('wheel')} is built for Python {built}, and this is Python {py}"
    return [_candidate(text, m.start(), 0.8, cause, _fix(kb, None))]


def _other_python(text: Text, built: str) -> str:
    """The one Python 3 minor the text states outside wheel names that is not `built` ("" when none is, or several)."""
    minors = {minor for minor, _ in python_minors(WHEEL_NAME.sub(" ", text.raw))}
    others = sorted(minor for minor in minors if f"3.{minor}" != built)
    return f"3.{others[0]}" if len(others) == 1 else ""


def _torch_python_module(path: str) -> bool:
    """torch's own module bound to the interpreter: torch/_C, or libtorch_python.so named alone ("libtorch_python.so:
    undefined symbol: _PyThreadState_UncheckedGet" with Python 3.5.0, pytorch#24883)."""
    if TORCH_NAMED.search(path):
        return True
    return path.rsplit("/", 1)[-1].startswith("libtorch")


def _python_symbol(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_PY_SYMBOL)
    if m is None or not _torch_python_module(m.group("path")):
        return []
    if any("/libtorch/" in other.group("path").lower() for other in _PY_SYMBOL.finditer(text.raw)):
        return []  # a separate libtorch download's folder, shadowing pip's torch on the library path (pytorch#62650)
    module = m.group("path").rsplit("/", 1)[-1]
    cause = f"{module} was built for another Python build: this interpreter does not export {m.group('sym')}"
    return [_candidate(text, m.start(), 0.7, cause, _fix(kb, None))]


def _cause_from(m: re.Match[str], text: Text) -> str:
    if m.groupdict().get("have"):
        return f"the package requires Python {m.group('spec')}, and this is Python {m.group('have')}"
    py = m.groupdict().get("py") or python_seen(text.raw)
    return "the wheels for this Python do not exist" + (f" (Python {py})" if py else "")


_PYTORCH_INDEX = re.compile(r"download\.pytorch\.org/whl")
# local versions offered ("2.0.0+cpu, 2.0.0+cu117"): pip did look in PyTorch's index, whatever the text shows of it
_LOCAL_OFFERED = re.compile(r"\(from versions:[^)]*\d\+(?:cpu|cu\d{2,3}|rocm)", re.IGNORECASE)


# a pip command asking an exact torch next to the companion that pip then finds nothing of
_TORCH_ASKED_TOO = re.compile(r"pip3?\s+install\b[^\n]*?(?<![\w-])torch\s*={2,3}\s*\d", re.IGNORECASE)


def _no_version(m: re.Match[str], kb: KB, _pytorch_index: bool) -> tuple[float, Version | None] | None:
    """(score, the torch wanted) when the Python or the platform is the reason; None for another reason."""
    wanted = _wanted(m.group("spec"))
    listed = m.group("listed")
    # a local version no index publishes ("+cu11.0" for +cu110): the pin is misspelt, not the Python; or the same
    # command asks torch==X of the index too, and pip finds it: the interpreter gets wheels
    torch_found = bool(listed and _versions(listed) and _TORCH_ASKED_TOO.search(m.string))
    # the pin may name a release that never was ("torch==1.11.1"): no Python has it (an empty list, on this line or
    # pip's other, still says that this interpreter gets no release at all)
    empty = NOTHING_LISTED.search(m.string) is not None
    published = _judged(kb, m.group("name").lower(), m.group("spec"), wanted)
    never = not empty and published is not None and not _listed(wanted, published)
    if never or _misspelt_variant(m.group("spec")) or (m.group("name").lower() != "torch" and torch_found):
        return None
    if "+" in m.group("spec") and not _pytorch_index and (listed is None or _versions(listed)):
        return None  # a +cuXXX/+cpu local version asked of PyPI, which has none: the index URL is missing
    if listed is None:
        # the line alone: in the trackers, nearly always the interpreter; surely so where every index URL named is a
        # CUDA variant none of whose KB releases has wheels for the Python stated (cu124 and Python 3.14)
        return (0.85 if _variants_predate_python(m.string, kb) else 0.6), wanted
    versions = _versions(listed)
    if not versions:
        return 0.9, wanted  # "(from versions: none)": no torch at all for this interpreter/platform
    if wanted is None:
        return 0.6, None
    # a real release this Python/platform does not get; not a typo (no such release), nor a +cu113 build of a release
    # the interpreter does get (other +cu113 builds are listed: that combination was never built), nor a pre-release
    # pinned that pip's list never offers ("torch==1.0.0a0": not published there, whatever the Python)
    spec = m.group("spec")
    # (a release within its published list's range is one: one that never was returned above)
    real = published is not None or kb.release(wanted) is not None or wanted < min(r.torch for r in kb.releases)
    other = _variant_never_built(spec, wanted, versions, m.string) or _prerelease_pinned(spec, versions)
    return (0.85, wanted) if real and not other else None


def _judged(kb: KB, name: str, spec: str, wanted: Version | None) -> tuple[str, ...] | None:
    """The releases of the package published (published_releases.toml) when they tell of an exact pin's release: the
    pin's release is within the list's whole range (not below it, nor newer than its newest release); else None."""
    known = kb.published_releases.get(name)
    if known is None or wanted is None or not spec.lstrip().startswith("=="):
        return None
    whole_from, releases = known
    return releases if Version(whole_from) <= wanted <= Version(releases[-1]) else None


def _listed(wanted: Version | None, releases: tuple[str, ...]) -> bool:
    """The release is among those published (a post release by its release number: 1.0.1.post2 is 1.0.1)."""
    return wanted in {Version(Version(r).base_version) for r in releases}


def _misspelt_variant(spec: str) -> bool:
    """The pin's local version is none torch's indexes publish ("==1.7.1+cu11.0": the variants are cu118, cpu,
    rocm6.2, xpu); quotes or punctuation pasted after it are not part of it."""
    local = spec.partition("+")[2].rstrip("`'\"\u201c\u201d.,;:)")
    return bool(local) and parse_variant(local.lower()) is None


def _variants_predate_python(raw: str, kb: KB) -> bool:
    """Every PyTorch index the text names is a CUDA variant whose KB releases all stop below the Python stated (the
    nightly indexes serve releases the KB does not have yet)."""
    found = (m for m in _INDEX_LABEL.finditer(raw) if "nightly" not in m.group(0).lower())
    variants = {label for m in found if (label := m.group("label").lower()).startswith("cu")}
    minors = python_minors(raw)
    if not variants or len({minor for minor, _ in minors}) != 1:
        return False
    python = Version(f"3.{minors[0][0]}")
    serving = [r for r in kb.releases if any(r.publishes(v) for v in variants)]
    return bool(serving) and all(r.python_max < python for r in serving)


def _prerelease_pinned(spec: str, versions: list[str]) -> bool:
    """An alpha, beta or release candidate pinned (not a nightly's .devN, which the nightly index publishes), and no
    pre-release offered: a version PyPI never had ("torch==1.0.0a0", a source build's), whatever the Python."""
    pin = re.fullmatch(r"==\s*([\w.!]+)", spec.split("+", maxsplit=1)[0].strip())
    try:
        return (
            pin is not None
            and Version(pin.group(1)).pre is not None
            and not any(Version(v).is_prerelease for v in versions)
        )
    except InvalidVersion:
        return False


def _variant_never_built(spec: str, wanted: Version, versions: list[str], raw: str) -> bool:
    """A local build pinned ("torch===1.4.0+cu100") of a release pip offers this interpreter, PyTorch's local builds
    among its offers ("1.3.1+cpu, 1.3.1+cu92, ..., 1.4.0"), or whose sibling build the text says works ("however
    `torch==1.8.0+cu101` works ok"): the variant is the one missing (never built, or gone from the index), not a wheel
    for the interpreter."""
    label = spec.partition("+")[2].rstrip("`'\"\u201c\u201d.,;:)")
    if not label:
        return False
    # (PyTorch's local builds offered at all: a Mac or a Jetson is offered PyPI's plain release alone, no CUDA build)
    if any("+" in v for v in versions) and any(_release_of(v) == wanted for v in versions):
        return True
    sibling = re.compile(
        rf"torch\s*={{2,3}}\s*{re.escape(str(wanted))}\+(?!{re.escape(label)}(?![\w.]))[\w.]+`?\s+(?:works|worked|installs)",
        re.IGNORECASE,
    )
    return sibling.search(raw) is not None


def _wanted(spec: str) -> Version | None:
    """The release asked: the lower bound of a range ("<3.0.0,>=2.3.0": 2.3.0), else the first version named."""
    plain = spec.split("+", maxsplit=1)[0]
    floor = re.search(r"(?:==|~=|>=?)\s*(\d+\.\d+(?:\.\d+)?)", plain)
    m = floor or re.search(r"(\d+\.\d+(?:\.\d+)?)", plain)
    if m is None:
        return None
    version = Version(m.group(1))
    return Version(f"{version.base_version}.0") if len(version.release) == 2 else version


def _release_of(listed: str) -> Version:
    version = Version(listed.split("+", maxsplit=1)[0])
    return Version(f"{version.base_version}.0") if len(version.release) == 2 else Version(version.base_version)


def _versions(listed: str) -> list[str]:
    out = []
    for raw in listed.split(","):
        item = raw.strip()
        if item and item.lower() != "none":
            try:
                Version(item)
            except InvalidVersion:
                continue
            out.append(item)
    return out


def _fix(kb: KB, wanted: Version | None) -> str:
    release = kb.release(wanted) if wanted else None
    if release is not None:
        return (
            f"torch {release.torch} publishes wheels for CPython {release.python_min}-{release.python_max} "
            "(64-bit; Linux x86_64/aarch64, Windows x64, macOS arm64): use one of those, or a torch release "
            "that supports this Python (envplan matrix)"
        )
    newest = _newest_python(kb, wanted)
    if newest:
        return (
            f"torch {wanted}'s newest wheels are for CPython {newest} (64-bit; PyPI's files): use Python {newest} "
            "or an older one it has wheels for, or a torch release for this Python (envplan matrix)"
        )
    return (
        "use a 64-bit CPython that torch publishes wheels for (envplan matrix lists the range per release; "
        "envplan doctor shows this interpreter), or a torch release for this Python and platform"
    )


def _candidate(text: Text, at: int, score: float, cause: str, fix: str) -> Candidate:
    return found("python-unsupported", text, at, score, cause=cause, fix=fix)
