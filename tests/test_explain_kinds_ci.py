"""Round CI's structural changes, one per kind of batch CI's first-measurement misses its blind reader read right
(tests/data/explain-corpus/README.md):

- a message wrapped inside the panel a terminal library draws around a traceback ("│ ImportError: ... undefined │"
  then "│ symbol: _ZN...", torch-harmonics#226): the panel's side borders are no part of it;
- bitsandbytes 0.46's own words for the binary it lacks ("Configured CUDA binary not found at
  .../libbitsandbytes_cuda129.so", bitsandbytes#1688);
- a package's compiled parts said to link another CUDA's runtime than the image's ("vLLM extensions linked to
  libcudart.so.12", "the image only contains CUDA 13 runtime libraries", llm-d#1402);
- the CPU version named as a case a program must handle ("The following error used to appear if you have cpu-only
  version of PyTorch", brevitas#741): the program's check, not a wrong build;
- a package said not to support a Python with words between ("does not currently have support for Python 3.13",
  vs-rife#73); torch said not installable on a Python in Chinese ("用3.10 pytorch ... 安装不了", MockingBird#323); a
  Python's support asked for and pip retold finding nothing ("Support Python version 3.11", "Says no matching
  distribution", pytorch/rl#1432);
- an RTX 50 card failing with no message: "unable to use" and "stuck at" say it fails (ultimatevocalremovergui#1752),
  and an AMD processor beside it is no AMD GPU (ultimatevocalremovergui#1900).

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose.text import plain
from helpers import assert_first_ref

_PANEL = (
    "\u2502 ImportError: /work/.venv/lib/python3.12/site-packages/torch_harmonics/attention/_C.cpython-312-x86_64-"
    "linux-gnu.so: undefined        \u2502\n"
    "\u2502 symbol: _ZN3c104cuda9SetDeviceEi                                                                \u2502\n"
)


def test_panel_borders_go_and_inner_bars_stay() -> None:
    text = plain("\u256d\u2500 Traceback \u2500\u256e\n\u2502 a \u2502 b   \u2502\n\u2502 c        \u2502\n")
    assert text == "\u256d\u2500 Traceback \u2500\u256e\na \u2502 b\nc\n"


@pytest.mark.parametrize(
    ("panel", "ref"),
    [
        (_PANEL, "extension-torch-mismatch"),
        ("\u2502 ModuleNotFoundError: No module named 'healda_config'          \u2502\n", "none"),
    ],
)
def test_message_wrapped_inside_a_panel(kb: KB, panel: str, ref: str) -> None:
    assert_first_ref(kb, f"I get this error after `pip install torch-harmonics`:\n{panel}", ref)


@pytest.mark.parametrize(
    ("line", "ref"),
    [
        (
            "RuntimeError: Configured CUDA binary not found at /usr/local/lib/python3.12/dist-packages/bitsandbytes/"
            "libbitsandbytes_cuda129.so",
            "extension-torch-mismatch",
        ),
        (
            "bitsandbytes: loaded /usr/local/lib/python3.12/dist-packages/bitsandbytes/libbitsandbytes_cuda129.so",
            "none",
        ),
    ],
)
def test_bitsandbytes_binary_not_found(kb: KB, line: str, ref: str) -> None:
    assert_first_ref(kb, f"import bitsandbytes in a CUDA 12.9 environment\n{line}", ref)


@pytest.mark.parametrize(
    ("image", "ref"),
    [
        ("the image only contains CUDA 13 runtime libraries", "extension-torch-mismatch"),
        (
            "the image only contains CUDA 12 runtime libraries, in a folder not on the library path",
            "cuda-runtime-missing",
        ),
    ],
)
def test_extension_linked_to_another_cuda_runtime(kb: KB, image: str, ref: str) -> None:
    text = (
        "vLLM native extensions are linked against `libcudart.so.12`, but "
        f"{image}.\nImportError: libcudart.so.12: cannot open shared object file: No such file or directory"
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("The following error used to appear if you have cpu-only version of PyTorch:", "none"),
        (
            "The following error appears on my RTX 3090 since pip gave me the cpu-only version of PyTorch:",
            "cpu-only-build",
        ),
    ],
)
def test_cpu_version_named_as_a_case(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"{said}\n`AssertionError: Torch not compiled with CUDA enabled`", ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "torch_tensorrt does not currently have support for Python 3.13 on the cu126 index, causing an "
            "installation error",
            "python-unsupported",
        ),
        (
            "Dynamo does not currently have support for Python 3.13: the installation works, torch.compile fails",
            "none",
        ),
        ("\u7528" + "3.10 pytorch\u548c\u4e00\u5927\u7968packages\u90fd\u5b89\u88c5\u4e0d\u4e86", "python-unsupported"),
        ("\u7528" + "3.10 pytorch\u5b89\u88c5\u597d\u4e86\uff0c\u4f46\u662f\u8bad\u7ec3\u62a5\u9519", "none"),
        (
            "Support Python version 3.11\nI couldn't install it. Says no matching distribution when I run pip install "
            "torchrl",
            "python-unsupported",
        ),
        ("Support Python version 3.11\nIt installs with pip install torchrl, but two tests fail on 3.11", "none"),
    ],
)
def test_python_said_unsupported(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "I upgraded my GPU from an Nvidia GTX 980Ti to an RTX 5070 and now the app gets stuck at 5% with GPU "
            "acceleration.\nCPU: AMD Ryzen 9 7900\nGraphics Card: NVIDIA GeForce RTX 5070",
            "arch-not-compiled",
        ),
        (
            "I upgraded my GPU to an AMD Radeon RX 7900 and now the app gets stuck at 5% with GPU acceleration.\n"
            "My old card was an RTX 5070",
            "none",
        ),
        ("Unable to use the RTX 5080 for GPU conversion\nI upgraded from a RTX 3090", "arch-not-compiled"),
        ("Unable to use the RTX 5080 for GPU conversion\nCUDA out of memory with the largest model", "none"),
    ],
)
def test_rtx50_card_failing_without_a_message(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
