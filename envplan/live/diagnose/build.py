"""Building an extension: pip's isolated build without torch, nvcc's CUDA differing from torch's."""

from __future__ import annotations

import re

from packaging.utils import canonicalize_name
from packaging.version import Version

from envplan.kb import KB

from .facts import nvcc_cuda, torch_cuda
from .fixes import toolkit_fix
from .model import Candidate, found
from .text import Text, phrase

__all__ = ["isolation_missing_torch", "toolkit_mismatch"]

# (DeepSpeed's setup script says it in its own words: "Unable to pre-compile ops without torch installed")
_DS_WORDS = r"Unable\s*to\s*pre-?compile\s*ops\s*without\s*torch\s*installed"
_DS_SETUP = re.compile(_DS_WORDS, re.IGNORECASE)
_PIP_INSTALL = re.compile(r"(?<![A-Za-z])(?:pip3?|uv\s+pip|uv)\s+(?:install|add|sync)\b", re.IGNORECASE)
# (as typed in titles too: "no modle named troch")
_NO_TORCH = re.compile(
    r"(?:No\s*mod(?:u|)le\s*named|ModuleNotFound\w*(?::|\s+for))\s*['\"`]?t(?:or|ro)ch['\"`]?(?!\w|\.\w)|"
    r"No module na\w{0,3}\s*$|" + _DS_WORDS,
    re.I | re.M,
)
_NEEDS_TORCH = re.compile(r"torch (?:must|needs to|has to) be (?:needed|installed) (?:to|before)", re.IGNORECASE)
# the same said in prose: "needs installed torch previously", "a failure of that module to find torch"
_NEEDS_TORCH_PROSE = re.compile(
    r"(?:needs?|requires?|required)\s+(?:an?\s+|the\s+)?(?:already[- ]|pre-?)?installed\s+(?:py)?torch\b|"
    r"(?:needs?|requires?)\s+(?:py)?torch\s+(?:to be\s+)?installed\s+(?:first|before|previously|beforehand)|"
    r"(?:fail\w*|unable|can'?t|cannot|could not)\s+(?:\w+\s+){0,4}?(?:to\s+)?(?:find|import|locate)\s+['\"`]?torch\b|"
    r"['\"`]?(?<![\w.-])torch['\"`]?\s+(?:is|was)\s+not\s+(?:available|installed|present|found)\b|"
    r"(?:构建隔离|隔离环境)[^\n]{0,120}?(?:PyTorch|torch)|(?:必须|需要|要)在\s*(?:PyTorch|torch)[^\n。]{0,20}?安装[^\n。]{0,6}后|"
    r"(?:requires?|needs?)\s+['\"`]?(?:py)?torch['\"`]?\s*(?:\([^)\n]{0,20}\))?\s+(?:to\s+)?(?:be|been|is)\s+"
    r"(?:already\s+)?installed|"
    # "is unable to be installed if pytorch is not already installed"
    r"(?:unable|fails?|cannot|can'?t)\s+(?:to\s+)?(?:be\s+)?install\w*\s+(?:if|when|unless)\s+['\"`]?(?:py)?torch['\"`]?\s+"
    r"is\s+(?:not|n'?t)\s+(?:already\s+)?installed|"
    r"install\s+(?:py)?torch\s+first",
    re.IGNORECASE,
)
# pip / uv building a package in its isolated environment
_PIP_BUILD = re.compile(
    r"Getting requirements to build|Preparing metadata|pip-build-env|build_meta|get_requires_for_build|"
    r"Failed to build|subprocess-exited-with-error|metadata-generation-failed|egg_info|bdist_wheel",
    re.IGNORECASE,
)
_INSTALLING = re.compile(
    r"pip3? install|uv pip|uv add|uv sync|Requirement already satisfied|requirements\.(?:txt|yaml)|\binstall", re.I
)
# a Python program importing torch at run time: torch is missing, not a build problem
_RUNTIME_TRACE = re.compile(
    # (not pip's 'File "<string>", line 24, in <module>': that is the setup script it runs)
    r'File "[^"]+\.py", line \d+, in <module>|File "<stdin>", line \d+, in <module>|'
    # (or a frame of a program's function, "spyder_kernels\comms\commbase.py", line 315, in _comm_message": not a
    # setup script's, nor the installer's or setuptools' own)
    r'File "(?![^"]*(?:setup\w*\.py"|[/\\](?:pip|setuptools|pkg_resources|distutils|_distutils)[/\\]))[^"]+\.py", '
    r"line \d+, in (?!<)\w+|"
    r"<ipython-input-[\w-]+> in <module>|Cell In\s*\[\d+\], line \d+|"
    r"^-+> \d+ (?:import|from) torch\b|"
    # a traceback's source line importing what only a program uses ("    from torch.utils.data import IterableDataset",
    # "    import torch.backends.mps"); a setup script imports torch and torch.utils.cpp_extension
    r"^\s+(?:from\s+torch\.(?:nn|optim|utils\.data|distributions|autograd|distributed|multiprocessing|fx|jit|"
    r"backends)\b[\w.]*\s+import|from\s+torch\s+import\s+(?:nn|optim|Tensor|autograd)\b|"
    r"import\s+torch\.(?:nn|optim|backends)\b)",
    re.MULTILINE,
)
# a program's own loader saying it could not load torch ("ERROR Could not load torch: No module named 'torch'"): the
# program's interpreter lacks torch at run time, no package build is involved
# (or a host application's plugin loader: napari's "Failed to import command at 'napari_sam._widget:SamWidget'")
# (transformers' banner at import, "None of PyTorch, TensorFlow >= 2.0, or Flax have been found", is a program's run
# too)
_RUNTIME_LOAD = re.compile(
    r"(?:could\s*not|couldn'?t|cannot|failed\s*to|unable\s*to)\s+(?:load|import)\s+(?:py)?torch\b|"
    r"Failed\s+to\s+import\s+command\s+at\s+'[\w.]+:\w+'|"
    r"None\s+of\s+PyTorch,\s+TensorFlow\s*>=\s*2\.0,?\s+(?:or\s+)?Flax\s+have\s+been\s+found",
    re.IGNORECASE,
)
# ... or said to run code ("但是在运行下面这段代码 from funasr import AutoModel", "when I run the following code")
_RUNNING_CODE = re.compile(
    r"(?:在?运行|执行)\s*(?:下面|以下|如下)?\s*(?:这段|的)?\s*(?:代码|程序|脚本)|"
    r"(?<![A-Za-z])(?:run|running|ran|execute|executing)\s+(?:the\s+|this\s+|my\s+|following\s+|below\s+)+"
    r"(?:code|script|snippet|example)",
    re.IGNORECASE,
)
_SETUP_PY_DIRECT = re.compile(r"python3?\s+\S*setup\w*\.py\s+(?:install|build|develop)", re.IGNORECASE)
# a traceback whose frame is a package's setup script (in pip's temporary build folder or run by hand): the build,
# not a program
_BUILD_FRAME = re.compile(r'File "(?:[^"\n]*[/\\])?setup\w*\.py"', re.I)


# the installer failing while asking the build backend what it needs (the step where setup.py imports torch), the
# exception itself cut off the paste
_REQUIRES_STEP = re.compile(
    r"Build backend failed to determine (?:extra )?requires|Getting requirements to build (?:wheel|editable)\s*\.+\s*"
    r"error|get_requires_for_build_(?:wheel|editable)|"
    r"when\s+getting\s+requirements\s+to\s+build\s+(?:wheel|editable)",  # pip 25: "Failed to build 'X' when ..."
    re.IGNORECASE,
)
_EXCEPTION_SHOWN = re.compile(r"^\s*(?:[\w.]*(?:Error|Exception)|error):\s+(?!Failed to|subprocess-exited)\S", re.M)
_PACKAGE_BUILT = re.compile(
    r"(?:Failed to (?:fetch|build|download|prepare)[^:`\n]*?(?::\s*|\s+(?=`))|Building wheels? for\s+|"
    r"install\s+(?:--\S+\s+)*)"
    r"[`'\"]?(?P<pkg>[A-Za-z0-9_.-]+?)(?:[=<>!~]=?[\w.*+]+)?[`'\"]?(?=[\s(:,]|$)|"
    # ... or the source archive pip fetched to build ("Using cached flash_attn-2.6.1.tar.gz")
    r"(?:Using cached|Downloading)\s+(?:\S*/)?(?P<sdist>[A-Za-z0-9_.]+?)-\d[\w.+]*\.(?:tar\.gz|zip)\b",
    re.MULTILINE,
)


# the installers' own diagnosis of it: uv's "`flash-attn` depends on `torch`, but doesn't declare it as a build
# dependency", pdm's "Module 'torch' is missing, please make sure it is specified in the 'build-system.requires'"
_UV_HINT = re.compile(
    r"depends\s+on\s+`?torch`?\s*,?\s+but\s+(?:does\s*n[o']t|does\s+not)\s+declare\s+it\s+as\s+a\s+build\s+dependency|"
    r"Module\s+'torch'\s+is\s+missing,?\s+please\s+make\s+sure\s+it\s+is\s+specified\s+in\s+the\s+'?build-system\.requires",
    re.IGNORECASE,
)


# the fix itself advised for a package said to require torch ("should add --no-build-isolation ... flash_attn
# requires PyTorch")
_NO_ISOLATION_ADVISED = re.compile(r"(?:add|use|with|needs?|pass)\s+[`'\"]?--no-build-isolation", re.IGNORECASE)
_REQUIRES_TORCH = re.compile(r"(?:requires?|needs?)\s+['\"`]?(?:py)?torch(?![\w.-])", re.IGNORECASE)
# an installer saying it builds in an isolated environment (PDM: "Preparing isolated env for PEP 517 build..."), of a
# package whose setup script imports torch, as the text says ("packages importing `torch` in their setup script")
_ISOLATED_ENV = re.compile(r"(?:Preparing|Creating|Using)\s+(?:an?\s+)?isolated\s+env(?:ironment)?\s+for", re.I)
_SETUP_IMPORTS_TORCH = re.compile(
    r"import\w*\s+['\"`]?torch['\"`]?\s+(?:in|from)\s+(?:their|its|the)\s+(?:setup|build)|"
    r"setup\.py[^\n]{0,40}import\w*\s+['\"`]?torch(?![\w.])",
    re.IGNORECASE,
)


# torch said left out of a project's requirements ("torch is not installed by requirements.txt", "requirements.txt
# doesn't include torch", a report titled "Missing requirements"): a program's missing dependency, no package build
_LEFT_OUT_OF_REQUIREMENTS = re.compile(
    r"(?<![\w.-])torch['\"`]?\s+(?:is|was)\s+not\s+(?:installed|included|listed)\s+(?:by|in|from|with|via)\s+"
    r"(?:the\s+|its\s+)?requirements|"
    r"requirements(?:\.txt)?\s+(?:does\s*n[o']t|does\s+not)\s+(?:include|contain|list|install)\s+['\"`]?(?:py)?torch\b|"
    # ... or a report titled so ("Missing requirements")
    r"\A\s*[#*]*\s*missing\s+(?:requirements|dependencies)\s*$",
    re.IGNORECASE | re.MULTILINE,
)


def isolation_missing_torch(text: Text, kb: KB) -> list[Candidate]:
    hint = text.search(_UV_HINT)
    if hint is not None:
        return [_isolated(text, hint.start(), 0.9)]
    advised = text.search(_NO_ISOLATION_ADVISED)
    if advised is not None and text.has(_REQUIRES_TORCH):
        return [_isolated(text, advised.start(), 0.65)]
    isolated = text.search(_ISOLATED_ENV)
    if isolated is not None and text.has(_SETUP_IMPORTS_TORCH):
        return [_isolated(text, isolated.start(), 0.7)]
    m = text.search(_NO_TORCH) or text.search(_NEEDS_TORCH)
    prose = m is None
    m = m or text.search(_NEEDS_TORCH_PROSE)
    if m is None:
        return _cut_at_requires(text, kb)
    score = _isolation_score(text)
    if score == _MESSAGE_ALONE and _told_by_a_program(text, m):
        score = 0.0
    if not score and _DS_SETUP.match(m.group(0)) and text.has(_PIP_INSTALL) and not text.has(_SETUP_PY_DIRECT):
        score = 0.75  # DeepSpeed's setup script said it as pip installed it: a build, whatever the user runs besides
    if prose and score:
        score = min(score, 0.7) if text.has(_INSTALLING) or text.has(_PIP_BUILD) else 0.0
    if score == 0:
        return []
    return [_isolated(text, m.start(), score)]


def _isolated(text: Text, at: int, score: float) -> Candidate:
    return Candidate(
        ref="build-isolation-missing-torch",
        score=score,
        at=at,
        evidence=text.line(at),
        cause="the package's build imports torch, but pip built it in an isolated environment without torch",
        fix="install torch first, then the package with pip install --no-build-isolation --no-deps (and "
        "--no-cache-dir, so no wheel built against another torch is reused); uv: --no-build-isolation-package",
    )


# a package built from its repository or a local folder ("'git+https://github.com/rahul-goel/fused-ssim@1272e21'",
# "pip install ./diff-gaussian-rasterization"): its name is the last path segment
_SOURCE_BUILT = re.compile(
    r"git\+https?://[^\s'\"`]+?/(?P<pkg>[A-Za-z0-9_.-]+?)(?:\.git)?(?=[@'\"`\s#]|$)|"
    r"install\s+(?:-\S+\s+)*(?:\.{1,2}/|/)(?:[\w.-]+/)*(?P<pkg2>[A-Za-z0-9_.-]+?)/?(?=[\s'\"`]|$)|"
    # ... or the folder entered before installing "." ("cd GroundingDINO" then "pip install .")
    r"^\s*cd\s+(?:\S*/)?(?P<pkg3>[A-Za-z0-9_.-]+?)/?\s*\n(?:\s*\n)*\s*(?:pip3?|uv\s+pip|python3?\s+-m\s+pip)\s+install\s+"
    r"(?:-\S+\s+)*\.(?=\s|$)",
    re.MULTILINE,
)


def _builds_with_torch(kb: KB, name: str | None) -> bool:
    """A torch extension the KB knows, or one whose build imports torch and so fails in isolation (the KB's
    build_imports_torch.toml; one whose pyproject lists torch downloads a torch there instead)."""
    if not name:
        return False
    return kb.extension(name) is not None or kb.build_imports_torch.get(canonicalize_name(name)) in ("fails", "varies")


def _cut_at_requires(text: Text, kb: KB) -> list[Candidate]:
    """A torch extension failing at the requirements step with its exception cut off: the import of torch."""
    m = text.search(_REQUIRES_STEP)
    if m is None or text.has(_EXCEPTION_SHOWN):
        return []
    built = [p.group("pkg") or p.group("sdist") for p in _PACKAGE_BUILT.finditer(text.raw)]
    built += [p.group("pkg") or p.group("pkg2") or p.group("pkg3") for p in _SOURCE_BUILT.finditer(text.raw)]
    package = next((name for name in built if _builds_with_torch(kb, name)), "")
    if not package:
        return []
    return [
        Candidate(
            ref="build-isolation-missing-torch",
            score=0.6,
            at=m.start(),
            evidence=text.line(m.start()),
            cause=f"{package}'s build imports torch when asked for its requirements, and the installer runs it in an "
            "isolated environment without torch (the exception is cut off the paste)",
            fix="install torch first, then the package with pip install --no-build-isolation --no-deps (and "
            "--no-cache-dir, so no wheel built against another torch is reused); uv: --no-build-isolation-package",
        )
    ]


# torch missing inside Jupyter: the notebook's kernel is another interpreter than the one torch went into
_NOTEBOOK = re.compile(r"(?<![A-Za-z])(?:jupyter|notebooks?|ipykernel|jupyterlab)(?![A-Za-z])", re.IGNORECASE)
# root's interpreter running the setup script ("sudo python3 setup.py install"): it has no torch of the user's
_SUDO_SETUP = re.compile(r"sudo\s+(?:-\S+\s+)*python3?\s+\S*setup\w*\.py\s+(?:install|build|develop)", re.IGNORECASE)


_MESSAGE_ALONE = 0.55  # the message alone, as a bug title: in the trackers this is nearly always the build
# ... unless a program's own report of the exception it caught ("Lỗi xử lý Reference Audio: No module named 'torch'",
# an app's "Error processing ...: "): the app ran without torch, nothing was being built
_PROGRAM_TOLD = re.compile(r"[^\W\d_]{3,}[^\n]*:\s*$")
_EXCEPTION_NAME = re.compile(r"(?:[\w.]*(?:Error|Exception)|error|ERROR|E)\s*:\s*$")


def _told_by_a_program(text: Text, m: re.Match[str]) -> bool:
    before = text.raw[text.line_start(m.start()) : m.start()]
    return bool(_PROGRAM_TOLD.search(before)) and not _EXCEPTION_NAME.search(before)


# torch missing when something runs after the environment was installed ("Can't find this after installing the
# environment", UVR5-UI#34): a run in an environment without torch, no build
_AFTER_THE_INSTALL = re.compile(
    r"after\s+(?:installing|the\s+install(?:ation)?\s+of)\s+(?:the\s+)?(?:env(?:ironment)?|requirements|dependencies)\b",
    re.IGNORECASE,
)


def _isolation_score(text: Text) -> float:
    if text.has(_SUDO_SETUP) or (text.has(_SETUP_PY_DIRECT) and not text.has(re.compile(r"pip|uv ", re.I))):
        return 0.0  # `python setup.py install` in an interpreter without torch: nothing isolated it
    if text.has(_PIP_BUILD) or text.has(_BUILD_FRAME):
        return 0.9
    # a program run (or its requirements said to lack torch), no build
    runs = (_RUNTIME_TRACE, _RUNTIME_LOAD, _NOTEBOOK, _RUNNING_CODE, _LEFT_OUT_OF_REQUIREMENTS, _AFTER_THE_INSTALL)
    if any(text.has(pattern) for pattern in runs):
        return 0.0
    if text.has(_INSTALLING):
        return 0.75
    if len(text.lines()) > 3:
        return 0.0
    return _MESSAGE_ALONE


# torch's cpp_extension check; the versions may be cut off or left as the message's "%s" placeholders
# (pasted cut: "RuntimeError CUDA version (12.0) mismatches the version that was used to compile", no "detected", no
# "PyTorch")
_DETECTED = re.compile(
    r"(?:detected\s*)?CUDA\s*version\s*\((?P<nvcc>[^)\n]{0,12})\)\s*mismatches\s*the\s*version\s*that\s*was\s*used\s*"
    r"to\s*compile(?:\s*PyTorch(?:\s*\((?P<torch>[^)\n]{0,12})\))?)?",
    re.IGNORECASE,
)
_VERSION = re.compile(r"^\d{1,2}\.\d+$")
# other builders' checks of the same thing (DeepSpeed's op builder, setup scripts): the toolkit's CUDA against torch's
_BUILDER_CHECK = re.compile(
    r"(?:installed|detected|system|local|nvcc'?s?)\s+CUDA\s+version\s+(?P<nvcc>\d{1,2}\.\d+)\s*"
    r"(?:does not match|doesn'?t match|mismatch(?:es)?|differs? from)\s+(?:the version\s+)?(?:that\s+)?"
    r"(?:py)?torch\s+(?:was\s+)?(?:compiled|built)\s+(?:with|against|using)\s+(?:CUDA\s+)?(?P<torch>\d{1,2}\.\d+)",
    re.IGNORECASE,
)
# ... cut before torch's CUDA, or in a title: "Installed CUDA version 11.7 does not match torch version"
_BUILDER_CHECK_CUT = re.compile(
    r"(?:installed|detected|system|local|nvcc'?s?)\s+CUDA\s+version\s+(?P<nvcc>\d{1,2}\.\d+)\s*"
    r"(?:does not match|doesn'?t match|mismatch(?:es)?|differs? from)\s+(?:the\s+)?(?:py)?torch(?:'?s)?"
    r"(?:\s+(?:CUDA\s+)?version|\s+(?:was\s+)?(?:compiled|built)|\s*$)",
    re.IGNORECASE | re.MULTILINE,
)
# ... torch's CUDA first (k2's build: "PyTorch is built with CUDA version: 11.7. The current running CUDA version is:
# 10.2.89", the running CUDA being nvcc's)
_BUILDER_CHECK_TORCH_FIRST = re.compile(
    r"(?:py)?torch\s+(?:is|was)\s+(?:built|compiled)\s+(?:with|against|using)\s+CUDA\s*(?:version)?\s*:?\s*"
    r"(?P<torch>\d{1,2}\.\d+)[.\s]{0,8}(?:the\s+)?(?:current(?:ly)?\s+)?(?:running|installed|local|system|detected)\s+"
    r"CUDA\s*(?:version)?\s*(?:is)?\s*:?\s*(?P<nvcc>\d{1,2}\.\d+)",
    re.IGNORECASE,
)
# ... retold with torch's CUDA as "the required" one, both in brackets as torch's own check prints them ("It said that
# my CUDA version (11.8) does not match the required CUDA version (12.1)")
_REQUIRED_CUDA = re.compile(
    r"(?:my|the|local|installed|system)\s+CUDA\s+version\s*\(\s*(?P<nvcc>\d{1,2}\.\d+)\s*\)\s*"
    r"(?:does\s*n[o'\u2019]?t|does\s+not|did\s*n[o'\u2019]?t)\s+match\s+(?:the\s+)?required\s+CUDA\s+version\s*"
    r"\(\s*(?P<torch>\d{1,2}\.\d+)\s*\)",
    re.IGNORECASE,
)
# the same said in prose: "nvcc's version and torch's compiled cuda version differ"
_TORCH_CUDA_WORDS = r"(?:py)?torch['\u2019]?s?\s+(?:compiled|built)\s+cuda(?:\s+version)?"
_PROSE_MISMATCH = re.compile(
    rf"{_TORCH_CUDA_WORDS}[^\n.]{{0,40}}?(?:differ|mismatch|(?:do(?:es)?n'?t|do(?:es)? not|not) match|不一致|不匹配)|"
    rf"(?:differ|mismatch|(?:do(?:es)?n'?t|do(?:es)? not|not) match)\w*\s+(?:from\s+|with\s+)?{_TORCH_CUDA_WORDS}",
    re.IGNORECASE,
)
# ... or: "detecting the system-wide CUDA version instead of the one used to compile PyTorch"
_SYSTEM_INSTEAD = re.compile(
    r"(?:system(?:-wide)?|local|installed)\s+CUDA(?:\s+version)?[^\n.]{0,30}?(?:instead\s+of|rather\s+than)"
    r"[^\n.]{0,40}?(?:compile|build)\w*\s+(?:py)?torch",
    re.IGNORECASE,
)
# ... or only named, as a build's errors are summed up ("errors building submodules ... indicated a CUDA version
# mismatch"; where nothing is built, the same words are the driver's or a runtime's)
_MISMATCH_NAMED = re.compile(r"\bCUDA\s+version\s+mismatch", re.IGNORECASE)
_BUILDING = re.compile(r"extension|nvcc|cpp_?extension|compil|build|setup\.py|编译", re.IGNORECASE)
# ... or both CUDAs stated, the system's first and torch's after a "but": "系统 CUDA 为 11.3,但 pip install torch 默认
# 安装了绑定 CUDA 11.7 的版本", "the system CUDA is 11.3, but pip installed torch built for CUDA 11.7"
_SYSTEM_THEN_TORCH = re.compile(
    r"(?:系统|system(?:-wide)?|local)\s*(?:的\s*)?CUDA\s*(?:版本|version|toolkit)?\s*(?:为|是|is|:|=)?\s*"
    r"v?(?P<nvcc>\d{1,2}\.\d)\b[^\n。]{0,10}?(?:但|而|,?\s*but)[^\n。]{0,50}?(?:py)?torch[^\n。]{0,30}?CUDA\s*"
    r"v?(?P<torch>\d{1,2}\.\d)\b",
    re.IGNORECASE,
)
# ... or the system's CUDA against the conda environment's cudatoolkit, which is the CUDA the pytorch channel's torch
# was built with: "you may end up having CUDA 11.8 installed globally but cudatoolkit=11.6 inside conda environment"
_SYSTEM_THEN_CONDA = re.compile(
    r"CUDA\s*v?(?P<nvcc>\d{1,2}\.\d)\s+(?:installed\s+)?(?:globally|system[- ]wide|on\s+(?:the|my|your)\s+system)"
    r"[^\n。]{0,20}?(?:but|while|whereas)[^\n。]{0,20}?cudatoolkit\s*[=\s]\s*(?P<torch>\d{1,2}\.\d)\b",
    re.IGNORECASE,
)
_APEX = phrase("being compiled with a version of Cuda that does not match the version used to compile Pytorch")


# flash-attn's own check of the nvcc it builds with (not torch's CUDA): "FlashAttention is only supported on CUDA 11.6
# and above. Note: make sure nvcc has a supported version"; FlashAttention-3's hopper/setup.py: "FlashAttention-3 is
# only supported on CUDA 12.3 and above")
_FLASH_NVCC = re.compile(
    r"FlashAttention(?:-\d)?\s+is\s+only\s+supported\s+on\s+CUDA\s+(?P<v>\d{2}\.\d)\s+and\s+above", re.I
)


# nvcc from CUDA 9.2 on compiles kernel launches into calls of __cudaPushCallConfiguration/__cudaPopCallConfiguration,
# which older CUDA runtimes do not export: the extension was compiled by a newer nvcc than the CUDA runtime torch
# loads (CUDA 9.0/9.1 torch builds)
_LAUNCH_CONFIG = re.compile(r"undefined\s*symbol\s*:?\s*__cuda(?:Push|Pop)CallConfiguration\b", re.IGNORECASE)


# ... and the other way: an nvcc of CUDA 9.1 or older compiled kernel launches into cudaSetupArgument/cudaLaunch calls,
# which CUDA 10.1 and later runtimes no longer export: the extension was built by an older nvcc than torch's CUDA
_OLD_LAUNCH = re.compile(r"undefined\s*symbol\s*:?\s*cuda(?:SetupArgument|ConfigureCall|Launch)\b(?!\w)", re.IGNORECASE)


def toolkit_mismatch(text: Text, kb: KB) -> list[Candidate]:
    return (
        _flash_nvcc(text)
        or _launch_config(text)
        or _old_launch(text)
        or _checked(text)
        or _libtorch_link_cudart(text)
        or _nvcc_older_than_torch(text)
        or _nvcc_package_conflict(text)
    )


# conda refusing an nvcc of another CUDA than the environment's own, the torch named ("cuda-nvcc 12.8.93 conflicts
# with the pre-installed cuda-nvcc-dev_linux-64 13.0.88" in an env rebuilt for torch on CUDA 13.0,
# flash-linear-attention#969)
_NVCC_CONFLICT = re.compile(
    r"cuda-nvcc[\w-]*\s+(?P<asked>\d{1,2}\.\d)[\d.]*\s+conflicts\s+with\s+[^\n]{0,60}?cuda-nvcc[\w-]*\s+"
    r"(?P<env>\d{1,2}\.\d)[\d.]*",
    re.IGNORECASE,
)
_TORCH_WORD = re.compile(r"(?<![\w-])(?:py)?torch(?![\w-])", re.IGNORECASE)


def _nvcc_package_conflict(text: Text) -> list[Candidate]:
    m = text.search(_NVCC_CONFLICT)
    if m is None or not text.has(_TORCH_WORD):
        return []
    asked, env = m.group("asked"), m.group("env")
    if Version(asked).major == Version(env).major:
        return []
    cause = (
        f"the nvcc asked for (CUDA {asked}) conflicts with the environment's own nvcc (CUDA {env}), the CUDA its torch "
        "is built with: the toolkit pinned for building is another CUDA than torch's"
    )
    return [_toolkit(text, m.start(), cause, env, 0.75)]


# nvcc refusing what torch's build asks of it, each refusal telling that the toolkit is older than torch's CUDA:
# - the C++ standard torch's headers need ("nvcc fatal : Value 'c++17' is not defined for option 'std'"): an nvcc of
#   CUDA 10.x or older, building against a torch made with a newer CUDA;
# - the flag torch's ninja builds pass it for dependency files ("nvcc fatal : Unknown option
#   '-generate-dependencies-with-compile'"): cpp_extension passes it when torch.version.cuda is 10.2 or newer (11.0 in
#   later releases; its comment: "--generate-dependencies-with-compile was added in CUDA 10.2"), so an nvcc that lacks
#   it is older than torch's CUDA (torch 1.8.1 on an nvcc of CUDA 10.0, torch-discounted-cumsum#3)
_NVCC_REFUSES = (
    (
        re.compile(r"Value\s*'c\+\+17'\s*is\s*not\s*defined\s*for\s*option\s*'std'", re.IGNORECASE),
        "the nvcc building the extension predates C++17 (CUDA 10.x or older), which the torch it builds against "
        "needs: the toolkit is older than torch's CUDA",
    ),
    (
        re.compile(r"Unknown\s*option\s*'?-?-generate-dependencies-with-compile'?", re.IGNORECASE),
        "the nvcc building the extension predates CUDA 10.2 (it lacks -generate-dependencies-with-compile, which "
        "torch's ninja build passes it): the toolkit is older than torch's CUDA",
    ),
)


def _nvcc_older_than_torch(text: Text) -> list[Candidate]:
    for refusal, cause in _NVCC_REFUSES:
        m = text.search(refusal)
        if m is not None:
            return [_toolkit(text, m.start(), cause, str(torch_cuda(text.raw) or ""), 0.8)]
    return []


# linking against libtorch with a CUDA toolkit older than libtorch's: the linker misses a runtime function at the
# version libtorch asks for ("libtorch_cuda.so: undefined reference to `cudaLaunchKernelExC@libcudart.so.11.0'")
_LINK_CUDART = re.compile(
    r"libtorch\w*\.so[^\n]{0,20}?undefined\s+reference\s+to\s+`?(?P<sym>cuda\w+)@libcudart\.so\.(?P<major>\d+)", re.I
)


def _libtorch_link_cudart(text: Text) -> list[Candidate]:
    m = text.search(_LINK_CUDART)
    if m is None:
        return []
    cause = (
        f"libtorch needs {m.group('sym')} from the CUDA runtime it was built with; the CUDA toolkit the program links "
        "is an older CUDA than libtorch's"
    )
    return [_toolkit(text, m.start(), cause, "", 0.75)]


def _launch_config(text: Text) -> list[Candidate]:
    m = text.search(_LAUNCH_CONFIG)
    if m is None:
        return []
    cause = (
        "the extension was compiled by an nvcc of CUDA >= 9.2, whose kernel launches need __cudaPopCallConfiguration, "
        "but it loads an older CUDA runtime (torch's CUDA 9.0/9.1 build) that lacks it"
    )
    return [_toolkit(text, m.start(), cause, str(torch_cuda(text.raw) or ""), 0.85)]


def _old_launch(text: Text) -> list[Candidate]:
    m = text.search(_OLD_LAUNCH)
    if m is None:
        return []
    cause = (
        "the extension was compiled by an nvcc of CUDA 9.1 or older, whose kernel launches call cudaSetupArgument, "
        "but it loads a CUDA runtime of 10.1 or later (torch's), which no longer has it"
    )
    return [_toolkit(text, m.start(), cause, str(torch_cuda(text.raw) or ""), 0.8)]


def _flash_nvcc(text: Text) -> list[Candidate]:
    m = text.search(_FLASH_NVCC)
    if m is None:
        return []
    cause = f"the nvcc that builds flash-attn is older than CUDA {m.group('v')}, the first it builds with"
    return [_toolkit(text, m.start(), cause, str(torch_cuda(text.raw) or ""), 0.85)]


# the versions said in words, the build failing in nvcc: "error: command '/usr/bin/nvcc' failed" with "nvcc version is
# 9.1, CUDA version is 10.2"
_NVCC_FAILED = re.compile(
    r"command\s+['\"]?[^'\"\s]*nvcc(?:\.exe)?['\"]?\s+failed|nvcc\s+(?:fatal|error)", re.IGNORECASE
)
_NVCC_SAID = re.compile(
    r"(?<![\w/])nvcc\s*(?:-V\s*)?(?:version\s*)?(?:is|:|=)?\s*v?(?P<v>\d{1,2}\.\d)\b", re.IGNORECASE
)
_CUDA_SAID = re.compile(r"(?<![\w/.])cuda\s*(?:version\s*)?(?:is|:|=)?\s*v?(?P<v>\d{1,2}\.\d)\b", re.IGNORECASE)


def _versions_said(text: Text) -> list[Candidate]:
    failed, nvcc = text.search(_NVCC_FAILED), text.search(_NVCC_SAID)
    if failed is None or nvcc is None:
        return []
    cudas = {m.group("v") for m in _CUDA_SAID.finditer(text.raw)} - {nvcc.group("v")}
    if len(cudas) != 1:
        return []
    (cuda,) = cudas
    if Version(cuda).major == Version(nvcc.group("v")).major:
        return []
    cause = f"the nvcc that builds the extension is CUDA {nvcc.group('v')}, the CUDA the text names is {cuda}"
    return [_toolkit(text, nvcc.start(), cause, str(torch_cuda(text.raw) or cuda), 0.6)]


# ... said in a title, nvcc's CUDA first, while building: "Cuda 12.4 mismatches the pytorch build version 11.3 when
# installing TorchSDF with setup.py"
_MISMATCH_SAID = re.compile(
    r"(?<![\w.])CUDA\s*(?:version\s*)?(?P<nvcc>\d{1,2}\.\d+)\s+mismatch(?:es)?\s+(?:with\s+)?(?:the\s+)?(?:py)?torch"
    r"(?:'s)?\s+(?:build\s+)?(?:CUDA\s+)?(?:version\s+)?(?P<torch>\d{1,2}\.\d+)",
    re.IGNORECASE,
)


def _builder_check(text: Text) -> list[Candidate]:
    """DeepSpeed's or a setup script's check, whole or cut before torch's CUDA."""
    m = text.search(_BUILDER_CHECK)
    if m:
        nvcc, torch = m.group("nvcc"), m.group("torch")
        return [_toolkit(text, m.start(), f"nvcc is CUDA {nvcc} but torch was built with CUDA {torch}", torch)]
    m = (
        text.search(_BUILDER_CHECK_TORCH_FIRST)
        or text.search(_REQUIRED_CUDA)
        or (text.search(_MISMATCH_SAID) if text.has(_BUILDING) else None)
    )
    if m and Version(m.group("nvcc")).release[:2] != Version(m.group("torch")).release[:2]:
        nvcc, torch = m.group("nvcc"), m.group("torch")
        return [
            _toolkit(text, m.start(), f"the CUDA toolkit is CUDA {nvcc} but torch was built with CUDA {torch}", torch)
        ]
    m = text.search(_BUILDER_CHECK_CUT)
    if m is None:
        return []
    torch = str(torch_cuda(text.raw) or "")
    cause = f"nvcc is CUDA {m.group('nvcc')}, another CUDA than the one torch was built with" + (
        f" ({torch})" if torch else ""
    )
    return [_toolkit(text, m.start(), cause, torch, 0.8)]


def _system_then_torch(text: Text) -> list[Candidate]:
    m = text.search(_SYSTEM_THEN_TORCH) or text.search(_SYSTEM_THEN_CONDA)
    if m is None or m.group("nvcc") == m.group("torch") or not text.has(_BUILDING):
        return []
    nvcc, torch = m.group("nvcc"), m.group("torch")
    return [_toolkit(text, m.start(), f"the system's CUDA is {nvcc} but torch was built with CUDA {torch}", torch)]


def _checked(text: Text) -> list[Candidate]:
    """torch's, a builder's or apex's check of nvcc's CUDA against torch's, or the mismatch said in prose."""
    m = text.search(_DETECTED)
    if m:
        nvcc, torch = m.group("nvcc").strip(), (m.group("torch") or "").strip()
        if _VERSION.match(nvcc) and _VERSION.match(torch):
            return [_toolkit(text, m.start(), f"nvcc is CUDA {nvcc} but torch was built with CUDA {torch}", torch)]
        torch = str(torch_cuda(text.raw) or "")
        cause = "the CUDA toolkit (nvcc) that builds the extension is another CUDA than the one torch was built with"
        return [_toolkit(text, m.start(), cause, torch)]
    builder = _builder_check(text) or _versions_said(text) or _system_then_torch(text)
    if builder:
        return builder
    m = text.search(_PROSE_MISMATCH) or text.search(_SYSTEM_INSTEAD) or text.search(_MISMATCH_NAMED)
    if m and text.has(_BUILDING):
        cause = "the CUDA toolkit (nvcc) that builds the extension is another CUDA than the one torch was built with"
        return [_toolkit(text, m.start(), cause, str(torch_cuda(text.raw) or ""), 0.7)]
    m = text.search(_APEX)
    if m:
        torch = torch_cuda(text.raw)
        nvcc = nvcc_cuda(text.raw)
        both = f" (nvcc {nvcc}, torch {torch})" if nvcc and torch else f" (torch: CUDA {torch})" if torch else ""
        cause = f"apex requires nvcc's CUDA major.minor to equal torch.version.cuda{both}"
        return [_toolkit(text, m.start(), cause, str(torch) if torch else "")]
    return _older_nvcc_failing(text)


# an extension build that failed (ninja, nvcc, setuptools' words)
_BUILD_FAILED = re.compile(
    r"Build stopped|Error (?:compiling objects for|building) extension|error: command '[^']*nvcc[^']*' failed|"
    r"Failed building wheel|Could not build wheels|subcommand failed",
    re.IGNORECASE,
)
# the local toolkit as people state it ("cuda版本11.0", "CUDA toolkit 11.0"); nvidia-smi's "CUDA Version:" is the
# driver's, never read here
_LOCAL_CUDA = re.compile(
    r"(?<![\w.])cuda\s*(?:版本|toolkit(?:\s+version)?)\s*(?:是|为|[:\uff1a=])?\s*v?(?P<v>\d{1,2}\.\d)\b", re.I
)


def _older_nvcc_failing(text: Text) -> list[Candidate]:
    """No check's message, but the versions stated: an extension build fails with an nvcc of another CUDA major
    than torch's, or an older nvcc than torch's CUDA (its headers predate what torch's need)."""
    nvcc, torch = nvcc_cuda(text.raw) or _local_cuda(text), torch_cuda(text.raw)
    m = text.search(_BUILD_FAILED)
    if m is None or nvcc is None or torch is None or (nvcc >= torch and nvcc.major == torch.major):
        return []
    cause = f"nvcc is CUDA {nvcc} but torch was built with CUDA {torch}, and the extension build fails"
    return [_toolkit(text, m.start(), cause, str(torch), 0.65)]


def _local_cuda(text: Text) -> Version | None:
    m = text.search(_LOCAL_CUDA)
    return Version(m.group("v")) if m else None


def _toolkit(text: Text, at: int, cause: str, torch: str, score: float = 0.95) -> Candidate:
    return found("toolkit-torch-cuda-mismatch", text, at, score, cause=cause, fix=toolkit_fix(torch))
