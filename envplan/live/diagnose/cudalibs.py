"""A CUDA library (runtime, cuBLAS, cuDNN, ... or the driver's libcuda) that the loader cannot find, or finds in
another copy than the one it needs. Library names are read in both spellings: Linux sonames (libcudnn.so.8,
libcudnn_cnn_infer.so.8) and Windows DLLs (cudart64_110.dll, cudnn_ops_infer64_8.dll)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from envplan.kb import KB

from .cpu import amd_gpu_only, no_nvidia
from .facts import RELATIVE_C, torch_cuda, torch_seen
from .fixes import companions_fix, package_of, rebuild_fix, toolkit_fix
from .model import Candidate, found
from .prose import EXTENSION_NAMED
from .text import Text

__all__ = ["cuda_runtime_missing"]

# (nvToolsExt: CUDA's NVTX library, which torch's CUDA builds before 2.x link; cuDSS, cuFile and NVSHMEM: libraries
# later torch builds link, cuDSS in the Jetson/aarch64 builds of 2.8)
_NAMES = (
    r"cudart|cublasLt|cublas|cudnn[a-z_]*|cufftw|cufft|curand|cusparseLt|cusparse|cusolver|nvrtc-builtins|nvrtc|nccl|nvJitLink|"
    r"cupti|cudss|cufile|nvshmem_host|"
    # (CUDA's image and video libraries next to torch: NPP, nvJPEG; the driver's video decoder nvcuvid)
    r"npp[a-z]{1,4}|nvjpeg|nvcuvid|"
    r"nvToolsExt"
)
_LIB = rf"(?P<lib>lib(?:{_NAMES}|cuda)\.so(?:\.\d+)*|(?:{_NAMES})64_\d+(?:_\d+)*\.dll|nvcuda\.dll)"


def _any(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


# the loader's own words
_CANNOT_OPEN = _any(
    rf"{_LIB}\s*:\s*cannot\s*open\s*shared\s*object", rf"error while loading shared libraries:\s*{_LIB}"
)
_COULD_NOT = _any(
    rf"(?:Could not (?:load|locate|find)(?: library)?|Unable to load any of \{{?)\s*{_LIB}",
    rf"(?:unable to|can'?t|cannot|could\s*n[o'\u2019]?t|failed to) (?:load|locate|find)(?: library)?\s*['\"`]?{_LIB}",
    # ... told in a sentence ("it fails to find CUDA-related libraries, specifically `libcuda.so.1`", "one that I
    # can't locate (`libcudart.so.10.1`)")
    rf"(?:unable to|can'?t|cannot|could\s*n[o'\u2019]?t|fail(?:s|ed)? to) (?:load|locate|find)\b[^\n.;]{{0,60}}?"
    rf"[\s(`'\"]{_LIB}",
    # ... or named by its family alone, its files said ("can't find libcudnn shared objects")
    rf"(?:unable to|can'?t|cannot|could\s*n[o']?t|fail(?:s|ed)? to) (?:load|locate|find) (?:the\s+|any\s+)?"
    rf"(?P<lib>lib(?:{_NAMES}|cuda))\s+(?:shared\s+)?(?:objects?|librar(?:y|ies)|files?)\b",
    # ldd's listing of a binary's libraries ("libcudnn.so.7 => not found")
    rf"{_LIB}\s*=>\s*not\s+found",
    rf"Error loading \"?[^\n\"]*?{_LIB}",
    rf"{_LIB}\"?,?\s*(?:is\s+)?not found in (?:the )?system path",
    rf"make sure {_LIB} is in your library path",
    rf"failed to open {_LIB}",  # NVRTC's own words for its builtins library
    # a DLL preloaded by path that fails ("vstrt: failed to preload C:\\...\\cublas64_11.dll, errno 127": another copy
    # of it, torch's, already loaded)
    rf"failed to preload [^\n,]*?[\\/]{_LIB}",
    # TensorRT's loader, naming the library it wanted and the CUDA library that one needs
    rf"Unable to open library:?\s*\S+\s+due to\s+{_LIB}",
    # ... said missing from a package or bundle ("the bundle is missing cudnn_ops_infer64_8.dll", "未包含...dll")
    rf"(?:无法加载|不能加载|加载失败|找不到|缺失|缺少|未包含|没有包含|不包含)[^。\n]{{0,24}}?{_LIB}",
    rf"(?:(?:is|are)\s+missing|does\s*n[o']?t\s+(?:include|contain|ship)|lacks)\s+(?:the\s+)?[`'\"]?{_LIB}",
    rf"{_LIB}\s*(?:库文件|文件)?\s*(?:缺失|找不到|不存在|无法加载|加载失败)",
    rf"{_LIB}[`'\"]?\s+(?:can'?t|cannot|could\s*n[o']?t)\s+be\s+(?:found|loaded)",
    # a loader's assertion in short ("AssertionError: libcuda.so cannot found!", "libcudart.so not found")
    rf"{_LIB}[`'\"]?\s+(?:lib(?:rary)?\s+)?(?:(?:was|is)\s+)?(?:not|cannot|can'?t)\s+(?:be\s+)?found"
    r"(?!\s+in\s+(?:the\s+)?system)",
    # Windows failing to load a Python module named after a CUDA library for its DLLs ("DLL load failed while importing
    # nvjpeg: The specified module could not be found")
    r"DLL\s+load\s+failed\s+while\s+importing\s+(?P<lib>nvjpeg|cudnn|cublas|cufft|curand|cusparse|cusolver|nvrtc|npp\w*)"
    r"\s*:\s*The\s+specified\s+module\s+could\s+not\s+be\s+found",
)
# a library's entry point the loader could not find in any copy ("Cannot load symbol cudnnCreateTensorDescriptor",
# CTranslate2's words): the library of the release the binary was built for is not there
_SYMBOL_UNLOADABLE = re.compile(
    r"Cannot\s*load\s*symbol\s*(?P<sym>(?:cudnn|cublas(?:Lt)?|cufft|curand|nvrtc)\w+)", re.I
)
# a torch-side preload glob such as "libcublas.so.*[0-9] not found in the system path"
_GLOB = _any(rf"(?P<lib>lib(?:{_NAMES})\.so)\.?\*\S*\s+not found in (?:the )?system path")
# a CUDA library that loaded, but resolved a dependency to another copy: the symbol is missing there
_SHADOWED = re.compile(
    rf"{_LIB}\s*:\s*undefined\s*symbol\s*:?\s*(?P<sym>[A-Za-z_]\w*)(?:,\s*version\s*(?P<dep>lib\w+\.so[.\d]*))?", re.I
)
# any binary (torch's own libraries, an extension) needing a CUDA API entry point that the copy of that CUDA library
# the loader found lacks: "undefined symbol: cudaGetDriverEntryPointByVersion, version libcudart.so.12"
_VERSIONED = re.compile(
    rf"undefined\s*symbol\s*:?\s*(?P<sym>[A-Za-z_]\w*)\s*,\s*version\s*(?P<dep>lib(?:{_NAMES})\.so[.\d]*)", re.I
)
# a CUDA library's own C entry point undefined ("undefined symbol: cublasGemmGroupedBatchedEx"), no library named:
# the copy of that library the loader found is older than the one the binary was built against (macOS's dyld says
# it with the C name's underscore: "Symbol not found: _cusparseCreateCsr ... Expected in: .../libcusparse.10.dylib")
_API_UNDEFINED = re.compile(
    r"(?:undefined\s*symbol\s*:?\s*|Symbol\s+not\s+found\s*:\s*_)"
    r"(?P<sym>(?P<family>cublasLt|cublas|cudnn|cufft|curand|cusparse|cusolver|nccl|nvrtc|nvJitLink)[A-Z]\w*)",
    re.IGNORECASE,
)
_NAMED = _any(
    rf"(?:OSError|ImportError|error)\b[^\n]{{0,30}}?{_LIB}",
    rf"{_LIB}\W{{1,3}}(?:ERROR|not found|not defined|missing|No such file)",
)
# nvJitLink names its entry points by the CUDA release that added them (__nvJitLinkGetErrorLogSize_12_9): a binary
# asking for one that the copy loaded lacks was built against a newer CUDA than that copy
_ENTRY_POINT = re.compile(r"(?P<sym>_{0,2}nvJitLink\w+?_(?P<major>1\d)_(?P<minor>\d{1,2}))(?![\w])")
_UNRESOLVED = re.compile(
    r"undefined\s*symbol|symbol\s*(?:not\s*found|lookup)|not\s*defined|unresolved|符号解析失败|符号|找不到", re.I
)
# these majors are CUDA majors; cuDNN, NCCL, cuFFT, cuRAND, cuSPARSE, cuSOLVER number their own releases
_CUDA_NUMBERED = ("cudart", "cublas", "nvrtc", "nvJitLink")


@dataclass(frozen=True, slots=True)
class _Lib:
    name: str  # as written
    family: str  # "cudart", "cudnn", "cuda" (the driver) ...
    major: str  # the CUDA major (or the cuDNN major) the name carries, "" when none

    @property
    def numbered_by_cuda(self) -> bool:
        return self.family.startswith(_CUDA_NUMBERED)


# ROCm's counterparts (MIOpen for cuDNN, rocBLAS/hipBLAS for cuBLAS, RCCL for NCCL, the HIP runtime itself), which a
# torch ROCm build loads the same way
# (ROC-TX, libroctx64, is roctracer's annotation library: Debian's roctracer source package builds it; librocdxg is
# ROCm's bridge to WSL's /dev/dxg, github.com/ROCm/librocdxg)
_ROCM_NAMES = (
    r"MIOpen|rocblas|hipblas(?:lt)?|hipsparse(?:lt)?|hipfft|hiprand|hipsolver|hiprtc|rocsolver|rocsparse|rocfft|"
    r"rocrand|rccl|amdhip64|hsa-runtime64|roctracer64|roctx64|rocm_smi64|rocdxg"
)
# one of them named by the loader, before its words ("librocsolver.so.0: ...")
_ROCM_SO = rf"(?P<lib>lib(?:{_ROCM_NAMES})\.so(?:\.\d+)*)\s*:\s*"
_ROCM_LIB = re.compile(rf"{_ROCM_SO}cannot\s*open\s*shared\s*object", re.IGNORECASE)
# the HIP SDK's DLLs on Windows, as ZLUDA and torch's ROCm builds for Windows load them ("Could not find module
# '...\\rocblas.dll'", "hiprtc0507.dll was not found"; the HIP runtime's version in hiprtc's and amdhip64's names)
_HIP_DLL_NAME = rf"(?:{_ROCM_NAMES})(?:_?\d+)?\.dll"
_HIP_DLL = re.compile(
    rf"(?P<lib>{_HIP_DLL_NAME})['\"]?\s*(?:\(or\s+one\s+of\s+its\s+dependencies\)\.?\s*)?(?:was\s+)?not\s+found|"
    # torch's own HIP DLL failing to load ("Error loading ...\\torch\\lib\\c10_hip.dll or one of its dependencies",
    # WinError 126): the file is there, what it links is not, the HIP runtime (amdhip64) that AMD's driver installs
    rf"Error\s+loading\s+['\"]?[^'\"\n]*?(?P<torch>(?:c10|torch|caffe2)_hip\.dll)['\"]?\s+or\s+one\s+of\s+its\s+"
    rf"dependencies|"
    rf"Could\s+not\s+find\s+module\s+['\"][^'\"\n]*?(?P<mod>{_HIP_DLL_NAME})",
    re.IGNORECASE,
)
# a ROCm library lacking a symbol another ROCm library exports ("librocsolver.so.0: undefined symbol:
# _Z31rocblas_internal_syr2k_template..."): the two come from different ROCm releases
_ROCM_MIXED = re.compile(rf"{_ROCM_SO}undefined\s*symbol\s*:?\s*(?P<sym>\w*?(?:{_ROCM_NAMES}|hip)\w*)", re.IGNORECASE)


def _rocm_missing(text: Text) -> list[Candidate]:
    m = text.search(_ROCM_LIB)
    if m is None:
        return _hip_dll_missing(text) or _rocm_mixed(text)
    cause = f"{m.group('lib')} (a ROCm library) is not where the loader looks"
    fix = (
        "install the ROCm release the torch build was made for (its +rocmX.Y tag; pip-installed ROCm SDK wheels put "
        "their lib folders in site-packages) and put that lib directory on LD_LIBRARY_PATH, or use the torch ROCm "
        "wheel that bundles its libraries (download.pytorch.org/whl/rocmX.Y)"
    )
    return [_candidate(text, m.start(), 0.88, cause, fix)]


def _hip_dll_missing(text: Text) -> list[Candidate]:
    m = text.search(_HIP_DLL)
    if m is None:
        return []
    if m.group("torch"):
        cause = (
            f"torch's {m.group('torch')} is there, but the HIP runtime it links (amdhip64.dll, which AMD's GPU driver "
            "installs) is not where the loader looks"
        )
        fix = (
            "install the AMD GPU driver (Adrenalin, or the PRO driver) the torch ROCm build for Windows asks for, and "
            "the HIP SDK if its notes require it; a machine without an AMD GPU needs the CUDA or CPU build of torch"
        )
        return [_candidate(text, m.start(), 0.7, cause, fix)]
    dll = m.group("lib") or m.group("mod")
    cause = f"{dll} (the HIP SDK's, for ROCm on Windows or ZLUDA) is not where the loader looks"
    fix = (
        "install the HIP SDK release the torch build (or ZLUDA build) was made for and put its bin folder on PATH "
        "(C:\\Program Files\\AMD\\ROCm\\X.Y\\bin), or use the ZLUDA / torch build made for the HIP SDK you have"
    )
    return [_candidate(text, m.start(), 0.8, cause, fix)]


def _rocm_mixed(text: Text) -> list[Candidate]:
    m = text.search(_ROCM_MIXED)
    if m is None:
        return []
    cause = (
        f"{m.group('lib')} (a ROCm library) lacks a symbol another ROCm library exports ({m.group('sym')}): libraries "
        "of two ROCm releases are mixed"
    )
    fix = (
        "install every ROCm library from one ROCm release (the one the torch build was made for: its +rocmX.Y tag), "
        "or rebuild the package that links them against the ROCm installed; envplan doctor shows torch's build"
    )
    return [_candidate(text, m.start(), 0.85, cause, fix)]


# Windows out of commit memory while loading torch's CUDA DLLs: the DLL is there, the paging file is too small
_PAGING_FILE = re.compile(r"WinError 1455|paging file is too small|页面文件太小", re.IGNORECASE)
# the user's own check coming back empty: "ldconfig -p | grep libcuda.so => empty", "whereis libcuda.so" naming no file
_LOOKED_UP_EMPTY = re.compile(
    r"(?:ldconfig\s+-p\s*\|\s*grep|whereis)\s+[`'\"]?(?P<lib>lib(?:cuda|cudart|cudnn|cublas|nvrtc)[\w.]*)[`'\"]?[`'\"\s]*"
    r"(?:=>|->|:|returns|gives|shows|prints)?\s*[`'\"]?(?:\(?(?:empty|nothing|no\s+output)\)?|\w+:[`'\"]?\s*\(?which)",
    re.IGNORECASE,
)
# cpm_kernels' (ChatGLM's int4 kernels) words when it loads no CUDA library of that name ("RuntimeError: Library cudart
# is not initialized"): the library is not where its loader looks
_NOT_INITIALIZED = re.compile(r"Library\s+(?P<lib>cudart|cublas(?:Lt)?|nvrtc|cuda)\s+is\s+not\s+initiali[sz]ed", re.I)
# numba's (and cuDF's) JIT finding no NVVM, the CUDA toolkit's compiler library ("NvvmSupportError: libNVVM cannot be
# found", "OSError: library nvvm not found", "Could not find module 'nvvm.dll'"): the toolkit or its nvvm is missing
_NO_NVVM = re.compile(
    r"libNVVM\s+(?:cannot|can'?t|could\s*n[o']?t)\s+be\s+found|library\s+nvvm\s+not\s+found|"
    r"Could\s+not\s+find\s+module\s+['\"]?nvvm\.dll|NvvmSupportError",
    re.IGNORECASE,
)
# the linker finding no libcuda.so to link (triton, an extension's -lcuda): the driver's library has no unversioned
# name there
_NO_LIBCUDA_LINK = re.compile(r"cannot\s+find\s+-lcuda\b", re.IGNORECASE)
# ... a CUDA toolkit library (a JIT-built extension linking -lcudart -lcurand): the toolkit's lib64 is not on the
# linker's path, or that library was never installed ("/usr/bin/ld: cannot find -lcudart", "can not find -lcurand")
_NO_TOOLKIT_LINK = re.compile(
    r"can\s*not\s+find\s+-l(?P<lib>cudart|curand|cublas(?:Lt)?|cufft|cusparse|cusolver|nvrtc|cudnn|nvToolsExt)\b",
    re.IGNORECASE,
)
# ... told as a problem with the flag ("Install problem with -lcuda", "-lcuda not found")
_LIBCUDA_LINK_TOLD = re.compile(
    r"(?:problem|error|issue|fail\w*|trouble)\s+(?:with|on|at|linking)\s+[`'\"]?-lcuda\b|"
    r"-lcuda\b[`'\"]?\s*(?:not\s+found|error|fail\w*|missing)",
    re.IGNORECASE,
)
# a known extension's module imported just before the loader's failure ("import flash_attn_2_cuda as flash_attn_gpu")
_IMPORTED = re.compile(
    r"(?:^|\n)\s*(?:>>>\s*)?(?:import|from)\s+(?P<mod>[A-Za-z_][\w.]*)(?:\s+import\s+(?P<name>\w+))?"
)
# a package's own compiled module imported by name ("from pytorch3d import _C"): the package owns it
_COMPILED_NAME = re.compile(r"_C|_ext|_\w*cuda\w*|\w+_C|\w+_cuda")
# a CUDA release the text states (the image's, torch's: "cuda 13.0", "+cu130", "cu128"), never a library's soname
_CUDA_STATED = re.compile(
    r"(?<![\w.])cuda\s*(?:version\s*)?[:=]?\s*(?P<a>\d{1,2})\.\d|(?<![A-Za-z])cu(?P<b>1\d)\d(?!\d)|"
    # nvcc's banner: the toolkit the environment has ("Cuda compilation tools, release 11.0, V11.0.221")
    r"Cuda\s*compilation\s*tools,\s*release\s*(?P<c>\d{1,2})\.\d|"
    # the machine's CUDA in words ("I'm on a CUDA 10 system")
    r"(?<![\w.])CUDA\s*(?P<d>\d{1,2})(?:\.\d)?\s+(?:system|machine|server|box|install(?:ation)?)\b",
    re.I,
)


# a package whose compiled module wants CUDA N's runtime told without the loader's words ("vllm ... tries to open
# libcudart.so.13", "libcudart.so.13 required when torch-backend=cu129"): with torch's CUDA another major, the
# package's wheel is for another torch build
_ASKS_FOR = re.compile(
    rf"(?P<verb>(?:tries|trying)\s+to\s+open|requires?|needs?|looks?\s+for|wants?)?\s*[`'\"]?{_LIB}[`'\"]?"
    r"(?P<after>\s+(?:is\s+)?(?:required|needed))?",
    re.IGNORECASE,
)
# torch's own wrapper of NVRTC failing to load on Windows ('Error loading "...\\torch\\lib\\caffe2_nvrtc.dll" or one of
# its dependencies'): the DLL is torch's, the dependency missing is CUDA's NVRTC (nvrtc64_*.dll)
# (also said "caffe2_nvrtc.dll not found", as ZLUDA's setups print it)
_TORCH_NVRTC = re.compile(
    r"Error\s+loading\s+\"?[^\n\"]*?caffe2_nvrtc\.dll|caffe2_nvrtc\.dll['\"]?\s+(?:was\s+)?not\s+found|"
    # Python 3.8+'s loader on Windows ("Could not find module '...\\caffe2_nvrtc.dll' (or one of its dependencies)")
    r"Could\s+not\s+find\s+module\s+['\"][^'\"\n]*?caffe2_nvrtc\.dll",
    re.IGNORECASE,
)
# ONNX Runtime's CUDA provider finding no CUDA to load: "CUDA_PATH is set but CUDA wasnt able to be loaded"; its
# warning that the provider could not be created, which sends the user to the provider's requirements (the CUDA and
# cuDNN it loads): "Failed to create CUDAExecutionProvider. Please reference ...#requirements to ensure all
# dependencies are met"; and its provider library said not to load, in any words ("load失败" before
# onnxruntime_providers_cuda.dll, "libonnxruntime_providers_cuda.so の読み込みに失敗しました": the corpus settles all
# such reports as a CUDA or cuDNN library not found)
_ORT_PROVIDER = r"(?:lib)?onnxruntime_providers_cuda(?:\.dll|\.so)?"
_ORT_LOAD_FAILED = (
    r"load\s*失败|加载失败|読み込みに失敗|fail\w*\s+to\s+load|could\s*n[o']?t\s+(?:be\s+)?load|LoadLibrary\w*\s+fail\w*|"
    r"error\s+126"
)
_ORT_NO_CUDA = re.compile(
    r"CUDA_PATH\s+is\s+set\s+but\s+CUDA\s+was\s*n'?t\s+able\s+to\s+be\s+loaded|"
    r"Failed\s+to\s+create\s+CUDAExecutionProvider\.?\s+Please\s+reference\s+\S+requirements\s*to\s+ensure\s+all\s+"
    r"dependencies\s+are\s+met|"
    rf"(?:{_ORT_LOAD_FAILED})[^\n]{{0,40}}?{_ORT_PROVIDER}|{_ORT_PROVIDER}[^\n]{{0,60}}?(?:{_ORT_LOAD_FAILED})",
    re.IGNORECASE,
)


# TensorFlow beside torch, unable to load the CUDA libraries its build needs ("Cannot dlopen some GPU libraries. Please
# make sure the missing libraries mentioned above are installed properly", gpu-jupyter#147: an image with cuDNN 9 for
# torch where TF 2.16 needs cuDNN 8.9)
_TF_DLOPEN = re.compile(r"Cannot\s+dlopen\s+some\s+GPU\s+libraries", re.IGNORECASE)


def _tensorflow_dlopen(text: Text) -> list[Candidate]:
    m = text.search(_TF_DLOPEN)
    if m is None:
        return []
    cause = "TensorFlow cannot load the CUDA and cuDNN libraries its build needs (another major is installed, or none)"
    fix = (
        "install the CUDA and cuDNN majors the TensorFlow release was built for (its tested-build table) beside "
        "torch's, e.g. TensorFlow's [and-cuda] extra, or use the TensorFlow release built for the cuDNN you have"
    )
    return [_candidate(text, m.start(), 0.75, cause, fix)]


# libtorch's CMake config unable to find the CUDA libraries its CUDA build needs ("Your installed Caffe2 version uses
# CUDA but I cannot find the CUDA libraries"), with CMake's own word that it found no toolkit at all: no CUDA toolkit
# where CMake looks (without that word, a toolkit CMake found but rejects, another CUDA than torch's, says the same:
# TripoSR#147)
_CMAKE_NO_CUDA = re.compile(r"uses\s+CUDA\s+but\s+I\s+cannot\s+find\s+the\s+CUDA\s+libraries", re.IGNORECASE)
_CMAKE_NO_TOOLKIT = re.compile(r"Could\s+NOT\s+find\s+CUDA(?:Toolkit)?\s*\(missing", re.IGNORECASE)


def _cmake_no_cuda(text: Text) -> list[Candidate]:
    m = text.search(_CMAKE_NO_CUDA)
    if m is None or not text.has(_CMAKE_NO_TOOLKIT):
        return []
    cause = "CMake finds no CUDA toolkit for the CUDA build of libtorch the project links (Caffe2Config.cmake)"
    fix = (
        "install the CUDA toolkit of libtorch's CUDA release on the machine (a conda env's runtime has no nvcc or "
        "headers) and point CMake at it (CUDA_TOOLKIT_ROOT_DIR / CUDAToolkit_ROOT, or CUDA_HOME), or link the CPU "
        "libtorch"
    )
    return [_candidate(text, m.start(), 0.8, cause, fix)]


def cuda_runtime_missing(text: Text, kb: KB) -> list[Candidate]:
    if text.has(_PAGING_FILE):
        return []
    linked = _link_failure(text)
    if linked:
        return linked
    for patterns, score in ((_CANNOT_OPEN, 0.92), (_COULD_NOT, 0.85)):
        m = _first(text, patterns)
        if m:
            return _loader_failed(text, kb, m, score)
    for read in (
        _asked_for_other_cuda,
        _libcuda_link_told,
        _rocm_missing,
        _copy_mixed,
        _entry_point_missing,
        _wsl_no_device,
        _driver_library_off_path,
        _stub_libcuda,
        _torch_nvrtc,
        _onnxruntime_no_cuda,
        _tensorflow_dlopen,
        _nvvm_missing,
        _not_initialized,
        _cudnn_too_old,
        _looked_up_empty,
        _cmake_no_cuda,
    ):
        found = read(text)
        if found:
            return found
    for patterns, score in ((_GLOB, 0.8), (_NAMED, 0.65)):
        m = _first(text, patterns)
        if m:
            return [_missing(text, m, score)]
    return []


def _loader_failed(text: Text, kb: KB, m: re.Match[str], score: float) -> list[Candidate]:
    """The loader's own words: no GPU to serve, a package built for another CUDA, or the runtime missing."""
    if _no_gpu_to_serve(text, m):
        return []
    return (
        _built_for_other_cuda(text, kb, m)
        or _linked_to_other_cuda(text, m)
        or _built_with_the_toolkit(text, m)
        or _built_before_cuda_moved(text, m)
        or [_missing(text, m, score)]
    )


# the text telling which runtime a package's compiled parts link ("vLLM extensions linked to libcudart.so.12") and
# that the image or runtime is another CUDA ("the image only contains CUDA 13 runtime libraries", llm-d#1402)
_LINKED_TO = re.compile(
    r"(?<![\w-])(?P<what>[A-Za-z][\w.-]*)\s+(?:native\s+|compiled\s+|precompiled\s+)?(?:extensions?|binar(?:y|ies)|"
    r"wheels?|modules?|kernels?)\s+(?:(?:are|is|were|was)\s+)?linked\s+(?:against|to|with)\s+`?libcudart\.so\.(?P<n>\d+)",
    re.IGNORECASE,
)
# ... or the CUDA a package was compiled against ("bundles `nixl_ep` compiled against CUDA 13", kaito#2050)
_COMPILED_AGAINST = re.compile(
    r"(?<![\w-])`?(?P<what>[A-Za-z][\w.-]*)`?\s+(?:is\s+|was\s+)?(?:compiled|built)\s+(?:against|for|with)\s+"
    r"CUDA\s*(?P<n>\d{1,2})(?!\d|\.\d)",
    re.IGNORECASE,
)
_DETERMINERS = {"the", "these", "those", "this", "that", "its", "their", "our", "all", "some", "any"}
# the environment's CUDA: an image's or runtime's, or the torch's ("uses `torch==2.10.0` with CUDA 12")
_CUDA_OF_IMAGE = re.compile(
    r"(?<![\w.])CUDA\s*(?P<m>\d{1,2})(?:\.\d)?\s+(?:image|runtime|container)|"
    r"(?<![\w-])`?torch(?:==[\w.+]+)?`?\s+with\s+CUDA\s*(?P<t>\d{1,2})(?!\d|\.\d)",
    re.IGNORECASE,
)


def _linked_to_other_cuda(text: Text, m: re.Match[str]) -> list[Candidate]:
    linked = text.search(_LINKED_TO) or text.search(_COMPILED_AGAINST)
    lib = _lib(m)
    if linked is None or linked.group("n") != lib.major:
        return []
    other = sorted({c.group("m") or c.group("t") for c in _CUDA_OF_IMAGE.finditer(text.raw)} - {lib.major})
    if not other:
        return []
    package = linked.group("what")
    if package.lower() in _DETERMINERS:  # "The binaries are linked to libcudart.so.12": the package is not named
        package = "the package"
    cause = (
        f"{package}'s compiled parts link CUDA {lib.major}'s runtime ({lib.name}), but the environment is CUDA "
        f"{other[0]}: they were built for another torch build than the one installed"
    )
    return [found("extension-torch-mismatch", text, m.start(), 0.9, cause=cause, fix=rebuild_fix(package, None))]


# the local toolkit's folder ("The `/usr/local/cuda` on the server points to the `/usr/local/cuda-8.0`")
_TOOLKIT_FOLDER = re.compile(r"/usr/local/cuda-(?P<major>\d{1,2})(?:\.\d)?(?!\d|\.\d)")


def _built_with_the_toolkit(text: Text, m: re.Match[str]) -> list[Candidate]:
    """The runtime missing is the local toolkit's CUDA, torch's is another (pytorch_scatter#86: libcudart.so.8.0,
    /usr/local/cuda pointing at cuda-8.0, torch.version.cuda 10.0): the extension was built with that toolkit."""
    lib, torch = _lib(m), torch_cuda(text.raw)
    folders = {f.group("major"): f.group(0) for f in _TOOLKIT_FOLDER.finditer(text.raw)}
    if not (lib.major and lib.numbered_by_cuda) or torch is None or str(torch.major) == lib.major:
        return []
    if lib.major not in folders:
        return []
    cause = (
        f"{lib.name} is the runtime of the local CUDA {lib.major} toolkit ({folders[lib.major]}) the extension was "
        f"built with, but torch uses CUDA {torch}"
    )
    fix = f"{toolkit_fix(str(torch))} (no root needed: CUDA_HOME, not the /usr/local/cuda link, decides)"
    return [found("toolkit-torch-cuda-mismatch", text, m.start(), 0.85, cause=cause, fix=fix)]


def _no_gpu_to_serve(text: Text, m: re.Match[str]) -> bool:
    """No NVIDIA GPU for the library to serve: a CUDA build on an AMD GPU (tilelang#90: its ROCm build does), or the
    driver's libcuda on a machine said to have no NVIDIA GPU (molgrad#7: no driver, the code wants a GPU it lacks)."""
    return amd_gpu_only(text) or (_lib(m).family == "cuda" and no_nvidia(text))


def _asked_for_other_cuda(text: Text) -> list[Candidate]:
    m = next((a for a in _ASKS_FOR.finditer(text.raw) if a.group("verb") or a.group("after")), None)
    package = EXTENSION_NAMED.search(text.raw) if m else None
    torch = torch_cuda(text.raw)
    if m is None or package is None or torch is None:
        return []
    lib = _lib(m)
    if not (lib.major and lib.numbered_by_cuda) or int(lib.major) == torch.major:
        return []
    name = package.group(0)
    cause = (
        f"{name}'s compiled module wants CUDA {lib.major}'s runtime ({lib.name}), but torch is built for CUDA {torch}: "
        f"the {name} wheel installed is for another torch build"
    )
    return [found("extension-torch-mismatch", text, m.start(), 0.8, cause=cause, fix=rebuild_fix(name, None))]


def _torch_nvrtc(text: Text) -> list[Candidate]:
    m = text.search(_TORCH_NVRTC)
    if m is None:
        return []
    cause = "torch's caffe2_nvrtc.dll loads, but the CUDA NVRTC library it depends on (nvrtc64_*.dll) is not found"
    fix = (
        "install the CUDA runtime of torch's build (torch.version.cuda; torch's CUDA wheels ship NVRTC in torch\\lib) "
        "or put its bin folder on PATH; a CPU-only machine needs the CPU build of torch (ZLUDA: the HIP SDK's bin "
        "folder on PATH)"
    )
    return [_candidate(text, m.start(), 0.75, cause, fix)]


def _onnxruntime_no_cuda(text: Text) -> list[Candidate]:
    m = text.search(_ORT_NO_CUDA)
    if m is None:
        return []
    cause = "ONNX Runtime's CUDA provider found no CUDA runtime and cuDNN of the release its build needs"
    fix = (
        "install the CUDA and cuDNN majors the onnxruntime-gpu release was built for (its docs' requirements table), "
        "or the onnxruntime-gpu build for the CUDA you have (CUDA 12 builds are the default since 1.19)"
    )
    return [_candidate(text, m.start(), 0.8, cause, fix)]


# torch finding "no NVIDIA driver" where the text names the driver's library and the loader's path (a Kubernetes
# container whose runtime did not inject libcuda.so, which sits in /usr/local/nvidia/lib64): the driver is there, its
# library is off LD_LIBRARY_PATH
_NO_DRIVER_FOUND = re.compile(r"Found\s+no\s+NVIDIA\s+driver\s+on\s+your\s+system", re.IGNORECASE)
_LIBCUDA_NAMED = re.compile(r"(?<![\w-])libcuda\.so(?:\.1)?(?![\w-])", re.IGNORECASE)
_LOADER_PATH = re.compile(r"(?<![\w])LD_LIBRARY_PATH(?![\w])")


def _driver_library_off_path(text: Text) -> list[Candidate]:
    m = text.search(_NO_DRIVER_FOUND)
    if m is None or not text.has(_LIBCUDA_NAMED) or not text.has(_LOADER_PATH) or no_nvidia(text):
        return []
    cause = (
        "torch finds no NVIDIA driver because the driver's library (libcuda.so) is not where the loader looks: the "
        "GPU and its driver are there, libcuda is off LD_LIBRARY_PATH (or was not injected into the container)"
    )
    fix = (
        "add the directory holding libcuda.so.1 to LD_LIBRARY_PATH (on GKE /usr/local/nvidia/lib64; ldconfig -p | "
        "grep libcuda shows where it is), or run the container with the NVIDIA runtime so it mounts the library"
    )
    return [found("cuda-runtime-missing", text, m.start(), 0.7, cause=cause, fix=fix)]


# WSL2: CUDA finding no device, the driver's libcuda living in /usr/lib/wsl/lib, where another libcuda (a Linux driver
# package's, a toolkit's stub) can shadow it or the loader does not look
_NO_DEVICE = re.compile(r"no\s+CUDA-capable\s+device\s+is\s+detected|CUDA_ERROR_NO_DEVICE", re.IGNORECASE)
_WSL = re.compile(r"(?<![A-Za-z])WSL2?(?![A-Za-z])", re.IGNORECASE)


def _wsl_no_device(text: Text) -> list[Candidate]:
    m = text.search(_NO_DEVICE)
    if m is None or not text.has(_WSL):
        return []
    cause = (
        "under WSL the GPU is reached through the Windows driver's libcuda in /usr/lib/wsl/lib; the libcuda the "
        "program loaded is another one (a Linux driver package's or a toolkit's stub), or none"
    )
    fix = (
        "load WSL's libcuda: export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH, and remove any Linux NVIDIA "
        "driver package installed inside WSL (ldconfig -p | grep libcuda shows which copy wins)"
    )
    return [_candidate(text, m.start(), 0.65, cause, fix)]


# the CUDA toolkit's stub libcuda (lib64/stubs/libcuda.so, for linking only) loaded at run time instead of the
# driver's: error 34 is CUDA_ERROR_STUB_LIBRARY / cudaErrorStubLibrary (Warp: "Failed to get driver entry point
# 'cuInit' (CUDA error 34)")
_STUB_LIBCUDA = re.compile(
    r"CUDA_ERROR_STUB_LIBRARY|cudaErrorStubLibrary|CUDA\s+driver\s+is\s+a\s+stub\s+library|"
    r"driver\s+entry\s+point[^\n]{0,60}\(CUDA\s+error\s+34\)",
    re.IGNORECASE,
)


def _stub_libcuda(text: Text) -> list[Candidate]:
    m = text.search(_STUB_LIBCUDA)
    if m is None:
        return []
    cause = (
        "the libcuda loaded is the CUDA toolkit's stub (its lib64/stubs folder, meant for linking only), not the "
        "NVIDIA driver's (CUDA error 34: a stub library)"
    )
    fix = (
        "take the toolkit's stubs folder off LD_LIBRARY_PATH so the driver's libcuda.so.1 loads (ldconfig -p | grep "
        "libcuda lists the copies); in a container, run it with the GPU runtime (--gpus all) so the driver's is there"
    )
    return [_candidate(text, m.start(), 0.8, cause, fix)]


# an op refusing the cuDNN it found as older than it needs ("dropout supported only in cudnn v5.1 and above", torch's
# own words in 0.1/0.2): torch's binaries carry a newer one, so an older copy on the library path loaded first
_CUDNN_TOO_OLD = re.compile(
    r"(?:supported\s+only\s+(?:in|with)|only\s+supported\s+(?:in|with)|requires?)\s+cudnn\s*v?\d+(?:\.\d+)*\s*"
    r"(?:and|or)\s+(?:above|higher|newer|later)",
    re.IGNORECASE,
)


def _cudnn_too_old(text: Text) -> list[Candidate]:
    m = text.search(_CUDNN_TOO_OLD)
    if m is None:
        return []
    cause = "the cuDNN loaded is older than the one the code needs: another copy (the system's) is found first"
    fix = (
        "take the older cuDNN off the library path (LD_LIBRARY_PATH, /etc/ld.so.conf) so the one torch ships with "
        'loads; python -c "import torch; print(torch.backends.cudnn.version())" shows the one in use'
    )
    return [_candidate(text, m.start(), 0.75, cause, fix)]


def _not_initialized(text: Text) -> list[Candidate]:
    m = text.search(_NOT_INITIALIZED)
    if m is None:
        return []
    lib = m.group("lib")
    cause = f"the {lib} library (CUDA's) could not be loaded where the package's loader looks, so it is not initialized"
    fix = (
        f"make the CUDA {lib} library of torch's CUDA findable: a CUDA toolkit of that version on LD_LIBRARY_PATH (or "
        "PATH on Windows), conda's cudatoolkit / cuda-runtime in the environment, or torch's nvidia-* wheels"
    )
    return [_candidate(text, m.start(), 0.7, cause, fix)]


def _nvvm_missing(text: Text) -> list[Candidate]:
    m = text.search(_NO_NVVM)
    if m is None:
        return []
    cause = (
        "numba's CUDA JIT (or another one) finds no NVVM, the CUDA toolkit's compiler library: the toolkit (or its "
        "nvvm component) is not installed where it looks"
    )
    fix = (
        "install the CUDA toolkit's NVVM for the CUDA the driver supports (conda install cudatoolkit, or cuda-nvcc "
        "/ the nvidia-cuda-nvcc-cuXX wheel for numba-cuda) and point numba at it (CUDA_HOME; NUMBAPRO_NVVM on old "
        "numba); envplan doctor shows CUDA_HOME and nvcc"
    )
    return [_candidate(text, m.start(), 0.75, cause, fix)]


def _looked_up_empty(text: Text) -> list[Candidate]:
    """The user's own look-up of a CUDA library finding nothing: the loader cannot find it either."""
    m = text.search(_LOOKED_UP_EMPTY)
    if m is None:
        return []
    lib = m.group("lib").split(".")[0]
    cause = f"{lib} is nowhere the loader looks: the text's own check (ldconfig / whereis) finds no copy"
    fix = (
        f"install the package that ships {lib} (libcuda: the NVIDIA driver, or on WSL /usr/lib/wsl/lib; the others: "
        "the CUDA toolkit or torch's nvidia-* wheels) and make its folder known to the loader (ldconfig, or "
        "LD_LIBRARY_PATH)"
    )
    return [_candidate(text, m.start(), 0.7, cause, fix)]


def _libcuda_link_told(text: Text) -> list[Candidate]:
    told = text.search(_LIBCUDA_LINK_TOLD)
    return [_no_libcuda_link(text, told.start(), 0.65)] if told else []


def _copy_mixed(text: Text) -> list[Candidate]:
    """The library loaded, but from another copy than the one the binary needs (a symbol missing there)."""
    shadowed = text.search(_SHADOWED)
    if shadowed and not shadowed.group("sym").startswith("_Z"):
        return [_shadowed(text, shadowed)]
    versioned = text.search(_VERSIONED)
    if versioned and not versioned.group("sym").startswith("_Z"):
        return [_older_copy(text, versioned.start(), versioned.group("dep"), versioned.group("sym"), 0.88)]
    api = text.search(_API_UNDEFINED)
    if api and not _linked_by_flag(text, api.group("family")):
        family = "cuDNN" if api.group("family").lower() == "cudnn" else api.group("family")
        return [_older_copy(text, api.start(), f"{family} library", api.group("sym"), 0.8)]
    return []


def _entry_point_missing(text: Text) -> list[Candidate]:
    """A library's entry point not found in any copy loaded (CTranslate2's words, nvJitLink's versioned names)."""
    unloadable = text.search(_SYMBOL_UNLOADABLE)
    if unloadable:
        return [_unloadable(text, unloadable)]
    entry = text.search(_ENTRY_POINT)
    if entry and text.has(_UNRESOLVED):
        return [_older_entry_point(text, entry)]
    return []


def _linked_by_flag(text: Text, family: str) -> bool:
    """The text adds the library's link flag ("add now required `-lcurand` to solve `undefined symbol:
    curandCreateGenerator`"): the module was built without linking the library at all, no older copy was loaded."""
    return re.search(rf"(?<![\w-])-l{re.escape(family)}\b", text.raw, re.IGNORECASE) is not None


def _first(text: Text, patterns: tuple[re.Pattern[str], ...]) -> re.Match[str] | None:
    found = [m for p in patterns if (m := text.search(p))]
    return min(found, key=lambda m: m.start(), default=None)


def _lib(m: re.Match[str]) -> _Lib:
    name = m.group("lib")
    family = re.sub(r"^lib|(?:64_\d+)?(?:_\d+)*\.(?:so|dll).*$", "", name)
    if "cudnn" in family:
        family = "cudnn"
    dver = re.search(r"64_(\d+)", name)
    so_ver = re.search(r"\.so\.(\d+)", name)
    major = _dll_major(dver.group(1), family) if dver else so_ver.group(1) if so_ver else ""
    return _Lib(name=name, family="cuda" if family in ("cuda", "nvcuda") else family, major=major)


def _dll_major(digits: str, family: str) -> str:
    """cudart64_110 -> 11, cublas64_12 -> 12, cudart64_92 -> 9; cuDNN DLLs carry the cuDNN major (64_8 -> 8)."""
    if not family.startswith(_CUDA_NUMBERED) or len(digits) == 1:
        return digits
    return digits[:2] if len(digits) >= 3 or digits.startswith("1") else digits[0]


def _missing(text: Text, m: re.Match[str], score: float) -> Candidate:
    lib = _lib(m)
    if lib.family == "cuda":
        cause = f"{lib.name} (the NVIDIA driver's library) is not where the loader looks"
        fix = (
            "make the driver's library visible: on WSL add /usr/lib/wsl/lib to LD_LIBRARY_PATH, in a container "
            "run with --gpus all (the NVIDIA container toolkit); check with nvidia-smi"
        )
    elif lib.major and lib.numbered_by_cuda:
        cause = f"{lib.name} (CUDA {lib.major}) is not where the loader looks: the CUDA runtime a library was built "
        cause += "for is not installed, or the library path points at another CUDA"
        fix = (
            f"install the CUDA {lib.major} runtime (a cu{lib.major}x torch brings its own nvidia-* runtime wheels) "
            f"or put a CUDA {lib.major} toolkit's lib directory on the library path; an extension built for another "
            "CUDA major must be rebuilt (envplan doctor shows which CUDA torch uses)"
        )
    elif lib.family.lower() == "nvcuvid":
        cause = f"{lib.name} (the NVIDIA driver's video decoder library) is not where the loader looks"
        fix = (
            "it comes with the NVIDIA driver, not with CUDA: install the driver's video/decode libraries, and in a "
            "container give it the video capability (NVIDIA_DRIVER_CAPABILITIES=compute,utility,video)"
        )
    else:
        family = "cuDNN" if lib.family == "cudnn" else lib.family
        release = f" {lib.major}" if lib.major and family == "cuDNN" else ""
        cause = f"{lib.name} ({family}{release}) is not where the loader looks, or another copy shadows it"
        fix = (
            f"install {family}{release} for the CUDA in use (pip: {_pip_wheel(lib.family)}-cu<major>, or the "
            "system/conda package) and put its lib directory on the library path (LD_LIBRARY_PATH; PATH on "
            "Windows); do not mix two copies"
        )
    return _candidate(text, m.start(), score, cause, fix)


# the PyPI wheel that carries each CUDA library (each name checked on pypi.org, 2026-12-06: nvidia-<name>-cu12
# exists); a family not listed is its own name
_PIP_WHEELS = {
    "cublaslt": "nvidia-cublas",
    "nvrtc": "nvidia-cuda-nvrtc",
    "nvrtc-builtins": "nvidia-cuda-nvrtc",
    "cupti": "nvidia-cuda-cupti",
    "cudart": "nvidia-cuda-runtime",
    "nvtoolsext": "nvidia-nvtx",
    "nvshmem_host": "nvidia-nvshmem",
    # (cuFFTW ships in cuFFT's wheel: nvidia-cufft-cu12 11.4.1.4 carries libcufftw.so.11 and cufftw64_11.dll, its
    # files read on PyPI 2026-12-06)
    "cufftw": "nvidia-cufft",
}


def _pip_wheel(family: str) -> str:
    """The nvidia-* wheel (without its -cuXX suffix) that ships a CUDA library family (npp* -> nvidia-npp)."""
    name = family.lower()
    if name.startswith("npp"):
        return "nvidia-npp"
    if name.startswith("cudnn"):
        return "nvidia-cudnn"
    return _PIP_WHEELS.get(name, f"nvidia-{name}")


def _shadowed(text: Text, m: re.Match[str]) -> Candidate:
    lib = _lib(m)
    dep = m.group("dep") or "a library it depends on"
    cause = (
        f"{lib.name} loaded {dep} from another CUDA install than the one it was built with "
        f"({m.group('sym')} is missing there): two CUDA library copies are mixed on the library path"
    )
    fix = (
        "let one CUDA install win: drop the other CUDA lib directory from LD_LIBRARY_PATH (torch's pip wheels bring "
        "their own nvidia-* libraries), or install the matching cudatoolkit in the conda env; envplan doctor lists "
        "the CUDA runtimes on the library path"
    )
    return _candidate(text, m.start(), 0.85, cause, fix)


def _older_copy(text: Text, at: int, lib: str, sym: str, score: float) -> Candidate:
    """The copy of `lib` the loader found lacks `sym`: an older one than the binary was built against."""
    cause = (
        f"the {lib} the loader found lacks {sym}: it is another (older) copy than the CUDA library the binary was "
        "built against, found first on the library path"
    )
    fix = (
        f"make the {lib} that torch's wheels ship (nvidia-* packages) or a new enough CUDA toolkit's copy the one "
        "the loader finds: drop the older CUDA lib directory from LD_LIBRARY_PATH / ldconfig, or upgrade that "
        "toolkit; envplan doctor lists the CUDA runtimes on the library path"
    )
    return _candidate(text, at, score, cause, fix)


def _candidate(text: Text, at: int, score: float, cause: str, fix: str) -> Candidate:
    return found("cuda-runtime-missing", text, at, score, cause=cause, fix=fix)


def _older_entry_point(text: Text, m: re.Match[str]) -> Candidate:
    cuda = f"{m.group('major')}.{m.group('minor')}"
    cause = (
        f"a binary built against CUDA {cuda}'s nvJitLink loads an older copy ({m.group('sym')} is missing there): "
        "the nvJitLink found first (often torch's nvidia-nvjitlink wheel) is older than the CUDA it was built with"
    )
    fix = (
        f"make an nvJitLink of CUDA >= {cuda} the one loaded (pip install -U nvidia-nvjitlink-cu{m.group('major')} "
        f"if torch's requirements allow it, or a {cuda} toolkit's lib directory first on LD_LIBRARY_PATH), or use "
        "a build of the package for the CUDA torch ships; envplan doctor lists the CUDA runtimes on the library path"
    )
    return _candidate(text, m.start(), 0.8, cause, fix)


def _unloadable(text: Text, m: re.Match[str]) -> Candidate:
    sym = m.group("sym")
    family = "cuDNN" if sym.lower().startswith("cudnn") else re.sub(r"[A-Z].*$", "", sym)
    cause = (
        f"no {family} library providing {sym} could be loaded: the {family} release the binary was built for is not "
        "installed, or only another major of it is on the library path"
    )
    fix = (
        f"install the {family} major the package needs (pip: {_pip_wheel(family)}-cu<CUDA major>, or the package "
        "release built for the one you have) and put its lib directory on LD_LIBRARY_PATH (PATH on Windows); "
        "envplan doctor lists the CUDA runtimes on the library path"
    )
    return _candidate(text, m.start(), 0.8, cause, fix)


def _built_for_other_cuda(text: Text, kb: KB, m: re.Match[str]) -> list[Candidate]:
    """A known extension's module that cannot open CUDA N's runtime, where the text states only other CUDA majors
    (the image's, torch's): the extension's wheel was built for CUDA N, not for the CUDA torch uses."""
    lib = _lib(m)
    if not (lib.major and lib.numbered_by_cuda):
        return []
    imports = list(_IMPORTED.finditer(text.raw[: m.start()]))
    package = _importing_package(imports[-1], kb) if imports else ""
    relative = list(RELATIVE_C.finditer(text.raw[: m.start()]))
    if not package and relative and (not imports or relative[-1].end() > imports[-1].end()):
        package = relative[-1].group("pkg3")  # the package's own _C, imported relatively: the last import before it
    stated = {
        int(c.group("a") or c.group("b") or c.group("c") or c.group("d")) for c in _CUDA_STATED.finditer(text.raw)
    }
    torch = torch_seen(text.raw)
    cpu_torch = torch is not None and torch.variant == "cpu"  # torch's CPU build stated ("torch 2.1.1+cpu")
    if not package and imports and cpu_torch:
        package = imports[-1].group("mod").split(".")[0]
    if package and cpu_torch and not stated:
        cause = (
            f"{package}'s compiled module is a CUDA {lib.major} build ({lib.name}), but the installed torch is the CPU "
            "build: the package's wheel is for a CUDA torch"
        )
        fix = f"install {package}'s CPU build (the wheel made for the CPU torch), or the CUDA torch it was built for"
        return [found("extension-torch-mismatch", text, m.start(), 0.8, cause=cause, fix=fix)]
    if not package or not stated or int(lib.major) in stated:
        return []
    others = "/".join(str(c) for c in sorted(stated))
    if package in ("torchvision", "torchaudio"):
        cause = (
            f"{package}'s compiled module was built for CUDA {lib.major} ({lib.name}), the machine's torch for CUDA "
            f"{others}"
        )
        return [found("companion-mismatch", text, m.start(), 0.85, cause=cause, fix=companions_fix(kb, None))]
    cause = (
        f"{package}'s compiled module was built for CUDA {lib.major} ({lib.name}), but the environment's torch uses "
        f"CUDA {others}: the extension's wheel is for another torch build"
    )
    return [found("extension-torch-mismatch", text, m.start(), 0.9, cause=cause, fix=rebuild_fix(package, None))]


# the machine's CUDA (and torch with it) moved on, said ("Ps: I updated the cuda from 9.2 to 10.1"), and a package
# other than torch imported ("when I import the spatial_correlation_sampler")
_CUDA_MOVED = re.compile(
    r"(?:updat|upgrad|switch|mov|chang)\w*\s+(?:the\s+|my\s+)?cuda\s+(?:version\s+)?from\s+v?(?P<old>\d{1,2}\.\d)\s+to\s+"
    r"v?(?P<new>\d{1,2}\.\d)(?!\d|\.\d)",
    re.IGNORECASE,
)
_OTHER_IMPORT = re.compile(r"(?<![\w.])import\s+(?:the\s+)?(?P<mod>(?!torch\b)[A-Za-z_]\w*)")
_SONAME_CUDA = re.compile(r"\.so\.(?P<v>\d{1,2}\.\d)(?![\d])")


def _built_before_cuda_moved(text: Text, m: re.Match[str]) -> list[Candidate]:
    """A package's module asking for the runtime of the very CUDA the text says it moved away from: the package was
    built against the old CUDA's torch, before the move, and torch itself (the text's new CUDA) is fine."""
    lib, moved = _lib(m), text.search(_CUDA_MOVED)
    asked = _SONAME_CUDA.search(lib.name) if lib.numbered_by_cuda else None
    other = text.search(_OTHER_IMPORT)
    if moved is None or asked is None or other is None or asked.group("v") != moved.group("old"):
        return []
    mod = other.group("mod")
    cause = (
        f"{mod}'s compiled module still asks for CUDA {moved.group('old')}'s runtime ({lib.name}), the CUDA the "
        f"environment moved away from (to {moved.group('new')}): it was built against the old CUDA's torch"
    )
    return [found("extension-torch-mismatch", text, m.start(), 0.85, cause=cause, fix=rebuild_fix(mod, None))]


def _importing_package(imported: re.Match[str], kb: KB) -> str:
    """The pip package of the compiled module an import line loads: a module the KB knows, or a package's own
    compiled module named in the import ("from pytorch3d import _C")."""
    top = imported.group("mod").split(".")[0]
    name = imported.group("name") or ""
    if _COMPILED_NAME.fullmatch(name):
        return package_of(f"site-packages/{top}/{name}.so", kb)
    return package_of(f"{top}.so", kb)


def _link_failure(text: Text) -> list[Candidate]:
    """The linker finding no libcuda (the driver's) or no CUDA toolkit library to link."""
    link = text.search(_NO_LIBCUDA_LINK)
    if link:
        return [_no_libcuda_link(text, link.start(), 0.85)]
    toolkit = text.search(_NO_TOOLKIT_LINK)
    return [_no_toolkit_link(text, toolkit)] if toolkit else []


def _no_toolkit_link(text: Text, m: re.Match[str]) -> Candidate:
    lib = m.group("lib")
    cause = f"the linker finds no lib{lib}.so where it looks: the CUDA toolkit's library folder is not on its path"
    fix = (
        f"install the CUDA toolkit's {lib} library (the toolkit of torch.version.cuda, or conda's cuda-libraries-dev) "
        "and put its folder on the linker's path: export LIBRARY_PATH=$CUDA_HOME/lib64:$LIBRARY_PATH (conda: "
        "$CONDA_PREFIX/lib); envplan doctor shows CUDA_HOME and nvcc"
    )
    return _candidate(text, m.start(), 0.8, cause, fix)


def _no_libcuda_link(text: Text, at: int, score: float) -> Candidate:
    cause = (
        "the linker finds no libcuda.so (the NVIDIA driver's library) where it looks: the driver installs "
        "libcuda.so.1 only, or its folder is not on the linker's path (triton and JIT-built extensions link -lcuda)"
    )
    fix = (
        "point the linker at the driver's library: export TRITON_LIBCUDA_PATH=<folder holding libcuda.so.1> (or "
        "LIBRARY_PATH), or create the libcuda.so link next to libcuda.so.1 (ldconfig -p | grep libcuda shows it; "
        "on WSL it is /usr/lib/wsl/lib)"
    )
    return _candidate(text, at, score, cause, fix)
