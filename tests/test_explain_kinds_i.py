"""Round I's structural changes, one per kind of miss in batch I's first measurement (tests/data/explain-corpus/
README.md): the C++ ABI said in words, an extension said to be built for another torch release than the one in use,
pip building torch from a source distribution (PyPI's placeholder), the symbol message cut in two places, a
companion named only in an install command.

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


@pytest.mark.parametrize(
    "words",
    [
        "Anything linking against libtorch must be built with _GLIBCXX_USE_CXX11_ABI=0 too.",
        "I get a `__cxx11` problem when linking my library with torch",
        "undefined references everywhere: the pre-cxx11 ABI of the conda package",
    ],
)
def test_the_cxx11_abi_said_in_words(kb: KB, words: str) -> None:
    assert [c.ref for c in said_in_words(Text(words), kb)] == ["cxx11-abi-mismatch"]


@pytest.mark.parametrize(
    "words",
    [
        "g++ -I/usr/include/python3.10 -fPIC -O2 -D_GLIBCXX_USE_CXX11_ABI=0 -c ops.cpp -o ops.o  # linking next",
        "torch._C._GLIBCXX_USE_CXX11_ABI is True on this machine",  # a value printed, no trouble said
    ],
)
def test_the_abi_flag_named_without_trouble_is_no_claim(kb: KB, words: str) -> None:
    assert [c.ref for c in said_in_words(Text(words), kb)] == []


@pytest.mark.parametrize(
    "words",
    [
        "该扩展的预编译wheel是针对PyTorch 2.5.1版本构建的,而环境中使用的是PyTorch 2.4.0",
        "the prebuilt wheel was compiled for torch 2.4 but I run torch 2.3.1",
    ],
)
def test_an_extension_built_for_another_torch_release_said_in_words(kb: KB, words: str) -> None:
    assert [c.ref for c in said_in_words(Text(words), kb)] == ["extension-torch-mismatch"]


def test_one_torch_release_named_twice_is_no_mismatch(kb: KB) -> None:
    words = "the wheel was built for torch 2.4.0 and I run torch 2.4.1"  # one release: patches share the ABI
    assert [c.ref for c in said_in_words(Text(words), kb)] == []


@pytest.mark.parametrize(
    "log",
    [
        "  Building wheel for torch (setup.py) ... error\n  ERROR: Failed building wheel for torch",
        '  File "C:\\Temp\\pip-install-ab12\\torch\\setup.py", line 225, in <module>\n'
        '    setup(name="torch", version="0.1.2.post2",',
    ],
)
def test_pip_building_torch_from_source_is_the_placeholder(kb: KB, log: str) -> None:
    assert first_ref(kb, log) == "python-unsupported"


def test_a_real_torch_source_build_is_no_placeholder(kb: KB) -> None:
    log = "git clone pytorch && cd pytorch\n-- Configuring incomplete, errors occurred (cmake)\nFailed to build torch"
    assert first_ref(kb, log) != "python-unsupported"


def test_the_symbol_message_cut_in_two_places(kb: KB) -> None:
    log = (
        "mmcv 1.7.0 with torch 1.12.1: undefined symbol:\n"
        '  File "/env/lib/python3.8/site-packages/mmcv/utils/ext_loader.py", line 13, in load_ext\n'
        "ImportError: /env/lib/python3.8/site-packages/mmcv/_ext.cpython-38-x86_64-linux-gnu.so:\n"
    )
    found = explain_text(log, kb, demangle_one)
    assert found[0].ref == "extension-torch-mismatch" and "mmcv" in found[0].cause
    assert first_ref(kb, log.replace("mmcv/_ext", "torch/lib/libtorch_cpu")) == "none"  # torch's own: a broken install


def test_a_companion_in_the_install_command_does_not_own_the_failure(kb: KB) -> None:
    log = (
        "ImportError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory\n"
        "installed with conda install pytorch==2.0.0 torchvision==0.15.0 pytorch-cuda=11.8 -c pytorch"
    )
    assert first_ref(kb, log) == "extension-torch-mismatch"
    failing = log + '\n  File "/env/site-packages/torchvision/extension.py", line 1, in <module>'
    assert first_ref(kb, failing) == "companion-mismatch"
