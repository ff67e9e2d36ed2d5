"""Kinds read before batch X was measured, from what the tools print and what the KB knows, not from a batch's
misses: torch.ops.load_library failing on a companion's library, rocBLAS without kernels for the GPU's target, conda's
two solvers finding no torch for the Python, torch.version.cuda printed as None, torch's CUDA-initialisation warning
under an old driver, uv's platform hint, a manylinux wheel refused below its glibc floor, an extension's symbols
missing after torch moved on, and torch from PyPI where PyPI's build has no CUDA for the machine (Windows; a Jetson
before Thor). The point is that the rules meet these the first time a user pastes one, not after a batch misses them.

Each kind has a text it must stay silent on (or read as another cause). The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "OSError: Could not load this library: /opt/venv/lib/python3.10/site-packages/torchaudio/lib/"
            "libtorchaudio.so",
            "companion-mismatch",
        ),
        # another package's library failing to load is not a companion's
        ("OSError: Could not load this library: /opt/venv/lib/python3.10/site-packages/mylib/ops.so", "none"),
    ],
)
def test_torch_ops_load_library_of_a_companion(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory "
            "for GPU arch : gfx1103",
            "arch-not-compiled",
        ),
        # the file missing for no particular GPU is a broken install, nothing the GPU's target explains
        ("cp: cannot stat '/opt/rocm/lib/rocblas/library/TensileLibrary.dat': No such file or directory", "none"),
    ],
)
def test_rocblas_without_kernels_for_the_target(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_rocblas_names_the_target_in_the_cause(kb: KB) -> None:
    text = "rocBLAS error: Cannot read TensileLibrary.dat: No such file or directory for GPU arch : gfx1103"
    assert "gfx1103" in explain_text(text, kb, lambda s: s)[0].cause


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "UnsatisfiableError: The following specifications were found to be incompatible with the existing python "
            "installation in your environment:\nSpecifications:\n\n  - pytorch -> python[version='>=3.6,<3.7.0a0|"
            ">=3.7,<3.8.0a0']\n\nYour python: python=3.10",
            "python-unsupported",
        ),
        (
            "nothing provides python >=3.8,<3.9.0a0 needed by pytorch-1.8.0-py3.8_cuda11.1_cudnn8.0.5_0",
            "python-unsupported",
        ),
        (
            "  └─ pytorch 1.13.1 is not installable because it requires\n     └─ python >=3.8,<3.9.0a0 , which "
            "conflicts with any installable versions previously reported.",
            "python-unsupported",
        ),
        # another package's Python range is not torch's
        ("nothing provides python >=3.8,<3.9.0a0 needed by scipy-1.5.0-py38h0b6359f_0", "none"),
    ],
)
def test_conda_finds_no_torch_for_the_python(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_conda_cause_names_the_environments_python(kb: KB) -> None:
    text = "UnsatisfiableError:\n  - pytorch -> python[version='>=3.6,<3.7.0a0']\n\nYour python: python=3.10"
    assert "(Python 3.10)" in explain_text(text, kb, lambda s: s)[0].cause


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (">>> print(torch.version.cuda)\nNone\n>>> torch.cuda.is_available()\nFalse", "cpu-only-build"),
        ("torch.version.cuda: None on my RTX 3090", "cpu-only-build"),
        ("torch.version.cuda: None on my MacBook M2", "none"),  # no NVIDIA GPU: the CPU build is the right one
        ("torch.version.cuda: 12.1 and torch.cuda.is_available() is True", "none"),
    ],
)
def test_torch_version_cuda_printed_as_none(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "UserWarning: CUDA initialization: CUDA driver initialization failed, you might not have a CUDA gpu.\n"
            "NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4\ntorch 2.1.0+cu121",
            "driver-too-old",
        ),
        # a driver new enough for torch's CUDA: the warning has another reason
        (
            "UserWarning: CUDA initialization: CUDA driver initialization failed, you might not have a CUDA gpu.\n"
            "NVIDIA-SMI 550.54.14    Driver Version: 550.54.14    CUDA Version: 12.4\ntorch 2.1.0+cu121",
            "none",
        ),
    ],
)
def test_cuda_initialisation_failing_under_an_old_driver(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("flash-attn undefined symbol after upgrading torch", "extension-torch-mismatch"),
        ("升级torch后 flash-attn 报错 undefined symbol,需要重新编译", "extension-torch-mismatch"),
        ("undefined symbol after upgrading numpy", "none"),
        ("ld: undefined symbols for architecture arm64 after updating torch in the xformers build", "none"),
    ],
)
def test_an_extensions_symbols_missing_after_torch_moved_on(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            'OSError: [WinError 127] The specified procedure could not be found. Error loading "C:\\venv\\Lib\\'
            'site-packages\\torchaudio\\lib\\libtorchaudio.pyd" or one of its dependencies.',
            "companion-mismatch",
        ),
        # WinError 126 is a dependency DLL not found at all (a runtime, VC++): nothing says the pair is wrong
        (
            'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\venv\\Lib\\'
            'site-packages\\torchaudio\\lib\\libtorchaudio.pyd" or one of its dependencies.',
            "none",
        ),
    ],
)
def test_a_companions_library_without_torchs_procedure_on_windows(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "hint: Wheels are available for `torch` (v2.3.0) on the following platforms: `manylinux_2_28_aarch64`, "
            "`win_amd64`",
            "python-unsupported",
        ),
        ("hint: Wheels are available for `numpy` (v2.3.0) on the following platforms: `win_amd64`", "none"),
    ],
)
def test_uvs_hint_of_the_platforms_torch_has_wheels_for(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


_REFUSED = "ERROR: torch-2.3.0-cp310-cp310-manylinux_2_28_x86_64.whl is not a supported wheel on this platform."


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (f"{_REFUSED}\n$ ldd --version\nldd (GNU libc) 2.17", "glibc-too-old"),
        (f"{_REFUSED}\nCentOS 7, glibc 2.17", "glibc-too-old"),
        (f"{_REFUSED}\nglibc 2.35, Python 3.11", "python-unsupported"),  # glibc is new enough: the tag is the Python
        (_REFUSED, "python-unsupported"),
    ],
)
def test_a_manylinux_wheel_refused_below_its_glibc_floor(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_the_glibc_floor_is_read_from_the_tag(kb: KB) -> None:
    found = explain_text(f"{_REFUSED}\nldd (GNU libc) 2.17", kb, lambda s: s)[0]
    assert "glibc >= 2.28" in found.cause and "2.17" in found.cause


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Windows 11, RTX 3060. I ran pip install torch torchvision torchaudio and torch.cuda.is_available() "
            "returns False",
            "cpu-only-build",
        ),
        # the CUDA index given: PyPI's default is not what was installed
        (
            "Windows 11, RTX 3060. pip install torch --index-url https://download.pytorch.org/whl/cu121, and "
            "torch.cuda.is_available() returns False",
            "none",
        ),
        # CUDA usable: nothing to explain
        ("Windows 11, RTX 3060. pip install torch torchvision, and the training runs out of memory", "none"),
        # Linux: PyPI's default build there is a CUDA one
        ("Ubuntu 22.04, RTX 3060. pip install torch, and torch.cuda.is_available() returns False", "none"),
    ],
)
def test_pypis_windows_wheel_is_the_cpu_build(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("On my Jetson Orin I did pip3 install torch, but torch.cuda.is_available() is False", "cpu-only-build"),
        ("Jetson AGX Orin, JetPack 5.1.2. torch.cuda.is_available() returns False", "cpu-only-build"),
        # NVIDIA's JetPack build installed: the build is right, the reason is another
        (
            "Jetson AGX Orin, JetPack 5.1.2, torch 2.1.0a0+41361538.nv23.06. torch.cuda.is_available() returns False",
            "none",
        ),
    ],
)
def test_pypis_aarch64_build_on_a_jetson(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_the_jetson_fix_names_jetpacks_build(kb: KB) -> None:
    found = explain_text("Jetson Orin Nano: torch.cuda.is_available() is False", kb, lambda s: s)[0]
    assert "JetPack" in found.cause and "jetson-ai-lab" in found.fix
