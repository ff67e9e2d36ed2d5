"""Round N's structural changes, one per kind of miss in batch N's first measurement (tests/data/explain-corpus/
README.md): NVRTC's builtins library, the CUDA libraries looked for as a sign the machine wants CUDA, the toolkit
and torch's CUDA said not to match, a binary said to require a newer glibc.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose.prose import said_in_words
from envplan.live.diagnose.text import Text
from helpers import first_ref


def test_nvrtcs_builtins_library(kb: KB) -> None:
    log = "RuntimeError: nvrtc: error: failed to open libnvrtc-builtins.so.11.8.\n  Make sure that it is installed."
    assert first_ref(kb, log) == "cuda-runtime-missing"


def test_a_cpu_build_where_cudas_libraries_were_looked_for(kb: KB) -> None:
    words = "pip install torch gave me the CPU version of torch; pip list shows no cudnn or cublas"
    assert first_ref(kb, words) == "cpu-only-build"
    assert first_ref(kb, "pip install torch gave me the CPU version of torch") == "none"  # nothing wants CUDA


@pytest.mark.parametrize(
    ("words", "ref"),
    [
        ("PyTorch CUDA version and system CUDA version not match", ["toolkit-torch-cuda-mismatch"]),
        ("Pre-built libtorch binaries require glibc 2.29, which breaks RHEL 8", ["glibc-too-old"]),
        ("the NVIDIA driver and the PyTorch CUDA version do not match", ["driver-too-old"]),  # the driver's claim
    ],
)
def test_said_in_words(kb: KB, words: str, ref: list[str]) -> None:
    assert [c.ref for c in said_in_words(Text(words), kb)] == ref
