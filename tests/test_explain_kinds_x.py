"""Round X's structural changes, one per kind of miss in batch X's first measurement (tests/data/explain-corpus/
README.md): a build's need of torch said in prose ("requires torch to be installed in advance", "unable to be
installed if pytorch is not already installed", --no-build-isolation advised); nvcc's message retyped with a
misspelling; pip's line cut at its first letter; a Jetson with PyTorch's own index; Intel GPUs (IPEX, Arc) as no NVIDIA
GPU; a header the compiler cannot find is no runtime library; torch.compile finding no triton on Windows;
bitsandbytes fallen back to its CPU library; AutoGPTQ's kernels not loading; pip's resolver failing on torch floors
only; an installer's own Python range; "python isn't supported" and "no wheel for python 3.11" in prose; a singular
"Xformer"; a package's compiled module named in its import, built for another CUDA than nvcc's.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "`fooext` requires `torch` to be installed in advance, or the `pip` build fails.",
            "build-isolation-missing-torch",
        ),
        (
            "# fooext 1.2 requires `torch` is already installed\n$ pip install torch fooext",
            "build-isolation-missing-torch",
        ),
        (
            "fooext is unable to be installed if pytorch is not already installed, so `pip install -e .` fails",
            "build-isolation-missing-torch",
        ),
        (
            "pip install fooext==1.0 should add --no-build-isolation\notherwise it fails: fooext requires PyTorch",
            "build-isolation-missing-torch",
        ),
        ("pip install flash-attn --no-build-isolation fails with an nvcc error", "none"),
    ],
)
def test_a_builds_need_of_torch_said_in_prose(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("nvcc fatal : Unsupported gpu architechture 'compute_89'", "arch-not-compiled"),
        ("the gpu architechture notes for compute_89 are in our docs", "none"),
    ],
)
def test_nvccs_message_misspelt(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ould not find a version that satisfies the requirement torch==1.11.0+cu113 (from versions: none)\n"
            "I have python 3.11",
            "python-unsupported",
        ),
        ("you would not find a version that satisfies the requirement torch==1.11 in that list", "none"),
    ],
)
def test_pips_line_cut_at_its_first_letter(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Jetson Orin Nano: pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cu121 gives "
            "torch.cuda.is_available() as False",
            "cpu-only-build",
        ),
        (
            "Jetson Orin Nano: pip install torch-2.1.0a0+41361538.nv23.06-cp38-cp38-linux_aarch64.whl, and "
            "torch.cuda.is_available() is False",
            "none",
        ),
    ],
)
def test_a_jetson_with_pytorchs_own_index(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "[issue]: IPEX: Torch not compiled with CUDA enabled\nAssertionError: Torch not compiled with CUDA enabled",
            "none",
        ),
        ("Intel Arc A770: AssertionError: Torch not compiled with CUDA enabled", "none"),
        ("IPEX: AssertionError: Torch not compiled with XPU enabled", "cpu-only-build"),  # the XPU build is missing
    ],
)
def test_intel_gpus_are_no_nvidia_gpu(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("utils.h:11:10: fatal error: cudnn_frontend.h: No such file or directory", "none"),
        ("# Build failure, missing cudnn-frontend\nfatal error: cudnn_frontend.h: No such file or directory", "none"),
        ("the cudnn library is missing from the install", "cuda-runtime-missing"),
    ],
)
def test_a_missing_header_is_no_runtime_library(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Torch.compile not working on windows\nRuntimeError: Cannot find a working triton installation. Either "
            "the package is not installed or it is too old.",
            "python-unsupported",
        ),
        # on Linux triton has wheels: an old or missing triton is the user's install
        (
            "Ubuntu 22.04\nRuntimeError: Cannot find a working triton installation. Either the package is not "
            "installed or it is too old.",
            "none",
        ),
    ],
)
def test_torch_compile_finding_no_triton_on_windows(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("NameError: name 'str2optimizer8bit_blockwise' is not defined", "cuda-runtime-missing"),
        ("CUDA Setup failed despite GPU being available. Please run the following command", "cuda-runtime-missing"),
        ("NameError: name 'optimizer_step' is not defined", "none"),
    ],
)
def test_bitsandbytes_fallen_back_to_its_cpu_library(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # round AD: AutoGPTQ's warning alone settles no cause (across the corpus, once another torch, twice a
        # toolkit the build needed, twice outside the catalogue: batch AD's AutoGPTQ#239, alpaca_lora_4bit#16);
        # what it comes with decides (an undefined symbol, torch's CUDA check)
        ("# CUDA extension not installed.", "none"),
        ("the CUDA extension is not installed by default in the CPU image", "none"),
    ],
)
def test_autogptqs_kernels_not_loading(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ERROR: Cannot install foo==0.1 and foo==0.2 because these package versions have conflicting "
            "dependencies.\n\nThe conflict is caused by:\n    foo 0.2 depends on torch>=1.4.0\n    foo 0.1 depends on "
            "torch>=1.4.0\n\nTo fix this you could try to:",
            "python-unsupported",
        ),
        (
            "The conflict is caused by:\n    The user requested torch==1.13.1\n    torchaudio 0.9.0 depends on "
            "torch==1.9.0",
            "companion-mismatch",
        ),
        ("The conflict is caused by:\n    foo 1.0 depends on numpy>=2\n    bar 2.0 depends on numpy<2", "none"),
    ],
)
def test_pips_resolver_failing_on_torch_floors_only(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "A suitable Python interpreter could not be found\nPlease install Python 3.10.0 or higher (maximum "
            "3.11.100) before running this script.\n> python --version\nPython 3.12.7",
            "python-unsupported",
        ),
        (
            "Please install Python 3.10.0 or higher (maximum 3.11.100) before running this script.\nPython 3.11.4",
            "none",
        ),
    ],
)
def test_an_installers_own_python_range(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_the_installers_range_is_in_the_cause(kb: KB) -> None:
    text = "Please install Python 3.10.0 or higher (maximum 3.11.100) before running this script.\nPython 3.12.7"
    assert "3.10 to 3.11" in explain_text(text, kb, lambda s: s)[0].cause


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("[Bug] Python 3.12.0\nMy version of python isn't supported by FooTTS on Windows 10.", "python-unsupported"),
        ("No wheel for cuda 12, pytorch 2.1.0 nor python 3.11", "python-unsupported"),
        ("i can'nt find foo3d wheel for python 3.11", "python-unsupported"),
        ("python is not installed on this machine", "none"),
        # a wheel named by its file is one the user has
        ("I used torch-1.12.0a0-cp38-cp38-linux_aarch64.whl with python 3.8 and it is not the latest", "none"),
        # a Python folder in a path is no Python release, and a precompiled header (预编译头) is no wheel
        ("系统无法写入 /usr/lib/python3/dist-packages/torch/include/ 的预编译头文件", "none"),
    ],
)
def test_no_build_for_the_python_said_in_prose(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Because Xformer<=0.23 doesn't support yet PyTorch v2.1 you must use PyTorch 2.0.1",
            "extension-torch-mismatch",
        ),
        ("Xformer is a transformer architecture from the paper", "none"),
    ],
)
def test_xformers_named_in_the_singular(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


_IMPORT = (
    '  File "/venv/lib/python3.6/site-packages/pytorch3d/renderer/blending.py", line 9, in <module>\n'
    "    from pytorch3d import _C\n"
    "ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory\n\n"
    "$ nvcc --version\nCuda compilation tools, release {}, V{}.221\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_IMPORT.format("11.0", "11.0"), "extension-torch-mismatch"),
        # the toolkit is the CUDA the module wants: its runtime is just not on the library path
        (_IMPORT.format("10.1", "10.1"), "cuda-runtime-missing"),
    ],
)
def test_a_packages_compiled_module_built_for_another_cuda(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref
