"""Round AL's structural changes (tests/data/explain-corpus/README.md). Kinds batch AL's blind reader named right:
torch "not found" for a Python ("torch version is not found in python3.9.1"); old conda's "PackageNotFoundError:
Packages missing in current channels" on a platform subdir (linux-ppc64le); "installed a cpu-only version of pytorch";
an extension's wheel that uninstalls one torch release and installs another. Kinds it did not name, each read only
after checking the whole corpus: an extension's source written for an older torch API (THC/THC.h missing, removed in
1.11; torch.utils.ffi, removed in 1.0; THTensor made opaque in 0.4.1: 6 of the corpus's 9 settled as the extension,
3 as none); causal-conv1d or mamba-ssm (Linux-only wheels in the KB) said not to install on Windows. Made silent:
torch's device count failing with CUDA error 500 (a driver stack's failure, no kernel launched); "test without CUDA";
a host application's plugin loader missing torch (napari's "Failed to import command at"); an exact torch build that
was never published (torch==1.9.0+cu118: cu118 came with 2.0).

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_PIP = "ERROR: Could not find a version that satisfies the requirement "
_COUNT = (
    "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
    "NumCudaDevices() that might have already set an error? Error 500: named symbol not found"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_COUNT, "none"),
        ("RuntimeError: CUDA error: named symbol not found\nat kernel launch in my_op_cuda.cu", "arch-not-compiled"),
        (
            'test without CUDA\n  File "torch/cuda/__init__.py", line 51, in _check_driver\n'
            "AssertionError: Torch not compiled with CUDA enabled",
            "none",
        ),
        ("AssertionError: Torch not compiled with CUDA enabled", "cpu-only-build"),
        (
            "No module named 'torch'\nRuntimeError: Failed to import command at 'napari_sam._widget:SamWidget': "
            "No module named 'torch'",
            "none",
        ),
        (
            "Getting requirements to build wheel ... error\nModuleNotFoundError: No module named 'torch'",
            "build-isolation-missing-torch",
        ),
    ],
)
def test_made_silent(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # cu118 came with torch 2.0: no 1.9.0 build for it was ever published, whatever the Python
        (
            "pip install torch==1.9.0+cu118 -f https://download.pytorch.org/whl/cu118\n"
            f"{_PIP}torch==1.9.0+cu118 (from versions: none)",
            "none",
        ),
        # a release the KB knows without that variant
        (f"{_PIP}torch==2.0.1+cu121 (from versions: none)", "none"),
        # a build that exists: pip finding none of it is the interpreter or platform
        (f"{_PIP}torch==2.0.1+cu118 (from versions: none)", "python-unsupported"),
    ],
)
def test_a_torch_build_never_published(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("torch version is not found in python3.9.1, we should change it to torch == 1.7.1", "python-unsupported"),
        ("torch version is not found after the upgrade", "none"),
        (
            "PackageNotFoundError: Packages missing in current channels:\n  - pytorch\n"
            "We have searched for the packages in the following channels:\n  - https://conda.anaconda.org/pytorch/linux-ppc64le",
            "python-unsupported",
        ),
        ("PackageNotFoundError: Packages missing in current channels:\n  - pytorhc", "none"),
        ("running the given yml file installed a cpu-only version of pytorch.", "cpu-only-build"),
        ("I installed a cpu-only version of pytorch since I don't have a GPU", "none"),
    ],
)
def test_python_and_cpu_builds_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "about xformers 0.0.18, windows10 torch1.13.1\npip install xformers-0.0.18-cp310-cp310-win_amd64.whl, it "
            "always uninstalls my pytorch1.13.1 and then installs torch2.0",
            "extension-torch-mismatch",
        ),
        # no extension in the text: a requirement swapping torch is another story
        ("pip install -r requirements.txt uninstalls my pytorch1.13.1 and then installs torch2.0", "none"),
        ("Windows版本\uff0c无法安装causal_conv1d和mamba_ssm\uff0c请问有安装包吗\uff1f", "python-unsupported"),
        ("pip install mamba_ssm==1.0.1\nHow to install this package under the windows system?", "python-unsupported"),
        # the same on Linux is no platform without wheels
        ("Ubuntu 22.04: cannot install mamba_ssm, the build fails", "none"),
        # an extension the KB gives Windows wheels or no wheel template for
        ("Windows 11: cannot install apex", "none"),
    ],
)
def test_extension_wheels_and_platforms(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("ROIAlign_cuda.cu:5:10: fatal error: THC/THC.h: No such file or directory", "extension-torch-mismatch"),
        ("THC\\THC.h can't find", "extension-torch-mismatch"),
        ("ImportError: torch.utils.ffi is deprecated. Please use cpp extensions instead.", "extension-torch-mismatch"),
        (
            "error: dereferencing pointer to incomplete type 'THTensor {aka struct THTensor}'",
            "extension-torch-mismatch",
        ),
        # the header found, or another library's header missing
        ("the build includes THC/THC.h and compiles fine; the crash is later", "none"),
        ("fatal error: cuda_runtime_api.h: No such file or directory", "none"),
    ],
)
def test_an_extension_source_written_for_an_older_torch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
