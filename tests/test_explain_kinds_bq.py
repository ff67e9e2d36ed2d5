"""Round BQ's structural changes, one per kind of batch BQ's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- torch said not to support a named NVIDIA card ("I have a Geforce GT 730 graphics card that uses CUDA version 3.5,
  but pyTorch does not support this version of CUDA"): the builds carry no kernels for it;
- CUDA's "driver version is insufficient" on a machine said to have no GPU ("I run the demo with a CPU only computer"):
  there is no NVIDIA driver to be too old.

Each kind has a text it must stay silent on. The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "I have a Geforce GT 730 graphics card that uses CUDA version 3.5, but pyTorch does not support it",
            "arch-not-compiled",
        ),
        ("PyTorch doesn't support my Tesla K40m anymore, so training falls back to the CPU", "arch-not-compiled"),
        # torch not supporting the Python, or the driver, on a machine that has the card: not the card's kernels
        ("PyTorch doesn't support Python 3.13 yet on my RTX 4090 box", "python-unsupported"),
        ("pytorch does not support my GTX 1080 setup, the NVIDIA driver is too old", "driver-too-old"),
        ("torchvision does not support my RTX 3090", "none"),
    ],
)
def test_torch_said_not_to_support_a_named_card(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_INSUFFICIENT = "CUDA driver version is insufficient for CUDA runtime version"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (f"I run the demo with a CPU only computer and get\n{_INSUFFICIENT}", "none"),
        (f"RuntimeError: {_INSUFFICIENT}", "driver-too-old"),
        # the CPU chosen on a machine with a GPU ("it runs with --cpu") leaves the driver the reason
        (f"RuntimeError: {_INSUFFICIENT}\nIt runs with --cpu, but slowly.", "driver-too-old"),
        # an old Mac had an NVIDIA card and CUDA's driver for it: the Mac alone is not a machine without a GPU
        (f"CUDA driver version is insufficient on mac\n{_INSUFFICIENT}\nOS X Yosemite 10.10.5", "driver-too-old"),
    ],
)
def test_the_driver_said_insufficient_on_a_machine_without_a_gpu(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
