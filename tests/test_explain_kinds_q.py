"""Round Q's structural changes, one per kind of miss in batch Q's first measurement (tests/data/explain-corpus/
README.md): pip finding nothing of any package on a platform the text names, macOS's loader naming torch's library
as where a symbol was expected, a CPU build said in other words, a glibc said incompatible, any package said not built
for a Python, torchvision's "Could not run" cut short, a CUDA library's own entry point undefined.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.demangle import demangle_one
from envplan.live.diagnose import explain_text
from helpers import first_ref

_NOTHING = "ERROR: Could not find a version that satisfies the requirement {0} (from versions: none)\n" + (
    "ERROR: No matching distribution found for {0}"
)


@pytest.mark.parametrize("platform", ["Jetson Orin (aarch64)", "Windows 11, 32-bit Python", "macOS 14, Apple M3"])
def test_a_package_with_nothing_for_the_named_platform(kb: KB, platform: str) -> None:
    found = explain_text(f"{platform}\n{_NOTHING.format('decord')}", kb, demangle_one)
    assert found[0].ref == "python-unsupported" and "decord" in found[0].cause


def test_a_package_with_nothing_and_no_platform_named_is_silent(kb: KB) -> None:
    # a package not published at all looks the same; without a platform the text cannot tell the two apart
    assert first_ref(kb, _NOTHING.format("torchmdnet")) == "none"


def test_triton_on_windows_has_no_wheel_there(kb: KB) -> None:
    # round Q read it as torch.compile missing on Windows (LivePortrait#124, `none`); batch V brought two threads that
    # settle the same text as no triton wheel for Windows (LatentSync#55, StableTuner#110), so round V reads it so
    assert first_ref(kb, f"on windows\n{_NOTHING.format('triton==3.0.0')}") == "python-unsupported"
    assert first_ref(kb, f"on a Jetson (aarch64)\n{_NOTHING.format('triton==3.0.0')}") == "python-unsupported"


_MAC_LOADER = (
    "ImportError: dlopen(/env/lib/python3.10/site-packages/{pkg}/_C.so, 0x0002): Symbol not found: {sym}\n"
    "  Referenced from: <UUID> /env/lib/python3.10/site-packages/{pkg}/_C.so\n"
    "  Expected in:     <UUID> /env/lib/python3.10/site-packages/{where}\n"
)


def test_a_symbol_macos_expected_in_torchs_library_is_torchs(kb: KB) -> None:
    sym = "__ZN8somelib6detail4castEv"  # not in torch's namespaces: only the loader's words tie it to torch
    text = _MAC_LOADER.format(pkg="myext", sym=sym, where="torch/lib/libtorch_python.dylib")
    assert first_ref(kb, text) == "extension-torch-mismatch"
    elsewhere = _MAC_LOADER.format(pkg="myext", sym=sym, where="somelib/libsomelib.dylib")
    assert first_ref(kb, elsewhere) == "none"


def test_torchs_pybind11_caster_of_a_tensor_is_torchs_symbol(kb: KB) -> None:
    sym = "_ZN8pybind116detail11type_casterIN2at6TensorEvE4castERKS3_NS_19return_value_policyENS_6handleE"
    text = f"ImportError: /env/site-packages/myext/_C.so: undefined symbol: {sym}"
    assert first_ref(kb, text) == "extension-torch-mismatch"


@pytest.mark.parametrize(
    "words",
    [
        "the environment.yml installs `cpu` versions of `pytorch` instead of the gpu ones",
        "conda installs cpu instead of gpu version of pytorch",
    ],
)
def test_a_cpu_build_in_other_words(kb: KB, words: str) -> None:
    assert first_ref(kb, words) == "cpu-only-build"


@pytest.mark.parametrize(
    ("words", "ref"),
    [
        ("GLIBC incompatibility issue on CentOS 7", "glibc-too-old"),
        ("importing the wheel causes a failure due to GLIBC 2.29", "glibc-too-old"),
        ("CUDA extension build failure on glibc 2.38 due to a math header mismatch", "none"),  # a header clash
    ],
)
def test_a_glibc_said_incompatible(kb: KB, words: str, ref: str) -> None:
    assert first_ref(kb, words) == ref


@pytest.mark.parametrize(
    "words", ["there is no build of tensorrt available for python 3.11", "onnxruntime-gpu is not built for Python 3.13"]
)
def test_any_package_said_not_built_for_a_python(kb: KB, words: str) -> None:
    assert first_ref(kb, words) == "python-unsupported"


def test_torchvisions_could_not_run_cut_short(kb: KB) -> None:
    assert first_ref(kb, "Error FaceDetailerPipe: Could not run torchvision::nms") == "companion-mismatch"
    assert first_ref(kb, "Could not run torchvision::nms on my images, the boxes are wrong") == "none"


@pytest.mark.parametrize(
    ("line", "family"),
    [
        ("undefined symbol: cublasGemmGroupedBatchedEx", "cublas"),
        ("libtorch_cuda.so: undefined symbol: cudnnGetLibConfig", "cuDNN"),
    ],
)
def test_a_cuda_librarys_own_entry_point_undefined(kb: KB, line: str, family: str) -> None:
    found = explain_text(f"ImportError: {line}", kb, demangle_one)
    assert found[0].ref == "cuda-runtime-missing" and family in found[0].cause
