"""Round AR's structural changes, one per kind of batch AR's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md), and one made silent where it named nothing:

- nvcc's CUDA against torch's said in a title while building ("Cuda 12.4 mismatches the pytorch build version 11.3
  when installing TorchSDF with setup.py");
- an Intel Mac with a torch floor that names the minor alone ("torch>=2.4 ... no support for Intel Macs"): the KB
  knows 2.2.2 is the last release built for macOS x86_64;
- sentencepiece among the packages that publish wheels for Windows, macOS and Linux in every release (18 of 18 since
  2019 on PyPI): pip building its source archive means no wheel for this interpreter;
- the Python said first and pip's finding after it ("python 3.9, but it cannot install pyqlib, report not find
  version");
- made silent: "No module named 'torch'" under transformers' banner "None of PyTorch, TensorFlow >= 2.0, or Flax have
  been found" (a program run without torch, no build).

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Cuda 12.4 mismatches the pytorch build version 11.3 when installing TorchSDF with setup.py",
            "toolkit-torch-cuda-mismatch",
        ),
        # the same CUDA on both sides
        ("Cuda 11.3 mismatches the pytorch build version 11.3? installing with setup.py", "none"),
        # at run time, nothing is being built
        ("at run time CUDA 12.4 mismatches the pytorch version 11.3 and inference is slow", "none"),
    ],
)
def test_nvcc_against_torch_said_while_building(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "torch>=2.4 dependency in dev means no support for Intel Macs: pip install fails on my iMac",
            "python-unsupported",
        ),
        # 2.1 still has Intel Mac wheels
        ("torch>=2.1 is required; pip install works on my Intel Mac", "none"),
    ],
)
def test_an_intel_mac_with_a_torch_floor(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "(venv) PS D:\\ComfyUI> pip install sentencepiece\nCollecting sentencepiece\n  Using cached "
            "sentencepiece-0.2.0.tar.gz (2.6 MB)\n  Getting requirements to build wheel ... error\n  error: "
            "subprocess-exited-with-error",
            "python-unsupported",
        ),
        ("Using cached sentencepiece-0.2.0.tar.gz (2.6 MB)\nSuccessfully installed sentencepiece-0.2.0", "none"),
    ],
)
def test_sentencepiece_built_from_source(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "install latest version of python 3.9, but it cannot install pyqlib, report not find version.",
            "python-unsupported",
        ),
        ("I use python 3.9, but it cannot install pyqlib behind the company proxy", "none"),
    ],
)
def test_the_python_said_before_pip_s_finding(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "None of PyTorch, TensorFlow >= 2.0, or Flax have been found. Models won't be available and only "
            "tokenizers, configuration and file/data utilities can be used.\nModuleNotFoundError: No module named "
            "'torch'",
            "none",
        ),
        (
            "pip install flash-attn\n  Getting requirements to build wheel ... error\n  ModuleNotFoundError: No "
            "module named 'torch'",
            "build-isolation-missing-torch",
        ),
    ],
)
def test_transformers_banner_is_a_program_run(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_EVERYWHERE = (
    "numpy",
    "scipy",
    "pandas",
    "grpcio",
    "lxml",
    "h5py",
    "scikit-learn",
    "pillow",
    "matplotlib",
    "tokenizers",
    "safetensors",
    "pyarrow",
    "sentencepiece",
)


@pytest.mark.network
@pytest.mark.parametrize("package", _EVERYWHERE)
def test_the_wheel_everywhere_packages_are_what_pypi_says(package: str) -> None:
    """packages.py's list: wheels for Windows, macOS and Linux in all but a few releases since 2019."""
    with urllib.request.urlopen(f"https://pypi.org/pypi/{package}/json", timeout=60) as response:
        releases = json.load(response)["releases"]
    lacking, total = 0, 0
    for release in releases.values():
        files = [f for f in release if not f.get("yanked")]
        if not files or min(f["upload_time"] for f in files) < "2019":
            continue
        total += 1
        names = " ".join(f["filename"] for f in files)
        lacking += not all(tag in names for tag in ("win", "macosx", "linux"))
    assert total >= 10 and lacking <= 3, (package, lacking, total)
