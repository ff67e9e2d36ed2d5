"""Round V's structural changes, one per kind of miss in batch V's first measurement (tests/data/explain-corpus/
README.md): a CPU build said with "with" or of the generic builds; an issue template's CUDA field answered "No"; a wheel
named by its file is not a missing wheel, nor its tags the interpreter's; a Python range said in words; a companion's
install swapping torch out; a package "not built with PyTorch support" on a platform; HIP's "invalid device function"
under ROCm; CUDA error 209 by its number; a library of CUDA's forward-compatibility folder failing; an extension
built for another CUDA than torch's (the loader's failure, or said in words); nvcc's version said in words next to
another CUDA while nvcc fails; a package with no wheel for Windows, the platform told by the prompt; `-lcuda` told as
a problem.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("uv 0.9 on a GPU box installs torch with cpu, the cuda build is skipped", "cpu-only-build"),
        ("Wheels from the pytorch.org index don't use cuda on our ARM board with a GPU", "cpu-only-build"),
        ("the docs job installs torch with cpu wheels to save space", "none"),  # nothing wants CUDA
    ],
)
def test_a_cpu_build_said_in_more_words(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_a_template_field_answered_no_wants_no_cuda(kb: KB) -> None:
    env = (
        "FileNotFoundError: Could not find module 'C:\\env\\torch\\lib\\c10.dll' (or one of its dependencies)\n"
        " - PyTorch Version: 2.1.0+cpu\n - CUDA/cuDNN version: {cuda}\n"
    )
    assert first_ref(kb, env.format(cuda="No (CPU version)")) == "none"
    assert first_ref(kb, env.format(cuda="11.8 / 8.7")) == "cpu-only-build"  # a CUDA wanted, a CPU build installed


def test_a_wheel_named_by_its_file_is_not_a_missing_wheel(kb: KB) -> None:
    text = "I used torch-2.1.0-cp310-cp310-linux_aarch64.whl and not the newest one on aarch64, it works"
    assert first_ref(kb, text) == "none"


@pytest.mark.parametrize(("python", "ref"), [("3.12.4", "python-unsupported"), ("3.11.9", "none")])
def test_a_wheel_in_pips_command_line_is_not_the_interpreter(kb: KB, python: str, ref: str) -> None:
    text = (
        "PS C:\\apps> python -m pip install foo-1.0-cp311-cp311-win_amd64.whl\n"
        "ERROR: foo-1.0-cp311-cp311-win_amd64.whl is not a supported wheel on this platform.\n"
        f"PS C:\\apps> python --version\nPython {python}\n"
    )
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("pip install works with python <= 3.10 but fails with python >= 3.11", "python-unsupported"),
        ("training works with python 3.11 and the install was fine", "none"),
    ],
)
def test_a_python_range_said_in_words(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("installing torchvision removes my custom torch build and reinstalls pytorch from PyPI", "companion-mismatch"),
        ("installing torchvision took a long time but torch is fine", "none"),
    ],
)
def test_a_companions_install_swapping_torch_out(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("On Windows 11: Foo3D was not built with PyTorch support!", "python-unsupported"),
        ("Foo3D was not built with PyTorch support!", "none"),  # no platform: another reason
    ],
)
def test_a_package_not_built_with_torch_support_on_a_platform(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("torch==2.9.0+rocm6.4\nRuntimeError: HIP error: invalid device function", "arch-not-compiled"),
        ("torch==2.9.0+rocm6.4\nRuntimeError: HIP error: out of memory", "none"),
    ],
)
def test_hips_invalid_device_function_under_rocm(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("RuntimeError: Cuda error: 209[cudaLaunchKernel(func, grid, block, args, 0, stream);]", "arch-not-compiled"),
        ("RuntimeError: Cuda error: 201[cudaLaunchKernel(func, grid, block, args, 0, stream);]", "none"),
    ],
)
def test_cuda_error_209_by_its_number(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_a_library_of_cudas_forward_compatibility_folder_failing(kb: KB) -> None:
    compat = "ImportError: /usr/local/cuda/compat/libcuda.so.1: version `CUDA_12.4' not found"
    assert first_ref(kb, compat) == "driver-too-old"
    assert first_ref(kb, "ImportError: /usr/local/cuda/lib64/libfoo.so: undefined symbol: bar_init") != "driver-too-old"


@pytest.mark.parametrize(("variant", "ref"), [("cu130", "extension-torch-mismatch"), ("cu126", "cuda-runtime-missing")])
def test_an_extension_built_for_another_cuda_than_torchs(kb: KB, variant: str, ref: str) -> None:
    text = (
        f"torch 2.9.0+{variant}\n"
        "    import flash_attn_2_cuda as flash_attn_gpu\n"
        "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n"
    )
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(("backend", "ref"), [("cu128", "extension-torch-mismatch"), ("cu130", "none")])
def test_packages_said_built_for_another_cuda(kb: KB, backend: str, ref: str) -> None:
    text = (
        f"uv pip install --torch-backend {backend} foo-ops\nit installs wheels built for CUDA 13.0 so the import fails"
    )
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(("nvcc", "ref"), [("9.1", "toolkit-torch-cuda-mismatch"), ("10.2", "none")])
def test_nvccs_version_said_while_nvcc_fails(kb: KB, nvcc: str, ref: str) -> None:
    text = f"error: command '/usr/bin/nvcc' failed with exit status 1\nnvcc version is {nvcc}, CUDA version is 10.2."
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(("prompt", "ref"), [("PS C:\\work\\app> ", "python-unsupported"), ("$ ", "none")])
def test_no_wheel_for_windows_told_by_the_prompt(kb: KB, prompt: str, ref: str) -> None:
    text = (
        f"{prompt}python -m pip install fastkern==2.2.0\n"
        "ERROR: Could not find a version that satisfies the requirement fastkern==2.2.0 (from versions: none)\n"
    )
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [("Build problem with -lcuda on my laptop", "cuda-runtime-missing"), ("linking with -lcuda works", "none")],
)
def test_lcuda_told_as_a_problem(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref
