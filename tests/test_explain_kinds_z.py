"""Round Z's structural changes, one per kind of miss in batch Z's first measurement (tests/data/explain-corpus/
README.md): "torch built without cuda support"; a torch and companion pair stated and said incompatible; a
package's CUDA build loaded next to a CPU torch; the driver's CUDA (said, or nvidia-smi's) an older major than
torch's with CUDA unusable; a new card's support asked for in Japanese or a failure told in Japanese or Korean; root's
interpreter running a setup script; CUDA's cuSPARSELt; torch's wheels stopping short of a platform ("cannot install
pytorch < 1.9 on an M1 Mac", "requires x86_64", "Python 3.10 rules out PyTorch 1.8.1").

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
        ("Torch built without cuda support", "cpu-only-build"),
        ("onnxruntime built without cuda support", "none"),  # another package's build
    ],
)
def test_torch_built_without_cuda_said(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "PyTorch version: 2.4.1+cpu\nthe installer puts torchaudio 2.11.0 into the venv next to torch 2.4.1+cpu. "
            "These two versions are incompatible with each other",
            "companion-mismatch",
        ),
        ("PyTorch version: 2.4.1+cpu\ntorchaudio 2.4.1 is installed next to it, which is fine", "none"),
    ],
)
def test_a_stated_pair_said_incompatible(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_CUDA_MODULE = (
    ">>> from foo2n.bindings.data import CString\n"
    "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n{}"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            _CUDA_MODULE.format("torch                        2.1.1+cpu                pypi_0    pypi"),
            "extension-torch-mismatch",
        ),
        # torch's CUDA stated the same as the module's: its runtime is just not where the loader looks
        (_CUDA_MODULE.format("torch 2.1.1+cu121"), "cuda-runtime-missing"),
    ],
)
def test_a_packages_cuda_build_next_to_a_cpu_torch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "torch=2.14.0+cu130\ncuda_available=False\nThe driver supports CUDA 12.4, so the GPU is unused.",
            "driver-too-old",
        ),
        ("torch=2.14.0+cu130\ncuda_available=True\nThe driver supports CUDA 13.0", "none"),
        # the same major: minor-version compatibility runs it
        ("torch=2.9.0+cu128\ncuda_available=False\nThe driver supports CUDA 12.4", "none"),
    ],
)
def test_the_drivers_cuda_an_older_major_than_torchs(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("5090対応\n5090対応お願いします", "arch-not-compiled"),
        ("RTX 5070 Ti 環境下でうまく動作しません", "arch-not-compiled"),
        ("RTX 5070 Ti で快適に動作します", "none"),  # it works well
    ],
)
def test_a_new_card_in_japanese(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ModuleNotFoundError: No module named 'torch'\nsudo python3 setup.py install --plugins\npip3 install torch",
            "none",
        ),
        (
            "ModuleNotFoundError: No module named 'torch'\nGetting requirements to build wheel ... error",
            "build-isolation-missing-torch",
        ),
    ],
)
def test_roots_interpreter_running_a_setup_script(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_cusparselt_is_a_cuda_library(kb: KB) -> None:
    assert_first_ref(
        kb,
        "ImportError: libcusparseLt.so.0: cannot open shared object file: No such file or directory",
        "cuda-runtime-missing",
    )


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Using python 3.9.13, I cannot get pip to install a version of pytorch < 1.9.0 on an M1 Mac",
            "python-unsupported",
        ),
        ("Is there any ARM support? The pip install doesn't work because it requires x86_64", "python-unsupported"),
        ("Blender 3.1 introduces Python 3.10 which rules out PyTorch 1.8.1 dependencies", "python-unsupported"),
        ("I cannot install pytorch on my Windows laptop behind the proxy", "none"),
        ("our x86_64 only CI job is slow", "none"),
    ],
)
def test_torchs_wheels_stopping_short_of_a_platform(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
