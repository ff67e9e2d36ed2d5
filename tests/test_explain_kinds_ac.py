"""Round AC's structural changes, one per kind of miss in batch AC's first measurement (tests/data/explain-corpus/
README.md) that a reader of the text alone named right: the linker finding no CUDA toolkit library (-lcudart,
-lcurand); an extension's own check of the architectures it was built for (tiny-cuda-nn) and Triton's floor for old
GPUs; ptxas' message pasted from a rendered quote; nvcc refusing C++17; a binding's "Incompatible LibTorch version"; a
notebook's assert on torch's version; a CUDA library that "can't be found"; pkgutil.ImpImporter gone in Python 3.12;
torchvision's CUDA check cut to its second sentence; an exact pin pip does not offer for the stated Python. Two
readings made silent: Huawei's Ascend NPU, and "I only use cpu".

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
            "c++ ops.o -shared -L/opt/conda/lib64 -lcudart -o ops.so\n/usr/bin/ld: cannot find -lcudart",
            "cuda-runtime-missing",
        ),
        (
            "RuntimeError: Error building extension 'cpu_adam', because /usr/bin/ld: can not find -lcurand",
            "cuda-runtime-missing",
        ),
        ("/usr/bin/ld: cannot find -lpng", "none"),  # not a CUDA library
    ],
)
def test_the_linker_finding_no_cuda_toolkit_library(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("OSError: Could not find compatible tinycudann extension for compute capability 86.", "arch-not-compiled"),
        (
            "RuntimeError: Found NVIDIA GeForce GTX 1060 which is too old to be supported by the triton GPU compiler, "
            "which is used as the backend.",
            "arch-not-compiled",
        ),
        ("tinycudann loaded its extension for compute capability 86", "none"),
    ],
)
def test_builds_refusing_the_gpus_architecture(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "B300 is sm_103a: `ptxas fatal: Value 'sm_103a' is not \n  \u258e defined for option 'gpu-name'`",
            "arch-not-compiled",
        ),
        ("\u258e everything builds fine for sm_103a", "none"),
    ],
)
def test_a_rendered_quote_pasted_back(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "FAILED: multi_tensor_adam.cuda.o\nnvcc fatal   : Value 'c++17' is not defined for option 'std'",
            "toolkit-torch-cuda-mismatch",
        ),
        ("nvcc -std=c++17 -c kernel.cu: fine", "none"),
    ],
)
def test_nvcc_older_than_torchs_cxx17(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "./utils.h:8:1: error: static_assert failed due to requirement '1 == 1 && 9 == 11' \"Incompatible LibTorch "
            'version"',
            "extension-torch-mismatch",
        ),
        (
            'assert torch.__version__.startswith("1.7")\n!pip install detectron2 -f https://dl.fbaipublicfiles.com/'
            "detectron2/wheels/cu101/torch1.7/index.html\nAssertionError:",
            "extension-torch-mismatch",
        ),
        ('assert torch.__version__.startswith("1.7")  # passes on the old runtime', "none"),
    ],
)
def test_code_pinned_to_a_torch_release(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("libnvrtc-builtins.so.11.3 can't be found", "cuda-runtime-missing"),
        ("libnvrtc-builtins.so.11.3 can be found in torch/lib", "none"),
    ],
)
def test_a_cuda_library_that_cannot_be_found(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("pip install d2l\nAttributeError: module 'pkgutil' has no attribute 'ImpImporter'.", "python-unsupported"),
        ("AttributeError: module 'pkgutil' has no attribute 'iter_modulez'", "none"),
    ],
)
def test_pkgutils_importer_gone_in_python_312(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("PyTorch has CUDA Version=11.7 and torchvision has CUDA Version=11.8.", "companion-mismatch"),
        ("PyTorch has CUDA Version=11.8 and torchvision has CUDA Version=11.8.", "none"),
    ],
)
def test_torchvisions_cuda_check_cut_to_its_versions(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Python version: 3.13.6\nERROR: Could not find a version that satisfies the requirement kaolin==0.18.0 "
            "(from versions: 0.1)",
            "python-unsupported",
        ),
        (  # no interpreter stated: a release never published says the same
            "ERROR: Could not find a version that satisfies the requirement kaolin==0.18.0 (from versions: 0.1)",
            "none",
        ),
        (  # pip's "(from -r requirements.txt (line 3))" before its list (read since the tenth session's review)
            "Python version: 3.13.6\nERROR: Could not find a version that satisfies the requirement kaolin==0.18.0 "
            "(from -r requirements.txt (line 3)) (from versions: 0.1)",
            "python-unsupported",
        ),
    ],
)
def test_an_exact_pin_not_offered_for_the_python(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    "text",
    [
        "在昇腾上运行报错 AssertionError: Torch not compiled with CUDA enabled\ntorch-npu 2.5.1",
        "it says torch not compiled with cuda enabled and i don't have cuda, i only use cpu",
    ],
)
def test_no_nvidia_gpu_to_run_on(kb: KB, text: str) -> None:
    assert_first_ref(kb, text, "none")
