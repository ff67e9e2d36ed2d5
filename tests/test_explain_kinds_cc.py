"""Round CC's structural changes, one per kind of batch CC's first-measurement misses its blind readers read right
(tests/data/explain-corpus/README.md):

- DeepSpeed's own check of the torch its installed ops were compiled with ("PyTorch version mismatch! DeepSpeed ops
  were compiled and installed with a different version ... Install torch version=2.1, Runtime torch version=2.2");
- mmcv 1.x's words for ops built without CUDA ("nms is not compiled with GPU support"), and the package said to have
  been built on a machine without a GPU (then run on one with a GPU);
- conda's cudatoolkit and the CUDA (nvcc) that compiles said to need to be consistent, in a build.

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.demangle import demangle_one
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref

_DEEPSPEED = (
    "RuntimeError: PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different version than "
    "what is being used at runtime. Please re-install DeepSpeed or switch torch versions. Install torch version=2.1, "
    "Runtime torch version=2.2"
)


def test_deepspeed_ops_check_names_both_torches(kb: KB) -> None:
    first = explain_text(f"text-gen bumped torch and DeepSpeed complains:\n{_DEEPSPEED}", kb, demangle_one)[0]
    assert first.ref == "extension-torch-mismatch"
    assert "torch 2.1" in first.cause
    assert "2.2" in first.cause


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_DEEPSPEED.split(" Please", maxsplit=1)[0], "extension-torch-mismatch"),
        ("DeepSpeed ops were compiled and installed with care; the run stops at step 3 with a NaN loss.", "none"),
    ],
)
def test_deepspeed_ops_check(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("If there is no GPU at install time, the image fails on the GPU server.", "cpu-only-build"),
        ("I built it on a machine without a GPU, then ran the image on the GPU server.", "cpu-only-build"),
        ("I have no GPU on this laptop.", "none"),
    ],
)
def test_mmcv_ops_built_without_a_gpu(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(
        kb, f"MMCV_WITH_OPS=1 pip install -e . {said}\nRuntimeError: nms is not compiled with GPU support", ref
    )


def test_mmcv_ops_built_without_a_gpu_in_chinese(kb: KB) -> None:
    text = (
        "\u5982\u679c\u5b89\u88c5\u65f6\u6ca1\u6709 GPU\uff0c\u5219\u955c\u50cf\u653e\u5230 GPU "
        "\u670d\u52a1\u5668\u4e0a\u8fd0\u884c\u65f6\u4f1a\u51fa\u73b0\u5f02\u5e38\nRuntimeError: nms is not "
        "compiled with GPU support"
    )
    first = explain_text(text, kb, demangle_one)[0]
    assert first.ref == "cpu-only-build"
    assert "without a GPU" in first.cause


@pytest.mark.parametrize(
    ("title", "ref"),
    [
        (
            "Check out the version consistency between cudatoolkit and cuda before compiling tools",
            "toolkit-torch-cuda-mismatch",
        ),
        ("Check out the version consistency between cudatoolkit and cuda before running the demo", "none"),
        ("Check out the free disk space before compiling tools", "none"),
    ],
)
def test_cudatoolkit_and_cuda_consistency(kb: KB, title: str, ref: str) -> None:
    assert_first_ref(kb, f"{title}\nIt keeps printing 'error in deformable_col2im' during training.", ref)
