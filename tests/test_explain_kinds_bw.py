"""Round BW's structural changes, one per kind of batch BW's first-measurement misses (and false findings) that its
blind reader read right (tests/data/explain-corpus/README.md):

- a driver floor stated in the text ("CUDA 13 requires driver >=580.65.06") above the machine's driver stated there;
- torch and a companion stated at releases the KB never paired, with the companion said built for another torch or to
  break on this one;
- an extension named on the line of an unquoted "undefined symbol" and said built for a torch release: its library,
  not the companions named beside it;
- a CUDA library said in words to be unloadable ("I couldn't load `libnppicc.so`");
- a package's module asking for the runtime of the very CUDA the text says it moved away from ("I updated the cuda
  from 9.2 to 10.1"): the package was built against the old CUDA's torch;
- THC's free functions ("_Z13__THCudaCheck...") are torch's, and THC's header written as the source includes it
  ("<THC/THC.h> no such file or directory");
- a package's own check of the GPU's architecture ("AssertionError: Unsupported SM 121");
- claims: a request for prebuilt binaries for a Python, an index that "shows only for linux" to a Windows user, torch
  that "only support[s] the version over 1.8.0 for arm64";
- made silent: Windows' loader ("The specified module could not be found") read as a build lacking torch; a CUDA
  library's entry point missing where the text adds the library's link flag (`-lcurand`).

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(("driver", "ref"), [("570.195.03", "driver-too-old"), ("590.44.01", "none")])
def test_a_driver_floor_stated_above_the_driver(kb: KB, driver: str, ref: str) -> None:
    text = (
        f"The CI runner's NVIDIA driver is {driver} (CUDA 12.8 max). CUDA 13 requires driver >=580.65.06, "
        "so the new torch release cannot work there."
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("My NVIDIA driver is 470.82.01", "driver-too-old"),
        ("nvidia driver=470.82.01", "driver-too-old"),
        ("Driver Version: 470.82.01", "driver-too-old"),
        ("My NVIDIA driver is 560.35.03", "none"),
        # (the number right after the word, as people write it: round CE's review)
        ("I have NVIDIA driver 470.82.01", "driver-too-old"),
        ("with the old driver 470", "driver-too-old"),
        ("NVIDIA driver 520.xxx", "driver-too-old"),
        ("I have NVIDIA driver 560.35.03", "none"),
    ],
)
def test_one_reader_of_the_driver_stated(kb: KB, said: str, ref: str) -> None:
    """The driver's version said in words or printed is one reading (facts.driver_seen), for the floor of torch's
    CUDA as for a floor the text states."""
    text = f"pip installed torch 2.5.1+cu124 and torch.cuda.is_available() returns False. {said} on Ubuntu 20.04."
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(("audio", "ref"), [("2.11.0", "companion-mismatch"), ("2.8.0", "none")])
def test_a_companion_said_built_for_another_torch(kb: KB, audio: str, ref: str) -> None:
    text = (
        f"Installing them unpinned gives torch 2.8.0+cu128, torchaudio {audio}+cu128.\n"
        "That torchaudio's extension is built against the newest torch and breaks on the pinned one."
    )
    assert_first_ref(kb, text, ref)


def test_an_extension_built_for_a_torch_beside_companions(kb: KB) -> None:
    text = (
        "Since `flash-attn` comes before `torchaudio` and `torchvision` in the requirements, it's built for PyTorch "
        "2.5.1, and then they upgrade torch. This mismatched build causes undefined symbol errors at runtime."
    )
    assert_first_ref(kb, text, "extension-torch-mismatch")


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("The root cause turned out to be that I couldn't load `libnppig.so.12`, not FFmpeg.", "cuda-runtime-missing"),
        ("The root cause turned out to be that I couldn't load `libavutil.so.58`, not the GPU.", "none"),
    ],
)
def test_a_cuda_library_said_unloadable(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_MOVED = (
    "ImportError: libcudart.so.{asked}: cannot open shared object file: No such file or directory\n"
    "Torch itself works. The error comes when I import the fancy_sampler. I updated the cuda from 10.2 to 11.3."
)


@pytest.mark.parametrize(
    ("asked", "ref"),
    [("10.2", "extension-torch-mismatch"), ("11.3", "cuda-runtime-missing")],  # the new CUDA's own runtime: missing
)
def test_a_module_asking_for_the_cuda_moved_away_from(kb: KB, asked: str, ref: str) -> None:
    assert_first_ref(kb, _MOVED.format(asked=asked), ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "ImportError: /opt/venv/lib/python3.9/site-packages/fancyring/torch/ring_lib.cpython-39-x86_64-linux-gnu"
            ".so: undefined symbol: _Z13__THCudaCheck9cudaErrorPKci",
            "extension-torch-mismatch",
        ),
        ('`"<THC/THC.h> no such file or directory"` when I build the ops with torch 1.12.', "extension-torch-mismatch"),
        ('`"<THCfancy/THCfancy.h> no such file or directory"` when I build the ops with torch 1.12.', "none"),
    ],
)
def test_thc_is_torchs(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Installing on the new machine fails:\n```\nAssertionError: Unsupported SM 121\n```", "arch-not-compiled"),
        ("Installing on the new machine fails:\n```\nAssertionError: Unsupported SMTP server\n```", "none"),
    ],
)
def test_a_packages_own_architecture_check(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Can you provide python 3.7 prebuilt binaries? I cannot change the runtime environment.",
            "python-unsupported",
        ),
        ("Can you provide the prebuilt binaries you used for the paper?", "none"),
        (
            "I am looking for the cu128 build for windows but https://download.pytorch.org/whl/cu128 shows only for "
            "linux.",
            "python-unsupported",
        ),
        ("The benchmark table shows only for linux machines what the speed-up is.", "none"),
        ("But torch only supports versions above 1.8.0 for the arm64 platform.", "python-unsupported"),
    ],
)
def test_claims_of_builds_missing_for_a_python_or_platform(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "PyTorch CUDA extension - The specified module could not be found\n"
            "I built and installed it with its setup.py. Importing it gives ImportError: DLL load failed.",
            "none",
        ),
        (
            "pip install fancy-ops fails while building it: fancy-ops requires torch, but the build couldn't find "
            "torch installed.\nGetting requirements to build wheel ... error",
            "build-isolation-missing-torch",
        ),
    ],
)
def test_windows_loader_is_no_build_without_torch(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("add the now required `-lcurand` to fix `undefined symbol: curandCreateGenerator` in the op", "none"),
        ("ImportError: fancy_op.so: undefined symbol: curandCreateGenerator", "cuda-runtime-missing"),
    ],
)
def test_a_link_flag_added_is_no_older_copy(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
