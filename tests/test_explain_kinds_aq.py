"""Round AQ's structural changes, one per kind of batch AQ's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md), and one made silent where it named nothing:

- torch on musl-based Linux (Alpine), named or known by its loader's words ("Error relocating ...: symbol not
  found"), failing to load or install: PyPI has no musllinux torch and no source (a `network` test re-reads it);
- uv's newer words for a torch with no wheel for this platform ("`torch` (v2.8.0+cu128) only has wheels for the
  following platforms: ...");
- torch 0.4-1.x's own warning for a GPU newer than its CUDA ("which requires CUDA_VERSION >= 9000 ... compiled with
  CUDA_VERSION 8000");
- card generations written with a hyphen ("RTX 50-series"), and a bare card number ending a sentence ("not compatible
  with the architecture of the 3090.");
- made silent: pip's "(from versions: none)" where pip could not reach the index (DNS, connection, proxy).

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref

_PIP = "ERROR: Could not find a version that satisfies the requirement "


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "pip install torch on an alpine container\nImportError: Error loading shared library ld-linux-x86-64.so.2: "
            "No such file or directory (needed by /usr/lib/python3.11/site-packages/torch/_C.cpython-311-x86_64-linux-"
            "gnu.so)",
            "python-unsupported",
        ),
        (
            "Error relocating /usr/local/lib/python3.10/site-packages/torch/lib/libgomp-a34b3233.so.1: "
            "pthread_attr_setaffinity_np: symbol not found",
            "python-unsupported",
        ),
        # an HPC cluster named Alpine, conda slow to solve: nothing of torch fails there
        ("Installing Pytorch taking a long time on Alpine: stuck on Solving environment", "none"),
    ],
)
def test_torch_on_musl_linux(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_musl_fix_names_a_glibc_image(kb: KB) -> None:
    (found, *_) = explain_text(
        "Error relocating /usr/local/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so: foo: symbol not found", kb
    )
    assert "musl" in found.cause and "python:3.x-slim" in found.fix, found.fix


@pytest.mark.network
def test_pypi_has_no_musllinux_torch() -> None:
    with urllib.request.urlopen("https://pypi.org/pypi/torch/json", timeout=60) as response:
        files = [f for release in json.load(response)["releases"].values() for f in release]
    assert len(files) > 900
    assert not [f["filename"] for f in files if "musllinux" in f["filename"] or f["packagetype"] == "sdist"]


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "You're on macOS (`macosx_15_0_arm64`), but `torch` (v2.8.0+cu128) only has wheels for the following "
            "platforms: `manylinux_2_28_x86_64`, `win_amd64`",
            "python-unsupported",
        ),
        ("`numpy` (v1.21.0) only has wheels for the following platforms: `win_amd64`", "none"),
    ],
)
def test_uv_s_newer_words_for_no_wheel(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "UserWarning:\n    Found GPU0 Tesla V100-PCIE-16GB which requires CUDA_VERSION >= 9000 for\n     optimal "
            "performance and fast startup time, but your PyTorch was compiled\n     with CUDA_VERSION 8000. Please "
            "install the correct PyTorch binary",
            "arch-not-compiled",
        ),
        ("CUDA_VERSION 8000 is what my build reports", "none"),
    ],
)
def test_torch_s_warning_for_a_gpu_newer_than_its_cuda(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_cuda_versions_are_read_as_releases(kb: KB) -> None:
    (found, *_) = explain_text(
        "Found GPU0 A100 which requires CUDA_VERSION >= 11000 for optimal performance and fast startup time, but your "
        "PyTorch was compiled with CUDA_VERSION 10020",
        kb,
    )
    assert "CUDA 10.2" in found.cause and "(11.0)" in found.cause, found.cause


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("GeoAI plugin fails to load model on Windows (RTX 50-series): CUDA kernel image error", "arch-not-compiled"),
        (
            'it gives me "1.10.2+cu102", and cuda 10.2 is not compatible with the architecture of the 3090.',
            "arch-not-compiled",
        ),
        # a version, not a card
        ("the architecture of the 3090.1 release is not compatible", "none"),
    ],
)
def test_cards_as_people_write_them(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            f"{_PIP}torch (from versions: none)\nWARNING: Retrying after connection broken by 'NewConnectionError': "
            "Failed to establish a new connection: [Errno -2] Name or service not known': /whl/nightly/cpu/torch/",
            "none",
        ),
        (f"{_PIP}torch (from versions: none)\nERROR: No matching distribution found for torch", "python-unsupported"),
    ],
)
def test_no_versions_when_pip_cannot_reach_the_index(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
