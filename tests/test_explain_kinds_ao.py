"""Before round AO: a KB fact, the glibc each Linux distribution release ships (envplan/kb/distro_glibc.toml,
transcribed from pep600_compliance's table of each release's measured glibc). A GLIBC_2.NN symbol version or a
manylinux_2_NN wheel named with a release whose glibc is older ("Can not upgrade GLIBC_2.27 on CentOS 7", a
manylinux_2_27 wheel refused on CentOS 7) is the system's glibc too old; the glibc finding names the release's glibc,
and its fix the oldest Ubuntu LTS, Debian and Rocky Linux releases that ship the glibc needed.

Round AO's structural changes, one per kind of batch AO's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md): PyPI's torch placeholder downloaded as its archive ("torch-0.1.2.post2.tar.gz");
a package's own Python floor in other words ("The minimal Python requirement is Python 3.6"); a package's floor above
every release pip offers, the interpreter stated ("taichi>=1.2.0 (from versions: ..., 1.0.4)", "My python version is
3.6.13"); a card generation written out ("RTX 5000 series"); the toolkit's stub libcuda loaded (CUDA error 34). Made
silent: a driver said to lack an API where Warp's banner shows the driver newer than the toolkit ("CUDA Toolkit 12.8,
Driver 13.0"); torch said to be missing from a program's requirements ("torch is not installed by requirements.txt").

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest
from packaging.version import Version

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref

_PIP = "ERROR: Could not find a version that satisfies the requirement "


def test_the_distro_glibc_rows_are_well_formed(kb: KB) -> None:
    from envplan.kb.loader import read_table

    table = read_table("distro_glibc.toml")
    rows = table["distro"]
    assert "pep600_compliance" in table["source"]
    assert len(rows) >= 50 and len(kb.distro_glibc) == len(rows)  # no release listed twice
    for row in rows:
        assert Version(row["glibc"]).major == 2, row
    # each family's glibc never goes down from one release to the next
    by_family: dict[str, list[tuple[Version, Version]]] = {}
    for row in rows:
        release = Version(row["release"].removeprefix("stream"))
        by_family.setdefault(row["name"] + row["release"][:6] * row["release"].startswith("stream"), []).append(
            (release, Version(row["glibc"]))
        )
    for family, releases in by_family.items():
        glibcs = [glibc for _, glibc in sorted(releases)]
        assert glibcs == sorted(glibcs), family


def test_the_distro_glibc_rows_agree_with_the_manylinux_build_images(kb: KB) -> None:
    # PEP 599's manylinux2014 is built on CentOS 7 and means glibc 2.17; the manylinux_2_28 images are AlmaLinux 8
    assert kb.distro_glibc["centos 7"] == "2.17"
    assert kb.distro_glibc["almalinux 8"] == "2.28"
    assert kb.distro_glibc["ubuntu 18.04"] == "2.27" and kb.distro_glibc["ubuntu 20.04"] == "2.31"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Can not upgrade GLIBC_2.27 on CentOS 7. How to solve the dependency on GLIBC 2.27", "glibc-too-old"),
        ("we are on RHEL 7 and the wheel needs GLIBC_2.28", "glibc-too-old"),
        (
            "When installing with python 3.10 on a CentOS 7 machine:\nERROR: ale_py-0.8.0-cp310-cp310-manylinux_2_27_"
            "x86_64.manylinux_2_28_x86_64.whl is not a supported wheel on this platform.",
            "glibc-too-old",
        ),
        # the release ships that glibc: not the reason
        ("Can not upgrade GLIBC_2.27 on Ubuntu 20.04", "none"),
        (
            "Ubuntu 18.04: ERROR: foo-1.0-cp310-cp310-manylinux_2_27_x86_64.whl is not a supported wheel on this "
            "platform.",
            "python-unsupported",
        ),
        ("CentOS 7 cluster, the job hangs at startup", "none"),
    ],
)
def test_a_glibc_above_the_named_release(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_glibc_finding_names_the_release_and_where_it_is_enough(kb: KB) -> None:
    (found, *_) = explain_text("ImportError: version `GLIBC_2.32' not found (required by x.so)\nOS: Ubuntu 20.04.6", kb)
    assert found.ref == "glibc-too-old" and "Ubuntu 20.04 ships glibc 2.31" in found.cause, found.cause
    assert "Ubuntu 22.04, Debian 12, Rocky Linux 9" in found.fix, found.fix  # the oldest LTS/stable that have 2.32
    (found, *_) = explain_text('version `GLIBC_2.29\' not found\nPRETTY_NAME="Debian GNU/Linux 10 (buster)"', kb)
    assert "Debian 10 ships glibc 2.28" in found.cause, found.cause  # /etc/os-release's spelling
    (found, *_) = explain_text("version `GLIBC_2.28' not found\nCentOS Stream 9", kb)
    assert "CentOS Stream 9" not in found.cause, found.cause  # it ships 2.34
    (found, *_) = explain_text("ImportError: version `GLIBC_2.28' not found\nOS: Ubuntu 22.04", kb)
    assert "Ubuntu 22.04" not in found.cause, found.cause  # 2.35 there: the glibc loaded is another one


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "$ pip install torch\nCollecting torch\n  Downloading https://files.pythonhosted.org/packages/f8/02/"
            "torch-0.1.2.post2.tar.gz (128kB)\n    error: package directory 'torch/cuda' does not exist",
            "python-unsupported",
        ),
        ("Exception: The minimal Python requirement is Python 3.6", "python-unsupported"),
        (
            f"{_PIP}taichi>=1.2.0 (from versions: 0.9.2, 1.0.0, 1.0.3, 1.0.4)\nERROR: No matching distribution found "
            "for taichi>=1.2.0\nMy python version is 3.6.13",
            "python-unsupported",
        ),
        # the floor is among the offers: another reason
        (f"{_PIP}taichi>=1.0.0 (from versions: 0.9.2, 1.0.0, 1.0.4)\nMy python version is 3.6.13", "none"),
        # no interpreter stated: a mirror that lags says the same
        (f"{_PIP}taichi>=1.2.0 (from versions: 0.9.2, 1.0.0, 1.0.4)", "none"),
        ("torch 0.1.2.5 was a typo in my requirements", "none"),
    ],
)
def test_no_release_for_this_python_in_other_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("[Bug]: SM_120 error on RTX 5000 series\nnot able to start the application", "arch-not-compiled"),
        ("RTX 5000 series cards are fast", "none"),
    ],
)
def test_a_card_generation_written_out(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Warp CUDA error: Failed to get driver entry point 'cuDriverGetVersion' (CUDA error 34)\n"
            "Warp CUDA warning: Unable to determine CUDA driver version",
            "cuda-runtime-missing",
        ),
        ("RuntimeError: CUDA error: CUDA driver is a stub library", "cuda-runtime-missing"),
        ("RuntimeError: CUDA error 34 in my own kernel's error table", "none"),
    ],
)
def test_the_toolkit_s_stub_libcuda_loaded(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Warp CUDA error 36: API call is not supported in the installed CUDA driver (in function cuda_init)\n"
            "Warp 1.7.1 initialized:\n   CUDA Toolkit 12.8, Driver 13.0",
            "none",
        ),
        (
            "Warp CUDA error 36: API call is not supported in the installed CUDA driver (in function cuda_init)\n"
            "Warp 1.7.1 initialized:\n   CUDA Toolkit 12.8, Driver 12.2",
            "driver-too-old",
        ),
    ],
)
def test_a_driver_newer_than_the_toolkit_is_not_too_old(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "torch is not installed by requirements.txt\nthe program fails because torch is not installed even after "
            "pip install requirements",
            "none",
        ),
        ("pip install flash-attn\ntorch is not installed", "build-isolation-missing-torch"),
    ],
)
def test_torch_left_out_of_a_program_s_requirements(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
