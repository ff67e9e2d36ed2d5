"""Round CJ's structural changes, one per kind of batch CJ's first-measurement misses its blind reader read right
(tests/data/explain-corpus/README.md):

- torch pins said out of date for a named card, or changed "to support" it ("These two version numbers ... are out of
  date. Had to change them to support a 5070 ti GPU" beside torch==2.1.2, stable-diffusion-webui-docker#27);
- "wheel" inside a file or job name is no wheel ("build_wheels_windows.yml ... never applied to wheel-build jobs",
  test-infra#8094);
- pip shown installing the same pin uv refuses ("pip install torch==2.3.1 --index-url .../cpu # works as expected",
  uv#4303): the resolver's reading of the pin, not a missing build;
- conda refusing an nvcc of another CUDA than the environment's, the torch named ("cuda-nvcc 12.8.93 conflicts with the
  pre-installed cuda-nvcc-dev_linux-64 13.0.88", flash-linear-attention#969): the toolkit pinned for the build is
  another CUDA than torch's.

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "These two version numbers in Dockerfile.cuda are out of date. Had to change them for my 5070 ti GPU.",
            "arch-not-compiled",
        ),
        ("These two version numbers in Dockerfile.cuda are pinned on purpose; my 5070 ti GPU works.", "none"),
        ("Had to change them to support a 5070 ti GPU.", "arch-not-compiled"),
    ],
)
def test_pins_said_too_old_for_a_card(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"nvidia 5070 ti\n{said}\n\ntorch==2.1.2\ntorchvision==0.16.2\n", ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "`build_wheels_windows.yml` previously did not run setup-windows, so LongPathsEnabled was never applied to "
            "wheel-build jobs",
            "none",
        ),
        ("there are no wheels for windows, so pip cannot install torch-scatter", "python-unsupported"),
    ],
)
def test_wheel_inside_a_job_name_is_no_wheel(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"{said}\nERROR: [WinError 206] The filename or extension is too long", ref)


@pytest.mark.parametrize(
    ("pip_line", "ref"),
    [
        ("pip install torch==2.3.1 --index-url https://download.pytorch.org/whl/cpu # works as expected", "none"),
        (
            "pip install torch==2.3.1 --index-url https://download.pytorch.org/whl/cpu # fails the same way",
            "python-unsupported",
        ),
    ],
)
def test_pip_shown_installing_the_same_pin(kb: KB, pip_line: str, ref: str) -> None:
    text = (
        f"{pip_line}\n\nuv pip install torch==2.3.1 --index-url https://download.pytorch.org/whl/cpu # fails\n"
        "  x No solution found when resolving dependencies:\n"
        "  Because torch==2.3.1 has no wheels are available with a matching Python implementation and you require "
        "torch==2.3.1, we can conclude that the requirements are unsatisfiable."
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("env", "ref"),
    [("13.0.88", "toolkit-torch-cuda-mismatch"), ("12.8.61", "none")],
)
def test_conda_refusing_an_nvcc_of_another_cuda(kb: KB, env: str, ref: str) -> None:
    text = (
        "The conda env for PyTorch 2.12 was rebuilt on CUDA 13.0; installing cuda-12.8.1::cuda-nvcc into it fails:\n"
        "LibMambaUnsatisfiableError:\n"
        f"  cuda-nvcc 12.8.93  conflicts with the pre-installed cuda-nvcc-dev_linux-64 {env}\n"
    )
    assert_first_ref(kb, text, ref)
