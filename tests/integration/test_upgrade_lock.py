"""`envplan upgrade` locks every step (uv), reuses fresh locks, and a network test against real PyPI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envplan.resolve.reqparse import parse_requirements
from helpers import ROOT, run
from locksupport import profile_text


def test_every_step_is_locked_and_fresh_steps_are_reused(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    (tmp_path / "envplan.toml").write_text(
        profile_text(file_urls, torch="2.0.1", vision="0.15.2", packages=("numpy<2", "timm"))
    )
    first = run("upgrade", "--to", "2.1", "--out", "p", "--json", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert [o["status"] for o in json.loads(first.stdout)["locks"]] == ["locked"] * 3
    steps = {
        d.name: {p.name: p.version for p in parse_requirements((d / "requirements.txt").read_text())}
        for d in sorted((tmp_path / "p").iterdir())
        if d.is_dir()
    }
    assert steps["00-baseline"]["torch"] == "2.0.1+cu118" and steps["00-baseline"]["torchvision"] == "0.15.2+cu118"
    assert steps["01-torch"]["torch"] == "2.1.2+cu118" and "torchvision" not in steps["01-torch"]
    assert "timm" not in steps["01-torch"], "timm needs torchvision: it waits for the companions step"
    assert steps["02-companions"]["torchvision"] == "0.16.2+cu118" and "timm" in steps["02-companions"]
    again = run("upgrade", "--to", "2.1", "--out", "p", "--json", cwd=tmp_path)
    assert [o["status"] for o in json.loads(again.stdout)["locks"]] == ["fresh"] * 3


def test_a_failing_step_writes_no_plan(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    # the fake PyTorch index has no cu117 builds: today's 2.0.1+cu117 cannot be locked, so nothing is written
    (tmp_path / "envplan.toml").write_text(profile_text(file_urls, torch="2.0.1", variant="cu117", vision=None))
    result = run("upgrade", "--to", "2.0.1", "--variant", "cu118", "--out", "p", cwd=tmp_path)
    assert result.returncode == 1 and "could not lock 00-baseline" in result.stderr
    assert not (tmp_path / "p").exists()


@pytest.mark.network
def test_real_torch_from_pypi(tmp_path: Path) -> None:
    """The README's main command: every step's variant is PyPI's default, so PyPI alone serves the plan."""
    result = run(
        "upgrade", str(ROOT / "profiles" / "rtx4090-cu124.toml"), "--to", "2.6", "--out", "p", "--json", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    companions = parse_requirements((tmp_path / "p" / "02-companions" / "requirements.txt").read_text())
    versions = {p.name: p.version for p in companions}
    assert (versions["torch"], versions["torchvision"], versions["torchaudio"]) == ("2.6.0", "0.21.0", "2.6.0")


def test_identical_steps_across_a_fleet_are_resolved_once(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    import os
    import shutil
    import subprocess
    import sys

    text = profile_text(file_urls, torch="2.0.1", vision="0.15.2")
    (tmp_path / "a.toml").write_text(text)
    (tmp_path / "b.toml").write_text(text.replace('name = "fake"', 'name = "twin"'))
    log = tmp_path / "uv.log"
    shim = tmp_path / "bin" / "uv"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {shutil.which("uv")} "$@"\n')
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(
        [sys.executable, "-m", "envplan", "upgrade", "a.toml", "b.toml", "--to", "2.1", "--out", "fleet", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    compiles = [line for line in log.read_text().splitlines() if "-o requirements.txt" in line]
    assert len(compiles) == 3, "three distinct steps, each resolved once for both machines"
    for name in ("fake", "twin"):
        assert (tmp_path / "fleet" / name / "02-companions" / "requirements.txt").is_file()
