"""Round R's structural changes, one per kind of miss in batch R's first measurement (tests/data/explain-corpus/
README.md): CUDA 9.2's launch-configuration symbols missing (an nvcc newer than torch's CUDA runtime), "I only have a
CPU" as no GPU to run on, torch's XPU assertion, a non-CUDA torch said in words, a Python written "(3.14+)", the
Windows import of a known extension cut after its module's name.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.demangle import demangle_one
from envplan.live.diagnose import explain_text
from helpers import first_ref


@pytest.mark.parametrize("symbol", ["__cudaPopCallConfiguration", "__cudaPushCallConfiguration"])
def test_cuda_9_2s_launch_configuration_missing_is_the_toolkit(kb: KB, symbol: str) -> None:
    text = f"ImportError: /src/ops/nms/gpu_nms.cpython-36m-x86_64-linux-gnu.so: undefined symbol: {symbol}"
    found = explain_text(text, kb, demangle_one)
    assert found[0].ref == "toolkit-torch-cuda-mismatch" and "9.2" in found[0].cause
    with_torch = explain_text(f"{text}\ntorch.version.cuda: 9.0", kb, demangle_one)
    assert "CUDA toolkit 9.0" in with_torch[0].fix  # the toolkit to build with is torch's own CUDA


@pytest.mark.parametrize(
    ("context", "ref"),
    [
        ("I only have CPU device and the error occurred:", "none"),
        ("This laptop only has a CPU.", "none"),
        ("I only have the CPU version installed, but I have an RTX 3060", "cpu-only-build"),  # the build, not the box
    ],
)
def test_only_a_cpu_said_in_words(kb: KB, context: str, ref: str) -> None:
    assert first_ref(kb, f"{context}\nAssertionError: Torch not compiled with CUDA enabled") == ref


def test_torchs_xpu_assertion(kb: KB) -> None:
    found = explain_text("Intel Arc A770\nAssertionError: Torch not compiled with XPU enabled", kb, demangle_one)
    assert found[0].ref == "cpu-only-build" and "XPU" in found[0].cause
    assert "download.pytorch.org/whl/xpu" in found[0].fix


def test_a_non_cuda_torch_said_in_words(kb: KB) -> None:
    words = "the node forced a non-CUDA version of Torch to be installed on my GPU box"
    assert first_ref(kb, words) == "cpu-only-build"


def test_a_python_written_with_a_parenthesis(kb: KB) -> None:
    words = "the installer fails on any Python (3.14+) due to Torch incompatibilities"
    assert first_ref(kb, words) == "python-unsupported"


def test_the_windows_import_of_a_known_extension_cut_after_its_module(kb: KB) -> None:
    cut = "    import flash_attn_2_cuda\nImportError: DLL load failed while importing flash_attn_2_cuda"
    found = explain_text(cut, kb, demangle_one)
    assert found[0].ref == "extension-torch-mismatch" and "flash-attn" in found[0].cause
    assert found[0].confidence == "low"
    assert first_ref(kb, "ImportError: DLL load failed while importing my_own_module") == "none"  # not one we know
