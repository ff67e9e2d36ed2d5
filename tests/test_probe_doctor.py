"""probe (replaying recorded outputs of the real tools), doctor's findings, and init's round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envplan.core.check import check_profile
from envplan.core.findings import has_errors
from envplan.errors import EnvplanError
from envplan.live.doctor import doctor
from envplan.live.init import render_init_profile
from envplan.live.probe import parse_nvcc, parse_nvidia_smi, parse_proc_driver, parse_smi_header, probe
from envplan.profile.model import parse_profile
from helpers import ROOT

DATA = ROOT / "tests" / "data" / "probe"


def read(name: str) -> str:
    return (DATA / name).read_text()


def replay(torch: str | dict, *, smi: str | None = "nvidia-smi-a100.csv", nvcc: str | None = "nvcc-11.8.txt"):
    torch_text = json.dumps(torch) if isinstance(torch, dict) else read(torch)

    def run(argv: list[str]) -> tuple[int, str]:
        if "-c" in argv:
            return 0, torch_text.replace("\n", " ")
        if argv[0] == "nvidia-smi":
            if smi is None:
                return 127, ""
            return 0, read(smi) if len(argv) > 1 else read("nvidia-smi-a100.txt")
        if argv[0].endswith("nvcc"):
            return (0, read(nvcc)) if nvcc else (127, "")
        raise AssertionError(argv)

    return run


def observe(torch: str | dict, **kw):
    return probe("/opt/venv/bin/python", run=replay(torch, **kw), env={}, read=lambda p: "")


def test_parsers_on_recorded_outputs() -> None:
    gpus, driver = parse_nvidia_smi(read("nvidia-smi-a100.csv"))
    assert gpus == (("NVIDIA A100-SXM4-80GB", "8.0"),) * 2 and driver == "535.104.05"
    assert parse_smi_header(read("nvidia-smi-a100.txt")) == "12.2"
    assert parse_proc_driver(read("proc-driver-version.txt")) == "535.104.05"
    assert parse_nvcc(read("nvcc-11.8.txt")) == "11.8" and parse_nvcc(read("nvcc-13.0.txt")) == "13.0"


def test_gpu_box_with_a_mismatched_companion(kb) -> None:
    obs = observe("torch-gpu-box.json")
    assert obs.driver == "535.104.05" and obs.driver_cuda == "12.2" and obs.nvcc == "11.8" and len(obs.gpus) == 2
    findings = doctor(obs, kb)
    assert [f.ref for f in findings if f.severity == "error"] == ["companion-mismatch"]
    assert "torchvision 0.16.2+cu118 does not match torch 2.0.1" in findings[0].message
    assert "torchvision==0.15.2" in findings[0].fix


def test_cpu_build_on_a_gpu_machine(kb) -> None:
    assert "cpu-build-on-gpu" in [f.ref for f in doctor(observe("torch-cpu-on-gpu.json"), kb)]


def test_gpu_not_in_the_installed_arch_list(kb, tmp_path: Path) -> None:
    data = json.loads(read("torch-gpu-box.json"))
    data["torch"]["arch_list"] = ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86"]
    (tmp_path / "h100.csv").write_text("NVIDIA H100 80GB HBM3, 9.0, 550.54.15\n")
    obs = probe("py", run=_with_csv(data, tmp_path / "h100.csv"), env={}, read=lambda p: "")
    errors = [f for f in doctor(obs, kb) if f.ref == "gpu-arch-unsupported"]
    assert errors and "sm_90" in errors[0].message


def _with_csv(torch: dict, csv: Path):
    base = replay(torch)

    def run(argv: list[str]) -> tuple[int, str]:
        if argv[0] == "nvidia-smi" and len(argv) > 1:
            return 0, csv.read_text()
        return base(argv)

    return run


def test_driver_too_old_for_the_installed_cuda(kb, tmp_path: Path) -> None:
    data = json.loads(read("torch-gpu-box.json"))
    data["torch"]["version"], data["torch"]["cuda"] = "2.1.2+cu121", "12.1"
    data["dists"].update({"torch": "2.1.2+cu121", "torchvision": "0.16.2+cu121", "torchaudio": "2.1.2+cu121"})
    (tmp_path / "old.csv").write_text("NVIDIA A100-SXM4-80GB, 8.0, 470.82.01\n")
    obs = probe("py", run=_with_csv(data, tmp_path / "old.csv"), env={}, read=lambda p: "")
    assert "driver-too-old" in [f.ref for f in doctor(obs, kb) if f.severity == "error"]


def test_broken_torch_import_is_explained(kb) -> None:
    (finding,) = doctor(observe("torch-broken.json"), kb)
    assert finding.ref == "torch-import-failed" and "libcudnn.so.8" in finding.message
    assert "CUDA runtime" in finding.fix or "LD_LIBRARY_PATH" in finding.fix


def test_no_torch_and_no_gpu_and_no_nvcc(kb) -> None:
    obs = observe("torch-none.json", smi=None, nvcc=None)
    assert [f.ref for f in doctor(obs, kb)] == ["torch-missing"]
    assert any("no NVIDIA GPU" in n for n in obs.notes) and any("no nvcc" in n for n in obs.notes)
    with pytest.raises(EnvplanError):
        render_init_profile(obs, kb)


def test_extensions_without_nvcc_are_flagged(kb) -> None:
    findings = doctor(observe("torch-gpu-box.json", nvcc=None), kb)
    assert "no-cuda-toolkit" in [f.ref for f in findings]


def test_drift_from_the_profile(kb) -> None:
    profile = parse_profile((ROOT / "profiles" / "a100-train.toml").read_text(), "a100.toml")
    data = json.loads(read("torch-gpu-box.json"))
    obs = observe(data, nvcc="nvcc-13.0.txt")
    drift = {f.key: f.message for f in doctor(obs, kb, profile) if f.ref == "profile-drift"}
    assert drift["machine.cuda-toolkit"] == "the profile says 11.8, the machine has 13.0"
    assert "machine.gpus" in drift  # the profile lists one A100, nvidia-smi shows two


def test_init_round_trips_through_check(kb) -> None:
    data = json.loads(read("torch-gpu-box.json"))
    data["dists"]["torchvision"] = "0.15.2+cu118"
    text = render_init_profile(observe(data), kb)
    profile = parse_profile(text, "init.toml")
    assert profile.stack.torch.public == "2.0.1" and profile.stack.variant == "cu118"
    assert profile.machine.compute_capability == ((8, 0), (8, 0)) and str(profile.machine.driver) == "535.104.05"
    assert [e.name for e in profile.extensions] == ["causal-conv1d"]
    assert not has_errors(check_profile(profile, kb)), [f.line() for f in check_profile(profile, kb)]
    assert "# from nvidia-smi" in text and "supports CUDA up to 12.2" in text


def test_init_keeps_a_mismatch_so_check_reports_it(kb) -> None:
    profile = parse_profile(render_init_profile(observe("torch-gpu-box.json"), kb), "init.toml")
    assert "companion-mismatch" in [f.ref for f in check_profile(profile, kb)]


def test_drift_from_the_profiles_stack(kb) -> None:
    """doctor --profile: another variant, a companion and a package missing, another extension version."""
    profile = parse_profile((ROOT / "profiles" / "a100-train.toml").read_text(), "a100.toml")
    data = json.loads(read("torch-gpu-box.json"))
    data["torch"]["version"] = data["dists"]["torch"] = "2.0.1+cu117"
    del data["dists"]["torchaudio"], data["dists"]["numpy"]
    data["dists"]["causal-conv1d"] = "1.1.0"
    drift = [f for f in doctor(observe(data), kb, profile) if f.ref == "profile-drift"]
    found = {(f.key, f.message): f.fix for f in drift}
    assert found[("stack.variant", "the profile says cu118, the installed torch is 2.0.1+cu117 (cu117)")] == (
        "pip install --force-reinstall --no-deps torch==2.0.1+cu118 --index-url https://download.pytorch.org/whl/cu118 "
        "(and the companions of that variant); envplan lock PROFILE gives the whole locked install"
    )
    assert found[("stack.torchaudio", "the profile lists torchaudio 2.0.2; it is not installed")] == (
        "pip install --no-deps torchaudio==2.0.2+cu118 --index-url https://download.pytorch.org/whl/cu118"
    )
    assert ("stack.torchvision", "the profile says torchvision 0.15.2, installed is 0.16.2+cu118") in found
    assert ("stack.packages", "numpy<2 is in the profile but not installed") in found
    assert ("stack.packages", "einops is in the profile but not installed") in found
    ext = found[("extensions[0]", "the profile says causal-conv1d==1.0.0, installed is causal-conv1d 1.1.0")]
    assert ext.startswith("pip install --no-build-isolation --no-deps causal-conv1d==1.0.0")
    assert all(f.severity == "warning" for f in drift)


def test_no_stack_drift_when_the_environment_matches(kb) -> None:
    profile = parse_profile((ROOT / "profiles" / "a100-train.toml").read_text(), "a100.toml")
    data = json.loads(read("torch-gpu-box.json"))
    data["dists"].update({"torchvision": "0.15.2+cu118", "einops": "0.8.0"})
    keys = {f.key for f in doctor(observe(data), kb, profile) if f.ref == "profile-drift"}
    assert not {k for k in keys if k.startswith(("stack.", "extensions"))}, keys
