"""Sourced facts read before batch AZ was measured, and round AZ's structural changes (tests/data/explain-corpus/
README.md):

- ONNX Runtime's warning that its CUDA provider could not be created, sending the user to the provider's requirements
  (the CUDA and cuDNN it loads), and its provider library said not to load in any words: a CUDA library not found;
- "no kernel image" with no sm_XX shown but one NVIDIA card named that the KB knows (gpus.toml now holds NVIDIA's
  legacy page down to Kepler): the fix names the card's architecture.

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 CreateExecutionProviderInstance] Failed to create "
            "CUDAExecutionProvider. Please reference https://onnxruntime.ai/docs/execution-providers/"
            "CUDA-ExecutionProvider.html#requirementsto ensure all dependencies are met.",
            "cuda-runtime-missing",
        ),
        ("运行时报错\uff0cload失败\uff0connxruntime_providers_cuda.dll", "cuda-runtime-missing"),
        ("ライブラリ libonnxruntime_providers_cuda.so の読み込みに失敗しました", "cuda-runtime-missing"),
        # the provider named, nothing said to fail: a question about it
        ("Where does pip put onnxruntime_providers_cuda.dll for the GPU build?", "none"),
        # another provider that could not be created is not CUDA's
        ("Failed to create TensorrtExecutionProvider. Please check the TensorRT install.", "none"),
    ],
)
def test_onnxruntime_s_cuda_provider_not_loading(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "sm"),
    [
        ("GeForce GTX 780 Ti: CUDA error: no kernel image is available for execution on the device", "sm_35"),
        ("my Quadro P2000 says: no kernel image is available for execution on the device", "sm_61"),
        # two cards of different capabilities: which one failed is not said
        ("works on the RTX 3090, not on the Tesla K80: no kernel image is available for execution on the device", ""),
    ],
)
def test_no_kernel_image_names_the_one_card_s_architecture(kb: KB, text: str, sm: str) -> None:
    (first, *_) = explain_text(text, kb)
    assert first.ref == "arch-not-compiled"
    if sm:
        assert f"({sm})" in first.cause and sm in first.fix
    else:
        assert "(sm_" not in first.cause
