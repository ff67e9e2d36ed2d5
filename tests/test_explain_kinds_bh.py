"""Round BH's structural changes, one per kind of batch BH's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- a CUDA library named by its family alone, its files said not found ("can't find libcudnn shared objects");
- torch's own HIP DLL failing to load with its dependencies (c10_hip.dll on Windows: the HIP runtime the AMD driver
  installs is missing);
- the driver failing to JIT-compile a binary's PTX (CUDA_ERROR_INVALID_PTX): no code for this GPU's architecture;
- a CPU build named after its release ("installed the PyPI `torch==2.10.0` CPU build");
- wheels said missing for a stated Python ("fails on Python 3.12 because of `av` missing wheels").

Made silent: a traceback's source line importing what only a program uses ("from torch.utils.data import ...") before
"No module named 'torch'" is a program run, not a package build. The texts are written for the tests (the kind, not a
report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Ubuntu on WSL2: the loader cannot find libcublas shared libraries", "cuda-runtime-missing"),
        # a library that is not CUDA's
        ("Ubuntu on WSL2: the loader cannot find libpng shared libraries", "none"),
    ],
)
def test_a_cuda_library_named_by_its_family(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_HIP_DLL = (
    'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\app\\venv\\Lib\\'
    'site-packages\\torch\\lib\\{dll}" or one of its dependencies.'
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_HIP_DLL.format(dll="c10_hip.dll"), "cuda-runtime-missing"),
        # the same DLL, Windows out of commit memory: the paging file, not a missing runtime
        (_HIP_DLL.format(dll="c10_hip.dll").replace("WinError 126", "WinError 1455"), "none"),
        # a torch DLL that is not the HIP one (torch 2.3's shm.dll, a build bug fixed in a later release)
        (_HIP_DLL.format(dll="shm.dll"), "none"),
    ],
)
def test_torchs_hip_dll_without_its_runtime(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Loading kernel binary ./lib/attention_cuda.so\nTVMError: CUDA_ERROR_INVALID_PTX", "arch-not-compiled"),
        # the same JIT failing on an AMD GPU: no CUDA build is at stake
        ("Radeon RX 6800, ROCm 6.1\nTVMError: CUDA_ERROR_INVALID_PTX", "none"),
    ],
)
def test_a_failed_ptx_jit_is_no_code_for_the_gpu(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "The image installed the PyPI `torch==2.10.0` CPU build, so CUDA is not available on the GPU nodes",
            "cpu-only-build",
        ),
        # the CPU build chosen on purpose, nothing wanting CUDA
        ("The docs job installs the torch 2.10.0 CPU build to keep the image small", "none"),
    ],
)
def test_a_cpu_build_named_after_its_release(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("pip install fails on Python 3.13 because of `soundlib` missing wheels", "python-unsupported"),
        # no Python stated: a missing wheel of a file or a cache says nothing of the interpreter
        ("pip install fails because of `soundlib` missing wheels in the cache folder", "none"),
    ],
)
def test_wheels_missing_for_a_stated_python(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "streamloader fails on importing a torch class\n    from torch.utils.data import IterableDataset\n"
            "ModuleNotFoundError: No module named 'torch'",
            "none",
        ),
        # a setup script's import: the build, run where torch is not
        (
            "streamloader fails to install\n    from torch.utils.cpp_extension import BuildExtension\n"
            "ModuleNotFoundError: No module named 'torch'",
            "build-isolation-missing-torch",
        ),
    ],
)
def test_a_programs_import_of_torch_is_a_run(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
