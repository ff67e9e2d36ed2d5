"""Round M's structural changes, one per kind of miss in batch M's first measurement (tests/data/explain-corpus/
README.md): installers' own words (pdm's build requirement, uv's missing ABI tag and "No compatible version found",
a wheel refused with no Python stated), PyG extensions' own CUDA check, a package's own `_C` on Windows, DGL's
per-release file named as what failed, and an installer said to swap the CUDA build for a CPU one.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.demangle import demangle_one
from envplan.live.diagnose import explain_text
from helpers import first_ref


@pytest.mark.parametrize(
    ("log", "ref"),
    [
        (
            "pdm.exceptions.BuildError: Build backend raised error: Module 'torch' is missing, please make sure it is "
            "specified in the 'build-system.requires' section.",
            "build-isolation-missing-torch",
        ),
        (
            "Because all versions of torchcodec have no wheels with a matching Python ABI tag (e.g., `cp314`) and you "
            "require torchcodec, we can conclude that your requirements are unsatisfiable.",
            "python-unsupported",
        ),
        ("DEBUG Using Python 3.13.0 environment\nDEBUG No compatible version found for: torch", "python-unsupported"),
        (
            "ERROR: mamba_ssm-2.2.4+cu12torch2.4cxx11abiFALSE-cp311-cp311-linux_x86_64.whl is not a supported wheel on "
            "this platform.",
            "python-unsupported",
        ),
        (
            "RuntimeError: Detected that PyTorch and torch_scatter were compiled with different CUDA versions. PyTorch "
            "has CUDA version 11.8 and torch_scatter has CUDA version 12.1.",
            "extension-torch-mismatch",
        ),
        ("Failed to import graphbolt due to `libgraphbolt_pytorch_2.4.0.post301.so`", "extension-torch-mismatch"),
        ("pip install foo uninstalls torch-2.5.1+cu124 and installs torch for CPU instead", "cpu-only-build"),
    ],
)
def test_an_installer_or_a_librarys_own_words(kb: KB, log: str, ref: str) -> None:
    assert first_ref(kb, log) == ref


def test_a_packages_own_c_module_on_windows(kb: KB) -> None:
    log = (
        "---> 3 from pytorch3d import _C\n"
        "ImportError: DLL load failed while importing _C: The specified procedure could not be found."
    )
    found = explain_text(log, kb, demangle_one)
    assert found[0].ref == "extension-torch-mismatch" and "pytorch3d" in found[0].cause
    bare = explain_text(log.splitlines()[1], kb, demangle_one)  # whose _C, the text does not say: a low finding
    assert bare[0].ref == "extension-torch-mismatch" and "pytorch3d" not in bare[0].cause
    assert bare[0].confidence == "low"


def test_a_wheel_for_this_python_refused_is_the_platform(kb: KB) -> None:
    log = "Python 3.11\nERROR: foo-1.0-cp311-cp311-linux_x86_64.whl is not a supported wheel on this platform."
    assert first_ref(kb, log) == "none"  # the Python matches: the platform tag is another matter
