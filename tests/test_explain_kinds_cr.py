"""Round CR's structural changes, one per kind of batch CR's first-measurement misses its blind reader read right
(tests/data/explain-corpus/README.md):

- torchvision's own warning naming a torch library it cannot open ("Failed to load image Python extension:
  libtorch_cuda_cu.so: cannot open shared object file", pytorch-cpu-feedstock#147): the library failing is
  torchvision's, built for another torch, even where the text never names torchvision;
- "No module named 'torch'" said of a run after the environment was installed ("Can't find this after installing the
  environment", UVR5-UI#34): torch missing where the program runs, no isolated build.

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_GONE = "libtorch_cuda_cu.so: cannot open shared object file: No such file or directory"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (f"UserWarning: Failed to load image Python extension: {_GONE}", "companion-mismatch"),
        # another extension's module failing on the same library
        (
            f'ImportError: {_GONE}\n  File "/opt/env/lib/python3.10/site-packages/mmcv/__init__.py", line 4',
            "extension-torch-mismatch",
        ),
    ],
)
def test_torchvision_s_warning_names_the_library_failing(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("ModuleNotFoundError: No module named 'torch'\nCan't find this after installing the environment", "none"),
        # a pip build of an extension: the isolated build still reads
        (
            "pip install flash-attn\nCollecting flash-attn\n  Getting requirements to build wheel ... error\n"
            "ModuleNotFoundError: No module named 'torch'",
            "build-isolation-missing-torch",
        ),
    ],
)
def test_torch_missing_after_the_environment_was_installed(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
