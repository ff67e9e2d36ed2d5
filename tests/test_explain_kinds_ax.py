"""Round AX's structural changes, one per kind of batch AX's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md):

- THC's header missing in gcc's Chinese words ("fatal error: THC/THC.h: 没有那个文件或目录"): an extension's source
  older than torch 1.11;
- an install said to fail on one Python 3 release and to have worked on an older one, in two sentences ("failing with
  build wheel error in 3.12 ... when I had 3.10 it worked properly");
- made silent: a CUDA device said not found next to cuDNN named ("找不到cuda设备" is no library), and a card newer
  than most torch builds where the text names the torch floor it needs ("PyTorch ≥ 2.7.1").

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("src/ops/iou3d.cpp:5:10: fatal error: THC/THC.h: 没有那个文件或目录", "extension-torch-mismatch"),
        # another header of the project's own
        ("src/ops/iou3d.cpp:5:10: fatal error: iou3d_utils.h: 没有那个文件或目录", "none"),
    ],
)
def test_thc_missing_in_gcc_s_chinese_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "pip install labelapp failing with a build wheel error in python 3.13. Before, when I had 3.11 it "
            "worked fine.",
            "python-unsupported",
        ),
        # the older Python failing and the newer one working is not a missing build for the newer
        ("pip install labelapp failing in python 3.10. When I had 3.12 it worked fine.", "none"),
        # nothing installed: a program's run, not a package's build
        ("the training loop is failing in 3.12. When I had 3.10 it worked fine with python", "none"),
    ],
)
def test_failing_on_a_newer_python_after_working_on_an_older(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("已经安装cuda和cudnn\uff0c但是仍然提示找不到cuda设备", "none"),
        ("已经安装cuda\uff0c但是仍然提示找不到cudnn", "cuda-runtime-missing"),
    ],
)
def test_a_device_not_found_is_no_library(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Support for newer torchvision (needed for my RTX 5090, PyTorch ≥ 2.7.1): NotImplementedError", "none"),
        ("the app is not working with my RTX 5090: NotImplementedError", "arch-not-compiled"),
    ],
)
def test_a_new_card_with_the_torch_floor_named(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
