"""The GPU side: no kernels for this GPU (or an nvcc that cannot target it), a driver older than torch's CUDA."""

from __future__ import annotations

import re

from packaging.version import Version

from envplan.kb import KB, Release
from envplan.kb.variants import CC, sm_cc
from envplan.profile.gpu import GpuMatch, find_gpu, runs_on

from .cpu import amd_gpu_only, no_gpu_said
from .facts import cuda_unusable, driver_cuda, driver_seen, torch_cuda, torch_seen
from .model import Candidate, found
from .text import Text, phrase

__all__ = ["arch_not_compiled", "driver_too_old"]

# ("no kernal image", as retyped)
_NO_KERNEL = re.compile(r"no\s*kern[ae]l\s*image\s*is\s*available|cudaErrorNoKernelImageForDevice", re.IGNORECASE)
_NO_KERNEL_CUT = phrase("no kernel image")
_SM_INCOMPATIBLE = re.compile(
    r"(?:capability\s*)?(?P<sm>sm_?\d{2,3})\s*(?:is\s*)?not\s*compatible\s*with\s*(?:the\s*)?current\s*PyTorch|"
    # ... retold against the build's CUDA: "sm_89 not supported by cuda118"
    r"(?P<sm2>sm_\d{2,3})\s+(?:is\s+)?not\s+supported\s+(?:by|in|with)\s+(?:torch\s*|pytorch\s*)?(?:cu(?:da)?\s*\d)",
    re.IGNORECASE,
)
# torch's incompatibility warning is three lines; pasted cut, any one of its other two lines is the warning still
_ARCH_WARNING_REST = re.compile(
    r"current\s*PyTorch\s*install(?:ation)?\s*supports\s*CUDA\s*capabilit(?:y|ies)(?P<list>(?:\s*(?:sm|compute)_\d{2,3})+)|"
    r"If\s*you\s*want\s*to\s*use\s*the\s*(?P<gpu>[^\n]{2,60}?)\s*GPU\s*with\s*PyTorch,?\s*please\s*check",
    re.IGNORECASE,
)
# nvcc's other wording of it: "nvcc fatal : Value 'sm_75' is not defined for option 'gpu-architecture'"
_NVCC_ARCH_OPTION = re.compile(
    r"Value\s*'(?P<arch>compute|sm)_(?P<cc>\d{2,3})'\s*is\s*not\s*defined\s*for\s*option\s*'gpu-architecture'", re.I
)
# torch's extension builder asked (TORCH_CUDA_ARCH_LIST, or the GPU it sees) for an architecture it does not know
_UNKNOWN_ARCH = re.compile(r"Unknown\s*CUDA\s*arch\s*\((?P<cc>\d{1,2}\.\d)\)\s*or\s*GPU\s*not\s*supported", re.I)
# (retyped with its common misspellings: "architechture", "architecure")
_NVCC_ARCH = re.compile(r"Unsupported\s*gpu\s*archi?te?c?h?u?ture\s*'(?P<arch>compute|sm)[_ ](?P<cc>\d{2,3})'?", re.I)
# ptxas (the toolkit's, or the one Triton bundles) that does not know the GPU: "Value 'sm_120' is not defined"
_PTXAS = re.compile(r"Value\s*'(?P<sm>sm_\d{2,3}[a-z]?)'\s*is\s*not\s*defined\s*for\s*option\s*'gpu-name'", re.I)
_ANY_SM = re.compile(r"\bsm_(\d{2,3})\b")
# torch's runtime compiler (NVRTC, from torch's own CUDA) asked for an architecture that CUDA does not know
_NEWER_CUDA_FIX = (
    "install a torch built with a CUDA new enough for the GPU (envplan doctor shows the GPU's capability; envplan "
    "check picks the build)"
)
# (NVRTC's prefix may be lost or mistyped, and a rendered paste turns "--" into one dash or an en dash)
_NVRTC_ARCH = re.compile(
    r"(?:nvrtc\s*:?\s*error\s*:?\s*)?invalid\s*value\s*for\s*(?:-{1,2}|\u2013|\u2014)gpu-architecture", re.IGNORECASE
)
# torch's own check at CUDA init, and the old runtime's word for a kernel missing for this GPU
_TOO_OLD = phrase("no longer supports this GPU because it is too old")
_CAPABILITY = re.compile(r"cuda\s*capability\s*(?P<major>\d{1,2})\.(?P<minor>\d)", re.IGNORECASE)
_INVALID_FUNCTION = phrase("invalid device function")
# the driver failing to JIT-compile a binary's PTX for this GPU (CUDA_ERROR_INVALID_PTX, 218: "a PTX JIT compilation
# failed"): the binary has no machine code for the GPU and its PTX targets a newer architecture (a TVM kernel built for
# sm_52 on a K80); PTX from too new a toolkit is another error (CUDA_ERROR_UNSUPPORTED_PTX_VERSION), the driver's
_INVALID_PTX = re.compile(r"CUDA_ERROR_INVALID_PTX|cudaErrorInvalidPtx|a\s+PTX\s+JIT\s+compilation\s+failed", re.I)
# an AMD GPU under ROCm reports "cuda capability" too; no CUDA build fixes anything there
# (an AMD processor is no GPU: "CPU: AMD Ryzen 9 7900" beside an RTX 5070, ultimatevocalremovergui#1900)
_NOT_NVIDIA = re.compile(
    r"Radeon|(?<![A-Za-z])gfx\d|ROCm|(?<![A-Za-z])AMD(?![A-Za-z0-9])(?!\s*(?:Ryzen|EPYC|Threadripper|Athlon|Opteron))",
    re.IGNORECASE,
)


# ROCm's word for it: HIP finds no code object (kernels) for the GPU's gfx target in the binaries loaded
_HIP_NO_BINARY = re.compile(
    r"hipErrorNoBinaryForGpu|Unable\s*to\s*find\s*code\s*object\s*for\s*all\s*current\s*devices|"
    # rocBLAS finding no kernel library for the GPU's target ("Cannot read .../TensileLibrary.dat: No such file or
    # directory for GPU arch : gfx1103"): the ROCm build ships none for it
    r"TensileLibrary\w*\.dat\S*\s*:?\s*No\s*such\s*file\s*or\s*directory\s*for\s*GPU\s*arch",
    re.I,
)
_GFX = re.compile(r"(?<![A-Za-z])gfx(?P<target>\d{3,4}[a-z]?)(?![\w])", re.IGNORECASE)


# HIP's "invalid device function" under a ROCm torch: no code object for the GPU's gfx target, as hipErrorNoBinaryForGpu
_HIP_INVALID_FUNCTION = re.compile(
    r"HIP\s*error\s*:?\s*invalid\s*device\s*function|hipErrorInvalidDeviceFunction", re.I
)
_ROCM_TORCH = re.compile(r"\+rocm\d|(?<![A-Za-z])ROCm(?![A-Za-z])|(?<![A-Za-z])HIP(?![A-Za-z])", re.IGNORECASE)


def _hip_no_binary(text: Text) -> list[Candidate]:
    m = text.search(_HIP_NO_BINARY)
    if m is None:
        m = text.search(_HIP_INVALID_FUNCTION) if text.has(_ROCM_TORCH) else None
    if m is None:
        return []
    gfx = text.search(_GFX)
    target = f" (gfx{gfx.group('target')})" if gfx else ""
    cause = f"the ROCm build of torch (or an extension) has no code objects for this AMD GPU's target{target}"
    fix = (
        "install a torch ROCm build (+rocmX.Y, envplan matrix lists them) whose gfx targets include the GPU's "
        "(rocminfo shows it); for a card next to a supported target of the same family, HSA_OVERRIDE_GFX_VERSION "
        "(e.g. 10.3.0 for the gfx103x cards) makes ROCm use that target's kernels, a workaround the ROCm docs do not "
        "support"
    )
    return [_arch(text, m.start(), 0.88, cause, fix)]


# CUDA error 500 at a kernel launch: the binary has no code for this GPU's architecture (a build for other sm_XX only,
# e.g. bitsandbytes' aarch64 wheels on a Jetson's sm_87), which CUDA reports under this misleading name
_SYMBOL_NOT_FOUND = re.compile(r"named\s*symbol\s*not\s*found|cudaErrorSymbolNotFound|CUDA_ERROR_NOT_FOUND", re.I)


# ... but raised by torch counting the devices ("Unexpected error from cudaGetDeviceCount() ... Error 500: named
# symbol not found"): no kernel was launched, the driver stack itself failed (a Docker Desktop / WSL GPU passthrough)
_DEVICE_COUNT_FAILED = re.compile(r"Unexpected\s+error\s+from\s+cudaGetDeviceCount", re.I)


# the error's number without its words: CUDA 209 is cudaErrorNoKernelImageForDevice ("Cuda error: 209[cudaLaunchKernel")
# (the driver API names it CUDA_ERROR_NO_BINARY_FOR_GPU, the same 209: "no kernel image is available ... for the
# device", in NVIDIA's CUDA driver API reference)
_NO_KERNEL_CODE = re.compile(
    r"cuda\s*(?:runtime\s*)?error\s*[:(]?\s*209(?!\d)|error\s*code\s*209(?!\d)|CUDA_ERROR_NO_BINARY_FOR_GPU", re.I
)


def _symbol_not_found(text: Text, kb: KB) -> list[Candidate]:
    code = text.search(_NO_KERNEL_CODE)
    if code is not None and not text.has(_NOT_NVIDIA):
        seen = _ANY_SM.search(text.raw)
        cause = "CUDA error 209 (no kernel image): the code has no kernels compiled for this GPU's architecture"
        fix = _arch_fix(kb, f"sm_{seen.group(1)}") if seen else _NEWER_CUDA_FIX
        return [_arch(text, code.start(), 0.8, cause, fix)]
    m = text.search(_SYMBOL_NOT_FOUND)
    if m is None or text.has(_NOT_NVIDIA) or text.has(_DEVICE_COUNT_FAILED):
        return []
    seen = _ANY_SM.search(text.raw)
    sm = f"sm_{seen.group(1)}" if seen else ""
    cause = (
        "a CUDA kernel is missing from the binary for this GPU (CUDA error 500, 'named symbol not found'): the "
        "library or extension was compiled for other GPU architectures than this one's"
    )
    fix = (
        "install a build compiled for the GPU's sm_XX (envplan doctor shows it), or rebuild the extension for it "
        "(TORCH_CUDA_ARCH_LIST / CMAKE_CUDA_ARCHITECTURES / the project's COMPUTE_CAPABILITY set to the GPU's)"
    )
    return [_arch(text, m.start(), 0.65, cause, fix if not sm else f"{fix}; {_arch_fix(kb, sm)}")]


# torch's own warning (0.4 to 1.x) for a GPU newer than the CUDA it was built with: "Found GPU0 Tesla V100-PCIE-16GB
# which requires CUDA_VERSION >= 9000 for optimal performance and fast startup time, but your PyTorch was compiled with
# CUDA_VERSION 8000"
_NEEDS_NEWER_CUDA = re.compile(
    r"which\s+requires\s+CUDA_VERSION\s*>=\s*(?P<need>\d{4,5})\b[\s\S]{0,160}?compiled\s+with\s+CUDA_VERSION\s*"
    r"(?P<built>\d{4,5})",
    re.IGNORECASE,
)


def arch_not_compiled(text: Text, kb: KB) -> list[Candidate]:
    out = _hip_no_binary(text)
    m = text.search(_SM_INCOMPATIBLE)
    if m:
        sm = "sm_" + (m.group("sm") or m.group("sm2")).lower().removeprefix("sm").lstrip("_")
        out.append(_no_kernels(text, kb, m.start(), sm, 0.92))
    rest = text.search(_ARCH_WARNING_REST) if not out else None
    if rest:
        sm = _gpu_outside(text, rest.group("list") or "")
        out.append(_no_kernels(text, kb, rest.start(), sm, 0.85))
    m = text.search(_NO_KERNEL) or text.search(_NO_KERNEL_CUT)
    if m:
        seen = _ANY_SM.search(text.raw)
        out.append(_no_kernels(text, kb, m.start(), f"sm_{seen.group(1)}" if seen else _card_sm(text, kb), 0.9))
    m = text.search(_NVCC_ARCH) or text.search(_NVCC_ARCH_OPTION)
    if m:
        out.append(_nvcc_arch(text, kb, m))
    m = text.search(_UNKNOWN_ARCH)
    if m:
        sm = "sm_" + m.group("cc").replace(".", "")
        cause = (
            f"this torch does not know the GPU's architecture ({m.group('cc')}): it was released before the GPU, so "
            "neither its kernels nor its extension builder cover it"
        )
        out.append(_arch(text, m.start(), 0.85, cause, _arch_fix(kb, sm)))
    m = text.search(_PTXAS)
    if m:
        out.append(_ptxas(text, m))
    m = text.search(_NVRTC_ARCH)
    if m and not text.has(_NOT_NVIDIA):
        seen = _ANY_SM.search(text.raw)
        sm = f"sm_{seen.group(1)}" if seen else ""
        cause = "the CUDA torch was built with (its NVRTC runtime compiler) does not know this GPU's architecture"
        fix = _arch_fix(kb, sm) if sm else _NEWER_CUDA_FIX
        out.append(_arch(text, m.start(), 0.8, cause, fix))
    m = text.search(_CONTAINER_UNSUPPORTED)
    if m:
        cause = "the container's CUDA and torch predate this GPU: the image carries no kernels for it"
        out.append(_arch(text, m.start(), 0.8, cause, _NEWER_CUDA_FIX))
    m = text.search(_NEEDS_NEWER_CUDA)
    if m:
        cause = (
            f"this torch was built with CUDA {_cuda_of(m.group('built'))}, older than the first CUDA for this GPU "
            f"({_cuda_of(m.group('need'))}): its kernels do not cover the GPU"
        )
        out.append(_arch(text, m.start(), 0.75, cause, _NEWER_CUDA_FIX))
    out += [] if out else _symbol_not_found(text, kb)
    out += (_range_warning(text, kb) or _old_gpu(text, kb)) + _extension_arch(text) + _unsupported_sm(text)
    if out:
        return out
    # (the KB's reading of the torch and GPU the text shows first: it names the build's architectures too)
    return (
        _gpu_outside_build(text, kb)
        or _capability_warning(text, kb)
        or _card_newer_than_cuda(text, kb)
        or _newest_gpu_failing(text, kb)
    )


# an extension's own check of the architectures it was built for (tiny-cuda-nn: "Could not find compatible tinycudann
# extension for compute capability 75"), and Triton's (torch.compile's backend) floor: "Found NVIDIA GeForce GTX 1080
# which is too old to be supported by the triton GPU compiler"
_EXTENSION_CC = re.compile(
    r"Could\s*not\s*find\s*compatible\s*(?P<pkg>[\w-]+)\s*extension\s*for\s*compute\s*capability\s*"
    r"(?:(?P<cc>\d{2,3})|\{\w+\})",  # (or the source line that raises it, its f-string placeholder kept)
    re.I,
)
# a kernel's TORCH_CHECK of the architectures it has code for (FlashAttention: "Expected is_sm8x || is_sm75 to be true,
# but got false", "Expected is_sm90 || is_sm8x to be true")
_KERNEL_ARCH_CHECK = re.compile(
    r"Expected\s+(?P<archs>is_sm\d+x?(?:\s*\|\|\s*is_sm\d+x?)*)\s+to\s+be\s+true,?\s+but\s+got\s+false", re.I
)
# a kernel's check of the architecture it was compiled for against the GPU's (xFormers/FlashAttention 1: "FATAL: this
# function is for sm80, but was built for sm750", a Colab wheel built for the T4 running on an A100)
_BUILT_FOR_SM = re.compile(
    r"this\s+function\s+is\s+for\s+sm_?(?P<want>\d{2,3}),?\s+but\s+was\s+built\s+for\s+sm_?(?P<built>\d{2,4})", re.I
)
# DeepSpeed's op builder filtering the GPU's compute capabilities by the op's floor, none left ("Unable to load
# ragged_device_ops op due to no compute capabilities remaining after filtering", a T4 under FastGen's Ampere kernels)
_OP_ARCHS_FILTERED = re.compile(r"no\s+compute\s+capabilities\s+remaining\s+after\s+filtering", re.IGNORECASE)
_TRITON_TOO_OLD = re.compile(r"too\s*old\s*to\s*be\s*supported\s*by\s*the\s*triton\s*GPU\s*compiler", re.I)


def _extension_arch(text: Text) -> list[Candidate]:
    m = text.search(_EXTENSION_CC)
    if m is not None:
        pkg, cc = m.group("pkg"), m.group("cc")
        this = f"this GPU's (compute capability {cc})" if cc else "this GPU's"
        cause = f"{pkg} was compiled for other GPU architectures than {this}"
        fix = (
            f"rebuild {pkg} for this GPU (tiny-cuda-nn: TCNN_CUDA_ARCHITECTURES={cc or '<its capability, e.g. 86>'} "
            "pip install --no-build-isolation "
            "--no-cache-dir the package), or install a build whose architecture list includes it"
        )
        return [_arch(text, m.start(), 0.88, cause, fix)]
    m = text.search(_BUILT_FOR_SM)
    if m is not None:
        want, built = m.group("want"), m.group("built")
        cause = (
            f"a kernel built for sm_{built} runs on a GPU that needs sm_{want} code: the extension (a prebuilt wheel) "
            "was compiled for another GPU than this one"
        )
        fix = (
            f"install or build the extension for this GPU (TORCH_CUDA_ARCH_LIST with {want[0]}.{want[1:] or '0'}, pip "
            "install --no-build-isolation --no-cache-dir the package), or use the GPU it was built for"
        )
        return [_arch(text, m.start(), 0.8, cause, fix)]
    m = text.search(_KERNEL_ARCH_CHECK)
    if m is not None:
        cause = (
            "the kernel's own check of the GPU failed: it has code only for the architectures it names "
            f"({m.group('archs')}), and this GPU is none of them"
        )
        fix = (
            "run on a GPU of one of those architectures, or without the kernel (FlashAttention 2: Ampere sm_80 or "
            "newer; otherwise attn_implementation='sdpa' or 'eager')"
        )
        return [_arch(text, m.start(), 0.8, cause, fix)]
    m = text.search(_OP_ARCHS_FILTERED)
    if m is not None:
        cause = (
            "DeepSpeed's op builder dropped every architecture of this GPU from the op's build: the op's kernels "
            "support only newer GPUs (its builder's filter_ccs sets the floor)"
        )
        fix = (
            "run the op on a GPU its builder keeps (deepspeed/ops/op_builder/<op>.py, filter_ccs, names the floor), "
            "or use the code path without it (DeepSpeed-MII: the legacy pipeline instead of FastGen)"
        )
        return [_arch(text, m.start(), 0.8, cause, fix)]
    m = text.search(_TRITON_TOO_OLD)
    if m is None:
        return []
    cause = "Triton, torch.compile's GPU compiler, has no code for a GPU this old (it needs CUDA capability 7.0)"
    fix = (
        "run the model without torch.compile (or with a backend that does not use Triton, e.g. "
        "torch.compile(backend='aot_eager')), or on a GPU of capability 7.0 or newer"
    )
    return [_arch(text, m.start(), 0.85, cause, fix)]


# a package's own check of the GPU's architecture against the ones it builds or ships ("AssertionError: Unsupported SM
# 121": nunchaku's setup on a GB10)
_UNSUPPORTED_SM = re.compile(r"Unsupported\s+SM\s*_?(?P<cc>\d{2,3})(?![\d])", re.IGNORECASE)


def _unsupported_sm(text: Text) -> list[Candidate]:
    m = text.search(_UNSUPPORTED_SM)
    if m is None:
        return []
    sm = f"sm_{m.group('cc')}"
    cause = (
        f"the package accepts only the GPU architectures it was written or built for, and this GPU's ({sm}) is not one"
    )
    fix = (
        f"install a release of the package that supports {sm}, or build it from source with {sm} added to its "
        "architecture list (TORCH_CUDA_ARCH_LIST)"
    )
    return [_arch(text, m.start(), 0.8, cause, fix)]


# NGC containers' own check: "WARNING: Detected NVIDIA GeForce RTX 4090 GPU, which is not yet supported in this
# version of the container"
_CONTAINER_UNSUPPORTED = re.compile(
    r"GPU,?\s*which\s*is\s*not\s*yet\s*supported\s*in\s*this\s*version\s*of\s*the\s*container", re.IGNORECASE
)


# a named NVIDIA card ("GTX 1070", "RTX A6000", "Tesla K80", "A100"), a CUDA variant token ("+ cu129"), and words that
# something failed: the versions alone can say the build has no kernels for the card
_CARD = re.compile(
    r"(?<![\w-])(?:NVIDIA\s+)?(?:GeForce\s+)?(?:RTX|GTX|GT|Titan|Quadro|Tesla)\s*[A-Z]{0,2}\s?\d{2,4}[A-Za-z]?"
    r"(?:\s*(?:Ti|SUPER)(?![A-Za-z]))?|(?<![\w-])(?:NVIDIA\s+)?[AHLVPTK]\d{1,3}(?![\w-])",
    re.IGNORECASE,
)
_VARIANT_TOKEN = re.compile(r"(?<![A-Za-z0-9])cu(\d{3})(?!\d)", re.IGNORECASE)
# a torch floor named ("required for RTX 5090 / SM_120, PyTorch ≥ 2.7.1"): the text knows which release it needs
_TORCH_FLOOR = re.compile(r"(?<![\w-])(?:py)?torch\s*(?:>=|≥|=>)\s*\d+\.\d+", re.IGNORECASE)
_FAILING = re.compile(
    r"incompatib|not\s+compatible|kernel|error|warning|fail|not\s+work|n['\u2019]?t\s+(?:work|run)|unsupported|"
    # ("Unable to use the RTX 5080 for GPU conversion", "the process progress will stuck on 5% forever")
    r"unable\s+to\s+(?:use|run)|(?<![A-Za-z])stuck\s+(?:on|at)(?![A-Za-z])|"
    # pins said too old for the card ("These two version numbers ... are out of date. Had to change them to support a
    # 5070 ti GPU", stable-diffusion-webui-docker#27)
    r"out\s+of\s+date|(?<![A-Za-z])support\s+(?:for\s+)?(?:an?\s+|the\s+|my\s+)?(?:NVIDIA\s+)?(?:GeForce\s+)?(?:RTX\s*)?"
    r"\d{4}(?!\d|\.\d)|"
    r"no\s+support\s+for|not\s+(?:(?:seem|appear)s?\s+to\s+be\s+)?(?:yet\s+)?supported|"
    r"不兼容|不支持|报错|错误|不行|不能用|用不了|无法(?:使用|运行)|跑不(?:起来|了)|"
    # a request for a build that works on the card ("可以出个50系能用的整合包吗", fireredasr-ui#7)
    r"(?:出|做|发布|提供)(?:个|一个)?[^\n。\uff1f?]{0,8}?能用|"
    r"動作し(?:ない|ません)|動かない|エラー|対応|오류|에러|작동하지|안\s*됩니다",
    re.IGNORECASE,
)


def _compiled(kb: KB, release: Release, variant: str) -> tuple[tuple[CC, ...], tuple[CC, ...]] | None:
    """(cubins, PTX) the release's x86_64 wheels of a CUDA variant carry, by the KB; None when it does not say."""
    archs = kb.wheel_archs(release, variant) if variant.startswith("cu") else None
    return archs.for_arch("x86_64") if archs is not None else None


def _other_variants(kb: KB, release: Release, cc: CC) -> str:
    """The same release's CUDA variants whose wheels carry kernels for the GPU, else the general fix."""
    fitting = [v for v in release.variants if (compiled := _compiled(kb, release, v)) and runs_on(cc, *compiled)]
    sm = f"sm_{cc[0]}{cc[1]}"
    if not fitting:
        return _arch_fix(kb, sm)
    return (
        f"install torch {release.torch} as {' or '.join(fitting)} (its wheels carry {sm}): pip install "
        f"torch=={release.torch} --index-url https://download.pytorch.org/whl/{fitting[-1]}, with the matching "
        "companions (envplan check picks the variant the driver can run)"
    )


def _variant_after(text: Text, version: str) -> str:
    """The CUDA variant written after torch's version ("2.8.0 + cu129"), else the only one the text names."""
    after = re.search(re.escape(version) + r"\s*\+\s*cu(\d{3})(?!\d)", text.raw)
    if after is not None:
        return f"cu{after.group(1)}"
    variants = {f"cu{v}" for v in _VARIANT_TOKEN.findall(text.raw)}
    return variants.pop() if len(variants) == 1 else ""


def _gpu_outside_build(text: Text, kb: KB) -> list[Candidate]:
    """No message, but the text names an NVIDIA card and the torch build (release and CUDA variant), and the KB's
    architecture list of that build leaves the card out."""
    torch = torch_seen(text.raw)
    if torch is None or text.has(_NOT_NVIDIA) or not text.has(_FAILING):
        return []
    release = kb.release(Version(torch.version.base_version))
    if release is None:
        return []
    variant = torch.variant or _variant_after(text, torch.text)
    if not torch.variant and variant and not release.publishes(variant):
        variant = ""  # a variant this release never had: another torch's (the nightly cu128 index the user tries)
    compiled = _compiled(kb, release, variant)
    if compiled is None:
        return _no_variant_carries(text, kb, release) if not variant else []
    for name, at in _named_cards(text):
        match, cc = _nvidia_card(kb, name)
        if match is not None and cc is not None and not runs_on(cc, *compiled):
            sm = f"sm_{cc[0]}{cc[1]}"
            cause = (
                f"torch {release.torch}+{variant} carries no kernels for the {match.name} ({sm}): its wheels are "
                "compiled for " + " ".join(f"sm_{a}{b}" for a, b in compiled[0])
            )
            return [_arch(text, at, 0.7, cause, _other_variants(kb, release, cc))]
    return []


def _no_variant_carries(text: Text, kb: KB, release: Release) -> list[Candidate]:
    """A torch release named without its variant, and a card none of the release's CUDA builds has kernels for
    (torch 2.1.2 on an RTX 50 card): whichever variant is installed, it cannot run there."""
    builds = [c for v in release.variants if v.startswith("cu") and (c := _compiled(kb, release, v)) is not None]
    if not builds:
        return []
    for name, at in _named_cards(text):
        match, cc = _nvidia_card(kb, name)
        if match is not None and cc is not None and not any(runs_on(cc, *c) for c in builds):
            sm = f"sm_{cc[0]}{cc[1]}"
            cause = f"no CUDA build of torch {release.torch} carries kernels for the {match.name} ({sm})"
            return [_arch(text, at, 0.7, cause, _arch_fix(kb, sm))]
    return []


# a CUDA version said next to the card ("Pytorch1.7.1 + Cuda10.1", "CUDA 9.0"): torch's variant or the toolkit
_CUDA_SAID = re.compile(r"(?<![A-Za-z])cuda[\s:_-]*(?:version\s*:?\s*)?(?P<v>(?:[89]|1[0-3])\.\d)(?![\d])", re.I)


def _card_newer_than_cuda(text: Text, kb: KB) -> list[Candidate]:
    """A card and a CUDA too old to compile for any architecture of its generation, both said, with words that it
    fails (an RTX 5090 with "CUDA 12.4"): whether that CUDA is torch's or the toolkit's, it has no code the card runs
    (a cubin runs on the later GPUs of its own major only, so an RTX 4090 on CUDA 11.7 runs sm_86 code and is fine).
    Read only where a KB toolkit older than the first fitting one shows the gap: the KB knows the newest architecture
    of CUDA 10.x (sm_75) and of every toolkit since 11.0, so an RTX 3090 on CUDA 10.1 reads, a V100 on CUDA 9.0 not."""
    said = [Version(m.group("v")) for m in _CUDA_SAID.finditer(text.raw)]
    if not said or text.has(_NOT_NVIDIA) or not text.has(_FAILING) or text.has(_OTHER_FAILURE):
        return []
    toolkits = _toolkit_arch_max(kb)
    for name, at in _named_cards(text):
        match, cc = _nvidia_card(kb, name)
        if match is None or cc is None:
            continue
        first = min((v for v, top in toolkits if top >= (cc[0], 0)), default=None)
        if first is not None and max(said) < first and any(v < first for v, _ in toolkits):
            sm = f"sm_{cc[0]}{cc[1]}"
            cause = (
                f"CUDA {max(said)} predates the {match.name} ({sm}): CUDA {first} is the first to compile for its "
                "generation, so a torch or an extension built with an older CUDA has no kernels for the card"
            )
            # (CUDA's own "driver insufficient" shown is the old CUDA failing on the card: more than a symptom)
            score = 0.8 if text.has(_DRIVER_INSUFFICIENT) else 0.6
            return [_arch(text, at, score, cause, _arch_fix(kb, sm))]
    return []


def _toolkit_arch_max(kb: KB) -> list[tuple[Version, CC]]:
    """Each CUDA toolkit the KB knows the newest native architecture of: its toolkit rows and the older toolkits it
    keeps for their drivers where an architecture is given."""
    rows = [(tk.version, tk.arch_max) for tk in kb.cuda]
    return rows + [(f.version, f.arch_max) for f in kb.driver_floors if f.arch_max is not None]


# the failure named, and it is another one ("CUDA out of memory on RTX 5080")
# (an illegal memory access, CUDA error 700, is a kernel that exists and ran: a bug, not missing kernels)
_OTHER_FAILURE = re.compile(
    r"out\s+of\s+memory|\bOOM\b|OutOfMemory|显存不足|illegal\s+memory\s+access|cudaErrorIllegalAddress|"
    r"Cuda\s+error:?\s*700(?![\d])",
    re.IGNORECASE,
)
# a card written number first ("not working with 5090 rtx")
_CARD_REVERSED = re.compile(r"(?<![\w-])(?P<num>\d{4})\s*(?P<ti>Ti\s+)?(?P<brand>RTX|GTX)(?![A-Za-z])", re.IGNORECASE)


def _nvidia_card(kb: KB, name: str) -> tuple[GpuMatch | None, CC | None]:
    """The KB's NVIDIA GPU a card name means, and its compute capability (None, None for another vendor's)."""
    match = find_gpu(name, kb.gpus)
    if match is None or match.gpu.vendor != "nvidia" or match.gpu.compute_capability is None:
        return None, None
    return match, match.gpu.compute_capability


# a card generation as people name it ("50 series graphics cards", "50系显卡"), read as that generation's top card
# (each generation's GeForce cards share one architecture); a bare model number ("my 5070ti machine") where the text
# speaks of GPUs
# ("RTX 5000 series", "RTX 50-series" too; after CJK text too: "不支持50系显卡")
_SERIES = re.compile(
    r"(?<![A-Za-z0-9_.])(?:RTX\s*)?(?P<gen>[2-5]0)(?:00)?[\s-]*(?:series|系列?|xx)(?![A-Za-z])", re.IGNORECASE
)
_SERIES_CARD = {"20": "RTX 2080", "30": "RTX 3090", "40": "RTX 4090", "50": "RTX 5090"}
# the architecture by its name ("NVIDIA's Blackwell Architecture", "Blackwell GPUs are not supported"), read as its
# GeForce and RTX PRO cards' sm_120 where no other Blackwell part is named (B200, GB200, B300: sm_100/sm_103; the DGX
# Spark's GB10: sm_121; Jetson AGX Thor: sm_110, "Jetson AGX Thor uses Compute Capability 11.0 (SM110), which is a
# Blackwell-architecture device"); the first torch builds with kernels for sm_100 and for sm_120 are the same (2.7,
# cu128)
_BLACKWELL = re.compile(r"(?<![A-Za-z])Blackwell(?![A-Za-z])", re.IGNORECASE)
_DATACENTER_BLACKWELL = re.compile(
    r"(?<![A-Za-z0-9])G?B[23]0[03](?![0-9])|DGX|GB10(?![0-9])|(?<![A-Za-z])Thor(?![A-Za-z])|"
    r"(?<![A-Za-z0-9])sm_?(?:10\d|11\d|121)(?![0-9])",
    re.IGNORECASE,
)
_BARE_CARD = re.compile(
    # ("3090GPU"; "the 3090." ending a sentence, not a version's "3090.1")
    r"(?<![\w.$-])(?P<num>[2-5]0[5-9]0)\s*(?P<ti>ti)?(?:(?=GPUs?(?![A-Za-z]))|(?![A-Za-z0-9_]|\.\w))",
    re.IGNORECASE,
)
# (a request to support the number, "5090対応", speaks of the card too)
_GPU_TALK = re.compile(
    r"(?<![A-Za-z])(?:gpus?|graphics|cards?|nvidia|architecture\s+of\s+the)(?![A-Za-z])|显卡|グラボ|그래픽|\d{4}\s*対応",
    re.IGNORECASE,
)


def _named_cards(text: Text) -> list[tuple[str, int]]:
    cards = [(m.group(0), m.start()) for m in _CARD.finditer(text.raw)]
    cards += [
        (f"{m.group('brand')} {m.group('num')}{' Ti' if m.group('ti') else ''}", m.start())
        for m in _CARD_REVERSED.finditer(text.raw)
    ]
    cards += [(_SERIES_CARD[m.group("gen")], m.start()) for m in _SERIES.finditer(text.raw)]
    if not text.has(_DATACENTER_BLACKWELL):
        cards += [("RTX 5090", m.start()) for m in _BLACKWELL.finditer(text.raw)]
    if text.has(_GPU_TALK):
        cards += [
            (f"RTX {m.group('num')}{' Ti' if m.group('ti') else ''}", m.start()) for m in _BARE_CARD.finditer(text.raw)
        ]
    return cards


def _card_sm(text: Text, kb: KB) -> str:
    """The sm_XX of the one NVIDIA card the text names that the KB knows ("GeForce GTX 780 Ti" -> sm_35); "" when
    it names none, or cards of different capabilities (which one failed is then not said)."""
    ccs = {cc for name, _ in _named_cards(text) for cc in [_nvidia_card(kb, name)[1]] if cc is not None}
    if len(ccs) != 1:
        return ""
    (cc,) = ccs
    return f"sm_{cc[0]}{cc[1]}"


def _newest_gpu_failing(text: Text, kb: KB) -> list[Candidate]:
    """No message and no torch build named, but a card so new that most torch releases of the KB carry no kernels
    for it (an RTX 50 card's sm_120: torch 2.7's cu128 builds first), with words that it fails: an app's bundled or
    pinned torch predates it (the corpus settles 48 of 51 such RTX 50 reports so)."""
    if text.has(_NOT_NVIDIA) or not text.has(_FAILING) or text.has(_OTHER_FAILURE):
        return []
    if torch_seen(text.raw) is not None or text.has(_VARIANT_TOKEN) or text.has(_TORCH_FLOOR):
        return []  # a torch build named: _gpu_outside_build reads it against the KB's architecture lists
    from envplan.core.compat import Context, releases_for
    from envplan.profile.model import Machine

    releases = sorted(r.torch for r in kb.releases)
    for name, at in _named_cards(text):
        match, cc = _nvidia_card(kb, name)
        if match is None or cc is None:
            continue
        builds = releases_for(kb, Context(machine=Machine(), gpus=()), cc)
        first = min((torch for torch, _ in builds), default=None)
        if first is not None and releases.index(first) >= len(releases) // 2:
            sm = f"sm_{cc[0]}{cc[1]}"
            cause = (
                f"the {match.name} ({sm}) is newer than most torch builds: only torch {first} and later carry "
                "kernels for it, and the torch the app runs most likely predates it"
            )
            return [_arch(text, at, 0.6, cause, _arch_fix(kb, sm))]
    return []


def _arch(text: Text, at: int, score: float, cause: str, fix: str) -> Candidate:
    return found("arch-not-compiled", text, at, score, cause=cause, fix=fix)


def _gpu_outside(text: Text, listed: str) -> str:
    """The GPU's sm_XX when the text shows one that the warning's list leaves out; "" otherwise."""
    have = {int(n) for n in re.findall(r"\d{2,3}", listed)}
    seen = [m.group(1) for m in _ANY_SM.finditer(text.raw) if int(m.group(1)) not in have]
    cap = text.search(_CAPABILITY)
    if cap and int(cap.group("major") + cap.group("minor")) not in have:
        seen.append(cap.group("major") + cap.group("minor"))
    return f"sm_{seen[0]}" if seen else ""


def _ptxas(text: Text, m: re.Match[str]) -> Candidate:
    sm = m.group("sm")
    cause = f"the ptxas in use (the CUDA toolkit's, or the one Triton bundles) is older than the GPU ({sm})"
    fix = (
        f"use a ptxas that knows {sm}: a newer triton (or torch, which pins it), or point TRITON_PTXAS_PATH at the "
        "ptxas of a CUDA toolkit new enough for the GPU (envplan doctor shows the GPU's capability)"
    )
    return _arch(text, m.start(), 0.85, cause, fix)


# the same said by people, of a named NVIDIA GPU: "Version 1.3 no longer supporting Tesla K40m?", "新版本能不能支持下
# tesla k40m的显卡", "Keine Unterstützung mehr für GTX780" (the binaries dropped its architecture)
# (a model number glued on, "GTX780", is still the card)
_NVIDIA_CARD = r"(?:NVIDIA\s*)?(?:Tesla|GeForce|Quadro|Titan|GTX|RTX)(?![A-Za-z])"
_DROPPED_IN_WORDS = re.compile(
    rf"no\s+longer\s+support\w*\s+(?:the\s+|my\s+|this\s+|our\s+)?{_NVIDIA_CARD}|"
    rf"(?:能不能|能否|不再|无法|不)\s*支持\s*(?:下|一下)?\s*{_NVIDIA_CARD}[^\n]{{0,30}}?(?:显卡|GPU)|"
    # ("Keine Unterstützung mehr für GTX780")
    rf"keine\s+Unterst(?:ü|ue)tzung\s+mehr\s+f(?:ü|ue)r\s+(?:die\s+|meine\s+)?{_NVIDIA_CARD}|"
    # an architecture's GPUs by their family name ("Because CUDA 13.0 dropped support for Pascal GPUs, the program
    # crashed", diffBloch#144 on P100s)
    r"dropp\w*\s+(?:the\s+)?(?:support\s+(?:for|of)\s+)?(?:the\s+)?(?:Kepler|Maxwell|Pascal|Volta)(?![A-Za-z])|"
    # ... or a build said to lack it ("the simplified PyTorch package variants ... lack support for the Pascal
    # architecture (`sm_61` / Compute Capability 6.1)", koharu#1002 on a GTX 1070)
    r"lack\w*\s+(?:any\s+)?support\s+(?:for|of)\s+(?:the\s+)?(?:Kepler|Maxwell|Pascal|Volta)(?![A-Za-z])|"
    r"(?<![A-Za-z])(?:Kepler|Maxwell|Pascal|Volta)\s+(?:GPUs?\s+|cards?\s+|support\s+)?(?:was|were|is|are|got|has\s+been|"
    r"have\s+been)\s+dropped",
    re.IGNORECASE,
)


# torch's capability check, its first line alone ("Found GPU0 NVIDIA GeForce GTX 1070 which is of cuda capability
# 6.1."): torch prints it only for a GPU outside its build's range; read where the GPU is below the lowest
# architecture of today's default build (the newest KB release's PyPI variant), so the build the user has most likely
# left it out (a GPU above a build's range, like the DGX Spark's GB10 under sm_120 builds, may still run its code)
_FOUND_CAPABILITY = re.compile(
    r"Found\s+GPU\s*\d+\s+[^\n]{0,80}?\s+which\s+is\s+of\s+cuda\s+capability\s+(?P<major>\d{1,2})\.(?P<minor>\d)", re.I
)


def _found_below_today(text: Text, kb: KB) -> re.Match[str] | None:
    m = text.search(_FOUND_CAPABILITY)
    if m is None:
        return None
    newest = max(kb.releases, key=lambda r: r.torch)
    compiled = _compiled(kb, newest, newest.pypi_default or "")
    if not compiled or not compiled[0]:
        return None
    return m if (int(m.group("major")), int(m.group("minor"))) < min(compiled[0]) else None


# torch's capability warning since 2.11 (torch/cuda/__init__.py, _warn_unsupported_code; read from the 2.11.0,
# 2.12.0, 2.13.0 and 2.14.1 wheels: 2.10.0's still says "which is of cuda capability"), printed only for a GPU the
# build carries no kernels for: "Found GPU0 NVIDIA GeForce GTX 1070 Ti which is of compute capability (CC) 6.1.",
# "The following list shows the CCs this version of PyTorch was built for ..."; then, in 2.11 and 2.12, "Please follow
# the instructions at ... to install a PyTorch release that supports one of these CUDA versions: 12.6"; from 2.13,
# "Your installed torch==2.9.0+cu128 does not include kernels for this GPU." with the builds that do, or "No published
# PyTorch CUDA builds for release ... support this GPU."; any one of its lines is the warning, pasted cut
_CC_SAID = re.compile(r"compute\s*capability\s*\(CC\)\s*(?P<major>\d{1,2})\.(?P<minor>\d)", re.IGNORECASE)
_CC_WARNING = re.compile(
    rf"which\s*is\s*of\s*{_CC_SAID.pattern}|"
    r"following\s*list\s*shows\s*the\s*CCs\s*this\s*version\s*of\s*PyTorch\s*was\s*built\s*for|"
    r"install\s*a\s*PyTorch\s*release\s*that\s*supports\s*one\s*of\s*these\s*CUDA\s*versions|"
    r"does\s*not\s*include\s*kernels\s*for\s*this\s*GPU|"
    r"No\s*published\s*PyTorch\s*CUDA\s*builds\s*for\s*release\s*\S+\s*support\s*this\s*GPU",
    re.IGNORECASE,
)
# ... and the builds it names: "For CUDA 12.6 use pip install torch==2.9.0 --index-url .../whl/cu126" (2.13 on), or the
# CUDA versions alone: "one of these CUDA versions: 12.6, 12.8" (2.11, 2.12)
_CC_WARNING_BUILD = re.compile(
    r"For\s*CUDA\s*\d{1,2}\.\d\s*use\s*(?P<command>pip\s+install\s+torch==\S+\s+--index-url\s+\S+)", re.IGNORECASE
)
_CC_WARNING_CUDAS = re.compile(
    r"one\s*of\s*these\s*CUDA\s*versions\s*:\s*(?P<cudas>\d{1,2}\.\d(?:\s*,\s*\d{1,2}\.\d)*)", re.IGNORECASE
)


def _capability_warning(text: Text, kb: KB) -> list[Candidate]:
    """torch's capability warning (2.11 on): the installed build carries no kernels for the GPU; the fix is a build
    the warning names, where it names one, or the KB's."""
    m = text.search(_CC_WARNING)
    if m is None or text.has(_NOT_NVIDIA):
        return []
    cc = text.search(_CC_SAID)
    sm = f"sm_{cc.group('major')}{cc.group('minor')}" if cc else ""
    return [_arch(text, m.start(), 0.9, _warned(sm), _warning_fix(text, kb, sm))]


def _warned(sm: str) -> str:
    """The cause torch's own capability check states, for the GPU's sm_XX where the text shows it."""
    gpu = f" ({sm})" if sm else ""
    return f"the installed torch build carries no kernels for this GPU{gpu} (torch's own capability check says so)"


def _warning_fix(text: Text, kb: KB, sm: str) -> str:
    builds = [b.group("command") for b in _CC_WARNING_BUILD.finditer(text.raw)]
    if builds:
        return (
            f"reinstall torch from a CUDA build that carries them, as torch's warning names it: {'; or '.join(builds)}"
        )
    cudas = text.search(_CC_WARNING_CUDAS)
    if cudas is None:
        return _newest_carrying(kb, sm)
    return _reinstall_from(text, _cuda_variants(cudas.group("cudas")))


def _cuda_variants(cudas: str) -> list[str]:
    """The PyTorch index's variants of the CUDA versions a warning lists ("12.6, 12.8" -> cu126, cu128)."""
    return ["cu" + v.replace(".", "") for v in re.findall(r"\d{1,2}\.\d", cudas)]


def _reinstall_from(text: Text, variants: list[str]) -> str:
    """The same torch from the CUDA builds torch's warning names (the release where the text shows it)."""
    seen = torch_seen(text.raw)
    release = seen.version.base_version if seen else "<the installed release>"
    return (
        f"reinstall the same torch from a CUDA build that carries them, as torch's warning names them: pip install "
        f"torch=={release} --index-url https://download.pytorch.org/whl/{variants[0]}"
        + (f" (or {', '.join(variants[1:])})" if len(variants) > 1 else "")
        + ", with the matching companions"
    )


# the same check in 2.8 to 2.10 (read from their wheels): "Found GPU0 NVIDIA GeForce GTX 1070 which is of cuda
# capability 6.1. Minimum and Maximum cuda capability supported by this version of PyTorch is (7.0) - (12.0)", then,
# where another CUDA build's range holds the GPU, "Please install PyTorch with a following CUDA configurations: 12.6
# following instructions at ...". torch prints it for a GPU above the range too, where a GPU of the same major still
# runs the build's code (the DGX Spark's GB10, 12.1, under a build up to 12.0): read as no kernels below the range, or
# above it in another major
_RANGE_WARNING = re.compile(
    r"Minimum\s*and\s*Maximum\s*cuda\s*capability\s*supported\s*by\s*this\s*version\s*of\s*PyTorch\s*is\s*"
    r"\(?\s*(?P<lo>\d{1,2}\.\d)\s*\)?\s*-\s*\(?\s*(?P<hi>\d{1,2}\.\d)\s*\)?",
    re.IGNORECASE,
)
_RANGE_CONFIGS = re.compile(
    r"Please\s*install\s*PyTorch\s*with\s*a\s*following\s*CUDA\s*configurations?\s*:?\s*"
    r"(?P<cudas>\d{1,2}\.\d(?:[\s,]+\d{1,2}\.\d)*)",
    re.IGNORECASE,
)


def _range_warning(text: Text, kb: KB) -> list[Candidate]:
    """torch 2.8-2.10's capability check: the GPU outside the build's range of architectures."""
    if text.has(_NOT_NVIDIA):
        return []
    configs = text.search(_RANGE_CONFIGS)
    m = configs or text.search(_RANGE_WARNING)
    if m is None:
        return []
    cap = text.search(_CAPABILITY)
    if configs is None:
        if cap is None:
            return []  # above or below the range: the line alone does not say which
        have = (int(cap.group("major")), int(cap.group("minor")))
        lo, hi = (tuple(int(n) for n in m.group(g).split(".")) for g in ("lo", "hi"))
        if have >= lo and have[0] == hi[0]:
            return []  # above the range within its major: the build's code runs there
    sm = f"sm_{cap.group('major')}{cap.group('minor')}" if cap else ""
    fix = _newest_carrying(kb, sm) if configs is None else _reinstall_from(text, _cuda_variants(configs.group("cudas")))
    return [_arch(text, m.start(), 0.85, _warned(sm), fix)]


def _builds_carrying(kb: KB, sm: str) -> list[tuple[Version, str]]:
    """Every (torch release, variant) in the KB whose wheels carry kernels that run on `sm`, oldest first."""
    from envplan.core.compat import Context, releases_for
    from envplan.profile.model import Machine

    return releases_for(kb, Context(machine=Machine(), gpus=()), sm_cc(sm))


def _newest_carrying(kb: KB, sm: str) -> str:
    """The newest torch build in the KB with kernels for `sm`: the installed build left the GPU out, whether it is
    older than the build (a card the newest variants dropped) or newer."""
    builds = _builds_carrying(kb, sm) if sm else []
    if not builds:
        return _arch_fix(kb, sm)
    torch, variant = builds[-1]
    return (
        f"install a torch build with kernels for {sm}: the newest in the KB is {torch}+{variant} (pip install "
        f"torch=={torch} --index-url https://download.pytorch.org/whl/{variant}, with the matching companions); "
        "envplan matrix lists the others"
    )


def _old_gpu(text: Text, kb: KB) -> list[Candidate]:
    """torch's 'no longer supports this GPU' warning, or 'invalid device function' (the pre-11 no-kernel error), or
    the driver's failed JIT of a binary's PTX, or a named NVIDIA GPU people say torch no longer supports, or torch's
    capability check cut to its first line for a GPU below today's default build."""
    if text.has(_NOT_NVIDIA):
        return []
    m, score = text.search(_TOO_OLD), 0.85
    if m is None:
        m, score = text.search(_INVALID_FUNCTION), 0.75
    if m is None:
        m, score = text.search(_INVALID_PTX), 0.7
    if m is None:
        m, score = text.search(_DROPPED_IN_WORDS), 0.6
    if m is None:
        m, score = _found_below_today(text, kb), 0.7
    if m is None:
        return []
    cap = text.search(_CAPABILITY)
    sm = f"sm_{cap.group('major')}{cap.group('minor')}" if cap else _card_sm(text, kb)
    return [_no_kernels(text, kb, m.start(), sm, score)]


def _no_kernels(text: Text, kb: KB, at: int, sm: str, score: float) -> Candidate:
    gpu = f" ({sm})" if sm else ""
    return _arch(
        text,
        at,
        score,
        f"the installed torch (or an extension) carries no kernels for this GPU{gpu}",
        _arch_fix(kb, sm),
    )


def _arch_fix(kb: KB, sm: str) -> str:
    if not sm:
        return (
            "install a torch variant (and extension wheels) whose architecture list covers the GPU: envplan doctor "
            "shows the GPU's capability and torch.cuda.get_arch_list(); rebuild extensions with "
            "TORCH_CUDA_ARCH_LIST set to that capability"
        )
    cc = sm_cc(sm)
    builds = _builds_carrying(kb, sm)
    arch = f"TORCH_CUDA_ARCH_LIST={cc[0]}.{cc[1]}"
    if not builds:
        able = [c.version for c in kb.cuda if c.compiles_for(cc)]
        toolkit = f" with a CUDA toolkit that still compiles for it (<= {max(able)})" if able else ""
        return (
            f"no torch in the KB ships kernels for {sm}: build torch (and extensions) from source with {arch}"
            f"{toolkit}, use an older torch release, or run on the CPU"
        )
    newest = max(r.torch for r in kb.releases)
    if builds[-1][0] < newest:
        last = f"{builds[-1][0]}+{builds[-1][1]}"
        return (
            f"install a torch build compiled for {sm}: the newest with kernels for it is {last}; or build with {arch}"
        )
    # (the newest release still carries it: name that build, for a GPU a release's newer variants dropped too)
    first, last = f"{builds[0][0]}+{builds[0][1]}", f"{builds[-1][0]}+{builds[-1][1]}"
    return (
        f"install a torch build compiled for {sm}: the newest with kernels for it is {last} (the first was {first}; "
        f"the others: envplan matrix), and rebuild extensions with {arch}"
    )


def _nvcc_arch(text: Text, kb: KB, m: re.Match[str]) -> Candidate:
    arch = f"{m.group('arch').lower()}_{m.group('cc')}"
    cc = sm_cc(m.group("cc"))
    cause, fix = _nvcc_verdict(kb, arch, cc)
    return _arch(text, m.start(), 0.9, cause, fix)


def _nvcc_verdict(kb: KB, arch: str, cc: tuple[int, int]) -> tuple[str, str]:
    """Whether this nvcc is too new or too old for the architecture, by the KB's toolkits (CUDA 11.0 on: an
    architecture older than every one of them was dropped before; where the oldest already compiles for it, no
    older toolkit is named as the first)."""
    able = [c.version for c in kb.cuda if c.compiles_for(cc)]
    oldest = min(kb.cuda, key=lambda c: c.version)
    drop = f"remove {cc[0]}.{cc[1]} from TORCH_CUDA_ARCH_LIST (or the project's -gencode flags)"
    if able and max(c.version for c in kb.cuda) not in able:  # dropped by newer toolkits: this nvcc is too new
        cause = f"nvcc is too new for {arch}: CUDA {_next_minor(kb, max(able))} and later dropped it"
        return cause, f"{drop}, or build with CUDA {max(able)} or older, the last that compiles for it"
    if not able and cc < oldest.arch_min:
        cause = f"nvcc is too new for {arch}: no CUDA toolkit from {oldest.version} on compiles for it"
        return cause, f"{drop}, or build with a CUDA toolkit older than {oldest.version}"
    if able and min(able) == oldest.version:
        cause = f"nvcc is too old for {arch}: CUDA {oldest.version} and later compile for it"
        return cause, f"use CUDA toolkit {oldest.version} or newer (export CUDA_HOME and PATH to it), then rebuild"
    if able:
        cause = f"nvcc is too old for {arch}: CUDA {min(able)} is the first toolkit that compiles for it"
        return cause, f"use CUDA toolkit {min(able)} or newer (export CUDA_HOME and PATH to it), then rebuild"
    return f"this nvcc cannot compile for {arch}", "use a CUDA toolkit that supports the GPU's architecture"


def _next_minor(kb: KB, version: Version) -> Version:
    return min((c.version for c in kb.cuda if c.version > version), default=version)


_DRIVER_OLD = phrase("driver on your system is too old")
# the rest of that message, when the paste lost its first line (the URL and the wording are torch's own)
_DRIVER_OLD_REST = re.compile(
    r"Please\s*update\s*your\s*GPU\s*driver\s*by\s*downloading\s*and\s*install|"
    r"a\s*PyTorch\s*version\s*that\s*has\s*been\s*compiled\s*with\s*your\s*version\s*of\s*the\s*CUDA\s*driver",
    re.IGNORECASE,
)
# ... said short, as a title does ("RuntimeError: NVIDIA driver too old", "Your NVIDIA driver is too old")
_DRIVER_OLD_SHORT = re.compile(r"NVIDIA\s+driver\s+(?:is\s+)?too\s+old", re.IGNORECASE)
_DRIVER_INSUFFICIENT = re.compile(
    r"driver\s*version\s*is\s*insufficient\s*for\s*CUDA\s*runtime\s*version|cudaErrorInsufficientDriver", re.I
)
_FOUND = re.compile(r"found\s*version\s*(\d{4,5})", re.IGNORECASE)
# a library's own check of the driver's CUDA (Isaac Gym, Warp: "CUDA driver version is 11020, expected at least 11040")
_DRIVER_EXPECTED = re.compile(
    r"driver\s*version\s*is\s*(?P<have>\d{4,5})\s*,?\s*expected\s*(?:at\s*least\s*)?(?P<need>\d{4,5})", re.IGNORECASE
)
# CUDA error 804: a CUDA newer than the driver, run through the forward-compatibility libraries a container ships,
# on a GPU that forward compatibility does not cover (GeForce, workstation): the driver has to catch up
_FORWARD_COMPAT = re.compile(
    r"forward\s*compatibility\s*was\s*attempted\s*on\s*non\s*supported\s*HW|cudaErrorCompatNotSupportedOnDevice|"
    r"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
    re.IGNORECASE,
)


# CUDA error 803: the user-space driver (libcuda) does not go with the kernel driver, or is older than the CUDA in use;
# in the threads a driver upgrade (or the matching driver packages) settled it
# the driver too old for what the code asks of it: an API the installed driver lacks (error 36), or PTX made by a
# toolkit newer than the driver's JIT compiler (error 222)
_DRIVER_LACKS = re.compile(
    r"API\s*call\s*is\s*not\s*supported\s*in\s*the\s*installed\s*CUDA\s*driver|cudaErrorCallRequiresNewerDriver|"
    r"provided\s*PTX\s*was\s*compiled\s*with\s*an\s*unsupported\s*toolchain|cudaErrorUnsupportedPtxVersion|"
    r"CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
    re.IGNORECASE,
)
_DRIVER_COMBINATION = re.compile(
    r"unsupported\s*display\s*driver\s*/\s*cuda\s*driver\s*combination|cudaErrorSystemDriverMismatch|"
    r"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
    re.IGNORECASE,
)


# the NVIDIA container runtime refusing an image whose CUDA the host driver does not support (nvidia-docker 1.0 said it
# with both versions: "unsupported CUDA version: driver 7.5 < image 8.0")
_CONTAINER_CUDA = re.compile(
    r"requirement\s*error:\s*unsatisfied\s*condition:\s*cu(?:da\s*>=?\s*(?P<cuda>\d{1,2}\.\d))?|"
    r"unsupported\s*CUDA\s*version\s*:?\s*driver\s*(?P<has>\d{1,2}\.\d)\s*<\s*image\s*(?P<image>\d{1,2}\.\d)",
    re.IGNORECASE,
)


# NGC images' own entry-point check: "This container was built for NVIDIA Driver Release 535.86 or later, but version
# 520.56.06 was detected and compatibility mode is UNAVAILABLE"
_NGC_DRIVER = re.compile(
    r"container\s*was\s*built\s*for\s*NVIDIA\s*Driver\s*Release\s*(?P<need>\d{3}(?:\.\d{1,3})*)\s*or\s*later,?\s*"
    r"but\s*version\s*(?P<have>\d{3}(?:\.\d{1,3})*)\s*was\s*detected",
    re.IGNORECASE,
)


def _ngc_release(text: Text) -> list[Candidate]:
    m = text.search(_NGC_DRIVER)
    if m is None or Version(m.group("have")) >= Version(m.group("need")):
        return []
    cause = (
        f"the host's NVIDIA driver {m.group('have')} is older than the {m.group('need')} this NGC image was built for"
    )
    fix = (
        f"upgrade the host driver to >= {m.group('need')}, run the image on a data-center GPU where CUDA forward "
        "compatibility applies, or use an older NGC release built for the CUDA the driver supports (nvidia-smi's "
        "'CUDA Version')"
    )
    return [_driver(text, m.start(), 0.9, cause, fix)]


# a library of the CUDA forward-compatibility folder failing to load (".../cuda/compat/libnvcudla.so: undefined
# symbol"): the image's CUDA is newer than the host's driver, and the compat libraries do not bridge it there (a
# JetPack 6 image on a JetPack 5 host)
_COMPAT_LIB = re.compile(
    r"/cuda(?:-\d{1,2}\.\d)?/compat/(?P<lib>lib[\w.-]+\.so[\w.]*)\s*:\s*(?:undefined\s*symbol|cannot\s*open|version\s*`)",
    re.IGNORECASE,
)


def _compat_library(text: Text) -> list[Candidate]:
    m = text.search(_COMPAT_LIB)
    if m is None:
        return []
    cause = (
        f"{m.group('lib')} comes from the image's CUDA forward-compatibility folder: the image's CUDA is newer than "
        "the host's driver, and the compatibility libraries do not work with it on this host"
    )
    fix = (
        "run an image built for the CUDA the host driver supports (on Jetson, the image of the host's JetPack/L4T "
        "release), or upgrade the host driver (JetPack) to the image's"
    )
    return [_driver(text, m.start(), 0.7, cause, fix)]


# the condition said elsewhere, as a title does ("cuda>=12.1 error running TGI using docker")
_CONDITION_SAID = re.compile(r"(?<![\w.])cuda\s*>=\s*(?P<cuda>\d{1,2}\.\d)(?!\d|\.\d)", re.IGNORECASE)


def _said_condition(text: Text) -> str | None:
    m = text.search(_CONDITION_SAID)
    return m.group("cuda") if m else None


def _container_requirement(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_CONTAINER_CUDA)
    if m is None:
        return _ngc_release(text) or _compat_library(text)
    stated = m.group("cuda") or m.group("image") or _said_condition(text)
    if stated is None:  # the line cut after "cu": the condition is the image's CUDA, its version lost
        cause = "the host's NVIDIA driver is older than the image's CUDA: the container runtime refused to start it"
        fix = "upgrade the host driver, or run an image built for a CUDA the driver supports (nvidia-smi's header)"
        return [_driver(text, m.start(), 0.85, cause, fix)]
    cuda = Version(stated)
    floor = kb.driver_floor(cuda, "linux")
    need = f" (CUDA {cuda} needs driver >= {floor} on Linux)" if floor else ""
    cause = f"the host's NVIDIA driver is older than the image's CUDA {cuda}: the container runtime refused to start it"
    fix = f"upgrade the host driver{need}, or run an image built for a CUDA the driver supports (nvidia-smi's header)"
    return [_driver(text, m.start(), 0.9, cause, fix)]


def driver_too_old(text: Text, kb: KB) -> list[Candidate]:
    if no_gpu_said(text) or amd_gpu_only(text):
        # no NVIDIA GPU to drive (a CPU-only machine, integrated graphics, or an AMD card and no NVIDIA one named): CUDA
        # says "driver insufficient" where there is no NVIDIA driver at all
        return []
    m = (
        text.search(_DRIVER_OLD)
        or text.search(_DRIVER_INSUFFICIENT)
        or text.search(_DRIVER_OLD_REST)
        or text.search(_DRIVER_OLD_SHORT)
    )
    if m is None:
        return (
            _container_requirement(text, kb)
            or _driver_expected(text)
            or _combination(text)
            or _driver_lacks(text)
            or _nvml_missing(text)
            or _driver_api_missing(text)
            or _forward_compat(text, kb)
            or _below_floor(text, kb)
            or _below_requirement(text)
            or _driver_major_below(text)
            or (_said_old(text))
        )
    found = text.search(_FOUND)
    if found is None and _card_newer_than_cuda(text, kb):
        # a card newer than the CUDA named ("RTX 50-series, sm_120 ... base image is CUDA 12.2"): the driver that runs
        # the card is newer than that CUDA's floor, so its "insufficient" is the old CUDA's, read as the architecture.
        # torch's own message with the driver's CUDA ("found version 12040") measured it: that stands, whatever card
        # the text names elsewhere (a T4 host's pull request beside "the Blackwell note", faster-qwen3-tts#113)
        return []
    supports, older = "", "an older CUDA"
    if found:
        limit = _cuda_of(found.group(1))
        supports = f" (it supports CUDA up to {limit})"
        newest = _newest_build_for(kb, limit)
        older = f"CUDA <= {limit}" + (f" (the newest in the KB: torch {newest})" if newest else "")
    cuda = torch_cuda(text.raw) or _variant_cuda(text)
    floor = kb.driver_floor(cuda, "linux") if cuda else None
    need = f": CUDA {cuda} needs driver >= {floor} (Linux)" if floor else " (envplan doctor shows both versions)"
    return [
        _driver(
            text,
            m.start(),
            0.95,
            f"the NVIDIA driver is older than the CUDA runtime torch uses{supports}",
            f"upgrade the NVIDIA driver{need}, or install a torch variant built for {older} "
            "(envplan check with machine.driver set picks one)",
        )
    ]


# Warp's start-up banner, the toolkit it was built with and the driver's CUDA: "CUDA Toolkit 12.8, Driver 13.0"
_TOOLKIT_AND_DRIVER = re.compile(r"CUDA\s+Toolkit\s+(?P<toolkit>\d{1,2}\.\d),\s*Driver\s+(?P<driver>\d{1,2}\.\d)", re.I)


def _driver_lacks(text: Text) -> list[Candidate]:
    m = text.search(_DRIVER_LACKS)
    if m is None:
        return []
    banner = text.search(_TOOLKIT_AND_DRIVER)
    if banner is not None and Version(banner.group("driver")) >= Version(banner.group("toolkit")):
        return []  # the driver supports a newer CUDA than the code was built with: not a driver too old for it
    ptx = "ptx" in m.group(0).lower()
    cause = (
        "the NVIDIA driver is older than the CUDA toolkit that compiled the code's PTX, so it cannot JIT it (error 222)"
        if ptx
        else "the code calls a CUDA API the installed NVIDIA driver is too old to provide (error 36)"
    )
    return [
        _driver(
            text,
            m.start(),
            0.8,
            cause,
            "upgrade the NVIDIA driver to one that supports the CUDA the code was built with (nvidia-smi's 'CUDA "
            "Version' must be >= it), or use a build made with a CUDA the driver supports (envplan check with "
            "machine.driver set picks one)",
        )
    ]


# a CUDA driver API entry point undefined ("undefined symbol: cuGreenCtxDestroy"): the driver API lives in the driver's
# libcuda, so a driver older than the CUDA release that added the call lacks it (case-sensitive: cuBLAS', cuDNN's and
# the runtime's cuda* names are other libraries)
# (the driver's video decoder API too: cuvidGetDecoderCaps is libnvcuvid's, which ships with the driver)
_DRIVER_API = re.compile(r"undefined\s*symbol\s*:?\s*(?P<sym>cu(?:vid)?[A-Z][A-Za-z0-9]+(?:_v\d)?)\b")


# the driver's NVML library lacking a function torch calls ("Can't find nvmlDeviceGetNvLinkRemoteDeviceType:
# /lib/x86_64-linux-gnu/libnvidia-ml.so.1: undefined symbol: ..."): libnvidia-ml ships with the driver
_NVML_MISSING = re.compile(
    r"Can'?t\s+find\s+(?P<sym>nvml\w+)\s*:[^\n]*libnvidia-ml|libnvidia-ml\.so(?:\.\d+)?\s*:\s*undefined\s+symbol\s*:?\s*"
    r"(?P<sym2>nvml\w+)",
    re.IGNORECASE,
)


def _nvml_missing(text: Text) -> list[Candidate]:
    m = _NVML_MISSING.search(text.raw)
    if m is None:
        return []
    sym = m.group("sym") or m.group("sym2")
    cause = (
        f"the NVIDIA driver's NVML library (libnvidia-ml, installed with the driver) lacks {sym}, which this torch "
        "calls: the driver is older than the one the torch build expects"
    )
    fix = "upgrade the NVIDIA driver (envplan doctor shows it and torch's CUDA), or use a torch built for an older CUDA"
    return [_driver(text, m.start(), 0.92, cause, fix)]


def _driver_api_missing(text: Text) -> list[Candidate]:
    m = _DRIVER_API.search(text.raw)
    if m is None:
        return []
    seen = driver_seen(text.raw)
    driver = f" {seen[0]}" if seen else ""
    cause = (
        f"{m.group('sym')} is a CUDA driver API call (libcuda) that the installed NVIDIA driver{driver} does not "
        "provide: the driver is older than the CUDA release that added it"
    )
    fix = (
        "upgrade the NVIDIA driver to one of the CUDA the package was built with (nvidia-smi's 'CUDA Version' must "
        "be >= it), or use the package's build for an older CUDA"
    )
    return [_driver(text, m.start(), 0.75, cause, fix)]


def _cuda_of(code: str) -> Version:
    """The CUDA release a driver-API version number means (11040 -> 11.4)."""
    n = int(code)
    return Version(f"{n // 1000}.{n % 1000 // 10}")


def _driver_expected(text: Text) -> list[Candidate]:
    m = text.search(_DRIVER_EXPECTED)
    if m is None or int(m.group("have")) >= int(m.group("need")):
        return []
    have, need = _cuda_of(m.group("have")), _cuda_of(m.group("need"))
    return [
        _driver(
            text,
            m.start(),
            0.85,
            f"the NVIDIA driver supports CUDA up to {have}; the library needs a driver for CUDA {need} or newer",
            f"upgrade the NVIDIA driver to one whose nvidia-smi 'CUDA Version' is >= {need}, or use the library's "
            f"build for CUDA {have} or older",
        )
    ]


def _driver(text: Text, at: int, score: float, cause: str, fix: str) -> Candidate:
    return found("driver-too-old", text, at, score, cause=cause, fix=fix)


def _combination(text: Text) -> list[Candidate]:
    m = text.search(_DRIVER_COMBINATION)
    if m is None:
        return []
    return [
        _driver(
            text,
            m.start(),
            0.8,
            "the NVIDIA driver's libraries do not go with its kernel module or with the CUDA in use (error 803): "
            "a driver update left half done, or a driver older than the CUDA runtime",
            "install one current NVIDIA driver whole (its kernel module and libcuda of the same version; reboot "
            "after an update), new enough for torch.version.cuda; envplan doctor shows both versions",
        )
    ]


def _forward_compat(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_FORWARD_COMPAT)
    if m is None:
        return []
    cuda = torch_cuda(text.raw) or _variant_cuda(text)
    supported = driver_cuda(text.raw)
    if supported is not None and (cuda is None or cuda <= supported):
        return []  # nvidia-smi shows a driver for this CUDA: not the driver's age (a container toolkit, a mount)
    tk = kb.toolkit(cuda) if cuda else None
    floor = tk.driver("linux") if tk else None
    need = f" (CUDA {cuda} needs driver >= {floor} on Linux)" if floor else ""
    return [
        _driver(
            text,
            m.start(),
            0.8,
            "the host's NVIDIA driver is older than the CUDA the image or torch uses, and the forward-"
            "compatibility libraries that try to bridge the gap do not run on this GPU (error 804)",
            f"upgrade the host driver to one that supports the image's CUDA{need}, or use an image / torch "
            "variant built for the CUDA the driver supports (nvidia-smi shows it); envplan check with machine.driver "
            "set picks one",
        )
    ]


# the driver's age said in prose, any language ("the driver is outdated", "the driver version is too low",
# "驱动版本太低", "驱动版本差了一点"), or the driver denied a CUDA ("an older NVIDIA driver (450.36), which does not
# support CUDA 11.1")
_OLD_IN_PROSE = re.compile(
    r"(?:nvidia\s+|gpu\s+|graphics\s+)?driver(?:\s+version)?\s+(?:is\s+|was\s+)?"
    r"(?:too\s+old|outdated|out\s+of\s+date|too\s+low|not\s+new\s+enough)|"
    r"driver\b(?:[^.\n]|\.(?=\d)){0,40}?(?:does\s*not|doesn'?t|cannot|can'?t|won'?t)\s+support\s+(?:the\s+)?CUDA(?:\s+toolkit)?\s*"
    r"(?:>=?\s*)?\d{1,2}\.\d|"
    r"驱动(?:程序)?(?:的)?(?:版本)?\W{0,2}(?:太旧|过旧|过低|太低|不够新|不够|差了)",
    re.IGNORECASE,
)
# the driver's version said in a sentence ("the cluster GPU driver is version 470.82", "NVIDIA driver (450.36)")
_DRIVER_NAMED = re.compile(r"driver\b[^.\n\d]{0,25}?\(?(?P<v>\d{3}\.\d{1,3}(?:\.\d{1,3})?)\b", re.IGNORECASE)


def _said_old(text: Text) -> list[Candidate]:
    """The driver's age in words: with CUDA unusable, or with the driver's own version stated (which the words
    are about: a driver number is never a torch or CUDA version)."""
    m = text.search(_OLD_IN_PROSE)
    if m is None or not (cuda_unusable(text.raw) or text.has(_DRIVER_NAMED)):
        return []
    return [
        _driver(
            text,
            m.start(),
            0.6,
            "the NVIDIA driver is older than the CUDA torch was built with, as the text says",
            "compare nvidia-smi's 'CUDA Version' with torch.version.cuda (envplan doctor shows both); upgrade "
            "the driver, or install the torch variant for a CUDA the driver supports (envplan check picks it)",
        )
    ]


_WINDOWS = re.compile(r"windows|win1[01]|[A-Z]:\\", re.IGNORECASE)


def _below_floor(text: Text, kb: KB) -> list[Candidate]:
    """No driver message, but the versions stated (collect_env, nvidia-smi) put the driver below the floor of the
    CUDA torch was built with, and CUDA is unusable."""
    seen, cuda = driver_seen(text.raw), torch_cuda(text.raw) or _variant_cuda(text)
    if seen is None or cuda is None or not cuda_unusable(text.raw):
        return []
    driver, at = seen
    os = "windows" if text.has(_WINDOWS) else "linux"
    tk = kb.toolkit(cuda)
    floor = (tk.minor_compat_driver(os) if tk else None) or kb.driver_floor(cuda, os)
    if floor is None or driver >= floor:
        return []
    return [
        _driver(
            text,
            at,
            0.75,
            f"the NVIDIA driver {driver} is older than CUDA {cuda} (torch's) needs: driver >= {floor}",
            f"upgrade the NVIDIA driver to >= {floor}, or install a torch variant built for a CUDA this driver "
            "runs (envplan check with machine.driver set picks one)",
        )
    ]


# a driver floor stated in the text ("CUDA 13 requires driver >=580.65.06"), and the machine's driver below it ("The
# runner's NVIDIA driver is 570.195.03")
_DRIVER_REQUIRED = re.compile(
    r"(?:requires?|needs?)\s+(?:an?\s+)?(?:NVIDIA\s+)?driver\s*(?:version\s*)?(?:>=|\u2265|=>|(?:of\s+)?at\s+least)\s*"
    r"(?P<need>\d{3}(?:\.\d{1,3}){0,2})(?![\d])",
    re.IGNORECASE,
)


def _below_requirement(text: Text) -> list[Candidate]:
    need, seen = text.search(_DRIVER_REQUIRED), driver_seen(text.raw)
    if need is None or seen is None or seen[0] >= Version(need.group("need")):
        return []
    driver, at = seen
    return [
        _driver(
            text,
            at,
            0.75,
            f"the NVIDIA driver {driver} is older than the driver the text says is required (>= {need.group('need')})",
            f"upgrade the NVIDIA driver to >= {need.group('need')}, or install a torch variant built for a CUDA this "
            "driver runs (envplan check with machine.driver set picks one)",
        )
    ]


def _driver_major_below(text: Text) -> list[Candidate]:
    """The driver's own CUDA (nvidia-smi's header, or said) of an older major than torch's CUDA, and CUDA unusable:
    minor-version compatibility spans one major only."""
    supported, cuda = driver_cuda(text.raw), torch_cuda(text.raw) or _variant_cuda(text)
    if supported is None or cuda is None or cuda.major <= supported.major or not cuda_unusable(text.raw):
        return []
    return [
        _driver(
            text,
            max(text.raw.find("CUDA"), 0),
            0.75,
            f"the NVIDIA driver supports CUDA up to {supported}, an older major than torch's CUDA {cuda}",
            f"upgrade the NVIDIA driver to one for CUDA {cuda.major}, or install the torch variant for CUDA "
            f"{supported.major}.x (envplan check with machine.driver set picks one)",
        )
    ]


def _newest_build_for(kb: KB, limit: Version) -> str:
    from envplan.kb.variants import parse_variant

    for release in reversed(kb.releases):
        fits = [
            (v.version, name)
            for name in release.variants
            if (v := parse_variant(name)) is not None and v.kind == "cuda" and v.version and v.version <= limit
        ]
        if fits:
            return f"{release.torch}+{max(fits)[1]}"
    return ""


def _variant_cuda(text: Text) -> Version | None:
    torch = torch_seen(text.raw)
    if torch is None or not torch.variant.startswith("cu"):
        return None
    from envplan.kb.variants import parse_variant

    variant = parse_variant(torch.variant)
    return variant.version if variant else None
