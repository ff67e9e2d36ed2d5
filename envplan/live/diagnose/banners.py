"""Banners of libraries that report the torch they were built for against the installed one (xFormers), that they
ship no binary for torch's CUDA or fell back to their CPU library (bitsandbytes), or that their CUDA kernels did not
load (AutoGPTQ, sgl-kernel)."""

from __future__ import annotations

import re

from packaging.version import Version

from envplan.kb import KB

from .cpu import cpu_fix, no_nvidia
from .facts import TorchSeen, torch_cuda, torch_seen
from .fixes import rebuild_fix
from .model import Candidate, found
from .text import Text, phrase

__all__ = ["built_for_banner"]

# (a CPU build of xFormers prints no "with CUDA" part: "PyTorch 2.0.1 (you have 2.1.0+cu121)")
_BUILT_FOR = re.compile(
    r"PyTorch\s+(?P<built>\d[\w.+]*)(?:\s+with\s+CUDA\s+(?P<cuda>\d+))?\s*\(you have\s+(?P<have>\d[\w.+]*)\)", re.I
)


# xFormers' dispatcher when its compiled ops did not load, the banner above it not pasted: in the threads that settled
# it (PromptHMR#4, ComfyUI-DepthAnythingV2#27) the xformers wheel did not match the installed torch
_NOT_BUILT_WITH_CUDA = phrase("xFormers wasn't build with CUDA support")
_NOT_BUILT_WITH_CUDA_2 = phrase("xFormers wasn't built with CUDA support")
_CPU_TORCH = re.compile(r"\d\+cpu\b|CUDA used to build PyTorch:\s*None", re.IGNORECASE)


# bitsandbytes looking for its binary for torch's CUDA ("Required library version not found:
# libbitsandbytes_cuda124.so"): the installed release ships none for that CUDA
# (newer releases: "Could not find the bitsandbytes CUDA binary at WindowsPath('.../libbitsandbytes_cuda129.dll')";
# 0.46: "Configured CUDA binary not found at .../libbitsandbytes_cuda129.so")
_BNB_MISSING = re.compile(
    r"(?:Required\s*library\s*version\s*not\s*found\s*:?|(?:Could\s*not\s*find\s*the\s*bitsandbytes|Configured)\s*CUDA\s*"
    r"binary\s*(?:not\s*found\s*)?at[^\n]{0,200}?)\s*libbitsandbytes_cuda(?P<cu>\d{2,3})\w*\.(?:so|dll)",
    re.I,
)


# Intel Extension for PyTorch's check: "needs to work with PyTorch 2.2.*, but PyTorch 2.3.0 is found"
_IPEX = re.compile(
    r"Intel\W{0,3}Extension\s*for\s*PyTorch\W{0,3}needs\s+to\s+work\s+with\s+PyTorch\s+(?P<built>[\d.*]+),?\s*"
    r"but\s+PyTorch\s+(?P<have>[\w.+]+)\s+is\s+found",
    re.IGNORECASE,
)


# any package's own check of the torch its compiled ops were built for, a release pinned (never a ">=" floor, which is
# a Python API's age): Open3D's "Version mismatch: Open3D needs PyTorch version 1.7.*, but version 1.8.2 is installed!"
_PINNED_CHECK = re.compile(
    r"(?<![\w.-])(?P<pkg>[A-Za-z][\w.-]*)\s+(?:needs|requires|was\s+built\s+for|is\s+built\s+for)\s+(?:py)?torch\s+(?:version\s+)?"
    r"(?:==\s*)?(?P<built>\d+\.\d+(?:\.\d+)?(?:\.\*)?)\s*[,;.]?\s*but\s+(?:(?:py)?torch\s+)?(?:version\s+)?"
    r"(?P<have>\d+\.\d+(?:\.\d+)?[\w.+]*)\s+(?:is|was)\s+(?:installed|found|detected)|"
    # an installer's own check of the torch its compiled parts are built for ("WARNING: Torch 2.9 is not supported.
    # Supported: 2.8")
    r"(?:py)?torch\s+(?P<have3>\d+\.\d+(?:\.\d+)?)\s+is\s+not\s+supported\.?\s*Supported\s*:\s*(?P<built3>\d+\.\d+(?:\.\d+)?)|"
    # a binding's build check (tch-rs: "Error: this tch version expects PyTorch 2.0.0, got 2.0.1")
    r"this\s+(?P<pkg2>[A-Za-z][\w.-]*)\s+version\s+expects\s+(?:py)?torch\s+(?P<built2>\d+\.\d+(?:\.\d+)?),?\s+got\s+"
    r"(?P<have2>\d+\.\d+(?:\.\d+)?[\w.+]*)|"
    # a pinned dependency checked at import (AWS Neuron: "Invalid dependency version torch==2.0.1+cu117. Expected
    # torch==1.13.1")
    r"Invalid\s+dependency\s+version\s+(?:py)?torch\s*==\s*(?P<have4>\d+\.\d+(?:\.\d+)?[\w.+]*?)\.?\s+Expected\s+"
    r"(?:py)?torch\s*==\s*(?P<built4>\d+\.\d+(?:\.\d+)?)",
    re.IGNORECASE,
)


# packages said built for another CUDA than the torch's ("installs packages built for CUDA 13.0 so importing
# torch_tensorrt fails", torch's backend cu128): their wheels are for another torch build
_BUILT_FOR_CUDA = re.compile(
    r"(?<![\w-])(?!(?:py)?torch\s)(?P<what>[A-Za-z][\w-]*)\s+(?:(?:was|were|is|are)\s+)?(?:built|compiled)\s+"
    r"(?:for|with|against)\s+CUDA\s*(?P<cuda>\d{1,2}\.\d)",
    re.IGNORECASE,
)


def _built_for_other_cuda(text: Text) -> list[Candidate]:
    m = text.search(_BUILT_FOR_CUDA)
    cuda = torch_cuda(text.raw)  # the torch in play: its variant, the backend or index asked for it
    if m is None or cuda is None or m.group("what").lower() in ("pytorch", "torch", "it"):
        return []
    if cuda == Version(m.group("cuda")):
        return []
    cu = f"{cuda.major}{cuda.minor}"
    return [
        _extension(
            text,
            m.start(),
            0.7,
            f"the package was built for CUDA {m.group('cuda')}, the torch in use for CUDA {cuda} (cu{cu})",
            f"install the package's build for cu{cu} (pin its +cu{cu} version, or its index for that CUDA), the same "
            "CUDA variant as torch's",
        )
    ]


# an extension's own check of the CUDA it was built with against the one torch runs (k2: "k2 was built using CUDA 10.1
# But you are using CUDA 10.2 to run it", after Colab upgraded torch)
_BUILT_USING_CUDA = re.compile(
    r"(?<![\w-])(?P<what>[A-Za-z][\w-]*)\s+was\s+built\s+using\s+CUDA\s*(?P<cuda>\d{1,2}\.\d)\W+but\s+you\s+are\s+using\s+"
    r"CUDA\s*(?P<have>\d{1,2}\.\d)",
    re.IGNORECASE,
)


def _built_using_other_cuda(text: Text) -> list[Candidate]:
    m = text.search(_BUILT_USING_CUDA)
    if m is None or m.group("cuda") == m.group("have"):
        return []
    what = m.group("what")
    cause = (
        f"{what} was built for a torch of CUDA {m.group('cuda')}; the torch it runs with is CUDA {m.group('have')} "
        "(torch was replaced or upgraded under it)"
    )
    return [_extension(text, m.start(), 0.8, cause, rebuild_fix(what, torch_seen(text.raw)))]


# a library's loader giving up on its compiled ops, the lines naming why not pasted; in every thread of the corpus that
# settled one, the wheel was built for another torch (or torch was a CPU build, which a "+cpu" in the text shows, read
# by the CPU rule):
# - xFormers' banner cut to its first line ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions", a title);
# - sgl-kernel's loader finding none of its common_ops builds loadable ("[sgl_kernel] CRITICAL: Could not load any
#   common_ops library!", sglang#5100 and #17460)
_LOADER_GAVE_UP = (
    (
        re.compile(r"xFormers\s+can(?:'|\u2019)?t\s+load\s+C\+\+/CUDA\s+extensions", re.IGNORECASE),
        "xformers",
        "xFormers' compiled extensions",
        0.55,
    ),
    (
        re.compile(r"Could\s+not\s+load\s+any\s+common_ops\s+library", re.IGNORECASE),
        "sgl-kernel",
        "sgl-kernel's compiled ops",
        0.6,
    ),
)


def _loader_gave_up(text: Text) -> list[Candidate]:
    if text.has(_CPU_TORCH):
        return []
    for pattern, package, what, score in _LOADER_GAVE_UP:
        m = text.search(pattern)
        if m is not None:
            cause = f"{what} did not load: the {package} wheel is built for another torch than this one"
            return [_extension(text, m.start(), score, cause, rebuild_fix(package, torch_seen(text.raw)))]
    return []


def built_for_banner(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_BUILT_FOR)
    if m is None:
        return (
            _not_built_with_cuda(text)
            or _bitsandbytes_binary(text)
            or _bitsandbytes_on_cpu(text)
            or _operator_missing(text)
            or _torch_api_in_source(text)
            or _wheel_tagged_for_another_torch(text)
            or _ipex(text)
            or _deepspeed_ops(text)
            or _pinned_check(text)
            or _built_for_other_cuda(text)
            or _built_using_other_cuda(text)
            or _torch_asserted(text)
            or _torch_sys_build(text)
            or _loader_gave_up(text)
            or _torchcodec_aborts(text)
        )
    built, have = m.group("built"), m.group("have")
    evidence = text.line(m.start())
    if have.endswith("+cpu") and not built.endswith("+cpu"):
        return [
            Candidate(
                ref="cpu-only-build",
                score=0.88,
                at=m.start(),
                evidence=evidence,
                cause=f"torch {have} is a CPU build; xFormers (built for {built}) cannot use the GPU",
                fix=cpu_fix(kb, torch_seen(f"torch {have}")),
            )
        ]
    if built == have:
        return []  # same torch: the banner has another reason (no NVIDIA GPU, a Python patch release)
    seen = torch_seen(f"torch {have}")
    return [
        _extension(
            text,
            m.start(),
            0.88,
            f"xformers was built for torch {built}, the installed torch is {have}",
            rebuild_fix("xformers", seen if isinstance(seen, TorchSeen) else None)
            + "; xformers pins its torch, so pick the xformers release made for this torch",
        )
    ]


def _extension(text: Text, at: int, score: float, cause: str, fix: str) -> Candidate:
    return found("extension-torch-mismatch", text, at, score, cause=cause, fix=fix)


def _not_built_with_cuda(text: Text) -> list[Candidate]:
    m = text.search(_NOT_BUILT_WITH_CUDA) or text.search(_NOT_BUILT_WITH_CUDA_2)
    if m is None or no_nvidia(text) or text.has(_CPU_TORCH):
        return []  # no NVIDIA GPU to build for, or a CPU torch (the CPU rule reads that)
    torch = torch_seen(text.raw)
    return [
        _extension(
            text,
            m.start(),
            0.7,
            "xformers' compiled ops did not load: the installed xformers wheel was built for another torch "
            "(python -m xformers.info shows the torch it wants)",
            rebuild_fix("xformers", torch)
            + "; xformers pins its torch, so pick the xformers release made for this torch (or uninstall it)",
        )
    ]


def _bitsandbytes_binary(text: Text) -> list[Candidate]:
    m = text.search(_BNB_MISSING)
    if m is None:
        return []
    cu = m.group("cu")
    cuda = f"{cu[:-1]}.{cu[-1]}"
    return [
        _extension(
            text,
            m.start(),
            0.85,
            f"the installed bitsandbytes ships no binary for CUDA {cuda}, the CUDA torch uses: it is older than "
            "that torch build (it falls back to the CPU)",
            f"install a bitsandbytes release built for CUDA {cuda} (pip install -U bitsandbytes; python -m "
            "bitsandbytes shows what it loads), or a torch variant for a CUDA that bitsandbytes ships",
        )
    ]


# bitsandbytes fallen back to its CPU library, because its CUDA setup found no CUDA runtime to load: its setup's own
# words, or the CPU library's missing GPU functions ("name 'str2optimizer8bit_blockwise' is not defined",
# "libbitsandbytes_cpu.so: undefined symbol: cget_col_row_stats")
_BNB_ON_CPU = re.compile(
    r"CUDA\s*Setup\s*failed\s*despite\s*GPU\s*being\s*available|name\s*'str2optimizer\w*'\s*is\s*not\s*defined|"
    r"libbitsandbytes_cpu\.(?:so|dll)\S*\s*undefined\s*symbol",
    re.IGNORECASE,
)


def _bitsandbytes_on_cpu(text: Text) -> list[Candidate]:
    m = text.search(_BNB_ON_CPU)
    if m is None:
        return []
    return [
        found(
            "cuda-runtime-missing",
            text,
            m.start(),
            0.65,
            cause="bitsandbytes found no CUDA runtime (libcudart) it could load, so it fell back to its CPU library",
            fix="python -m bitsandbytes shows the CUDA it looks for; put that CUDA's lib directory on "
            "LD_LIBRARY_PATH (conda: $CONDA_PREFIX/lib), or install a bitsandbytes release that ships a binary for "
            "torch.version.cuda",
        )
    ]


# torch's dispatcher knowing no operator of an extension's namespace ("RuntimeError: No such operator
# xformers::efficient_attention_forward_cutlass"): the extension's compiled library never registered its ops, as when
# it was built for another torch (torchvision's and torchaudio's own are the companions' rule; torch's own namespaces
# are torch's)
_OWN_NAMESPACES = r"(?!(?:torchvision|torchaudio|torchtext|aten|prims?|quantized|_quantized|_caffe2|c10d)\b)"
_NO_SUCH_OPERATOR = re.compile(
    rf"No\s+such\s+operator\s+{_OWN_NAMESPACES}(?P<ns>[A-Za-z_]\w*)(?:::\w+|(?![\w:]))", re.IGNORECASE
)
# ... and torch.ops asked for one ("'_OpNamespace' '_C' object has no attribute 'rms_norm'", vLLM's ops;
# "'_OpNamespace' 'fbgemm' object has no attribute 'jagged_2d_to_dense'")
_OPS_ATTRIBUTE = re.compile(
    rf"['\"]_OpNamespace['\"]\s*['\"]{_OWN_NAMESPACES}(?P<ns>\w+)['\"]\s*object\s+has\s+no\s+attribute", re.I
)


# the pip package of an operator namespace where the text cannot say it (vLLM registers its ops as torch.ops._C, read
# so where the text names vLLM; fbgemm-gpu as torch.ops.fbgemm); other namespaces are not guessed
_OPS_PACKAGE = {"_C": "vllm", "fbgemm": "fbgemm-gpu"}


def _operator_missing(text: Text) -> list[Candidate]:
    m = text.search(_NO_SUCH_OPERATOR)
    if m is not None:
        ns = m.group("ns")
        cause = (
            f"torch knows no {ns}:: operator: {ns}'s compiled library did not register its ops (built for another "
            "torch)"
        )
        return [_extension(text, m.start(), 0.7, cause, rebuild_fix(ns.replace("_", "-"), torch_seen(text.raw)))]
    m = text.search(_OPS_ATTRIBUTE)
    if m is None:
        return []
    ns = m.group("ns")
    cause = (
        f"torch.ops.{ns} lacks the operator: the compiled library that registers the {ns} operators did not load "
        "into this torch (built for another torch release)"
    )
    package = _OPS_PACKAGE.get(ns, "") if ns != "_C" or "vllm" in text.raw.lower() else ""
    return [_extension(text, m.start(), 0.6, cause, rebuild_fix(package, torch_seen(text.raw)))]


# an extension's C++ source compiled against a torch whose C++ API it was not written for: a Tensor method that this
# torch lacks ("'class at::Tensor' has no member named 'true_divide_'"), the pre-1.0 at::Type where this torch passes
# a c10::ScalarType, AT_CHECK or THC's functions (gone in 1.5 and after); THC's header itself missing (removed in torch
# 1.11), torch.utils.ffi's removal (1.0) and TH's tensor struct made opaque (0.4.1). (Those three the corpus once
# settled as the repository's own age as often; after batch AL, 6 of its 9 reports are settled as the extension built
# for another torch, 3 as none: they are read.)
_TORCH_API_IN_SOURCE = re.compile(
    r"class\s+at::Tensor['\u2019]?\s+has\s+no\s+member\s+named|"
    r"convert\s+from\s+[\"\u201c]?c10::ScalarType[\"\u201d]?\s+to\s+[\"\u201c]?at::Type|"
    r"[`'\u2018\"]AT_CHECK['\u2019\"]?\s+was\s+not\s+declared|identifier\s+\"AT_CHECK\"\s+is\s+undefined|"
    # (MSVC's words: "error C3861: 'AT_CHECK': identifier not found", "C2065: 'THCState_getCurrentStream': undeclared
    # identifier")
    r"[`'\u2018\"](?:AT_CHECK|THC[A-Z]\w*)['\u2019\"]?\s*:\s*(?:identifier\s+not\s+found|undeclared\s+identifier)|"
    # a THC function the source calls, gone with THC's removal ("identifier "THCState_getCurrentStream" is undefined")
    r"identifier\s+\"THC\w+\"\s+is\s+undefined|[`'\u2018\"]THC[A-Z]\w*['\u2019\"]?\s+was\s+not\s+declared|"
    # (its include written as the source has it: "<THC/THC.h> no such file or directory")
    r"THC[/\\]THC\.h>?[`'\"]?\s*(?:(?::\s*)?(?:No\s+such\s+file|没有那个文件或目录)|can'?t\s+(?:be\s+)?f(?:i|ou)nd|not\s+found|"
    r"fatal\s+error)|"
    # glog's CHECK_EQ family, renamed TORCH_CHECK_EQ in torch (pytorch#82032; Point-BERT#62 met both spellings): the
    # one a source uses is missing from the other side of that rename
    r"identifier\s+\"(?:TORCH_)?CHECK_(?:EQ|NE|LT|LE|GT|GE)\"\s+is\s+undefined|"
    r"[`'\u2018\"](?:TORCH_)?CHECK_(?:EQ|NE|LT|LE|GT|GE)['\u2019\"]?\s+was\s+not\s+declared|"
    r"torch\.utils\.ffi\s+is\s+deprecated|incomplete\s+type\s+['\u2018]THTensor",
    re.IGNORECASE,
)


# torch/extension.h missing where the torch stated predates it (torch.utils.cpp_extension's header came with 1.0): the
# source is written for a newer torch than the one it compiles against (with no torch stated, torch's headers may
# simply not be where the compiler looks, or torch not be in the interpreter that builds)
_EXTENSION_H_MISSING = re.compile(
    r"torch[/\\]extension\.h[`'\"]?\s*:\s*(?:No\s+such\s+file|没有那个文件或目录)", re.IGNORECASE
)


# ("My torch version is 0.4.1", "pytorch 0.4.0")
_TORCH_BEFORE_1 = re.compile(r"(?<![\w-])(?:py)?torch(?:\s+version)?(?:\s+is)?[\s:=]*0\.\d", re.IGNORECASE)


def _header_newer_than_torch(text: Text) -> re.Match[str] | None:
    m = text.search(_EXTENSION_H_MISSING)
    return m if m is not None and text.has(_TORCH_BEFORE_1) else None


def _torch_api_in_source(text: Text) -> list[Candidate]:
    m = text.search(_TORCH_API_IN_SOURCE) or _header_newer_than_torch(text)
    if m is None:
        return []
    cause = (
        "the extension's C++ source uses torch's C++ API of another release than the torch it compiles against "
        "(the source is older or newer than this torch)"
    )
    fix = (
        "build the extension's release (or branch) made for the installed torch, or install the torch release its "
        "source was written for; prebuilt wheels for this torch avoid the compile (envplan upgrade PROFILE plans both)"
    )
    return [_extension(text, m.start(), 0.65, cause, fix)]


# an extension wheel whose name states the torch it was built for (flash-attn, causal-conv1d, mamba-ssm:
# "causal_conv1d-1.0.2+cu122torch2.1cxx11abiTRUE-cp310-...whl"), failing next to another torch, or a pre-release
# (NGC's "2.1.0a0+4136153" is no release build)
_WHEEL_TAGGED = re.compile(
    r"(?<![\w.-])(?P<pkg>[A-Za-z][\w]*?)-\d[\w.]*?\+cu(?P<cu>\d{2,3})torch(?P<t>\d+\.\d+)cxx11abi(?:TRUE|FALSE)",
    re.IGNORECASE,
)
_FAILS = re.compile(r"error|fail|cannot|can't|unable|mismatch", re.IGNORECASE)


def _wheel_tagged_for_another_torch(text: Text) -> list[Candidate]:
    m = text.search(_WHEEL_TAGGED)
    torch = torch_seen(text.raw)
    if m is None or torch is None or not text.has(_FAILS):
        return []
    series = f"{torch.version.major}.{torch.version.minor}"
    prerelease = torch.version.is_prerelease or torch.version.is_devrelease
    if series == m.group("t") and not prerelease:
        return []
    pkg = m.group("pkg").replace("_", "-")
    what = f"a pre-release build of torch {series} ({torch.text})" if series == m.group("t") else f"torch {torch.text}"
    return [
        _extension(
            text,
            m.start(),
            0.7,
            f"the {pkg} wheel installed is built for the torch {m.group('t')} release wheels; the installed torch is "
            f"{what}",
            rebuild_fix(pkg, torch) + " (a container's own torch build needs the extension built from source there)",
        )
    ]


# DeepSpeed's check of the torch its installed ops were compiled with (a prebuilt DeepSpeed wheel, DS_BUILD_OPS=1):
# "PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different version than what is being
# used at runtime. Please re-install DeepSpeed or switch torch versions. Install torch version=2.1, Runtime torch
# version=2.2" (Deepspeed-Windows#4, after text-generation-webui moved to torch 2.2)
_DEEPSPEED_OPS = re.compile(
    r"PyTorch\s+version\s+mismatch!?\s*DeepSpeed\s+ops\s+were\s+compiled\s+and\s+installed\s+with\s+a\s+different\s+"
    r"version(?:[\s\S]{0,200}?Install\s+torch\s+version\s*=\s*(?P<built>\d+\.\d+)\s*,?\s*Runtime\s+torch\s+version\s*=\s*"
    r"(?P<have>\d+\.\d+))?",
    re.IGNORECASE,
)


def _deepspeed_ops(text: Text) -> list[Candidate]:
    m = text.search(_DEEPSPEED_OPS)
    if m is None:
        return []
    built, have = m.group("built"), m.group("have")
    versions = f" (torch {built}; the installed torch is {have})" if built and have else ""
    return [
        _extension(
            text,
            m.start(),
            0.9,
            f"DeepSpeed's installed ops were compiled for another torch{versions}",
            rebuild_fix("deepspeed", torch_seen(f"torch {have}") if have else torch_seen(text.raw))
            + "; or install the torch the ops were built for",
        )
    ]


def _ipex(text: Text) -> list[Candidate]:
    m = text.search(_IPEX)
    if m is None:
        return []
    return [
        _extension(
            text,
            m.start(),
            0.9,
            f"intel-extension-for-pytorch is built for torch {m.group('built')}; the installed torch is "
            f"{m.group('have')}",
            f"install the torch IPEX was built for (torch=={m.group('built')}), or the IPEX release made for torch "
            f"{m.group('have')}; IPEX pins its torch minor",
        )
    ]


# code pinned to the torch its compiled parts were built for, failing its own check: a notebook's
# `assert torch.__version__.startswith("1.7")` before installing a wheel made for torch 1.7 (Colab moved on), or a
# binding's compile-time check ("static_assert ... \"Incompatible LibTorch version\"", torch.rb)
_TORCH_ASSERTED = re.compile(
    r"assert\s+torch\.__version__\.startswith\(\s*['\"](?P<v>\d+\.\d+)['\"]\s*\)|"
    r"(?P<lib>Incompatible\s+LibTorch\s+version)",
    re.IGNORECASE,
)
# (clang: "static_assert failed", GCC and newer clang: "static assertion failed")
_ASSERTION_FAILED = re.compile(r"AssertionError|static[_\s]assert(?:ion)?\s+failed", re.IGNORECASE)


def _torch_asserted(text: Text) -> list[Candidate]:
    m = text.search(_TORCH_ASSERTED)
    if m is None or not text.has(_ASSERTION_FAILED):
        return []
    if m.group("lib"):
        cause = "the binding checks at compile time that libtorch is the release it was written for, and it is not"
        fix = "install the libtorch release the binding's version names (its README), or the binding release for yours"
    else:
        cause = (
            f"the code asserts torch {m.group('v')}, the torch its compiled packages were built for; another is "
            "installed"
        )
        fix = (
            f"install torch {m.group('v')} (the release the prebuilt packages were made for), or the packages' builds "
            "for the installed torch (their wheel index names one per torch release)"
        )
    return [_extension(text, m.start(), 0.75, cause, fix)]


# torchcodec's library loaded into a torch it was not built for, aborting at import: "terminate called after throwing
# an instance of 'std::bad_alloc'" (torchcodec#980, the PyPI wheel under an NGC container's torch 2.9 pre-release;
# whisperX#1292, gone with the torchcodec release made for the torch pinned); not memory running out
_BAD_ALLOC = re.compile(r"(?<![\w:])std::bad_alloc", re.IGNORECASE)
_TORCHCODEC = re.compile(r"(?<![\w-])torchcodec(?![\w-])", re.IGNORECASE)
_MEMORY_OUT = re.compile(r"out\s+of\s+memory|(?<![A-Za-z])OOM(?![A-Za-z])|memory\s+(?:leak|usage|exhausted)", re.I)


def _torchcodec_aborts(text: Text) -> list[Candidate]:
    m = text.search(_BAD_ALLOC)
    if m is None or not text.has(_TORCHCODEC) or text.has(_MEMORY_OUT):
        return []
    cause = "torchcodec's library aborts as it loads (std::bad_alloc): it was built for another torch than this one"
    fix = rebuild_fix("torchcodec", torch_seen(text.raw)) + " (each torchcodec release is made for one torch release)"
    return [_extension(text, m.start(), 0.6, cause, fix)]


# tch-rs's torch-sys (Rust) compiling its C++ against a libtorch the user gave (LIBTORCH=..., "the LibTorch I'm using
# is the 2.0.0"), and failing: each tch release is written for one libtorch release (its README names it), so the
# compile errors are another release's API; the version check's own words, the linker's other CPU and a libtorch not
# found at all are read elsewhere
_TORCH_SYS_BUILD = re.compile(
    r"failed\s+to\s+run\s+custom\s+build\s+command\s+for\s+[`'\"]?torch-sys|"
    r"(?:compile|build)\s+[`'\"]?torch-sys|torch-sys[`'\"]?,?\s+(?:which\s+)?fails?\s+to\s+(?:build|compile)",
    re.IGNORECASE,
)
_LIBTORCH_GIVEN = re.compile(r"LIBTORCH\s*=|(?<![\w/-])LibTorch(?:\s+I['\u2019]m\s+using)?\s+(?:is\s+)?(?:the\s+)?v?\d")
_LIBTORCH_ELSEWHERE = re.compile(
    r"expects\s+(?:py)?torch|skipping\s+incompatible|Cannot\s+find\s+a\s+libtorch\s+install|"
    r"error\s+while\s+loading\s+shared\s+libraries",
    re.IGNORECASE,
)


def _torch_sys_build(text: Text) -> list[Candidate]:
    m = text.search(_TORCH_SYS_BUILD)
    if m is None or not text.has(_LIBTORCH_GIVEN) or text.has(_LIBTORCH_ELSEWHERE):
        return []
    cause = (
        "tch's torch-sys does not compile against the libtorch given: each tch release is written for one libtorch "
        "release, and this libtorch is another"
    )
    fix = (
        "use the tch (or rust-bert) release made for this libtorch (tch's README and CHANGELOG name each one's), or "
        "the libtorch release this tch expects; LIBTORCH_USE_PYTORCH=1 builds against the Python torch instead"
    )
    return [_extension(text, m.start(), 0.6, cause, fix)]


def _pin(built: str) -> str:
    """The requirement for a pinned torch: 1.7.* for a series, 2.7.0 for an exact release."""
    base = built.removesuffix(".*")
    return base if base.count(".") == 2 else f"{base}.*"


def _pinned_check(text: Text) -> list[Candidate]:
    m = text.search(_PINNED_CHECK)
    if m is None:
        return []
    built = m.group("built") or m.group("built2") or m.group("built3") or m.group("built4")
    have = m.group("have") or m.group("have2") or m.group("have3") or m.group("have4")
    pkg = m.group("pkg") or m.group("pkg2") or "the package"
    if have.split("+")[0].startswith(built.removesuffix("*").removesuffix(".")):
        return []  # the torch installed is the one pinned: the check failed for another reason
    return [
        _extension(
            text,
            m.start(),
            0.85,
            f"{pkg}'s compiled ops are built for torch {built}; the installed torch is {have}",
            f"install the torch {pkg} was built for (torch=={_pin(built)}), or the {pkg} release "
            f"built for torch {have} (its release notes list the torch of each release)",
        )
    ]
