"""Round BP's structural changes, one per kind of batch BP's first-measurement misses that its blind reader named
right, and one false alarm (tests/data/explain-corpus/README.md):

- torch's capability warning as torch 2.11 on prints it ("Found GPU0 ... which is of compute capability (CC) 6.1.",
  "The following list shows the CCs this version of PyTorch was built for ...", then 2.11's and 2.12's "install a
  PyTorch release that supports one of these CUDA versions: 12.6", or from 2.13 "Your installed torch==... does not
  include kernels for this GPU."): any one of its lines; the fix is the build the warning names, or the KB's newest
  build with kernels for the GPU; and 2.8 to 2.10's ("which is of cuda capability 6.1. Minimum and Maximum cuda
  capability supported by this version of PyTorch is (7.0) - (12.0)", "Please install PyTorch with a following CUDA
  configurations: 12.6"), silent above the range within its major (a GB10 runs a build's sm_120 code);
- a cuDNN DLL said missing from a bundle ("整合包中未包含cudnn_ops_infer64_8.dll", "the bundle is missing ...dll");
- mmcv's "nms_impl: implementation for device cuda:0 not found" where torch itself sees the GPU: a CPU build of mmcv;
- a package's wheels said to be for Linux alone, asked from Windows ("all the wheels are for manylinux");
- something said compiled for another torch ("will be compiled for an old version of torch"), and a torch release said
  to have broken a compiled package ("torch 2.10.0 broke torchcodec");
- made silent: the user's own "pip uninstall torch torchaudio" is no claim that an installer swapped torch.

Each kind has a text it must stay silent on. The texts are written for the tests (the kind, not a report's wording);
the capability warning's lines are torch's own (torch/cuda/__init__.py, _warn_unsupported_code, read from the 2.11.0,
2.12.0, 2.13.0 and 2.14.1 wheels; 2.10.0's still prints the older "which is of cuda capability").
"""

from __future__ import annotations

import pytest

from envplan.core.compat import Context, releases_for
from envplan.kb import KB
from envplan.live.diagnose import explain_text
from envplan.profile.model import Machine
from helpers import assert_first_ref


def _builds_for(kb: KB, cc: tuple[int, int]) -> list[tuple[str, str]]:
    """Every (torch release, variant) the KB knows with kernels for compute capability `cc`, oldest first."""
    return [(str(torch), variant) for torch, variant in releases_for(kb, Context(machine=Machine(), gpus=()), cc)]


_FOUND = "UserWarning: Found GPU0 NVIDIA GeForce GTX 1070 Ti which is of compute capability (CC) 6.1.\n"
_LIST = (
    "The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:\n"
    "- 7.5 which supports hardware CC >=7.5,<8.0\n- 8.0 which supports hardware CC >=8.0,<9.0\n"
)
_REINSTALL = (
    "Your installed torch==2.9.0+cu128 does not include kernels for this GPU. Reinstall the same version against a "
    "CUDA build that does, e.g.:\n  For CUDA 12.6 use pip install torch==2.9.0 --index-url "
    "https://download.pytorch.org/whl/cu126\n"
)
_ONE_OF_THESE = (
    "Please follow the instructions at https://pytorch.org/get-started/locally/ to install a PyTorch release that "
    "supports one of these CUDA versions: 12.6\n"
)
_NONE_PUBLISHED = (
    "No published PyTorch CUDA builds for release 2.14.1+cu130 support this GPU. Visit "
    "https://pytorch.org/get-started/locally/ to find a compatible release.\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_FOUND + _LIST + _REINSTALL, "arch-not-compiled"),
        # pasted cut: any one line of it is the warning
        (_FOUND, "arch-not-compiled"),
        (_LIST, "arch-not-compiled"),
        (_NONE_PUBLISHED, "arch-not-compiled"),
        (_ONE_OF_THESE, "arch-not-compiled"),
        # the words "compute capability (CC)" alone are no warning
        ("torch 2.9's CUDA builds support compute capability (CC) 7.5 and up", "none"),
        # torch skips the check on ROCm: an AMD machine's text is not this warning
        ("Radeon RX 7900 on ROCm 6.2: " + _FOUND, "none"),
    ],
)
def test_torchs_capability_warning_since_2_11(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_capability_warnings_fix_is_the_build_it_names(kb: KB) -> None:
    (first, *_) = explain_text(_FOUND + _LIST + _REINSTALL, kb)
    assert "sm_61" in first.cause
    assert "pip install torch==2.9.0 --index-url https://download.pytorch.org/whl/cu126" in first.fix


def test_the_capability_warning_of_2_11_names_the_cuda_builds_to_reinstall_from(kb: KB) -> None:
    (first, *_) = explain_text(_FOUND + _LIST + _ONE_OF_THESE.replace("12.6", "12.6, 12.4"), kb)
    assert "--index-url https://download.pytorch.org/whl/cu126 (or cu124)" in first.fix


def test_the_capability_warning_cut_to_its_first_line_names_the_newest_build_for_the_gpu(kb: KB) -> None:
    torch, variant = _builds_for(kb, (6, 1))[-1]
    (first, *_) = explain_text(_FOUND, kb)
    assert "sm_61" in first.cause
    assert f"pip install torch=={torch} --index-url https://download.pytorch.org/whl/{variant}" in first.fix


_RANGE = (
    "UserWarning:\n    Found GPU0 NVIDIA GeForce GTX 1070 which is of cuda capability 6.1.\n"
    "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n    (7.0) - (12.0)\n"
)
_CONFIGS = (
    "    Please install PyTorch with a following CUDA\n    configurations:  12.6 following instructions at\n"
    "    https://pytorch.org/get-started/locally/\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_RANGE + _CONFIGS, "arch-not-compiled"),
        (_CONFIGS, "arch-not-compiled"),
        # the range line without the GPU's capability: above or below it, the line does not say
        ("Minimum and Maximum cuda capability supported by this version of PyTorch is (8.0) - (12.0)", "none"),
        # above the range within its major: the DGX Spark's GB10 (12.1) runs a build's sm_120 code
        (_RANGE.replace("GeForce GTX 1070", "GB10").replace("6.1", "12.1").replace("(7.0)", "(8.0)"), "none"),
    ],
)
def test_torchs_capability_warning_of_2_8_to_2_10(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_capability_warning_of_2_8_names_the_cuda_build_to_reinstall_from(kb: KB) -> None:
    (first, *_) = explain_text("torch 2.9.0+cu128\n" + _RANGE + _CONFIGS, kb)
    assert "pip install torch==2.9.0 --index-url https://download.pytorch.org/whl/cu126" in first.fix


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "\u6574\u5408\u5305\u4e2d\u672a\u5305\u542bcudnn_ops_infer64_8.dll\u3001cudnn_cnn_infer64_8.dll\uff0c"
            "\u5bfc\u81f4ASR\u5931\u8d25",
            "cuda-runtime-missing",
        ),
        ("the portable bundle is missing cudnn_ops_infer64_8.dll, so speech recognition fails", "cuda-runtime-missing"),
        # another DLL missing from the bundle is not a CUDA library
        ("the portable bundle is missing ffmpeg.dll, so audio loading fails", "none"),
    ],
)
def test_a_cuda_library_said_missing_from_a_bundle(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_NMS = "RuntimeError: nms_impl: implementation for device cu\nda:0 not found.\n"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_NMS + "But print(torch.cuda.is_available()) is True.", "cpu-only-build"),
        # the message alone does not say which mmcv build is installed
        (_NMS, "none"),
        # nor does torch without the GPU
        (_NMS + "and print(torch.cuda.is_available()) gives False", "none"),
    ],
)
def test_mmcv_ops_without_cuda_where_torch_sees_the_gpu(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "How do I install mmcv-full on windows? I looked up the wheel index and all the wheels are for manylinux.",
            "python-unsupported",
        ),
        # on a Linux machine the Linux wheels are the ones it needs
        ("All the wheels are for manylinux, which is what my Ubuntu 22.04 box needs, yet the import fails.", "none"),
    ],
)
def test_wheels_said_to_be_for_linux_alone_asked_from_windows(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "The cached ~/.cache/ops/*.so will be compiled for an old version of torch and give a link error on import",
            "extension-torch-mismatch",
        ),
        ("torchvision was compiled against a different torch than the one installed", "companion-mismatch"),
        ("torch 2.10.0 broke torchcodec", "extension-torch-mismatch"),
        ("torch 2.1 broke torchvision", "companion-mismatch"),
        # torch's own build against another CUDA is no extension's; a torch release breaking the user's code neither
        ("PyTorch was compiled against a different CUDA than the toolkit", "none"),
        ("torch 2.6 broke my training script", "none"),
    ],
)
def test_built_for_another_torch_or_broken_by_a_torch_release(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("pip uninstall torch torchaudio\npip3 install --pre torch torchaudio --index-url <nightly/cpu>", "none"),
        # an installer swapping torch out for a companion still is one
        ("installing torchaudio first removes the PyTorch I installed, then reinstalls pytorch", "companion-mismatch"),
    ],
)
def test_the_users_own_uninstall_command_is_no_swap(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_architecture_fix_names_the_newest_build_with_kernels_for_the_gpu(kb: KB) -> None:
    """For a GPU the newest release still carries (an old card a release's newer variants dropped, or a new one), the
    fix names the newest build with its kernels, and the first for reference."""
    builds = _builds_for(kb, (12, 0))
    (first, *_) = explain_text("sm_120 is not compatible with the current PyTorch installation", kb)
    assert f"the newest with kernels for it is {builds[-1][0]}+{builds[-1][1]}" in first.fix
    assert f"the first was {builds[0][0]}+{builds[0][1]}" in first.fix
