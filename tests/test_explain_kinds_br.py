"""Round BR's structural changes, one per kind of batch BR's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- conda missing only CUDA's own packages from the channels named ("PackagesNotFoundError ... - cudatoolkit=11.1" with
  -c pytorch -c nvidia): a channel or version the command got wrong, not a platform without builds (silent);
- a torch pin whose local version no index publishes ("torch==1.7.1+cu11.0" for +cu110): the pin is misspelt, not the
  Python (silent);
- torch's "Found no NVIDIA driver on your system" where the text names libcuda.so and LD_LIBRARY_PATH (a Kubernetes
  container whose runtime did not inject the driver's library): the library is off the loader's path.

Each kind has a text it must stay silent on, or still read. The texts are written for the tests (the kind, not a
report's wording).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_CONDA = "PackagesNotFoundError: The following packages are not available from current channels:\n\n  - {spec}\n"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "conda install pytorch cudatoolkit=11.1 -c pytorch -c nvidia on windows\n"
            + _CONDA.format(spec="cudatoolkit=11.1"),
            "none",
        ),
        # a package of the stack missing for the platform's subdir is still no build there
        (
            _CONDA.format(spec="pytorch==1.13") + "Current channels: https://conda.anaconda.org/pytorch/osx-arm64",
            "python-unsupported",
        ),
    ],
)
def test_conda_missing_only_cudas_own_packages(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_PIN = "ERROR: Could not find a version that satisfies the requirement torch==1.7.1+{local}\n"
_INDEX = "pip install torch==1.7.1+cu110 -f https://download.pytorch.org/whl/torch_stable.html"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_PIN.format(local="cu11.0") + _INDEX, "none"),
        # a variant torch's index does publish: still the interpreter's
        (_PIN.format(local="cu110") + _INDEX, "python-unsupported"),
    ],
)
def test_a_torch_pin_with_a_local_version_no_index_publishes(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_NO_DRIVER = "RuntimeError: Found no NVIDIA driver on your system."


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "On Kubernetes the runtime skips libcuda.so injection; adding its folder to LD_LIBRARY_PATH lets torch "
            f"find libcuda.so.\n{_NO_DRIVER}",
            "cuda-runtime-missing",
        ),
        # the message alone: no GPU, or no driver at all
        (_NO_DRIVER, "none"),
        (f"On my MacBook: {_NO_DRIVER} LD_LIBRARY_PATH has no libcuda.so", "none"),
    ],
)
def test_no_nvidia_driver_found_where_libcuda_is_off_the_loaders_path(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
