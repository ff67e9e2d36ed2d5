"""Round AU's structural changes, one per kind of batch AU's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md):

- a torch library that went away in torch 2.0 said "not found" rather than in the loader's words ("Installation
  problems: libtorch_cuda_cu.so not found"): an extension built for an older torch;
- a CUDA DLL preloaded by path that fails ("vstrt: failed to preload C:\\...\\cublas64_11.dll, errno 127"): another
  copy of it, torch's, loaded first;
- pip showing torch in a Windows Python that is not conda's with no build tag ("Requirement already satisfied: torch in
  c:\\users\\...\\python39\\lib\\site-packages (1.7.1)"), CUDA unusable: PyPI's Windows wheel, the CPU build; and
  CUDA's unavailability told on the line after the call ("print(torch.cuda.is_available())" / "it prints False").

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Import error: libtorch_cuda_cpp.so not found when importing torch_scatter", "extension-torch-mismatch"),
        # libtorch_cuda.so is in every CUDA build: "not found" of it says nothing of a release
        ("CMake: libtorch_cuda.so not found in /opt/libtorch/lib", "none"),
    ],
)
def test_a_torch_library_gone_in_2_0_said_not_found(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            r"vsort: failed to preload D:\VapourSynth\plugins64\vsmlrt-cuda\cudnn64_8.dll, errno 127",
            "cuda-runtime-missing",
        ),
        # a plugin of its own, not a CUDA library
        (r"vsort: failed to preload D:\VapourSynth\plugins64\vsort\onnxruntime.dll, errno 127", "none"),
    ],
)
def test_a_cuda_dll_preloaded_by_path_failing(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_SATISFIED = (
    r"`Requirement already satisfied: torch in c:\users\ann\appdata\local\programs\python\python310\lib"
    r"\site-packages (2.1.0)`"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "My RTX 3060 is idle.\n" + _SATISFIED + "\n\n`print(torch.cuda.is_available())`\n\nit prints False",
            "cpu-only-build",
        ),
        # conda's Windows builds carry no tag either
        (
            "My RTX 3060 is idle.\n`Requirement already satisfied: torch in c:\\users\\ann\\miniconda3\\lib"
            "\\site-packages (2.1.0)`\n\n`print(torch.cuda.is_available())`\n\nit prints False",
            "none",
        ),
        # CUDA not said unusable: nothing to explain
        ("My RTX 3060 is idle.\n" + _SATISFIED, "none"),
    ],
)
def test_pypi_s_windows_wheel_shown_by_pip(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
