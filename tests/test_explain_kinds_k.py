"""Round K's structural changes, one per kind of miss in batch K's first measurement (tests/data/explain-corpus/
README.md): no NVIDIA GPU said in other words, xFormers' banner without its CUDA part, a compiled extension named
instead of "the package" in a claim, uv quoting the package it builds, a wheel said absent for a platform, pip's
words in translation, a CUDA library said missing in Chinese or by the symbol the loader could not find.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.demangle import demangle_one
from envplan.live.diagnose import explain_text
from envplan.live.diagnose.prose import said_in_words
from envplan.live.diagnose.text import Text
from helpers import first_ref

ASSERT = "AssertionError: Torch not compiled with CUDA enabled"


@pytest.mark.parametrize("said", ["(I am using CPU only)", "I'm running on the CPU", "在纯CPU环境下运行"])
def test_no_nvidia_gpu_said_in_other_words_silences_the_cpu_build(kb: KB, said: str) -> None:
    assert first_ref(kb, f"{ASSERT}\n{said}") == "none"


@pytest.mark.parametrize("said", ["it is using the CPU only, not my RTX 3090", "I got the CPU version of torch"])
def test_a_cpu_build_said_is_still_a_cpu_build(kb: KB, said: str) -> None:
    assert first_ref(kb, f"{ASSERT}\n{said}") == "cpu-only-build"


def test_xformers_banner_without_its_cuda_part(kb: KB) -> None:
    log = (
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.3.1 (you have 2.4.0+cu121)\n    Python  3.11.5 (you have 3.11.5)"
    )
    found = explain_text(log, kb, demangle_one)
    assert found[0].ref == "extension-torch-mismatch" and "2.3.1" in found[0].cause


@pytest.mark.parametrize(
    "words", ["PyTorch 与 MMCV 的版本冲突导致安装失败", "the PyTorch and xFormers versions do not match"]
)
def test_a_named_extension_is_the_package_of_a_claim(kb: KB, words: str) -> None:
    assert [c.ref for c in said_in_words(Text(words), kb)] == ["extension-torch-mismatch"]


def test_uv_quoting_the_package_it_builds(kb: KB) -> None:
    log = (
        "error: Failed to download and build `torch-scatter==2.1.2`\n"
        "  Caused by: Build backend failed to determine extra requires with `build_wheel()` with exit status: 1\n"
        '  File "/tmp/env/lib/python3.12/site-packages/setuptools/build_meta.py", line 327, in '
        "get_requires_for_build_wheel"
    )
    assert first_ref(kb, log) == "build-isolation-missing-torch"


@pytest.mark.parametrize(
    ("words", "ref"),
    [
        ("there is not win_amd64 .whl for mamba_ssm", ["python-unsupported"]),
        ("无法找到满足要求的PyTorch版本", ["python-unsupported"]),
        ("PyTorch builds for Windows reference a DLL in their binary modules that is not included", []),
    ],
)
def test_no_build_for_this_platform_said_in_words(kb: KB, words: str, ref: list[str]) -> None:
    assert [c.ref for c in said_in_words(Text(words), kb)] == ref


@pytest.mark.parametrize(
    "log",
    [
        "Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor",
        "系统提示无法加载libcudnn_ops_infer.so.8库文件",
        "libcudnn_ops_infer.so.8 库文件缺失",
    ],
)
def test_a_cuda_library_missing_in_other_words(kb: KB, log: str) -> None:
    assert first_ref(kb, log) == "cuda-runtime-missing"
