"""Round CK's structural changes, one per kind of batch CK's first-measurement misses its blind reader read right
(tests/data/explain-corpus/README.md):

- a torch release said to require one Python, the text stating a newer one ("the version of torch your using (1.0.0)
  requires Python 3.6" under "Support for Python 3.8?", MODNet#32); a floor ("3.6+") is no such claim;
- torch.hub fetching torchvision's code from its repository, that code reaching for a part of torch the installed
  release lacks ("torch.hub.load('pytorch/vision', 'googlenet')", "module 'torch.jit' has no attribute 'unused'",
  vision#1383);
- torch said unsupported on Alpine ("Alpine linux used in addon-base ... doesn't support glibc and so torch is
  unsupported", hassio-addons/app-base#283).

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("the version of torch you pin (1.0.0) requires Python 3.6", "python-unsupported"),
        ("the version of torch you pin (1.0.0) requires Python 3.6+", "none"),
        ("the version of torch you pin (1.0.0) requires Python 3.8", "none"),
    ],
)
def test_torch_release_said_to_require_a_python(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"Support for Python 3.8?\nI think {said}. Could the script use a later torch?", ref)


@pytest.mark.parametrize(
    ("load", "ref"),
    [
        ("model = torch.hub.load('pytorch/vision', 'googlenet', pretrained=True)", "companion-mismatch"),
        ("model = torch.hub.load('my-lab/models', 'googlenet', pretrained=True)", "none"),
    ],
)
def test_hub_code_newer_than_torch(kb: KB, load: str, ref: str) -> None:
    text = f"import torch\n{load}\nAttributeError: module 'torch.jit' has no attribute 'unused'"
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("Alpine linux used in addon-base doesn't support glibc and so torch is unsupported.", "python-unsupported"),
        ("Alpine linux used in addon-base is small; torch installs in the Debian add-on.", "none"),
    ],
)
def test_torch_said_unsupported_on_alpine(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"Using torch with HA Add-on\nI want to train networks with AppDaemon. {said}", ref)
