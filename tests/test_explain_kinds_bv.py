"""Round BV's structural changes, one per kind of batch BV's first-measurement misses (and false findings) that its
blind reader read right (tests/data/explain-corpus/README.md):

- torch's symbols with a member function's ref-qualifier ("_ZNR5torch7Library4_defE...": torch::Library's def and
  impl are `&`-qualified) are torch's, so an extension lacking them was built for another torch;
- the system's CUDA against the conda environment's cudatoolkit ("CUDA 11.8 installed globally but cudatoolkit=11.6
  inside conda environment") is the toolkit building against another CUDA than torch's;
- a person downgrading torch and a companion together to a pair of their choosing is no installer swapping torch;
- "No module named 'torch'" under a program's own traceback frame (an IDE's kernel, any function's frame) is a program
  run without torch, not a build;
- an error thrown "on CPU" is the program run on the CPU; the code seen "only using the CPU" (in Chinese) is a CPU
  build's symptom, not a machine without a GPU;
- torch.fx missing next to torchvision: torchvision is a release made for a newer torch;
- uv's "only has wheels for the following platform" where the KB has that build for the machine's platform, for every
  Python the listed ones have it for: the lock left the wheels out, no wheel is missing.

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("symbol", "ref"),
    [
        ("_ZNR5torch7Library4_defEN3c1014FunctionSchemaEPNS1_14OperatorHandleE", "extension-torch-mismatch"),
        ("_ZNKR5torch7Library4implEPKcNS_11CppFunctionE", "extension-torch-mismatch"),
        ("_ZNR6fancyx6Widget4drawEv", "none"),  # another library's `&` method: not torch's to export
    ],
)
def test_a_ref_qualified_torch_symbol_is_torchs(kb: KB, symbol: str, ref: str) -> None:
    text = f"OSError: /opt/venv/lib/python3.11/site-packages/fancy_ops/fancy_ops_config.so: undefined symbol: {symbol}"
    assert_first_ref(kb, text, ref)


_CONDA = (
    "Building the submodules with pip failed.\n"
    "You may end up having CUDA {system} installed globally but cudatoolkit={conda} inside the conda environment."
)


@pytest.mark.parametrize(
    ("system", "conda", "ref"), [("12.1", "11.8", "toolkit-torch-cuda-mismatch"), ("11.8", "11.8", "none")]
)
def test_the_systems_cuda_against_the_environments_cudatoolkit(kb: KB, system: str, conda: str, ref: str) -> None:
    assert_first_ref(kb, _CONDA.format(system=system, conda=conda), ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "The notebook fails with torch==2.1.0 and torchvision==0.16.0. If I downgrade to torch==1.13.1 and "
            "torchvision==0.14.1, it runs fine.",
            "none",
        ),
        (
            "Installing torchvision downgraded my torch from 2.1.0 to 1.13.1 and now nothing works.",
            "companion-mismatch",
        ),
    ],
)
def test_a_downgrade_by_hand_is_no_swap(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_FRAME = (
    "I installed the editor and set its interpreter to my conda Python, where torch is installed.\n"
    "Exception in comms call get_value:\n"
    '  File "C:\\Program Files\\editor\\pkgs\\editor_kernels\\comms\\{file}", line 210, in {func}\n'
    "    value = self._get(name)\n"
    "ModuleNotFoundError: No module named 'torch'\n"
)


@pytest.mark.parametrize(
    ("file", "func", "ref"),
    [
        ("commbase.py", "_comm_message", "none"),  # a program's own function, running
        ("setup.py", "get_extensions", "build-isolation-missing-torch"),  # a setup script's frame: the build
    ],
)
def test_no_torch_under_a_programs_own_frame(kb: KB, file: str, func: str, ref: str) -> None:
    text = _FRAME.format(file=file, func=func)
    if file == "setup.py":
        text = "pip install fancy-ops\n" + text
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "`model.to_gpu_if_possible()` throws an assertion error on CPU.\n"
            "AssertionError: Torch not compiled with CUDA enabled",
            "none",
        ),
        (
            # "I found the code only trains on the CPU; torch is the CPU build:"
            "\u6211\u53d1\u73b0\u4ee3\u7801\u4ec5\u4ec5\u4f7f\u7528cpu\u8fdb\u884c\u8bad\u7ec3\u3002\n"
            "print(torch.cuda.is_available())\n# False\nprint(torch.__version__)\n# 2.4.0+cpu",
            "cpu-only-build",
        ),
        (
            # "I only have a CPU:"
            "\u6211\u53ea\u6709CPU\u3002\nAssertionError: Torch not compiled with CUDA enabled",
            "none",
        ),
    ],
)
def test_the_cpu_chosen_and_the_cpu_seen(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("importer", "ref"),
    [
        (
            '  File "/opt/conda/lib/python3.8/site-packages/torchvision/models/feature_extraction.py", line 9',
            "companion",
        ),
        ('  File "/opt/conda/lib/python3.8/site-packages/fancytracer/graph.py", line 4', "none"),
    ],
)
def test_torch_fx_missing_under_torchvision(kb: KB, importer: str, ref: str) -> None:
    text = f"import torchvision\nTraceback (most recent call last):\n{importer}\n    import torch.fx\n"
    text += "ModuleNotFoundError: No module named 'torch.fx'"
    if ref == "none":
        text = text.replace("import torchvision\n", "import fancytracer\n")
    assert_first_ref(kb, text, "companion-mismatch" if ref == "companion" else ref)


_UV = (
    "error: Distribution `torch=={v} @ registry+https://download.pytorch.org/whl/{index}` can't be installed because "
    "it doesn't have a source distribution or wheel for the current platform\n"
    "hint: You're on {os} (`{tag}`), but `torch` (v{v}) only has wheels for the following platform: `{listed}`"
)


@pytest.mark.parametrize(
    ("machine", "listed", "ref"),
    [
        # the KB has 2.5.1+cu124 for Linux x86_64, for every Python its aarch64 build has: the lock left them out
        (("Linux", "manylinux_2_39_x86_64"), "linux_aarch64", "none"),
        # no CUDA build of torch runs on a Mac: uv is right
        (("macOS", "macosx_14_0_arm64"), "manylinux1_x86_64", "python-unsupported"),
    ],
)
def test_uv_contradicted_by_the_published_wheels(kb: KB, machine: tuple[str, str], listed: str, ref: str) -> None:
    os, tag = machine
    assert_first_ref(kb, _UV.format(v="2.5.1", os=os, tag=tag, index="cu124", listed=listed), ref)


# uv 0.13.9's own words, run on this machine: `uv lock` then `uv sync` of a project pinning torch==2.5.1+cu124, its
# find-links folder holding only a linux_aarch64 wheel of that build (the variant is the version's local tag here)
_UV_0_13_9 = (
    "error: Distribution `torch==2.5.1+cu124 @ registry+../links` can't be installed because it doesn't have a source "
    "distribution or wheel for the current platform\n\n"
    "hint: You're on Linux (`manylinux_2_36_x86_64`), but `torch` (v2.5.1+cu124) only has wheels for the following "
    "platform: `linux_aarch64`; consider adding \"sys_platform == 'linux' and platform_machine == 'x86_64'\" to "
    "`tool.uv.required-environments` to ensure uv resolves to a version with compatible wheels"
)


@pytest.mark.parametrize(("build", "ref"), [("2.5.1+cu124", "none"), ("2.5.1+cu130", "python-unsupported")])
def test_uv_s_own_words_contradicted(kb: KB, build: str, ref: str) -> None:
    # (torch 2.5.1 was never built for CUDA 13.0: nothing contradicts uv there)
    assert_first_ref(kb, _UV_0_13_9.replace("2.5.1+cu124", build), ref)
