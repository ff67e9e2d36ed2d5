"""Round AA's structural changes, one per kind of miss in batch AA's first measurement (tests/data/explain-corpus/
README.md): an NGC container's "not yet supported in this version of the container"; torch missing in a Jupyter
notebook is the kernel's interpreter, no build; "doesn't install support for CUDA"; "Provide binaries for Python 3.8";
an installer's own "Torch 2.9 is not supported. Supported: 2.8"; a torch release "which has no compatible version of
xformers"; the pre-cxx11 and cxx11 ABIs contrasted; a companion's module built for another CUDA than the machine's; an
extension wheel tagged for another torch (or for the release of an NGC pre-release).

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "WARNING: Detected NVIDIA RTX 4090 GPU, which is not yet supported in this version of the container",
            "arch-not-compiled",
        ),
        ("the RTX 4090 is supported in this version of the container", "none"),
    ],
)
def test_an_ngc_container_predating_the_gpu(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ImportError: No module named 'torch'\nUnable to load torch from Jupyter Notebook.\nconda install pytorch",
            "none",
        ),
        (
            "ModuleNotFoundError: No module named 'torch'\nGetting requirements to build wheel ... error",
            "build-isolation-missing-torch",
        ),
    ],
)
def test_torch_missing_in_a_notebook_is_no_build(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "torch is in requirements.txt, but it doesn't install support for CUDA; my RTX 5090 sits idle",
            "cpu-only-build",
        ),
        ("on my MacBook pip doesn't install support for CUDA, as expected", "none"),  # no NVIDIA GPU to run on
    ],
)
def test_a_cpu_build_said_as_cuda_support_not_installed(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("[Feature request] Provide binaries for Python 3.8", "python-unsupported"),
        ("[Feature request] Provide binaries for the docs", "none"),
    ],
)
def test_builds_requested_for_a_python(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("WARNING: Torch 2.9 is not supported. Supported: 2.8", "extension-torch-mismatch"),
        ("WARNING: Torch 2.8 is not supported. Supported: 2.8", "none"),
    ],
)
def test_an_installers_own_torch_check(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "after updating, the app uses torch 2.3.0, which has no compatible version of xformers.\nSo I downgraded "
            "torch to 2.2.2, torchvision to 0.17.2, and re-installed xformers.",
            "extension-torch-mismatch",
        ),
        # a companion's install swapping torch is still the companion's
        ("installing torchaudio removes the PyTorch I installed and reinstalls pytorch", "companion-mismatch"),
    ],
)
def test_no_extension_build_for_the_torch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "NGC containers use the CXX11 abi in python vs the pre cxx11 abi of the official wheels",
            "cxx11-abi-mismatch",
        ),
        ("we build with the pre cxx11 toolchain only", "none"),
    ],
)
def test_the_two_abis_contrasted(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "from torchvision import _C\nImportError: libcudart.so.9.0: cannot open shared object file: No such file"
            "\n(I'm on a CUDA 10 system).",
            "companion-mismatch",
        ),
        (
            "from torchvision import _C\nImportError: libcudart.so.9.0: cannot open shared object file: No such file",
            "cuda-runtime-missing",
        ),
    ],
)
def test_a_companions_module_built_for_another_cuda(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "installed causal_conv1d-1.0.2+cu122torch2.1cxx11abiTRUE-cp310-cp310-linux_x86_64.whl, import error\n"
            "torch.__version__: '2.1.0a0+4136153'",
            "extension-torch-mismatch",
        ),
        (
            "flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl fails with torch 2.4.0",
            "extension-torch-mismatch",
        ),
        (
            "installed causal_conv1d-1.0.2+cu122torch2.1cxx11abiTRUE-cp310-cp310-linux_x86_64.whl, torch 2.1.0, fine",
            "none",
        ),
    ],
)
def test_an_extension_wheel_tagged_for_another_torch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
