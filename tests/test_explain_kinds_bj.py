"""Round BJ's structural changes, one per kind of batch BJ's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- torch's no-kernel error retyped ("no kernal image is available");
- torch's caffe2_nvrtc.dll not found by Python 3.8's Windows loader ("Could not find module '...caffe2_nvrtc.dll' (or
  one of its dependencies)");
- pip's line retyped ("could find a version that satisfy the requirement torch==1.7.0 (from versions: none)");
- torch's CUDA hooks absent ("Pinned memory requires CUDA ... the CUDA library has not been loaded"): a CPU build;
- "the CPU version instead of the CUDA version" as a CPU build said;
- torch/extension.h missing where the torch stated predates it (0.4.1): source written for a newer torch.

Made silent: no NVIDIA GPU said as "I don't have a graphic card" or "use only my CPU"; a CPU build said beside torch's
device error naming a CUDA tensor (the torch that ran has CUDA); a report titled "Missing requirements" over "No
module named 'torch'" (a program's missing dependency, not a build). The texts are written for the tests (the kind,
not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "RTX 3080, CUDA 11.2\nCUDA error: no kernal image is available for excution on the device",
            "arch-not-compiled",
        ),
        ("I rebuilt the kernal image for my board and the demo runs", "none"),
    ],
)
def test_the_no_kernel_error_retyped(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_NOT_FOUND = (
    "FileNotFoundError: Could not find module 'C:\\envs\\a\\lib\\site-packages\\{path}' (or one of its "
    "dependencies). Try using the full path with constructor syntax."
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_NOT_FOUND.format(path="torch\\lib\\caffe2_nvrtc.dll"), "cuda-runtime-missing"),
        # a module of the program's own
        (_NOT_FOUND.format(path="myapp\\plugins\\render.dll"), "none"),
    ],
)
def test_torchs_nvrtc_dll_not_found(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "pip on Raspbian 10 (armv7l): it says it could find a version that satisfy the requirement torch==1.7.0 "
            "(from versions: none)",
            "python-unsupported",
        ),
        ("pip could find a version that satisfies the requirement torch==1.7.0 and installed it", "none"),
    ],
)
def test_pips_line_retyped(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_HOOKS = (
    "RuntimeError: Pinned memory requires CUDA. PyTorch splits its backend into two shared libraries: a CPU library "
    "and a CUDA library; this error has occurred because you are trying to use some CUDA functionality, but the CUDA "
    "library has not been loaded by the dynamic linker for some reason."
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Windows 10, CUDA installed\n" + _HOOKS, "cpu-only-build"),
        # no NVIDIA GPU to run on: the program's pin_memory=True is its bug
        ("On my MacBook\n" + _HOOKS, "none"),
    ],
)
def test_torchs_cuda_hooks_absent(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "the version of torch that was installed was the CPU version instead of the CUDA version, so it is slow",
            "cpu-only-build",
        ),
        ("I installed the CPU version instead of the CUDA version on purpose: I don't have a GPU", "none"),
    ],
)
def test_the_cpu_version_instead_of_the_cuda_one(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_HEADER = "src/roi_align_cuda.cpp:1:29: fatal error: torch/extension.h: No such file or directory{torch}"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_HEADER.format(torch="\nMy torch version is 0.4.1, CUDA is 9.0"), "extension-torch-mismatch"),
        # no torch stated: torch's headers may simply not be where the compiler looks
        (_HEADER.format(torch=""), "none"),
    ],
)
def test_a_header_newer_than_the_torch_stated(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_DEVICE_ERROR = (
    "\nRuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("I can't use CUDA because I don't have a graphic card, so how do I run the CPU version of torch?", "none"),
        ("Using CPU instead of GPU\nuse_cuda=True by default. How can I use only my CPU?", "none"),
        # the complaint alone, as a title over a body
        ("Using CPU instead of GPU\nIt is very slow, the GPU is idle.", "cpu-only-build"),
        ("The CPU version of torch is too slow, how do I use the GPU?" + _DEVICE_ERROR, "none"),
        ("The CPU version of torch is too slow, how do I use the GPU?", "cpu-only-build"),
        ("Missing requirements\nI was getting errors about `No module named 'torch'` when starting the bot.", "none"),
        # the same error, titled as the install it broke
        ("Install fails\nI was getting errors about `No module named 'torch'`.", "build-isolation-missing-torch"),
    ],
)
def test_made_silent(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
