"""Round BM's structural changes, one per kind of batch BM's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- Windows' "DLL load failed: The specified procedure could not be found." without the module's name (Python before
  3.8 prints none): the traceback's code line above it names it ("from detectron2 import _C");
- "undefined symbol" typed with a space inside the word ("un defined symbol: _ZNK2at10TensorBase4nameEv");
- a Linux-only extension said to need Linux, the machine not shown to be Linux ("mamba_ssm必须要用linux系统");
- a CPU build said as torch "installed with the cpu version".

Made silent: a pin whose release pip offers only as post releases ("causal-conv1d==1.2.0" against "1.2.0.post1":
the pin misses its suffix, the Python is not what fails); the driver's libcuda missing on a machine said to have no
GPU ("a Linux VM w/o any GPU"); a "version mismatch" between two patch releases of one CUDA (11.3.0 and 11.3.1: torch
compares major and minor). The texts are written for the tests (the kind, not a report's wording); each kind has a
text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_PROCEDURE = "ImportError: DLL load failed: The specified procedure could not be found."


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Updated torch.\n    from detectron2 import _C\n" + _PROCEDURE, "extension-torch-mismatch"),
        ("    import flash_attn_2_cuda as flash_attn_cuda\n" + _PROCEDURE, "extension-torch-mismatch"),
        # another stack's module, or torch's own, above the message: nothing of an extension
        ("    import cv2\n" + _PROCEDURE, "none"),
        ('  File "C:\\env\\torch\\__init__.py", line 81\n    from torch._C import *\n' + _PROCEDURE, "none"),
    ],
)
def test_the_module_windows_leaves_unnamed_is_the_one_imported_above(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ops.cpython-311-x86_64-linux-gnu.so: un defined symbol: _ZNK2at10TensorBase4nameEv",
            "extension-torch-mismatch",
        ),
        # torch's own library lacking a symbol, typed the same: not an extension's
        ("/env/site-packages/torch/lib/libtorch_cpu.so: un defined symbol: iJIT_NotifyEvent", "none"),
    ],
)
def test_undefined_symbol_typed_with_a_space(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("mamba_ssm\u5fc5\u987b\u8981\u7528linux\u7cfb\u7edf\u5417", "python-unsupported"),
        ("Does causal-conv1d only work on Linux?", "python-unsupported"),
        # a Linux machine shown: the platform is not what fails
        ("mamba-ssm only works on linux? I am on Ubuntu 22.04 and the build fails", "none"),
        ("causal-conv1d wheels are linux-only, and I'm on linux, yet pip builds it from source", "none"),
        # a package the KB knows no Linux-only wheels of
        ("deepspeed-kernels only works on linux?", "none"),
    ],
)
def test_a_linux_only_extension_said_to_need_linux(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "I noticed that torch is actually installed with the cpu version? (cuda.is_available() = False)",
            "cpu-only-build",
        ),
        # installed so for want of a GPU
        ("torch is installed with the cpu version since I do not have a GPU, and training is slow", "none"),
    ],
)
def test_torch_installed_with_the_cpu_version(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_PINNED = (
    "I use python 3.8\nERROR: Could not find a version that satisfies the requirement causal-conv1d==1.2.0 "
    "(from versions: 1.0.0, 1.1.0, {offered}1.2.1, 1.4.0)"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_PINNED.format(offered="1.2.0.post1, 1.2.0.post2, "), "none"),
        # the release not offered in any form: this Python gets none of it
        (_PINNED.format(offered=""), "python-unsupported"),
    ],
)
def test_a_pin_offered_only_as_post_releases(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_NO_LIBCUDA = "OSError: libcuda.so.1: cannot open shared object file: No such file or directory"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("I installed it on a Linux VM w/o any GPU.\n" + _NO_LIBCUDA, "none"),
        ("I installed it in a docker container on my A100 server.\n" + _NO_LIBCUDA, "cuda-runtime-missing"),
        # another CUDA library than the driver's: no GPU does not explain it
        (
            "I run it on a VM w/o any GPU.\nOSError: libcudart.so.11.0: cannot open shared object file",
            "cuda-runtime-missing",
        ),
    ],
)
def test_the_drivers_library_missing_where_there_is_no_gpu(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "CUDA 11.3 build version mismatch\nWhen building with the CUDA 11.3 script, there's a version mismatch "
            "between the installed CUDA and the conda requirements: the version of CUDA is 11.3.0, and the required "
            "CUDA version by conda is 11.3.1.",
            "none",
        ),
        (
            "CUDA 11.3 build version mismatch\nWhen building with cuda 11.3 and torch built for 10.2, it fails.",
            "toolkit-torch-cuda-mismatch",
        ),
    ],
)
def test_a_version_mismatch_between_patch_releases_of_one_cuda(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
