"""Round BO's structural changes, one per kind of batch BO's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- a PyG extension pinned to a release that PyG's wheel page for the torch build does not list ("torch-scatter==2.0.7
  (from versions: 2.0.4, 2.0.5)" with -f .../whl/torch-1.5.0+cu101.html): that release has no build for that torch;
- a card generation said not to seem supported ("Blackwell GPU do not seem to be supported");
- torch's version said not compatible with a named card ("PyTorch version required by NeuroX is not compatible with
  RTX 3090");
- an install said to have replaced torch with one "that isnt compiled with cuda";
- a companion said to need updating "to meet torch requirements".

Each kind has a text it must stay silent on. The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_PAGE = "pip install torch-scatter==2.0.7 -f https://data.pyg.org/whl/torch-1.5.0+cu101.html\n"
_NONE_OF = "ERROR: Could not find a version that satisfies the requirement torch-scatter==2.0.7 (from versions: {})"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_PAGE + _NONE_OF.format("2.0.4, 2.0.5"), "extension-torch-mismatch"),
        # pip's nested comes-from before its list (read since with the shared BEFORE_LIST of packages.py)
        (
            _PAGE + _NONE_OF.replace("==2.0.7 ", "==2.0.7 (from -r requirements.txt (line 3)) ").format("2.0.4, 2.0.5"),
            "extension-torch-mismatch",
        ),
        # nothing listed at all: the platform or the Python, not the torch
        (_PAGE + _NONE_OF.format("none"), "python-unsupported"),
        # no torch's page named: which torch the list is for is not said
        (_NONE_OF.format("2.0.4, 2.0.5"), "none"),
    ],
)
def test_a_pyg_release_missing_from_the_torch_builds_page(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Blackwell GPU do not seem to be supported", "arch-not-compiled"),
        ("Blackwell GPUs seem to be supported now, thanks", "none"),
    ],
)
def test_a_generation_said_not_to_seem_supported(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("PyTorch version required by NeuroX is not compatible with RTX 3090", "arch-not-compiled"),
        # the driver, or a companion, said incompatible: not the build's kernels
        ("PyTorch is not compatible with the NVIDIA driver on my RTX 3090", "driver-too-old"),
        ("torchvision is not compatible with the torch on my RTX 3090", "companion-mismatch"),
        # no card named (a version string is none: "peft v0.3.0dev0 ... torch>=1.13.0 conflicts with torch=1.12.0")
        ("peft v0.3.0dev0 setup.py asks torch>=1.13.0, which conflicts with the project's torch=1.12.0", "none"),
    ],
)
def test_torch_said_not_compatible_with_a_named_card(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("installing the node's dependencies replaced torch with one that isnt compiled with cuda", "cpu-only-build"),
        ("on my M1 Mac it replaced torch with one that isnt compiled with cuda", "none"),
    ],
)
def test_an_install_that_replaced_torch_with_a_cpu_build(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Update torchvision package to meet torch requirements", "companion-mismatch"),
        ("Update numpy to meet torch requirements", "none"),
    ],
)
def test_a_companion_to_update_to_meet_torchs_requirements(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
