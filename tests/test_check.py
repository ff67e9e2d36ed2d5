"""`check_profile`: the right findings for broken profiles, and none for good ones."""

from __future__ import annotations

import pytest

from envplan.core.check import check_profile
from envplan.profile.model import parse_profile
from helpers import SEED, edit


def findings(kb, text: str):
    return check_profile(parse_profile(text, "p.toml"), kb)


def refs(kb, text: str, severity: str = "error") -> list[str]:
    return [f.ref for f in findings(kb, text) if f.severity == severity]


def one(kb, text: str, ref: str):
    matches = [f for f in findings(kb, text) if f.ref == ref]
    assert len(matches) == 1, [f.line() for f in findings(kb, text)]
    return matches[0]


def test_seed_profile_is_clean(kb) -> None:
    assert findings(kb, SEED) == []


def test_companion_mismatch(kb) -> None:
    f = one(kb, edit(SEED, 'torchvision = "0.15.2"', 'torchvision = "0.16.0"'), "companion-mismatch")
    assert f.severity == "error" and f.key == "stack.torchvision"
    assert f.message.startswith("torchvision 0.16.0 does not match torch 2.0.1; its exact companion is 0.15.2")
    assert f.fix == 'set torchvision = "0.15.2" (or "auto")'


def test_the_2_0_0_pip_conda_trap_is_explained(kb) -> None:
    text = edit(edit(SEED, 'torch = "2.0.1"', 'torch = "2.0.0"'), 'torchvision = "0.15.2"', 'torchvision = "0.15.0"')
    text = edit(text, 'torchaudio = "2.0.2"', 'torchaudio = "2.0.1"')
    f = one(kb, text, "companion-mismatch")
    assert "0.15.0 is the conda pairing of torch 2.0.0; pip wheels pair it with 0.15.1" in f.message


def test_unknown_torch_lists_the_minor(kb) -> None:
    f = one(kb, edit(SEED, 'torch = "2.0.1"', 'torch = "2.0.3"'), "unknown-torch")
    assert f.message == "2.0.3 is not a torch release the KB knows; known: 2.0.0, 2.0.1"


def test_unknown_variant_lists_the_published_ones(kb) -> None:
    f = one(kb, edit(SEED, 'variant = "cu118"', 'variant = "cu999"'), "variant-not-published")
    assert f.key == "stack.variant"
    assert (
        f.message
        == "torch 2.0.1 publishes no cu999 build for Linux x86_64; its builds there: cpu, cu117, cu118, rocm5.4.2"
    )


def test_driver_too_old_for_the_variant(kb) -> None:
    f = one(kb, edit(SEED, "535.104.05", "450.51.06"), "driver-too-old")
    assert f.key == "machine.driver"
    assert "CUDA 11.8 needs >= 520.61.05 (or >= 450.80.02 with minor-version compatibility)" in f.message


def test_driver_only_minor_version_compatible_is_a_warning(kb) -> None:
    text = edit(SEED, "535.104.05", "470.82.01")
    assert refs(kb, text) == []
    f = one(kb, text, "driver-minor-compat")
    assert f.severity == "warning" and "minor-version compatibility (>= 450.80.02)" in f.message


def test_gpu_not_in_the_variants_arch_list(kb) -> None:
    text = edit(edit(SEED, '["A100"]', '["RTX 5090"]'), 'cuda-toolkit = "11.8"\n', "")
    f = one(kb, text, "gpu-arch-unsupported")
    assert "sm_120" in f.message and "3.7;5.0;6.0;7.0;7.5;8.0;8.6;9.0" in f.message
    assert f.fix == "no variant of torch 2.0.1 supports it; the first later release that does is 2.7.0+cu128"


def test_h100_on_cu117_is_pointed_at_cu118(kb) -> None:
    text = edit(edit(SEED, '["A100"]', '["H100"]'), 'variant = "cu118"', 'variant = "cu117"')
    text = edit(text, 'cuda-toolkit = "11.8"', 'cuda-toolkit = "11.7"')
    f = one(kb, text, "gpu-arch-unsupported")
    assert f.fix == "use a variant of torch 2.0.1 built for it: cu118"


@pytest.mark.parametrize(("variant", "ok"), [("cu128", False), ("cu126", True), ("cu118", True)])
def test_pascal_needs_a_variant_with_sm_60(kb, variant: str, ok: bool) -> None:
    text = edit(SEED, '["A100"]', '["GTX 1080 Ti"]')
    text = edit(text, 'torch = "2.0.1"', 'torch = "2.7.1"')
    text = edit(text, 'variant = "cu118"', f'variant = "{variant}"')
    text = edit(edit(text, '"0.15.2"', '"0.22.1"'), '"2.0.2"', '"2.7.1"')
    text = edit(edit(text, 'cuda-toolkit = "11.8"\n', ""), 'glibc = "2.31"', 'glibc = "2.35"')
    text = edit(text, "535.104.05", "570.124.06")
    assert ("gpu-arch-unsupported" not in refs(kb, text)) is ok


def test_glibc_below_the_wheel_floor(kb) -> None:
    text = edit(edit(SEED, 'torch = "2.0.1"', 'torch = "2.7.1"'), 'variant = "cu118"', 'variant = "cu126"')
    text = edit(edit(text, '"0.15.2"', '"0.22.1"'), '"2.0.2"', '"2.7.1"')
    text = edit(edit(text, 'glibc = "2.31"', 'glibc = "2.27"'), 'cuda-toolkit = "11.8"', 'cuda-toolkit = "12.6"')
    text = edit(text, "535.104.05", "560.35.05")
    f = one(kb, text, "glibc-too-old")
    assert "glibc 2.27 is older than 2.28" in f.message and "manylinux_2_28" in f.message


def test_python_outside_the_range(kb) -> None:
    f = one(kb, edit(SEED, 'version = "3.10"', 'version = "3.12"'), "python-unsupported")
    assert f.message == "torch 2.0.1 publishes no Python 3.12 wheels for Linux x86_64 (it has 3.8, 3.9, 3.10, 3.11)"
    assert f.fix == "use Python 3.8-3.11, or a torch release with 3.12 wheels (envplan matrix)"


def test_experimental_python_is_a_warning(kb) -> None:
    text = edit(edit(SEED, 'torch = "2.0.1"', 'torch = "2.2.2"'), 'version = "3.10"', 'version = "3.12"')
    text = edit(edit(text, '"0.15.2"', '"0.17.2"'), '"2.0.2"', '"2.2.2"')
    assert "python-experimental" in refs(kb, text, "warning")


def test_toolkit_major_must_match_when_extensions_are_built(kb) -> None:
    text = edit(SEED, 'cuda-toolkit = "11.8"', 'cuda-toolkit = "12.1"')
    assert one(kb, text, "toolkit-mismatch").key == "machine.cuda-toolkit"
    no_ext = text.split("[[extensions]]")[0]
    assert "toolkit-mismatch" not in refs(kb, no_ext)


def test_missing_toolkit_with_extensions_is_a_warning(kb) -> None:
    assert "no-cuda-toolkit" in refs(kb, edit(SEED, 'cuda-toolkit = "11.8"\n', ""), "warning")


def test_toolkit_too_old_for_the_gpu(kb) -> None:
    text = edit(SEED, '["A100"]', '["A100"]\ncompute-capability = ["10.0"]')
    assert "toolkit-arch" in refs(kb, text)


def test_unknown_gpu_asks_for_compute_capability(kb) -> None:
    f = one(kb, edit(SEED, '["A100"]', '["Mystery 9000"]'), "unknown-gpu")
    assert f.severity == "warning" and "compute-capability" in f.fix


@pytest.mark.parametrize(
    ("extra_edit", "chosen"),
    [
        (None, "cu118"),  # cu121 is PyPI's default, but nvcc 11.8 must build the extension
        (("[[extensions]]", "[[x]]"), "cu121"),  # without extensions PyPI's default wins
    ],
)
def test_auto_variant(kb, extra_edit, chosen: str) -> None:
    text = edit(edit(SEED, 'variant = "cu118"', 'variant = "auto"'), 'torch = "2.0.1"', 'torch = "2.1.2"')
    text = edit(edit(text, '"0.15.2"', '"0.16.2"'), '"2.0.2"', '"2.1.2"')
    if extra_edit:
        text = text.split(extra_edit[0])[0]
    f = one(kb, text, "variant-chosen")
    assert f.message.startswith(f"auto chose {chosen}:")
    assert refs(kb, text) == []


def test_auto_with_an_old_driver_takes_minor_version_compatibility(kb) -> None:
    text = edit(edit(SEED, 'variant = "cu118"', 'variant = "auto"'), "535.104.05", "470.82.01")
    # both CUDA 11 builds need minor-version compatibility on driver 470: PyPI's default (cu117) wins
    chosen = one(kb, text, "variant-chosen").message
    assert chosen.startswith("auto chose cu117: every GPU is in its architecture list, driver 470.82.01 runs it by ")
    assert chosen.endswith("not cu118: it is not PyPI's default build on Linux x86_64")
    assert "driver-minor-compat" in refs(kb, text, "warning")


def test_auto_with_no_fitting_variant(kb) -> None:
    text = edit(edit(SEED, 'variant = "cu118"', 'variant = "auto"'), "535.104.05", "418.87.01")
    f = one(kb, text, "no-variant-fits")
    assert "cu117: driver 418.87.01 is too old" in f.message and "cu118:" in f.message


def test_cpu_only_machine_with_auto(kb) -> None:
    text = edit(edit(SEED, 'gpus = ["A100"]\n', ""), 'driver = "535.104.05"\n', "")
    text = edit(text, 'variant = "cu118"', 'variant = "auto"').split("[[extensions]]")[0]
    assert one(kb, text, "variant-chosen").message.startswith("auto chose cpu:")


def test_macos_intel_has_no_wheels_after_2_2_2(kb) -> None:
    text = 'schema = 1\nname = "m"\n[machine]\nos = "macos"\n[python]\nversion = "3.11"\n'
    text += '[stack]\ntorch = "2.3.0"\nvariant = "cpu"\n'
    f = one(kb, text, "platform-no-wheels")
    assert f.message == "torch 2.3.0 publishes no macOS x86_64 (Intel) wheels; the last release that does is 2.2.2"
    assert f.fix == "use torch <= 2.2.2, or another machine"


def test_rocm_on_nvidia(kb) -> None:
    f = one(kb, edit(SEED, 'variant = "cu118"', 'variant = "rocm5.4.2"'), "variant-device-mismatch")
    assert f.message == "rocm5.4.2 is an AMD ROCm build; the machine's GPUs need NVIDIA CUDA"


def test_unverified_pairing_is_flagged(kb) -> None:
    text = 'schema = 1\nname = "m"\n[python]\nversion = "3.11"\n'
    text += '[stack]\ntorch = "2.13.0"\nvariant = "cpu"\ntorchaudio = "2.11.0"\n'
    doubts = [f for f in findings(kb, text) if f.ref == "unverified-companion" and f.key == "stack.torchaudio"]
    assert len(doubts) == 1 and "inferred" in doubts[0].message


def test_a_gpu_dropped_by_the_target_points_back_to_the_last_release(kb) -> None:
    text = 'schema = 1\nname = "k80"\n[machine]\ngpus = ["Tesla K80"]\ndriver = "470.82.01"\n'
    text += '[python]\nversion = "3.10"\n[stack]\ntorch = "2.9.1"\nvariant = "cu126"\n'
    f = one(kb, text, "gpu-arch-unsupported")
    assert f.fix == "no variant of torch 2.9.1 supports it; the last earlier release that does is 2.7.1+cu118"
