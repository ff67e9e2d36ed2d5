"""`envplan explain` against a corpus of real-world error logs (tests/cases/explain/<ref>--<n>.log)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from packaging.version import Version

from envplan.diagnose import explain_text
from helpers import ROOT

CORPUS = sorted((ROOT / "tests" / "cases" / "explain").glob("*.log"))
REFS = {
    "extension-torch-mismatch",
    "cxx11-abi-mismatch",
    "companion-mismatch",
    "arch-not-compiled",
    "cuda-runtime-missing",
    "driver-too-old",
    "toolkit-torch-cuda-mismatch",
    "cpu-only-build",
    "build-isolation-missing-torch",
    "glibc-too-old",
    "python-unsupported",
}


def demangle(symbol: str) -> str:
    try:
        out = subprocess.run(["c++filt", symbol], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return symbol
    return out or symbol


def test_the_corpus_covers_every_ref() -> None:
    assert {p.name.split("--")[0] for p in CORPUS} == REFS | {"none"}
    assert all(len(list((ROOT / "tests/cases/explain").glob(f"{ref}--*.log"))) >= 3 for ref in REFS)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_explain_names_the_cause_first(kb, path: Path) -> None:
    want = path.name.split("--")[0]
    found = explain_text(path.read_text(), kb, demangle)
    if want == "none":
        assert found == [], [d.ref for d in found]
        return
    assert found, "nothing found"
    assert found[0].ref == want, [d.ref for d in found]
    assert found[0].evidence in path.read_text()
    assert found[0].fix and found[0].cause


def test_summary_section_7_errors(kb) -> None:
    """The error catalogue of the source documents (SUMMARY.md section 7)."""
    cases = {
        "ImportError: causal_conv1d_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi": "extension-torch-mismatch",
        "RuntimeError: CUDA error: no kernel image is available for execution on the device": "arch-not-compiled",
        "OSError: libcudart.so.11.0: cannot open shared object file: No such file or directory": "cuda-runtime-missing",
        "ImportError: /env/site-packages/torchvision/_C.so: undefined symbol: "
        "_ZN3c104cuda20getCurrentCUDAStreamEa": "companion-mismatch",
        "AssertionError: Torch not compiled with CUDA enabled": "cpu-only-build",
    }
    for text, ref in cases.items():
        assert explain_text(text, kb, demangle)[0].ref == ref, text


def test_versions_in_the_text_reach_the_fix(kb) -> None:
    sm = explain_text(
        "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.",
        kb,
        demangle,
    )[0]
    assert "2.7.0+cu128" in sm.fix and "TORCH_CUDA_ARCH_LIST=12.0" in sm.fix
    pip = explain_text(
        "torchvision 0.16.2+cu121 requires torch==2.1.2, but you have torch 2.2.0+cu121 which is incompatible.",
        kb,
        demangle,
    )[0]
    assert "torchvision==0.17.0" in pip.fix
    toolkit = explain_text(
        "The detected CUDA version (12.1) mismatches the version that was used to compile\n"
        "PyTorch (11.8). Please make sure to use the same CUDA versions.",
        kb,
        demangle,
    )[0]
    assert "CUDA toolkit 11.8" in toolkit.fix
    for seen, cuda in (("torch 2.4.1+cu118", "11.8"), ("torch.version.cuda: 12.4", "12.4"), ("2.9.0+cu130", "13.0")):
        driver = explain_text(
            f"{seen}\nRuntimeError: The NVIDIA driver on your system is too old (found version 11040).", kb, demangle
        )[0]
        floor = kb.toolkit(Version(cuda)).driver("linux")
        assert f"CUDA {cuda} needs driver >= {floor}" in driver.fix, seen
