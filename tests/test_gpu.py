from __future__ import annotations

import pytest

from envplan.kb.variants import format_cc, parse_cc, parse_sm
from envplan.profile.gpu import find_gpu, machine_gpus, normalize_gpu_name, runs_on


@pytest.mark.parametrize(
    ("written", "cc"),
    [
        ("A100", (8, 0)),
        ("a100-sxm4-80gb", (8, 0)),
        ("NVIDIA A100-SXM4-80GB", (8, 0)),
        ("NVIDIA A100 80GB PCIe", (8, 0)),
        ("RTX 4090", (8, 9)),
        ("GeForce RTX 4090", (8, 9)),
        ("NVIDIA GeForce RTX 4090", (8, 9)),
        ("GTX 1080 Ti", (6, 1)),
        ("T4", (7, 5)),
        ("Tesla T4", (7, 5)),
        ("H100", (9, 0)),
        ("NVIDIA H100 80GB HBM3", (9, 0)),
        ("V100", (7, 0)),
        ("Tesla V100-SXM2-16GB", (7, 0)),
        ("RTX 5090", (12, 0)),
        ("NVIDIA GeForce RTX 5090", (12, 0)),
        ("NVIDIA RTX 6000 Ada Generation", (8, 9)),
        ("Quadro RTX 6000", (7, 5)),
        ("Tesla P4", (6, 1)),
        ("Tesla P40", (6, 1)),
        ("NVIDIA B300", (10, 3)),
        # NVIDIA's legacy page (rows 6.1 to 3.0): Pascal's "NVIDIA TITAN X" is not Maxwell's "GeForce GTX TITAN X"
        ("TITAN X (Pascal)", (6, 1)),
        ("NVIDIA GeForce GTX TITAN X", (5, 2)),
        ("GeForce GTX 960M", (5, 0)),
        ("GTX 960", (5, 2)),
        ("Quadro P2000", (6, 1)),
        ("Quadro K5000", (3, 0)),
        ("Tesla K40m", (3, 5)),
        ("GeForce GTX 780 Ti", (3, 5)),
    ],
)
def test_names_as_people_and_nvidia_smi_write_them(kb, written: str, cc: tuple[int, int]) -> None:
    match = find_gpu(written, kb.gpus)
    assert match is not None, written
    assert match.gpu.compute_capability == cc


# (the GT 730 was sold as a Fermi and as a Kepler card: its name does not give the capability)
@pytest.mark.parametrize("written", ["GeForce GT 730", "Radeon RX 7900", "A1000", "", "NVIDIA"])
def test_unknown_names_do_not_match(kb, written: str) -> None:
    assert find_gpu(written, kb.gpus) is None


def test_normalize_drops_vendor_words_and_separators() -> None:
    assert normalize_gpu_name("NVIDIA GeForce RTX 4090") == ("rtx", "4090")
    assert normalize_gpu_name("Tesla V100-SXM2-16GB") == ("v100", "sxm2", "16gb")


@pytest.mark.parametrize(
    ("cc", "cubins", "ptx", "runs"),
    [
        ((6, 1), [(6, 0)], [], True),  # GTX 1080 Ti runs sm_60 builds (same major, lower minor)
        ((9, 0), [(8, 0), (8, 6)], [], False),  # H100 does not run a build that stops at 8.6 without PTX
        ((9, 0), [(8, 0), (8, 6)], [(8, 6)], True),  # ... but does with 8.6 PTX
        ((8, 9), [(8, 0), (8, 6)], [], True),  # Ada via sm_86
        ((8, 0), [(8, 6)], [], False),  # a cubin for a higher minor does not run
        ((12, 0), [(10, 0)], [], False),  # different major
        ((12, 0), [(9, 0)], [(10, 0)], True),  # PTX for a lower arch JITs forward
        ((7, 5), [], [(8, 0)], False),  # PTX for a higher arch does not
    ],
)
def test_cuda_binary_compatibility_rule(cc, cubins, ptx, runs) -> None:
    assert runs_on(cc, cubins, ptx) is runs


def test_profile_compute_capability_wins_over_the_kb(kb) -> None:
    gpus = machine_gpus(("A100",), ((9, 0),), kb.gpus)
    assert gpus[0].cc == (9, 0) and gpus[0].origin == "profile"


def test_unknown_gpu_has_no_capability(kb) -> None:
    (gpu,) = machine_gpus(("Mystery 9000",), (), kb.gpus)
    assert gpu.cc is None and gpu.origin == "unknown"


def test_unverified_gpu_rows_are_flagged(kb) -> None:
    (gpu,) = machine_gpus(("NVIDIA A10G",), (), kb.gpus)
    assert gpu.cc == (8, 6) and gpu.verified is False
    (board,) = machine_gpus(("Tesla K40m",), (), kb.gpus)  # a board of a family NVIDIA's page names
    assert board.cc == (3, 5) and board.verified is False


@pytest.mark.parametrize(
    ("token", "cc"),
    [
        ("sm_86", (8, 6)),
        ("compute_90", (9, 0)),
        ("sm_90a", (9, 0)),
        ("sm_120", (12, 0)),
        ("compute_100f", (10, 0)),
        ("75", (7, 5)),
        ("sm_8", None),
        ("gfx90a", None),
        ("8.6", None),
    ],
)
def test_one_reader_for_the_sm_spelling(token: str, cc: tuple[int, int] | None) -> None:
    """torch.cuda.get_arch_list(), nvcc's -gencode and error logs spell capabilities sm_XY: one reader for all."""
    assert parse_sm(token) == cc
    if cc is not None:
        assert parse_cc(format_cc(cc)) == cc  # and it agrees with the dotted spelling
