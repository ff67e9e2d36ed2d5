"""Round AI's structural changes, one per kind of batch AI's first-measurement misses (tests/data/explain-corpus/
README.md) that its blind reader named right, and two made silent: torch's C module without its CUDA bindings
("module 'torch._C' has no attribute '_cuda_setDevice'"); "the CPU version was automatically installed", "that lead
pytorch choose cpu version"; "sm_89 not supported by cuda118" (outranking a driver said in words); a +cuXXX torch asked
for on "OSX"; conda's CUDA packages asked for on a Mac; local versions offered by pip ("2.0.0+cpu, 2.0.0+cu117") show
the PyTorch index was used, so a +cpu pin it does not offer is no missing index URL. Made silent: pip's list of releases
it ignored for their Python, where the exact pin is none of them and not newer than every release offered (bpy==4.0,
monotonic-align==0.0.3: another package's releases).

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_PIP = "ERROR: Could not find a version that satisfies the requirement "


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("require_gpu(0)\nAttributeError: module 'torch._C' has no attribute '_cuda_setDevice'", "cpu-only-build"),
        ("AttributeError: module 'torch._C' has no attribute '_jit_pass_inline'", "none"),
        (
            "I was having trouble installing a Cuda-compatible version of Pytorch. The CPU version was automatically "
            "installed when using the default conda_env.yaml file.",
            "cpu-only-build",
        ),
        (
            "environment.yml has no cuda package, that lead pytorch choose cpu version instead cuda version",
            "cpu-only-build",
        ),
        ("For inference we choose cpu version on purpose", "none"),
    ],
)
def test_a_cpu_build_shown_or_said(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_an_architecture_the_build_does_not_support_said_against_its_cuda(kb: KB) -> None:
    text = (
        "torch/cuda version not compatible with RTX4090 latest driver\nI'm having issues like `sm_89 not supported "
        "by cuda118`."
    )
    assert_first_ref(kb, text, "arch-not-compiled")
    assert_first_ref(kb, "the sm_89 path is not supported by our own kernels yet", "none")


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_PIP + "torch==1.7.1+cu110\nconda create -n trocr python=3.7\n- Platform: OSX 16", "python-unsupported"),
        (
            "Conda env create fails on M1 Mac\nSolving environment: failed\n\nResolvePackageNotFound: \n  - "
            "cudatoolkit=11.3\n  - python=3.8.10",
            "python-unsupported",
        ),
        ("Conda env create fails on Ubuntu\nResolvePackageNotFound: \n  - cudatoolkit=11.3", "none"),
        (
            "Torch version 1.13.1+cpu cannot be found\n"
            + _PIP
            + "torch==1.13.1+cpu (from versions: 2.0.0, 2.0.0+cpu, 2.0.0+cu117, 2.0.1, 2.0.1+cpu)\nERROR: No matching "
            "distribution found for torch==1.13.1+cpu",
            "python-unsupported",
        ),
        # a local version asked of PyPI (nothing local offered): the index URL is missing
        (_PIP + "torch==1.13.1+cpu (from versions: 2.0.0, 2.0.1)", "none"),
    ],
)
def test_no_build_for_this_platform_or_python(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ERROR: Ignored the following versions that require a different python version: 1.16.0 Requires-Python "
            ">=3.11; 2.3.0 Requires-Python >=3.11\n" + _PIP + "bpy==4.0 (from versions: none)",
            "none",
        ),
        # the pin newer than every release offered: the newer ones need another Python
        (
            "ERROR: Ignored the following versions that require a different python version: 0.41.0 Requires-Python "
            ">=3.10; 2.6.0 Requires-Python <4,>=3.10\n" + _PIP + "fair-esm==2.0.1 (from versions: 1.0.3, 2.0.0)",
            "python-unsupported",
        ),
        # the same with pip's "(from -r requirements.txt (line 3))" before its list (HateSonar#2 shows that form)
        (
            "ERROR: Ignored the following versions that require a different python version: 0.41.0 Requires-Python "
            ">=3.10; 2.6.0 Requires-Python <4,>=3.10\n"
            + _PIP
            + "fair-esm==2.0.1 (from -r requirements.txt (line 3)) (from versions: 1.0.3, 2.0.0)",
            "python-unsupported",
        ),
        # the pin among the releases ignored
        (
            "ERROR: Ignored the following versions that require a different python version: 2.4.0 Requires-Python "
            ">=3.9\n" + _PIP + "somepkg==2.4.0 (from versions: 1.0.0, 2.3.0)",
            "python-unsupported",
        ),
    ],
)
def test_releases_ignored_for_their_python_are_whose(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
