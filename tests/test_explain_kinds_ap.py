"""Round AP's structural changes, one per kind of batch AP's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md), and two made silent where it named nothing:

- megablocks in envplan/kb/build_imports_torch.toml (read from its PyPI sdists: setup.py imports torch, 0.6.1 on pin
  a torch in pyproject.toml), and "undefined symbol" without the symbol next to a compiled extension the KB knows on
  the same line ("Pytorch 2.5.0 + Megablocks undefined symbol error");
- pip's torch range read by its lower bound ("torch<3.0.0,>=2.3.0 (from versions: 2.2.0, 2.2.1, 2.2.2)": 2.3.0 is a
  real release this platform does not get), where the first number (3.0.0, never released) used to make it silent;
- an undefined symbol outside torch whose signature takes the pre-C++11 std::string ("...GetOperationByNameERKSs"):
  the caller and the library were built with different _GLIBCXX_USE_CXX11_ABI settings;
- made silent: a CUDA library missing where the text says the GPU is AMD's ("Running on amd gpu", a CUDA build of a
  package), and conda's cpuonly said not respected (the user wanted the CPU build, a CUDA one came).

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref

_PIP = "ERROR: Could not find a version that satisfies the requirement "


def test_megablocks_build_imports_torch(kb: KB) -> None:
    assert kb.build_imports_torch["megablocks"] == "varies"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Pytorch 2.5.0 + Megablocks undefined symbol error", "extension-torch-mismatch"),
        ("mamba_ssm: undefined symbol when importing after the upgrade", "extension-torch-mismatch"),
        # no extension on the line: nothing says whose library fails
        ("undefined symbol error after the update\nI use megablocks and torch 2.5", "none"),
    ],
)
def test_undefined_symbol_next_to_a_known_extension(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_extension_s_rebuild_is_named(kb: KB) -> None:
    (found, *_) = explain_text("Pytorch 2.5.0 + Megablocks undefined symbol error", kb)
    assert "megablocks" in found.cause and "--force-reinstall megablocks" in found.fix, found.fix


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (f"{_PIP}torch<3.0.0,>=2.3.0 (from versions: 2.2.0, 2.2.1, 2.2.2)", "python-unsupported"),
        # a lower bound no torch release has: a typo, not the platform
        (f"{_PIP}torch<3.0.0,>=2.30.0 (from versions: 2.2.0, 2.2.1, 2.2.2)", "none"),
    ],
)
def test_a_torch_range_is_read_by_its_lower_bound(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "import mindie_turbo: ImportError: libmindie.so: undefined symbol: "
            "_ZNK6AsdOps3Ops18GetOperationByNameERKSs",
            "cxx11-abi-mismatch",
        ),
        # no std::string at all: the library's own version
        ("ImportError: libfoo.so: undefined symbol: _ZN3foo3barEv", "none"),
    ],
)
def test_a_library_outside_torch_asked_for_the_old_abi_string(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Missing wheels on pypi for hip\nRunning on amd gpu with pip installed package gives the following error:\n"
            "OSError: libnvrtc.so.12: cannot open shared object file: No such file or directory",
            "none",
        ),
        (
            "Running on an NVIDIA RTX 4090:\nOSError: libnvrtc.so.12: cannot open shared object file: No such file or "
            "directory",
            "cuda-runtime-missing",
        ),
    ],
)
def test_a_cuda_library_on_an_amd_gpu(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Mamba does not respect Pytorch's cpuonly\nthis installs both cpuonly and cudatoolkit (and a Pytorch "
            "that depends on CUDA)",
            "none",
        ),
        ("conda installs the cpuonly build\ntorch.cuda.is_available() returns False on my RTX 3090", "cpu-only-build"),
    ],
)
def test_cpuonly_said_not_respected(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
