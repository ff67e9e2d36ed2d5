"""Round AM's structural changes, one per kind of batch AM's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md): CUDA libraries later torch builds link (cuDSS in the Jetson/aarch64 builds
of 2.8, cuFile, NVSHMEM) not found; uv's "has no wheels with a matching Python ABI tag" wrapped over lines; the
driver's NVML library lacking a function torch calls ("Can't find nvmlDeviceGetNvLinkRemoteDeviceType: ...
libnvidia-ml.so.1: undefined symbol"); a companion said to require another torch release ("installing torchtext
requires torch 2.0.1").

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "import torch\nImportError: libcudss.so.0: cannot open shared object file: No such file or directory",
            "cuda-runtime-missing",
        ),
        ("OSError: libcufile.so.0: cannot open shared object file: No such file or directory", "cuda-runtime-missing"),
        ("libcudss.so.0 is installed under /usr/lib/aarch64-linux-gnu and torch imports fine", "none"),
    ],
)
def test_newer_cuda_libraries_not_found(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "  \u00d7 No solution found when resolving dependencies:\n"
            "  ╰─▶ Because only the following versions of torch\n"
            "      are available: torch<=2.4.1\n      and torch>=2.2.0,<=2.4.1 has no wheels with\n"
            "      a matching Python ABI tag (e.g., `cp313`), we can conclude that",
            "python-unsupported",
        ),
        # another package's wheels, torch nowhere in the text
        ("  and mylib>=1.0 has no wheels with\n      a matching Python ABI tag (e.g., `cp313`)", "none"),
    ],
)
def test_uv_no_wheel_for_this_python_wrapped(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "RuntimeError: r.nvmlDeviceGetNvLinkRemoteDeviceType_ INTERNAL ASSERT FAILED at "
            '"../c10/cuda/driver_api.cpp":27\n'
            "Can't find nvmlDeviceGetNvLinkRemoteDeviceType: /lib/x86_64-linux-gnu/libnvidia-ml.so.1: undefined "
            "symbol: nvmlDeviceGetNvLinkRemoteDeviceType",
            "driver-too-old",
        ),
        ("/usr/lib/libnvidia-ml.so.1: undefined symbol: nvmlDeviceGetMemoryInfo_v2", "driver-too-old"),
        ("nvmlDeviceGetCount returns 2, both GPUs are visible", "none"),
    ],
)
def test_the_driver_s_nvml_lacking_a_function(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "It seems that installing torchtext requires torch 2.0.1, even if pip install scgpt does not.",
            "companion-mismatch",
        ),
        ("installing torchvision needs torch 2.1 here", "companion-mismatch"),
        ("installing scgpt requires torch 2.0.1", "none"),
        ("torchvision requires torch, so install it first", "none"),
    ],
)
def test_a_companion_said_to_require_another_torch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
