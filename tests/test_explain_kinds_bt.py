"""Round BT's structural changes, one per kind of batch BT's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- a package said "not installed" is absent, not uninstallable (triton's "torch.compile disabled - triton is not
  installed" warning on Windows is silent);
- claims in words: a compiled part "was not built against torch==X"; extensions "compiled in torch A" where the text
  installs torch B; a torch build said not to support CUDA at all; "Add Python 3.7 to the binaries"; a CUDA bump to
  12.8 for a Blackwell card; a named extension that broke after torch was upgraded;
- macOS's dyld missing a CUDA library's C entry point ("Symbol not found: _cusparseCreateCsr"): an older copy of the
  library is loaded;
- torchvision's image extension absent from the wheel itself ("does not have image.so"): a packaging defect, silent;
- an app's DirectML (AMD) flavour on an NVIDIA card: its torch is the CPU build;
- a torch release said not to be supported on a system whose glibc the text states below that release's floor (KB).

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("On Windows 11 with CUDA:\nWarning: torch.compile disabled - triton is not installed", "none"),
        # installing it is what fails: no Windows wheel
        ("On Windows 11: triton cannot be installed, pip finds nothing", "python-unsupported"),
    ],
)
def test_a_package_not_installed_is_not_one_that_cannot_install(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("ImportError: FooKernels PG was not built against torch==2.14.0.", "extension-torch-mismatch"),
        (
            "If you install torch 2.3.0 and try the package with your usual training scripts, it should result in an "
            "error due to extensions being compiled in torch 2.2.0.",
            "extension-torch-mismatch",
        ),
        # one torch release only: nothing says which other one runs
        ("The package's extensions were compiled in torch 2.2.0.", "none"),
        (
            "Adding the conda-forge channel installs PyTorch from it, and that version of PyTorch does not support "
            "CUDA at all.",
            "cpu-only-build",
        ),
        # a CUDA release torch does not support yet is no CPU build
        ("PyTorch does not support CUDA 12.9 yet, so I kept the driver.", "none"),
        # nor is a Mac's torch
        ("On my MacBook, PyTorch does not support CUDA at all.", "none"),
        ("Add python 3.7 to binary install page: pip3.7 install torch gives an error.", "python-unsupported"),
        (
            "Please bump the CUDA version in the setup scripts from 124 to 128 so it stops crashing on Blackwell cards "
            "like the RTX 5090.",
            "arch-not-compiled",
        ),
        # the same bump with no card named: nothing says the GPU is why
        ("Please bump the CUDA version in the setup scripts from 124 to 128.", "none"),
        (
            "I used Nunchaku fine, but after upgrading to PyTorch 2.8.0 cu129 I get the following error:",
            "extension-torch-mismatch",
        ),
        # torch upgraded with nothing failing
        ("I used Nunchaku fine, and after upgrading to PyTorch 2.8.0 it is faster.", "none"),
    ],
)
def test_causes_said_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_DYLD = (
    "ImportError: dlopen(/Users/me/.venv/lib/python3.7/site-packages/torch/_C.cpython-37m-darwin.so, 2): Symbol not "
    "found: _{sym}\n  Referenced from: /Users/me/.venv/lib/python3.7/site-packages/torch/lib/{ref}\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            _DYLD.format(sym="cusparseCreateCsr", ref="libtorch_cuda.dylib")
            + "  Expected in: /usr/local/cuda/lib/libcusparse.10.dylib\n",
            "cuda-runtime-missing",
        ),
        # a symbol of no CUDA library: not this
        (_DYLD.format(sym="omp_get_num_threads", ref="libtorch_cpu.dylib"), "none"),
    ],
)
def test_macos_dyld_missing_a_cuda_librarys_entry_point(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_IMAGE = (
    "/usr/local/lib/python3.8/dist-packages/torchvision/io/image.py:13: UserWarning: Failed to load image Python "
    "extension:\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_IMAGE + "The aarch64 linux wheel file does not have image.so; the x86_64 one does.", "none"),
        (_IMAGE, "companion-mismatch"),
    ],
)
def test_torchvisions_image_extension_absent_from_its_wheel(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_WEBUI = (
    "Version: v1.10.1-amd-53-g32f147b7\n"
    '  File "C:\\Users\\me\\Packages\\stable-diffusion-webui-directml\\launch.py", line 48, in <module>\n'
    "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable "
    "this check\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("GPU: GeForce RTX 3080\n" + _WEBUI, "cpu-only-build"),
        # on an AMD card the DirectML flavour is the right one
        ("GPU: AMD Radeon RX 6800\n" + _WEBUI, "none"),
    ],
)
def test_an_apps_directml_flavour_on_an_nvidia_card(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "on centos 7, glibc version 2.17\npytorch 2.7 is not supported\nso the new release can not install",
            "glibc-too-old",
        ),
        # a glibc the release's wheels accept: something else
        ("on ubuntu, glibc version 2.35\npytorch 2.7 is not supported by the plugin", "none"),
    ],
)
def test_a_torch_release_refused_below_its_glibc_floor(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
