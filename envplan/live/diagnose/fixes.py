"""Fix sentences shared by several rules. The rebuild command names the pip package and keeps pip off torch."""

from __future__ import annotations

import re

from envplan.kb import KB

from .facts import TorchSeen

__all__ = ["companions_fix", "package_of", "rebuild_fix", "spelled", "toolkit_fix"]

# compiled module (file name before the first dot) -> the pip package that ships it
_MODULES = {
    "flash_attn_2_cuda": "flash-attn",
    "flash_attn_cuda": "flash-attn",
    "selective_scan_cuda": "mamba-ssm",
    "causal_conv1d_cuda": "causal-conv1d",
    "libpyg": "pyg-lib",
    "scatter_cpu": "torch-scatter",
    "scatter_cuda": "torch-scatter",
    "exllamav2_ext": "exllamav2",
    "amp_C": "apex",
    "fused_layer_norm_cuda": "apex",
}
_SITE_DIR = re.compile(r"(?:site|dist)-packages/([A-Za-z0-9_]+)/")


def spelled(name: str) -> str:
    """A pattern for a package's name as texts write it, a hyphen or an underscore between its parts ("faiss-gpu",
    "faiss_gpu"). (re.escape escapes "-" itself: the parts are escaped, then joined.)"""
    return "[-_]".join(re.escape(part) for part in name.split("-"))


def package_of(path: str, kb: KB) -> str:
    """The pip package a compiled module belongs to, from its path; "" when the text does not show it."""
    module = path.rsplit("/", 1)[-1].split(".", 1)[0]
    if module in _MODULES:
        return _MODULES[module]
    folder = _SITE_DIR.search(path)
    for name in (folder.group(1) if folder else "", module.lstrip("_")):
        ext = next((e for e in kb.extensions if name and e.import_name == name), None)
        if ext is not None:
            return ext.name
    return folder.group(1).replace("_", "-") if folder else ""


def rebuild_fix(package: str, torch: TorchSeen | None) -> str:
    pkg = package or "<the extension's pip package>"
    built = f" {torch.text}" if torch else ""
    wheel = f"the {package} wheel" if package else "the extension's wheel"
    return (
        f"install {wheel} built for the installed torch{built} (same torch major.minor, CUDA major and "
        f"cxx11abi flag), or build it against it: pip install --no-build-isolation --no-deps --no-cache-dir "
        f"--force-reinstall {pkg} (pip then leaves torch alone); envplan upgrade PROFILE plans both"
    )


def companions_fix(kb: KB, torch: str | None) -> str:
    release = kb.release(torch.split("+")[0]) if torch else None
    if release is not None:
        return (
            f"install the exact companions of torch {release.torch}: torchvision=={release.torchvision} "
            f"torchaudio=={release.torchaudio}, from the same index (and variant) as torch"
        )
    return (
        "reinstall torch, torchvision and torchaudio as one matched triple from the same index and variant "
        "(envplan matrix lists them; envplan doctor shows what is installed)"
    )


def toolkit_fix(torch: str) -> str:
    """Build an extension with the CUDA toolkit of torch's CUDA (`torch`: torch.version.cuda, "" when unknown)."""
    if not torch:
        return "install the CUDA toolkit whose major.minor equals torch.version.cuda and point CUDA_HOME at it"
    return (
        f"build with CUDA toolkit {torch} (same major; apex needs the same major.minor): export "
        f"CUDA_HOME=/usr/local/cuda-{torch} PATH=$CUDA_HOME/bin:$PATH, then rebuild; or install the torch "
        "variant for the CUDA you have (envplan check picks it)"
    )
