"""Round BG's structural changes, one per kind of batch BG's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- a Raspberry Pi named in Chinese ("树莓派") as a platform many compiled packages publish no wheels for;
- pip before 20's empty list ("(from versions: )") as nothing offered, of a wheel-only package the KB knows
  (waymo-open-dataset-tf-2-2-0 and qiskit-aer-gpu join wheel_only.toml, read from PyPI);
- installing said "not able to" as failing ("Not able to install qiskit-aer-gpu" on Windows);
- building said to use another torch ("Implicitly building with mismatching pytorch version").

Made silent: a build on this machine said to have failed ("NNCF could not compile GPU quantization extensions"): it
says nothing of the torch the package was built for. The texts are written for the tests (the kind, not a report's
wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_PIP_NONE = "ERROR: Could not find a version that satisfies the requirement "


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "\u5728\u6811\u8393\u6d3e4\u4e0a pip install -U MNN\n" + _PIP_NONE + "MNN (from versions: none)",
            "python-unsupported",
        ),
        # no platform and no Python named: a package not on the index at all says the same
        ("pip install -U MNN\n" + _PIP_NONE + "MNN (from versions: none)", "none"),
    ],
)
def test_a_raspberry_pi_named_in_chinese(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "  Could not find a version that satisfies the requirement waymo-open-dataset-tf-2-2-0 (from versions: )",
            "python-unsupported",
        ),
        ("  Could not find a version that satisfies the requirement torchboost (from versions: )", "none"),
    ],
)
def test_an_empty_list_is_nothing_offered(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Not able to install qiskit-aer-gpu\n- Operating system: Windows", "python-unsupported"),
        # Linux, where its wheels are
        ("Not able to install qiskit-aer-gpu\n- Operating system: Ubuntu 22.04", "none"),
    ],
)
def test_not_able_to_install_a_wheel_only_package(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Implicitly building with mismatching pytorch version\n"
            "ImportError: .../site-packages/my_ops_cpu.cpython-37m-x86_64-linux-gnu.so",
            "extension-torch-mismatch",
        ),
        (
            "Implicitly building with mismatching numpy version\n"
            "ImportError: .../site-packages/my_ops_cpu.cpython-37m-x86_64-linux-gnu.so",
            "none",
        ),
    ],
)
def test_building_said_to_use_another_torch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "RuntimeError: CUDA is available for PyTorch, but NNCF could not compile GPU quantization extensions. Make "
            "sure that nvcc is available.",
            "none",
        ),
        # a package said not to be built for a torch release: still read
        ("RuntimeError: the package is not compiled for PyTorch 2.1", "extension-torch-mismatch"),
    ],
)
def test_a_build_that_failed_here_says_nothing_of_torch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
