"""Round CP's structural changes, one per kind of batch CP's first-measurement misses its blind reader read right
(tests/data/explain-corpus/README.md):

- pip ignoring an http index it was not told to trust ("The repository located at pypi.v2ex.com is not a trusted or
  secure host and is being ignored", pytorch#9124): what it then finds of torch is no sign of the interpreter;
- setuptools' form of a companion built for another torch ("error: torch1.4.0 is installed but torch==1.3.1 is
  required by 'torchvision'", OBBDetection#3);
- a package said to be built without GPU support where no GPU was seen ("If it doesn't, it installs without gpu
  support", easybuild-easyconfigs#18274; "导致这种构建的包并不支持 GPU", archlinuxcn/repo#1457): a CPU build, not one
  for another torch (not bitsandbytes' "was compiled without GPU support", which it prints when its CUDA library fails
  to load);
- "cpu version instead of cu121" (conda's pyg build, pytorch_geometric#8948);
- LD_LIBRARY_PATH said to shadow torch's own CUDA runtime (unsloth#6905);
- a CPU torch said to pull NVIDIA's libraries in (poetry#10358): the CPU build is the one wanted;
- the first `.cuda()` call said to take minutes (pytorch#537: a Titan X Pascal on binaries without sm_60/61, the
  driver compiling the kernels from PTX).

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref

_NONE_FOUND = (
    "Looking in indexes: http://mirror.example.org/simple/\n"
    "Collecting torch\n"
    "{ignored}"
    "  Could not find a version that satisfies the requirement torch (from versions: )\n"
    "No matching distribution found for torch\n"
)
_IGNORED = (
    "  The repository located at mirror.example.org is not a trusted or secure host and is being ignored. If this "
    "repository is available via HTTPS we recommend you use HTTPS instead.\n"
)


@pytest.mark.parametrize(
    ("ignored", "ref"),
    [
        (_IGNORED, "none"),
        # the index read, nothing found: the interpreter
        ("", "python-unsupported"),
    ],
)
def test_an_index_pip_ignores_says_nothing_of_the_interpreter(kb: KB, ignored: str, ref: str) -> None:
    assert_first_ref(kb, _NONE_FOUND.format(ignored=ignored), ref)


@pytest.mark.parametrize(
    ("error", "ref"),
    [
        ("error: torch1.4.0 is installed but torch==1.3.1 is required by 'torchvision'", "companion-mismatch"),
        ("error: torch 1.4.0 is installed but torch==1.3.1 is required by {'torchaudio'}", "companion-mismatch"),
        # another package's pin: no companion of torch
        ("error: torch 1.4.0 is installed but torch==1.3.1 is required by {'mmdet'}", "none"),
    ],
)
def test_setuptools_form_of_a_companion_built_for_another_torch(kb: KB, error: str, ref: str) -> None:
    assert_first_ref(kb, error, ref)


def test_the_setuptools_form_names_both_releases(kb: KB) -> None:
    (first, *_) = explain_text("error: torch1.4.0 is installed but torch==1.3.1 is required by 'torchvision'", kb)
    assert "torch 1.3.1" in first.cause and "torch 1.4.0 is installed" in first.cause


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "torch-scatter fails on the GPU nodes (PyTorch 1.12): on the CPU node it installs without gpu support.\n"
            "The solution is FORCE_CUDA=1",
            "cpu-only-build",
        ),
        (
            "\u7531\u4e8e\u6784\u5efa\u65f6 torch.cuda.is_available() \u662f False\uff0c"
            "\u5bfc\u81f4\u8fd9\u79cd\u6784\u5efa\u7684\u5305\u5e76\u4e0d\u652f\u6301 GPU",
            "cpu-only-build",
        ),
        # bitsandbytes' banner when its CUDA library does not load: no CPU build of anything
        (
            "UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers "
            "and GPU quantization are unavailable.",
            "none",
        ),
        # no NVIDIA GPU at all, or another framework's build
        ("torch 2.1: it installs without gpu support on my MacBook (Apple M2)", "none"),
        ("torch is fine, but onnxruntime built without cuda support", "none"),
    ],
)
def test_a_package_built_without_gpu_support(kb: KB, said: str, ref: str) -> None:
    if ref == "none":
        assert all(f.ref != "cpu-only-build" for f in explain_text(said, kb))
    else:
        assert_first_ref(kb, said, ref)


@pytest.mark.parametrize(
    ("said", "torch_s"),
    [
        # torch itself said so: its fix is torch's CUDA variant, not a forced rebuild
        ("pytorch installs without gpu support", True),
        ("the torch wheel was built without GPU support", True),
        # a companion or an extension named, no torch: the package's own build
        ("torchvision installed without gpu support", False),
        ("torch_scatter installed without gpu support", False),
    ],
)
def test_whose_build_lacks_gpu_support_decides_the_fix(kb: KB, said: str, torch_s: bool) -> None:
    (first, *_) = explain_text(said, kb)
    assert first.ref == "cpu-only-build"
    assert ("FORCE_CUDA" in first.fix) is not torch_s
    assert ("CUDA variant" in first.fix) is torch_s


def test_a_build_without_gpu_support_is_told_to_force_cuda(kb: KB) -> None:
    (first, *_) = explain_text("with torch 2.1 on the CPU node it installs without gpu support", kb)
    assert "FORCE_CUDA=1" in first.fix and "built without GPU support" in first.cause


@pytest.mark.parametrize(
    ("title", "ref"),
    [
        (
            "cpu version instead of cu121\nconda install pyg -c pyg picks pyg-2.5.0-py311_torch_2.2.0_cpu",
            "cpu-only-build",
        ),
        ("cpu version instead of cu121 on my MacBook Air (M1)", "none"),
    ],
)
def test_a_cpu_version_instead_of_a_cuda_label(kb: KB, title: str, ref: str) -> None:
    assert_first_ref(kb, title, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "a pre-existing LD_LIBRARY_PATH pointing at a system CUDA shadows torch's own bundled CUDA runtime, which "
            "gives undefined symbol errors at import",
            "cuda-runtime-missing",
        ),
        ("I set LD_LIBRARY_PATH to /usr/local/cuda/lib64 and torch imports fine; the training loss is NaN", "none"),
    ],
)
def test_the_loader_path_said_to_shadow_torch_s_cuda(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Torch-cpu installation installs full torch together with nvidia dependencies\n"
            "poetry install installs torch==2.7.0+cpu but yet includes all the nvidia libraries",
            "none",
        ),
        # the CPU build where CUDA was wanted still reads
        (
            "pip installed torch==2.7.0+cpu on my RTX 4090 box, nvidia libraries are there but "
            "torch.cuda.is_available() returns False",
            "cpu-only-build",
        ),
    ],
)
def test_a_cpu_torch_said_to_pull_nvidia_libraries_in(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("Initial call to .cuda() very slow with Titan X", "arch-not-compiled"),
        ("The first call to .cuda() takes more than one minute on the new card", "arch-not-compiled"),
        ("The first epoch is very slow, later epochs are fast", "none"),
        ("The first call to .cuda() takes a minute on my MacBook (Apple M1)", "none"),
    ],
)
def test_the_first_cuda_call_said_to_take_minutes(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)
