"""Round BU's structural changes, one per kind of batch BU's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- a companion's library path on the line before "undefined symbol" (a paste wrapped: "libtorchtext.so: \\nundefined
  symbol: \\n_ZN2at...") still owns the symbol;
- FlashAttention-3's own check of the nvcc it builds with ("FlashAttention-3 is only supported on CUDA 12.3 and
  above");
- pip installing torch and a companion together at releases the KB never paired ("Successfully installed
  torch-1.13.1 torchaudio-2.0.0");
- a package's own `_C`, imported relatively, asking another CUDA major's runtime than the text's CUDA: the extension
  is a build for another torch;
- claims in words: a component that "does not support torch>=0.4.1" where its cffi build fails; a named extension that
  "needs to be re-compiled" for torch's new release; a newer driver that made it work; "python==3.12 or greater ...
  not able to run this"; an install "broken ... by new torchvision and torchaudio releases".

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_SYMBOL = "_ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEE"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            f"OSError: /usr/local/lib/python3.9/dist-packages/torchtext/lib/libtorchtext.so: \nundefined symbol: \n"
            f"{_SYMBOL}",
            "companion-mismatch",
        ),
        (
            f"OSError: /usr/local/lib/python3.9/dist-packages/fancy_ops/_C.so: \nundefined symbol: \n{_SYMBOL}",
            "extension-torch-mismatch",
        ),
    ],
)
def test_a_library_path_wrapped_before_undefined_symbol(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "torch.__version__  = 2.5.0+cu124\n"
            '    raise RuntimeError("FlashAttention-3 is only supported on CUDA 12.3 and above")\n'
            "RuntimeError: FlashAttention-3 is only supported on CUDA 12.3 and above",
            "toolkit-torch-cuda-mismatch",
        ),
    ],
)
def test_flash_attention_3s_own_nvcc_check(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_PIP = (
    "pip install torch==1.13.1 torchaudio --extra-index-url=https://download.pytorch.org/whl/cpu\n"
    "Installing collected packages: torch, torchaudio\n"
    "Successfully installed torch-1.13.1 torchaudio-{v}\n"
)


@pytest.mark.parametrize(
    ("text", "ref"), [(_PIP.format(v="2.0.0"), "companion-mismatch"), (_PIP.format(v="0.13.1"), "none")]
)
def test_pip_installing_a_pair_never_released_together(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_RELATIVE = (
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.10/dist-packages/fancy_raster/__init__.py", line 15, in <module>\n'
    "    from . import _C\n"
    "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
    "!nvcc -V\nCuda compilation tools, release {cuda}, V{cuda}.140\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_RELATIVE.format(cuda="12.2"), "extension-torch-mismatch"),
        # the CUDA the text states is the one the module asks for: its runtime is what is missing
        (_RELATIVE.format(cuda="11.8"), "cuda-runtime-missing"),
    ],
)
def test_a_packages_own_c_asking_another_cudas_runtime(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_CFFI = "cffi.error.VerificationError: CompileError: command 'x86_64-linux-gnu-gcc' failed with exit status 1\n"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("fancy_attention does not support torch>=0.4.1\n" + _CFFI, "extension-torch-mismatch"),
        # nothing compiled: a Python package's own support of a release
        ("fancy_logger does not support torch>=0.4.1, please pin it", "none"),
        (
            "The web UI has bumped its PyTorch to 2.2.x, and as such, DeepSpeed needs to be re-compiled for that "
            "version.",
            "extension-torch-mismatch",
        ),
        # no torch in the text: what the build is for is not said
        ("DeepSpeed needs to be re-compiled with the new flags.", "none"),
        (
            "Turns out it was the driver's issue. I changed to another machine with a newer driver and it finally "
            "worked.",
            "driver-too-old",
        ),
        ("I installed a newer printer driver and it worked.", "none"),
        (
            "Major problem: if you have python==3.12 or greater then you are not able to run this.",
            "python-unsupported",
        ),
        (
            "Installation instructions broken, possibly by new torchvision and torchaudio releases.",
            "companion-mismatch",
        ),
        # a new release with nothing broken
        ("The new torchvision and torchaudio releases are out.", "none"),
    ],
)
def test_causes_said_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
