"""Round AK's structural changes, one per kind of batch AK's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md): triton said in words not to be supported on Windows ("CogAgent now
requires triton, which not supported on Windows"); torchvision's operator missing, retold on a line naming
torchvision ("I got no operator nms Exception when calling torchvision.nms").

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("The app now requires triton, which not supported on Windows.", "python-unsupported"),
        ("triton doesn't support Windows, so the install stops on my Windows 11 PC", "python-unsupported"),
        ("Triton is not available for Windows: use triton-windows", "python-unsupported"),
        # said of Linux, or with no platform at all: no Windows wheel is the question
        ("triton is not supported on this GPU", "none"),
        ("The kernel is written in triton; it runs on Linux and Windows alike", "none"),
    ],
)
def test_triton_said_not_to_support_windows(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "What's your torchvision version? I got no operator nms Exception when calling torchvision.nms",
            "companion-mismatch",
        ),
        ("torchvision 0.6.0: RuntimeError: no operator nms", "companion-mismatch"),
        # another library's nms (mmcv's, a repo's own op) is not torchvision's
        ("mmcv._ext: no operator nms registered for this build", "none"),
        ("no operator nms in my_ops; rebuilt it", "none"),
    ],
)
def test_torchvision_s_operator_missing_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
