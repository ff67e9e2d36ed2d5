"""Round AS's structural changes, one per kind of batch AS's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md):

- NVIDIA's placeholder packages on PyPI (nvidia-dali-*, cudf-cu12: "nvidia_stub.error.InstallFailedError", "This is a
  special placeholder package which downloads a real wheel package from https://pypi.nvidia.com") failing on a
  platform the text names: NVIDIA's index has no wheel of it there;
- a wheel refused in a title cut short ("... is not a supported wheel on this platf");
- pip finding nothing of a package another asks for ("piper-phonemize~=1.1.0 (from piper-tts) (from versions:
  none)"), on "win 11";
- a package said not to work with a Python ("doesn't work with comfyUI embedded Python version 3.13");
- torch said downloaded without GPU support ("did not download correctly (by default, without gpu support)"), not a
  library's own "compiled without GPU support".

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref

_STUB = (
    "      nvidia_stub.error.InstallFailedError:\n      The installation of nvidia-dali-cuda110 for version 1.37.1 "
    "failed.\n\n      This is a special placeholder package which downloads a real wheel package\n      from "
    "https://pypi.nvidia.com. If https://pypi.nvidia.com is not reachable, we\n      cannot download the real wheel "
    "file to install.\n      Python Version: CPython 3.8.19\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_STUB + "      Operating System: Windows 10\n      CPU Architecture: AMD64\n", "python-unsupported"),
        # no platform named: the stub's own words allow an unreachable index too
        (_STUB, "none"),
    ],
)
def test_nvidia_s_placeholder_without_a_wheel(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ERROR: causal_conv1d-1.5.0.post8+cu129torch2.7.0-cp312-cp312-win_amd64.whl is not a supported wheel on "
            "this platf",
            "python-unsupported",
        ),
        # a wheel renamed by hand: its name is the trouble
        ("ERROR: flash_attn-2.6.3-py311-cp311-win_amd64.whl is not a supported wheel on this platf", "none"),
    ],
)
def test_a_refused_wheel_cut_short(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_PHONEMIZE = (
    "ERROR: Could not find a version that satisfies the requirement piper-phonemize~=1.1.0 (from piper-tts) (from "
    "versions: none)\nERROR: No matching distribution found for piper-phonemize~=1.1.0"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (f"try install on win 11 vscode\npip3 install -q piper-tts==1.2.0\n{_PHONEMIZE}", "python-unsupported"),
        # neither platform nor Python: a package missing from the index says the same
        (f"pip3 install -q piper-tts==1.2.0\n{_PHONEMIZE}", "none"),
    ],
)
def test_nothing_found_of_what_another_package_asks(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("ComfyUi-3D-Pack doesn't work with comfyUI embedded Python version 3.13", "python-unsupported"),
        ("the node doesn't work with my python script anymore", "none"),
    ],
)
def test_a_package_said_not_to_work_with_a_python(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Compatible with 50xx series gpu\nwhen installing on a 50xx series gpu, the pytorch versions did not "
            "download correctly (by default, without gpu support).",
            "cpu-only-build",
        ),
        (
            "UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers "
            "and GPU quantization are unavailable.",
            "none",
        ),
    ],
)
def test_torch_downloaded_without_gpu_support(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_a_package_other_than_torch_said_to_have_no_build_is_not_called_torch(kb: KB) -> None:
    """The words-only reading names the package's build, not torch's, when the line names another package."""
    # (a wheel's build failing, "Cannot build wheel for torchmcubes", is a compile error since round CA: torchmcubes#25
    # was settled as one)
    (found, *_) = explain_text("Failed to install on Windows: there is no wheel for torchmcubes", kb)
    assert found.ref == "python-unsupported" and "torch build" not in found.cause, found.cause
    (found, *_) = explain_text("torch doesn't have a wheel for python 3.13 on windows", kb)
    assert "torch build" in found.cause, found.cause
