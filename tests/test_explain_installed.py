"""`envplan explain --python`: the installed torch's exports decide what a log cannot, whether a missing
`std::string` symbol lacks the other C++ ABI or this torch release never had it. These tests give the decision
a torch's exports by hand (the real c++filt reads them); tests/integration/test_abicheck.py runs it on the real
torch 2.13.0 wheel and the ImportErrors of real broken builds."""

from __future__ import annotations

import shutil

import pytest

from envplan.kb import KB
from envplan.live.demangle import demangle_one
from envplan.live.diagnose import explain_text
from envplan.live.torchexports import InstalledTorch, plain_name

pytestmark = pytest.mark.skipif(shutil.which("c++filt") is None, reason="needs c++filt (binutils)")

# c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::string const&), both ABIs' spellings
NEW = "_ZN3c106detail14torchCheckFailEPKcS2_jRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
OLD = "_ZN3c106detail14torchCheckFailEPKcS2_jRKSs"
# a function with the same prefix that takes another argument, and one that no torch has
OTHER = "_ZN3c106detail14torchCheckFailEPKcS2_jS2_"
ABSENT = "_ZN3c106detail18torchCheckFailGoneEPKcS2_jRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
ABSENT_TAGGED = "_ZN3c1018DeviceTypeNameGoneB5cxx11ENS_10DeviceTypeEb"
LOG = "ImportError: /env/lib/python3.11/site-packages/my_ext/_C.cpython-311-x86_64-linux-gnu.so: undefined symbol: "


def torch_with(*exports: str, version: str = "2.13.0+cpu") -> InstalledTorch:
    return InstalledTorch(python="/env/bin/python", version=version, exports=tuple(sorted(exports)))


def test_both_spellings_of_std_string_are_one_name() -> None:
    assert plain_name(demangle_one(NEW)) == plain_name(demangle_one(OLD))
    assert plain_name(demangle_one(NEW)) != plain_name(demangle_one(OTHER))


@pytest.mark.parametrize(
    ("exports", "symbol", "verdict"),
    [
        ((NEW, OTHER), OLD, "other-abi"),  # a cxx11 torch asked for the old spelling
        ((OLD, OTHER), NEW, "other-abi"),  # an old-ABI torch asked for the cxx11 one
        ((NEW,), NEW, "exported"),
        ((NEW, OTHER), ABSENT, "absent"),
        ((OTHER,), OLD, "absent"),  # the prefix shared, the function not
        ((NEW,), "_ZN2at6native14removed_kernelEv", "absent"),  # nothing ABI-dependent in it
    ],
)
def test_the_verdict(exports: tuple[str, ...], symbol: str, verdict: str) -> None:
    assert torch_with(*exports).verdict(symbol) == verdict


def first(kb: KB, text: str, installed: InstalledTorch | None = None) -> tuple[str, str, str]:
    found = explain_text(text, kb, demangle_one, installed)
    return (found[0].ref, found[0].cause, found[0].fix) if found else ("none", "", "")


def test_an_old_abi_symbol_in_a_cxx11_torch_is_the_abi(kb: KB) -> None:
    # the text alone, with no torch version, takes version skew for an old-ABI symbol (the threads split evenly)
    assert first(kb, LOG + OLD)[0] == "extension-torch-mismatch"
    ref, cause, fix = first(kb, LOG + OLD, torch_with(NEW))
    assert ref == "cxx11-abi-mismatch"
    assert "_GLIBCXX_USE_CXX11_ABI=0, torch with 1" in cause and "torch 2.13.0+cpu" in cause
    assert "cxx11abiTRUE" in fix


def test_a_cxx11_symbol_in_an_old_abi_torch_is_the_abi(kb: KB) -> None:
    # the text alone, with no torch version, takes version skew for a std::string argument spelt cxx11: both ABIs'
    # torches (every PyPI torch since 2.7 is cxx11) lack a symbol of another release under that spelling
    assert first(kb, LOG + NEW)[0] == "extension-torch-mismatch"
    ref, cause, fix = first(kb, LOG + NEW, torch_with(OLD, version="2.5.1+cu121"))
    assert ref == "cxx11-abi-mismatch" and "_GLIBCXX_USE_CXX11_ABI=1, torch with 0" in cause
    assert "cxx11abiFALSE" in fix


def test_a_cxx11_symbol_a_cxx11_torch_lacks_is_another_torch(kb: KB) -> None:
    # the text alone, with no torch version, takes the ABI for a name tagged cxx11 (B5cxx11); the installed torch has
    # the ABI and not the symbol
    assert first(kb, LOG + ABSENT_TAGGED)[0] == "cxx11-abi-mismatch"
    ref, cause, fix = first(kb, LOG + ABSENT_TAGGED, torch_with(NEW))
    assert ref == "extension-torch-mismatch" and "under either C++ ABI" in cause
    assert "torch 2.13.0+cpu" in fix  # the rebuild names the installed torch


def test_a_symbol_the_installed_torch_exports_leaves_the_text_to_decide(kb: KB) -> None:
    # the failing process loaded another torch than this environment's: the environment cannot say more
    assert first(kb, LOG + NEW, torch_with(NEW))[0] == first(kb, LOG + NEW)[0]
