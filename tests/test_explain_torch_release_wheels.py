"""torch's rows in release_wheels.toml (PyPI's files): the newest Python each torch release has wheels for, back to
1.0.0, where the KB's matrix (releases.toml, from 1.12.0) cannot say. A pin of a release before the matrix on a newer
Python is no build for that interpreter, and the fix names the Python and the first release with wheels for it; the
matrix's own python-max that PyPI does not show (2.14.x: 3.15) is marked doubtful.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest
from packaging.version import Version

from envplan.kb import KB
from envplan.live.diagnose import explain_text

PIP_NONE = (
    "ERROR: Could not find a version that satisfies the requirement torch=={v} (from versions: none)\n"
    "ERROR: No matching distribution found for torch=={v}\n"
)


def test_torch_rows_reach_before_the_matrix(kb: KB) -> None:
    torch = kb.release_newest_python["torch"]
    first = min(r.torch for r in kb.releases)
    older = [Version(v) for v in torch if Version(v) < first]
    assert min(older) == Version("1.0.0") and max(older) == Version("1.11.0")
    # PyPI's files, not the release notes: 1.10.2 has a cp310 wheel (Linux x86_64), 1.13.x a cp311 one
    assert torch["1.7.1"] == "3.9" and torch["1.10.2"] == "3.10" and torch["1.13.1"] == "3.11"


def test_the_matrix_python_max_pypi_does_not_show_is_doubtful(kb: KB) -> None:
    top = kb.release_newest_python["torch"]
    for release in kb.releases:
        pypi = top.get(str(release.torch))
        if pypi is not None and release.python_max > Version(pypi) and release.python_max.minor > 13:
            assert release.is_doubtful("python-max"), release.torch
    assert not kb.release("2.13.0").is_doubtful("python-max")  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "newest", "first"),
    [
        (PIP_NONE.format(v="1.7.1") + "$ python --version\nPython 3.10.4\n", "3.9", "1.10.2"),
        (PIP_NONE.format(v="1.4.0") + "Python 3.9.1 on Windows\n", "3.8", "1.7.1"),
        ("pip install torch==1.4.0 on Python 3.9 fails", "3.8", "1.7.1"),
        ("pip install torch==1.10.0 fails on Python 3.11", "3.9", "1.13.0"),
    ],
)
def test_a_pin_before_the_matrix_on_a_newer_python_names_the_python_and_the_release(
    kb: KB, text: str, newest: str, first: str
) -> None:
    (top, *_) = explain_text(text, kb)
    assert top.ref == "python-unsupported"
    assert f"up to Python {newest}" in top.cause
    assert f"use Python {newest}" in top.fix and f"torch>={first} " in top.fix


def test_pip_finding_none_of_an_old_release_without_a_python_still_names_its_newest(kb: KB) -> None:
    (top, *_) = explain_text(PIP_NONE.format(v="1.7.1").replace("none", "1.11.0, 1.12.0"), kb)
    assert top.ref == "python-unsupported"
    assert "CPython 3.9" in top.fix


@pytest.mark.parametrize(
    "text",
    [
        # the pinned release has wheels for the Python stated: the failure is another
        "pip install -r requirements.txt\ntorch 1.7.1\nPython 3.8.10\nRuntimeError: CUDA out of memory. Tried to "
        "allocate 20.00 MiB",
        "pip install torch==1.7.1 on Python 3.9\nImportError: numpy.core.multiarray failed to import",
        # a release that never was is the pin's fault, whatever the Python (pip lists what it has)
        PIP_NONE.format(v="1.7.2").replace("none", "1.11.0, 1.12.0") + "Python 3.10.4\n",
    ],
)
def test_silent_where_the_release_has_wheels_for_the_python_or_never_was(kb: KB, text: str) -> None:
    assert all(f.ref != "python-unsupported" for f in explain_text(text, kb))
