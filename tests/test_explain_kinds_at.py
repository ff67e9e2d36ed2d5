"""Round AT's structural changes, one per kind of batch AT's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md):

- a ROCm library missing at import that the ROCm list lacked (libroctx64, roctracer's ROC-TX), and a ROCm library
  lacking a symbol another ROCm library exports ("librocsolver.so.0: undefined symbol: _Z31rocblas_internal_..."):
  two ROCm releases mixed;
- pip landing on torchvision 0.2.2.post3 (the last pure-Python release on PyPI) on Python 3.8 or newer: no current
  torchvision build for that interpreter on the index used;
- a wheel-only package (envplan/kb/wheel_only.toml) pinned at its latest release, pip's line cut before its list; and
  said not to install on a platform it has no wheel for ("decord is not installing properly ... on Mac");
- a Python said unable to install a package ("But python 3.12 can`t install pyext package");
- a package's Python floor said in words, the interpreter stated below it ("must be 3.11 and above", Python 3.10.15);
- made silent: "Xe Graphics" (Intel's integrated GPU, whatever precedes it), and a question how to run on the CPU.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref

_IMPORT = (
    '>>> import torch\nTraceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n'
    '  File "/usr/lib/python3.12/site-packages/torch/__init__.py", line 237, in <module>\n'
    "    from torch._C import *  # noqa: F403\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_IMPORT + "ImportError: libroctx64.so.4: cannot open shared object file: No such file or directory", None),
        (
            _IMPORT + "ImportError: /opt/rocm/lib/libhipsparse.so.1: undefined symbol: "
            "_ZN8rocsparse13csrmv_analysisEP19_rocsparse_handle",
            None,
        ),
        # a ROCm library lacking another project's symbol (boost) is not two ROCm releases mixed
        (_IMPORT + "ImportError: /opt/rocm/lib/libMIOpen.so.1: undefined symbol: _ZN5boost10filesystem6detail", "-"),
    ],
)
def test_rocm_libraries_missing_or_mixed(kb: KB, text: str, ref: str | None) -> None:
    findings = explain_text(text, kb)
    if ref is None:
        assert findings[0].ref == "cuda-runtime-missing"
        assert "ROCm" in findings[0].cause
    else:
        assert not any("ROCm releases are mixed" in f.cause for f in findings)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Why do I get torchvision==0.2.2.post3 with pip on Python 3.12?", "python-unsupported"),
        ("Successfully installed torchvision-0.2.1\n(venv) python3.9 -c 'import torchvision'", "python-unsupported"),
        # torchvision 0.2.1 was torch 0.4's own companion, on the Pythons of its time
        ("torchvision 0.2.1 with python 3.6 and torch 0.4.1: ImportError: cannot import name 'ops'", "none"),
        # no Python stated (conda's solver picking it): not this reading's to say
        ("Installing from conda with the official command, PyTorch 1.9.0 installs torchvision 0.2.2", "none"),
    ],
)
def test_pip_falling_back_to_the_pure_python_torchvision(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_pure_python_fallback_names_a_pair_for_that_python(kb: KB) -> None:
    first = explain_text("I got torchvision=0.2.2.post3 when I install it with pip and python3.11", kb)[0]
    newest = max((r for r in kb.releases if "3.11" in r.python_versions), key=lambda r: r.torch)
    assert f"torch {newest.torch} with torchvision {newest.torchvision}" in first.fix


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # decord's latest release is on PyPI: pip not finding exactly it means no wheel here
        ("Could not find a version that satisfies the requirement decord==0.6.0", "python-unsupported"),
        # an older pin may be a release that never existed
        ("Could not find a version that satisfies the requirement decord==0.5.9", "none"),
        ("decord is not installing properly, I can not use this on my Mac", "python-unsupported"),
        # decord has Windows wheels: said not to install there is something else
        ("decord is not installing properly on Windows 11", "none"),
        # the package named, the failure another's
        ("On Windows we cannot install unsloth after pip install triton-3.2.0-cp311-cp311-win_amd64.whl", "none"),
    ],
)
def test_a_wheel_only_package_cut_short_or_said_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("pyext install error\n\npython==3.12\n\nBut python 3.12 can`t install pyext package.", "python-unsupported"),
        ("python 3.10 can't install the package, error: Microsoft Visual C++ 14.0 or greater is required", "none"),
    ],
)
def test_a_python_said_unable_to_install_a_package(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "My current python version is 3.10.15, but there is no wheel; building it says the python version must "
            "be 3.11 and above",
            "python-unsupported",
        ),
        ("python version is 3.12.1; the docs say it requires python 3.9 or higher, yet import fails", "none"),
    ],
)
def test_a_python_floor_said_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_ASSERT = (
    '  File "\\venv\\lib\\site-packages\\torch\\cuda\\__init__.py", line 239, in _lazy_init\n'
    '    raise AssertionError("Torch not compiled with CUDA enabled")\n'
    "AssertionError: Torch not compiled with CUDA enabled\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("I have a problem on intel R lris R Xe Graphics\n" + _ASSERT, "none"),
        ("how to generate the video when running app.py with cpu?\n" + _ASSERT, "none"),
        # a CUDA user's question about the CPU build is not a wish to run on it
        ("My RTX 3060 is not used\n" + _ASSERT, "cpu-only-build"),
    ],
)
def test_no_nvidia_gpu_or_the_cpu_wanted(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
