"""Round H's structural changes, one per kind of miss in batch H's first measurement (tests/data/explain-corpus/
README.md): a message a terminal wrapped, torch's own build named as the package, torch said absent while a setup
script builds, a setup script's frame run by hand, the symbol message in Chinese, PyPI's placeholder installed.

The texts are written for the tests (the kind, not a report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.demangle import demangle_one
from envplan.live.diagnose import explain_text
from envplan.live.diagnose.prose import said_in_words
from envplan.live.diagnose.text import Text
from helpers import first_ref


def test_a_companion_check_wrapped_by_the_terminal_still_reads(kb: KB) -> None:
    text = (
        "RuntimeError: Detected that PyTorch and torchaudio were compiled with\n"
        "different CUDA major versions. PyTorch has CUDA\nVersion=12.4 and torchaudio has CUDA Version=11.8."
    )
    found = explain_text(text, kb, demangle_one)
    assert found[0].ref == "companion-mismatch"
    assert "CUDA 12.4" in found[0].cause and "CUDA 11.8" in found[0].cause


@pytest.mark.parametrize(
    ("words", "refs"),
    [
        # an architecture named: torch's build lacks its kernels (round O's claim), still no extension's
        ("Does the PyTorch build not support sm_121 yet?", ["arch-not-compiled"]),
        ("the torch wheel is not built for my GPU", []),
        ("torch binaries don't support this card", []),
    ],
)
def test_torchs_own_build_denied_is_no_extension_claim(kb: KB, words: str, refs: list[str]) -> None:
    assert [c.ref for c in said_in_words(Text(words), kb)] == refs


def test_a_package_denied_for_torch_is_still_an_extension_claim(kb: KB) -> None:
    words = "the flash-attn wheel is not built for torch 2.6"
    assert [c.ref for c in said_in_words(Text(words), kb)] == ["extension-torch-mismatch"]


@pytest.mark.parametrize(
    "absent", ["torch is not already available", "torch was not installed first", "torch is not present"]
)
def test_torch_said_absent_while_a_setup_script_builds(kb: KB, absent: str) -> None:
    text = f"pip install -r requirements.txt fails: {absent} when setup.py runs"
    assert [c.ref for c in said_in_words(Text(text), kb)] == ["build-isolation-missing-torch"]
    assert [c.ref for c in said_in_words(Text(f"{absent}, so my script stops"), kb)] == []  # no build shown


def test_a_setup_script_frame_is_the_build_wherever_it_lies(kb: KB) -> None:
    trace = (
        "Traceback (most recent call last):\n"
        '  File "setup.py", line 9, in <module>\n'
        "    import torch\n"
        "ModuleNotFoundError: No module named 'torch'"
    )
    assert first_ref(kb, trace) == "build-isolation-missing-torch"
    program = trace.replace('"setup.py"', '"train.py"')
    assert first_ref(kb, program) == "none"  # a program without torch: nothing was being built


def test_the_symbol_message_in_chinese_reads_like_the_english_one(kb: KB) -> None:
    symbol = "_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
    chinese = f"导入 my_ext 时报错\uff1a未定义的符号\uff1a{symbol}"
    english = f"ImportError: my_ext.so: undefined symbol: {symbol}"
    assert first_ref(kb, chinese) == first_ref(kb, english) != "none"


def test_pypis_placeholder_installed_is_no_torch_for_this_python(kb: KB) -> None:
    text = (
        "ERROR: torchaudio 0.5.0 has requirement torch==1.5.0, but you'll have torch 0.1.2.post2 which is incompatible."
    )
    assert first_ref(kb, text) == "python-unsupported"
    real = text.replace("0.1.2.post2", "1.4.0")
    assert first_ref(kb, real) == "companion-mismatch"  # a real torch: the pair's conflict


@pytest.mark.parametrize(
    "words",
    [
        "the glibc on CentOS 7 is too old for this wheel",
        "Ubuntu 20.04 does not come with the glibc version the extension needs",
        "服务器的glibc版本太低\uff0c装不上",
    ],
)
def test_glibcs_age_said_in_words_is_a_claim(kb: KB, words: str) -> None:
    """The older glibc prose pattern, moved onto the claim reader: a claim's score, under the loader's message."""
    (found,) = said_in_words(Text(words), kb)
    assert found.ref == "glibc-too-old" and found.score < 0.93
    message = "ImportError: /lib64/libc.so.6: version `GLIBC_2.32' not found (required by ext.so)"
    assert explain_text(f"{message}\n{words}", kb, demangle_one)[0].score >= 0.93


def test_a_glibc_named_without_its_age_makes_no_claim(kb: KB) -> None:
    assert said_in_words(Text("glibc 2.35 is installed and works fine"), kb) == []
