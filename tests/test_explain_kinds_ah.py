"""Round AH's structural changes, one per kind of batch AH's first-measurement misses (tests/data/explain-corpus/
README.md) that its blind reader named right, and one made silent: DeepSpeed's "Unable to pre-compile ops without
torch installed" with a pip install named; a "Support for Blackwell GPU (50xx)" request that there is "no support for
it"; k2's "was built using CUDA 10.1 But you are using CUDA 10.2"; xFormers' "can't load C++/CUDA extensions" alone; a
kernel "for sm80, but was built for sm750"; "torchvision 0.13.0 requires torch==1.12.0" with another torch said; a pin
with an environment marker pip offers only newer releases of; a package's own refusal of a platform ("uvloop does not
support Windows"); "只能在Linux上安装使用"; a mirror that "只有 CPU 版本" (no longer read as a machine without a GPU);
"torch 2.9.1 (no CUDA)". Made silent: "No module named 'torch'" where the user says they ran code.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "AssertionError: Unable to pre-compile ops without torch installed.\nMy PyTorch imports fine, but pip "
            "install DeepSpeed always says it cannot import torch.",
            "build-isolation-missing-torch",
        ),
        # torch missing where code is run: nothing isolated it
        (
            "我按照文档安装成功了环境\uff0c但是在运行下面这段代码 from funasr import AutoModel\n"
            "ModuleNotFoundError: No module named 'torch'",
            "none",
        ),
        ("When I run the following code\nModuleNotFoundError: No module named 'torch'", "none"),
    ],
)
def test_torch_missing_in_a_build_or_in_a_run(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ImportError: k2 was built using CUDA 10.1\nBut you are using CUDA 10.2 to run it.",
            "extension-torch-mismatch",
        ),
        ("ImportError: k2 was built using CUDA 10.1\nBut you are using CUDA 10.1 to run it.", "none"),
        ("Google Colab: WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions", "extension-torch-mismatch"),
        (
            "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions\ntorch 2.1.0+cpu",
            "cpu-only-build",
        ),
        ("FATAL: this function is for sm80, but was built for sm750", "arch-not-compiled"),
        (
            "[REQUEST]: Support for Blackwell GPU (50xx)\nRecently got a 50xx series card and we have no support "
            "for it.",
            "arch-not-compiled",
        ),
        ("[REQUEST]: Support for Blackwell GPU (50xx) in the benchmark table", "none"),
    ],
)
def test_a_build_for_another_torch_cuda_or_gpu(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("默认安装torch最新2.1.1\uff0c但是torchvision 0.13.0 requires torch==1.12.0", "companion-mismatch"),
        ("I have torch 1.12.0 and torchvision 0.13.0 requires torch==1.12.0, fine", "none"),
        (
            "提醒\uff1aWindows下pip install -r requirements.txt默认安装为CPU版本的torch\n"
            "清华镜像源中的 torch 只有 CPU 版本的。",
            "cpu-only-build",
        ),
        ("我的电脑只有CPU\uff0c运行时报错 CUDA not available", "none"),
        ("pip install -r requirements.txt replaced:\n- torch 2.10.0+cu130 -> torch 2.9.1 (no CUDA)", "cpu-only-build"),
    ],
)
def test_a_companion_or_a_cpu_build_said(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            'ERROR: Could not find a version that satisfies the requirement onnxruntime==1.16.3; extra == "tensorrt" '
            "(from streamdiffusion[tensorrt]) (from versions: 1.17.0, 1.17.1, 1.17.3)",
            "python-unsupported",
        ),
        ("      RuntimeError: uvloop does not support Windows at the moment", "python-unsupported"),
        ("Our docs do not support Windows paths with spaces", "none"),
        ("你这项目所需的 triton 库\uff0c只能在Linux上安装使用\uff0cWindows用不了", "python-unsupported"),
        ("这个模型只能在Linux上训练吗\uff1f我用的就是Linux", "none"),
    ],
)
def test_no_build_for_this_platform(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
