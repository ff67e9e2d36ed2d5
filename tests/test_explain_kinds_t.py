"""Round T's structural changes, one per kind of miss in batch T's first measurement (tests/data/explain-corpus/
README.md): torch's toolkit check cut before "PyTorch" (and before "detected"), torch said missing from a package's
build in words.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import first_ref


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError CUDA version (12.0) mismatches the version that was used to compile",
        "The detected CUDA version (11.8) mismatches the version that was used to compile",
    ],
)
def test_torchs_toolkit_check_cut_short(kb: KB, line: str) -> None:
    assert first_ref(kb, line) == "toolkit-torch-cuda-mismatch"


@pytest.mark.parametrize(
    ("words", "ref"),
    [
        ("torch missing when running setup.py of the extension", "build-isolation-missing-torch"),
        (
            "pip install -r requirements.txt compiles the op before pytorch is installed (setup.py)",
            "build-isolation-missing-torch",
        ),
        ("torch missing from my training script's output", "none"),  # no package build in the text
    ],
)
def test_torch_said_missing_from_a_packages_build(kb: KB, words: str, ref: str) -> None:
    assert first_ref(kb, words) == ref
