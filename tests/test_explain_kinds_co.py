"""Round CO's structural changes, one per kind of batch CO's first-measurement misses its blind reader read right
(tests/data/explain-corpus/README.md):

- a local build pinned of a release pip offers this interpreter, PyTorch's local builds among its offers
  ("torch===1.4.0+cu100 (from versions: ..., 1.3.1+cpu, 1.3.1+cu92, 1.4.0, ...)", pytorch#42999), or whose sibling
  build the text says works ("however `torch==1.8.0+cu101` works ok", pytorch#54172): the variant is missing, not a
  wheel for the interpreter (a Mac or a Jetson offered PyPI's plain releases alone still reads as its platform);
- the torch placeholder's own words when pip runs its setup.py ("PyTorch does not currently provide packages for
  PyPI", jetson-tx2-pytorch#3);
- a package shipping compiled libraries per torch and CUDA release finding none for the installed pair ("Could not
  find any lib files matching version pt211cu130", torbi#9).

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.

And from the session's review: a version that ends a sentence ("up to Python 3.10.") is a version. Patterns that ended
a version with `(?![\\d.])` refused it there; they end with `(?!\\d|\\.\\d)` now (no corpus report changed).

After the eighteenth session: torch's own GPU build said missing ("No GPU build for Pytorch 2.5.x") is no extension's
build denied (no corpus report changed).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_PIN = "ERROR: Could not find a version that satisfies the requirement torch==1.4.0+cu100 (from versions: {listed})"


@pytest.mark.parametrize(
    ("listed", "ref"),
    [
        ("1.3.0, 1.3.0+cpu, 1.3.0+cu92, 1.3.1, 1.3.1+cpu, 1.3.1+cu92, 1.4.0, 1.4.0+cpu, 1.4.0+cu92", "none"),
        # only PyPI's plain releases: no CUDA build for this platform at all
        ("1.3.0, 1.3.1, 1.4.0, 1.5.0", "python-unsupported"),
        # PyTorch's builds offered, but not this release: the interpreter is the question
        ("1.2.0+cpu, 1.2.0+cu92, 1.3.0+cpu, 1.3.0+cu92", "python-unsupported"),
    ],
)
def test_a_local_build_of_a_release_offered_in_other_builds(kb: KB, listed: str, ref: str) -> None:
    text = "pip install torch==1.4.0+cu100 -f https://download.pytorch.org/whl/torch_stable.html\n"
    text += _PIN.format(listed=listed) + "\nERROR: No matching distribution found for torch==1.4.0+cu100"
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("however `torch==1.4.0+cu101` works ok", "none"),
        ("however `torch==1.3.0+cu101` works ok", "python-unsupported"),
    ],
)
def test_a_sibling_build_said_to_work(kb: KB, said: str, ref: str) -> None:
    text = "pip install torch==1.4.0+cu100 -f https://download.pytorch.org/whl/torch_stable.html (Python 3.8)\n"
    # pip's list cut short before the release ("... 1.3.")
    text += _PIN.format(listed="1.2.0+cpu, 1.2.0+cu92, 1.3.") + "\n" + said
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            'This flag stops pip installing pytorch. Otherwise pip returns "PyTorch does not currently provide '
            'packages for PyPI..."',
            "python-unsupported",
        ),
        # building torch from its own source is no placeholder
        (
            "git clone https://github.com/pytorch/pytorch; cmake fails. PyTorch does not currently provide packages "
            "for PyPI",
            "none",
        ),
    ],
)
def test_the_placeholder_s_own_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("error", "ref"),
    [
        ("FileNotFoundError: Could not find any lib files matching version pt211cu130", "extension-torch-mismatch"),
        ("FileNotFoundError: Could not find any lib files matching version 2.11", "none"),
    ],
)
def test_no_compiled_library_for_the_torch_and_cuda_pair(kb: KB, error: str, ref: str) -> None:
    assert_first_ref(kb, error, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("I use Python 3.11 and pip install fails. The package only supports up to Python 3.10.", "python-unsupported"),
        ("I use Python 3.11 and pip install fails. The package only supports up to Python 3.10", "python-unsupported"),
        ("I use Python 3.9 and pip install fails. The package only supports up to Python 3.10.", "none"),
    ],
)
def test_a_version_ending_a_sentence(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        # torch's own GPU build said missing: no extension's build (left in the eighteenth note, fixed after it)
        ("No GPU build for Pytorch 2.5.x on this cluster", "none"),
        ("There is no CUDA wheel of torch for this platform", "none"),
        # an extension's build denied for torch still reads
        ("the package is not built for PyTorch 1.12", "extension-torch-mismatch"),
    ],
)
def test_torch_s_own_gpu_build_said_missing_is_no_extension(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)
