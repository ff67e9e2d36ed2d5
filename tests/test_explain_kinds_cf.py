"""Round CF's structural changes, one per kind of batch CF's first-measurement misses its blind reader read right
(tests/data/explain-corpus/README.md):

- torch's own driver message with a found version, beside a newer card named elsewhere ("the Blackwell note" in a
  pull request about T4 hosts): torch measured the driver's CUDA, so the driver stays the cause (faster-qwen3-tts#113);
- undefined symbols said to go once torch is imported first ("The error disappear when I add `import torch` before
  `import torch_extension`", lufficc/SSD#125): the import order, not a build for another torch;
- a Python C-API symbol missing from torch's own `libtorch_python.so` named alone (Python 3.5.0, pytorch#24883): torch
  built for another Python build; still silent where a separate libtorch download's folder shows (pytorch#62650);
- a package's wheels said to be "only for cp313", Python 3.14 asked (cuEquivariance#226);
- a Python said too new for the torch asked for ("3.11 is too new for requested pytorch version",
  simple-llm-finetuner#9);
- builds said not to be available for Alpine beside torch (pyro-engine#25);
- pip's "not a supported wheel on this platform" retold after prebuilt wheels (xformers_wheels#2);
- a pinned package said not to be found for a platform ("`torchao==0.3.1` can't be found for mac platform",
  torchtune#1572).

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_DRIVER = (
    "UserWarning: CUDA initialization: The NVIDIA driver on your\nsystem is too old (found version {found}).\n"
    "AssertionError: CUDA not available"
)


@pytest.mark.parametrize(
    ("found", "ref"),
    [
        ("12040", "driver-too-old"),  # a 12.4 driver cannot run a Blackwell card: the card is not this machine's
        ("12080", "driver-too-old"),  # a 12.8 driver could: torch still measured it older than its CUDA
    ],
)
def test_driver_message_beside_a_newer_card_named(kb: KB, found: str, ref: str) -> None:
    text = (
        "docs: T4 setup. The README gets a driver note beside the Blackwell note, with the wheel command for CUDA 12.4 "
        f"drivers.\n{_DRIVER.format(found=found)}"
    )
    assert_first_ref(kb, text, ref)


def test_card_newer_than_cuda_still_read_without_a_found_version(kb: KB) -> None:
    text = (
        "RTX 5090 in a container whose base image is CUDA 12.2: it fails.\n"
        "RuntimeError: CUDA driver version is insufficient for CUDA runtime version"
    )
    assert_first_ref(kb, text, "arch-not-compiled")


_SYMBOLS = (
    "I have encountered undefined symbol error twice.\n"
    "`undefined symbol: _ZN2at19UndefinedTensorImpl10_singletonE` in my_ops.cpython-38-x86_64-linux-gnu.so\n"
)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("The error disappear when I add `import torch` before `import my_ops`.", "none"),
        ("Adding import torch first fixes it.", "none"),
        ("It started after I upgraded torch to 2.1.", "extension-torch-mismatch"),
    ],
)
def test_undefined_symbol_gone_with_torch_imported_first(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, _SYMBOLS + said, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "libtorch_python.so: undefined symbol: _PyThreadState_UncheckedGet\nPytorch 1.2, python 3.5.0.",
            "python-unsupported",
        ),
        (
            "Error while importing torch: libtorch_python.so: undefined symbol: PyThread_tss_alloc\n"
            "ImportError: /home/me/libtorch/lib/libtorch_python.so: undefined symbol: PyThread_tss_alloc",
            "none",
        ),
    ],
)
def test_python_symbol_missing_from_torchs_own_library(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("asked", "ref"),
    [("Any plan to release a cp314 version for Python 3.14?", "python-unsupported"), ("Thanks!", "none")],
)
def test_wheels_said_only_for_one_python(kb: KB, asked: str, ref: str) -> None:
    text = f"Right now, the wheels available on PyPi for cuequivariance-ops-torch-cu12 are only for cp313.\n{asked}"
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("3.10 should be used since 3.11 is too new for requested pytorch version", "python-unsupported"),
        ("3.11 is too new for my taste, but the pytorch version installs", "none"),
    ],
)
def test_python_said_too_new_for_torch(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"Document the conda setup: {said}.\n$ conda install -y pytorch=1.13.1 -c pytorch", ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "builds of the requirements seem not to be available for the alpine docker image (opencv, torch)",
            "python-unsupported",
        ),
        ("the alpine docker image is small; torch installs from its requirements", "none"),
    ],
)
def test_builds_unavailable_for_alpine(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"Dockerfile: switch to a slim image. Some {said}.", ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("Now I'm getting an error that it's not supported by the platform.", "python-unsupported"),
        ("Now I'm getting an error that the model file is missing.", "none"),
    ],
)
def test_wheel_refusal_retold(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"Your precompiled xformers wheels worked fine on Google Colab until today.\n\n{said}", ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("as `torchao==0.3.1` can't be found for mac platform", "python-unsupported"),
        ("as `torchao==0.3.1` can't be found in my notes", "none"),
    ],
)
def test_pin_not_found_for_a_platform(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"The installation of torchtune 0.2.1 doesn't complete {said}.", ref)
