"""Round S's structural changes, one per kind of miss in batch S's first measurement (tests/data/explain-corpus/
README.md): conda-forge's CPU build strings, a CPU build complained of with the installer's verb ("installs PyTorch
CPU version", "gives CPU PyTorch"), the loader's "unable to find" a CUDA library.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import first_ref

_CONDA_LIST = "pytorch                   2.3.1           {build}    conda-forge"


@pytest.mark.parametrize("build", ["cpu_generic_py311h8354fdb_2", "cpu_mkl_py310h2b1a9f0_101"])
def test_conda_forges_cpu_build_strings(kb: KB, build: str) -> None:
    listed = _CONDA_LIST.format(build=build)
    assert first_ref(kb, f"torch.cuda.is_available() is False\n{listed}") == "cpu-only-build"
    assert first_ref(kb, f"the environment gives CPU PyTorch\n{listed}") == "cpu-only-build"
    assert first_ref(kb, listed) == "none"  # a CPU build nobody complained of is what was asked for


@pytest.mark.parametrize(
    "words",
    [
        "mamba installs PyTorch CPU version instead of the CUDA version",
        'the solver grabs pytorch "CPU" although I asked for cudatoolkit',
    ],
)
def test_a_cpu_build_complained_of_with_the_installers_verb(kb: KB, words: str) -> None:
    assert first_ref(kb, words) == "cpu-only-build"


@pytest.mark.parametrize(
    "line", ['unable to find "libcuda.so.1"', "failed to load libcudart.so.12", "can't find libcudnn.so.9"]
)
def test_the_loader_unable_to_find_a_cuda_library(kb: KB, line: str) -> None:
    assert first_ref(kb, line) == "cuda-runtime-missing"
