"""Round BY's structural changes, one per kind of batch BY's first-measurement misses (and false findings) that its
blind readers read right (tests/data/explain-corpus/README.md):

- an unquoted "undefined symbol" where the text's package listing (pip list) names compiled extensions the KB knows:
  a companion named only in that listing is installed, not failing;
- a torch release and a card, with an index of another torch (the nightly cu128 the user tries) named later: the
  release's own builds decide, not that index;
- asked that the builds carry an architecture ("Add compute capability 10.0 support for Blackwell GPUs ... in CUDA
  builds");
- MSVC's words for an extension source written for an older torch ("error C3861: 'AT_CHECK': identifier not found");
- torchcodec aborting with std::bad_alloc as it loads: built for another torch;
- torchcodec 0.0.0.dev0 installed: PyPI's name holder, its only source distribution (no wheel fits);
- the platforms of IBM POWER and Z, 32-bit ARM and RISC-V named as platforms without binaries;
- macOS said to get torch's last Intel Mac release (2.2.2) while a newer one is pinned: Intel Macs;
- made silent: a machine "without a CUDA-enabled GPU" told to install the CPU build; wheels said to lack a loader
  path (`LC_RPATH`), which is no missing wheel.

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_LISTING = (
    "undefined symbol\n"
    "$ pip list | grep torch\n"
    "torch                              1.10.2+cu113\n"
    "{ext}"
    "torchvision                        0.11.3+cu113\n"
    "Traceback (most recent call last):\n"
    '  File "run.py", line 2, in <module>\n'
    "    import torch_geometric\n"
)


@pytest.mark.parametrize(
    ("ext", "ref"),
    [
        (
            "torch-scatter                      2.0.8\ntorch-sparse                       0.6.12\n",
            "extension-torch-mismatch",
        ),
        ("", "companion-mismatch"),
    ],
)
def test_a_companion_only_listed_beside_extensions(kb: KB, ext: str, ref: str) -> None:
    assert_first_ref(kb, _LISTING.format(ext=ext), ref)


@pytest.mark.parametrize(("torch", "ref"), [("2.6", "arch-not-compiled"), ("2.7", "none")])
def test_the_release_decides_not_the_index_tried(kb: KB, torch: str, ref: str) -> None:
    # no CUDA build of torch 2.6 carries sm_120; torch 2.7's cu128 build does, so which one is installed decides
    text = (
        f"Our requirements install torch {torch} and the model fails on my RTX 5090.\n"
        "I am now trying:\n"
        "pip install --pre torch --index-url https://download.pytorch.org/whl/nightly/cu128"
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Add compute capability 12.0 support for RTX 5080 cards in the CUDA builds", "arch-not-compiled"),
        ("Add sm_89 support to the kernels' wheels, my RTX 4090 fails", "arch-not-compiled"),
        ("Add compute capability 12.0 support to the benchmark table in the docs", "none"),
    ],
)
def test_asked_to_add_an_architecture_to_the_builds(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("line", "ref"),
    [
        ("src\\ops.h(12): error C3861: 'AT_CHECK': identifier not found", "extension-torch-mismatch"),
        (
            "src\\ops.cu(40): error C2065: 'THCState_getCurrentStream': undeclared identifier",
            "extension-torch-mismatch",
        ),
        ("src\\ops.h(12): error C3861: 'my_check': identifier not found", "none"),
    ],
)
def test_msvc_words_for_a_source_of_an_older_torch(kb: KB, line: str, ref: str) -> None:
    text = f"Building the ops on Windows with torch 2.1 fails:\n{line}"
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "pip install torchcodec\n>>> import torchcodec\nterminate called after throwing an instance of "
            "'std::bad_alloc'\n  what():  std::bad_alloc\nAborted (core dumped)",
            "extension-torch-mismatch",
        ),
        (
            "decoding a 4K video with torchcodec: terminate called after throwing an instance of 'std::bad_alloc', "
            "the machine ran out of memory",
            "none",
        ),
        ("import cv2\nterminate called after throwing an instance of 'std::bad_alloc'", "none"),
    ],
)
def test_torchcodec_aborting_as_it_loads(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(("version", "ref"), [("0.0.0.dev0", "python-unsupported"), ("0.8.0", "none")])
def test_torchcodecs_name_holder_installed(kb: KB, version: str, ref: str) -> None:
    text = (
        "ModuleNotFoundError: No module named 'torchcodec.decoders'\n"
        f"pip list says torchcodec {version}, torch 2.9.0, Python 3.14.0 on Linux"
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("We run on a ppc64le cluster and there are no binaries for ppc64le of the ops package.", "python-unsupported"),
        ("On s390x there aren't any wheels of the package, so pip cannot install it.", "python-unsupported"),
        ("The ppc64le wheels install fine; the model then runs out of memory.", "none"),
    ],
)
def test_other_cpu_architectures_without_binaries(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(("pin", "ref"), [("2.5.1", "python-unsupported"), ("2.2.2", "none")])
def test_macos_held_at_the_last_intel_release(kb: KB, pin: str, ref: str) -> None:
    text = (
        "macOS and Linux install different versions of torch (2.2.2 vs. latest) from our requirements.\n"
        f"Pinning torch=={pin} fails on the macOS runners."
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("machine", "ref"),
    [
        ("on a Windows machine without a CUDA-enabled GPU", "none"),
        ("on a Windows machine with an RTX 3060", "cpu-only-build"),
    ],
)
def test_no_gpu_told_to_install_the_cpu_build(kb: KB, machine: str, ref: str) -> None:
    text = (
        f"OSError: [WinError 126] The specified module could not be found, {machine}.\n"
        "Torch not compiled with CUDA enabled. Fix: install the CPU-only version of pytorch."
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("the macOS wheels may no longer carry an `LC_RPATH` pointing at Homebrew's FFmpeg", "none"),
        ("there are no wheels for macOS of this package", "python-unsupported"),
    ],
)
def test_wheels_said_to_lack_a_loader_path(kb: KB, said: str, ref: str) -> None:
    text = f"Could not load libtorchcodec on macOS after the new release: {said}."
    assert_first_ref(kb, text, ref)
