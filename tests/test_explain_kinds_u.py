"""Round U's structural changes, one per kind of miss in batch U's first measurement (tests/data/explain-corpus/
README.md): an NGC image's own driver check; the driver's age said in words next to its version; DeepSpeed's toolkit
check cut before torch's CUDA; a package's own Python check, pip's verbose "Link requires a different Python", refused
wheels whose own tags were read as the interpreter, an install tied to a Python release in a title; a CPU build named
before the verb; Windows' DLL failure retold in a title; a package's own check of a pinned torch; TensorRT's loader
naming the CUDA library it lacks; a link-time reference to another C++ library's std::string function in a torch
build; CUDA error 500 ("named symbol not found") at a kernel launch.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
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
            "ERROR: This container was built for NVIDIA Driver Release 550.54 or later, but version 535.104.05 was "
            "detected and compatibility mode is UNAVAILABLE.",
            "driver-too-old",
        ),
        # the host driver is the one the image wants: the check failed for another reason
        (
            "This container was built for NVIDIA Driver Release 535.86 or later, but version 545.23.08 was detected",
            "none",
        ),
    ],
)
def test_an_ngc_images_own_driver_check(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_the_ngc_fix_names_the_release_the_image_needs(kb: KB) -> None:
    (first, *_) = explain_text(
        "This container was built for NVIDIA Driver Release 550.54 or later, but version 535.104.05 was detected", kb
    )
    assert "550.54" in first.fix and "535.104.05" in first.cause


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Our nodes' NVIDIA driver is version 460.32 and the engine build says the driver version is too low",
            "driver-too-old",
        ),
        (
            "the machine has an old NVIDIA driver (418.67), which doesn't support CUDA 11.0, so GPU runs fail",
            "driver-too-old",
        ),
        # the words alone, no driver number and CUDA not shown unusable: too little to name the driver
        ("someone on the forum thinks the driver version is too low", "none"),
    ],
)
def test_the_drivers_age_said_in_words_with_its_version(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_deepspeeds_toolkit_check_cut_before_torchs_cuda(kb: KB) -> None:
    assert first_ref(kb, "Installed CUDA version 12.4 does not match torch version") == "toolkit-torch-cuda-mismatch"
    assert first_ref(kb, "Installed CUDA version 12.4 does not match the torch docs") == "none"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "RuntimeError: foo-tts requires python >= 3.8 and < 3.11 but your Python version is 3.11.4",
            "python-unsupported",
        ),
        ("RuntimeError: foo-tts requires python >=3.8,<3.11 but your Python version is 3.10.12", "none"),  # in range
        (
            "Link requires a different Python (3.12.1 not in: '<3.12,>=3.8'): https://example.org/foo-1.0.tar.gz",
            "python-unsupported",
        ),
    ],
)
def test_a_packages_own_python_check_and_pips_verbose_words(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_refused_wheels_tags_are_not_the_interpreter(kb: KB) -> None:
    two = (
        "ERROR: foo-1.0+cu118-cp39-cp39-linux_x86_64.whl is not a supported wheel on this platform.\n"
        "ERROR: bar-2.0-cp39-cp39-linux_x86_64.whl is not a supported wheel on this platform.\n"
    )
    assert first_ref(kb, two) == "python-unsupported"
    # the interpreter stated is the wheels' own: the platform tag is another matter
    assert first_ref(kb, two + "python --version: Python 3.9.18") == "none"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Can't install the package on Python 3.12", "python-unsupported"),
        ("how to install foo-llm for python3.13?", "python-unsupported"),
        ("How to install foo-llm on Ubuntu 22.04?", "none"),
    ],
)
def test_an_install_tied_to_a_python_release_in_a_title(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("[Bug]: pytorch cpu installed on a workstation with an NVIDIA RTX 4090", "cpu-only-build"),
        ("torch-cpu gets installed though I asked for the GPU build", "cpu-only-build"),
        ("torch cpu installed in the docs job, and the docs build fine", "none"),  # nothing wants CUDA
    ],
)
def test_a_cpu_build_named_before_the_verb(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("DLL can't be loaded while importing flash_attn_2_cuda", "extension-torch-mismatch"),
        ("DLL could not be loaded while importing my_private_module", "none"),  # not a package the KB knows
    ],
)
def test_windows_dll_failure_retold_in_a_title(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Exception: Version mismatch: fooops needs PyTorch version 2.1.*, but version 2.2.0 is installed!",
            "extension-torch-mismatch",
        ),
        ("Exception: fooops needs PyTorch version 2.1.*, but version 2.1.2 is installed", "none"),  # the pinned torch
        ("ImportError: fooops needs PyTorch >= 2.1, but version 2.0.1 is installed", "none"),  # a floor: an API's age
    ],
)
def test_a_packages_own_check_of_a_pinned_torch(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_tensorrts_loader_names_the_cuda_library_it_lacks(kb: KB) -> None:
    text = "[TRT] [E] Unable to open library: libnvinfer_plugin.so.10 due to libcublas.so.12"
    assert first_ref(kb, text) == "cuda-runtime-missing"
    assert first_ref(kb, "[TRT] [E] Unable to open library: libnvinfer_plugin.so.10 due to libfoo.so.3") == "none"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "building the plugin against PyTorch 1.12 from the pytorch channel:\n"
            "plugin.cpp:(.text+0x1a): undefined reference to `geom::fail(char const*, std::string const&)'",
            "cxx11-abi-mismatch",
        ),
        # no torch in the build and no string in the signature: a plain missing -l flag (round BC reads the
        # pre-C++11 std::string alone as the ABI: libtorch-yolov3#23 and GCNv2_SLAM#38 are settled so)
        ("main.cpp:(.text+0x1a): undefined reference to `geom::fail(char const*, int)'", "none"),
    ],
)
def test_a_link_time_reference_to_another_librarys_string_function(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("RuntimeError: Error named symbol not found at line 88 in file /src/kernels/quant.cu", "arch-not-compiled"),
        ("CUDA error: named symbol not found (cudaErrorSymbolNotFound)", "arch-not-compiled"),
        ("HIP on the AMD Radeon card: named symbol not found", "none"),  # no CUDA build there
    ],
)
def test_cuda_error_500_at_a_kernel_launch(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref
