"""Round L's structural changes, one per kind of miss in batch L's first measurement (tests/data/explain-corpus/
README.md): libraries' own words for known causes (CUDA errors 36 and 222, nvcc's 'gpu-architecture' option,
flash-attn's nvcc check, uv's build-isolation hint, Poetry's "no installation candidates", IPEX's torch check,
the linker's `-lcuda`, Windows' procedure message in other languages), torchtext as a companion, a program linking
libtorch with the other ABI, Windows' paging file (no missing library), and "i.e." inside a sentence.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.demangle import demangle_one
from envplan.live.diagnose import explain_text
from envplan.live.diagnose.prose import said_in_words
from envplan.live.diagnose.text import Text
from helpers import first_ref


@pytest.mark.parametrize(
    ("log", "ref"),
    [
        ("RuntimeError: CUDA runtime error: API call is not supported in the installed CUDA driver", "driver-too-old"),
        ("CUDA error: the provided PTX was compiled with an unsupported toolchain.", "driver-too-old"),
        ("nvcc fatal   : Value 'sm_90' is not defined for option 'gpu-architecture'", "arch-not-compiled"),
        (
            "RuntimeError: FlashAttention is only supported on CUDA 11.6 and above.  Note: make sure nvcc has a "
            "supported version by running nvcc -V.",
            "toolkit-torch-cuda-mismatch",
        ),
        (
            "hint: This error likely indicates that `mamba-ssm@2.2.4` depends on `torch`, but doesn't declare it as a "
            "build dependency.",
            "build-isolation-missing-torch",
        ),
        ("  | Unable to find installation candidates for torch (2.5.1+cu124)", "python-unsupported"),
        (
            "ERROR! Intel® Extension for PyTorch* needs to work with PyTorch 2.2.*, but PyTorch 2.3.0+cpu is found.",
            "extension-torch-mismatch",
        ),
        (
            "/usr/bin/ld: cannot find -lcuda: No such file or directory\ncollect2: error: ld returned 1",
            "cuda-runtime-missing",
        ),
        ("ImportError: DLL load failed while importing exllamav2_ext: 找不到指定的程序。", "extension-torch-mismatch"),
    ],
)
def test_a_librarys_own_words(kb: KB, log: str, ref: str) -> None:
    assert first_ref(kb, log) == ref


def test_the_nvcc_option_reads_as_nvcc_too_old_or_too_new(kb: KB) -> None:
    old = explain_text("nvcc fatal : Value 'sm_75' is not defined for option 'gpu-architecture'", kb, demangle_one)
    new = explain_text("nvcc fatal : Value 'sm_30' is not defined for option 'gpu-architecture'", kb, demangle_one)
    assert "too old" in old[0].cause and "too new" in new[0].cause


def test_torchtext_is_a_companion(kb: KB) -> None:
    log = (
        "OSError: /env/lib/python3.10/site-packages/torchtext/lib/libtorchtext.so: undefined symbol: "
        "_ZN3c106detail14torchCheckFailEPKcS2_jRKSs"
    )
    found = explain_text(log, kb, demangle_one)
    assert found[0].ref == "companion-mismatch" and "torchtext" in found[0].cause


def test_a_program_linking_libtorch_with_the_other_abi(kb: KB) -> None:
    log = (
        "main.cpp:(.text+0x981): undefined reference to `c10::Error::Error(c10::SourceLocation, std::string const&)'\n"
        "collect2: error: ld returned 1 exit status"
    )
    assert first_ref(kb, log) == "cxx11-abi-mismatch"
    assert first_ref(kb, "undefined reference to `cv::imread(int)'") == "none"  # not torch's


def test_the_paging_file_is_no_missing_library(kb: KB) -> None:
    log = (
        "OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading "
        '"C:\\env\\lib\\site-packages\\torch\\lib\\cudnn_cnn_train64_8.dll" or one of its dependencies.'
    )
    assert first_ref(kb, log) == "none"


def test_ie_does_not_end_a_sentence(kb: KB) -> None:
    words = "the latest PyTorch i.e. 2.3.0 is not compatible with IPEX."
    assert [c.ref for c in said_in_words(Text(words), kb)] == ["extension-torch-mismatch"]
