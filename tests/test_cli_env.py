"""doctor, init and explain as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from fakeindex import FakeDist, build_wheel
from helpers import run


def test_init_refuses_to_overwrite(tmp_path: Path) -> None:
    (tmp_path / "envplan.toml").write_text("keep me")
    result = run("init", cwd=tmp_path)
    assert result.returncode == 2 and "already exists" in result.stderr and "--force" in result.stderr
    assert (tmp_path / "envplan.toml").read_text() == "keep me"


def test_init_without_torch_is_a_clear_error(tmp_path: Path) -> None:
    venv = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    result = run("init", "--python", str(venv / "bin" / "python"), cwd=tmp_path)
    assert result.returncode == 2 and "torch is not installed" in result.stderr
    assert not (tmp_path / "envplan.toml").exists()


def test_doctor_without_torch_exits_1_with_json(tmp_path: Path) -> None:
    venv = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    result = run("doctor", "--python", str(venv / "bin" / "python"), "--json", cwd=tmp_path)
    assert result.returncode == 1
    doc = json.loads(result.stdout)
    assert doc["schema"] == 1 and [f["ref"] for f in doc["findings"]] == ["torch-missing"]


def test_explain_reads_stdin_and_json(tmp_path: Path) -> None:
    log = "RuntimeError: operator torchvision::nms does not exist\n"
    result = subprocess.run(
        [sys.executable, "-m", "envplan", "explain", "--json"], input=log, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    (finding,) = json.loads(result.stdout)["findings"]
    assert finding["ref"] == "companion-mismatch" and finding["evidence"] == log.strip()


def test_explain_says_nothing_when_nothing_matches(tmp_path: Path) -> None:
    (tmp_path / "log.txt").write_text("ValueError: invalid literal for int() with base 10: 'x'\n")
    result = run("explain", str(tmp_path / "log.txt"), "--json")
    assert json.loads(result.stdout)["findings"] == []
    human = run("explain", str(tmp_path / "log.txt"))
    assert "no known cause found" in human.stdout


def _have_torch() -> bool:
    return subprocess.run([sys.executable, "-c", "import torch"], capture_output=True, check=False).returncode == 0


@pytest.mark.e2e
@pytest.mark.skipif(not _have_torch(), reason="needs torch 2.13.0+cpu in this environment (nox -s e2e)")
def test_doctor_on_real_torch_with_a_mismatched_companion(tmp_path: Path) -> None:
    venv = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    # the new environment sees this one's torch through a .pth file, and has its own (wrong) torchvision
    site = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    here = sysconfig.get_paths()["purelib"]
    Path(site, "envplan-test-torch.pth").write_text(here + "\n")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    dist = FakeDist("torchvision", "0.27.0")
    (wheels / dist.filename).write_bytes(build_wheel(dist))
    python = str(venv / "bin" / "python")
    subprocess.run(
        [python, "-m", "pip", "install", "--no-deps", "--no-index", "--find-links", str(wheels), "torchvision==0.27.0"],
        check=True,
        capture_output=True,
        env={"PIP_CONFIG_FILE": "/dev/null"},
    )
    result = run("doctor", "--python", python, "--json")
    assert result.returncode == 1
    doc = json.loads(result.stdout)
    assert doc["observed"]["torch"]["version"] == "2.13.0+cpu"
    (mismatch,) = [f for f in doc["findings"] if f["ref"] == "companion-mismatch"]
    assert "torchvision 0.27.0 does not match torch 2.13.0" in mismatch["message"]
    assert "torchvision==0.28.0" in mismatch["fix"]
