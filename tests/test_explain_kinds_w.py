"""Round W's structural changes, one per kind of miss in batch W's first measurement (tests/data/explain-corpus/
README.md): torch's own operators missing for the CUDA backend; the CPU assertion retold as a title; a CPU build an
installer pinned, or said "without the CUDA version" or "with CPU support only"; a card so new that most torch
releases lack its kernels, named as failing; a CUDA driver API call undefined; an extension "pinned to the PyTorch
version used to build it"; a build script's syntax newer than the interpreter; a 0.0.0 placeholder downloaded.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on
(or read as another cause).
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("EngineException: Could not run 'aten::add.out' with arguments from the 'CUDA' backend.", "cpu-only-build"),
        # torchvision's operator missing so is the companion's build, not torch's
        (
            "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend.",
            "companion-mismatch",
        ),
    ],
)
def test_torchs_own_operators_missing_for_cuda(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Cuda not compiled", "cpu-only-build"),
        ("the docs say CUDA is not compiled into the CPU wheels, which we use on purpose", "none"),
    ],
)
def test_the_cpu_assertion_retold_as_a_title(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Installing foo-pipeline installs `torch==2.7.1+cpu`, with CPU support only.", "cpu-only-build"),
        ("the bar package installed Torch without the CUDA version, so my GPU sits idle", "cpu-only-build"),
        ("requirements: torch==2.7.1+cpu for the CI runners", "none"),  # a pin, nothing complained of
    ],
)
def test_a_cpu_build_an_installer_put_in(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("the app is not working with 5090 rtx", "arch-not-compiled"),
        ("the app is not working with RTX 3090", "none"),  # torch has had its kernels for years: no reason read
        ("CUDA out of memory on my RTX 5090", "none"),  # the failure is named, and it is another one
        ("RTX 5080 not working with torch cu128", "none"),  # a build named: the KB's arch lists decide
    ],
)
def test_a_card_newer_than_most_torch_builds_named_as_failing(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


def test_a_cuda_driver_api_call_undefined(kb: KB) -> None:
    text = "ImportError: /env/lib/python3.11/site-packages/foo/_ops.so: undefined symbol: cuMemSetAccessFoo\n"
    assert first_ref(kb, text + "CUDA Driver Version: 535.86.10") == "driver-too-old"
    # the runtime's and the libraries' cuda*/cublas*/cudnn* names are other libraries, not the driver
    assert first_ref(kb, text.replace("cuMemSetAccessFoo", "cudnnFooBar")) != "driver-too-old"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("foo-kernel needs to be pinned to the PyTorch version used to build it", "extension-torch-mismatch"),
        ("foo-kernel needs to be pinned in requirements.txt", "none"),
    ],
)
def test_an_extension_pinned_to_the_torch_that_built_it(kb: KB, text: str, ref: str) -> None:
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(("step", "ref"), [("Preparing wheel metadata ... error", "python-unsupported"), ("", "none")])
def test_a_build_scripts_syntax_newer_than_the_interpreter(kb: KB, step: str, ref: str) -> None:
    text = f"  File \"<string>\", line 549, in <module>\nTypeError: 'type' object is not subscriptable\n{step}\n"
    assert first_ref(kb, text) == ref


@pytest.mark.parametrize(
    ("line", "ref"),
    [
        ("Using cached foo_rt-0.0.0.tar.gz (762 bytes)", "python-unsupported"),
        ("Successfully installed lltm-cpp-0.0.0", "none"),  # a local build versioned 0.0.0 is no placeholder
    ],
)
def test_a_zero_placeholder_downloaded(kb: KB, line: str, ref: str) -> None:
    assert first_ref(kb, f"pip install foo-rt\n{line}\n") == ref
