"""Round G's structural readers: a cause said in words (one claim reader for every cause), torch's multi-line
warnings cut to one of their lines, pip's resolver line with its punctuation lost.

The sentences here are written for the tests (the concepts each claim is made of), not copied from batch G, which is
held out (tests/data/explain-corpus/README.md).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from envplan.live.diagnose.prose import PROSE, said_in_words
from envplan.live.diagnose.text import Text, sentences


def _refs(kb: KB, text: str) -> list[str]:
    return [c.ref for c in said_in_words(Text(text), kb)]


def test_sentences_split_on_punctuation_but_keep_versions_whole() -> None:
    text = "Torch 2.3.1 fails. Python 3.10 works!\n标题\uff1a不匹配。第二句"
    assert sentences(text) == ["Torch 2.3.1 fails.", "Python 3.10 works!", "标题\uff1a不匹配", "第二句"]


@pytest.mark.parametrize(
    ("words", "ref"),
    [
        ("My torchvision does not match the torch I installed", "companion-mismatch"),
        ("装完以后torchaudio和torch版本不一致", "companion-mismatch"),
        ("torchaudio throws undefined symbol errors on import", "companion-mismatch"),
        ("the published wheel isn't compiled against PyTorch 2.4 yet", "extension-torch-mismatch"),
        ("这个扩展没有针对torch 2.1编译", "extension-torch-mismatch"),
        ("torch is not yet available for Python 3.14, pip install fails", "python-unsupported"),
        ("pip install says torch does not exist", "python-unsupported"),
    ],
)
def test_a_claim_in_one_sentence_names_its_cause(kb: KB, words: str, ref: str) -> None:
    assert _refs(kb, words) == [ref]
    (found,) = said_in_words(Text(words), kb)
    assert found.score == PROSE and found.evidence == words


def test_the_build_claim_needs_the_build_step_in_the_text(kb: KB) -> None:
    claim = "setup requires pytorch but could not find it installed"
    assert _refs(kb, claim) == []  # no build shown: a program may simply lack torch
    assert _refs(kb, f"Getting requirements to build wheel ... error\n{claim}") == ["build-isolation-missing-torch"]


@pytest.mark.parametrize(
    "words",
    [
        "AssertionError: Torch not compiled with CUDA enabled",  # torch itself, not a package built for it
        "ERROR: No matching distribution found for torch==2.3.1",  # pip's own words: the install rule's
        "I want the current build of the module to use torch 2.1",  # "want", "current": no negation in them
        "torch.cuda.is_available() is not True on this box",  # CUDA unusable: not a missing torch
        "the extension compiled fine against torch 2.1",  # said built, not denied
        "torchvision and torch 0.15 both installed fine",  # a companion named, nothing said wrong
    ],
)
def test_no_claim_without_its_concepts_in_one_sentence(kb: KB, words: str) -> None:
    assert _refs(kb, words) == []


def test_concepts_split_across_sentences_make_no_claim(kb: KB) -> None:
    assert _refs(kb, "The wheel is fine. It was not built yesterday. PyTorch 2.4 is here.") == []


def test_a_message_outranks_a_claim(kb: KB) -> None:
    text = (
        "the package is not built for torch 2.4\n"
        "RuntimeError: The detected CUDA version (12.1) mismatches the version that was used to compile PyTorch (11.8)"
    )
    found = explain_text(text, kb)
    assert [d.ref for d in found] == ["toolkit-torch-cuda-mismatch", "extension-torch-mismatch"]
    assert found[1].score == PROSE


def test_the_arch_warning_cut_to_its_list_line_still_reads(kb: KB) -> None:
    text = "RTX 3090 sm_86 here\nThe current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70."
    (found,) = explain_text(text, kb)
    assert found.ref == "arch-not-compiled" and "sm_86" in found.cause
    inside = text.replace("sm_86", "sm_70")
    assert "sm_70" not in explain_text(inside, kb)[0].cause  # a GPU the list covers is not named as the one missing
    last_line = "If you want to use the NVIDIA GeForce RTX 3080 GPU with PyTorch, please check the instructions"
    assert explain_text(last_line, kb)[0].ref == "arch-not-compiled"


def test_the_driver_message_cut_to_its_later_lines_still_reads(kb: KB) -> None:
    text = "Please update your GPU driver by downloading and installing a new\nversion from the URL"
    assert explain_text(text, kb)[0].ref == "driver-too-old"
    rest = (
        "go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the "
        "CUDA driver"
    )
    assert explain_text(rest, kb)[0].ref == "driver-too-old"


def test_pips_resolver_line_reads_without_its_colon(kb: KB) -> None:
    text = "ERROR: Could not find a version that satisfies the requirement torch==2.0.0 (from versions none)"
    assert explain_text(text, kb)[0].ref == "python-unsupported"
