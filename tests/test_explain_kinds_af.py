"""Round AF's structural changes, one per kind of batch AF's first-measurement misses (tests/data/explain-corpus/
README.md) that its blind reader named right: torch's driver message said short ("NVIDIA driver too old"); a loader's
"libcuda.so lib not found"; "only the cpu version of pytorch was installed"; "install failed with Python 3.13 but
worked with Python 3.11"; torch "not a dependency" of a package whose pip install says "no module named torch"; a
package "missing the ARM Linux version". Made silent: an extension claim where torch itself is not installed ("'torch'
module not available"), DGL's TensorDispatcher probing torch's libraries (a warning DGL continues past), and pip
finding nothing of a package another package requires with a Python stated (its name is that package's metadata).

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("RuntimeError: NVIDIA driver too old\nit worked on the same instance two years ago", "driver-too-old"),
        ("[cuda_driver.cpp:load_lib@36] libcuda.so lib not found.", "cuda-runtime-missing"),
        ("libcuda.so lib found at /usr/lib/wsl/lib", "none"),
        (
            "installing foo on Ubuntu 22.04 and Rocky Linux 8 ended up the same: only the cpu version of pytorch was "
            "installed.",
            "cpu-only-build",
        ),
        ("only the cpu version of pytorch is needed for inference", "none"),
    ],
)
def test_a_cause_said_short(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Foo Install Failed with Python 3.13 but worked with Python 3.11", "python-unsupported"),
        ("Foo install worked with Python 3.11 after I fixed my config", "none"),
        ("Torchcodec is missing the ARM Linux version", "python-unsupported"),
        ("the ARM build of foo is missing a config file", "none"),
    ],
)
def test_no_build_for_this_python_or_platform_said_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "When I try to install foo from pip, it fails with the message: no module named torch.\n\nApparently torch "
            "is required, but it's not a dependency in the setup.",
            "build-isolation-missing-torch",
        ),
        ("torch is not a dependency of foo: install it yourself", "none"),  # nothing failed
    ],
)
def test_torch_not_declared_by_a_package_pip_builds(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            '  File "/home/u/foo/foo/__init__.py", line 24, in <module>\n    import torch\n'
            "ModuleNotFoundError: No module named 'torch'\nImportError: 'torch' module not available. Please install "
            "pytorch manually",
            "none",
        ),
        (
            "/opt/dgl/src/runtime/tensordispatch.cc:43: TensorDispatcher: dlopen failed: libtorch_cuda.so: cannot "
            "open shared object file: No such file or directory",
            "none",
        ),
        (
            'ERROR: Could not find a version that satisfies the requirement foo-ops; extra == "torch" (from '
            "bar[gpu,torch]) (from versions: none)\nI was using python 3.12",
            "none",
        ),
        (
            "ERROR: Could not find a version that satisfies the requirement foo-ops (from versions: none)\nI was using "
            "python 3.12",
            "python-unsupported",
        ),
    ],
)
def test_readings_made_silent(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
