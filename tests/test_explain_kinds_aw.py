"""Round AW's structural changes, one per kind of batch AW's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md):

- the HIP SDK's DLLs on Windows not found, as ZLUDA and torch's ROCm builds for Windows load them ("Could not find
  module '...\\rocblas.dll'", "hiprtc0507.dll was not found"), and torch's caffe2_nvrtc.dll said "not found";
- librocdxg (ROCm's bridge to WSL's /dev/dxg) missing, with ROCm's other libraries;
- uv's hint that a URL dependency's wheel is for another CPython ("The wheel is compatible with CPython 3.10
  (`cp310`), but you're using CPython 3.11 (`cp311`)");
- made silent: pytorch-triton-rocm (served by PyTorch's index, not PyPI past 2.1.0) not found as a +rocm torch asks
  for it: the index is missing from the command.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            r"Failed to load ZLUDA: Could not find module 'C:\ComfyUI\venv\Scripts\hipblaslt.dll' (or one of its "
            "dependencies). Try using the full path with constructor syntax.",
            "cuda-runtime-missing",
        ),
        ("The code execution cannot continue because amdhip64_6.dll was not found.", "cuda-runtime-missing"),
        ("Error OS: File caffe2_nvrtc.dll not found.", "cuda-runtime-missing"),
        ("Cannot load librocdxg.so, failed:librocdxg.so: cannot open shared object file", "cuda-runtime-missing"),
        # a DLL of another project's
        (r"Could not find module 'C:\tools\ffmpeg\avcodec-61.dll' (or one of its dependencies).", "none"),
    ],
)
def test_hip_and_rocm_libraries_not_found(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_hip_finding_names_the_dll(kb: KB) -> None:
    first = explain_text("hiprtc0507.dll was not found", kb)[0]
    assert "hiprtc0507.dll" in first.cause and "HIP SDK" in first.fix


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "error: Failed to determine installation plan\n  Caused by: A URL dependency is incompatible with the "
            "current platform: https://example.org/whl/torch_scatter-2.1.2-cp312-cp312-linux_x86_64.whl\n\nhint: The "
            "wheel is compatible with CPython 3.12 (`cp312`), but you're using CPython 3.13 (`cp313`)",
            "python-unsupported",
        ),
        # uv's hint about a platform, not a Python
        (
            "hint: The wheel is compatible with Linux (`manylinux_2_28_x86_64`), but you're on macOS "
            "(`macosx_14_0_arm64`)",
            "none",
        ),
    ],
)
def test_uv_s_url_wheel_for_another_python(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ERROR: Could not find a version that satisfies the requirement pytorch-triton-rocm==3.1.0 (from "
            "torch==2.5.1+rocm6.2) (from versions: 0.0.1, 2.0.0, 2.0.1, 2.1.0)\nPython 3.11",
            "none",
        ),
        # another package's exact pin that pip does not offer, the interpreter stated: no build for it
        (
            "ERROR: Could not find a version that satisfies the requirement kaolin==0.18.0 (from versions: 0.1)\n"
            "Python 3.11",
            "python-unsupported",
        ),
    ],
)
def test_pytorch_s_own_index_dependency_not_on_pypi(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
