"""Round CG's structural changes, one per kind of batch CG's first-measurement misses its blind reader read right
(tests/data/explain-corpus/README.md):

- a build said to lack an architecture's family ("package variants ... lack support for the Pascal architecture",
  koharu#1002 on a GTX 1070);
- TensorFlow beside torch unable to load its CUDA libraries ("Cannot dlopen some GPU libraries", gpu-jupyter#147);
- the NVIDIA driver called stale ("stale GPU drivers ... Updated the drivers", ParlAI#2085);
- a companion said not to import ("the latest version of torchaudio (v.1.10) cannot be imported correctly within
  colab", speechbrain#1131);
- the CPU version installed on purpose, no NVIDIA card named ("I installed the mmpose with the cpu version" under
  "Torch not compiled with CUDA enabled", mmpose#1725): the program's CUDA default, not a wrong build;
- pip's Requires-Python shown, no release offered, and a Python outside it asked for (ai-hub-models#108);
- torch's capability warning retold ("has a newer compute version than is supported", 3d-photo-inpainting#130);
- torch's own notice on Windows ("Redirects are currently not supported in Windows or MacOs") is no claim about a
  build (sd-scripts#2202).

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("the new torch package variants lack support for the Pascal architecture (sm_61)", "arch-not-compiled"),
        ("the new torch package variants lack support for my old config files", "none"),
    ],
)
def test_build_said_to_lack_an_architecture_family(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"After the update the GTX 1070 falls back to CPU. It appears that {said}.", ref)


@pytest.mark.parametrize(
    ("line", "ref"),
    [
        (
            "W tensorflow/core/common_runtime/gpu/gpu_device.cc:2251] Cannot dlopen some GPU libraries. Please make "
            "sure the missing libraries mentioned above are installed properly",
            "cuda-runtime-missing",
        ),
        ("I tensorflow/core/common_runtime/gpu/gpu_device.cc:1886] Created device /GPU:0 with 22 GB memory", "none"),
    ],
)
def test_tensorflow_beside_torch_cannot_load_cuda(kb: KB, line: str, ref: str) -> None:
    assert_first_ref(kb, f"In this image pytorch can use the GPU, tensorflow 2.16.1 cannot.\n{line}", ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("stale GPU drivers were the problem; updating the NVIDIA driver to 430.40 fixed it", "driver-too-old"),
        ("a stale build cache was the problem; clearing it fixed the GPU tests", "none"),
    ],
)
def test_driver_called_stale(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"CUDA broke on the GPU CI after torch 1.3 came out: {said}.", ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("the latest version of torchaudio (v.1.10) cannot be imported correctly within colab", "companion-mismatch"),
        ("the latest version of torchaudio (v.1.10) can be imported correctly within colab", "none"),
    ],
)
def test_companion_said_not_to_import(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"It looks like {said}.", ref)


_NOT_COMPILED = 'My computer told me the error "Torch not compiled with CUDA enabled".'


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("And I installed the mmpose with the cpu version, can you help me?", "none"),
        ("And I installed the mmpose with the cpu version on my RTX 3060, can you help me?", "cpu-only-build"),
        ("And I installed the cpu version by mistake, can you help me?", "cpu-only-build"),
    ],
)
def test_cpu_version_chosen(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"{_NOT_COMPILED} {said}", ref)


_REQUIRES = "% pip install qai_hub_models\n...\nRequires-Python <3.11,>=3.8\n"
_NONE_FOUND = (
    "ERROR: Could not find a version that satisfies the requirement qai_hub_models (from versions: none)\n"
    "ERROR: No matching distribution found for qai_hub_models"
)


@pytest.mark.parametrize(
    ("pip_said", "ref"),
    [(_NONE_FOUND, "python-unsupported"), ("Successfully installed qai_hub_models-0.4.0", "none")],
)
def test_requires_python_shown(kb: KB, pip_said: str, ref: str) -> None:
    assert_first_ref(kb, f"Please consider publishing for Python-3.11 and 3.12\n{_REQUIRES}{pip_said}", ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "It gives a warning that the RTX 3070 in my system has a newer compute version than is supported",
            "arch-not-compiled",
        ),
        ("It gives a warning that the RTX 3070 in my system has less memory than is supported", "none"),
    ],
)
def test_capability_warning_retold(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"A process that should take 10 minutes takes 7 hours. {said}.", ref)


def test_torch_redirects_notice_is_no_claim(kb: KB) -> None:
    text = (
        "W0917 15:27:47.298000 Lib\\site-packages\\torch\\distributed\\elastic\\multiprocessing\\redirects.py:29] "
        "NOTE: Redirects are currently not supported in Windows or MacOs.\n"
        'Traceback (most recent call last):\n  File "C:\\sd-scripts\\train_network.py", line 12, in <module>'
    )
    assert_first_ref(kb, text, "none")
