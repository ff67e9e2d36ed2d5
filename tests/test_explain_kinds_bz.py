"""Round BZ's structural changes, one per kind of batch BZ's first-measurement misses that its blind readers read
right (tests/data/explain-corpus/README.md):

- an extension compiled against the torch of pip's isolated build environment ("build with `--no-build-isolation` to
  find and use the correct pytorch version"): a C++ ABI difference in its symbol is that other torch's;
- something "built with torch v2.7.0" said not to work, or to crash, under another torch;
- an unquoted "undefined symbol" whose traceback goes through a compiled package's files (mmcv): a companion named
  elsewhere in the prose is not the one failing;
- a package said to need "a Python version higher than 3.10", the interpreter stated older;
- an index said to "only have CPU-only aarch64 builds": the torch installed from it is a CPU build;
- torch said "incompatible with the available cuda" after its default moved to a newer CUDA: the machine's driver;
- "all whl are support for linux" to a Windows user: no build for the platform (the package's, not torch's, when
  only an address spells torch);
- "versions of torch and torchvision that did not support" a named card: the pair is torch's build;
- the vendors and systems a program supports, listed ("NVIDIA + AMD, Win/Linux/Mac"), are not the machine.

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref

_ABI_SYMBOL = (
    "ImportError: /opt/app/ops/vmm.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZNK2at10TensorBase4nameB5cxx11Ev"
)


@pytest.mark.parametrize(
    ("title", "ref"),
    [
        ("build with `--no-build-isolation` to find and use the correct pytorch version", "extension-torch-mismatch"),
        ("the ops fail to import after pip install", "cxx11-abi-mismatch"),
    ],
)
def test_an_abi_difference_from_the_isolated_build(kb: KB, title: str, ref: str) -> None:
    assert_first_ref(kb, f"{title}\n{_ABI_SYMBOL}", ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "KVStore built with torch v2.7.0 does not work with the vLLM release that pins torch 2.6.0",
            "extension-torch-mismatch",
        ),
        ("the ops compiled with pytorch 2.2.1 will crash when upgrading pytorch to 2.3.0", "extension-torch-mismatch"),
        ("torchvision built with torch 2.1.0 does not work with torch 2.2.0", "companion-mismatch"),
        ("KVStore built with torch v2.7.0 works fine with vLLM", "none"),
    ],
)
def test_built_with_one_torch_failing_under_another(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_TRACED = (
    "_ext undefined symbol after building torch from source\n"
    "I also installed torchvision from source (v0.12.0)\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.8/dist-packages/{pkg}/ops/__init__.py", line 2, in <module>\n'
    "    from .roi_align import roi_align\n"
)


@pytest.mark.parametrize(("pkg", "ref"), [("mmcv", "extension-torch-mismatch"), ("torchvision", "companion-mismatch")])
def test_the_compiled_package_in_the_traceback(kb: KB, pkg: str, ref: str) -> None:
    assert_first_ref(kb, _TRACED.format(pkg=pkg), ref)


@pytest.mark.parametrize(("python", "ref"), [("3.9", "python-unsupported"), ("3.11", "none")])
def test_a_python_higher_than_said(kb: KB, python: str, ref: str) -> None:
    text = (
        f"The venv defaulted to Python {python}. Installing SAM-2 fails: it requires a Python version higher than 3.10."
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("machine", "ref"), [("our GH200 nodes", "cpu-only-build"), ("a machine without a GPU", "none")]
)
def test_an_index_with_only_cpu_builds_for_the_platform(kb: KB, machine: str, ref: str) -> None:
    text = (
        f"The example failed on {machine}: the cu118 and cu124 indexes only have CPU-only aarch64 builds, cu126 "
        "has the CUDA ones."
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("what", "ref"),
    [
        ("thus replaces the preinstalled torch with a version incompatible with the available cuda", "driver-too-old"),
        ("thus builds the ops with a torch incompatible with the available cuda", "none"),
    ],
)
def test_torch_incompatible_with_the_machines_cuda(kb: KB, what: str, ref: str) -> None:
    text = (
        "The default pip install torch recently changed to cuda11, and our CI machines are on cuda 10.1. "
        f"pip install -r requirements.txt {what}."
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(("system", "ref"), [("Windows", "python-unsupported"), ("my cluster", "none")])
def test_all_wheels_said_linux(kb: KB, system: str, ref: str) -> None:
    text = (
        "I looked through https://download.pytorch.org/whl/fbgemm-gpu/ and it seems all whl are support for linux. "
        f"I want to use torchrec on {system}."
    )
    assert_first_ref(kb, text, ref)
    if ref != "none":
        found = explain_text(text, kb)
        assert "the package publishes no build" in found[0].cause  # the address spells torch, the words do not


@pytest.mark.parametrize(
    ("which", "ref"),
    [("versions of torch and torchvision that", "arch-not-compiled"), ("a torchvision that", "none")],
)
def test_torch_and_a_companion_said_not_to_support_a_card(kb: KB, which: str, ref: str) -> None:
    text = f"On a pc with a GTX 980 Ti the installer put in {which} did not support this old card."
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("hardware", "ref"),
    [
        ("Installer fix (NVIDIA + AMD, Win/Linux/Mac/WSL)", "cpu-only-build"),
        ("Installer fix for my AMD Radeon card", "none"),
    ],
)
def test_a_list_of_supported_vendors_is_not_the_machine(kb: KB, hardware: str, ref: str) -> None:
    text = (
        f"{hardware}\n"
        "On a machine with an RTX 6000 Pro, an already-installed `torch==2.10.0+cpu` satisfies `torch>=2.4,<2.11.0`, "
        "so the cu130 build is never installed."
    )
    assert_first_ref(kb, text, ref)
