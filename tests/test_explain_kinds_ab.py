"""Round AB's structural changes, one per kind of miss in batch AB's first measurement (tests/data/explain-corpus/
README.md) that a reader of the text alone named right: nvidia-docker 1.0's own driver check; DeepSpeed's "Unable to
pre-compile ops without torch installed"; bitsandbytes' newer "Could not find the bitsandbytes CUDA binary"; ONNX
Runtime's "CUDA_PATH is set but CUDA wasnt able to be loaded"; torch's caffe2_nvrtc.dll failing on Windows; DGL's
per-torch library on Windows; an extension's CUDA libtorch missing under a CPU torch the text shows; a package's C++
ABI flag stated; a pinned torch checked at import ("Invalid dependency version"); a known extension's module with
"undefined symbol" in a title; a package wanting another CUDA's runtime than torch's; "exec format error" on another
architecture; distutils gone in Python 3.12; torchvision's own "Not compiled with CUDA support"; ARM boards by their
SoC; and claims said in words (a CPU build pulled, a GPU architecture the builds do not support, no builds for a
platform, a version mismatch while compiling with a CUDA, a companion's mismatched versions, a CUDA too old for
torch's, pip finding nothing on a named platform in Chinese). Two readings made silent: a CPU build installed on
purpose, and torch "did not find available GPUs".

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("docker: Error response from daemon: unsupported CUDA version: driver 10.1 < image 11.0", "driver-too-old"),
        ("docker: Error response from daemon: unsupported CUDA version", "none"),
    ],
)
def test_nvidia_docker_refusing_an_image(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "pip install deepspeed\nAssertionError: Unable to pre-compile ops without torch installed. Please install "
            "torch before attempting to pre-compile ops.",
            "build-isolation-missing-torch",
        ),
        (  # the setup script run by hand in an interpreter without torch: nothing isolated it
            "python setup.py install\nAssertionError: Unable to pre-compile ops without torch installed.",
            "none",
        ),
    ],
)
def test_deepspeeds_own_words_for_torch_missing_in_its_build(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_bitsandbytes_without_a_binary_for_torchs_cuda(kb: KB) -> None:
    text = (
        "WARNING:bitsandbytes.cextension:Could not find the bitsandbytes CUDA binary at "
        "PosixPath('/venv/lib/python3.12/site-packages/bitsandbytes/libbitsandbytes_cuda129.so')"
    )
    (first, *_) = explain_text(text, kb)
    assert first.ref == "extension-torch-mismatch" and "CUDA 12.9" in first.cause
    assert_first_ref(kb, "Could not find the bitsandbytes CUDA binary, see the docs", "none")


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "onnxruntime_pybind_state.cc:857 onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is set but "
            "CUDA wasnt able to be loaded. Please install the correct version of CUDA and cuDNN",
            "cuda-runtime-missing",
        ),
        ("CUDA_PATH is set to C:\\CUDA\\v12.4", "none"),
    ],
)
def test_onnxruntime_finding_no_cuda(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\venv\\Lib\\'
            'site-packages\\torch\\lib\\caffe2_nvrtc.dll" or one of its dependencies.',
            "cuda-runtime-missing",
        ),
        (  # torch's c10.dll: the C++ runtime in most threads, no CUDA library
            'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\venv\\Lib\\'
            'site-packages\\torch\\lib\\c10.dll" or one of its dependencies.',
            "none",
        ),
    ],
)
def test_torchs_nvrtc_wrapper_failing_on_windows(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("import dgl\nThere is no such file `graphbolt_pytorch_2.5.1.dll`.", "extension-torch-mismatch"),
        ("import dgl\nloaded graphbolt_pytorch_2.5.1.dll", "none"),
    ],
)
def test_dgls_per_torch_library_on_windows(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "    import _openmmtorch\nImportError: libtorch_cuda.so: cannot open shared object file: No such file or "
            "directory\nconda list: pytorch 2.1.2 cpu_generic_py311h4b5ea2c_0 conda-forge",
            "cpu-only-build",
        ),
        (  # no CPU build shown: an extension linked against a torch library the installed torch lacks
            "    import _openmmtorch\nImportError: libtorch_cuda.so: cannot open shared object file: No such file",
            "extension-torch-mismatch",
        ),
    ],
)
def test_a_cuda_extension_under_a_cpu_torch_the_text_shows(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "RuntimeError: This mylib package was compiled with CXX11_ABI_FLAG=0\nOSError: /env/site-packages/mylib/"
            "libops_pt.so: undefined symbol: _ZNK5torch8autograd4Node4nameEv",
            "cxx11-abi-mismatch",
        ),
        (
            "the nightly torch wheel is build with C++11 ABI on, causing error with torch-xla\nimport _XLAC",
            "cxx11-abi-mismatch",
        ),
        ("This package was compiled with CXX11_ABI_FLAG=1 and loads fine", "none"),
    ],
)
def test_a_packages_abi_flag_stated(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("ImportError Invalid dependency version torch==2.1.0. Expected torch==1.13.1", "extension-torch-mismatch"),
        ("ImportError Invalid dependency version torch==1.13.1+cu117. Expected torch==1.13.1", "none"),
    ],
)
def test_a_pinned_torch_checked_at_import(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("flash_attn_2 undefined symbol", "extension-torch-mismatch"),
        ("selective_scan_cuda: undefined symbol", "extension-torch-mismatch"),
        ("mylib undefined symbol", "none"),  # no package the KB knows: nothing says it is built against torch
    ],
)
def test_a_known_extensions_module_in_a_title(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "vllm 0.21 with the cu129 torch backend tries to open libcudart.so.13\nPyTorch version: 2.11.0+cu129",
            "extension-torch-mismatch",
        ),
        ("libcudart.so.13 required when torch-backend=cu129 on vllm v0.22.0", "extension-torch-mismatch"),
        ("libcudart.so.13 required when torch-backend=cu130 on vllm v0.22.0", "none"),  # the same CUDA major
    ],
)
def test_a_package_wanting_another_cudas_runtime(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("docker run pytorch/pytorch:latest on my Jetson Orin: exec format error", "python-unsupported"),
        ("standard_init_linux.go:228: exec user process caused: exec format error (my entrypoint.sh)", "none"),
    ],
)
def test_a_binary_for_another_architecture(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("ModuleNotFoundError: No module named 'distutils'\nPython 3.12.4", "python-unsupported"),
        ("ModuleNotFoundError: No module named 'distutils'\nPython 3.10.12 on Ubuntu", "none"),  # Debian's split
    ],
)
def test_distutils_gone_in_python_312(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            'File "site-packages/torchvision/ops/boxes.py", line 41, in nms\n    return torch.ops.torchvision.nms('
            "boxes, scores, iou_threshold)\nRuntimeError: Not compiled with CUDA support",
            "companion-mismatch",
        ),
        ("mmdet/ops/roi_align.py\nRuntimeError: Not compiled with CUDA support", "none"),  # another package's build
    ],
)
def test_torchvisions_own_kernels_without_cuda(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "pip install pynini on my RK3588 board\nERROR: Could not find a version that satisfies the requirement "
            "pynini (from versions: none)",
            "python-unsupported",
        ),
        (  # no platform named: a package not on the index says the same
            "pip install pynini\nERROR: Could not find a version that satisfies the requirement pynini (from "
            "versions: none)",
            "none",
        ),
    ],
)
def test_an_arm_board_named_by_its_soc(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("The install command for the GPU packages automatically pulls the CPU versions.", "cpu-only-build"),
        ("uvx defaults to the [cpu] version even when having cuda installed", "cpu-only-build"),
        ("On my MacBook uv defaults to the cpu version, fine", "none"),
        ("I installed pytorch with cpu option but the script gives a cuda error", "none"),  # chosen on purpose
    ],
)
def test_a_cpu_build_pulled_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("PyTorch not supporting cards with compute capability SM 86, on my two RTX A5000s", "arch-not-compiled"),
        ("Thor's GPU is sm_110, which the CUDA 12.9 torch wheels were not built for", "arch-not-compiled"),
        # a capability written as a decimal is torch's own warning, read by the kernels rule (silent for 12.1)
        ("PyTorch build does not support SM 12.1?", "none"),
    ],
)
def test_an_architecture_the_builds_do_not_support_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("There are no arm64 builds of 0.11.1 for macOS available on pip.", "python-unsupported"),
        ("There are no nightly builds on Sundays.", "none"),
    ],
)
def test_no_builds_for_a_platform(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "I compile the custom kernel with cuda 11.1 using python3 setup.py install and it says version mismatch",
            "toolkit-torch-cuda-mismatch",
        ),
        ("I compile the custom kernel with cuda 11.1 and it says gcc version mismatch", "none"),
    ],
)
def test_a_version_mismatch_while_compiling_with_a_cuda(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("[Issue]: torchvision import crashes due to mismatched package versions", "companion-mismatch"),
        ("[Issue]: importing the app crashes due to mismatched package versions", "none"),
    ],
)
def test_a_companions_mismatched_versions_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "When I start serve I get an error about my CUDA being too old. torch in the container is 2.11.0 with "
            "CUDA 13.",
            "driver-too-old",
        ),
        ("The build says my CUDA is too old; torch in the container is 2.11.0 with CUDA 13.", "none"),
    ],
)
def test_a_cuda_too_old_for_torchs_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("在Windows环境下安装Triton 3.0.0时,系统无法找到满足要求的Triton版本", "python-unsupported"),
        ("安装时系统无法找到满足要求的Triton版本", "none"),  # no platform named
    ],
)
def test_pip_finding_nothing_on_a_named_platform_in_chinese(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    "text",
    [
        "Warning: Torch did not find available GPUs on this system. When I installed fastfold, it failed.",
        "Hi, I know the support for torch 2.0.1 is not available yet, so I pip install torch==1.13.1",
    ],
)
def test_no_torch_missing_from_the_index(kb: KB, text: str) -> None:
    assert_first_ref(kb, text, "none")
