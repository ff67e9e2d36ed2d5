"""Round BB's structural changes, one per kind of batch BB's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- an install said to fail on a newer Python with the verb first for the one that worked ("fails with python 3.13,
  works with 3.12"), never the failing Python's own words taken for the working one;
- a package's wheels said to stop at a Python ("只有cp310以下版本的轮子", "wheels only up to cp310") with the
  interpreter stated above it;
- nvcc's CUDA against torch's retold as "my CUDA version (11.8) does not match the required CUDA version (12.1)";
- release_wheels.toml (PyPI's files): the newest Python each numpy release has wheels for; a pinned numpy on a newer
  Python is no build for that interpreter (numpy 1.21.6 on 3.11, 1.23.5 on 3.12), the fix naming the first release
  with wheels for it;
- a wheel-only package pip (run by an app) fails to install on a platform it has no wheel for, a macOS application
  bundle's path naming the Mac; the package's name with a hyphen now matches at all (re.escape escaped the hyphen).

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import json
import urllib.request

import pytest
from packaging.version import Version

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("pipx installation fails with python 3.13, works with 3.12", "python-unsupported"),
        ("pip install foo-tools failed with python 3.12; it installed fine on 3.11", "python-unsupported"),
        # the older Python failing: no missing build for the newer
        ("pip install foo-tools fails with python 3.12, works with 3.13", "none"),
        # the failing Python is not the one that worked
        ("pip install foo-tools fails with python 3.13, works nowhere else either", "none"),
    ],
)
def test_fails_on_a_newer_python_works_on_an_older_verb_first(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Failed to build diffq 这个diffq 好像只有cp310以下版本的轮子\n可是现在大家都用的官方cp311的版本",
            "python-unsupported",
        ),
        ("Failed to build diffq: it has wheels only up to cp310, I am on python 3.12", "python-unsupported"),
        # the interpreter within the wheels said
        ("Failed to build diffq: it has wheels only up to cp310, I am on python 3.10", "none"),
    ],
)
def test_a_package_s_wheels_said_to_stop_below_the_interpreter(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "NameError: name 'selective_scan_cuda' is not defined.\nIt said that my CUDA version (11.8) does not match "
            "the required CUDA version (12.1).",
            "toolkit-torch-cuda-mismatch",
        ),
        # the same CUDA twice is no mismatch
        ("It said that my CUDA version (12.1) does not match the required CUDA version (12.1).", "none"),
    ],
)
def test_nvcc_against_torch_retold_as_the_required_cuda(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ERROR: No matching distribution found for numpy==1.21.6\nRunning on Ubuntu 22.04, Python 3.11.4.\n"
            "$ pip install monailabel",
            "python-unsupported",
        ),
        ("Can't install d2l 1.0.3 on python 3.12.4: it requires numpy 1.23.5 and pip fails", "python-unsupported"),
        # a release with wheels for the interpreter: the failure is another
        ("pip install numpy==1.26.4 fails on python 3.12 (proxy error)", "none"),
        # no Python stated
        ("ERROR: No matching distribution found for numpy==1.21.6 (pip install monailabel)", "none"),
    ],
)
def test_a_pinned_numpy_older_than_the_interpreter(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_numpy_fix_names_the_first_release_with_wheels_for_the_interpreter(kb: KB) -> None:
    (first, *_) = explain_text("pip install numpy==1.21.6 on Python 3.11 fails", kb)
    assert first.ref == "python-unsupported"
    assert "numpy 1.21.6 publishes wheels up to Python 3.10" in first.cause
    assert "numpy>=1.23.2" in first.fix  # 1.23.0 and 1.23.1 have no cp311 wheels


def test_release_wheels_rows_are_well_formed(kb: KB) -> None:
    numpy = kb.release_newest_python["numpy"]
    assert numpy["1.21.6"] == "3.10" and numpy["1.26.4"] == "3.12"
    for name, rows in kb.release_newest_python.items():
        newest = [Version(py) for _, py in sorted(rows.items(), key=lambda kv: Version(kv[0]))]
        assert newest and all(v.major == 3 for v in newest), name


@pytest.mark.network
def test_release_wheels_are_what_pypi_says(kb: KB) -> None:
    """Each release's newest Python is the highest cp3XX tag among its wheels on PyPI."""
    for name, rows in kb.release_newest_python.items():
        with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/json", timeout=60) as response:
            releases = json.load(response)["releases"]
        for release, newest in rows.items():
            tags = [f["python_version"] for f in releases[release] if f["packagetype"] == "bdist_wheel"]
            minors = [int(t[3:]) for t in tags if t.startswith("cp3") and t[3:].isdigit()]
            assert minors and f"3.{max(minors)}" == newest, (name, release)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "[Python] Failed to install requirements: Command '['/Applications/Slicer.app/Contents/bin/PythonSlicer', "
            "'-m', 'pip', 'install', 'onnxruntime-gpu']' returned non-zero exit status 1.",
            "python-unsupported",
        ),
        ("faiss_gpu is not installing on my MacBook", "python-unsupported"),
        # a platform the package has wheels for: the failure is another
        (
            "[Python] Failed to install requirements: Command '['/opt/app/bin/python', '-m', 'pip', 'install', "
            "'onnxruntime-gpu']' returned non-zero exit status 1. (Windows 11)",
            "none",
        ),
    ],
)
def test_a_wheel_only_package_an_app_fails_to_install_on_a_mac(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
