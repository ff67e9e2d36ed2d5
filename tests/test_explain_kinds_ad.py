"""Round AD's structural changes. Before batch AD was collected: a kind the blind reading of the whole corpus shows
the rules missing where a reader of the text alone names it (tests/data/explain-corpus/README.md, "What a reader of
the text alone names"): a compiled module envplan does not know failing on Windows as "The specified procedure could
not be found".

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Node: DLL load failed while importing my_rasterizer_kernel: The specified procedure could not be found.",
            "extension-torch-mismatch",
        ),
        ("ImportError: DLL load failed while importing fused_ops_ext: 找不到指定的程序。", "extension-torch-mismatch"),
        # another stack's module, torch's own _C, a bare _C: the text does not show an extension built for a torch
        ("ImportError: DLL load failed while importing cv2: The specified procedure could not be found.", "none"),
        (
            "ImportError: DLL load failed while importing onnxruntime_pybind11_state: The specified procedure could "
            "not be found.",
            "none",
        ),
        ("ImportError: DLL load failed while importing _C: The specified procedure could not be found.", "none"),
        (
            'File "C:\\venv\\lib\\site-packages\\torch\\__init__.py", line 141\n    from torch._C import *\n'
            "ImportError: DLL load failed while importing _C2: The specified procedure could not be found.",
            "none",
        ),
    ],
)
def test_an_unknown_compiled_module_whose_procedure_is_not_found(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
