"""Round CA's structural change, for batch CA's one first-measurement false finding (its blind reader read it right;
tests/data/explain-corpus/README.md):

- "Blackwell" read as the GeForce and RTX PRO cards' sm_120 only where no other Blackwell part is named: Jetson AGX
  Thor (sm_110), SM100 to SM121 named beside it are other parts, whose support is not the GeForce card's.

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("part", "ref"),
    [
        ("Jetson AGX Thor (SM110), a Blackwell device,", "none"),
        ("a GB10 (sm_121) Blackwell part", "none"),
        ("my new Blackwell card", "arch-not-compiled"),
    ],
)
def test_blackwell_beside_another_part(kb: KB, part: str, ref: str) -> None:
    text = f"On {part} the model fails to run: the app's torch is not supported there and it crashes."
    assert_first_ref(kb, text, ref)
