"""Round BF's structural changes, one per kind of batch BF's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- an Intel Mac said in words ("any mac running on Intel CPU") with a torch minor asked bare ("install torch 2.6."),
  which the KB says has no macOS x86_64 wheels;
- a CPU build said of the torch installed ("the version of pytorch installed was cpu only");
- a package's support said to stop below the interpreter ("only supports up to 3.8, while you're using Python 3.9");
- cuFFTW's DLL failing to load (cufftw64_11.dll), its wheel being cuFFT's;
- pip's pin after other clauses of the specifier ("onnxruntime<=1.8.0,==1.8.0"), and a pin older than two offers
  (one offer still says too little);
- a mismatch of torch and conda's cudatoolkit said while building an extension ("the dismatch version of pytorch and
  cudatoolkit"): the toolkit's side, not the extension's.

Made silent: pip finding no conda package (pytorch-cuda, cudatoolkit) on a platform: a conda requirement handed to
pip, not a platform without wheels. The texts are written for the tests (the kind, not a report's wording); each kind
has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref

_PIP_NONE = "ERROR: Could not find a version that satisfies the requirement "


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Any mac running on Intel CPU will not be able to install torch 2.6. It needs to go down to 2.2.",
            "python-unsupported",
        ),
        # a release Intel Macs have wheels of
        ("Any mac running on Intel CPU will be able to install torch 2.2 with pip.", "none"),
    ],
)
def test_an_intel_mac_said_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("When following the course instructions, the version of pytorch installed was cpu only.", "cpu-only-build"),
        ("When following the course instructions, the version of pytorch installed was 2.1.", "none"),
    ],
)
def test_the_torch_installed_said_to_be_cpu_only(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Can you provide gym_39.so? The gym only supports up to 3.8, while you're using Python 3.9.",
            "python-unsupported",
        ),
        ("The gym only supports up to 3.8, and I am using Python 3.8.", "none"),
    ],
)
def test_support_said_to_stop_below_the_interpreter(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_cufftw_is_a_cuda_library_in_cuffts_wheel(kb: KB) -> None:
    text = "OSError: [WinError 127] The specified procedure could not be found. Error loading cufftw64_11.dll"
    found = explain_text(text, kb)
    assert found and found[0].ref == "cuda-runtime-missing"
    assert "nvidia-cufft-cu" in found[0].fix and "nvidia-cufftw" not in found[0].fix


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            _PIP_NONE + "onnxruntime<=1.8.0,==1.8.0 (from kobert) (from versions: 1.12.0, 1.12.1, 1.13.1)",
            "python-unsupported",
        ),
        (_PIP_NONE + "onnxruntime==1.10.0 (from versions: 1.12.0, 1.12.1)", "python-unsupported"),
        # a pin inside the range offered, and a pin against a single offer: a yanked or mistyped release as likely
        (_PIP_NONE + "dgl==0.4.3 (from versions: 0.1.0, 0.6.0, 0.9.0)", "none"),
        (_PIP_NONE + "monotonic-align==0.0.3 (from versions: 1.0.0)", "none"),
    ],
)
def test_a_pin_older_than_every_offer(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "when install apex, i face the problem of the dismatch version of pytorch and cudatoolkit",
            "toolkit-torch-cuda-mismatch",
        ),
        # the extension itself against torch
        (
            "when install apex, i face the problem of the dismatch version of pytorch and apex",
            "extension-torch-mismatch",
        ),
    ],
)
def test_torch_and_cudatoolkit_said_not_to_match(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "C:\\AI\\app>pip install -r requirements.txt\n" + _PIP_NONE + "pytorch-cuda==11.8 (from versions: none)",
            "none",
        ),
        # a package PyPI has, none for the platform: still read
        (
            "C:\\AI\\app>pip install -r requirements.txt\n" + _PIP_NONE + "triton==2.1.0 (from versions: none)",
            "python-unsupported",
        ),
    ],
)
def test_a_conda_package_asked_of_pip(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
