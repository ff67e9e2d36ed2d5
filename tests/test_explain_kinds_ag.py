"""Changes of the session that collected batch AG (tests/data/explain-corpus/README.md).

Before the batch was measured, from the whole corpus's first-measurement misses that a blind reader named right: pip
offering only releases newer than an exact pin of a package other than torch, with no Python stated
("onnxruntime-gpu==1.16.3 (from versions: 1.17.0, 1.17.1, ...)", also with the package that asks it in between): the
old release has no file this interpreter or platform installs. A card and a CUDA too old to compile for any
architecture of its generation, both said with words that it fails ("My RTX 5090 with CUDA 12.4 doesn't work"); "doesn't
work" is now a failing word for the card readings. A kernel's own check of the architectures it has code for
(FlashAttention's "Expected is_sm8x || is_sm75 to be true, but got false").

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_PIP = "ERROR: Could not find a version that satisfies the requirement "


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_PIP + "onnxruntime-gpu==1.16.3 (from versions: 1.17.0, 1.17.1, 1.18.0, 1.19.2)", "python-unsupported"),
        (
            _PIP + "pedalboard==0.7.4 (from stable-audio-tools) (from versions: 0.8.2, 0.8.3, 0.8.4)",
            "python-unsupported",
        ),
        # two offers, or a pin inside the range offered: a yanked, deleted or typo'd release says the same
        (_PIP + "monotonic-align==0.0.3 (from versions: 1.0.0, 1.0.1)", "none"),
        (_PIP + "somepkg==1.2.5 (from versions: 1.0.0, 1.2.0, 1.3.0, 1.4.0)", "none"),
        (_PIP + "somepkg==2.5 (from versions: 1.0.0, 1.2.0, 1.3.0, 1.4.0)", "none"),
    ],
)
def test_an_old_pin_below_every_release_offered(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("My RTX 5090 with CUDA 12.4 doesn't work", "arch-not-compiled"),
        ("H100 + cuda11.7: training fails at the first step", "arch-not-compiled"),
        # sm_89 runs the sm_86 code CUDA 11.7 compiles: a cubin runs on the later GPUs of its own major
        ("RTX 4090, cuda 11.7: the code does not work", "none"),
        ("My RTX 5090 with CUDA 12.4 runs out of memory", "none"),  # another failure named
        # the KB has no toolkit rows before CUDA 11.0: whether 10.1 compiles any sm_8x is not in its data
        ("RTX 3090 with Cuda10.1 does not work", "none"),
    ],
)
def test_a_card_newer_than_the_cuda_said(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("RuntimeError: Expected is_sm8x || is_sm75 to be true, but got false.", "arch-not-compiled"),
        ("RuntimeError: Expected is_sm90 || is_sm8x to be true, but got false", "arch-not-compiled"),
        ("RuntimeError: Expected q.is_contiguous() to be true, but got false", "none"),  # another check of the kernel
    ],
)
def test_a_kernels_own_architecture_check(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
