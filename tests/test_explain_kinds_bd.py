"""Round BD's structural changes, one per kind of batch BD's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- a kernel image missing for the GPU under the CUDA driver API's name for it (CUDA_ERROR_NO_BINARY_FOR_GPU, error 209),
  and DeepSpeed's op builder left with no architecture of the GPU after its op's floor ("no compute capabilities
  remaining after filtering");
- a CUDA library ldd lists as "=> not found", or said in a sentence not to be found ("fails to find CUDA-related
  libraries, specifically `libcuda.so.1`"); an op refusing the cuDNN loaded as too old ("supported only in cudnn v5.1
  and above");
- torchvision's image extension failing to load, its reason not pasted; torchtext named inside a Japanese sentence
  ("import torchtextを実行すると");
- libtorch bindings: torch.rb's static assertion in GCC's wording ("static assertion failed ... Incompatible LibTorch
  version"), tch-rs's torch-sys failing to compile against the libtorch given;
- no build for the platform: opam's platform condition ("unmet availability conditions: os = \"linux\""), Apple's linker
  ignoring an x86_64 libtorch on an arm64 Mac.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("TVMError: CUDA_ERROR_NO_BINARY_FOR_GPU while loading the compiled model library", "arch-not-compiled"),
        (
            "RuntimeError: Unable to load ragged_device_ops op due to no compute capabilities remaining after "
            "filtering",
            "arch-not-compiled",
        ),
        # no device at all, and an op that fails for another reason: not the architecture
        ("CUDA_ERROR_NO_DEVICE while loading the compiled model library", "none"),
        ("RuntimeError: Unable to load ragged_device_ops op: ninja is not installed", "none"),
    ],
)
def test_no_code_for_the_gpu_in_other_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("$ ldd _C.so | grep cudnn\n\tlibcudnn.so.8 => not found", "cuda-runtime-missing"),
        (
            "The nix build installs torch, but the fixup phase fails to find CUDA libraries, specifically "
            "`libcuda.so.1`.",
            "cuda-runtime-missing",
        ),
        ("RuntimeError: dropout supported only in cudnn v5.1 and above", "cuda-runtime-missing"),
        # a library that is not CUDA's, a sentence that ends before the library, an architecture floor
        ("$ ldd _C.so\n\tlibgomp.so.1 => not found", "none"),
        ("The script fails to find the checkpoint. libcudart.so.12 loads fine.", "none"),
        ("RuntimeError: FlashAttention is supported only on sm80 and above", "none"),
    ],
)
def test_a_cuda_library_not_found_or_too_old(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("UserWarning: Failed to load image Python extension\n>>> import torchvision", "companion-mismatch"),
        (
            "import torchtext\u3092\u5b9f\u884c\u3059\u308b\u3068\n"
            "OSError: libtorch_cpu.so: cannot open shared object file: No such file or directory",
            "companion-mismatch",
        ),
        # libjpeg itself missing is not a torchvision built for another torch; a module of the user's own is an
        # extension, not a companion
        (
            "UserWarning: Failed to load image Python extension: libjpeg.so.8: cannot open shared object file: No "
            "such file or directory",
            "none",
        ),
        (
            "import my_ops\u3092\u5b9f\u884c\u3059\u308b\u3068\n"
            "OSError: libtorch_cpu.so: cannot open shared object file: No such file or directory",
            "extension-torch-mismatch",
        ),
    ],
)
def test_a_companion_named_in_few_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "In file included from backends.cpp:5:\n./utils.h:8:1: error: static assertion failed due to requirement "
            "'2 == 4': Incompatible LibTorch version",
            "extension-torch-mismatch",
        ),
        (
            'export LIBTORCH="/opt/libtorch"\ncargo build\nerror: failed to run custom build command for '
            "`torch-sys v0.10.3`",
            "extension-torch-mismatch",
        ),
        # another static assertion; torch-sys finding no libtorch at all
        ("./utils.h:8:1: error: static assertion failed due to requirement 'sizeof(long) == 8'", "none"),
        (
            "error: failed to run custom build command for `torch-sys v0.10.3`\nError: Cannot find a libtorch "
            "install, you can either: Install libtorch manually and set the LIBTORCH environment variable",
            "none",
        ),
    ],
)
def test_a_binding_built_for_another_libtorch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ('[ERROR] torch unmet availability conditions: os = "linux"', "python-unsupported"),
        (
            "ld: warning: ignoring file /opt/homebrew/lib/libtorch_cpu.dylib, building for macOS-arm64 but attempting "
            "to link with file built for macOS-x86_64",
            "python-unsupported",
        ),
        # a condition on the compiler's version, a library that is not libtorch
        ('[ERROR] ppx_foo unmet availability conditions: ocaml >= "5.0"', "none"),
        (
            "ld: warning: ignoring file /opt/homebrew/lib/libpng.dylib, building for macOS-arm64 but attempting to "
            "link with file built for macOS-x86_64",
            "none",
        ),
    ],
)
def test_no_build_for_the_platform_outside_pip(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
