"""Round J's structural changes, one per kind of miss in batch J's first measurement (tests/data/explain-corpus/
README.md): the driver's age, a GPU architecture or a CUDA library's version said in words; a library's own words
for a known cause (CUDA error 803, torch's "Unknown CUDA arch", bitsandbytes' missing binary, nvJitLink's versioned
entry points); a message quoted and wrapped; the ABI said in words beside an ABI-marked symbol; and a named card that
the named build's architecture list leaves out.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.demangle import demangle_one
from envplan.live.diagnose import explain_text
from envplan.live.diagnose.prose import said_in_words
from envplan.live.diagnose.text import Text, unquoted
from helpers import first_ref


@pytest.mark.parametrize(
    ("words", "ref"),
    [
        ("My graphics driver is too old for CUDA 12, so torch cannot use the GPU.", "driver-too-old"),
        ("低版本的显卡驱动装不了CUDA 11", "driver-too-old"),
        ("the NVIDIA driver version does not match the CUDA that PyTorch was built with", "driver-too-old"),
        ("I hit a compute capability mismatch: sm_61 is incompatible with this wheel", "arch-not-compiled"),
        ("推理报错,排查下来是cuDNN版本不匹配", "cuda-runtime-missing"),
    ],
)
def test_a_cause_said_in_words(kb: KB, words: str, ref: str) -> None:
    assert [c.ref for c in said_in_words(Text(words), kb)] == [ref]


@pytest.mark.parametrize(
    "words",
    [
        "Failed to initialize NVML: Driver/library version mismatch",  # the kernel module vs libnvidia-ml: a reboot
        "CUDNN_STATUS_ARCH_MISMATCH when running in half precision",  # a status code, not a version
        "nvcc 11.0 cannot target sm_90: a toolkit mismatch",  # the toolkit's claim
        "my printer driver is too old",  # no GPU in sight
    ],
)
def test_what_only_looks_like_those_claims(kb: KB, words: str) -> None:
    assert [c.ref for c in said_in_words(Text(words), kb)] == []


@pytest.mark.parametrize(
    ("log", "ref", "said"),
    [
        (
            "Error 803: system has unsupported display driver / cuda driver combination",
            "driver-too-old",
            "error 803",
        ),
        ("ValueError: Unknown CUDA arch (8.9) or GPU not supported", "arch-not-compiled", "(8.9)"),
        (
            "CUDA SETUP: Required library version not found: libbitsandbytes_cuda124.so. Maybe you need to compile it",
            "extension-torch-mismatch",
            "CUDA 12.4",
        ),
        (
            "ImportError: libcuda_parallel.so: undefined symbol: __nvJitLinkCreate_12_8",
            "cuda-runtime-missing",
            "CUDA 12.8",
        ),
    ],
)
def test_a_librarys_own_words(kb: KB, log: str, ref: str, said: str) -> None:
    found = explain_text(log, kb, demangle_one)
    assert found[0].ref == ref and said in found[0].cause, [(d.ref, d.cause) for d in found]


def test_a_quoted_message_that_wraps_reads_as_one(kb: KB) -> None:
    log = (
        "> RuntimeError:\n> The detected CUDA version (12.9) mismatches the version that was used to compile\n"
        "> PyTorch (11.8). Please make sure to use the same CUDA versions."
    )
    found = explain_text(log, kb, demangle_one)
    assert found[0].ref == "toolkit-torch-cuda-mismatch" and "12.9" in found[0].cause
    assert found[0].evidence in log
    assert unquoted(">>> import torch\n> quoted") == ">>> import torch\n  quoted"  # a prompt is no quote


def test_the_abi_said_in_words_decides_an_abi_marked_symbol(kb: KB) -> None:
    log = (
        "ImportError: libOpenMMTorch.so: undefined symbol: "
        "_ZN5torch3jit4loadERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEN3c108optionalINS9_6DeviceEEE\n"
        "installed from conda-forge"
    )
    assert first_ref(kb, log) == "extension-torch-mismatch"  # conda-forge's torch uses the cxx11 ABI: version skew
    assert first_ref(kb, "Conda build with pre-cxx11 ABI\n" + log) == "cxx11-abi-mismatch"
    assert first_ref(kb, log + "\ng++ -D_GLIBCXX_USE_CXX11_ABI=1 -c x.cpp") == "extension-torch-mismatch"


def test_a_named_card_the_named_build_leaves_out(kb: KB) -> None:
    log = "GTX 1070, PyTorch 2.8.0 + cu129: a kernel error at startup"  # cu129 wheels of 2.8 start at sm_70
    found = explain_text(log, kb, demangle_one)
    assert found[0].ref == "arch-not-compiled" and "sm_61" in found[0].cause
    assert "torch==2.8.0" in found[0].fix and "whl/cu126" in found[0].fix  # the same release, a variant that runs
    assert first_ref(kb, log.replace("cu129", "cu126")) == "none"  # cu126 carries sm_60, whose cubins run on sm_61
    assert first_ref(kb, log.replace("GTX 1070", "RTX 4090")) == "none"
    assert first_ref(kb, "GTX 1070, PyTorch 2.8.0 + cu129, training runs fine") == "none"  # nothing failed
