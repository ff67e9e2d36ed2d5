"""Round BE's structural changes, one per kind of batch BE's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- CUDA's "driver version is insufficient" on a machine whose GPU is AMD's and no NVIDIA card is named: no NVIDIA driver
  to be old (a ROCm torch handing "cuda" to a library with no HIP backend);
- "cannot import name 'Config' from 'mmcv'" beside "version problem": a Python name another release of the package
  lacks, not its compiled part built for another torch;
- torchvision's missing operator retold ("Could not find the operator torchvision::nms");
- a run on the CPU put down to the torch installed ("running the program on my CPU, since I had the wrong version of
  torch installed").

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_INSUFFICIENT = "CUDA failed with error CUDA driver version is insufficient for CUDA runtime version\n"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_INSUFFICIENT + "GPU: AMD Radeon RX 7900 XTX (24 GB VRAM)", "none"),
        # an NVIDIA card named: its driver is the one CUDA means
        (_INSUFFICIENT + "GPU: NVIDIA GeForce RTX 3060", "driver-too-old"),
    ],
)
def test_driver_insufficient_with_no_nvidia_gpu(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("mmcv\u7248\u672c\u95ee\u9898\nImportError: cannot import name 'Config' from 'mmcv'", "none"),
        # the compiled part failing to import, the version trouble said: still read
        ("mmcv\u7248\u672c\u95ee\u9898\nImportError: cannot import mmcv._ext", "extension-torch-mismatch"),
    ],
)
def test_a_python_name_missing_is_not_the_compiled_part(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("ContextualVersionConflict / Could not find the operator torchvision::nms", "companion-mismatch"),
        # another library's operator: not torchvision's
        ("RuntimeError: Could not find the operator my_ops::nms", "none"),
    ],
)
def test_torchvision_s_operator_retold(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "I ended up running the program on my CPU, since I had the wrong version of torch installed.",
            "cpu-only-build",
        ),
        # no NVIDIA GPU to run on; another package blamed
        (
            "I ended up running the program on my CPU, since I had the wrong version of torch installed; this "
            "MacBook has no NVIDIA GPU.",
            "none",
        ),
        ("Running the model on my CPU is slow, is the wrong version of numpy installed?", "none"),
    ],
)
def test_a_cpu_run_put_down_to_the_torch_installed(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
