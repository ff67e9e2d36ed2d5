"""Round BA's structural changes, one per kind of batch BA's first-measurement misses that its blind reader named
right, or where its reader stayed silent on a `none` the rules named (tests/data/explain-corpus/README.md):

- a torch extension's source archive fetched by pip ("Using cached flash_attn-2.6.1.tar.gz") and failing at the
  "Getting requirements to build wheel" step with its exception cut off: the build imports torch, pip isolated it;
- cpp_extension's "No CUDA runtime is found" beside "TypeError: expected string or bytes-like object" (older torch's
  re.split of torch.version.cuda, None in a CPU build): a CPU torch building a CUDA extension;
- made silent: training or running on the CPU said not to work ("Training with CPU doesn't work"): the code asks for
  CUDA on a CPU run, no torch variant fixes that.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

_REQUIRES_FAILED = (
    "  Installing build dependencies ... done\n"
    "  Getting requirements to build wheel ... error\n"
    "  error: subprocess-exited-with-error\n"
    "  \u00d7 Getting requirements to build wheel did not run successfully.\n"
    "  │ exit code: 1\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            f"$ pip install trainer-kit[cuda]\nCollecting flash-attn>=2.4.0\n  Using cached flash_attn-2.6.1.tar.gz "
            f"(2.6 MB)\n{_REQUIRES_FAILED}",
            "build-isolation-missing-torch",
        ),
        (
            f"Collecting mamba-ssm\n  Downloading mamba_ssm-2.2.2.tar.gz (85 kB)\n{_REQUIRES_FAILED}",
            "build-isolation-missing-torch",
        ),
        # a package whose build does not import torch: its requirements step fails for another reason
        (f"Collecting pyyaml==5.4.1\n  Using cached PyYAML-5.4.1.tar.gz (175 kB)\n{_REQUIRES_FAILED}", "none"),
    ],
)
def test_an_extension_s_source_archive_failing_at_the_requirements_step(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Failed building wheel for simple-knn / TypeError: expected string or bytes-like object\n"
            "  Building wheel for simple-knn (setup.py) ... error\n"
            "      No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda-11.8'",
            "cpu-only-build",
        ),
        # the runtime not found alone: a build with no GPU visible (a docker build) has it too
        (
            "  Building wheel for simple-knn (setup.py) ... error\n"
            "      No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda-11.8'",
            "none",
        ),
    ],
)
def test_no_cuda_runtime_and_torch_version_cuda_unparsable(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("AssertionError: Torch not compiled with CUDA enabled\nDetails: Training with CPU doesn't work", "none"),
        ("AssertionError: Torch not compiled with CUDA enabled\nrunning on the CPU does not work either", "none"),
        # the GPU said not to work: the CPU build is the cause
        (
            "AssertionError: Torch not compiled with CUDA enabled\nDetails: Training with GPU doesn't work",
            "cpu-only-build",
        ),
    ],
)
def test_a_cpu_run_said_to_fail_is_not_a_cpu_build(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
