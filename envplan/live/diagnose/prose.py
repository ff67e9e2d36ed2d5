"""A cause said in words: one shared reader of claims, for every cause alike.

People paste a title, a sentence or a blog's paragraph instead of the message ("the pypi package is not built for
PyTorch 1.12", "torch does not exist for my Python", "torchaudio与torch的版本不匹配"). Each rule used to carry its own
prose regex per phrasing seen; here a claim is a few concepts (word families in English and Chinese, tolerant of case,
spacing, hyphens and apostrophes) that must all occur in one sentence, in any order. A cause has a few claims; a claim
found scores low (PROSE), so any message a rule reads outranks it, and the claims' own context (a build step, a named
companion, no NVIDIA GPU) adds or removes weight. Which package owns the failure decides between a companion
(torchvision, torchaudio) and an extension, as it does for the messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from envplan.kb import KB

from .cpu import ASSERTION, NO_NVIDIA, cpu_fix
from .facts import BUILT_FOR_TORCH, torch_seen
from .fixes import companions_fix, rebuild_fix
from .install import RENAMED_WHEEL, WHEEL_NAME
from .libs import glibc_fix
from .model import Candidate, found
from .text import Text, sentences

__all__ = ["PROSE", "said_in_words"]

PROSE = 0.6  # above THRESHOLD, below every message a rule reads


def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(alternatives), re.IGNORECASE)


def _then(first: re.Pattern[str], second: re.Pattern[str], gap: int) -> re.Pattern[str]:
    """`first`, then `second` within `gap` characters of the same sentence (a predicate and what it is said of)."""
    # a dot inside a version (2.1) or of "i.e." / "e.g." does not end the sentence
    within = r"(?:[^\n.。?\uff1f!\uff01]|\.(?=\d)|(?<=\bi)\.(?=e\.)|(?<=\be)\.(?=g\.)|(?<=\bi\.e)\.|(?<=\be\.g)\.)"
    return re.compile(rf"(?:{first.pattern}){within}{{0,{gap}}}?(?:{second.pattern})", re.IGNORECASE)


def _near(one: re.Pattern[str], other: re.Pattern[str], gap: int) -> re.Pattern[str]:
    """Both within `gap` characters, either first."""
    return re.compile(f"{_then(one, other, gap).pattern}|{_then(other, one, gap).pattern}", re.IGNORECASE)


# the concepts claims are made of; each a family of words, not a phrasing
NOT = _words(
    r"(?<![A-Za-z])(?:not|never|no|cannot|unable)(?![A-Za-z])",
    r"(?<![A-Za-z])[A-Za-z]{1,6}n[\u2019']t(?![A-Za-z])",  # n't after any auxiliary, misspelled ones too
    r"(?<![A-Za-z])(?:is|was|are|were|do|does|did|has|have|had|could|would|should|can|won)nt(?![A-Za-z])",
    r"no longer|yet to|不|没有|沒有|无法|未|别",
)
# names stand next to CJK text without a space ("的PyTorch"), so only Latin letters, digits, "_" and "-" bound them
TORCH = _words(r"(?<![A-Za-z0-9_-])(?:py)?torch(?![A-Za-z0-9_-])", r"libtorch")
# (a version glued on by a hyphen, "torchvision-2.5.0", is the companion too)
COMPANION = _words(r"(?<![A-Za-z0-9_-])(?:torchvision|torchaudio|torchtext)(?![A-Za-z0-9_]|-(?!\d))")
# torch and a companion named as a pair ("torch and torchvision"), and a companion named on its own
_TORCH_PAIR = _words(r"(?<![A-Za-z0-9_-])torch(?:\s+and\s+|,\s*|\s*&\s*|/)(?:torchvision|torchaudio)(?![A-Za-z0-9_-])")
_COMPANION_ALONE = _words(
    r"(?<!torch and )(?<!torch, )(?<!torch & )(?<!torch/)(?<![A-Za-z0-9_-])(?:torchvision|torchaudio|torchtext)"
    r"(?![A-Za-z0-9_]|-(?!\d))"
)
# the compiled extensions people name instead of saying "the package" ("PyTorch 与 MMCV 的版本冲突")
EXTENSION_NAMED = _words(
    r"(?<![A-Za-z0-9_-])(?:mmcv(?:-full)?|xformers?|flash[-_ ]?attn|flash[-_ ]?attention|apex|detectron2|pytorch3d|"
    r"torch[-_](?:scatter|sparse|cluster|spline[-_]conv|geometric|xla)|bitsandbytes|mamba[-_]ssm|causal[-_]conv1d|"
    r"deepspeed|dgl|spconv|kaolin|tiny[-_]cuda[-_]nn|gsplat|nvdiffrast|exllamav2|auto[-_]?gptq|auto[-_]?awq|vllm|"
    r"torchsparse|MinkowskiEngine|ipex|intel[-_ ]extension[-_ ]for[-_ ]pytorch|torchao|torch[-_]tensorrt|"
    r"k2|kaldifeat|fbgemm[-_]gpu|flashinfer|sgl[-_]kernel|sage[-_]?attention|natten|warp[-_]?(?:ctc|rnnt)|"
    r"exllamav3|gptqmodel|pointnet2[-_]ops|torchcodec|nunchaku)"
    r"(?![A-Za-z0-9_-])",
)
PACKAGE = _words(
    r"(?<![A-Za-z])(?:package|wheel|whl|extensions?|module|library|lib|plugin|binar(?:y|ies)|build(?:ing)?|_C|_ext)"
    r"(?![A-Za-z])",
    r"扩展|模块|包|库",
    EXTENSION_NAMED.pattern,
)
BUILT_FOR = _words(
    r"(?<![A-Za-z])(?:built|build|compiled|compile|support\w*|released?|ship\w*|available|exists?|provided?)"
    r"(?![A-Za-z])",
    r"编译|支持|发布|提供|存在",
)
MISMATCH = _words(
    # ("dismatch", a learner's word for it)
    r"(?:mis|dis)-?match\w*|incompatib\w*|not\s+compatible|unmatched|conflict\w*",
    r"(?:do|does|did)(?:n[\u2019']?t| not) match",
    r"different (?:version|build)s?|(?<![A-Za-z])not\s+match(?:ed|es|ing)?(?![A-Za-z])",
    r"不匹配|不兼容|不一致|不对应|冲突",
)
UNDEFINED = _words(
    r"undefined\s*symbols?", r"symbols?\s+not\s+found", r"未定义的?符号", r"(?:找不到|缺少|缺失)[^。\n]{0,6}符号"
)
PYTHON = _words(
    r"(?<![A-Za-z0-9_-])python\s*(?:version\s*)?\(?v?3(?:\.\d{1,2})?(?:\.x)?\+?(?![A-Za-z0-9_.])",
    r"(?<![A-Za-z0-9_-])py3\d{1,2}(?![A-Za-z0-9_])",
)
# the interpreter's version as what mismatches ("python version mismatch"), not a python3 command
_PYTHON_VERSION = _words(r"python\s*version")
PYTHON_WORD = _words(r"(?<![A-Za-z0-9_/\\-])python(?![A-Za-z0-9_/\\-])")
# a Python release stated, not a path's folder ("/usr/lib/python3/dist-packages")
PYTHON_STATED = _words(
    r"(?<![A-Za-z0-9_/\\-])python\s*\(?v?3(?:\.\d{1,2}){0,2}(?:\.x)?\+?(?![A-Za-z0-9_/\\]|\.\w)",
    r"(?<![A-Za-z0-9_/\\-])py3\d{1,2}(?![A-Za-z0-9_])",
)
PIP_LOOKUP = _words(r"(?<![A-Za-z_.])(?:exists?|available|installable)(?![A-Za-z_(])", r"没有对应|装不上|安装不了")
# (conda's cudatoolkit too: "the dismatch version of pytorch and cudatoolkit" is CUDA's side of it)
GPU_WORDS = _words(r"(?<![A-Za-z])(?:cuda(?:toolkit)?|gpus?|cudnn|nccl|devices?)(?![A-Za-z])", r"is_available|显卡")
BUILD_STEP = _words(
    r"Getting requirements to build|Preparing metadata|build dependencies|pip-build-env|build_meta|egg_info|"
    r"setup\.py|bdist_wheel|Building wheels?|Failed to build|build isolation"
)
# torch looked for, or said absent ("couldn't find", "is not already available", "not installed as a dependency")
FIND_TORCH = _words(
    r"(?:find|found|locate|detect|import)\w*",
    r"(?<![A-Za-z])(?:available|installed|present)(?![A-Za-z])",
    r"(?<![A-Za-z])install(?:ed)?(?:\s+\S+){0,3}\s+first",
    r"找不到|未安装|没有安装",
)
# something the system has said too old, in any language ("is too old", "older than", "outdated", "stale GPU drivers",
# "版本太低")
TOO_OLD = _words(
    r"too\s+old|older\s+than|outdated|stale(?<![A-Za-z]stale)(?![A-Za-z])|(?:not|n[\u2019']t)\s+new\s+enough|too\s+low(?![A-Za-z])",
    r"太旧|过旧|过低|太低|不够新|版本低|低版本|版本较低|较旧",
)
# (never conda's virtual package "__glibc=2.39=0", listed where a solve fails for another reason)
GLIBC = _words(r"(?<![A-Za-z_])g?libc(?![A-Za-z+_])")
# what a system comes with ("does not come with the glibc version flash_attn needs", "doesn't ship a newer glibc")
# a glibc of some version, not glibc at all ("the glibc version", "a newer glibc", "glibc 2.32"; musl has none)
NEWER = _words(r"(?<![A-Za-z])(?:version|newer|required|recent|new\s+enough)(?![A-Za-z])", r"\d\.\d{2}")
COMES_WITH = _words(r"(?<![A-Za-z])(?:come|comes|have|has|ship|ships|include|includes|provide|provides)(?![A-Za-z])")


@dataclass(frozen=True, slots=True)
class Claim:
    """All `concepts` in one sentence (none of `unless` in it); `context` somewhere in the text when given, and
    `not_context` nowhere in it."""

    ref: str
    concepts: tuple[re.Pattern[str], ...]
    unless: tuple[re.Pattern[str], ...] = ()
    context: re.Pattern[str] | None = None
    not_context: re.Pattern[str] | None = None
    says: tuple[str, str] | None = None  # (cause, fix) when this claim means more than its cause's usual words

    def holds(self, text: Text) -> bool:
        if self.context is not None and not text.has(self.context):
            return False
        return self.not_context is None or not text.has(self.not_context)

    def found_in(self, sentence: str) -> bool:
        return all(c.search(sentence) for c in self.concepts) and not any(u.search(sentence) for u in self.unless)


# a predicate denied: "not built", "isn't compiled", "no longer supported", "没有编译"
NOT_BUILT = _then(NOT, BUILT_FOR, 12)
# what stands between a denial and its verb ("does not currently have support", "doesn't yet offer any support")
_NOT_YET = _words(r"(?:(?:currently|yet|officially)\s+)?(?:have|has|offer|offers|provide|provides)\s+(?:any\s+)?")
# an install said impossible in Chinese ("安装不了", "装不上", "无法安装")
_INSTALL_FAILS_ZH = _words(r"安装不了|装不上|装不了|无法安装|不能安装")
_WITH_PYTHON_ZH = _words(r"(?:用|使用)\s*(?:py(?:thon)?\s*)?3\.\d{1,2}")
# a Python release's support asked for ("Support Python version 3.11", "Support for Python 3.13")
_SUPPORT_ASKED = _words(r"support\s+(?:for\s+)?python\s*(?:version\s*)?3\.\d{1,2}")
# torch's compiler named ("Dynamo is not supported on Python 3.12+", torch.compile): a feature, not a build
_COMPILER_FEATURE = _words(r"(?<![A-Za-z])(?:Torch)?Dynamo(?![A-Za-z])|torch\.compile")
_LINKER = _words(r"undefined\s+symbols?\s+for\s+architecture", r"\bld:\s", r"collect2")
# a build said to lack GPU support ("installs without gpu support", "built without CUDA support", "构建的包并不支持
# GPU"; not bitsandbytes' "was compiled without GPU support", which it prints when its CUDA library fails to load)
_BUILT_WITHOUT_GPU = _words(
    r"(?:install(?:s|ed)?|buil[dt]s?)\s+(?:it\s+)?without\s+(?:GPU|CUDA)\s+support|"
    r"构建[^\n\u3002\uff0c,]{0,8}(?:并)?不支持\s*(?:GPU|CUDA)"
)
# LD_LIBRARY_PATH said to win over a binary's own libraries ("LD_LIBRARY_PATH ... shadows torch's own bundled CUDA
# runtime", "LD_LIBRARY_PATH takes precedence over the RUNPATH")
_LOADER_PATH_WINS = _words(
    r"LD_LIBRARY_PATH[^\n.]{0,120}?(?:shadow(?:s|ed|ing)?|takes?\s+precedence|overrid(?:es|den|ing))|"
    r"(?:shadow(?:s|ed|ing)?|overrid(?:es|den|ing))\s+by\s+(?:the\s+|a\s+)?(?:system\s+)?LD_LIBRARY_PATH"
)
# the first CUDA call said to take long ("The first call to .cuda() takes more than one minute", "Initial call to
# .cuda() very slow")
_FIRST_CUDA_SLOW = _words(
    r"(?:first|initial)\s+(?:call\s+to\s+)?[`'\"]?(?:\S*\.)?cuda\(\)[`'\"]?\s+(?:call\s+)?(?:is\s+|was\s+)?"
    r"(?:(?:very|extremely|really|super)\s+slow|slow|takes?\s+(?:more\s+than\s+|over\s+|about\s+|almost\s+)?"
    r"(?:a|one|two|several|\d+)\s+minutes?)"
)
# torch's own GPU build spoken of ("No GPU build for Pytorch 2.5.x", "the CUDA wheels of torch")
_TORCH_VARIANT_BUILD = _words(
    r"(?<![A-Za-z])(?:GPU|CUDA|ROCm)\s+(?:builds?|wheels?|binar(?:y|ies)|packages?)\s+(?:for|of)\s+(?:py)?torch(?![\w-])"
)
# torch itself the one denied ("Torch not compiled with CUDA enabled"): torch's build, not a package's
_TORCH_DENIED = _then(TORCH, NOT_BUILT, 8)
# torch itself absent ("No module named 'torch'", "'torch' module not available. Please install pytorch"): nothing was
# built for another torch
_NO_MODULE_TORCH = _words(r"No\s+module\s+named\s+['\"`]?torch['\"`]?(?!\w|\.\w)")
_TORCH_NOT_INSTALLED = _words(
    _NO_MODULE_TORCH.pattern, r"['\"`]torch['\"`]\s+module\s+(?:is\s+)?not\s+(?:available|found)"
)
_TORCH_VERSION = _words(r"(?<![A-Za-z0-9_-])(?:py)?torch\s*(?:version\s*)?[:=v]?\s*[12]\.\d{1,2}")
# torch's own build named as the package ("the PyTorch build does not support", "torch wheels are not built for"):
# a claim about torch itself, not about an extension built for it
# (a "torch extension" is a package built for torch, not torch's own)
_TORCHS_OWN = _then(TORCH, _words(r"(?<![A-Za-z])(?:build|wheels?|whl|binar(?:y|ies)|package)(?![A-Za-z])"), 2)
# torch itself the thing built ("Can't build Pytorch", nixpkgs#89403: a distribution's build of torch failing its own
# import check): torch's own build, not an extension built for another torch
_BUILDING_TORCH = _words(r"(?<![A-Za-z])(?:build|building|compile|compiling)\s+(?:the\s+|a\s+)?(?:py)?torch(?![\w-])")
# torch's own notice on Windows and macOS (redirects.py: "NOTE: Redirects are currently not supported in Windows or
# MacOs."), printed by every distributed run there: no claim about a build (sd-scripts#2202)
_TORCH_NOTICE = _words(r"Redirects\s+are\s+currently\s+not\s+supported")
# pip's own words belong to its resolver, read by the install rule
_RESOLVER = _words(r"distribution|satisf|from versions|installation\s+candidates")
_WINDOWS_LOADER = _words(r"specified\s+module\s+could\s+not\s+be\s+found|DLL\s+load\s+failed")
# the NVIDIA driver ("the driver is outdated", "低版本的显卡驱动", "CUDA驱动版本与PyTorch运行时环境不匹配"); NVML's
# "Driver/library version mismatch" is the kernel module and the user-space library disagreeing (a reboot), not age
DRIVER = _words(r"(?<![A-Za-z])drivers?(?![A-Za-z])", r"驱动")
_NVML = _words(r"NVML|library\s+version|kernel\s+module|glibc|gcc|nvcc")
# a GPU architecture ("sm_80", "compute capability", "算力") said mismatched ("a CUDA capability mismatch"); a toolkit
# in the sentence makes it the toolkit's claim
# ("SM 86" too, but not "SM 12.1": a capability written as a decimal is the warning's, read by the kernels rule)
ARCH = _words(
    r"(?<![A-Za-z])sm[_ ]?\d{2,3}(?![0-9])(?!\.\d)",
    r"(?:compute|cuda)\s+capabilit(?:y|ies)",
    r"算力",
    r"(?:CUDA|GPU)\s*架构",
)
_TOOLKIT = _words(r"nvcc|toolkit|工具包")
SUPPORT = _words(r"(?<![A-Za-z])support(?:s|ed|ing)?(?![A-Za-z])")
KERNELS = _words(r"(?<![A-Za-z])(?:kernels?|code\s+objects?)(?![A-Za-z])", r"内核|核函数")
# a file or library said to be absent ("cublas64_100.dll ... are missing from the wheel", "找不到 libcudnn")
MISSING = _words(
    r"(?<![A-Za-z])(?:missing|not\s+found|absent)(?![A-Za-z])",
    r"(?:can'?t|cannot|could\s*n[o']t|unable\s+to)\s+(?:be\s+)?(?:find|found|locate|located)",
    r"缺少|缺失|找不到",
)
# a CUDA library's version said mismatched ("cuDNN版本不匹配", "a cuBLAS version conflict"): another copy is loaded
CUDA_LIBRARY = _words(
    r"(?<![A-Za-z_])(?<!nvidia-)(?:cu ?dnn|cublas(?:Lt)?|cudart|cufft|curand|cusparse|cusolver|nvrtc|nvjitlink)"
    r"(?![A-Za-z_])"
    r"(?![-_]frontend)"
)  # a status code (CUDNN_STATUS_ARCH_MISMATCH) is the library's error, not its version; cudnn-frontend is headers
# a header the compiler cannot find ("fatal error: cudnn_frontend.h: No such file"): the build's include path, not a
# library the loader looks for
_HEADER = _words(r"\.(?:h|hpp|cuh)\b", r"#include", r"fatal\s+error\s*:")
# a wheel said absent for a platform ("there is not win_amd64 .whl", "no aarch64 wheels"): nothing to install there
# ("no arm64 builds of 0.11.1 for macOS": builds in the plural are files published, not the act of building)
# (not a word inside a file or job name: "build_wheels_windows.yml", test-infra#8094)
WHEEL = _words(r"\.whl|(?<![A-Za-z_])(?:wheels?|whl|binar(?:y|ies)|prebuilt|builds)(?![A-Za-z_])", r"预编译|安装包")
# ... said missing ("because of `av` missing wheels")
_ABSENT = r"(?<![A-Za-z])(?:missing|lack(?:s|ing)?)(?![A-Za-z])"
PLATFORM = _words(
    r"(?<![A-Za-z])(?:win_amd64|win32|windows|macos|mac\s*os|darwin|aarch64|arm64|jetson)(?![A-Za-z])",
    r"苹果|Mac",
    # (IBM POWER and Z, 32-bit ARM, RISC-V: "there aren't any binaries for ppc64le")
    r"(?<![A-Za-z0-9])(?:ppc64le|ppc64|s390x|armv7l?|riscv64)(?![A-Za-z0-9])",
)
# pip's "Could not find a version that satisfies the requirement" as its translations and people say it
NO_SATISFYING = _then(_words(r"找不到|无法找到|没有找到|未找到"), _words(r"满足要求|符合要求|satisf"), 12)
# the C++ ABI named ("_GLIBCXX_USE_CXX11_ABI", "the old CXX11 ABI", "`__cxx11`", "pre-cxx11"), and a trouble said of it
# (linking, undefined references, a mismatch); a compiler's command line names the flag with no trouble at all
CXX11_ABI = _words(
    r"_GLIBCXX_USE_CXX11_ABI", r"(?:c\+\+|cxx)\s*11\s*abi", r"(?<![A-Za-z])__cxx11(?![A-Za-z])", r"pre-?cxx11"
)
LINK_TROUBLE = _words(
    r"(?<![A-Za-z])link(?:ing|er|ed)?(?![A-Za-z])",
    r"undefined\s+(?:reference|symbol)",
    r"problem|issue|trouble",
    r"链接",
)
_COMMAND_LINE = _words(r"(?<!\S)-(?:I/|f[a-z]|O[0-3s]|std=|W[a-z,])")
# torch named with a release twice, two releases ("built for PyTorch 2.3.0 ... still use PyTorch 2.2.x")
# a torch release named, its version glued on or not ("pytorch1.13.1", "torch 2.0")
_TORCH_RELEASE = _words(r"(?<![A-Za-z0-9_-])(?:py)?torch\s*v?[12]\.\d{1,2}")
_TWO_TORCHES = re.compile(
    r"(?<![A-Za-z0-9_-])(?:py)?torch\s*v?(?P<a>[12]\.\d{1,2})(?:\.[\dx]+)?(?![\d])"
    r"(?:[^\n.。?\uff1f!\uff01]|\.(?=\d)){1,80}?"
    r"(?<![A-Za-z0-9_-])(?:py)?torch\s*v?(?!(?P=a)(?![\d]))[12]\.\d{1,2}",
    re.IGNORECASE,
)
# ... anywhere in the text, sentences apart
_TWO_TORCHES_APART = re.compile(
    r"(?<![A-Za-z0-9_-])(?:py)?torch\s*v?(?P<a>[12]\.\d{1,2})(?![\d])[\s\S]*?"
    r"(?<![A-Za-z0-9_-])(?:py)?torch\s*v?(?!(?P=a)(?![\d]))[12]\.\d{1,2}",
    re.IGNORECASE,
)

_PINNED_TO = _words(r"(?<![A-Za-z])(?:pinned|tied|locked)\s+to")
_BUILT_WITH = _words(r"used\s+to\s+(?:build|compile)|(?:was|is)\s+(?:built|compiled)\s+(?:with|against)")
INSTALL = _words(r"(?<![A-Za-z])(?:install\w*|pip)(?![A-Za-z])", r"安装")
OUTCOME = _words(r"(?<![A-Za-z])(?:fail\w*|succe\w+|works?|worked|broke\w*)(?![A-Za-z])")
# a Python range ("python version >= 3.9", "python <= 3.8", "Python above 3.10")
PYTHON_RANGE = _words(r"python\s*(?:version\s*)?(?:[<>]=?|=<|=>|above|below|newer\s+than|older\s+than)\s*3\.\d{1,2}")
_NOT_DECLARED = _words(
    r"not\s+(?:a|listed\s+as\s+a|declared\s+as\s+a)\s+(?:build\s+)?(?:dependency|requirement)",
    r"(?:isn'?t|is\s+not)\s+(?:declared|listed)\s+(?:as\s+a\s+)?(?:build\s+)?(?:dependency|requirement)",
)
_ARM = _words(r"(?<![A-Za-z])(?-i:ARM)(?![A-Za-z])", r"(?<![A-Za-z])(?:aarch64|arm64)(?![A-Za-z])")
_VERSION_WORD = _words(r"(?<![A-Za-z])(?:version|build|wheel|release|package)s?(?![A-Za-z])")
# what a package-level platform claim says (the package named is not torch)
_PACKAGE_PLATFORM = (
    "the package publishes no build for this platform (said in words)",
    "run it on a platform it publishes builds for (its PyPI files or docs list them: Linux x86_64 in most cases; on "
    "Windows, WSL2), use a fork or alternative that builds for this platform, or build it from source",
)
_FAILED = _words(r"(?<![A-Za-z])(?:fail\w*|broke\w*|errors?)(?![A-Za-z])")
_WORKED = _words(r"(?<![A-Za-z])(?:works?|worked|succe\w+|fine)(?![A-Za-z])")
_PY_AT = _words(r"(?<![A-Za-z])(?:with|on|under|using)\s+python\s*3\.\d{1,2}")
# torch moved to another release ("upgrading torch", "updated PyTorch", "升级torch")
UPGRADED = _words(r"(?<![A-Za-z])(?:upgrad|updat|bump)\w*", r"升级|更新")
# a named NVIDIA card's model ("RTX 3090", "GeForce GT 730", "Tesla K80")
# an RTX 50 / Blackwell card named ("Blackwell GPUs", "RTX 5070 Ti", "RTX 50 series", "50X0 series", sm_120)
_BLACKWELL_CARD = _words(
    r"Blackwell|(?<![A-Za-z])(?:RTX\s*)?50[5-9]0(?:\s*Ti)?(?![\d])|50[X\d]0\s+series|RTX\s*50[\s-]*series|sm_?120"
)
_CARD_MODEL = _words(r"(?<![\w-])(?:GeForce\s+)?(?:RTX|GTX|GT|Titan|Quadro|Tesla)\s*[A-Z]{0,2}\s?\d{2,4}(?!\d|\.\d)")
# something compiled for another torch than the one installed ("compiled for an old version of torch")
_FOR_ANOTHER_TORCH = _words(
    r"(?:compiled|built)\s+(?:for|against|with)\s+(?:an?\s+|the\s+)?(?:old(?:er)?|previous|prior|different|another|"
    r"wrong)\s+(?:(?:version|release)\s+of\s+)?(?:py)?torch(?![A-Za-z])"
)
# something said built with one torch release and failing ("built with torch v2.7.0 does not work with ...", "compiled
# with pytorch 2.2.1 will crash")
_BUILT_WITH_TORCH_FAILING = _then(
    _words(BUILT_FOR_TORCH.pattern),
    _words(
        r"(?:does\s*n[o'\u2019]?t|do\s+not|won[\u2019']?t)\s+work|will\s+crash|crash(?:es|ed)?|breaks?|incompatible"
    ),
    80,
)
# a torch release said to have broken a package ("torch 2.10.0 broke torchcodec")
_BROKE = _words(r"(?<![A-Za-z])(?:broke|breaks|has\s+broken)(?![A-Za-z])")
# the user's own command removing packages ("pip uninstall torch torchaudio")
_REMOVE_COMMAND = re.compile(
    r"(?<![A-Za-z])(?:pip3?|conda|mamba|micromamba|uv\s+pip)\s+(?:uninstall|remove)(?![A-Za-z])", re.IGNORECASE
)
# an installer swapping torch out ("removes PyTorch ... reinstalls pytorch", "uninstalled my torch")
SWAPPED = _words(r"(?<![A-Za-z])(?:remov|uninstall|replac|reinstall|overwr[io]t|downgrad)\w*")
# ... not a person moving to another release on purpose ("If we downgrade to `torch==1.11.0+cu102` and
# `torchvision==0.12.0+cu102`, the code runs fine": the pair they chose, no installer's swap)
_DOWNGRADED_BY_HAND = _words(r"(?<![A-Za-z])(?:we|I|you)\s+(?:\w+\s+)?downgrad\w*\s+(?:to\s+)?[`'\"]?(?:py)?torch")

# torch said not compiled or built (not "no longer supports this GPU", which is the architecture's age)
_TORCH_NOT_COMPILED = _then(TORCH, _then(NOT, _words(r"(?<![A-Za-z])(?:compiled|built)(?![A-Za-z])"), 12), 8)
_CANNOT_INSTALL = _words(
    r"(?:can[\u2019'`]?t|cannot|unable\s+to|fail(?:s|ed)?\s+to|could(?:\s*not|n[\u2019'`]?t))\s+"
    r"(?:get\s+pip\s+to\s+)?install"
)
# platforms many torch releases have no wheels for (Apple silicon before 1.12, Intel Macs after 2.2, ARM boards)
_NARROW_PLATFORM = _words(
    r"(?<![A-Za-z0-9])M[1-4]\s+(?:Mac|chip|Pro|Max)|Apple\s+silicon|Intel\s+Mac|(?<![A-Za-z])(?:aarch64|arm64|ARM|"
    r"Raspberry\s*Pi|armv7l?)(?![A-Za-z0-9])"
)
CUDA_OR_GPU = _words(r"(?<![A-Za-z])(?:cuda|gpu)(?![A-Za-z])")
# "couldn't find a pytorch 1.3 version with my python 3.8": the installer finding no torch release for the interpreter
_FOUND_NO = _words(r"(?:could(?:\s*not|n'?t)|can'?t|cannot|unable\s+to)\s+find")
IMPORT_FAILS = _words(
    r"(?:can\s*not|can'?t|cannot|unable\s+to|fail(?:s|ed)?\s+to)\s+import", r"import\s+error", r"ImportError"
)
_CPU_RUN = _words(r"(?:run|runs|running|ran)\s+(?:\w+\s+){0,4}?on\s+(?:my|the)\s+CPU(?![A-Za-z])")
_WRONG_TORCH = _words(r"(?:wrong|CPU)[\s-]+(?:\w+\s+)?(?:version|build)\s+of\s+(?:py)?torch(?![\w-])")
_COMPILE_FAILED = _words(r"(?:(?:could|can)\s*(?:not|n['\u2019]?t)|fail(?:ed|s)?\s+to|unable\s+to)\s+compile")
_IMPORT_NAME = _words(r"cannot\s+import\s+name\s+['\"`]?\w+['\"`]?\s+from")
VERSION_TROUBLE = _words(r"version\s+(?:issue|problem|mismatch|conflict|incompatib\w*)|版本(?:问题|不匹配|冲突)")

# a build's lowest architecture said ("whose kernels start at sm_75")
_KERNELS_START = _words(
    r"(?:kernels?|wheels?|builds?|binar(?:y|ies))\s*,?\s+(?:start|begin)s?\s+(?:at|from)\s+sm_?\d{2,3}"
)
_KERNELS_START_SAYS = (
    "the torch build's kernels start above this GPU's architecture (said in words): it carries no kernel for the card",
    "install a torch build whose architectures include the GPU's (an older CUDA variant keeps older cards: envplan "
    "matrix lists each variant's architectures), or build torch with TORCH_CUDA_ARCH_LIST naming the card's",
)
CLAIMS = (
    # "torchaudio与torch的版本不匹配", "torchvision does not match the installed torch"
    # (not a download's checksum: "Checksum mismatch for pytorch::torchvision-0.10.0-py39_cu111")
    Claim("companion-mismatch", (COMPANION, _near(TORCH, MISMATCH, 40)), unless=(_words(r"checksum|md5|sha256"),)),
    # "torchvision import ... crashes due to mismatched package versions": the companion and torch named apart
    Claim(
        "companion-mismatch",
        (COMPANION, _words(r"mis-?matched\s+(?:package\s+)?versions?|version\s+mis-?match")),
        unless=(EXTENSION_NAMED, _PYTHON_VERSION),
    ),
    # "installing torchaudio first removes the PyTorch I installed, then reinstalls pytorch": the companion release
    # pins another torch, so the installer swaps torch for it
    # (the user's own command is no such claim: "pip uninstall torch torchaudio" before installing another build)
    Claim(
        "companion-mismatch",
        (COMPANION, _near(SWAPPED, TORCH, 30)),
        unless=(EXTENSION_NAMED, _REMOVE_COMMAND, _DOWNGRADED_BY_HAND),
    ),
    # "pip install xformers-0.0.18-...whl always uninstalls my pytorch1.13.1 and then installs torch2.0": the
    # extension's wheel pins another torch release, so the installer swaps torch for it
    Claim(
        "extension-torch-mismatch",
        (_near(SWAPPED, _TORCH_RELEASE, 30), _TWO_TORCHES),
        unless=(COMPANION,),
        context=EXTENSION_NAMED,
    ),
    # "installing torchtext requires torch 2.0.1": the companion release asks for another torch release than the one
    # installed (pip's own "torchvision X requires torch==Y" is the companion rule's)
    Claim(
        "companion-mismatch",
        (
            _then(
                _then(COMPANION, _words(r"(?<![A-Za-z])(?:requires|needs|wants|pulls\s+in)(?![A-Za-z])"), 12),
                _TORCH_RELEASE,
                6,
            ),
        ),
        unless=(EXTENSION_NAMED,),
    ),
    # "Update torchvision package to meet torch requirements": the companion pinned is not torch's
    Claim(
        "companion-mismatch",
        (
            _then(
                COMPANION,
                _words(
                    r"(?<![A-Za-z])(?:meet|match|satisfy|fit)\s+(?:the\s+)?(?:py)?torch(?:['\u2019]s)?\s+"
                    r"(?:requirements?|version)"
                ),
                40,
            ),
        ),
        unless=(EXTENSION_NAMED,),
    ),
    # "Installation instructions broken, possibly by new torchvision and torchaudio audio releases": a companion release
    # newer than the torch installed, pulled in unpinned
    Claim(
        "companion-mismatch",
        (
            _words(r"(?<![A-Za-z])(?:broken|broke|breaks)(?![A-Za-z])"),
            _then(_words(r"(?<![A-Za-z])(?:new|latest)(?![A-Za-z])"), _then(COMPANION, _words(r"releases?"), 40), 4),
        ),
        unless=(EXTENSION_NAMED,),
    ),
    # "the latest version of torchaudio (v.1.10) cannot be imported correctly within colab" (speechbrain#1131): the
    # companion's release is not the one built for the torch beside it
    Claim(
        "companion-mismatch",
        (_then(COMPANION, _words(r"(?:can\s*not|can['\u2019]?t|could\s*n['\u2019]?t)\s+be\s+imported"), 60),),
        unless=(EXTENSION_NAMED,),
    ),
    # "Latest pytorch brings wrong torchvision": the companion said to be the wrong one for torch
    Claim("companion-mismatch", (_then(_words(r"(?<![A-Za-z])wrong(?![A-Za-z])"), COMPANION, 4), TORCH)),
    # "`undefined symbol` errors" of a companion, the symbol not quoted (a linker's, at build time, is no such thing)
    Claim("companion-mismatch", (COMPANION, UNDEFINED), unless=(_LINKER,)),
    # "the package is not built for PyTorch 1.12", "扩展没有针对当前torch编译"
    # (not "was not built with tensorflow or pytorch support": a build without its torch ops, not for another torch)
    # (not "CUDA is available for PyTorch, but NNCF could not compile GPU quantization extensions": a build on this
    # machine that failed, which says nothing of the torch it was for)
    # (not "No GPU build for Pytorch 2.5.x on this cluster": torch's own CUDA build said missing, no extension's)
    Claim(
        "extension-torch-mismatch",
        (PACKAGE, NOT_BUILT, TORCH),
        unless=(
            _TORCH_VARIANT_BUILD,
            _BUILT_WITHOUT_GPU,
            COMPANION,
            PYTHON,
            _TORCH_DENIED,
            _TORCHS_OWN,
            _then(TORCH, SUPPORT, 4),
            _TORCH_NOT_INSTALLED,
            _COMPILE_FAILED,
            _BUILDING_TORCH,
            _TORCH_NOTICE,
        ),
    ),
    Claim(
        "extension-torch-mismatch",
        (PACKAGE, _near(MISMATCH, TORCH, 24)),
        unless=(COMPANION, PYTHON, GPU_WORDS, _TORCHS_OWN),
    ),
    # "torch版本和mim install mmcv-full==1.6.0的版本好像不对应": torch's and a named extension's versions said not to
    # match
    Claim(
        "extension-torch-mismatch",
        (_then(TORCH, _then(EXTENSION_NAMED, MISMATCH, 30), 30),),
        unless=(PYTHON, GPU_WORDS, _TORCHS_OWN),
    ),
    # "the wheel was built for PyTorch 2.3.0, while users still run PyTorch 2.2.x": two releases, one built for
    Claim("extension-torch-mismatch", (PACKAGE, BUILT_FOR, _TWO_TORCHES), unless=(COMPANION, PYTHON, GPU_WORDS)),
    # "ImportError: Mooncake PG was not built against torch==2.14.0": a compiled part said not built for the torch
    # release it runs with
    Claim(
        "extension-torch-mismatch",
        (
            _then(
                _words(r"(?:was|were|is|are)(?:\s*n['\u2019]t|\s+not)\s+(?:built|compiled)\s+(?:against|for|with)"),
                _words(r"(?<![A-Za-z0-9_-])(?:py)?torch\s*(?:==|v)?\s*[12]\.\d"),
                4,
            ),
        ),
        unless=(COMPANION, PYTHON),
    ),
    # "if you install torch 2.3.0 and try with ITREX, it should result in an error due to extensions being compiled
    # in torch 2.2.0": extensions said compiled for one torch release, the text naming another
    Claim(
        "extension-torch-mismatch",
        (
            PACKAGE,
            _then(
                _words(r"(?<![A-Za-z])(?:compiled|built)(?![A-Za-z])"),
                _words(r"(?:in|with|for|against)\s+(?:the\s+)?(?:py)?torch\s*v?[12]\.\d"),
                4,
            ),
        ),
        unless=(COMPANION, PYTHON, GPU_WORDS),
        context=_TWO_TORCHES_APART,
    ),
    # "cc_attention does not support torch>=0.4.1", its cffi build failing: code of the extension written for an
    # older torch (a Python package's own support of a release, with nothing compiled, is no such thing)
    Claim(
        "extension-torch-mismatch",
        (_then(_then(NOT, SUPPORT, 4), _words(r"(?<![A-Za-z0-9_-])(?:py)?torch\s*(?:>=|>|==)?\s*v?[012]\.\d"), 6),),
        unless=(COMPANION, PYTHON),
        context=_words(r"cffi|torch\.utils\.ffi|CompileError|(?<![A-Za-z])nvcc(?![A-Za-z])|\.cu(?![\w])"),
    ),
    # "DeepSpeed needs to be re-compiled for that version" (torch moved to 2.2): a named extension's build is for the
    # torch before
    Claim(
        "extension-torch-mismatch",
        (
            EXTENSION_NAMED,
            _words(r"(?:needs?|has|have)\s+to\s+be\s+re-?(?:compiled|built)|must\s+be\s+re-?(?:compiled|built)"),
        ),
        unless=(COMPANION,),
        context=TORCH,
    ),
    # "it now uses torch 2.3.0, which has no compatible version of xformers": no build of the extension for that torch
    Claim(
        "extension-torch-mismatch",
        (_then(_TORCH_VERSION, _words(r"no\s+compatible\s+(?:version|build|release|wheel)s?"), 40), EXTENSION_NAMED),
        unless=(COMPANION,),
    ),
    # "~/.triton/torch/*.so will be compiled for an old version of torch and trigger a link error": whatever is compiled
    # for a torch is an extension of it, and this one for another torch than the one installed
    # (a companion so built is the companion rule's: "torchvision was compiled against a different torch")
    Claim("extension-torch-mismatch", (_FOR_ANOTHER_TORCH,), unless=(COMPANION,)),
    Claim("companion-mismatch", (COMPANION, _FOR_ANOTHER_TORCH)),
    # "LMCache built with torch v2.7.0 does not work with latest vLLM", "the cpp extension compiled with pytorch 2.2.1
    # will crash ... when upgrading pytorch to 2.3.0": built for one torch release, failing under another
    # (a companion so said is the companion rule's: "torchvision built with torch 2.1.0 does not work with 2.2.0")
    Claim("extension-torch-mismatch", (_BUILT_WITH_TORCH_FAILING,), unless=(COMPANION,)),
    Claim("companion-mismatch", (COMPANION, _BUILT_WITH_TORCH_FAILING)),
    # "torch 2.10.0 broke torchcodec": a torch release broke a compiled package built for the one before
    Claim("extension-torch-mismatch", (_then(_TORCH_RELEASE, _then(_BROKE, EXTENSION_NAMED, 6), 12),)),
    Claim("companion-mismatch", (_then(_TORCH_RELEASE, _then(_BROKE, COMPANION, 6), 12),)),
    # "sgl-kernel needs to be pinned to the PyTorch version used to build it": built for one torch release only
    Claim("extension-torch-mismatch", (_then(_PINNED_TO, _then(TORCH, _BUILT_WITH, 24), 12),), unless=(COMPANION,)),
    # an extension's symbols said missing in words, torch's version named: the package that owns it decides
    Claim("extension-torch-mismatch", (PACKAGE, UNDEFINED), unless=(COMPANION, TORCH, _LINKER), context=_TORCH_VERSION),
    # "I was able to use Nunchaku fine ..., but after upgrading to latest PyTorch 2.8.0 cu129, I get the following
    # error": a named extension that worked breaks once torch moved to another release
    Claim(
        "extension-torch-mismatch",
        (
            EXTENSION_NAMED,
            _then(_words(r"after\s+(?:upgrad|updat)\w*\s+(?:to\s+)?(?:the\s+)?(?:latest\s+)?"), _TORCH_RELEASE, 4),
            _words(r"(?<![A-Za-z])(?:errors?|fail\w*|broke\w*|crash\w*|stopped\s+working)(?![A-Za-z])"),
        ),
        unless=(COMPANION,),
    ),
    # "flash-attn undefined symbol after upgrading torch", "升级torch后 xformers 报 undefined symbol": torch moved on
    # under an extension built for the old one
    Claim("extension-torch-mismatch", (PACKAGE, UNDEFINED, _near(UPGRADED, TORCH, 12)), unless=(COMPANION, _LINKER)),
    # "PyTorch is not released for Python 3.13", "no build of tensorrt available for python 3.11": any package
    # (not torch.compile's own refusal, "Dynamo is not supported on Python 3.13+": torch runs there, its compiler
    # does from a later torch release on)
    Claim("python-unsupported", (_then(NOT_BUILT, PYTHON, 30),), unless=(COMPANION, _COMPILER_FEATURE)),
    Claim("python-unsupported", (TORCH, _near(MISMATCH, PYTHON, 24))),
    # "torch_tensorrt does not currently have support for Python 3.13 on https://download.pytorch.org/whl/cu126",
    # vs-rife#73: the denial with words between (a package's wheels, not torch.compile's own refusal)
    Claim(
        "python-unsupported",
        (_then(_then(NOT, _then(_NOT_YET, BUILT_FOR, 4), 4), PYTHON, 12),),
        unless=(COMPANION, _COMPILER_FEATURE),
        context=INSTALL,
    ),
    # "用3.10 pytorch和一大票packages都安装不了" (MockingBird#323): torch not installable on a Python release
    Claim(
        "python-unsupported",
        (_then(_WITH_PYTHON_ZH, _INSTALL_FAILS_ZH, 30), TORCH),
    ),
    # "Support Python version 3.11" asked, pip retold finding nothing ("Says no matching distribution when I run pip
    # install torchrl", pytorch/rl#1432): no release of the package for that Python yet
    Claim("python-unsupported", (_words(r"no\s+matching\s+distribution"),), context=_SUPPORT_ASKED),
    # "其中fairseq不支持3.11" after "python3.11会各种报错": a bare Python release denied, the text stating a Python
    Claim(
        "python-unsupported",
        (_then(NOT_BUILT, _words(r"(?<![\d.])3\.1?\d(?!\d|\.\d)"), 4),),
        unless=(COMPANION, GPU_WORDS, _words(r"cuda|torch|driver|gcc|nvcc")),
        context=PYTHON_STATED,
    ),
    # "Python 3.12 is not supported by X", "my version of python isn't supported by TTS" (a Python release stated)
    Claim("python-unsupported", (_then(PYTHON_WORD, NOT_BUILT, 24),), unless=(COMPANION,), context=PYTHON_STATED),
    # "No wheel for cuda 12, pytorch 2.1.0 nor python 3.11", "i can'nt find pytorch3d wheel for python 3.11", "fails on
    # Python 3.12 because of `av` missing wheels": no build of the package for the interpreter (a wheel named by its
    # file is one the user has)
    Claim(
        "python-unsupported",
        (_near(_words(NOT.pattern, r"can'?n'?t\s+find", _ABSENT), WHEEL, 24), PYTHON_STATED),
        unless=(COMPANION, WHEEL_NAME),
        not_context=RENAMED_WHEEL,
    ),
    # "there were no PyTorch wheels yet available for 3.14": torch's wheels said missing for a Python release
    Claim(
        "python-unsupported",
        (
            _words(
                r"(?<![A-Za-z])no\s+(?:py)?torch\s+(?:wheels?|builds?|binar(?:y|ies))\s+(?:(?:yet|currently)\s+)?"
                r"(?:(?:available|published|released)\s+)?(?:yet\s+)?for\s+(?:python\s*|py|cp)?3\.?\d{1,2}(?!\d|\.\d)"
            ),
        ),
    ),
    # "Since we upgraded the PyTorch version, the pinned flash-attn version 2.7.4.post1 doesn't have a prebuilt wheel",
    # then "an unknown symbol": an extension pinned for the torch before the upgrade
    Claim(
        "extension-torch-mismatch",
        (
            _words(r"upgrad\w*\s+(?:the\s+)?(?:py)?torch"),
            EXTENSION_NAMED,
            _words(r"pre-?built\s+wheel|built\s+from\s+source"),
        ),
        context=_words(r"(?:unknown|undefined)\s+symbol"),
    ),
    # "Cannot install, torch does not exist": pip finding no torch at all, outside a package's build
    # (not "the support for torch 2.0.1 is not available": a project's own support of a release)
    # (nor where pip is shown installing the same thing: "pip install torch==2.3.1 --index-url .../cpu # works as
    # expected" above uv's "no wheels are available", uv#4303: the resolver's reading of the pin, not a missing build)
    Claim(
        "python-unsupported",
        (_then(TORCH, _then(NOT, PIP_LOOKUP, 12), 30),),
        unless=(PACKAGE, COMPANION, GPU_WORDS, SUPPORT),
        context=_words(r"install|pip|uv |conda|安装"),
        not_context=_words(BUILD_STEP.pattern, r"(?<![\w-])pip3?\s+install[^\n#]*#\s*works"),
    ),
    # "there is not win_amd64 .whl", "no wheels for aarch64": no build of the package for this platform (a wheel
    # renamed by hand, "x-1.0-py311-cp311-win_amd64.whl", has tags no interpreter accepts: its name is the trouble)
    # (a wheel named by its file is one the user has: "I used torch-1.12.0a0-cp38-cp38-linux_aarch64.whl and not the
    # latest" says nothing is missing)
    # (a wheel said not to work is one that exists: "the v1.8 whls (...aarch64.whl) does not work with CentOS 8")
    Claim(
        "python-unsupported",
        (_near(NOT, WHEEL, 16), PLATFORM),
        # (nor one said to lack a file or a loader path: "aarch64 linux wheel file does not have image.so", "the macOS
        # wheels may no longer carry an `LC_RPATH`"; nor a build of one failing, "Unable to build the wheel on
        # windows", "Could not build wheels for insightface (on Windows)": a compile error, settled as such)
        unless=(
            GPU_WORDS,
            COMPANION,
            WHEEL_NAME,
            _words(
                r"(?:not|n[\u2019']t)\s+work",
                r"(?<![A-Za-z])build(?:ing)?\s+(?:the\s+|a\s+)?wheels?(?![A-Za-z])",
                # (the builds' own jobs: "never applied to wheel-build jobs", test-infra#8094)
                r"(?<![A-Za-z])wheels?[-\s]build",
                r"(?:have|contain|include|ship|carr(?:y|ies))\w*\s+(?:an?\s+|any\s+)?[`'\"]?"
                r"(?:[\w.-]+\.(?:so|dll|dylib|pyd)|(?:LC_)?R(?:UN)?PATH)",
                # (nor an index's hashes missing for a platform's wheels: "missing hashes for the aarch64 wheel (no
                # `#sha256=` on some of them)", pytorch#153469: the wheels are there)
                r"(?<![A-Za-z])hash(?:es)?(?![A-Za-z])|sha256",
            ),
        ),
        not_context=RENAMED_WHEEL,
    ),
    # "Torch 1.1.0.post2 doesn't contain manylinux wheel files": the release has no build for Linux
    Claim(
        "python-unsupported",
        (_then(NOT, _then(_words(r"(?<![A-Za-z])(?:many)?linux"), WHEEL, 12), 24),),
        unless=(GPU_WORDS, COMPANION, WHEEL_NAME, GLIBC),
        not_context=RENAMED_WHEEL,
    ),
    # "installation succeeded with python <= 3.8 and failed with python >= 3.9": the package's builds stop at a Python
    Claim("python-unsupported", (INSTALL, _near(OUTCOME, PYTHON_RANGE, 30))),
    # "Install Failed with Python 3.13 but worked with Python 3.11": two interpreters, the newer one without builds
    Claim(
        "python-unsupported",
        (INSTALL, _near(_then(_FAILED, _PY_AT, 12), _then(_WORKED, _PY_AT, 12), 40)),
        says=(
            "the package (or one of its dependencies) has no build for the newer Python; the older one works (said in "
            "words)",
            "use the Python it worked with (a new environment with it), or releases of the package and its "
            "dependencies that support the newer Python (their PyPI files list the cp tags)",
        ),
    ),
    # "Open3D was not built with PyTorch support!" on Windows: the package's torch ops are not built for the platform
    Claim(
        "python-unsupported",
        (_then(NOT_BUILT, _then(_words(r"with"), _then(TORCH, SUPPORT, 4), 4), 8),),
        context=PLATFORM,
        says=(
            "the package's build for this platform ships without its torch ops (said in words)",
            "its torch ops are built for other platforms only (its docs list them; Linux x86_64 in most cases): run "
            "it there (on Windows, WSL), or build the package with its torch ops from source",
        ),
    ),
    # "无法找到满足要求的PyTorch版本": pip finding no torch for this interpreter or platform
    Claim("python-unsupported", (NO_SATISFYING, TORCH), unless=(COMPANION,), not_context=BUILD_STEP),
    # "在Windows环境下 ... 无法找到满足要求的Triton版本": any package pip finds none of, on a platform the text names
    Claim("python-unsupported", (NO_SATISFYING,), unless=(COMPANION,), context=PLATFORM, not_context=BUILD_STEP),
    # "PyTorch CUDA version and system CUDA version not match": the toolkit that builds against torch ("a cuda mismatch
    # error as nvcc is pointing to the base docker and pytorch is compiled with a different cuda", SuGaR#183)
    Claim(
        "toolkit-torch-cuda-mismatch",
        (
            _words(
                _near(TORCH, _words(r"(?<![A-Za-z])cuda(?:toolkit)?(?![A-Za-z])"), 12).pattern,
                _then(
                    TORCH,
                    _words(
                        r"(?:compiled|built)\s+(?:with|for|against|using)\s+(?:a\s+)?(?:different|another|"
                        r"other)\s+cuda(?![A-Za-z])"
                    ),
                    12,
                ).pattern,
            ),
            MISMATCH,
            _words(r"system|local|nvcc|toolkit"),
        ),
        unless=(DRIVER, COMPANION),
    ),
    # "Cuda mismatch between installed and PyTorch causing AutoGPTQ error": the CUDA installed (the toolkit a build
    # uses) against torch's
    Claim(
        "toolkit-torch-cuda-mismatch",
        (
            _then(
                _words(r"(?<![A-Za-z])cuda(?![A-Za-z])"),
                _then(MISMATCH, _then(_words(r"between\s+(?:the\s+)?(?:installed|system|local)"), TORCH, 30), 4),
                4,
            ),
        ),
        unless=(DRIVER, COMPANION),
    ),
    # "I compile the kernel with cuda 11.1 and it says version mismatch": the build's check of nvcc against torch
    # (not two releases of one CUDA, "the version of CUDA is 11.3.0, and the required CUDA version by conda is 11.3.1",
    # DSP-SLAM#35: torch's check compares major and minor, a patch release is the same CUDA to it)
    Claim(
        "toolkit-torch-cuda-mismatch",
        (_words(r"version\s+mis-?match"),),
        unless=(DRIVER, COMPANION, _words(r"gcc|g\+\+|numpy|protobuf|glibc"), _PYTHON_VERSION),
        context=_then(_words(r"compil\w*|build(?:ing)?"), _words(r"(?<![A-Za-z])cuda\s*\d{1,2}\.\d"), 40),
        not_context=_words(
            r"(?<![\w.])(?P<mm>\d{1,2}\.\d{1,2})\.\d+(?!\w|\.\d)[\s\S]{0,300}?(?<![\w.])(?P=mm)\.\d+(?!\w|\.\d)"
        ),
    ),
    # "libtorch binaries require glibc 2.29": a glibc newer than some systems have
    Claim(
        "glibc-too-old",
        (
            _then(_words(r"(?<![A-Za-z])(?:requires?|needs?|depends\s+on)(?![A-Za-z])"), GLIBC, 12),
            _near(GLIBC, _words(r"\d\.\d{2}"), 4),
        ),
    ),
    # "the glibc is too old for this wheel", "Ubuntu 20.04 does not come with the glibc version flash_attn needs"
    Claim("glibc-too-old", (GLIBC, TOO_OLD)),
    # "GLIBC incompatibility issue on RHEL8", "a failure due to GLIBC 2.29": a binary and the system's glibc disagree
    # (a build's header clash with a new glibc, "build failure on glibc 2.38+ ... header mismatch", is no old glibc)
    Claim(
        "glibc-too-old",
        (GLIBC, _words(MISMATCH.pattern, r"(?:fail\w*|error)\s+(?:due\s+to|because\s+of)")),
        unless=(_words(r"header|GCC|(?<![A-Za-z])build|compil"),),
    ),
    Claim("glibc-too-old", (GLIBC, _then(NOT, COMES_WITH, 12), _near(GLIBC, NEWER, 16))),
    # "an error about my CUDA being too old" at run time, torch's own CUDA stated newer: the driver's CUDA
    Claim(
        "driver-too-old",
        (_then(_words(r"(?<![A-Za-z])cuda(?![A-Za-z])"), TOO_OLD, 12),),
        unless=(_TOOLKIT, _NVML, ARCH, _words(r"compil|build|(?<![A-Za-z])gpu|card")),
        context=_words(r"torch[^\n]{0,40}?(?:cuda\s*1\d|cu1\d\d)"),
    ),
    # "the default pip install torch recently changed to cuda11 ... nukes pre-installed torch with a version
    # incompatible with the available cuda" (CI machines of CUDA 10.1): a torch build for a CUDA newer than the
    # machine's runs on its driver or not at all (no toolkit takes part in running a wheel)
    Claim(
        "driver-too-old",
        (
            _words(
                r"(?:incompatib\w*|not\s+compatible)\s+with\s+the\s+(?:available|installed|system(?:['\u2019]s)?|"
                r"machine(?:['\u2019]s)?|host(?:['\u2019]s)?|local)\s+cuda(?!\w|\.\d)(?!\s*(?:toolkit|compiler|version\s+of\s+nvcc))"
            ),
        ),
        unless=(_TOOLKIT, COMPANION, ARCH, _words(r"compil|(?<![A-Za-z])build")),
        context=_words(r"torch[^\n]{0,60}?(?:cuda\s*1\d|cu1\d\d)"),
    ),
    # "the graphics driver is too old for CUDA 11", "CUDA驱动版本与PyTorch运行时环境不匹配"
    # ("we got an error with outdated NVIDIA drivers" upgrading torch: NVIDIA's name says which driver)
    Claim("driver-too-old", (DRIVER, TOO_OLD), unless=(_NVML,), context=_words(GPU_WORDS.pattern, r"nvidia")),
    # "the nvidia driver version of my machine is 381.22, cuda >9 will cause insufficient driver version error"
    # (mmdetection#596): CUDA's own word for it, retold
    Claim(
        "driver-too-old",
        (_then(_words(r"(?<![A-Za-z])insufficient(?![A-Za-z])"), DRIVER, 12),),
        unless=(_NVML,),
        context=_words(GPU_WORDS.pattern, r"nvidia"),
    ),
    Claim("driver-too-old", (DRIVER, _near(MISMATCH, _words(TORCH.pattern, r"cuda"), 30)), unless=(_NVML,)),
    # "Turns out it was the driver's issue. I changed another machine with a newer driver and it finally worked": the
    # old driver was why
    Claim(
        "driver-too-old",
        (_then(_words(r"(?<![A-Za-z])(?:newer|higher|updated|latest)\s+(?:nvidia\s+)?drivers?"), _WORKED, 30),),
        unless=(_NVML, _words(r"(?<![A-Za-z])(?:printer|audio|sound|wifi|network)")),
    ),
    # "a CUDA capability mismatch (sm_80 incompatibility)": the build carries no kernels for the GPU
    Claim("arch-not-compiled", (ARCH, MISMATCH), unless=(_TOOLKIT,)),
    # "Support for sm_86", "to support sm_86 we need pytorch 1.9": the torch in use has no kernels for that GPU yet
    Claim(
        "arch-not-compiled",
        (_then(SUPPORT, _words(r"(?<![A-Za-z])sm_?\d{2,3}(?!\d)"), 6),),
        unless=(_TOOLKIT,),
        context=_words(r"torch"),
    ),
    # "PyTorch version required by NeuroX is not compatible with RTX 3090": the torch pinned carries no kernels for
    # the card (not a driver, a toolkit or a companion said incompatible)
    Claim("arch-not-compiled", (_then(TORCH, MISMATCH, 40), _CARD_MODEL), unless=(_TOOLKIT, DRIVER, COMPANION)),
    # "I have a Geforce GT 730 graphics card that uses CUDA version 3.5, but pyTorch does not support this version of
    # CUDA": torch said not to support a named card (its capability, called a CUDA version by many)
    Claim(
        "arch-not-compiled",
        (_then(_words(_TORCH_PAIR.pattern, TORCH.pattern), _then(NOT, SUPPORT, 4), 12), _CARD_MODEL),
        # ("installed versions of torch and torchvision that did not support the old CUDA version of this specific
        # card": the pair, torch first, is torch's build)
        unless=(_TOOLKIT, DRIVER, _COMPANION_ALONE, PYTHON),
    ),
    # "Add compute capability 10.0 support for Blackwell GPUs (RTX 5070 Ti) in CUDA builds": asked that the builds
    # carry an architecture, they lack it
    Claim(
        "arch-not-compiled",
        (
            _then(_words(r"(?<![A-Za-z])add(?:s|ed|ing)?(?![A-Za-z])"), _then(ARCH, SUPPORT, 20), 12),
            _words(r"(?<![A-Za-z])(?:builds?|wheels?|binar(?:y|ies))(?![A-Za-z])"),
        ),
        unless=(_TOOLKIT, DRIVER),
    ),
    # "the torch (cu128) has no sm_60 kernels", "no kernels for sm_61": the build lacks that architecture
    Claim("arch-not-compiled", (_near(NOT, KERNELS, 20), ARCH), unless=(_TOOLKIT,)),
    # "the RTX 3070 in my system has a newer compute version than is supported" (3d-photo-inpainting#130): torch's
    # capability warning retold
    Claim(
        "arch-not-compiled",
        (
            _words(
                r"newer\s+(?:cuda\s+)?compute\s+(?:version|capability)\s+than\s+(?:is\s+|are\s+)?(?:currently\s+)?supported"
            ),
        ),
        unless=(_TOOLKIT,),
    ),
    # "PyTorch not supporting cards with compute capability SM 86", "(sm_110), which CUDA 12.9 wheels were not built
    # for": the builds in use carry no kernels for that architecture
    Claim("arch-not-compiled", (_then(_then(NOT, SUPPORT, 4), ARCH, 40),), unless=(_TOOLKIT,), context=TORCH),
    Claim("arch-not-compiled", (ARCH, _then(WHEEL, NOT_BUILT, 8)), unless=(_TOOLKIT,)),
    # "no SparseConv pip version for Cuda 12.8 ... can't be run on Blackwell gpus (50X0 series)": a package without a
    # build for CUDA 12.8, the first CUDA that compiles for sm_120, on an RTX 50 / Blackwell card
    Claim(
        "arch-not-compiled",
        (
            _then(
                NOT,
                _then(
                    _words(r"(?<![A-Za-z])(?:builds?|wheels?|versions?|releases?|binar(?:y|ies)|prebuilt)(?![A-Za-z])"),
                    _words(r"(?<![\d.])(?:cuda|cu)\s*_?12\.?[89](?![\d])"),
                    30,
                ),
                50,
            ),
        ),
        unless=(TORCH,),
        context=_BLACKWELL_CARD,
        not_context=DRIVER,
    ),
    # "Local inference with Blackwell (RTX 50 series) GPUs defaults to using CPU", with the cu128 build as the way out:
    # the torch installed has no sm_120 kernels, so the app runs on the CPU
    Claim(
        "arch-not-compiled",
        (
            _then(
                _BLACKWELL_CARD,
                _words(
                    r"(?:defaults?|falls?\s+back|fell\s+back|reverts?)\s+to\s+(?:using\s+)?(?:the\s+)?CPU(?![A-Za-z])"
                ),
                60,
            ),
        ),
        unless=(DRIVER,),
        context=_words(r"(?<![A-Za-z])cu1(?:2[89]|3\d)(?!\d)|cuda\s*(?:12\.[89]|13(?:\.\d)?)(?!\d|\.\d)"),
    ),
    # "bump the Cuda version in the setup scripts from 124 to 128 so that this thing doesn't crash with modern
    # blackwell cards like the RTX5090": builds for a CUDA before 12.8 carry no sm_120 kernels
    Claim(
        "arch-not-compiled",
        (
            _words(
                r"from\s+(?:cuda\s*|cu)?(?:11\.?\d|12\.?[0-7])\s+to\s+(?:cuda\s*|cu)?(?:12\.?[89]|13\.?\d)(?![\d])",
                r"(?:cuda\s*|cu)?(?:11\.?\d|12\.?[0-7])\s*(?:->|\u2192)\s*(?:cuda\s*|cu)?(?:12\.?[89]|13\.?\d)(?![\d])",
            ),
        ),
        unless=(DRIVER,),
        context=_BLACKWELL_CARD,
    ),
    # "the kernels do not compile with modern CUDA: `sm_37` was deprecated, which is required for building them": an
    # nvcc that no longer compiles for the architecture the build asks
    Claim(
        "arch-not-compiled",
        (_near(ARCH, _words(r"deprecated|dropped|removed|no\s+longer\s+supported"), 40),),
        context=_words(r"compil|build|nvcc"),
        says=(
            "the CUDA toolkit that builds the kernels no longer compiles for an architecture the build asks for "
            "(said in words)",
            "drop that architecture from the build's list (TORCH_CUDA_ARCH_LIST, or the setup.py's -gencode flags), or "
            "build with an older CUDA toolkit that still supports it (nvcc --list-gpu-arch shows what it compiles)",
        ),
    ),
    # "cudnn_ops_infer64_8.dll is missing", "cublas64_100.dll ... are missing from the wheel": a CUDA library absent
    Claim(
        "cuda-runtime-missing",
        (CUDA_LIBRARY, MISSING),
        # (pip's resolver finding no package is not it, nor a device not found: "找不到cuda设备" after cudnn named)
        unless=(
            _TOOLKIT,
            UNDEFINED,
            _words(r"symbol"),
            _RESOLVER,
            _then(MISSING, _words(r"(?:cuda|gpu|nvidia)\s*(?:设备|devices?)"), 6),
            # (nor a container image's tag the registry does not have: "nvidia/cuda:11.2-cudnn8-devel-ubuntu18.04: not
            # found", cresset#32)
            _words(r"(?<![\w-])nvidia/cuda:[\w.-]+"),
        ),
        not_context=_HEADER,
        says=(
            "a CUDA library the binaries need is not installed, or not where the loader looks (said in words)",
            "install the CUDA runtime libraries torch's build needs (torch's pip wheels bring them as nvidia-* "
            "packages; a wheel that ships without them needs a CUDA toolkit of its CUDA on the library path); "
            "envplan doctor lists the CUDA runtimes it finds",
        ),
    ),
    # "cuDNN版本不匹配": two copies of a CUDA library, the wrong one loaded
    Claim("cuda-runtime-missing", (CUDA_LIBRARY, MISMATCH), unless=(_TOOLKIT,)),
    # "a pre-existing `LD_LIBRARY_PATH` pointing at a system CUDA ... shadows torch's own bundled CUDA runtime": the
    # loader's path said to put another CUDA's libraries before torch's own
    Claim(
        "cuda-runtime-missing",
        (_LOADER_PATH_WINS, _words(r"(?<![A-Za-z])(?:CUDA|cudart|cuDNN|cuBLAS|nvidia)(?![A-Za-z])")),
        says=(
            "the library path puts another CUDA install's libraries before the ones torch was built with (said in "
            "words)",
            "let one CUDA install win: drop the other CUDA lib directory from LD_LIBRARY_PATH (torch's pip wheels "
            "bring their own nvidia-* libraries; `unset LD_LIBRARY_PATH` to check), or install the CUDA torch was "
            "built for",
        ),
    ),
    # "projects linking against PyTorch must specify _GLIBCXX_USE_CXX11_ABI=0", "a `__cxx11` problem when linking"
    # (not where MKL's iJIT_ symbols are what the link misses, conda's MKL 2024.1 breaking torch: the C++ lines
    # beside them come from the same broken link)
    Claim("cxx11-abi-mismatch", (CXX11_ABI, LINK_TROUBLE), unless=(_COMMAND_LINE,), not_context=_words(r"iJIT_\w")),
    # "I cannot get pip to install a version of pytorch < 1.9.0 on an M1 Mac": torch's builds stop short of the platform
    Claim(
        "python-unsupported",
        (_then(_CANNOT_INSTALL, TORCH, 40), _NARROW_PLATFORM),
        unless=(COMPANION, GPU_WORDS, BUILD_STEP),
    ),
    # "But python 3.12 can`t install pyext package": the package has no build for that Python
    # (not where a compiler is what the build lacks: "Microsoft Visual C++ 14.0 or greater is required")
    Claim(
        "python-unsupported",
        (_then(PYTHON_STATED, _CANNOT_INSTALL, 8),),
        unless=(COMPANION, GPU_WORDS, BUILD_STEP),
        not_context=_words(r"Visual\s*C\+\+|MSVC|cl\.exe|(?<![A-Za-z])(?:gcc|g\+\+|compiler)(?![A-Za-z])"),
    ),
    # "Add python 3.7 to binary install page": the same request, the Python named first
    Claim(
        "python-unsupported",
        (
            _then(
                _words(r"(?<![A-Za-z])add(?![A-Za-z])"), _then(PYTHON_STATED, _then(_words(r"to|for"), WHEEL, 8), 4), 4
            ),
        ),
        unless=(COMPANION,),
    ),
    # "Can you provide python 3.6 prebuilt binaries?", "please publish wheels for Python 3.13": the same request
    Claim(
        "python-unsupported",
        (
            _then(
                _words(r"(?<![A-Za-z])(?:provide|publish|release|upload|ship|build)(?![A-Za-z])"),
                _words(
                    _then(PYTHON_STATED, WHEEL, 12).pattern,
                    _then(WHEEL, _then(_words(r"for"), PYTHON_STATED, 4), 12).pattern,
                ),
                6,
            ),
        ),
        unless=(COMPANION,),
    ),
    # "looking for torchcodec for cu130 windows but https://download.pytorch.org/whl/cu130 shows only for linux",
    # "all whl are support for linux" (to a user on Windows): the package's builds are Linux's alone
    Claim(
        "python-unsupported",
        (
            _words(
                r"(?:shows?|lists?|has|have|available|provides?|ships?)\s+only\s+(?:for|on)\s+linux|only\s+linux\s+(?:wheels|builds)",
                # ("seems like all whl are support for linux (with 'manylinux' in its name)")
                r"all\s+(?:the\s+)?(?:whls?|wheels|builds|binaries)\s+(?:are\s+)?(?:support(?:ed)?\s+)?(?:only\s+)?for\s+linux",
            ),
        ),
        context=_words(r"(?<![A-Za-z])(?:windows|win_amd64|macos|mac\s*os)(?![A-Za-z])"),
    ),
    # "torch only support the version over 1.8.0 for arm64 platform": the release asked for predates the platform's
    # builds
    Claim(
        "python-unsupported",
        (
            _then(
                _words(r"only\s+supports?\s+(?:the\s+)?versions?\s+(?:over|above|after|from|since|>=?)\s*v?\d"),
                _NARROW_PLATFORM,
                20,
            ),
        ),
    ),
    # "if you have python==3.12 or greater then you are not able to run this": the package's builds stop before it
    Claim(
        "python-unsupported",
        (
            _then(
                _words(r"python\s*(?:==|>=|version\s*)?\s*3\.\d{1,2}\s+or\s+(?:greater|higher|newer|above|later)"),
                _then(NOT, _words(r"(?<![A-Za-z])(?:run|install|use|work)"), 12),
                40,
            ),
        ),
        unless=(COMPANION, GPU_WORDS),
    ),
    # "Provide binaries for Python 3.8": a request for builds the interpreter does not have yet
    Claim(
        "python-unsupported",
        (_then(_words(r"(?:provide|publish|release|ship|add)\w*"), _then(WHEEL, PYTHON_STATED, 8), 12),),
    ),
    # "ARM support? the pip install doesn't work because it requires x86_64"
    Claim(
        "python-unsupported", (_words(r"(?:requires?|only)\s+x86[_-]64|x86[_-]64\s+only"),), context=_NARROW_PLATFORM
    ),
    # "requires the `triton` package, which is only available on Linux" on Windows: no build for the platform named
    Claim(
        "python-unsupported",
        (
            _words(
                r"only\s+(?:(?:be\s+)?available|supported|works?|runs?|built|provided|published)\s+(?:on|for)\s+"
                r"(?:linux|x86[_-]?64)(?![A-Za-z])",
                # "there are precompiled packages but they are all for linux"
                r"(?:are|is)\s+(?:all|only)\s+for\s+linux(?![A-Za-z])",
                # "只能在Linux上安装使用" (installs on Linux only), next to "Windows用不了"
                r"(?:只能|仅能|只可以|仅支持|只支持)\s*(?:在\s*)?linux",
            ),
        ),
        context=PLATFORM,
        says=_PACKAGE_PLATFORM,
    ),
    # "pydict is not updated on PyPI for python 3.12" (tensordict#766: only its 0.1.2 fits 3.12): no release of the
    # package for that Python
    Claim(
        "python-unsupported",
        (_words(r"not\s+(?:been\s+)?updated\s+(?:on\s+PyPI\s+)?for\s+python\s*3\.\d{1,2}"),),
        says=(
            "the package has no recent release for this Python on PyPI (said in words): pip falls back to an old one",
            "use a Python the package's recent releases have wheels for (its PyPI files list them), or install it "
            "from the project's own index or source",
        ),
    ),
    # "Python 3.10 ... rules out PyTorch 1.8.1": the interpreter leaves that torch release without wheels
    Claim("python-unsupported", (PYTHON_STATED, _then(_words(r"rules?\s+out"), _TORCH_VERSION, 12))),
    # "it complains that pytorch hasn't been compiled for CUDA": torch's CPU assertion retold (no NVIDIA GPU: silent)
    Claim(
        "cpu-only-build",
        (_then(_TORCH_NOT_COMPILED, CUDA_OR_GPU, 12),),
        not_context=_words(NO_NVIDIA.pattern, ASSERTION.pattern),
    ),
    # "conda-forge ... causes PyTorch to be installed from that channel, ... since that version of PyTorch does not
    # support CUDA at all": the torch installed is said to be a build without CUDA (not a CUDA release it lacks)
    Claim(
        "cpu-only-build",
        (_then(TORCH, _then(_then(NOT, SUPPORT, 4), _words(r"(?<![A-Za-z])cuda(?![A-Za-z])(?!\s*v?\d)"), 4), 30),),
        unless=(DRIVER, _words(r"(?<![A-Za-z])(?:gpu|card|sm_?\d|capabilit)")),
        not_context=NO_NVIDIA,
    ),
    # "I ended up running the program on my CPU, since I had the wrong version of torch installed": a run on the CPU
    # put down to the torch installed
    Claim("cpu-only-build", (_CPU_RUN, _WRONG_TORCH), not_context=NO_NVIDIA),
    # "when you run your requirements file it uninstalls the pytorch version for cuda and reinstalls it for CPU": an
    # install step swapped the CUDA torch for a CPU build (not the user's own "I uninstalled the CPU version")
    Claim(
        "cpu-only-build",
        (
            _then(
                _words(r"(?<![A-Za-z])(?:reinstall|replac|overwr[io]t|downgrad|swap)\w*"),
                _words(r"(?:for|with|to|by)\s+(?:the\s+|a\s+)?CPU(?:[\s-]+only)?(?:\s+(?:version|build))?(?![A-Za-z])"),
                30,
            ),
            TORCH,
        ),
        not_context=NO_NVIDIA,
    ),
    # "Could not find any lib files matching version pt211cu130": a package shipping its compiled libraries per torch
    # and CUDA release (a ptXYZcuNNN tag) has none for the installed pair
    Claim(
        "extension-torch-mismatch",
        (
            _words(
                r"(?:could\s*(?:not|n['\u2019]?t)|cannot|can['\u2019]?t|unable\s+to)\s+find\s+(?:any\s+)?(?:lib(?:rar\w+)?|"
                r"binar\w+|wheels?|\.so)\s*(?:files?\s+)?(?:matching|for)\s+(?:version\s+)?pt\d{2,3}(?:cu\d{2,3}|cpu)"
            ),
        ),
    ),
    # "If it doesn't [detect a GPU], it installs without gpu support", "导致这种构建的包并不支持 GPU": a package built
    # where no GPU was seen (a CPU node, a packager's machine) is a build without CUDA (FORCE_CUDA=1 builds it with
    # CUDA)
    # (torch itself said so, "pytorch installs without gpu support": torch's CPU build, whose fix is its CUDA variant)
    Claim("cpu-only-build", (_then(TORCH, _BUILT_WITHOUT_GPU, 12),), not_context=NO_NVIDIA),
    # (not another framework's CPU build, "onnxruntime built without cuda support": torch, a companion or an
    # extension named somewhere)
    Claim(
        "cpu-only-build",
        (_BUILT_WITHOUT_GPU,),
        unless=(_words(r"onnx\s*runtime|tensorflow|paddle|(?<![A-Za-z])jax(?![A-Za-z])|cupy"),),
        context=_words(TORCH.pattern, COMPANION.pattern, EXTENSION_NAMED.pattern),
        not_context=NO_NVIDIA,
        says=(
            "a package was built without GPU support (no GPU was seen where it was built), so its CUDA code is missing "
            "(said in words)",
            "rebuild it with CUDA forced (FORCE_CUDA=1, and TORCH_CUDA_ARCH_LIST naming the GPUs it will run on), or "
            "install its CUDA build",
        ),
    ),
    # "The first call to .cuda() takes more than one minute" (a Titan X Pascal on binaries without sm_60/61): the
    # driver compiles the kernels from PTX for an architecture the binaries carry no code for
    Claim(
        "arch-not-compiled",
        (_FIRST_CUDA_SLOW,),
        not_context=NO_NVIDIA,
        says=(
            "the first CUDA call is slow because the driver compiles torch's kernels from PTX: the binaries carry no "
            "code for this GPU's architecture (said in words)",
            "install a torch build whose architecture list includes this GPU (torch.cuda.get_arch_list() shows the "
            "build's; envplan doctor compares it with the GPU), or keep the JIT cache (CUDA_CACHE_MAXSIZE) so it "
            "compiles once",
        ),
    ),
    # "grabbing the non-cuda pytorch version", "force downgrade to Non-CUDA Torch": the torch installed is named a
    # build without CUDA
    Claim(
        "cpu-only-build",
        (_words(r"(?<![A-Za-z])non[- ]?cuda\s+(?:py)?torch(?![A-Za-z0-9_-])"),),
        not_context=NO_NVIDIA,
    ),
    # "the NVIDIA driver version on Replicate nodes is less than required by CUDA 11.3": the driver said below what a
    # CUDA release needs
    Claim(
        "driver-too-old",
        (_then(DRIVER, _words(r"(?:less|lower|older)\s+than\s+(?:what\s+(?:is\s+)?)?required\s+by\s+cuda\s*\d"), 40),),
        unless=(_NVML,),
    ),
    # "PyTorch 2.11 cu130, whose kernels start at sm_75, for the V100's sm_70 GPU": a build's lowest architecture
    # said where a card failed on it (the card's own architecture is not compared: few texts state both)
    Claim("arch-not-compiled", (_KERNELS_START,), says=_KERNELS_START_SAYS),
    # "the installed PyTorch used an older version of CUDA than the local 12.6" (building flash-attn): torch's CUDA
    # said to differ from the toolkit building the extension
    Claim(
        "toolkit-torch-cuda-mismatch",
        (
            _then(
                TORCH,
                _words(
                    r"(?:used|uses|built\s+(?:with|for|against)|compiled\s+(?:with|for|against))\s+(?:an?\s+)?"
                    r"(?:older|newer|different|another)\s+(?:version\s+of\s+)?cuda\s+(?:version\s+)?than\s+the\s+"
                    r"(?:local|installed|system)"
                ),
                12,
            ),
        ),
    ),
    # "No Python3.8 build for Pytorch 2.5.x": the interpreter named first, torch's builds said missing for it
    Claim(
        "python-unsupported",
        (
            _words(
                r"(?<![A-Za-z])no\s+(?:python|py|cp)\s*3\.?\d{1,2}\s+(?:builds?|wheels?|binar(?:y|ies))\s+for\s+(?:py)?torch"
            ),
        ),
    ),
    # "Torch failed to build via pip in Python3.10, so I reverted to 3.9": pip building torch itself (it has no
    # source on PyPI) on a Python stated: no wheel for that interpreter
    Claim(
        "python-unsupported",
        (
            _then(
                _words(r"(?<![A-Za-z0-9_-])(?:py)?torch\s+(?:failed|fails|failing)\s+to\s+(?:build|compile)"),
                _words(r"(?<![A-Za-z])pip3?(?![A-Za-z])|python\s*3\.\d{1,2}"),
                30,
            ),
            PYTHON_STATED,
        ),
    ),
    # "`cu118`/`cu121`/`cu124` all only have CPU-only aarch64 builds" (a GH200 cluster): the index installed from gives
    # this platform torch's CPU build
    Claim(
        "cpu-only-build",
        (
            _then(
                _words(r"(?<![A-Za-z])only\s+(?:ha(?:s|ve)|provides?|ships?|publish(?:es)?|offers?)"),
                _words(r"CPU[- ]only\s+(?:[\w-]+\s+){0,2}(?:builds?|wheels?|versions?)"),
                12,
            ),
        ),
        not_context=NO_NVIDIA,
    ),
    # "pip couldn't find a pytorch 1.3 version with my python 3.8 virtualenv"
    Claim(
        "python-unsupported",
        (_then(_FOUND_NO, _TORCH_VERSION, 24), PYTHON_STATED),
        unless=(COMPANION, BUILD_STEP),
    ),
    # "can not import torch_xla ... it may be version issue": a named extension failing to import over versions (not
    # "cannot import name 'Config' from 'mmcv'": a Python name the package's other release lacks, not its compiled part)
    Claim(
        "extension-torch-mismatch",
        (EXTENSION_NAMED, IMPORT_FAILS),
        unless=(COMPANION, _IMPORT_NAME),
        context=VERSION_TROUBLE,
    ),
    # "NGC containers use CXX11 abi ... vs the pre cxx11 abi used in official pytorch": the two builds contrasted
    Claim("cxx11-abi-mismatch", (_words(r"pre[- ]?cxx11"), _words(r"(?<![A-Za-z-])(?<!pre)(?<!pre )cxx11\s*abi"))),
    # "-D_GLIBCXX_USE_CXX11_ABI=0 ... this setting is not compatible with other programs in my project"
    Claim("cxx11-abi-mismatch", (CXX11_ABI, MISMATCH), unless=(_COMMAND_LINE,)),
    # "it fails with the message: no module named torch. torch is required, but it's not a dependency in the setup":
    # the package's build does not declare torch, so pip's isolated build has none
    Claim(
        "build-isolation-missing-torch",
        (_then(TORCH, _NOT_DECLARED, 40),),
        context=_NO_MODULE_TORCH,
    ),
    # "Torchcodec is missing the ARM Linux version": no build of the package for that platform
    Claim(
        "python-unsupported",
        (_then(_words(r"missing|lacks?|lacking"), _then(_ARM, _VERSION_WORD, 16), 8),),
        says=_PACKAGE_PLATFORM,
    ),
    # "Kaolin requires PyTorch, but couldn't find the module installed", with pip building the package
    # (not Windows' loader, "The specified module could not be found", a DLL a built module needs: the build is done)
    Claim(
        "build-isolation-missing-torch",
        (TORCH, _then(NOT, FIND_TORCH, 12)),
        # (NumPy 2's words under an older torch, "RuntimeError: Numpy is not available", are no missing torch)
        unless=(_RESOLVER, _WINDOWS_LOADER, _words(r"Numpy\s+is\s+not\s+available")),
        context=BUILD_STEP,
    ),
    # "torch missing when running setup.py", "it compiles gsplat before pytorch is installed"
    Claim(
        "build-isolation-missing-torch",
        (
            _words(
                _near(TORCH, MISSING, 8).pattern,
                _then(_words(r"before"), _then(TORCH, _words(r"installed"), 12), 8).pattern,
            ),
        ),
        unless=(_RESOLVER, COMPANION),
        context=BUILD_STEP,
    ),
    # "I can't find the wheel of torchaudio 0.10.0" on a Jetson (AGX Xavier, JetPack 5): the companion publishes no
    # build for the platform (pytorch/audio#3275: built from source against NVIDIA's torch there); not a mismatch
    Claim(
        "python-unsupported",
        (_near(_FOUND_NO, WHEEL, 16), COMPANION),
        unless=(MISMATCH, WHEEL_NAME),
        context=_words(PLATFORM.pattern, r"(?<![A-Za-z])(?:JetPack|Xavier|Orin|L4T|Tegra)(?![A-Za-z])"),
        says=_PACKAGE_PLATFORM,
    ),
    # "We manually install a cpu-only version of pytorch, but automatically install torchvision. Both versions have to
    # match" (mrpro#693): the pair said to need matching, a companion named and no extension
    Claim(
        "companion-mismatch",
        (_words(r"versions?\s+(?:have|has|need|needs)\s+to\s+match|versions?\s+must\s+match"),),
        context=COMPANION,
        not_context=EXTENSION_NAMED,
    ),
    # "This was causing cuda .so compiled files to break as they explicitly need cu126" (DLBacktrace#17, pip having
    # installed the cu124 torch): a project's compiled modules built for another build of torch
    Claim(
        "extension-torch-mismatch",
        (
            _words(r"\.(?:so|pyd)(?![A-Za-z])"),
            _words(r"(?<![A-Za-z])(?:compiled|built)(?![A-Za-z])"),
            _words(r"(?<![A-Za-z])(?:break|breaks|broke|broken|fail\w*|crash\w*)(?![A-Za-z])"),
            _words(r"(?<![A-Za-z0-9])cu1\d{2}(?![0-9])"),
        ),
        unless=(COMPANION,),
    ),
    # "Torch not found during install on Windows" (easydiffusion#849, "installs a venv with 3.11.0" before torch had
    # wheels for it): pip finding no torch to install, the interpreter spoken of (not a package's build missing torch)
    Claim(
        "python-unsupported",
        (_then(TORCH, _words(r"not\s+found\s+(?:during|while|when)\s+(?:the\s+)?install"), 4),),
        unless=(COMPANION, PACKAGE),
        context=PYTHON_WORD,
        not_context=BUILD_STEP,
    ),
    # "Check out the version consistency between cudatoolkit and cuda before compiling tools" (GANet#4: nvcc 10.0 and
    # 10.1.105 building the ops against the pytorch channel's cudatoolkit 10.1.243): conda's cudatoolkit is torch's
    # CUDA, the other one the toolkit that builds
    Claim(
        "toolkit-torch-cuda-mismatch",
        (
            _words(r"consisten\w*|mis-?match\w*|differ\w*|(?<![A-Za-z])same(?![A-Za-z])"),
            _near(_words(r"cudatoolkit"), _words(r"(?<![A-Za-z])(?:cuda|nvcc)(?![A-Za-z])(?!\s*toolkit)"), 12),
        ),
        context=_words(r"compil\w*|setup\.py|(?<![A-Za-z])build(?:ing)?(?![A-Za-z])"),
    ),
    # "the CUDA version with support for RTX GPUs it is not the same as the requirements for genforce" (genforce#30,
    # an RTX 3060 and the project's pinned torch): the CUDA the card needs is not the one the project's pins build for
    Claim(
        "arch-not-compiled",
        (
            _then(_words(r"(?<![A-Za-z])CUDA(?:\s+version)?"), _words(r"support\s+for"), 12),
            _words(r"(?<![A-Za-z])(?:requirements?|required|requires)(?![A-Za-z])"),
            _words(r"not\s+the\s+same|differ\w*|does\s*n[o'\u2019]?t\s+match"),
        ),
        context=_words(r"(?<![A-Za-z])(?:RTX|GTX)(?:\s*\d{3,4}|\s+(?:GPUs?|series|cards?))"),
    ),
    # "the current published version only supports 1.11; I downloaded 1.12-release-with-cuda ... compilation errors
    # with 0.7.2" (tch-rs#504): a binding made for one libtorch release, another one installed
    Claim(
        "extension-torch-mismatch",
        (_then(_words(r"(?<![A-Za-z])only\s+supports?"), _words(r"(?<![\w.])[12]\.\d{1,2}(?![\d])"), 16),),
        unless=(PYTHON_WORD, COMPANION, GPU_WORDS),
        context=_words(r"libtorch|torch-sys|(?<![A-Za-z])tch(?![A-Za-z])"),
        says=(
            "the binding (tch, torch-sys, or another language's) is made for one libtorch release and another one is "
            "installed (said in words)",
            "install the libtorch release the binding's version is made for (its README or changelog names it), or "
            "the binding's release made for the installed libtorch",
        ),
    ),
    # "It seems it uses libcudnn.so.8 not cuDNN: 9.3.0.75" (ultralytics#18829, JetPack 6.2): the binary wants a CUDA
    # library's major the machine does not have
    Claim(
        "cuda-runtime-missing",
        (
            _words(
                r"lib(?:cudnn|cublas(?:Lt)?|cudart|nvrtc|cufft|curand|cusparse(?:Lt)?|cusolver)\.so\.\d+[`'\"]?\s*,?\s*"
                r"(?:and\s+|but\s+)?not\s+(?:the\s+)?(?:installed\s+)?(?:cu\s?DNN|CUDA)\s*:?\s*v?\d+"
            ),
        ),
        says=(
            "the binary links a CUDA library's major (its soname) that is not the one installed, so the loader "
            "cannot find it (said in words)",
            "install a torch build made for the library the machine has (on a Jetson, NVIDIA's JetPack build for this "
            "JetPack release), or install the library major the binary was built for",
        ),
    ),
)


def said_in_words(text: Text, kb: KB) -> list[Candidate]:
    seen: dict[str, tuple[int, Claim]] = {}
    offset = 0
    for sentence in sentences(text.raw):
        at = text.raw.find(sentence, offset)
        offset = max(offset, at)
        words = _URL.sub(" ", sentence)  # an address's host and path are no words of the claim ("whl/nightly/torch/")
        for claim in CLAIMS:
            if claim.ref in seen or not claim.found_in(words):
                continue
            if claim.holds(text):
                seen[claim.ref] = (at, claim)
    return [_candidate(text, kb, claim, at) for at, claim in seen.values()]


# an address, whose host may spell torch ("download.pytorch.org/whl/fbgemm-gpu/"): no word of the sentence
_URL = re.compile(r"https?://\S+")


def _candidate(text: Text, kb: KB, claim: Claim, at: int) -> Candidate:
    if claim.says is not None:
        cause, fix = claim.says
        return found(claim.ref, text, at, PROSE, cause=cause, fix=fix)
    if claim.ref == "python-unsupported" and not TORCH.search(_URL.sub("", text.line(at))):
        # another package said to have no build here ("Failed to install on Windows: Cannot build wheel for X")
        cause = "the package publishes no build for this Python or platform (said in words)"
        fix = (
            "use a Python and platform the package publishes builds for (its PyPI files list them), or a release of it "
            "built for this one; envplan doctor shows this interpreter and platform"
        )
        return found(claim.ref, text, at, PROSE, cause=cause, fix=fix)
    ref = claim.ref
    torch = torch_seen(text.raw)
    cause, fix = {
        "companion-mismatch": (
            "torchvision/torchaudio and torch are not a matching pair (said in words)",
            companions_fix(kb, torch.text if torch else None),
        ),
        "extension-torch-mismatch": (
            "a compiled extension was not built for the installed torch (said in words)",
            rebuild_fix("", torch),
        ),
        "python-unsupported": (
            "there is no torch build for this Python or platform (said in words)",
            "use a Python the torch release supports (envplan matrix lists them), or a torch release built for this "
            "Python",
        ),
        "glibc-too-old": (
            "the system's glibc is older than the one the binary was built on (said in words)",
            glibc_fix(""),
        ),
        "toolkit-torch-cuda-mismatch": (
            "the CUDA toolkit (nvcc) that builds against torch is another CUDA than torch's (said in words)",
            "build with the CUDA toolkit whose major.minor equals torch.version.cuda (export CUDA_HOME and PATH to "
            "it), or install the torch variant for the CUDA you have (envplan check picks it)",
        ),
        "driver-too-old": (
            "the NVIDIA driver is older than the CUDA torch was built with (said in words)",
            "compare nvidia-smi's 'CUDA Version' with torch.version.cuda (envplan doctor shows both); upgrade the "
            "driver, or install the torch variant for a CUDA the driver supports (envplan check picks it)",
        ),
        "arch-not-compiled": (
            "the installed torch (or an extension) carries no kernels for this GPU's architecture (said in words)",
            "install a torch variant (and extension wheels) whose architecture list covers the GPU: envplan doctor "
            "shows the GPU's capability and torch.cuda.get_arch_list(); envplan check picks the build",
        ),
        "cuda-runtime-missing": (
            "another copy of a CUDA library than the one the binary was built for is loaded (said in words)",
            "let one copy win: drop the other CUDA lib directory from LD_LIBRARY_PATH (torch's pip wheels bring their "
            "own nvidia-* libraries); envplan doctor lists the CUDA runtimes on the library path",
        ),
        "cxx11-abi-mismatch": (
            "the C++ code and torch were built with different _GLIBCXX_USE_CXX11_ABI settings (said in words)",
            "build with torch's own setting: python -c 'import torch; print(torch._C._GLIBCXX_USE_CXX11_ABI)', then "
            "pass -D_GLIBCXX_USE_CXX11_ABI=<that value as 0/1> to every C++ target that links against torch (or "
            "install the extension wheel whose cxx11abi tag matches it)",
        ),
        "cpu-only-build": (
            "the installed torch is a CPU build, so nothing can run on the GPU (said in words)",
            cpu_fix(kb, torch),
        ),
        "build-isolation-missing-torch": (
            "the package's build needs torch, which the installer's isolated build environment lacks (said in words)",
            "install torch first, then the package with pip install --no-build-isolation --no-deps",
        ),
    }[ref]
    return found(ref, text, at, PROSE, cause=cause, fix=fix)
