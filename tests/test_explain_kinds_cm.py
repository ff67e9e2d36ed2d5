"""Round CM's structural changes, one per kind of batch CM's first-measurement misses its blind reader read right
(tests/data/explain-corpus/README.md):

- an address inside a sentence is no word of a claim ("These versions are not available at
  https://download.pytorch.org/whl/nightly/torch/": "whl" and "torch" are the address's, torchchat#1408);
- a find-links page passed as an index URL ("--extra-index-url .../whl/torch_stable.html", pytorch#86630): pip reads
  no project from it, whatever the Python;
- a dated nightly pin written with a hyphen ("torch==2.1.0.dev-20230614+rocm5.5", stable-diffusion-webui#12704);
- torch named a build without CUDA ("grabbing the non-cuda pytorch version", "force downgrade to Non-CUDA Torch");
- the driver said below what a CUDA release requires ("less than required by CUDA 11.3");
- a build's kernels said to start above the GPU's architecture ("whose kernels start at sm_75, for the V100's sm_70");
- torch said built with another CUDA than the local toolkit building an extension ("the installed PyTorch used an
  older version of CUDA than the local 12.6");
- a package said compiled against one CUDA, the torch beside it with another, its runtime missing ("`nixl_ep`
  compiled against CUDA 13, but ... `torch==2.10.0` with CUDA 12", "libcudart.so.13: cannot open shared object");
- torch's builds said missing for a Python named first ("No Python3.8 build for Pytorch 2.5.x"), and torch said to
  fail to build via pip on a Python ("Torch failed to build via pip in Python3.10").

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_NIGHTLY_GONE = "This script pins nightly versions called dev20240901. These versions are not available at {url}."
_STABLE_PAGE = "ERROR: No matching distribution found for torch==1.10.1+cu111 (from versions: 1.9.0, 1.10.0, 1.10.1)"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_NIGHTLY_GONE.format(url="https://download.pytorch.org/whl/nightly/torch/"), "none"),
        # the same words outside an address still read
        ("This extension is not built for the torch you have installed.", "extension-torch-mismatch"),
    ],
)
def test_an_address_is_no_word_of_a_claim(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("command", "ref"),
    [
        (
            "pip install --extra-index-url https://download.pytorch.org/whl/torch_stable.html torch==1.10.1+cu111",
            "none",
        ),
        ("pip install -i https://mirror.example.org/wheels/index.html torch==1.10.1+cu111", "none"),
        # the PyTorch index's own folder is an index: the interpreter is the question
        (
            "pip install --extra-index-url https://download.pytorch.org/whl/cu111 torch==1.10.1+cu111",
            "python-unsupported",
        ),
    ],
)
def test_a_find_links_page_given_as_the_index(kb: KB, command: str, ref: str) -> None:
    assert_first_ref(kb, f"{command}\n{_STABLE_PAGE}", ref)


@pytest.mark.parametrize(
    ("pin", "ref"),
    [
        ("torch==2.1.0.dev-20230614+rocm5.5", "none"),
        ("torch==2.1.0.dev20230614+rocm5.5", "none"),
        ("torch==2.1.0+rocm5.5", "python-unsupported"),
    ],
)
def test_a_dated_nightly_pin_with_a_hyphen(kb: KB, pin: str, ref: str) -> None:
    text = f"pip install {pin} --index-url https://download.pytorch.org/whl/nightly/rocm5.5\n"
    text += f"ERROR: No matching distribution found for {pin}"
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("This causes pip to search PyPI first, grabbing the non-cuda pytorch version.", "cpu-only-build"),
        ("A custom node in the manager force downgrades to Non-CUDA Torch when installing.", "cpu-only-build"),
        ("I run on a MacBook with no NVIDIA GPU, so I use the non-CUDA torch.", "none"),
    ],
)
def test_torch_named_a_build_without_cuda(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("The NVIDIA driver version on the cluster nodes is less than required by CUDA 11.3.", "driver-too-old"),
        ("The NVIDIA driver version on the cluster nodes is 535, as required by CUDA 12.2.", "none"),
    ],
)
def test_the_driver_said_below_what_cuda_requires(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "The installer picked the cu130 build, whose kernels start at sm_75, for the V100's sm_70 GPU.",
            "arch-not-compiled",
        ),
        ("The installer picked the cu130 build for the V100, and its kernels ran fine.", "none"),
    ],
)
def test_a_build_s_kernels_said_to_start_above_the_gpu(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "Building flash-attn failed: the installed PyTorch used an older version of CUDA than the local 12.6.",
            "toolkit-torch-cuda-mismatch",
        ),
        ("Building flash-attn failed: the installed PyTorch used more memory than the local 12 GB card has.", "none"),
    ],
)
def test_torch_said_built_with_another_cuda_than_the_toolkit(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)


_LOADER = "ImportError: libcudart.so.13: cannot open shared object file: No such file or directory"


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "vLLM bundles `nixl_ep` compiled against CUDA 13, but our base image uses `torch==2.10.0` with CUDA 12.",
            "extension-torch-mismatch",
        ),
        # the same CUDA on both sides: the runtime is missing
        (
            "vLLM bundles `nixl_ep` compiled against CUDA 13, and our base image uses `torch==2.10.0` with CUDA 13.",
            "cuda-runtime-missing",
        ),
    ],
)
def test_a_package_compiled_against_another_cuda_than_torch(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"{said}\n{_LOADER}", ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("No Python3.8 build for Pytorch 2.5.x", "python-unsupported"),
        ("Torch failed to build via pip in Python3.10, so I reverted to 3.9.", "python-unsupported"),
        ("No Python3.8 docs for Pytorch 2.5.x", "none"),
        ("My extension failed to build via pip in Python3.10, so I reverted to 3.9.", "none"),
    ],
)
def test_torch_builds_said_missing_for_a_python(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)
