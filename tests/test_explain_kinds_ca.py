"""Round CA's structural change, for batch CA's one first-measurement false finding (its blind reader read it right;
tests/data/explain-corpus/README.md):

- "Blackwell" read as the GeForce and RTX PRO cards' sm_120 only where no other Blackwell part is named: Jetson AGX
  Thor (sm_110), SM100 to SM121 named beside it are other parts, whose support is not the GeForce card's;
- and, from the whole corpus's false findings its readers left silent: a wheel's build failing on a platform ("Unable
  to build the wheel on windows") is a compile error, not a platform without wheels (torbi#6, torchmcubes#25,
  hallo#25: each settled as a fix to the build).

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


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Unable to build the wheel on windows: error C2664 in the extension's source", "none"),
        ("Could not build wheels for insightface (on Windows)", "none"),
        ("there are no wheels for windows of this package, so pip cannot install it", "python-unsupported"),
    ],
)
def test_a_wheel_failing_to_build_is_no_missing_wheel(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
