"""torchvision / torchaudio that are not the builds made for the installed torch: pip's conflict lines, torchvision
operators that do not exist or do not run on the device torch runs on, torchaudio libraries that do not load, or a
torch and a companion version the text states that the KB never paired, with the failure raised in the companion."""

from __future__ import annotations

import re

from packaging.version import Version

from envplan.kb import KB
from envplan.kb.model import minor_of

from .facts import BUILT_FOR_TORCH, TORCHVISION_IMAGE_EXTENSION, torch_seen
from .fixes import companions_fix
from .model import Candidate, found
from .text import Text, phrase

__all__ = ["companion_mismatch"]

_PIP_CONFLICT = re.compile(
    r"(?P<pkg>torchvision|torchaudio|torchtext)\s+(?P<pv>[\w.+]+)\s+(?:requires|has requirement)\s+"
    r"torch\s*==\s*(?P<want>[\w.+]+),?\s+but you(?:'ll)? have torch\s+(?P<have>[\w.+]+)",
    re.IGNORECASE,
)
# ... or retold, the installed torch said elsewhere ("默认安装torch最新2.1.1, 但是torchvision 0.13.0 requires
# torch==1.12.0")
_REQUIRES_TORCH = re.compile(
    r"(?P<pkg>torchvision|torchaudio|torchtext)\s+(?P<pv>\d[\w.+]*)\s+(?:requires|has requirement)\s+"
    r"torch\s*==\s*(?P<want>\d[\w.+]*)",
    re.IGNORECASE,
)
# PyPI's 0.1.2 stand-in under the name torch is no torch at all: pip found none for this interpreter (install rule)
_PLACEHOLDER = re.compile(r"0\.1\.2(?:\.post\d)?$")
# a torchvision operator the installed torch cannot find, or finds only for another device (a CPU torchvision next to
# a CUDA torch registers its kernels for CPU only)
_OPS = re.compile(
    # (a title may lose a colon: "torchvision:nms does not exist")
    r"(?:operator\s*)?torchvision::?\w+\s*does\s*not\s*exist|No such operator torchvision::|"
    # (retold: "Could not find the operator torchvision::nms")
    r"(?:Could\s*not|can(?:'|\u2019)?t|cannot)\s*find\s*(?:the\s*)?operator\s*torchvision::\w+|"
    r"Could not run\s*'?torchvision::\w+'?(?:\s*with arguments from the\s*'?\w+'?\s*backend|\s*$)|"
    r"Couldn(?:'|\u2019)?t load custom C\+\+ ops|def meta_nms\(|"
    r"your PyTorch and torchvision versions are incompatible|"
    # the operator's absence retold on a line naming torchvision ("I got no operator nms Exception when calling
    # torchvision.nms")
    r"(?<![\w-])no\s+operator\s+nms\b[^\n]*torchvision|torchvision[^\n]*(?<![\w-])no\s+operator\s+nms\b",
    re.IGNORECASE | re.MULTILINE,
)
# a companion's own check of the CUDA it and torch were built with (torchvision: "compiled with different CUDA")
# (a terminal wraps it anywhere: every space may be a line break)
_OWN_CHECK = re.compile(
    r"Detected\s+that\s+PyTorch\s+and\s+(?P<pkg>torchvision|torchaudio|torch_\w+)\s+were\s+compiled\s+with\s+different\s+"
    r"CUDA\s+"
    r"(?:major\s+)?versions(?:\.?\s*PyTorch\s+has\s+CUDA\s+Version\s*=\s*(?P<torch>[\d.]+)\s+and\s+\w+\s+has\s+CUDA\s+"
    r"Version\s*=\s*(?P<own>[\d.]+))?",
    re.IGNORECASE,
)
# ... its second sentence alone, the first cut off the paste ("PyTorch has CUDA Version=11.7 and torchvision has CUDA
# Version=11.8.")
_OWN_CHECK_VERSIONS = re.compile(
    r"PyTorch\s+has\s+CUDA\s+Version\s*=\s*(?P<torch>\d+(?:\.\d+)*)\s+and\s+(?P<pkg>torchvision|torchaudio)\s+has\s+"
    r"CUDA\s+Version\s*=\s*(?P<own>\d+(?:\.\d+)*)",
    re.IGNORECASE,
)
# the resolver's form of the conflict: "torchaudio 0.9.0 depends on torch==1.9.0" next to another torch requested
_DEPENDS = re.compile(
    r"(?P<pkg>torchvision|torchaudio|torchtext)\s*(?:==\s*)?(?P<pv>[\w.+]+)\s+depends on "
    r"torch\s*==\s*(?P<want>[\w.+]+)",
    re.IGNORECASE,
)
_REQUESTED = re.compile(r"requested torch\s*==\s*(?P<have>[\w.+]+)", re.IGNORECASE)
# setuptools' form (pkg_resources' VersionConflict, a setup.py build checking what is installed): "error: torch 1.4.0 is
# installed but torch==1.3.1 is required by {'torchvision'}" (the space may be lost: "torch1.4.0")
_SETUPTOOLS_CONFLICT = re.compile(
    r"(?<![\w-])torch\s*(?P<have>\d[\w.+]*)\s+is\s+installed\s+but\s+torch\s*==\s*(?P<want>\d[\w.+]*)\s+is\s+"
    r"required\s+by\s+[{\['\"]*(?P<pkg>torchvision|torchaudio|torchtext)(?![\w-])",
    re.IGNORECASE,
)
# conda's classic solver on a companion pinned next to another pytorch ("torchvision=0.2.1 -> pytorch[version='>=0.4']"
# under "pytorch=0.3.1"): the pair was never built together
_CONDA_PAIR = re.compile(
    r"(?P<pkg>torchvision|torchaudio)(?:[=\s][\w.*=]+)?\s*->\s*pytorch\[version\s*=\s*['\"]?(?P<want>[^'\"\]\n]+)", re.I
)
# torchvision's own kernels refusing a CUDA tensor ("RuntimeError: Not compiled with CUDA support", raised from its
# nms/roi_align): a torchvision built without CUDA next to a CUDA torch; the companion must be named
_NOT_COMPILED_CUDA = re.compile(r"(?<![\w-])Not\s+compiled\s+with\s+CUDA\s+support", re.IGNORECASE)
_TORCHVISION_OP = re.compile(r"torchvision(?:::|/ops|\.ops|\s+nms)|(?<![\w])nms\b", re.IGNORECASE)
_HIP_LIB = phrase("libtorch_hip.so: cannot open shared object file")
_AUDIO_SO = re.compile(r"torchaudio/(?:lib/)?(?:lib)?_?torchaudio\w*\.so\S*:")
# torch.ops.load_library's words for a companion's operator library that does not load ("OSError: Could not load
# this library: .../torchaudio/lib/libtorchaudio.so"): the library is not the build for the torch that loads it
# (Windows: "[WinError 127] The specified procedure could not be found. Error loading ...\torchaudio\lib\
# libtorchaudio.pyd": a function of torch it imports is not in the installed torch)
_LOAD_LIBRARY = re.compile(
    r"Could\s*not\s*load\s*this\s*library\s*:?\s*\S*?[/\\](?P<pkg>torchaudio|torchvision)[/\\]\S*\.(?:so|dll|dylib|pyd)|"
    r"(?:WinError\s*127\]?|specified\s*procedure\s*could\s*not\s*be\s*found)[^\n]*?Error\s*loading\s*[\"']?[^\"'\n]*?"
    r"[/\\](?P<win>torchaudio|torchvision)[/\\][^\"'\n]*?\.(?:pyd|dll)",
    re.I,
)
# a plain C symbol of torch's op registry missing when torchaudio/torchvision loads (macOS: "Symbol not found: _x")
_C_SYMBOL = re.compile(r"(?:undefined\s*symbol|Symbol not found)\s*:?\s*(?P<sym>_?torch_\w+)", re.IGNORECASE)
_COMPANION_NAMED = re.compile(r"torchaudio|torchvision", re.IGNORECASE)
# a companion's version as stated ("torchvision=0.16", "torchvision 0.15.2", "[pip3] torchaudio==2.1.0+cu121")
_STATED = re.compile(
    r"(?<![\w-])(?P<pkg>torchvision|torchaudio)(?:\s+version)?(?:[\s:=]*(?:==)?\s*|-)(?P<v>\d+\.\d+)(?:\.\d+)?(?!\d|\.\d)",
    re.IGNORECASE,
)
# a part of torch that only newer releases have, missing ("No module named 'torch._dynamo'": torch < 2.0; torch.fx
# arrived in 1.8, and torchvision's feature extraction imports it): next to a companion, the companion is a release made
# for a newer torch
_NEWER_TORCH_API = re.compile(
    r"No\s+module\s+named\s+['\"`]?(?P<api>torch\.(?:_dynamo|compiler|_inductor|_custom_ops|_higher_order_ops|fx)\b)|"
    r"module\s+['\"`]?torch(?:\.library)?['\"`]?\s+has\s+no\s+attribute\s+['\"`]?"
    r"(?P<api2>compile|wrap_triton|custom_op|register_fake|_dynamo)\b",
)
# a traceback frame in the companion's own files: the failure happens while it loads or runs
_FRAME = re.compile(r"[/\\](?P<pkg>torchvision|torchaudio)[/\\][\w/\\.]*\.py\"?,? line \d+", re.IGNORECASE)


def companion_mismatch(text: Text, kb: KB) -> list[Candidate]:
    out = []
    m = text.search(_PIP_CONFLICT)
    if m and not _PLACEHOLDER.match(m.group("have")):
        cause = f"{m.group('pkg')} {m.group('pv')} is built for torch {m.group('want')}, not {m.group('have')}"
        out.append(_companion(text, m.start(), cause, companions_fix(kb, m.group("have")), 0.92))
    else:
        out += _requirement_retold(text, kb)
    out += _checks(text, kb)
    out += _stated_pair(text, kb) or _listed_pair(text, kb) or _installed_pair(text, kb) or _variant_split(text, kb)
    m = text.search(_OPS)
    if m:
        cause = (
            "torchvision's compiled operators are not the build for the installed torch (another version, or a "
            "CPU torchvision next to a CUDA torch)"
        )
        out.append(_companion(text, m.start(), cause, companions_fix(kb, None), 0.9))
    m = text.search(_NOT_COMPILED_CUDA)
    if m and text.has(_TORCHVISION_OP) and "torchvision" in text.raw.lower():
        cause = "torchvision was built without CUDA (its ops refuse CUDA tensors) while torch runs on CUDA"
        out.append(_companion(text, m.start(), cause, companions_fix(kb, None), 0.85))
    loaded = text.search(_LOAD_LIBRARY)
    if loaded:
        pkg = loaded.group("pkg") or loaded.group("win")
        cause = f"{pkg}'s operator library is not the build of the installed torch (another version or variant)"
        out.append(_companion(text, loaded.start(), cause, companions_fix(kb, None), 0.8))
    m = text.search(_HIP_LIB) or text.search(_AUDIO_SO)
    if m and not loaded and "torchaudio" in text.raw:
        cause = "torchaudio is not the build of the installed torch (another version or variant)"
        out.append(_companion(text, m.start(), cause, companions_fix(kb, None), 0.75))
    m = text.search(_NEWER_TORCH_API)
    if m and text.has(_COMPANION_NAMED) and not _pair_released(text, kb):
        lib = "torchaudio" if "torchaudio" in text.raw.lower() else "torchvision"
        api = m.group("api") or f"torch.{m.group('api2')}"
        cause = f"{lib} is a newer release than the installed torch: it uses {api}, which that torch lacks"
        out.append(_companion(text, m.start(), cause, companions_fix(kb, None), 0.7))
    out += _newer_code_reaches_missing_part(text, kb)
    m = text.search(_C_SYMBOL)
    if m and text.has(_COMPANION_NAMED):
        lib = "torchaudio" if "torchaudio" in text.raw.lower() else "torchvision"
        cause = f"{lib} was built for another torch: torch's {m.group('sym').lstrip('_')} is missing when it loads"
        out.append(_companion(text, m.start(), cause, companions_fix(kb, None), 0.8))
    return out or _image_extension(text, kb)


# torch.hub fetching a companion's code from its repository ("torch.hub.load('pytorch/vision', 'googlenet')": the main
# branch unless a tag is given) and that code reaching for a part of torch the installed release lacks ("module
# 'torch.jit' has no attribute 'unused'", vision#1383): the fetched torchvision is newer than the torch
_HUB_COMPANION = re.compile(r"hub\.load\(\s*['\"]pytorch/(?P<pkg>vision|audio)(?::[\w.-]+)?['\"]", re.IGNORECASE)
_TORCH_ATTRIBUTE_MISSING = re.compile(
    r"module\s+['\"`]torch(?:\.\w+)*['\"`]\s+has\s+no\s+attribute|cannot\s+import\s+name\s+\S+\s+from\s+['\"`]torch\b"
)


def _newer_code_reaches_missing_part(text: Text, kb: KB) -> list[Candidate]:
    """The companion's code reaching for a part of torch the installed release lacks: fetched by torch.hub, or
    imported just before the failure."""
    missing = text.search(_TORCH_ATTRIBUTE_MISSING)
    if missing is None:
        return []
    return _hub_code_newer(text, kb, missing) or _import_reaches_missing_part(text, kb, missing)


def _hub_code_newer(text: Text, kb: KB, missing: re.Match[str]) -> list[Candidate]:
    hub = text.search(_HUB_COMPANION)
    if hub is None:
        return []
    pkg = f"torch{hub.group('pkg')}"
    cause = (
        f"torch.hub fetched {pkg}'s code from its repository (the main branch unless a tag is named), a newer {pkg} "
        "than the installed torch supports: it uses a part of torch that release lacks"
    )
    fix = (
        f"load it from the {pkg} release made for the installed torch (torch.hub.load('pytorch/{hub.group('pkg')}:"
        f"v<release>', ...)) or use the installed {pkg}'s models; {companions_fix(kb, None)}"
    )
    return [_companion(text, missing.start(), cause, fix, 0.75)]


# importing the companion is what fails on a part of torch ("from torchvision import models", then "module 'torch.jit'
# has no attribute '_script_if_tracing'", vision#2461): the failure follows the import, no other code's frame between
# (or the companion's own frame): the companion is newer than the torch
_COMPANION_IMPORT = re.compile(
    r"from\s+(?P<a>torchvision|torchaudio)(?:\.\w+)*\s+import\b|(?<![\w.])import\s+(?P<b>torchvision|torchaudio)\b"
)
_OTHER_FRAME = re.compile(r"File\s+\"")


def _import_reaches_missing_part(text: Text, kb: KB, missing: re.Match[str]) -> list[Candidate]:
    imports = list(_COMPANION_IMPORT.finditer(text.raw[: missing.start()]))
    if not imports:
        return []
    between = text.raw[imports[-1].end() : missing.start()]
    if len(between) > 200 or (_OTHER_FRAME.search(between) and not _FRAME.search(between)):
        return []
    pkg = imports[-1].group("a") or imports[-1].group("b")
    cause = f"importing {pkg} reaches for a part of torch the installed torch lacks: {pkg} is a newer release than it"
    return [_companion(text, missing.start(), cause, companions_fix(kb, None), 0.7)]


# torchvision's warning that its image library did not load, its reason not pasted ("Failed to load Image Extension",
# torchvision/io/image.py): the pip wheels bundle libjpeg and libpng, so the reason left is a torchvision built for
# another torch (the corpus settles every such report so); a libjpeg/libpng that cannot be opened is another matter
_IMAGE_LIBRARY_MISSING = re.compile(r"lib(?:jpeg|png)[\w.-]*\.(?:so|dll|dylib)\S*\s*:\s*cannot\s*open", re.I)
# the extension's own file absent from the wheel installed ("aarch64 linux wheel file does not have image.so",
# "`image.so` file is missing"): a wheel packaged without it (vision#7104), not a build for another torch
_IMAGE_FILE_ABSENT = re.compile(
    r"image\.(?:so|pyd)[`'\"]?\s+(?:file\s+)?(?:is\s+)?missing|"
    r"(?:does\s*n['\u2019]?t|does\s+not|do\s+not)\s+(?:have|contain|include|ship)\s+[`'\"]?image\.(?:so|pyd)",
    re.IGNORECASE,
)


def _image_extension(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(TORCHVISION_IMAGE_EXTENSION)
    if m is None or text.has(_IMAGE_LIBRARY_MISSING) or text.has(_IMAGE_FILE_ABSENT):
        return []
    cause = (
        "torchvision's image extension does not load: most often a torchvision built for another torch release "
        "(its pip wheels bundle libjpeg and libpng)"
    )
    return [_companion(text, m.start(), cause, companions_fix(kb, None), 0.55)]


def _requirement_retold(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_REQUIRES_TORCH)
    if m is None:
        return []
    want = m.group("want").split("+")[0]
    torch = next((t for t in _TORCH_SAID.finditer(text.raw) if t.group("v").split("+")[0] != want), None)
    if torch is None:
        return []
    have = torch.group("v")
    cause = f"{m.group('pkg')} {m.group('pv')} is built for torch {want}, and torch {have} is installed"
    return [_companion(text, m.start(), cause, companions_fix(kb, have), 0.75)]


_TORCH_SAID = re.compile(
    r"(?<![A-Za-z0-9_-])(?:py)?torch\s*(?:最新|版本|version)?\s*v?(?P<v>[12]\.\d{1,2}\.\d{1,2}(?:\+\w+)?)", re.I
)


def _checks(text: Text, kb: KB) -> list[Candidate]:
    out = []
    m = text.search(_OWN_CHECK)
    if m:
        both = f" (torch: CUDA {m.group('torch')}, {m.group('pkg')}: CUDA {m.group('own')})" if m.group("own") else ""
        cause = f"{m.group('pkg')} is a build for another CUDA than the installed torch{both}"
        if m.group("pkg").lower().startswith("torch_"):  # PyG's extensions run the same check: an extension's build
            out.append(_extension_check(text, m.start(), cause, m.group("pkg")))
        else:
            out.append(_companion(text, m.start(), cause, companions_fix(kb, None), 0.92))
    m = text.search(_OWN_CHECK_VERSIONS) if m is None else None
    if m and m.group("torch") != m.group("own"):
        cause = (
            f"{m.group('pkg')} is a build for CUDA {m.group('own')}, the installed torch for CUDA {m.group('torch')}"
        )
        out.append(_companion(text, m.start(), cause, companions_fix(kb, None), 0.9))
    m = text.search(_CONDA_PAIR)
    if m:
        cause = f"{m.group('pkg')} there needs pytorch {m.group('want')}, not the pytorch the environment pins"
        out.append(_companion(text, m.start(), cause, companions_fix(kb, None), 0.85))
    m = text.search(_SETUPTOOLS_CONFLICT)
    if m and m.group("have") != m.group("want"):
        cause = f"{m.group('pkg')} is built for torch {m.group('want')}, and torch {m.group('have')} is installed"
        out.append(_companion(text, m.start(), cause, companions_fix(kb, m.group("have")), 0.85))
    m = text.search(_DEPENDS)
    requested = text.search(_REQUESTED)
    if m and requested and requested.group("have") != m.group("want"):
        have = requested.group("have")
        cause = f"{m.group('pkg')} {m.group('pv')} is built for torch {m.group('want')}, not the torch {have} asked for"
        out.append(_companion(text, m.start(), cause, companions_fix(kb, have), 0.85))
    return out


# the pair said not to go together ("These two versions are incompatible with each other", "no longer installable
# side-by-side")
_SAID_INCOMPATIBLE = re.compile(
    r"(?<![A-Za-z])(?:incompatible|not\s+compatible|mismatch(?:ed)?|do(?:es)?\s*n[o']?t\s+match)(?![A-Za-z])|不匹配|不兼容|"
    r"(?:not|no\s+longer)\s+(?:be\s+)?installable\s+(?:side[- ]by[- ]side|together)|"
    # the companion said built for another torch, or to break on this one ("That torchaudio's extension is built
    # against torch 2.11 and breaks on 2.8")
    rf"{BUILT_FOR_TORCH.pattern}|(?<![A-Za-z])break(?:s|ing)?\s+(?:on|with)\s",
    re.IGNORECASE,
)
# torch and a companion named together, their versions listed after them in the same order ("the two selected versions
# of torch and torchvision (1.8.0 and 0.8.2)", "torch/torchvision 1.8.0/0.8.2")
_LISTED_PAIR = re.compile(
    r"(?<![\w-])(?:py)?torch\s*(?:and|&|/|,)\s*(?P<pkg>torchvision|torchaudio)\W{0,4}(?:versions?\W{0,3})?"
    r"v?(?P<torch>\d+\.\d+(?:\.\d+)?)\s*(?:and|&|/|,)\s*v?(?P<v>\d+\.\d+)(?:\.\d+)?(?!\d|\.\d)",
    re.IGNORECASE,
)


def _listed_pair(text: Text, kb: KB) -> list[Candidate]:
    """torch and a companion listed with their versions, said not to go together, where the KB never released them
    together (torch 1.8.0 came with torchvision 0.9, not 0.8.2)."""
    m = text.search(_LISTED_PAIR)
    if m is None or not text.has(_SAID_INCOMPATIBLE):
        return []
    paired = kb.companion_minors(Version(m.group("torch")), m.group("pkg").lower())
    if not paired or Version(m.group("v")) in paired:
        return []
    return [_not_its_build(text, kb, m, m.group("torch"), paired=paired, score=0.7)]


# pip's own line installing torch and a companion together ("Successfully installed torch-1.13.1 torchaudio-2.0.0")
_INSTALLED = re.compile(r"Successfully\s+installed\s+[^\n]+", re.IGNORECASE)
_INSTALLED_TORCH = re.compile(r"(?<![\w-])torch-(?P<v>\d+\.\d+(?:\.\d+)?)(?![\w.])")
_INSTALLED_COMPANION = re.compile(r"(?<![\w-])(?P<pkg>torchvision|torchaudio)-(?P<v>\d+\.\d+(?:\.\d+)?)(?![\w.])")


def _installed_pair(text: Text, kb: KB) -> list[Candidate]:
    """pip installing torch and a companion in one go at releases the KB never paired (ludwig#3245: torchaudio 2.0.0
    resolved next to a pinned torch 1.13.1): the pair it left is not one build."""
    for line in _INSTALLED.finditer(text.raw):
        torch = _INSTALLED_TORCH.search(line.group(0))
        if torch is None:
            continue
        for m in _INSTALLED_COMPANION.finditer(line.group(0)):
            paired = kb.companion_minors(Version(torch.group("v")), m.group("pkg"))
            if paired and minor_of(Version(m.group("v"))) not in paired:
                return [_not_its_build(text, kb, m, torch.group("v"), paired=paired, score=0.75, at=line.start())]
    return []


def _not_its_build(
    text: Text, kb: KB, m: re.Match[str], torch: str, *, paired: set[Version], score: float, at: int | None = None
) -> Candidate:
    """The companion release `m` states (its "pkg" and "v") is none of those the KB pairs with this torch."""
    pkg, want = m.group("pkg").lower(), ", ".join(sorted(str(v) for v in paired))
    cause = f"{pkg} {m.group('v')} is not the build for torch {torch} (its {pkg}: {want})"
    return _companion(text, m.start() if at is None else at, cause, companions_fix(kb, torch), score)


def _stated_pair(text: Text, kb: KB) -> list[Candidate]:
    """torch and a companion whose stated versions the KB never released together, failing in the companion."""
    torch = torch_seen(text.raw)
    if torch is None:
        return []
    framed = {m.group("pkg").lower() for m in _FRAME.finditer(text.raw)}
    said = text.has(_SAID_INCOMPATIBLE)
    for m in _STATED.finditer(text.raw):
        pkg = m.group("pkg").lower()
        paired = kb.companion_minors(torch.version, pkg)
        if not paired or (pkg not in framed and not said):
            continue
        if Version(m.group("v")) not in paired:
            return [_not_its_build(text, kb, m, torch.text, paired=paired, score=0.75)]
    return []


def _pair_released(text: Text, kb: KB) -> bool:
    """The text states torch and a companion at versions the KB released together: the pair is not the trouble."""
    torch = torch_seen(text.raw)
    stated = list(_STATED.finditer(text.raw))
    if torch is None or not stated:
        return False
    paired = [(m, kb.companion_minors(torch.version, m.group("pkg").lower())) for m in stated]
    return all(p and Version(m.group("v")) in p for m, p in paired)


# pip installing a companion's plain PyPI build ("Downloading torchaudio-0.10.0-cp37-...whl", "Successfully installed
# torchaudio-0.10.0"), and that companion then failing to load
_PLAIN_COMPANION = re.compile(
    r"(?:Downloading|Successfully\s+installed)\s+(?:[^\n]*?\s)?(?P<pkg>torchvision|torchaudio)-(?P<v>\d+\.\d+(?:\.\d+)?)"
    r"(?![\w.+])",
    re.IGNORECASE,
)
_IMPORT_FAILS = re.compile(r"OSError|ImportError|undefined\s*symbol|cannot\s*open\s*shared", re.IGNORECASE)


def _variant_split(text: Text, kb: KB) -> list[Candidate]:
    """torch from PyTorch's index for one CUDA (+cuXXX), its companion from PyPI, which is the build for another
    (PyPI's default CUDA), and the companion failing to load."""
    torch = torch_seen(text.raw)
    m = text.search(_PLAIN_COMPANION)
    if torch is None or m is None or not text.has(_IMPORT_FAILS):
        return []
    variant = torch.variant or _local_tag(text, torch.version)
    if not variant.startswith("cu"):
        return []
    pkg = m.group("pkg").lower()
    if not re.search(rf"(?:import|from)\s+{pkg}\b", text.raw):
        return []
    release = kb.release(Version(torch.version.base_version))
    if release is not None and release.pypi_default == variant:
        return []  # PyPI's companion is the same CUDA build: the variant is not what differs
    cause = (
        f"{pkg} {m.group('v')} came from PyPI, the build for PyPI's default CUDA, next to torch "
        f"{torch.version}+{variant} from the {variant} index: the pair is not one build"
    )
    return [_companion(text, m.start(), cause, companions_fix(kb, f"{torch.version}+{variant}"), 0.7)]


def _local_tag(text: Text, version: Version) -> str:
    """The +cuXXX tag the text gives that torch release elsewhere (pip's "(1.10.0+cu111)")."""
    m = re.search(rf"(?<![\w.]){re.escape(str(version))}\+(?P<tag>cu\d{{3}})\b", text.raw)
    return m.group("tag") if m else ""


def _companion(text: Text, at: int, cause: str, fix: str, score: float) -> Candidate:
    return found("companion-mismatch", text, at, score, cause=cause, fix=fix)


def _extension_check(text: Text, at: int, cause: str, package: str) -> Candidate:
    from .facts import torch_seen
    from .fixes import rebuild_fix

    fix = rebuild_fix(package.replace("_", "-"), torch_seen(text.raw))
    return found("extension-torch-mismatch", text, at, 0.9, cause=cause, fix=fix)
