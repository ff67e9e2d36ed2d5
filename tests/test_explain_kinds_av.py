"""Round AV's structural changes, one per kind of batch AV's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md):

- torch's and a named extension's versions said not to correspond ("torch版本和mim install mmcv-full==1.6.0的版本好像
  不对应");
- an extension's source against the other side of a torch API change: THC's header as a "fatal error", and glog's
  CHECK_EQ family renamed TORCH_CHECK_EQ (pytorch#82032);
- wheel-only packages with a wheel for every mainstream platform (open3d, pycolmap, mediapipe) and mmdeploy's runtimes
  (envplan/kb/wheel_only.toml's third reading): pip finding none of one is no wheel for this interpreter;
- a bare Python release said unsupported, the text stating a Python ("fairseq不支持3.11" after "python3.11");
- a package without a CUDA 12.8 build on a Blackwell / RTX 50 card: no sm_120 kernels for it;
- libtorch's CMake config finding no CUDA libraries where CMake found no toolkit at all;
- made silent: "OS X" (a Mac has no NVIDIA GPU for CUDA).

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("torch的版本和 pip install mmcv-full==1.7.0 装上的版本好像不对应", "extension-torch-mismatch"),
        # torch's version against Python's is not an extension's
        ("torch 2.1 and python 3.12 versions do not match", "python-unsupported"),
        ("the torch and numpy versions do not match", "none"),
    ],
)
def test_torch_and_an_extension_said_not_to_match(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ('pip install mmcv-full==1.2.7 gives "THC/THC.h" fatal error', "extension-torch-mismatch"),
        ('ops/emd/cuda/emd_kernel.cu(178): error: identifier "CHECK_EQ" is undefined', "extension-torch-mismatch"),
        ('src/knn.cu(41): error: identifier "TORCH_CHECK_EQ" is undefined', "extension-torch-mismatch"),
        # another macro of the project's own
        ('src/knn.cu(41): error: identifier "CHECK_INPUT" is undefined', "none"),
    ],
)
def test_an_extension_source_across_a_torch_api_change(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_NONE = (
    "ERROR: Could not find a version that satisfies the requirement {pkg} (from versions: none)\n"
    "ERROR: No matching distribution found for {pkg}"
)


@pytest.mark.parametrize(
    ("pkg", "ref"),
    [
        ("open3d", "python-unsupported"),
        ("pycolmap", "python-unsupported"),
        ("mediapipe", "python-unsupported"),
        ("mmdeploy-runtime-gpu==1.0.0", "python-unsupported"),
        # a wheel-only package the KB does not list: one not on the index at all says the same
        ("rerun-sdk", "none"),
    ],
)
def test_wheel_only_packages_for_every_platform(kb: KB, pkg: str, ref: str) -> None:
    assert_first_ref(kb, _NONE.format(pkg=pkg), ref)


def test_the_finding_names_the_platforms_and_the_python(kb: KB) -> None:
    first = explain_text(_NONE.format(pkg="open3d"), kb)[0]
    platforms, python, _ = kb.wheel_only["open3d"]
    assert all(p in first.cause for p in platforms) and python in first.cause


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("使用py3.11问题\npython3.11会各种报错\uff0c其中fairseq不支持3.11", "python-unsupported"),
        # a CUDA said unsupported is not a Python
        ("使用py3.11问题\n显卡驱动不支持cuda 3.1", "none"),
        # no Python stated: "3.11" alone could be anything
        ("fairseq不支持3.11", "none"),
    ],
)
def test_a_bare_python_release_said_unsupported(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "spconv blocks my RTX 5080 (Blackwell): there is no spconv wheel built for CUDA 12.8 yet",
            "arch-not-compiled",
        ),
        # no Blackwell card named: a package without a CUDA 12.8 build is not a GPU's trouble
        ("there is no spconv wheel built for CUDA 12.8 yet, so I use cu126", "none"),
    ],
)
def test_no_cuda_12_8_build_on_blackwell(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_CAFFE2 = (
    "CMake Error at libtorch/share/cmake/Caffe2/Caffe2Config.cmake:90 (message):\n"
    "  Your installed Caffe2 version uses CUDA but I cannot find the CUDA\n"
    "  libraries.  Please set the proper CUDA prefixes and / or install CUDA.\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "-- Could NOT find CUDA (missing: CUDA_TOOLKIT_ROOT_DIR CUDA_NVCC_EXECUTABLE CUDA_INCLUDE_DIRS)\n"
            + _CAFFE2,
            "cuda-runtime-missing",
        ),
        # CMake found a toolkit and rejected it: not a missing one
        ("Failed building wheel for torchmcubes\n" + _CAFFE2, "none"),
    ],
)
def test_libtorch_cmake_finding_no_cuda(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "not working on OSX\n"
            '    raise AssertionError("Torch not compiled with CUDA enabled")\n'
            "AssertionError: Torch not compiled with CUDA enabled",
            "none",
        ),
        (
            "not working on my RTX 3090\n"
            '    raise AssertionError("Torch not compiled with CUDA enabled")\n'
            "AssertionError: Torch not compiled with CUDA enabled",
            "cpu-only-build",
        ),
    ],
)
def test_os_x_has_no_nvidia_gpu(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def _platforms(filename: str) -> set[str]:
    """The platforms a wheel's file name serves, in wheel_only.toml's words (linux-x86_64, macos-arm64, ...)."""
    found: set[str] = set()
    for tag in filename[: -len(".whl")].rsplit("-", maxsplit=1)[-1].split("."):
        if tag.startswith(("manylinux", "linux")):
            found.add("linux-" + ("x86_64" if "x86_64" in tag else "aarch64" if "aarch64" in tag else tag))
        elif tag.startswith("win"):
            found.add("windows-" + ("arm64" if "arm64" in tag else "x86" if tag == "win32" else "x86_64"))
        elif tag.startswith("macosx"):
            found |= (
                {"macos-arm64", "macos-x86_64"}
                if "universal2" in tag
                else {"macos-arm64" if "arm64" in tag else "macos-x86_64"}
            )
    return found


@pytest.mark.network
def test_the_wheel_only_packages_are_what_pypi_says(kb: KB) -> None:
    """Re-read every row of wheel_only.toml from PyPI's JSON API: no release has a source distribution, every
    platform the row names has a wheel, and its latest release and every release it lists are on PyPI with files (a
    package that later ships an sdist or more platforms is re-read, as the file's header says)."""
    for name, (platforms, _, _) in kb.wheel_only.items():
        with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/json", timeout=60) as response:
            releases = json.load(response)["releases"]
        files = [f for fs in releases.values() for f in fs]  # (yanked ones too: pytorch-directml's are all yanked)
        assert not [f["filename"] for f in files if f["packagetype"] == "sdist"], name
        served = set().union(*(_platforms(f["filename"]) for f in files if f["filename"].endswith(".whl")))
        assert set(platforms) <= served, (name, sorted(set(platforms) - served))
        assert kb.wheel_only_latest[name] in releases, name
        assert set(kb.wheel_only_releases[name]) <= {v for v, fs in releases.items() if fs}, name
