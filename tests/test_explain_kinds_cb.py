"""Round CB's structural changes, one per kind of batch CB's first-measurement misses its blind readers read right
(tests/data/explain-corpus/README.md):

- a companion's wheel said not to be found on a platform it has none for (a Jetson: JetPack, Xavier, Orin);
- a companion glued to its version by a hyphen ("torchvision-2.5.0") is still the companion;
- the pair said to need matching ("Both versions have to match"), a companion named and no extension;
- a project's compiled modules said to break as they need another CUDA build of torch ("need cu126");
- "Torch not found during install", the interpreter spoken of;
- a CUDA library's soname said to be what the binary uses, not the major installed ("libcudnn.so.8 not cuDNN: 9");
- torch's release said not to match an extension's, beside a symbol with the C++11 ABI tag: the release, not the ABI;
- a CUDA release said to have dropped an architecture's GPUs by family name ("dropped support for Pascal GPUs");
- Chinese words that a program fails ("不行") or a request for a build that works on the card ("出个50系能用的");
- pip's "no matching distribution found" retold after the command, a platform named;
- CPU builds said in words ("CPU PyTorch is installed", "installs only the CPU versions"), and a program's "No GPU
  found" read as its message, not as a machine without a GPU;
- made silent: a host given the CUDA build where the CPU one was wanted ("force CPU-only libtorch"), and building
  torch itself ("Can't build Pytorch") read as an extension built for another torch.

Each kind has a text it must stay silent on, or still read. The texts are written for the tests.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "I'm installing torchaudio 0.10.0 on an AGX Xavier (JetPack 5), but I can't find the wheel of it.",
            "python-unsupported",
        ),
        ("I'm installing torchaudio 0.10.0 on my laptop, but I can't find the wheel of it.", "none"),
        (
            "On a Jetson Orin I can't find the wheel torchvision-0.16.0-cp310-cp310-linux_aarch64.whl I downloaded.",
            "none",
        ),
    ],
)
def test_companion_wheel_not_found_on_a_platform(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("pair", "ref"),
    [
        ("torch-2.6.0rc and torchvision-2.5.0", "companion-mismatch"),
        ("torch-2.6.0rc and mmcv-2.1.0", "none"),
    ],
)
def test_companion_glued_to_its_version(kb: KB, pair: str, ref: str) -> None:
    text = f"Installing {pair} manually and importing them in python ends up in version mismatch."
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("package", "ref"),
    [("torchvision", "companion-mismatch"), ("flash-attn", "none")],
)
def test_versions_have_to_match(kb: KB, package: str, ref: str) -> None:
    text = (
        f"Fix the docker image.\nWe install a cpu-only version of pytorch, but {package} gets installed "
        "automatically.\nBoth versions have to match according to the install page."
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("need", "ref"),
    [("they explicitly need cu126", "extension-torch-mismatch"), ("they explicitly need more memory", "none")],
)
def test_compiled_modules_needing_another_build(kb: KB, need: str, ref: str) -> None:
    text = f"pip installed the base torch. This was causing cuda .so compiled files to break as {need}."
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "Torch not found during install on Windows\nThe script makes a venv with a python I did not choose.",
            "python-unsupported",
        ),
        ("Torch not found during install on Windows\nThe script stops there.", "none"),
    ],
)
def test_torch_not_found_during_install(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("It seems it uses libcudnn.so.8 not cuDNN: 9.3.0.75.", "cuda-runtime-missing"),
        ("It seems it uses libcudnn.so.8 and cuDNN 8 is installed.", "none"),
    ],
)
def test_soname_not_the_installed_major(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, f"YOLO on Jetpack 6.2 after pip install ultralytics. {said}", ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        (
            "The versions of torch and torchaudio do not match ipex=2.1.10, which results in the error",
            "extension-torch-mismatch",
        ),
        ("Loading ipex gives the error", "cxx11-abi-mismatch"),
    ],
)
def test_release_said_beside_an_abi_symbol(kb: KB, said: str, ref: str) -> None:
    text = (
        f"{said} `ImportError: /usr/local/lib/python3.11/dist-packages/intel_extension_for_pytorch/lib/"
        "libintel-ext-pt-gpu.so: undefined symbol: _ZNK5torch8autograd4Node4nameB5cxx11Ev`"
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("said", "ref"),
    [
        ("Because CUDA 13.0 dropped support for Pascal GPUs, the program crashed on our P100s.", "arch-not-compiled"),
        ("Pascal GPUs were dropped from the wheels, so the program crashed on our P100s.", "arch-not-compiled"),
        ("Because we dropped support for Python 3.8, the program crashed on our P100s.", "none"),
    ],
)
def test_architecture_dropped_by_family_name(kb: KB, said: str, ref: str) -> None:
    assert_first_ref(kb, said, ref)


def test_dropped_family_fix_names_the_card(kb: KB) -> None:
    from envplan.live.demangle import demangle_one
    from envplan.live.diagnose import explain_text

    text = "Because CUDA 13.0 dropped support for Pascal GPUs, the program crashed on our Tesla P100 cluster."
    first = explain_text(text, kb, demangle_one)[0]
    assert "sm_60" in first.fix


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("\u5927\u4f6c\u53ef\u4ee5\u51fa\u4e2a50\u7cfb\u80fd\u7528\u7684\u6574\u5408\u5305\u5417", "arch-not-compiled"),
        ("\u6211\u768450\u7cfb\u663e\u5361\u7528\u8fd9\u4e2a\u6574\u5408\u5305\u4e0d\u884c", "arch-not-compiled"),
        ("\u8fd9\u4e2a\u6574\u5408\u5305\u572850\u7cfb\u4e0a\u80fd\u7528", "none"),
    ],
)
def test_chinese_failing_and_request_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("where", "ref"),
    [("I am on Windows 10", "python-unsupported"), ("it is my first time", "none")],
)
def test_no_matching_distribution_retold(kb: KB, where: str, ref: str) -> None:
    text = (
        "Sometimes i have problem using the <pip install torch-directml> getting a no matching distribution found "
        f"error. {where}."
    )
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "The default requirements do not pull the GPU build. Otherwise CPU PyTorch is installed and unable to "
            "take advantage of local GPUs.",
            "cpu-only-build",
        ),
        (
            "Document solution to `No GPU found. Conversion on CPU is very slow.`\nTo use the GPU, one needs to "
            "install pytorch from its index before `pip install nougat-ocr` (which otherwise installs only the CPU "
            "versions).",
            "cpu-only-build",
        ),
        ("I have no GPU, so pip installs only the CPU versions of pytorch and that is fine.", "none"),
    ],
)
def test_cpu_build_said_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "CMake Error: Your installed Caffe2 version uses CUDA but I cannot find the CUDA libraries.\n"
            "conda now resolves to `libtorch 2.9.1 gpu_cuda130`, a CUDA-enabled build. Fix: force CPU-only libtorch "
            "with `conda install -c pytorch libtorch cpuonly`.",
            "none",
        ),
        (
            "Can't build Pytorch\nImportError: /nix/store/i6-python3.7-pytorch-1.4.1/lib/python3.7/site-packages/torch/"
            "lib/libtorch_python.so: undefined symbol: "
            "_ZN5torch4cuda4nccl6detail16throw_nccl_errorE12ncclResult_t",
            "none",
        ),
        ("The package is not built for torch 2.1, so it can't load with my torch 2.3.", "extension-torch-mismatch"),
    ],
)
def test_made_silent(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
