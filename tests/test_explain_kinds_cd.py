"""Round CD's structural change, for batch CD's one first-measurement miss its blind reader read right
(tests/data/explain-corpus/README.md):

- Windows' "procedure not found" for a bare `_C`, retold in English from the Chinese message ("The specified program
  could not be found"), under a traceback through a compiled package's installed files: that package's own module,
  built for another torch (pytorch3d#1792); torch's own files in the traceback are torch's own _C.

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_TRACE = (
    "Traceback (most recent call last):\n"
    '  File "E:\\work\\main.py", line 15, in <module>\n'
    '  File "D:\\conda\\envs\\py\\lib\\site-packages\\{pkg}\\io\\__init__.py", line 8, in <module>\n'
)


@pytest.mark.parametrize(
    ("pkg", "message", "ref"),
    [
        ("pytorch3d", "The specified program could not be found.", "extension-torch-mismatch"),
        ("pytorch3d", "The specified procedure could not be found.", "extension-torch-mismatch"),
        ("torch", "The specified program could not be found.\n(from torch._C import *)", "none"),
        ("pytorch3d", "The specified module could not be found.", "none"),
    ],
)
def test_bare_c_under_a_compiled_package(kb: KB, pkg: str, message: str, ref: str) -> None:
    text = _TRACE.format(pkg=pkg) + f"ImportError: DLL load failed while importing _C: {message}"
    assert_first_ref(kb, text, ref)
