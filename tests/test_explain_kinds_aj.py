"""Before batch AJ was collected: what a reader knows of packages other than torch, as KB facts read from PyPI.
envplan/kb/python_bound.toml lists packages every release of which declares a Python range (TTS: 3.6 to 3.11;
chai-lab: 3.10 and up): pip finding none of one, the text stating no Python inside the range, is no release for this
interpreter; a Python stated inside it is not the interpreter, and stays silent. envplan/kb/wheel_only.toml gains
spconv under each of its per-CUDA names, ONNX Runtime's GPU build and RealSense's bindings (wheels only, no macOS).

Round AJ's structural changes, one per kind of batch AJ's first-measurement misses that its blind reader named right
(tests/data/explain-corpus/README.md): a pin newer than every release pip offers, asked by another package or against
three or more offers ("nnunetv2==2.2 (from TotalSegmentator) (from versions: 2.0)"); "seems to lack CUDA support for
Torch"; and made silent: torch's assertion where the program was given the CPU as its device and asks for CUDA nowhere
("build_classifier(..., device='cpu')": the library's own CUDA call).

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import json
import urllib.request

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from envplan.kb import KB
from helpers import assert_first_ref

_PIP = "ERROR: Could not find a version that satisfies the requirement "


def test_the_python_bound_packages_are_well_formed(kb: KB) -> None:
    from envplan.kb.loader import read_table

    rows = read_table("python_bound.toml")["package"]
    assert len(rows) >= 10 and len(kb.python_bound) == len(rows)
    for row in rows:
        assert row["name"] == row["name"].lower() and "_" not in row["name"], row  # PyPI's normalized name
        assert row["files"] > 0 and Version(row["latest"]), row
        floor, ceiling = Version(row["floor"]), row["ceiling"]
        assert floor.major == 3 and (ceiling == "" or Version(ceiling) > floor), row
        # a package accepting every Python in common use would tell nothing when pip finds none of it
        assert floor >= Version("3.9") or (ceiling and Version(ceiling) <= Version("3.13")), row


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            f"{_PIP}TTS==0.21.* (from versions: none)\nERROR: No matching distribution found for TTS==0.21.*",
            "python-unsupported",
        ),
        (f"Python 3.12.4\n{_PIP}TTS (from versions: none)", "python-unsupported"),
        (f"{_PIP}chai_lab==0.6.0 (from versions: none)", "python-unsupported"),
        # the Python stated is one every release accepts: a mirror, an index that is not PyPI, not the interpreter
        (f"python 3.11\n{_PIP}TTS==0.21.* (from versions: none)", "none"),
        (f"I use Python 3.10.12\n{_PIP}chai_lab (from versions: none)", "none"),
        # a package the KB does not list says nothing (it may not be on PyPI at all)
        (f"{_PIP}chai-labs (from versions: none)", "none"),
    ],
)
def test_a_package_bound_to_some_pythons_pip_finds_nothing_of(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_the_finding_names_the_pythons_and_the_alternative(kb: KB) -> None:
    from envplan.live.diagnose import explain_text

    (found,) = explain_text(f"Python 3.13.1\n{_PIP}TTS (from versions: none)", kb)
    floor, ceiling, instead = kb.python_bound["tts"]
    assert f"Python {floor} to 3.{int(ceiling.split('.')[1]) - 1}" in found.cause and "3.13" in found.cause
    assert instead and instead in found.fix and found.fix.startswith("install it in an environment with Python")
    (found,) = explain_text(f"{_PIP}cuequivariance (from versions: none)", kb)
    assert "Python 3.9 or newer" in found.cause


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "$ pip3 install spconv\nCollecting spconv\n  Could not find a version that satisfies the requirement "
            "spconv (from versions: )\nNo matching distribution found for spconv",
            "python-unsupported",
        ),
        (
            f"{_PIP}spconv-cu118 (from versions: none)\nERROR: No matching distribution found for spconv-cu118",
            "python-unsupported",
        ),
        (f"{_PIP}onnxruntime-gpu (from versions: none)", "python-unsupported"),
        # a name spconv never published under
        (f"{_PIP}spconv-cu999 (from versions: none)", "none"),
    ],
)
def test_more_wheel_only_packages(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            f"{_PIP}nnunetv2==2.2 (from TotalSegmentator) (from versions: 2.0)\n"
            "ERROR: No matching distribution found for nnunetv2==2.2 (from TotalSegmentator)",
            "python-unsupported",
        ),
        (f"{_PIP}spconv-cu114==2.2.3 (from versions: 2.1.5, 2.1.6, 2.1.7, 2.1.8)", "python-unsupported"),
        # a direct pin newer than one or two offers, or of a major none offered has, may be a release never published
        (f"{_PIP}mylib==3.0 (from versions: 1.0, 2.0)", "none"),
        (f"{_PIP}mylib==3.0 (from versions: 2.0, 2.1, 2.2)", "none"),
        # another package's pin names a release that exists, whatever its major
        (f"{_PIP}mylib==3.0 (from otherlib) (from versions: 2.0, 2.1, 2.2)", "python-unsupported"),
        # a pin inside the offered range is a yanked or mistyped release
        (f"{_PIP}mylib==1.5 (from TotalSegmentator) (from versions: 1.0, 2.0)", "none"),
    ],
)
def test_a_pin_newer_than_every_release_offered(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("The current environment seems to lack CUDA support for Torch.", "cpu-only-build"),
        ("Our PyTorch lacks CUDA support on this machine", "cpu-only-build"),
        ("the cluster lacks CUDA support for some nodes", "none"),
        # the program given the CPU and asking for CUDA nowhere: the assertion is its own CUDA call's
        (
            "model = transtab.build_classifier(cat_cols, num_cols, device='cpu')\n"
            "AssertionError: Torch not compiled with CUDA enabled",
            "none",
        ),
        ("python infer.py --device cpu\nAssertionError: Torch not compiled with CUDA enabled", "none"),
        # ... but where it asks for CUDA too, the CPU build is what fails it
        (
            "model = AutoModel.from_pretrained(name, device='cpu').float() works, but slow\n"
            "model = AutoModel.from_pretrained(name).cuda()\nAssertionError: Torch not compiled with CUDA enabled",
            "cpu-only-build",
        ),
    ],
)
def test_a_cpu_build_said_and_a_program_told_to_use_the_cpu(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def test_cuda_10_toolkits_know_their_newest_architecture(kb: KB) -> None:
    """envplan/kb/cuda.toml's driver-floor rows of CUDA 10.x carry sm_75 (Turing) as the newest native architecture,
    flagged unverified (a retelling of NVIDIA's notes, not docs.nvidia.com); 11.0's row starts Ampere."""
    tens = [f for f in kb.driver_floors if f.version.major == 10]
    assert tens and all(f.arch_max == (7, 5) for f in tens)
    assert min(kb.cuda, key=lambda tk: tk.version).arch_max >= (8, 0)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # (after batch AJ, before batch AK was read) a card of a later generation than CUDA 10.x compiles for
        ("RTX 3090 with CUDA 10.1 does not work", "arch-not-compiled"),
        (
            "Does ESPnet support 3090GPU? I tried Pytorch1.7.1 + Cuda10.1 and found that the code does not work",
            "arch-not-compiled",
        ),
        # Volta and Turing run CUDA 10.x code; a V100 on CUDA 9.0 is no gap the KB knows (no 9.x architectures)
        ("V100 with CUDA 10.1 does not work", "none"),
        ("RTX 2080 Ti on CUDA 10.0 fails", "none"),
        ("V100 with CUDA 9.0 does not work", "none"),
        ("my 3090GPU runs out of memory with CUDA 10.1", "none"),
    ],
)
def test_a_card_newer_than_a_cuda_10_toolkit(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_SO = "ImportError: /env/lib/python3.11/site-packages/my_ext/_C.cpython-311-x86_64-linux-gnu.so: undefined symbol: "
_STRING_ARG = "_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # (after batch AJ, before AK was read) no torch ABI shown, a std::string argument spelt cxx11: version skew
        (_SO + _STRING_ARG, "extension-torch-mismatch"),
        # ... the torch shown uses the old ABI (2.5.1 from PyPI): the ABI
        ("torch 2.5.1\n" + _SO + _STRING_ARG, "cxx11-abi-mismatch"),
        # ... a name tagged with the cxx11 ABI itself: the ABI
        (_SO + "_ZN5torch4lazy13MetricFnValueB5cxx11E", "cxx11-abi-mismatch"),
    ],
)
def test_a_cxx11_string_argument_without_torch_s_abi_is_version_skew(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


def _minors(requires_python: str | None) -> set[str]:
    if not requires_python:
        return {f"3.{i}" for i in range(20)}
    spec = SpecifierSet(requires_python)
    return {f"3.{i}" for i in range(20) if spec.contains(f"3.{i}.0") or spec.contains(f"3.{i}.99")}


@pytest.mark.network
def test_the_python_bounds_are_what_pypi_says(kb: KB) -> None:
    """Re-read every row from PyPI's JSON API: the union of the minors its files accept starts at the floor and stops
    before the ceiling (a release added since may widen it: then the row is re-read, as its header says)."""
    for name, (floor, ceiling, _) in kb.python_bound.items():
        with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/json", timeout=60) as response:
            releases = json.load(response)["releases"]
        accepted: set[str] = set()
        for files in releases.values():
            for f in files:
                if not f.get("yanked"):
                    assert f.get("requires_python"), (name, f["filename"])
                    accepted |= _minors(f["requires_python"])
        ordered = sorted(accepted, key=lambda m: int(m.split(".")[1]))
        assert ordered[0] == floor, name
        assert ceiling == "" or ceiling not in accepted, name
