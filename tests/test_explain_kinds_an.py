"""Round AN's structural changes, one per kind of batch AN's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md): CUDA's image and video libraries next to torch (NPP, nvJPEG) and the driver's
video decoder (nvcuvid) not found, and Windows failing a module named after a CUDA library ("DLL load failed while
importing nvjpeg"); Anaconda's defaults-channel CPU build of pytorch ("cpu_py310h9dbd814_1") replacing the CUDA one;
the driver's video decoder API missing from the driver ("undefined symbol: cuvidGetDecoderCaps"). The fixes name the
real PyPI wheel of each CUDA library (nvidia-npp, nvidia-cuda-nvrtc, nvidia-cublas for cuBLASLt, ...), and the
driver's library as the driver's.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ImportError: DLL load failed while importing nvjpeg: The specified module could not be found.",
            "cuda-runtime-missing",
        ),
        ("OSError: libnppicc.so.13: cannot open shared object file: No such file or directory", "cuda-runtime-missing"),
        (
            "ImportError: libnvcuvid.so.1: cannot open shared object file: No such file or directory",
            "cuda-runtime-missing",
        ),
        # a module of another name failing on Windows is not a CUDA library's
        ("ImportError: DLL load failed while importing _imaging: The specified module could not be found.", "none"),
        ("nvjpeg decodes the images on the GPU, which is faster", "none"),
    ],
)
def test_cuda_image_and_video_libraries_not_found(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "wheel"),
    [
        ("OSError: libnppicc.so.13: cannot open shared object file", "nvidia-npp-cu"),
        (
            "ImportError: DLL load failed while importing nvjpeg: The specified module could not be found.",
            "nvidia-nvjpeg-cu",
        ),
        ("Cannot load symbol cublasLtCreate", "nvidia-cublas-cu"),
        ("OSError: libcusparseLt.so.0: cannot open shared object file", "nvidia-cusparselt-cu"),
        ("ImportError: libcudss.so.0: cannot open shared object file", "nvidia-cudss-cu"),
    ],
)
def test_the_fix_names_the_real_wheel(kb: KB, text: str, wheel: str) -> None:
    (found, *_) = explain_text(text, kb)
    assert found.ref == "cuda-runtime-missing" and wheel in found.fix, found.fix


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("ImportError: .../nvvl/lib/libnvvl.so: undefined symbol: cuvidGetDecoderCaps", "driver-too-old"),
        ("the decoder calls cuvidGetDecoderCaps first", "none"),
    ],
)
def test_the_driver_s_video_api_missing(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_driver_s_video_library_is_the_driver_s(kb: KB) -> None:
    (found, *_) = explain_text("ImportError: libnvcuvid.so.1: cannot open shared object file", kb)
    assert "driver" in found.cause and "NVIDIA_DRIVER_CAPABILITIES" in found.fix and "pip" not in found.fix


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "OpenCV installation downgrades PyTorch CUDA to PyTorch CPU\n$ conda install -c conda-forge opencv\n"
            "    pytorch    pytorch::pytorch-1.12.1-py3.10_cuda11~ --> pkgs/main::pytorch-1.12.1-cpu_py310h9dbd814_1",
            "cpu-only-build",
        ),
        # the same build on a machine said to have no NVIDIA GPU is what it should be
        ("No GPU on this laptop; conda gave pytorch-1.12.1-cpu_py310h9dbd814_1 and CUDA is unavailable", "none"),
    ],
)
def test_the_defaults_channel_cpu_build(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
