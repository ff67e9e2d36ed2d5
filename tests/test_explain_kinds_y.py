"""Round Y's structural changes, one per kind of miss in batch Y's first measurement (tests/data/explain-corpus/
README.md): a +cpu torch asked for on a Mac; a companion pip finds nothing of while the same command's torch installs;
pip's offered versions are no installed build; a library's own driver check; a binding's pinned-torch check; CUDA's
NVTX library; Poetry's resolver naming nvidia-* packages; a program (not Python) loading libtorch; conda's
companion/pytorch pin conflict; a CPU build said with other verbs, or as a report's title; torch "hasn't been compiled
for CUDA" in words; "couldn't find a pytorch 1.3 version with my python 3.8"; a named extension failing to import over
versions; the C++ ABI flag said incompatible; the linker's "skipping incompatible" libtorch and its undefined cudart
reference; Windows' 0x8007007F for a native library; CUDA finding no device under WSL; a torch release named without
its variant on a card none of its builds carries; card generations ("50 series") and bare model numbers.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref, first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("macOS 14\n  • Updating torch (2.1.0 -> 2.1.0+cpu): Failed", "python-unsupported"),
        (
            '# Unable to find candidates for torch\nI am on Apple M3\ntorch = { version = "^2.5.1+cpu" }',
            "python-unsupported",
        ),
        ("Ubuntu 22.04\n  • Updating torch (2.1.0 -> 2.1.0+cpu): Failed", "none"),  # Linux has +cpu wheels
    ],
)
def test_a_cpu_torch_asked_for_on_a_mac(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_COMPANION_LIST = (
    "ERROR: Could not find a version that satisfies the requirement torchvision==0.8.0+cu110 (from versions: 0.2.0, "
    "0.4.0+cpu, 0.4.1+cu100, 0.6.0+cu101, 0.6.1)"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # pip found the torch of the same command: the interpreter gets wheels, the companion's build is missing
        (
            f"pip install torch==1.7.0+cu110 torchvision==0.8.0+cu110 -f https://x/torch_stable.html\n{_COMPANION_LIST}",
            "none",
        ),
        (_COMPANION_LIST.replace("0.8.0+cu110", "0.8.1"), "python-unsupported"),
    ],
)
def test_a_companion_missing_where_the_commands_torch_installs(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_pips_offered_versions_are_no_installed_cpu_build(kb: KB) -> None:
    text = (
        "CUDA 11.0, RTX 3090\nERROR: Could not find a version that satisfies the requirement foo (from versions: 1+cpu)"
    )
    assert first_ref(kb, text) != "cpu-only-build"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("warning : CUDA driver version is 11020, expected at least 11040.", "driver-too-old"),
        ("warning : CUDA driver version is 12020, expected at least 11040.", "none"),
    ],
)
def test_a_librarys_own_driver_check(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Error: this tch version expects PyTorch 2.0.0, got 2.0.1", "extension-torch-mismatch"),
        ("Error: this tch version expects PyTorch 2.7.0, got 2.7.0", "none"),
    ],
)
def test_a_bindings_pinned_torch_check(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ImportError: libnvToolsExt.so.1: cannot open shared object file: No such file or directory",
            "cuda-runtime-missing",
        ),
        # Poetry's resolver naming CUDA's pip packages is no library the loader misses
        ("Unable to find installation candidates for nvidia-cublas-cu11 (11.10.3.66)", "none"),
        # a program (not Python) starting without libtorch's folder on its library path
        (
            "target/release/app: error while loading shared libraries: libtorch_cuda.so: cannot open shared object",
            "none",
        ),
    ],
)
def test_libraries_the_loader_misses_and_those_it_does_not(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "UnsatisfiableError: The following specifications were found to be in conflict:\n  - pytorch=0.3.1\n  - "
            "torchvision=0.2.1 -> pytorch[version='>=0.4']",
            "companion-mismatch",
        ),
        ("UnsatisfiableError:\n  - pytorch=0.3.1\n  - scipy=1.5 -> numpy[version='>=1.14']", "none"),
    ],
)
def test_condas_companion_and_pytorch_pins_in_conflict(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("torch did not autodetect my cuda installation. Therefore it downloaded the CPU-Version.", "cpu-only-build"),
        (
            "# conda install pytorch-nightly suggests cpu version\nIs that right, or must one ask for the gpu one?",
            "cpu-only-build",
        ),
        ("# Conda installs a cpu version of pytorch and torchvision\nTested on Ubuntu 20.04.", "cpu-only-build"),
        ("I am on a MacBook; pip downloaded the CPU version, as expected", "none"),
        # a CPU package's name in a title is what was asked for
        ("# UnsatisfiableError: - pytorch-cpu\nconda install pytorch-cpu torchvision -c pytorch fails", "none"),
        ("the docs job installs a cpu version of torch", "none"),  # one line: nothing complained of
    ],
)
def test_a_cpu_build_said_with_other_verbs_or_as_a_title(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("it runs inside docker but complains that pytorch hasn't been compiled for CUDA.", "cpu-only-build"),
        ("On my MacBook it complains that pytorch hasn't been compiled for CUDA.", "none"),
        # the GPU's age (torch's own warning), not a CPU build
        ("PyTorch no longer supports this GPU because it is too old.", "arch-not-compiled"),
    ],
)
def test_torch_said_not_compiled_for_cuda(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("pip couldn't find a pytorch 1.3 version with my python 3.8 virtualenv", "python-unsupported"),
        ("pip couldn't find a pytorch 1.3 version in my notes", "none"),
    ],
)
def test_no_torch_release_found_for_the_python_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("# can not import torch_xla\nthe notebooks broke; it may be version issue", "extension-torch-mismatch"),
        ("can not import torch_xla on my laptop", "none"),
    ],
)
def test_a_named_extension_failing_to_import_over_versions(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "QMAKE_CXXFLAGS += -D_GLIBCXX_USE_CXX11_ABI=0 is needed, but this setting is not compatible with my code",
            "cxx11-abi-mismatch",
        ),
        ("g++ -O2 -D_GLIBCXX_USE_CXX11_ABI=0 -std=c++17 foo.cpp", "none"),
    ],
)
def test_the_abi_flag_said_incompatible(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "/usr/bin/ld: skipping incompatible /opt/libtorch/lib/libtorch_cuda.so when searching for -ltorch_cuda",
            "python-unsupported",
        ),
        ("/usr/bin/ld: skipping incompatible /usr/lib/libfoo.so when searching for -lfoo", "none"),
        (
            "libtorch_cuda.so: undefined reference to `cudaLaunchKernelExC@libcudart.so.11.0'",
            "toolkit-torch-cuda-mismatch",
        ),
        ("main.o: undefined reference to `my_function'", "none"),
    ],
)
def test_the_linker_on_libtorch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("LibTorchSharp.dll fails to load (0x8007007F) on Windows x64", "extension-torch-mismatch"),
        ("c10.dll failed with 0x8007007F", "none"),  # torch's own library: not an extension built for another torch
    ],
)
def test_windows_procedure_not_found_for_a_native_library(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected (cuInit)\nrunning under wsl2",
            "cuda-runtime-missing",
        ),
        ("CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected (cuInit) on my laptop", "none"),
    ],
)
def test_cuda_finding_no_device_under_wsl(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Incompatible with 50 series graphics cards\nmy 5070ti machine: pytorch version(2.1.2) is incompatible",
            "arch-not-compiled",
        ),
        ("torch 2.1.2 fails on my RTX 5090 with an error", "arch-not-compiled"),
        ("torch 2.7.0 works on my RTX 5090 without error", "none"),  # its cu128 builds carry sm_120
        ("the server on port 5090 fails with an error", "none"),
    ],
)
def test_a_release_no_build_of_which_carries_the_card(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_pinned_torch_in_the_fix_is_the_exact_release(kb: KB) -> None:
    from envplan.live.diagnose import explain_text

    exact = explain_text("Error: this tch version expects PyTorch 2.0.0, got 2.0.1", kb, lambda s: s)[0]
    series = explain_text("Open3D needs PyTorch version 1.7.*, but version 1.8.2 is installed!", kb, lambda s: s)[0]
    assert "torch==2.0.0)" in exact.fix and "torch==1.7.*" in series.fix
