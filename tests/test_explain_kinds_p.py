"""Round P's structural changes, one per kind of miss in batch P's first measurement (tests/data/explain-corpus/
README.md): ROCm's words for known causes (HIP finding no code object for the GPU, a ROCm library the loader cannot
find), the NVIDIA container runtime refusing an image's CUDA, CUDA's "driver insufficient" on a machine with only
integrated graphics, a CUDA build of torch asked for on a Mac, a CUDA library or an architecture's kernels said
missing in words, a companion from PyPI next to a torch from a CUDA index, a program's own "could not load torch",
a wheel renamed by hand.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.demangle import demangle_one
from envplan.live.diagnose import explain_text
from helpers import first_ref


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("RuntimeError: HIP error: hipErrorNoBinaryForGpu\nRX 6700 XT (gfx1031), torch 2.3.1+rocm6.0", "(gfx1031)"),
        ("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!", "target"),
    ],
)
def test_hip_finding_no_code_object_is_the_architecture(kb: KB, text: str, target: str) -> None:
    found = explain_text(text, kb, demangle_one)
    assert found[0].ref == "arch-not-compiled"
    assert "ROCm" in found[0].cause and found[0].cause.endswith(target)
    assert "HSA_OVERRIDE_GFX_VERSION" in found[0].fix


@pytest.mark.parametrize("lib", ["libMIOpen.so.1", "librocblas.so.4", "libamdhip64.so.6"])
def test_a_rocm_library_the_loader_cannot_find(kb: KB, lib: str) -> None:
    text = f"    from torch._C import *\nImportError: {lib}: cannot open shared object file: No such file or directory"
    found = explain_text(text, kb, demangle_one)
    assert found[0].ref == "cuda-runtime-missing" and "ROCm" in found[0].cause


def test_the_container_runtime_refusing_the_images_cuda(kb: KB) -> None:
    text = (
        "docker: Error response from daemon: failed to create task for container: nvidia-container-cli: requirement "
        "error: unsatisfied condition: cuda>=12.6, please update your driver to a newer version"
    )
    found = explain_text(text, kb, demangle_one)
    assert found[0].ref == "driver-too-old" and "CUDA 12.6" in found[0].cause
    floor = kb.driver_floor(__import__("packaging.version").version.Version("12.6"), "linux")
    assert floor is not None and str(floor) in found[0].fix


def test_driver_insufficient_where_there_is_only_integrated_graphics(kb: KB) -> None:
    message = "CUDA driver version is insufficient for CUDA runtime version"
    assert first_ref(kb, message) == "driver-too-old"
    assert first_ref(kb, f"{message}\nmy laptop has an integrated Intel GPU (Iris Xe Graphics)") == "none"
    both = f"{message}\nIntel Iris Xe plus an NVIDIA GeForce MX450, driver 456.71"
    assert first_ref(kb, both) == "driver-too-old"  # a laptop with both has a driver to upgrade


def test_a_cuda_build_of_torch_asked_for_on_a_mac(kb: KB) -> None:
    pip = (
        "ERROR: Could not find a version that satisfies the requirement torch==2.2.2+cu121 (from versions: 2.0.1, "
        "2.1.0, 2.2.2)\nERROR: No matching distribution found for torch==2.2.2+cu121"
    )
    assert first_ref(kb, pip) == "none"  # PyPI has no +cu121: the index URL is missing, outside the catalogue
    found = explain_text(f"{pip}\nmacOS 14 on an Apple M3", kb, demangle_one)
    assert found[0].ref == "python-unsupported" and "macOS" in found[0].cause


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("cudart64_110.dll and cublas64_11.dll are missing from the torch wheel", "cuda-runtime-missing"),
        ("找不到 cudnn 的库文件", "cuda-runtime-missing"),
        ("the default image's torch has no sm_60 kernels anymore", "arch-not-compiled"),
        ("torch 2.8 ships no kernels for sm_61", "arch-not-compiled"),
        ("cudnnGetVersion symbol not found", "none"),  # a symbol, read by the symbol rules, not a library missing
    ],
)
def test_said_in_words(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_a_companion_from_pypi_next_to_a_torch_from_a_cuda_index(kb: KB) -> None:
    log = (
        "Collecting torchvision\n  Downloading torchvision-0.11.1-cp38-cp38-manylinux1_x86_64.whl (23.3 MB)\n"
        "Requirement already satisfied: torch==1.10.0 in ./venv/lib/python3.8/site-packages (1.10.0+cu113)\n"
        "Successfully installed torchvision-0.11.1\n>>> import torchvision\nOSError: libcudart.so.10.2: cannot open "
        "shared object file"
    )
    found = explain_text(log, kb, demangle_one)
    assert "companion-mismatch" in [d.ref for d in found]
    assert any("cu113" in d.cause for d in found if d.ref == "companion-mismatch")
    # with PyPI's own default CUDA build of torch, PyPI's companion is the same build: no pair split to report
    same = log.replace("1.10.0+cu113", "2.5.1+cu124").replace("torch==1.10.0", "torch==2.5.1")
    assert all("PyPI" not in d.cause for d in explain_text(same, kb, demangle_one))


def test_a_programs_own_could_not_load_torch_is_no_build(kb: KB) -> None:
    assert first_ref(kb, "No module named 'torch'") == "build-isolation-missing-torch"  # a bare title: the build
    assert first_ref(kb, "ERROR Could not load torch: No module named 'torch'") == "none"


def test_a_wheel_renamed_by_hand_is_no_missing_platform(kb: KB) -> None:
    line = "ERROR: {} is not a supported wheel on this platform."
    assert first_ref(kb, line.format("pkg-1.0-cp311-cp311-win_amd64.whl")) == "python-unsupported"
    assert first_ref(kb, line.format("pkg-1.0-py311-cp311-win_amd64.whl")) == "none"
