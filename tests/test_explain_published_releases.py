"""A pin of a torch, torchvision or torchaudio release that never was, read apart from a release without a wheel for
this interpreter (published_releases.toml: every release PyPI lists, and the few on PyTorch's own index only).

pip finding nothing of "torch==1.11.1+cu111" (tabular-dl-pretrain-objectives#1: "it looks like version 1.11.1 is not
available") is the pin's fault on every Python. The rules took any release older than the KB's first (1.12.0) for a
real one, and compared a companion's version with torch's releases. A pin below the list's whole range (torch 0.4.1:
PyPI has since removed its pre-1.0 uploads) or newer than its newest release is read as before. The texts are written
for the tests.
"""

from __future__ import annotations

import json
import urllib.request

import pytest
from packaging.version import Version

from envplan.kb import KB
from helpers import assert_first_ref


def test_the_published_releases_are_well_formed(kb: KB) -> None:
    assert set(kb.published_releases) == {"torch", "torchvision", "torchaudio"}
    for name, (whole_from, releases) in kb.published_releases.items():
        versions = [Version(v) for v in releases]
        assert versions == sorted(versions) and len(set(versions)) == len(versions), name
        assert Version(whole_from) == versions[0], name
    # the LTS release, on PyTorch's own index and conda channel only, is a release all the same
    assert "1.8.2" in kb.published_releases["torch"][1]
    # every torch release of the KB's matrix was published on PyPI
    torch = set(kb.published_releases["torch"][1])
    assert all(str(r.torch) in torch for r in kb.releases if r.torch not in kb.learned)


@pytest.mark.network
def test_the_published_releases_are_what_pypi_says(kb: KB) -> None:
    """Each release listed has files on PyPI (but the ones said to be elsewhere), and every release PyPI has from the
    first listed to the newest listed is in the list."""
    from envplan.kb.loader import read_table

    for row in read_table("published_releases.toml")["package"]:
        with urllib.request.urlopen(f"https://pypi.org/pypi/{row['name']}/json", timeout=60) as response:
            on_pypi = {v for v, files in json.load(response)["releases"].items() if files}
        assert set(row["releases"]) <= on_pypi, row["name"]
        assert not set(row["elsewhere"]) & on_pypi, row["name"]
        low, high = Version(row["whole-from"]), Version(row["releases"][-1])
        assert {v for v in on_pypi if low <= Version(v) <= high} <= set(row["releases"]), row["name"]


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # a release that never was, with or without pip's list
        (
            "pip install torch==1.11.1+cu111 -f https://download.pytorch.org/whl/torch_stable.html\n"
            "ERROR: No matching distribution found for torch==1.11.1+cu111",
            "none",
        ),
        (
            "ERROR: Could not find a version that satisfies the requirement torchvision==0.20.2 (from versions: "
            "0.17.0, 0.17.1, 0.17.2, 0.18.0, 0.18.1, 0.19.0, 0.19.1, 0.20.0, 0.20.1)\n"
            "ERROR: No matching distribution found for torchvision==0.20.2",
            "none",
        ),
        (
            "ERROR: Could not find a version that satisfies the requirement torchaudio==0.7.1 (from versions: 0.4.0, "
            "0.5.0, 0.5.1, 0.6.0, 0.7.0, 0.7.2, 0.8.0)\nERROR: No matching distribution found for torchaudio==0.7.1",
            "none",
        ),
        # an empty list says this interpreter gets no release at all, whatever the pin
        (
            "ERROR: Could not find a version that satisfies the requirement torch==1.11.1 (from versions: none)\n"
            "ERROR: No matching distribution found for torch==1.11.1",
            "python-unsupported",
        ),
        # a real release the interpreter gets no wheel of: still read
        (
            "Python 3.8\nERROR: Could not find a version that satisfies the requirement torchvision==0.20.1 (from "
            "versions: 0.17.0, 0.17.1, 0.17.2, 0.18.0, 0.18.1, 0.19.0, 0.19.1)\n"
            "ERROR: No matching distribution found for torchvision==0.20.1",
            "python-unsupported",
        ),
        (
            "pip install torch==1.10.1+cu111 -f https://download.pytorch.org/whl/torch_stable.html (Python 3.10)\n"
            "ERROR: No matching distribution found for torch==1.10.1+cu111",
            "python-unsupported",
        ),
        # the LTS release, published on PyTorch's own index only
        (
            "pip install torch==1.8.2+cu111 --extra-index-url https://download.pytorch.org/whl/lts/1.8/cu111 "
            "(Python 3.10)\nERROR: No matching distribution found for torch==1.8.2+cu111",
            "python-unsupported",
        ),
        # below the list's whole range (PyPI removed torch's pre-1.0 uploads): read as before
        (
            "Python 3.8\nERROR: Could not find a version that satisfies the requirement torch==0.4.1 (from versions: "
            "1.4.0, 1.5.0, 1.5.1, 1.6.0)\nERROR: No matching distribution found for torch==0.4.1",
            "python-unsupported",
        ),
    ],
)
def test_a_pin_of_a_release_that_never_was(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
