"""Versions a pasted text states, each read by its own pattern: torch, torch's CUDA, nvcc, the driver, the GPU,
Python. A cuDNN major (libcudnn.so.9) or a compute capability is never read as a CUDA version."""

from __future__ import annotations

import re
from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

from envplan.kb import KB
from envplan.kb.variants import parse_variant

__all__ = [
    "BUILT_FOR_TORCH",
    "RELATIVE_C",
    "TORCHVISION_IMAGE_EXTENSION",
    "WINDOWS_NAMED",
    "TorchSeen",
    "abi_settings",
    "cuda_unusable",
    "cuda_usable",
    "driver_cuda",
    "driver_seen",
    "nvcc_cuda",
    "python_minors",
    "python_seen",
    "torch_cuda",
    "torch_is_cxx11",
    "torch_seen",
]

# a package's own compiled module imported relatively, under its traceback frame ("...\\site-packages\\
# diff_gaussian_rasterization\\__init__.py", line 15, in <module>" then "from . import _C"): the package owns it
RELATIVE_C = re.compile(
    r"[\\/](?P<pkg3>(?!torch\b)[A-Za-z_]\w*)[\\/]\w+\.py[\"']?,\s+line\s+\d+[^\n]*\n\s*from\s+\.\s+import\s+_C\b"
)
# torchvision's own warning that its image extension did not load ("Failed to load image Python extension",
# torchvision/io/image.py): the library failing is torchvision's, whether or not the text names torchvision
TORCHVISION_IMAGE_EXTENSION = re.compile(r"Failed\s+to\s+load\s+image\s+(?:Python\s+)?extension", re.IGNORECASE)
# a compiled library said built for a torch release ("it's built for PyTorch 2.6.0", "built against torch 2.11")
BUILT_FOR_TORCH = re.compile(r"(?:built|compiled)\s+(?:for|against|with)\s+(?:py)?torch\s*v?\d", re.IGNORECASE)
_TORCH = re.compile(
    r"(?<![\w-])(?:py)?torch(?:\s+version|\.__version__|\s*\(torch\))?[\s:=(>)\"']*(?:[~=]=)?\s*"
    r"(?P<v>[012]\.\d{1,2}(?:\.\d+)?(?:(?:a|b|rc|\.dev|\.post)\d+)?(?:\+[\w.]+)?)",
    re.IGNORECASE,
)
_TORCH_CUDA = re.compile(
    r"torch\.version\.cuda\W{1,4}(?P<a>\d{1,2}\.\d)|"
    r"CUDA used to build PyTorch:\s*(?P<b>\d{1,2}\.\d)|"
    r"compile\s*PyTorch\s*\((?P<c>\d{1,2}\.\d)\)|"
    r"Pytorch binaries were compiled with Cuda (?P<d>\d{1,2}\.\d)|"
    r"PyTorch \S+ with CUDA (?P<e>\d{3,4})\b|"
    r"CUDA_VERSION=(?P<f>\d{3})\b|"
    r"\d\.\d+\.\d+\+cu(?P<g>\d{2,3})\b|"
    r"download\.pytorch\.org/whl/(?:nightly/|test/)?cu(?P<h>\d{3})\b|"
    r"(?:--)?torch-backend[= ]cu(?P<i>\d{3})\b",  # uv's flag for the variant (or its setting, told)
    re.IGNORECASE,
)
_NVCC = re.compile(
    r"Cuda compilation tools, release (?P<a>\d{1,2}\.\d)|The detected CUDA version \((?P<b>\d{1,2}\.\d)", re.IGNORECASE
)
_PRINTED = re.compile(r"torch\.__version__[^\n]*\n\s*'?(?P<v>[012]\.\d{1,2}\.\d+\S*?)'?(?:\s|$)")
_ABI_PRINTED = re.compile(r"_GLIBCXX_USE_CXX11_ABI\W{0,20}(?P<v>True|False|[01])\b")
# torch's own flag, printed (torch._C._GLIBCXX_USE_CXX11_ABI, torch.compiled_with_cxx11_abi())
_TORCH_ABI = re.compile(
    r"(?:torch\._C\._GLIBCXX_USE_CXX11_ABI|compiled_with_cxx11_abi\(\))\W{0,20}(?P<v>True|False|[01])\b"
)
# every ABI setting the text names: compiler flags, wheel tags (cxx11abiTRUE), printed values
_ABI_SETTING = re.compile(r"(?:_GLIBCXX_USE_CXX11_ABI\W{0,4}|cxx11abi)(?P<v>True|False|[01])(?![\w.])", re.IGNORECASE)
_CXX11_BUILDS = re.compile(
    r"nvcr\.io/nvidia/pytorch|tritonserver|\bNGC\b|conda-forge|nvidia[/ ]pytorch(?: docker| container| image|:\d)",
    re.IGNORECASE,
)
_PYTHON = re.compile(r"[Pp]ython\s*(?:version:?\s*)?(?:is\s+)?(3\.\d{1,2})\b|python(3\.\d{1,2})/|\bcp3(\d{1,2})\b")


# the NVIDIA driver's version, as collect_env ("Nvidia driver version: 410.104") and nvidia-smi ("Driver Version:
# 535.129.03") print it, or said in words ("The runner's NVIDIA driver is 570.195.03", "driver=550.54")
_DRIVER = re.compile(
    r"(?:Nvidia\s+)?driver(?:\s*version\s*:?|\s*(?:version\s*)?(?:is|=)|:)\s*"
    r"(?P<v>\d{3}\.\d{1,3}(?:\.\d{1,3})?)(?![\d])|"
    # ... or the number right after the word ("NVIDIA driver 535.104.05", "with driver 390", "NIVIDA driver 520.xxx")
    r"(?<![A-Za-z])driver\s+(?P<w>\d{3}(?:\.\d{1,3}(?:\.\d{1,3})?)?)(?:\.x+)?(?!\w|\.\w)",
    re.IGNORECASE,
)
# the newest CUDA the driver supports, as nvidia-smi's header prints it
# (and said in words: "The driver supports CUDA 12.4")
_DRIVER_CUDA = re.compile(
    r"CUDA Version:\s*(?P<v>\d{1,2}\.\d)\b|"
    r"(?i:driver\s+(?:only\s+)?supports\s+(?:up\s+to\s+)?CUDA\s*(?P<w>\d{1,2}\.\d)\b)"
)
# Windows named ("Windows 11", "win10", a win_amd64 wheel tag)
WINDOWS_NAMED = re.compile(r"(?<![A-Za-z])(?:windows|win1[01]|win_amd64)(?![A-Za-z])", re.IGNORECASE)
# CUDA not usable, as the user saw it
_NO_CUDA = re.compile(
    r"is_available\(?\)?[^\n]{0,14}?(?<![A-Za-z])false(?![A-Za-z])|CUDA (?:is )?(?:not available|unavailable)|"
    # the value told on a line after the call ("print(torch.cuda.is_available())` \n\n it prints False")
    r"is_available\(\)\)?`?\s*\n(?:\s*\n)?\s*(?:it\s+|this\s+)?(?:prints|returns|gives|shows|says)\s+`?false(?![A-Za-z])|"
    r"Is CUDA available:\s*(?:False|No)\b|cuda_available\s*[=:]\s*False\b|"
    # torch's warning when the driver cannot start CUDA ("CUDA initialization: CUDA driver initialization failed")
    r"CUDA\s*driver\s*initialization\s*failed",
    re.IGNORECASE,
)
# ... and usable ("print(torch.cuda.is_available()) is True", "cuda可用")
_CUDA_USABLE = re.compile(
    r"is_available\(\)\)?[^\n]{0,14}?(?<![A-Za-z])True(?![A-Za-z])|CUDA\s+is\s+available|cuda\s+(?:works|可用)", re.I
)


@dataclass(frozen=True, kw_only=True, slots=True)
class TorchSeen:
    version: Version
    variant: str  # "cu121", "cpu", "" when the text gives none
    text: str  # as written, e.g. "2.4.0a0+07cecf4168"


def torch_seen(text: str) -> TorchSeen | None:
    """The first torch version the text states (`torch==2.3.1`, `PyTorch: 2.3.1+cu121`, `torch 2.6.0` ...)."""
    for m in [*_PRINTED.finditer(text), *_TORCH.finditer(text)]:
        written = m.group("v")
        base, _, label = written.partition("+")
        try:
            version = Version(base)
        except InvalidVersion:
            continue
        return TorchSeen(version=version, variant=label if parse_variant(label) else "", text=written)
    return None


def torch_cuda(text: str) -> Version | None:
    """The CUDA torch was built with, as the text states it (never a cuDNN or driver version)."""
    m = _TORCH_CUDA.search(text)
    if m is None:
        return None
    for name in "abcd":
        if m.group(name):
            return Version(m.group(name))
    if m.group("e"):  # xFormers' "with CUDA 1201"
        digits = m.group("e")
        return Version(f"{int(digits[:-2])}.{int(digits[-2:])}")
    variant = parse_variant(f"cu{m.group('f') or m.group('g') or m.group('h') or m.group('i')}")
    return variant.version if variant and variant.version else None


def nvcc_cuda(text: str) -> Version | None:
    m = _NVCC.search(text)
    return Version(m.group("a") or m.group("b")) if m else None


def python_seen(text: str) -> str:
    m = _PYTHON.search(text)
    if not m:
        return ""
    return m.group(1) or m.group(2) or f"3.{m.group(3)}"


# every interpreter a text states, as a cp tag or a Python version ("cp311", "Python 3.11.4", "python3.12 -m pip",
# "Python-3.11")
_PYTHONS = re.compile(r"(?<![A-Za-z0-9_])(?:cp3|python\s*-?\s*v?3\.)(?P<minor>\d{1,2})(?!\d)", re.IGNORECASE)


def python_minors(text: str) -> list[tuple[int, int]]:
    """Each Python 3 minor the text states, with where: all of them, where python_seen gives the first alone."""
    return [(int(m.group("minor")), m.start()) for m in _PYTHONS.finditer(text)]


def abi_settings(text: str) -> set[bool]:
    """The _GLIBCXX_USE_CXX11_ABI values the text names; both means two builds in it disagree."""
    return {m.group("v").lower() in ("true", "1") for m in _ABI_SETTING.finditer(text)}


def torch_is_cxx11(kb: KB, torch: TorchSeen | None, text: str = "") -> bool | None:
    """Whether the torch of the text uses _GLIBCXX_USE_CXX11_ABI=1: printed, implied by the build (NGC
    containers, conda-forge), or known from the KB for that release and variant; None when the text cannot say."""
    printed = _TORCH_ABI.search(text) or (_ABI_PRINTED.search(text) if len(abi_settings(text)) == 1 else None)
    if printed:
        return printed.group("v") in ("True", "1")
    if _CXX11_BUILDS.search(text):
        return True
    if torch is None:
        return None
    if "a0" in torch.text or torch.version.is_devrelease:  # NGC containers and source builds
        return True
    release = kb.release(Version(torch.version.base_version))
    if release is not None:
        return release.cxx11_abi_for(torch.variant or (release.pypi_default or ""))
    return torch.version >= Version("2.7")


def driver_seen(text: str) -> tuple[Version, int] | None:
    """The NVIDIA driver version the text states (collect_env, nvidia-smi), and where; never a CUDA version."""
    m = _DRIVER.search(text)
    return (Version(m.group("v") or m.group("w")), m.start()) if m else None


def cuda_unusable(text: str) -> bool:
    """Whether the text shows CUDA unusable (torch.cuda.is_available() False, "CUDA not available")."""
    return _NO_CUDA.search(text) is not None


def cuda_usable(text: str) -> bool:
    """Whether the text shows torch seeing the GPU (torch.cuda.is_available() True, "CUDA is available")."""
    return _CUDA_USABLE.search(text) is not None


def driver_cuda(text: str) -> Version | None:
    """The newest CUDA the driver supports, from nvidia-smi's header ("CUDA Version: 12.2")."""
    m = _DRIVER_CUDA.search(text)
    return Version(m.group("v") or m.group("w")) if m else None
