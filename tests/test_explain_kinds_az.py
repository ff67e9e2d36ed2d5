"""Sourced facts read before batch AZ was measured, and round AZ's structural changes (tests/data/explain-corpus/
README.md):

- ONNX Runtime's warning that its CUDA provider could not be created, sending the user to the provider's requirements
  (the CUDA and cuDNN it loads), and its provider library said not to load in any words: a CUDA library not found;
- "no kernel image" with no sm_XX shown but one NVIDIA card named that the KB knows (gpus.toml now holds NVIDIA's
  legacy page down to Kepler): the fix names the card's architecture.

- platform_since.toml (PyPI's files): bitsandbytes ships Windows wheels from 0.43.0 (aarch64 from 0.46.0, Apple
  silicon from 0.49.0), its older releases one py3-none-any wheel with Linux libraries only; failing or said
  unsupported there, with no release from then stated and no Windows build of its own loaded, it is too old for the
  platform (peft#431, llama-cookbook#358, kohya_ss#1000 and #1775 of the corpus).

Round AZ, one structural change per kind of batch AZ's first-measurement misses that its blind reader named right:

- torch.load's own advice ("If you are running on a CPU-only machine, please use torch.load with map_location") is not
  the user saying the machine has no GPU: a CPU build said in the title reads again;
- CUDA's "driver insufficient" next to a card newer than the CUDA named ("RTX 50-series, sm_120 ... base image is CUDA
  12.2"): the driver that runs the card is newer than that CUDA's floor, so the old CUDA has no kernels for the card;
- Python 3.8 syntax (the f-string "=" specifier, ":=") failing to parse in a python3.6/3.7 site-packages: the package
  needs a newer Python;
- the system's CUDA and torch's stated after a "but" ("系统 CUDA 为 11.3,但 ... torch ... CUDA 11.7"), with a build
  (编译) named: nvcc's CUDA against torch's.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from packaging.version import Version

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 CreateExecutionProviderInstance] Failed to create "
            "CUDAExecutionProvider. Please reference https://onnxruntime.ai/docs/execution-providers/"
            "CUDA-ExecutionProvider.html#requirementsto ensure all dependencies are met.",
            "cuda-runtime-missing",
        ),
        ("运行时报错\uff0cload失败\uff0connxruntime_providers_cuda.dll", "cuda-runtime-missing"),
        ("ライブラリ libonnxruntime_providers_cuda.so の読み込みに失敗しました", "cuda-runtime-missing"),
        # the provider named, nothing said to fail: a question about it
        ("Where does pip put onnxruntime_providers_cuda.dll for the GPU build?", "none"),
        # another provider that could not be created is not CUDA's
        ("Failed to create TensorrtExecutionProvider. Please check the TensorRT install.", "none"),
    ],
)
def test_onnxruntime_s_cuda_provider_not_loading(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "sm"),
    [
        ("GeForce GTX 780 Ti: CUDA error: no kernel image is available for execution on the device", "sm_35"),
        ("my Quadro P2000 says: no kernel image is available for execution on the device", "sm_61"),
        # two cards of different capabilities: which one failed is not said
        ("works on the RTX 3090, not on the Tesla K80: no kernel image is available for execution on the device", ""),
    ],
)
def test_no_kernel_image_names_the_one_card_s_architecture(kb: KB, text: str, sm: str) -> None:
    (first, *_) = explain_text(text, kb)
    assert first.ref == "arch-not-compiled"
    if sm:
        assert f"({sm})" in first.cause and sm in first.fix
    else:
        assert "(sm_" not in first.cause


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "conda installs the cpu only version of pytorch\nRuntimeError: Attempting to deserialize object on a CUDA "
            "device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use "
            "torch.load with map_location=torch.device('cpu') to map your storages to the CPU.",
            "cpu-only-build",
        ),
        # the user's own CPU-only machine: the checkpoint's CUDA tensors are the program's to map
        (
            "I am on a CPU-only machine.\nRuntimeError: Attempting to deserialize object on a CUDA device but "
            "torch.cuda.is_available() is False.",
            "none",
        ),
    ],
)
def test_torch_load_s_own_advice_is_not_the_user_s_machine(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "The image fails on an RTX 5080 (sm_120); its base image is CUDA 12.2.\nCUDA failure 35: CUDA driver "
            "version is insufficient for CUDA runtime version",
            "arch-not-compiled",
        ),
        # a card CUDA 12.2 knows: the driver's age is the message's
        (
            "The image fails on an RTX 3090; its base image is CUDA 12.2.\nCUDA failure 35: CUDA driver version is "
            "insufficient for CUDA runtime version",
            "driver-too-old",
        ),
    ],
)
def test_driver_insufficient_on_a_card_newer_than_the_cuda_named(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            '  File "/home/u/.local/lib/python3.6/site-packages/fooml/models/__init__.py", line 1, in <module>\n'
            '  File "<fstring>", line 1\n    (norm=)\n         ^\nSyntaxError: invalid syntax',
            "python-unsupported",
        ),
        (
            '  File "/usr/lib/python3.7/site-packages/fooml/io.py", line 3\n    if (n := len(a)) > 10:\n'
            "           ^\nSyntaxError: invalid syntax",
            "python-unsupported",
        ),
        # the same syntax on Python 3.9 parses: the syntax error is the code's own
        (
            '  File "/usr/lib/python3.9/site-packages/fooml/io.py", line 3\n    if (n := len(a) > 10:\n'
            "           ^\nSyntaxError: invalid syntax",
            "none",
        ),
    ],
)
def test_python_3_8_syntax_in_an_older_interpreter(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "系统 CUDA 为 11.3,但 pip install torch 默认安装了绑定 CUDA 11.7 的版本。编译自定义算子时报错。",
            "toolkit-torch-cuda-mismatch",
        ),
        (
            "The system CUDA is 11.3, but pip installed torch built for CUDA 11.7; building the extension fails.",
            "toolkit-torch-cuda-mismatch",
        ),
        # nothing built: both CUDAs stated is no nvcc against torch
        ("系统 CUDA 为 11.3,但 pip install torch 默认安装了绑定 CUDA 11.7 的版本。运行时报错。", "none"),
    ],
)
def test_system_cuda_then_torch_s_after_a_but(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("bits_and_bytes not support windows, how to fine-tune whisper on windows?", "python-unsupported"),
        ("Windows+jupyternotebook运行llama-recipes报错bitsandbytes", "python-unsupported"),
        ("ModuleNotFoundError: No module named 'bitsandbytes.cuda_setup.paths' (Windows users)", "python-unsupported"),
        ("bitsandbytes on an Apple silicon Mac: error loading the library", "python-unsupported"),
        # a release with Windows wheels stated: its failure is another
        ("bitsandbytes==0.45.5 not support windows?", "none"),
        # a Windows build of its own loaded, or its CUDA sources reporting the error: a build for the platform runs
        ("CUDA SETUP: Loading binary C:\\env\\bitsandbytes\\libbitsandbytes_cpu.dll... error: no GPTQ module", "none"),
        ("Error invalid argument at line 167 in file D:\\ai\\tool\\bitsandbytes\\csrc\\ops.cu on Windows 11", "none"),
        # no platform named
        ("bitsandbytes error: CUDA Setup failed", "none"),
        # a Jetson: the aarch64 wheels are server ARM's (SBSA) CUDA, not JetPack's, so no release fixes it
        ("bitsandbytes fails on my Jetson Orin (aarch64)", "none"),
        # an Intel Mac: no release has a wheel for it
        ("bitsandbytes on macOS (Intel i9): error loading the library", "none"),
    ],
)
def test_a_package_older_than_its_platform_s_first_wheels(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_platform_fix_names_the_first_release(kb: KB) -> None:
    (first, *_) = explain_text("bitsandbytes not supported on Windows", kb)
    assert first.ref == "python-unsupported" and "bitsandbytes>=0.43.0" in first.fix


_PLATFORM_TAG = {
    "windows": re.compile(r"-win_amd64\.whl$"),
    "linux-aarch64": re.compile(r"-manylinux[\w.]*aarch64\.whl$"),
    "macos-arm64": re.compile(r"-macosx_[\w.]*arm64\.whl$"),
}


def test_platform_since_rows_are_well_formed(kb: KB) -> None:
    assert kb.platform_since["bitsandbytes"]["windows"] == "0.43.0"
    for name, since in kb.platform_since.items():
        assert since and set(since) <= set(_PLATFORM_TAG), name


@pytest.mark.network
def test_platform_since_is_what_pypi_says(kb: KB) -> None:
    """Each row's first release is the oldest on PyPI with a wheel for that platform (yanked files count)."""
    for name, since in kb.platform_since.items():
        with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/json", timeout=60) as response:
            releases = json.load(response)["releases"]
        for platform, first in since.items():
            tag = _PLATFORM_TAG[platform]
            having = [Version(v) for v, files in releases.items() if any(tag.search(f["filename"]) for f in files)]
            assert having and min(having) == Version(first), (name, platform, sorted(having)[:3])
