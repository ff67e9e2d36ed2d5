"""A CPU build of torch on a machine that has an NVIDIA GPU: torch's own assertion, or a CPU build the text shows
(a `+cpu` version, conda's `py3.8_cpu_0` / `cpuonly` / `pytorch-mutex ... cpu`, "CPU-only version" in prose, any
language) together with CUDA being unavailable. Silent when there is no NVIDIA GPU to run on."""

from __future__ import annotations

import re

from packaging.version import Version

from envplan.kb import KB
from envplan.profile.gpu import find_gpu

from .facts import WINDOWS_NAMED, TorchSeen, cuda_unusable, cuda_usable, torch_seen
from .model import Candidate, found
from .text import Text, phrase

__all__ = [
    "ASSERTION",
    "NO_NVIDIA",
    "amd_gpu_only",
    "cpu_build_shown",
    "cpu_fix",
    "cpu_only",
    "integrated_only",
    "no_gpu_said",
    "no_nvidia",
]

_ASSERT = phrase("Torch not compiled with CUDA enabled")
# the same assertion for Intel GPUs: torch's XPU build is another wheel (download.pytorch.org/whl/xpu)
_ASSERT_XPU = phrase("Torch not compiled with XPU enabled")
# the assertion as people retell it: a line (a title) that starts "Not compiled with CUDA", "Torch is not compiled
# with CUDA"; another package's "not compiled with CUDA" is that package's build, and is not this
_ASSERT_RETOLD = re.compile(
    r"^[\s#>*`\"']*(?:(?:AssertionError:\s*)?(?:py)?torch\s+(?:is\s+)?)?not\s*compiled\s*with\s*CUDA",
    re.IGNORECASE | re.MULTILINE,
)
# torch's own operators missing for the CUDA backend ("Could not run 'aten::empty_strided' with arguments from the
# 'CUDA' backend"): the torch (or libtorch) loaded has no CUDA kernels at all, a CPU build (torchvision's ops missing
# so are the companion's build, read by the companion rule)
_ATEN_NOT_ON_CUDA = re.compile(
    r"Could\s*not\s*run\s*'aten::[\w.]+'\s*with\s*arguments\s*from\s*the\s*'CUDA'\s*backend", re.I
)
# torch's CUDA hooks absent ("Pinned memory requires CUDA. PyTorch splits its backend into two shared libraries ...
# the CUDA library has not been loaded by the dynamic linker"): the torch loaded has no CUDA library, a CPU build (a
# C++ program that links libtorch without torch_cuda says it too, and names its linker)
_CUDA_HOOKS_ABSENT = re.compile(
    r"Pinned\s+memory\s+requires\s+CUDA|the\s+CUDA\s+library\s+has\s+not\s+been\s+loaded\s+by\s+the\s+dynamic\s+linker",
    re.IGNORECASE,
)
# the assertion retold the other way round, a title alone ("Cuda not compiled")
_CUDA_NOT_COMPILED_TITLE = re.compile(r"^[\s#>*`\"']*CUDA\s+(?:is\s+)?not\s+compiled[\s.!`\"']*$", re.I | re.M)
# a CPU build installed, as versions and conda package lists show it (not a requirement like "torch==2.1+cpu")
_CPU_BUILD = re.compile(
    r"(?<![=\d.])\d+\.\d+(?:\.\d+)?\+cpu\b|"
    # ... retyped without its "+", as torch's version ("The torch version for this environment is '1.10.0cpu'")
    r"(?:py)?torch(?:\s+version)?[^\n\d]{0,40}?[`'\"]?(?<![=\d.])\d+\.\d+\.\d+cpu(?![\w.])|"
    # a requirement-like pin that an installer put in ("installs `torch==2.7.1+cpu`")
    r"(?:installs?|installed|installing|pulls?|pulled)\s+[`'\"]?(?:py)?torch==\d+\.\d+(?:\.\d+)?\+cpu\b|"
    r"py\d\.?\d+_cpu_\d|\[cpuonly\]|^\s*cpuonly\s+\d|"
    # conda-forge's CPU builds: "pytorch 2.1.0 cpu_generic_py311h8354fdb_2 conda-forge" (cpu_mkl_, cpu_openblas_)
    r"(?<![\w])cpu_(?:generic|mkl|openblas)_py\d+|"
    # Anaconda's defaults channel (pkgs/main): "pytorch-1.12.1-cpu_py310h9dbd814_1"
    r"(?<![\w])cpu_py3\d{1,2}h[0-9a-f]{6,}|"
    r"pytorch-mutex\s+\S+\s+cpu\b|CUDA used to build PyTorch:\s*None|"
    # torch.version.cuda printed as None ("print(torch.version.cuda)" then "None", "torch.version.cuda: None")
    r"torch\.version\.cuda\)?[`'\"]?\s*(?:[:=#]|->|returns?|is|gives|prints?)?\s*(?:\n\s*)?[`'\"]?None\b|"
    # ... or failing to be parsed where a CUDA extension builds (cpp_extension's _check_cuda_version:
    # "packaging.version.parse(torch.version.cuda)" ... "expected string or bytes-like object, got 'NoneType'")
    r"parse\(torch\.version\.cuda\)[\s\S]{0,1200}?got\s+'NoneType'|"
    # (older torch: re.split of torch.version.cuda, "TypeError: expected string or bytes-like object", beside
    # cpp_extension's "No CUDA runtime is found": a CUDA torch's version is a string even with no GPU at build time)
    r"No\s+CUDA\s+runtime\s+is\s+found[\s\S]{0,3000}?expected\s+string\s+or\s+bytes-like\s+object|"
    r"expected\s+string\s+or\s+bytes-like\s+object[\s\S]{0,3000}?No\s+CUDA\s+runtime\s+is\s+found|"
    # torch's CUDA bindings absent from its C module ("module 'torch._C' has no attribute '_cuda_setDevice'")
    r"torch\._C['\"]?\s+has\s+no\s+attribute\s+['\"]_cuda_\w+|"
    # the version with its build in brackets, as an issue template is filled in ("PyTorch version: 1.5.0 (CPU toolkit)")
    r"(?<![\w-])(?:py)?torch(?:\s+version)?\s*:?\s*\d+\.\d+(?:\.\d+)?\s*\(\s*CPU(?:[- ]only)?"
    r"(?:\s+(?:toolkit|version|build))?\s*\)|"
    # ... or said to have none ("torch 2.10.0+cu130 -> torch 2.9.1 (no CUDA)")
    r"(?<![\w-])(?:py)?torch\s*[=:]?\s*\d+\.\d+(?:\.\d+)?`?\s*\(\s*(?:no|without)\s+CUDA\s*\)",
    re.IGNORECASE | re.MULTILINE,
)
# ... and as people write it, in any language
_CPU_WORDS = re.compile(
    r"CPU[- ]?only (?:version|build|wheel|package|torch|pytorch|mode)|(?<![A-Za-z])cpu(?:[- ]?only)?\s*(?:版本|版)|"
    r"cpu[`'\"]?(?:-| )?(?:versions?|builds?) of [`'\"]?(?:py)?torch|(?<![\w-])cpuonly(?![\w-])|"
    # "installs cpu instead of gpu version of pytorch", "the CPU version instead of the CUDA version", "cpu version
    # instead of cu121" (conda's pyg build)
    r"(?<![A-Za-z])cpu(?:\s+(?:version|build|wheel))?\s+instead\s+of\s+(?:the\s+)?(?:gpu|cuda|cu\d{2,3})(?![A-Za-z])|"
    # "mamba installs PyTorch CPU version instead", "the doc gives CPU PyTorch", "grabs pytorch \"CPU\""
    r"(?:installs?|installed|installing|gives|gave|got|gets|grabs?|picks?|picked|pulls?|pulled)\s+(?:the\s+|a\s+)?"
    r"(?:(?:py)?torch\s+[\"'`]?CPU[\"'`]?(?:[- ]?only)?(?:\s+(?:version|build|wheel))?|CPU\s+(?:py)?torch)(?![A-Za-z])|"
    # the release named before the build ("installed the PyPI `torch==2.10.0` CPU build", "torch 2.3.1 CPU version")
    r"(?<![\w-])(?:py)?torch(?:==|\s+)v?\d+\.\d+(?:\.\d+)?[`'\"]?\s+CPU[- ]?(?:only\s+)?(?:build|version|wheel)|"
    # "the pytorch versions did not download correctly (by default, without gpu support)"
    # (not a library's own "compiled without GPU support": bitsandbytes' warning)
    r"download\w*[^\n]{0,40}?\bwithout\s+(?:gpu|cuda)\s+support|"
    # "forcing a non-CUDA version of Torch to be installed"
    r"(?<![A-Za-z])non-?CUDA\s+(?:version|build|wheel)s?\s+of\s+(?:py)?torch|"
    r"(?:installs?|installed|installing)\s+(?:py)?torch\s+(?:for|with)\s+(?:the\s+)?CPU(?![A-Za-z])|"
    # the generic builds said to have no CUDA ("Binaries from the pytorch website don't use cuda on the agx orin")
    r"(?:binar(?:y|ies)|wheels?|builds?|packages?)\s+(?:from|on|of)\s+(?:the\s+)?(?:py)?torch(?:\.org)?"
    r"(?:\s+(?:website|site|index|page))?\s+(?:don'?t|do\s+not|doesn'?t|does\s+not|can'?t|cannot|won'?t)\s+"
    r"(?:use|support|have|include|enable|see)\s+(?:the\s+)?(?:cuda|gpu)|"
    r"(?:install|installs|installed|installing|gets?|got|picks?|picked|grabs?|grabbed|suggests?|suggested|"
    r"download(?:s|ed|ing)?|resolve[sd]?|chose|chooses?|choosing|pulls?|pulled|defaults?\s+to|defaulted\s+to)\s+"
    r"(?:only\s+)?(?:the |a )?\[?cpu\]?[- ]?(?:only )?(?:version|build|wheel|nightly)s?|"
    r"cpu[- ]?(?:only )?(?:version|build|wheel)s?\s+(?:is |was |gets? |got )?(?:\w+ly\s+)?installed|"
    # "Otherwise CPU PyTorch is installed and unable to take advantage of local GPUs" (yolov5#9576)
    r"(?<![A-Za-z])CPU\s+(?:py)?torch\s+(?:is|was|gets|got)\s+installed|"
    r"(?<![\w-])pytorch[_-]cpu(?![\w-])|(?<![\w-])(?:py)?torch\s+(?:cpu[- ]only|without\s+(?:the\s+)?cuda)\b|"
    r"with\s+CPU\s+support\s+only|CPU[- ]only\s+support|"
    # "torch listed in requirements.txt, but it doesn't install support for CUDA"
    r"(?:does\s*n[o']?t|does\s+not|won'?t|did\s*n[o']?t)\s+install\s+(?:the\s+)?(?:support\s+for\s+)?(?:cuda|gpu)"
    r"(?![A-Za-z])|"
    # "the environment seems to lack CUDA support for Torch", "PyTorch lacks CUDA support"
    r"lack(?:s|ing)?\s+(?:the\s+)?(?:CUDA|GPU)\s+support\s+(?:for|in)\s+(?:py)?torch(?![\w-])|"
    r"(?<![\w-])(?:py)?torch\s+(?:\w+\s+)?lack(?:s|ing)?\s+(?:the\s+)?(?:CUDA|GPU)\s+support|"
    # "the torch is actually installed with the cpu version?"
    r"(?<![\w-])(?:py)?torch\s+(?:is\s+|was\s+|got\s+|gets\s+)?(?:\w+ly\s+)?installed\s+(?:with|as)\s+(?:the\s+|a\s+)?"
    r"cpu(?:[- ]only)?[- ](?:version|build|wheel)|"
    # "Torch built without cuda support", "torch installed w/o gpu support"
    r"(?<![\w-])(?:py)?torch\s+(?:is\s+|was\s+|got\s+|gets\s+)?(?:built|compiled|installed)\s+(?:without|w/o)\s+"
    r"(?:the\s+)?(?:cuda|gpu)(?![A-Za-z])|"
    # "it will always downgrade the pytorch to cpu version", "switched torch to the CPU build", "it has dumbed down
    # torch to no cuda"
    r"(?:downgrad|switch|chang|replac|revert|turn|dumb\w*\s+down)\w*\s+(?:(?:the\s+|my\s+|our\s+)?(?:py)?torch\s+|"
    r"it\s+)(?:back\s+)?(?:in)?to\s+(?:the\s+|a\s+)?(?:cpu(?:[- ]only)?[- ](?:version|build|wheel)|no\s+cuda\b)|"
    # "Torch does not have CUDA" (a title; "pytorch image does not have cuda" is the image's, not read)
    r"(?<![\w-])(?:py)?torch\s+(?:does\s*n[o'\u2019]?t|does\s+not)\s+have\s+(?:cuda|gpu)(?![A-Za-z])|"
    # "发现pytorch版本还是cpu" (torch's version turned out to be the CPU one)
    r"(?:py)?torch\s*(?:的)?\s*版本\s*(?:还是|仍然是|仍是|是|为|变成了?|成了)\s*cpu|"
    # the build named before the verb: "Torch cpu installed on nvidia system", "torch-cpu gets installed"
    r"(?<![\w-])(?:py)?torch[- ]cpu(?:[- ]only)?\s+(?:is\s+|was\s+|gets?\s+|got\s+|being\s+|keeps\s+being\s+)?"
    r"(?:installed|reinstalled)\b",
    re.IGNORECASE,
)
# asking how to get the GPU build, which says the one installed is not it ("GPU版本的怎么安装")
_GPU_BUILD_WANTED = re.compile(
    r"(?:how (?:do i |to |can i )?|怎么|如何)\s*(?:install|安装|装)?\s*(?:the\s+)?(?:GPU|CUDA)\s*"
    r"(?:version|build|版本|版)|"
    r"(?:GPU|CUDA)\s*(?:版本|版)的?\s*(?:怎么|如何)\s*(?:安装|装)",
    re.IGNORECASE,
)
# a CUDA build named, or CUDA's libraries looked for, want one too
_WANTS_CUDA = re.compile(r"cuda|gpu|nvidia|\+cu\d{3}\b|cudnn|cublas", re.IGNORECASE)
# no NVIDIA GPU to run on: the code wants CUDA, no torch variant fixes that; another platform's hardware (a Mac, an
# AMD or Intel GPU) ...
_OTHER_HARDWARE = (
    r"(?<![A-Za-z])mac(?:OS|book| laptop)?(?![A-Za-z])|(?<![A-Za-z0-9])M[1-4](?![A-Za-z0-9])|apple silicon|"
    r"(?<![A-Za-z])OS\s?X(?![A-Za-z])|"
    r"(?<![A-Za-z])mps(?![A-Za-z])|DirectML|(?<![A-Za-z])AMD(?![A-Za-z0-9])|(?<![A-Za-z])ROCm|Other GPUs|"
    # Intel's GPUs, through IPEX or torch's XPU build: CUDA code there is the program's path, no torch variant's
    r"(?<![A-Za-z])IPEX(?![A-Za-z])|Intel\s*Arc(?![A-Za-z])|"
    # Huawei's Ascend NPUs (torch_npu, CANN): CUDA code there is the program's path, the NPU build is another stack
    r"(?<![A-Za-z])(?:Ascend|torch[_-]npu|CANN)(?![A-Za-z])|昇腾"
)
# ... or no GPU at all ...
_NO_GPU = re.compile(
    r"(?:don'?t|do not) have (?:a |an )?(?:nvidia |cuda )?(?:GPU|graphics? cards?|video card)|"
    # (not a build said so, "Wrong version of pytorch (without gpu)")
    # ("on a Windows machine without a CUDA-enabled GPU")
    r"(?<!torch \()(?<!torch\()(?:without|w/o) (?:a |an |any )?(?:CUDA(?:[- ](?:enabled|capable))? |nvidia )?GPUs?"
    r"(?!s?\s+support)|"
    # (not a program's message that it found none, "No GPU found. Conversion on CPU is very slow.", nougat#21: what
    # a CPU build of torch shows on a machine with one)
    r"no (?:nvidia |cuda(?:[- ](?:enabled|capable))? )?GPU(?!s?\s+(?:was\s+|were\s+)?(?:found|detected))|"
    r"没有\s*(?:NVIDIA\s*)?(?:CUDA|GPU|显卡|独显)|无\s*(?:CUDA|GPU|显卡)|"
    # (not torch.load's own advice, "If you are running on a CPU-only machine, please use torch.load with
    # map_location": torch prints it whenever CUDA is unusable, a CPU build's symptom too)
    r"(?<!If you are running on a )CPU[- ]only (?:machine|server|laptop|instance|computer|PC|desktop|VM|node|box)|"
    # (not a mirror that "只有 CPU 版本"; not the code seen to use the CPU alone, "我发现代码仅仅使用cpu进行训练", the
    # symptom of a CPU build)
    r"(?<!代码)(?<!程序)(?<!模型)(?<!代码仅)(?<!程序仅)(?<!模型仅)(?<!代码只)(?<!程序只)(?<!模型只)"
    r"(?:纯|仅\s*(?:有|使用)?|只有)\s*CPU(?!\s*(?:的)?\s*(?:版本|版))|"
    r"(?<![A-Za-z])I\s+only\s+(?:have|use)\s+(?:a\s+|the\s+)?CPU(?![- ]?(?:version|build|wheel|torch))|"
    # (not an index that "only has CPU-only aarch64 builds")
    r"(?<![A-Za-z])only\s+(?:have|has)\s+(?:a\s+)?CPU\s*(?:device|machine)?(?![- ]?(?:version|build|wheel|torch|only))",
    re.IGNORECASE,
)
# ... or the CPU chosen: the program's own CUDA call is then its bug, no build's
_CPU_CHOSEN = (
    # ("How can I change to False in order to use only my CPU?")
    r"(?<![A-Za-z])(?:use\s+only|only\s+use)\s+(?:my|the)\s+CPU(?![- ]?(?:version|build|wheel|torch))|"
    r"(?:don'?t|do not) (?:want|need) (?:to install )?cuda|have not installed cuda|"
    # the user on the CPU by choice or for want of a GPU ("I am using CPU only"); "it is using the CPU only" is the
    # symptom of a CPU build, not this
    r"(?<![A-Za-z])I(?:'m|\s+am)\s+(?:only\s+)?(?:using|on|running(?:\s+on)?)\s+(?:a\s+|the\s+)?CPU(?:[- ]only)?"
    r"(?![- ]?(?:version|build|wheel|torch|pytorch))(?![A-Za-z])|"
    # running without CUDA on purpose ("test without CUDA", "run it without cuda")
    r"(?<![A-Za-z])(?:test|run|use|infer|train)(?:s|ed|ing|ning)?\s+(?:it\s+|this\s+|the\s+model\s+)?without\s+CUDA"
    r"(?![A-Za-z])|"
    # running on the CPU on purpose and failing ("Training with CPU doesn't work": the code asks CUDA anyway)
    r"(?<![A-Za-z])(?:train|run|infer)\w*\s+(?:with|on)\s+(?:the\s+)?CPU\s+(?:does\s*n[o'\u2019]?t|does\s+not|"
    r"fails?|is\s*n[o'\u2019]?t)(?:\s+work)?|"
    # ... or an error thrown "on CPU" ("`Learner.create_unet(...)` throws an assertion error on CPU"): run there
    r"(?<![A-Za-z])(?:throws|throwing|raises|raising|gives|giving)\s+(?:an?\s+|the\s+|this\s+)?(?:\w+\s+){0,2}?"
    r"(?:error|exception)\s+(?:when\s+run\s+)?on\s+(?:the\s+|a\s+)?CPU"
    r"(?![- ]?(?:version|build|wheel|torch))(?![A-Za-z])|"
    # the program told to run on the CPU ("python test.py --cpu ..."): its code asking for CUDA anyway is its bug
    r"(?<![\w-])--cpu(?![\w-])|"
    # the CPU build chosen ("installed pytorch with cpu option but giving cuda error"): the CUDA path is the program's
    r"install(?:ed)?\s+(?:py)?torch\s+with\s+(?:the\s+)?cpu\s+option|"
    # asked how to run it on the CPU ("how to generate the video when running the app.py with cpu?")
    r"how\s+(?:to|can\s+i|do\s+i)\s+[^\n?]{0,60}?\s(?:with|on|using)\s+(?:the\s+|a\s+)?cpu(?:\s+only)?\s*\?|"
    # ("when trying to run the example script with only CPU"; not "it keeps running with only the CPU", a CPU
    # build's symptom)
    r"(?<![A-Za-z])to\s+(?:run|infer\w*|train\w*)\s+[^\n.]{0,40}?\bwith\s+only\s+(?:the\s+|a\s+)?CPU(?![A-Za-z])"
)
_NO_NVIDIA = re.compile(f"{_OTHER_HARDWARE}|{_NO_GPU.pattern}|{_CPU_CHOSEN}", re.IGNORECASE)
NO_NVIDIA = _NO_NVIDIA  # for the claim reader (prose.py)
ASSERTION = _ASSERT  # the assertion itself is this module's to read, with its vetoes
# integrated Intel graphics ("a Laptop with Intel i5 Graphics card", "Intel UHD", "核显") is no CUDA device, unless an
# NVIDIA card is named too (a laptop with both)
_ONBOARD = re.compile(
    r"(?<![A-Za-z])Intel(?:\(R\))?(?:\s+[\w-]+){0,2}?\s+(?:U?HD\s+|Iris\s+(?:Xe\s+)?)?Graphics|"
    r"(?<![A-Za-z])Iris\s*Xe(?![A-Za-z])|integrated\s+(?:Intel\s+)?(?:graphics|GPU)|核显|集成显卡|"
    # ("intel R lris R Xe Graphics": Xe Graphics is Intel's name alone)
    r"(?<![A-Za-z])Xe\s+Graphics",
    re.IGNORECASE,
)
# the program given the CPU as its device ("build_classifier(..., device='cpu')", "--device cpu") and asked for CUDA
# nowhere in the text: torch's assertion then comes from the program's own CUDA call, its bug, not the build
_CPU_DEVICE_ASKED = re.compile(
    r"[(,]\s*(?:[\w.]+\s*,\s*)*device\s*=\s*['\"]cpu['\"]\s*\)|(?<![\w-])--device[= ]cpu(?![\w-])", re.I
)
_CUDA_ASKED = re.compile(r"\.cuda\(|['\"]cuda(?::\d)?['\"]|--device[= ]\d", re.I)
_NVIDIA_NAMED = re.compile(r"NVIDIA|GeForce|Quadro|Tesla|(?<![A-Za-z])(?:RTX|GTX)(?![A-Za-z])|独显", re.IGNORECASE)


def cpu_build_shown(text: Text) -> bool:
    """The text shows a CPU build of torch installed (a +cpu version, conda's CPU build strings, CUDA None)."""
    return text.has(_CPU_BUILD)


def no_nvidia(text: Text) -> bool:
    """The text says there is no NVIDIA GPU to run on (a Mac, an AMD GPU, a CPU-only machine), or the program was
    told to run on the CPU and never asked for CUDA, or the user chose the CPU version and names no NVIDIA card."""
    named = _NO_NVIDIA.search(_VENDOR_LIST.sub(" ", text.raw)) is not None
    chose_cpu = text.has(_CPU_VERSION_CHOSEN) and not text.has(_NVIDIA_NAMED)
    return named or integrated_only(text) or chose_cpu or (text.has(_CPU_DEVICE_ASKED) and not text.has(_CUDA_ASKED))


# the CPU version installed on purpose ("And I installed the mmpose with the cpu version, can you help me?" under
# "Torch not compiled with CUDA enabled", mmpose#1725: the program's default device is CUDA; run it on the CPU), not
# by mistake; or the CPU version named as a case the program must handle ("The following error used to appear if you
# have cpu-only version of PyTorch", brevitas#741: the program's check forced CUDA)
_CPU_VERSION_CHOSEN = re.compile(
    r"(?<![A-Za-z])(?:I|we)\s+(?:have\s+)?install\w*\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:with\s+|using\s+)?(?:the\s+)?cpu[\s-]+"
    r"(?:only\s+)?version(?![^\n.]{0,40}?(?:mistake|accident|wrong))|"
    r"(?<![A-Za-z])(?:if|when)\s+(?:you|one|users?)\s+(?:have|use|run|install|are\s+using)\s+(?:a\s+|the\s+)?"
    r"cpu[\s-]+(?:only\s+)?(?:version|build|wheel)",
    re.IGNORECASE,
)


# the vendors and systems a program supports, listed ("(NVIDIA + AMD, Win/Linux/Mac/WSL)"): not the machine's hardware
_VENDOR_LIST = re.compile(
    r"NVIDIA\s*(?:\+|/|,|&|and)\s*AMD(?![A-Za-z])|"
    r"(?<![A-Za-z])(?:Win(?:dows)?|Linux)\s*/\s*(?:Win(?:dows)?|Linux|mac(?:OS)?)(?:\s*/\s*[A-Za-z]+)*",
    re.IGNORECASE,
)


def no_gpu_said(text: Text) -> bool:
    """The text says the machine has no GPU ("a CPU only computer", "I only have a CPU", integrated graphics): not
    the CPU chosen ("--cpu"), which a machine with a GPU does too, nor another platform's hardware (old Macs had
    NVIDIA cards, and their CUDA drivers)."""
    return text.has(_NO_GPU) or integrated_only(text)


def integrated_only(text: Text) -> bool:
    """The text names integrated Intel graphics and no NVIDIA card: the machine has no NVIDIA GPU at all."""
    return text.has(_ONBOARD) and not text.has(_NVIDIA_NAMED)


# the machine's GPU said to be AMD's ("Running on amd gpu", "Radeon", a gfx target)
_AMD_GPU = re.compile(
    r"(?<![A-Za-z])AMD\s+(?:Radeon\s+)?(?:GPU|graphics|card)s?(?![A-Za-z])|Radeon|(?<![A-Za-z])gfx\d{3,4}", re.I
)


def amd_gpu_only(text: Text) -> bool:
    """The text names an AMD GPU and no NVIDIA card: no CUDA runtime can serve the machine (its ROCm build does)."""
    return text.has(_AMD_GPU) and not text.has(_NVIDIA_NAMED)


def cpu_only(text: Text, kb: KB) -> list[Candidate]:
    xpu = text.search(_ASSERT_XPU)
    if xpu is not None:
        return [_xpu(text, xpu.start())]
    directml = _directml_on_nvidia(text)
    if directml:
        return directml
    if no_nvidia(text):
        return _mmcv_ops_without_cuda(text, gpu_here=False)
    m, score = text.search(_ASSERT), 0.9
    if m is None:
        m, score = text.search(_ATEN_NOT_ON_CUDA), 0.8
    if m is None:
        m, score = text.search(_CUDA_HOOKS_ABSENT), 0.7
    if m is None:
        m, score = text.search(_ASSERT_RETOLD), 0.7
    if m is None:
        m, score = text.search(_CUDA_NOT_COMPILED_TITLE), 0.6
    if m is None:
        m, score = _build_without_cuda(text)
    if m is None:
        return _mmcv_ops_without_cuda(text) or _pypi_default(text, kb)
    return [_cpu_build(text, kb, m, score)]


# an app's DirectML (AMD) flavour installed on an NVIDIA machine ("...\\stable-diffusion-webui-directml\\launch.py",
# "Version: v1.10.1-amd-53-g32f147b7", then "Torch is not able to use GPU" on a GeForce RTX 3080): its torch is the
# CPU build that torch-directml runs on, so CUDA is not there (StabilityMatrix#1512)
_DIRECTML_FLAVOUR = re.compile(r"webui[-_]directml|(?<![\w-])torch[-_]directml(?![\w-])|Version:\s*v[\d.]+-amd-", re.I)
# (the web UI's own check, "Torch is not able to use GPU", beside torch's assertion and CUDA said unusable)
_GPU_REFUSED = re.compile(r"Torch\s+is\s+not\s+able\s+to\s+use\s+GPU", re.IGNORECASE)


def _directml_on_nvidia(text: Text) -> list[Candidate]:
    m = text.search(_DIRECTML_FLAVOUR)
    refused = text.has(_GPU_REFUSED) or text.has(_ASSERT) or cuda_unusable(text.raw)
    if m is None or not refused or not text.has(_NVIDIA_NAMED) or text.has(_AMD_GPU):
        return []
    cause = (
        "the app's DirectML (AMD) flavour is installed: its torch is the CPU build torch-directml runs on, so the "
        "NVIDIA GPU gets no CUDA"
    )
    fix = (
        "install the app's NVIDIA flavour (its CUDA torch: pip install torch --index-url "
        "https://download.pytorch.org/whl/cu<XY> for the driver's CUDA; envplan check picks it) instead of the "
        "DirectML one"
    )
    return [found("cpu-only-build", text, m.start(), 0.75, cause=cause, fix=fix)]


# mmcv's op registry finding no CUDA kernel of an op ("nms_impl: implementation for device cuda:0 not found"): its ops
# were compiled without CUDA (the CPU mmcv(-full) wheel, or a source build on a machine without nvcc or a GPU, as on a
# cluster's login node); read where the text shows torch itself seeing the GPU, since the message alone does not say
# which build is installed (mmdetection#10841's thread settled it outside the text)
# (mmcv 1.x's words for it: "RuntimeError: nms is not compiled with GPU support")
# (the op's name from a word's start: a long run of word characters, a base64 blob in a CI log, is not retried from
# each of its characters)
_OPS_NOT_ON_CUDA = re.compile(
    r"(?<!\w)(?P<op>\w+?)_impl\s*:\s*implementation\s+for\s+device\s+cu\s*da(?::\s*\d+)?\s+not\s+found|"
    r"RuntimeError:\s*(?P<op1>\w+)\s+is\s+not\s+compiled\s+with\s+GPU\s+support",
    re.I,
)


# the machine the package was built on said to have had no GPU ("如果安装时没有 GPU", then the image fails on a GPU
# server, mmcv#1142): its CUDA ops were never compiled
_NO_GPU_AT_BUILD = re.compile(
    r"(?:安装|编译|构建)\s*(?:时|的时候)\s*(?:没有|无)\s*(?:GPU|显卡|CUDA)|"
    r"(?:install\w*|buil[dt]\w*|compil\w*)\s+(?:it\s+|mmcv\s+)?(?:on\s+a\s+machine\s+)?without\s+(?:a\s+|any\s+)?GPU|"
    r"no\s+GPU\s+(?:at|during)\s+(?:the\s+)?(?:install|build|compil)\w*",
    re.IGNORECASE,
)


def _mmcv_ops_without_cuda(text: Text, *, gpu_here: bool = True) -> list[Candidate]:
    """mmcv's ops without CUDA kernels, where the text shows torch seeing the GPU or says mmcv was built on a machine
    without one; on a machine said to have no NVIDIA GPU (`gpu_here` False), only the latter."""
    m = text.search(_OPS_NOT_ON_CUDA)
    built_without = m is not None and text.has(_NO_GPU_AT_BUILD)
    if m is None or not (built_without or (gpu_here and cuda_usable(text.raw))):
        return []
    why = "it was built on a machine without a GPU" if built_without else "torch itself sees the GPU"
    cause = (
        f"mmcv's compiled ops were built without CUDA (a CPU build of mmcv): its {m.group('op') or m.group('op1')} has "
        f"no CUDA kernel, and {why}"
    )
    fix = (
        "install the mmcv build with CUDA ops for this torch and CUDA (openmmlab's wheel index: "
        "https://download.openmmlab.com/mmcv/dist/cu<XY>/torch<X.Y>/index.html, or mim install mmcv), or rebuild it "
        "from source with FORCE_CUDA=1 (MMCV_WITH_OPS=1 for mmcv-full) on a machine with nvcc; envplan doctor shows "
        "torch's CUDA"
    )
    return [found("cpu-only-build", text, m.start(), 0.75, cause=cause, fix=fix)]


def _cpu_build(text: Text, kb: KB, m: re.Match[str], score: float) -> Candidate:
    cause = "the installed torch is a CPU build, so nothing can run on the GPU"
    return found("cpu-only-build", text, m.start(), score, cause=cause, fix=cpu_fix(kb, torch_seen(text.raw)))


# torch installed from PyPI by a plain "pip install torch": no index URL, no find-links, no CUDA build named
_PLAIN_INSTALL = re.compile(
    r"^[^\n]*?(?:pip3?|uv\s+pip|python3?\s+-m\s+pip)\s+install\b[^\n]*?(?<![\w.-])torch(?:==[\d.]+)?(?![\w.+-])[^\n]*$",
    re.IGNORECASE | re.MULTILINE,
)
_INDEX_GIVEN = re.compile(
    r"--(?:extra-)?index-url|(?<![\w-])-f\s|--find-links|download\.pytorch\.org|\+cu\d{2,3}|--torch-backend|"
    r"pytorch-cuda|cudatoolkit",
    re.IGNORECASE,
)
# NVIDIA's JetPack builds of torch (their index, their redist folder, the "nv23.06" local version, the l4t images):
# on a Jetson only these have its CUDA; PyTorch's own index serves it no better than PyPI
_JETPACK_BUILD = re.compile(r"jetson-ai-lab|/compute/redist/jp|\bnv\d{2}\.\d{1,2}\b|l4t-pytorch|l4t-ml", re.I)
# a Jetson module by name ("Jetson AGX Orin", "Jetson Nano"); the KB knows which run JetPack's L4T CUDA stack
_JETSON = re.compile(r"Jetson(?:[\s-]+(?:AGX|Orin|Xavier|Nano|NX|TX\d|Thor))+", re.IGNORECASE)


def _pypi_default(text: Text, kb: KB) -> list[Candidate]:
    """No CPU build shown, but CUDA unusable where the usual install has no CUDA for the machine: Windows with torch
    from PyPI (PyPI's Windows wheels are the CPU builds), or a Jetson before Thor with anything but NVIDIA's JetPack
    build (PyPI's and PyTorch's aarch64 wheels are CPU or SBSA builds, neither runs on JetPack's CUDA)."""
    if not cuda_unusable(text.raw):
        return []
    jetson = text.search(_JETSON)
    if jetson is not None and _tegra(kb, jetson.group(0)) and not text.has(_JETPACK_BUILD):
        return [
            found(
                "cpu-only-build",
                text,
                jetson.start(),
                0.65,
                cause="the torch installed is not NVIDIA's JetPack build: PyPI's and PyTorch's own aarch64 builds "
                f"have no CUDA for the {jetson.group(0)}'s JetPack (L4T) CUDA stack",
                fix="install NVIDIA's JetPack build of torch for the module's JetPack release (pypi.jetson-ai-lab.io, "
                "or NVIDIA's JetPack wheels), or use NVIDIA's l4t-pytorch container",
            )
        ]
    install = text.search(_PLAIN_INSTALL)
    if install is None or not text.has(WINDOWS_NAMED) or text.has(_INDEX_GIVEN):
        return _pypi_wheel_shown(text, kb)
    return [
        found(
            "cpu-only-build",
            text,
            install.start(),
            0.65,
            cause="a plain pip install torch on Windows installs PyPI's Windows wheel, which is the CPU build",
            fix=cpu_fix(kb, torch_seen(text.raw)),
        )
    ]


# pip's word that torch is installed in a Windows Python that is not conda's, its version without a local tag
# ("Requirement already satisfied: torch in c:\users\...\python39\lib\site-packages (1.7.1)"): PyPI's Windows
# wheel, the CPU build (PyTorch's own index tags its builds +cuXXX / +cpu; conda's builds carry no tag)
_PIP_HAS_TORCH = re.compile(
    r"Requirement already satisfied:\s*torch\s+in\s+(?P<path>[A-Za-z]:\\[^\n(]*?)\s*\(\d+\.\d+(?:\.\d+)?\)",
    re.IGNORECASE,
)
_CONDA_PATH = re.compile(r"conda|mamba|miniforge|mambaforge|pixi", re.IGNORECASE)


def _pypi_wheel_shown(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_PIP_HAS_TORCH)
    if m is None or _CONDA_PATH.search(m.group("path")) or text.has(_INDEX_GIVEN):
        return []
    cause = "pip shows torch in a Windows Python with no build tag: PyPI's Windows wheel, which is the CPU build"
    return [found("cpu-only-build", text, m.start(), 0.65, cause=cause, fix=cpu_fix(kb, torch_seen(text.raw)))]


def _tegra(kb: KB, name: str) -> bool:
    """Whether the Jetson named runs JetPack's L4T CUDA stack (the KB's tegra flag); a family name ("Jetson Orin")
    counts when every module of it does."""
    match = find_gpu(name, kb.gpus)
    if match is not None:
        return match.gpu.tegra
    words = " ".join(name.lower().replace("-", " ").split())
    family = [g for g in kb.gpus if any(n.lower().startswith(words) for n in g.names)]
    return bool(family) and all(g.tegra for g in family)


def _xpu(text: Text, at: int) -> Candidate:
    return found(
        "cpu-only-build",
        text,
        at,
        0.9,
        cause="the installed torch is not the XPU build, so nothing can run on the Intel GPU",
        fix="install torch's XPU build (pip install torch --index-url https://download.pytorch.org/whl/xpu, with the "
        "Intel GPU driver installed), or the application's own installer option for Intel GPUs",
    )


# torch's Windows wheels without a local version tag are the CPU builds (PyPI's; the CUDA ones carry +cuXXX)
_WINDOWS_PLAIN_WHEEL = re.compile(r"(?<![\w-])torch-\d+\.\d+(?:\.\d+)?-cp3\d+-cp3\d+m?-win_amd64\.whl", re.I)
_CUDA_TAG = re.compile(r"\+cu\d{2,3}\b")


# an issue template's CUDA field answered "none" ("CUDA/cuDNN version: No (CPU version)"): the user wants no CUDA
_NO_CUDA_FIELD = re.compile(
    r"^[\s*-]*(?:CUDA/cuDNN version|CUDA version|GPU models and configuration)\s*:\s*"
    r"(?:no|none|n/?a|cpu|not\s+(?:installed|applicable|used))\b[^\n]*$",
    re.IGNORECASE | re.MULTILINE,
)


def _wants_cuda(text: Text) -> bool:
    return _WANTS_CUDA.search(_NO_CUDA_FIELD.sub("", text.raw)) is not None


# a CPU package's name ("pytorch-cpu", "cpuonly") says what was asked for, not that it is a complaint
_PACKAGE_NAME = re.compile(r"(?:py)?torch[_-]cpu|cpuonly", re.IGNORECASE)
# ... and said ignored, a CUDA build installed in its place, the opposite complaint ("Mamba does not respect Pytorch's
# cpuonly", mamba#336): the user wanted the CPU build
# ("conda install -y libtorch ... now resolves to `libtorch 2.9.1 gpu_cuda130` - a CUDA-enabled build", "force CPU-only
# libtorch via pytorch channel", DCPerf#599: a host without CUDA given the CUDA build)
_CUDA_GOT_INSTEAD = re.compile(
    r"(?:does\s*n[o']t|does\s+not)\s+respect\s+[^\n]{0,30}?cpuonly|ignor(?:es|ed|ing)\s+[^\n]{0,30}?cpuonly|"
    r"resolv\w*\s+to\s+[^\n]{0,80}?CUDA[- ]enabled\s+build|(?<![A-Za-z])forc(?:e|es|ed|ing)\s+(?:a\s+|the\s+)?"
    r"CPU[- ]only",
    re.IGNORECASE,
)


# a CPU install said to pull NVIDIA's libraries in ("Torch-cpu installation installs full torch together with nvidia
# dependencies", poetry#10358): the CPU build is the one wanted, the complaint is what came with it
_NVIDIA_PULLED = re.compile(
    r"(?<![A-Za-z])cpu(?![A-Za-z])[^\n]{0,80}?(?:together\s+with|along\s+with|includ\w*|pull\w*\s+in|brings?|"
    r"drags?\s+in)\s+(?:all\s+)?(?:the\s+|its\s+)?[`'\"]?nvidia",
    re.IGNORECASE,
)


def _build_without_cuda(text: Text) -> tuple[re.Match[str] | None, float]:
    """A CPU build shown in the text, weighed by whether CUDA's absence is shown too."""
    if text.has(_NVIDIA_PULLED):
        return None, 0.0
    no_cuda = cuda_unusable(text.raw)
    plain = text.search(_WINDOWS_PLAIN_WHEEL)
    if plain is not None and (no_cuda or text.has(_CUDA_TAG)):
        return plain, 0.7
    build = _installed_cpu_build(text)
    if build is not None and (no_cuda or _wants_cuda(text)):
        return build, 0.85 if no_cuda else 0.7
    said = _cpu_build_said(text, no_cuda, build)
    if said[0] is not None:
        return said
    wanted = text.search(_GPU_BUILD_WANTED)
    if wanted is not None and no_cuda:
        return wanted, 0.6
    return None, 0.0


# torch's device error naming a CUDA tensor ("found at least two devices, cpu and cuda:0!"): the torch that ran has CUDA
_CUDA_TENSOR_SHOWN = re.compile(r"at\s+least\s+two\s+devices,\s*(?:cpu\s+and\s+cuda|cuda:?\d*\s+and\s+cpu)", re.I)
# the complaint itself: "only the cpu version of pytorch was installed" (the user wanted the other)
_ONLY_CPU_INSTALLED = re.compile(
    r"only\s+(?:the\s+|a\s+)?cpu(?:[- ]only)?\s+(?:version|build|wheel)\s+of\s+(?:py)?torch\s+"
    r"(?:was|got|gets|is|were)\s+(?:re)?installed|"
    # "running the given yml file ... installed a cpu-only version of pytorch" (a tool or file did, not the user)
    r"(?:installed|installs|pulled|pulls)\s+(?:me\s+)?(?:a|the)\s+cpu[- ]only\s+(?:version|build|wheel)\s+of\s+"
    r"(?:py)?torch|"
    # "the version of pytorch installed was cpu only"
    r"(?:version|build)\s+of\s+(?:py)?torch\s+(?:that\s+(?:was|got)\s+)?installed\s+(?:was|is)\s+(?:a\s+)?cpu[- ]only|"
    # "it replaced torch with one that isnt compiled with cuda" (an install swapped the build)
    r"replac\w*\s+(?:my\s+|the\s+)?(?:py)?torch\s+with\s+(?:one|a\s+(?:version|build))\s+that\s+"
    r"(?:is\s*n[o'\u2019]?t|is\s+not|was\s*n[o'\u2019]?t|was\s+not)\s+(?:compiled|built)\s+(?:with|for)\s+(?:cuda|gpu)|"
    # "Wrong version of pytorch (without gpu)"
    r"wrong\s+(?:version|build)\s+of\s+(?:py)?torch\s*\(\s*(?:no|without|w/o)\s+(?:CUDA|GPU)(?:\s+support)?\s*\)",
    re.IGNORECASE,
)


def _cpu_build_said(text: Text, no_cuda: bool, build: re.Match[str] | None) -> tuple[re.Match[str] | None, float]:
    """A CPU build said in words: with CUDA unusable or wanted, with a CPU build shown, or as the report's title."""
    only = text.search(_ONLY_CPU_INSTALLED)
    if only is not None:
        return only, 0.65
    words = text.search(_CPU_WORDS)
    # (a CUDA tensor shown: whatever build is said, the torch that ran has CUDA)
    if (
        words is None
        or text.has(_CUDA_TENSOR_SHOWN)
        or (_PACKAGE_NAME.fullmatch(words[0]) and text.has(_CUDA_GOT_INSTEAD))
    ):
        return None, 0.0
    if no_cuda or _wants_cuda(text):
        return words, 0.8 if no_cuda else 0.65
    if build is not None:
        return build, 0.65  # a CPU build shown and complained of ("the doc gives CPU PyTorch" + conda's build)
    title, _, body = text.raw.strip().partition("\n")
    if body.strip() and words.end() <= text.raw.find(title) + len(title) and not _PACKAGE_NAME.fullmatch(words[0]):
        return words, 0.6  # the report's subject, its title ("Conda installs a cpu version of pytorch") over a body
    return None, 0.0


# pip's list of the versions an index has ("(from versions: 0.4.0+cpu, 0.4.1+cu100, ...)"): offered, not installed
_OFFERED = re.compile(r"\(from versions:[^)]*\)", re.IGNORECASE)


def _installed_cpu_build(text: Text) -> re.Match[str] | None:
    offered = [(o.start(), o.end()) for o in _OFFERED.finditer(text.raw)]
    for m in _CPU_BUILD.finditer(text.raw):
        if not any(a <= m.start() < b for a, b in offered):
            return m
    return None


def cpu_fix(kb: KB, torch: TorchSeen | None) -> str:
    release = kb.release(Version(torch.version.base_version)) if torch else None
    cuda = [v for v in release.variants if v.startswith("cu")] if release else []
    example = (
        f": torch=={release.torch}+{cuda[-1]} from https://download.pytorch.org/whl/{cuda[-1]} (its variants: "
        f"{', '.join(cuda)})"
        if release and cuda
        else " from https://download.pytorch.org/whl/cuXXX"
    )
    return (
        f"install the CUDA variant of the same torch{example}; envplan check with the GPUs and driver in the "
        "profile picks the variant the driver can run"
    )
