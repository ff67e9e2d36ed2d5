"""Round O's structural changes, one per kind of miss in batch O's first measurement (tests/data/explain-corpus/
README.md): pip finding nothing on a PyTorch index that was never published, a CUDA library's wheel offered only as
placeholders, a CPU build's assertion on a machine with no NVIDIA GPU (integrated Intel graphics, a program told
`--cpu`), the assertion retold without "Torch" or "enabled", a GPU architecture asked to be supported.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import first_ref

_NO_TORCH = (
    "pip install torch==2.6.0 --index-url https://download.pytorch.org/whl/{label}\n"
    "ERROR: Could not find a version that satisfies the requirement torch==2.6.0 (from versions: none)\n"
    "ERROR: No matching distribution found for torch==2.6.0"
)


@pytest.mark.parametrize("label", ["cu122", "cu120", "cu131", "cu127"])
def test_an_index_pytorch_never_published_is_not_the_python(kb: KB, label: str) -> None:
    # no release of the KB was built for these CUDA versions: the URL is the mistake, which is outside the catalogue
    assert all(label not in r.variants for r in kb.releases)
    assert first_ref(kb, _NO_TORCH.format(label=label)) == "none"


@pytest.mark.parametrize("end", [".", ",", ")"])
def test_an_index_ending_a_sentence_is_still_read(kb: KB, end: str) -> None:
    # punctuation after the URL ends the sentence, not the label: "whl/cu131." is the cu131 index
    text = _NO_TORCH.format(label="cu131").replace("cu131\n", f"cu131{end}\n")
    assert first_ref(kb, text) == "none"


@pytest.mark.parametrize("label", ["cu124", "cu118"])
def test_a_published_index_still_reads_as_the_interpreter(kb: KB, label: str) -> None:
    assert first_ref(kb, _NO_TORCH.format(label=label)) == "python-unsupported"


def test_an_index_older_than_the_kb_decides_nothing(kb: KB) -> None:
    # cu115 was published (torch 1.11), before the KB's first release: not knowing it is not knowing it never was
    assert first_ref(kb, _NO_TORCH.format(label="cu115")) == "python-unsupported"


@pytest.mark.parametrize(
    "line",
    [
        "ERROR: Could not find a version that satisfies the requirement nvidia-cublas-cu12==12.1.3.1 "
        "(from versions: 0.0.1.dev5)",
        "ERROR: No matching distribution found for nvidia-cuda-runtime-cu11==11.7.99 "
        "(from versions: 0.0.1.dev5, 2021.10.26, 2022.4.8)",
    ],
)
def test_a_cuda_library_wheel_offered_only_as_placeholders(kb: KB, line: str) -> None:
    assert first_ref(kb, line) == "python-unsupported"


def test_a_cuda_library_wheel_with_real_versions_listed_is_another_matter(kb: KB) -> None:
    # real releases listed: the pin names a version that does not exist, not a platform without wheels
    line = (
        "ERROR: Could not find a version that satisfies the requirement nvidia-cudnn-cu12==9.99.0 "
        "(from versions: 8.9.2.26, 9.1.0.70)"
    )
    assert first_ref(kb, line) == "none"


_ASSERT = "AssertionError: Torch not compiled with CUDA enabled"


@pytest.mark.parametrize(
    "context",
    [
        "My laptop only has Intel UHD Graphics 620.",
        "I'm on a Laptop with Intel i7 Graphics card.",
        "python inference.py --cpu --model x.pth",
        "电脑只有核显",
    ],
)
def test_the_assertion_with_no_nvidia_gpu_to_run_on(kb: KB, context: str) -> None:
    assert first_ref(kb, f"{context}\n{_ASSERT}") == "none"


def test_integrated_graphics_beside_an_nvidia_card_is_still_a_cpu_build(kb: KB) -> None:
    text = f"Laptop: Intel UHD Graphics 630 and an NVIDIA GeForce RTX 3060\n{_ASSERT}"
    assert first_ref(kb, text) == "cpu-only-build"


@pytest.mark.parametrize(
    "title", ["Not compiled with CUDA", "Torch is not compiled with CUDA on my 3090", "## not compiled with cuda"]
)
def test_the_assertion_retold(kb: KB, title: str) -> None:
    assert first_ref(kb, f"{title}\nI have CUDA installed and working correctly.") == "cpu-only-build"


def test_another_packages_build_without_cuda_is_not_torchs(kb: KB) -> None:
    assert first_ref(kb, "The installed version of bitsandbytes was not compiled with CUDA support") != "cpu-only-build"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Support for sm_89\nTo support sm_89 we would need a newer PyTorch.", "arch-not-compiled"),
        ("PyTorch 1.7 does not support sm_86", "arch-not-compiled"),
        ("nvcc: support for sm_90 needs CUDA toolkit 11.8", "none"),  # the toolkit's, not torch's build
    ],
)
def test_an_architecture_asked_to_be_supported(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref
