"""Round CN's structural changes, one per kind of batch CN's first-measurement misses its blind reader read right
(tests/data/explain-corpus/README.md):

- a pure-Python package torch depends on, refused for the interpreter ("Package 'networkx' requires a different
  Python: 3.8.10 not in '>=3.9'", served by PyTorch's index without its Requires-Python): resolved too new, not torch
  missing a build (translation_layoutrecovery#9, elevation_mapping_cupy#87);
- a download's checksum naming a companion's package ("Checksum mismatch for pytorch::torchvision-0.10.0-py39_cu111")
  is no companion mismatch (vision#4261);
- NumPy 2's words under an older torch ("RuntimeError: Numpy is not available") beside a setup.py are no build
  missing torch (imagededup#218);
- torch's wheels said missing for a Python release without the word Python ("no PyTorch wheels yet available for
  3.14", FTorch#461);
- an extension pinned for the torch before an upgrade, then an unknown symbol ("Since we upgraded the PyTorch
  version, the pinned flash-attn ... doesn't have a prebuilt wheel", oumi#1918);
- an extension said compiled against "the torch 2.10 ABI", the text naming torch 2.13 (cosmos-dependencies#62);
- the runtime an extension cannot open is the local toolkit's CUDA, torch's another ("libcudart.so.8.0",
  "/usr/local/cuda ... points to /usr/local/cuda-8.0", "torch.version.cuda: 10.0.130", pytorch_scatter#86): the
  extension was built with that toolkit;
- importing the companion failing on a part of torch ("from torchvision import models", then "module 'torch.jit' has
  no attribute '_script_if_tracing'", vision#2461): the companion is newer than the torch (written after round CN's
  commit, in the same session; only vision#2461 changed).

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_DIFFERENT = "ERROR: Package '{name}' requires a different Python: 3.8.10 not in '>=3.9'"


@pytest.mark.parametrize(
    ("name", "ref"),
    [
        ("networkx", "none"),
        ("sympy", "none"),
        # torch itself, or another package: still no build for the interpreter
        ("torch", "python-unsupported"),
        ("open3d", "python-unsupported"),
    ],
)
def test_a_torch_dependency_refused_for_the_interpreter(kb: KB, name: str, ref: str) -> None:
    text = "Downloading https://download.pytorch.org/whl/networkx-3.2.1-py3-none-any.whl\n" + _DIFFERENT.format(
        name=name
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Checksum mismatch for pytorch::torchvision-0.10.0-py39_cu111 when conda installs it", "none"),
        ("torchvision 0.10.0 and torch 1.8.0 are a version mismatch", "companion-mismatch"),
    ],
)
def test_a_download_checksum_is_no_companion_mismatch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("numpy 2.0.0 leads to `RuntimeError: Numpy is not available` whenever torch.from_numpy is called.", "none"),
        (
            "The build cannot find torch: torch is not installed in the build environment.",
            "build-isolation-missing-torch",
        ),
    ],
)
def test_numpy_2_is_no_build_missing_torch(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"{said}\nPin numpy in setup.py.\nRunning setup.py bdist_wheel", ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("I pinned CI to 3.13 as there were no PyTorch wheels yet available for 3.14.", "python-unsupported"),
        ("I pinned CI to 3.13 as there were no PyTorch wheels yet available for the nightly.", "none"),
    ],
)
def test_torch_wheels_said_missing_for_a_python_release(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "Since we upgraded the PyTorch version, the pinned flash-attn version doesn't have a prebuilt wheel. "
            "Unpinning fixed the error about an unknown symbol.",
            "extension-torch-mismatch",
        ),
        (
            "Since we upgraded the PyTorch version, the pinned flash-attn version doesn't have a prebuilt wheel. "
            "Unpinning made the install quicker.",
            "none",
        ),
    ],
)
def test_an_extension_pinned_before_a_torch_upgrade(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "The natten build is compiled against the torch 2.10 ABI and fails to load on torch 2.13.",
            "extension-torch-mismatch",
        ),
        ("The natten build is compiled against the torch 2.10 ABI and loads on torch 2.10.", "none"),
    ],
)
def test_an_extension_compiled_against_the_torch_abi(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)


_TOOLKIT_LINK = "The /usr/local/cuda on the server points to /usr/local/cuda-{folder}."


@pytest.mark.parametrize(
    ("folder", "ref"),
    [
        ("8.0", "toolkit-torch-cuda-mismatch"),
        # the toolkit is torch's CUDA: the runtime is missing from the loader's path
        ("10.0", "cuda-runtime-missing"),
    ],
)
def test_the_missing_runtime_is_the_local_toolkit_s(kb: KB, folder: str, ref: str) -> None:
    text = "ImportError: libcudart.so.8.0: cannot open shared object file: No such file or directory\n"
    text += "torch.version.cuda: 10.0.130\n" + _TOOLKIT_LINK.format(folder=folder)
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "I tried `from torchvision import models` but failed, the error message is\n"
            "`module 'torch.jit' has no attribute '_script_if_tracing'`",
            "companion-mismatch",
        ),
        # the user's own code, after the import, reaches for a part of torch
        (
            'import torchvision\nTraceback (most recent call last):\n  File "train.py", line 40, in <module>\n'
            "    x = torch.frombuffer(buf)\nAttributeError: module 'torch' has no attribute 'frombuffer'",
            "none",
        ),
        ("AttributeError: module 'torch.jit' has no attribute '_script_if_tracing'", "none"),
    ],
)
def test_importing_the_companion_reaches_a_missing_part_of_torch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
