"""`--conda`: the step's environment.yml solved by py-rattler for the machine's virtual packages, written as
conda-lock.yml that conda-lock itself renders (offline, from a local channel)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run
from locksupport import profile_text


def conda_profile(file_urls: tuple[str, str], alias: str, **kw: object) -> str:
    text = profile_text(file_urls, **kw)  # type: ignore[arg-type]
    return text + f'conda = "{alias}"\n'


def lock(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "envplan.toml").write_text(text)
    return run("lock", "--conda", "--out", "L", cwd=tmp_path)


def conda_lock_bin() -> str:
    found = shutil.which("conda-lock") or str(Path(sys.executable).parent / "conda-lock")
    if not Path(found).exists():
        pytest.skip("conda-lock is not installed")
    return found


def packages(path: Path) -> dict[str, str]:
    import yaml  # conda-lock depends on PyYAML

    data = yaml.safe_load(path.read_text())
    return {p["name"]: p.get("build", "") for p in data["package"]}


def test_conda_lock_for_a_cuda_machine_renders(tmp_path: Path, file_urls: tuple[str, str], conda_alias: str) -> None:
    result = lock(tmp_path, conda_profile(file_urls, conda_alias))
    assert result.returncode == 0, result.stderr
    built = packages(tmp_path / "L" / "conda-lock.yml")
    assert built["pytorch"] == "py3.10_cuda11.8_cudnn8.7.0_0" and "pytorch-cuda" in built
    env = (tmp_path / "L" / "environment.yml").read_text()
    assert "pytorch-cuda=11.8" in env and "  - nvidia" in env
    render = subprocess.run(
        [conda_lock_bin(), "render", "-k", "explicit", "-p", "linux-64", "conda-lock.yml"],
        cwd=tmp_path / "L",
        capture_output=True,
        text=True,
        check=False,
    )
    assert render.returncode == 0, render.stderr
    explicit = (tmp_path / "L" / "conda-linux-64.lock").read_text()
    assert "@EXPLICIT" in explicit and "pytorch-2.1.2-py3.10_cuda11.8" in explicit
    stamp = json.loads((tmp_path / "L" / "lock.json").read_text())
    assert "conda" in stamp["inputs"] and "conda-lock.yml" in stamp["files"]


def test_a_driver_too_old_for_the_conda_build_fails_clearly(
    tmp_path: Path, file_urls: tuple[str, str], conda_alias: str
) -> None:
    """Driver 450.80.02 runs cu118 wheels by minor-version compatibility, but reports CUDA 11.0: the conda
    package pytorch-cuda 11.8 needs __cuda >= 11.8, so the conda lock fails and nothing is written."""
    text = conda_profile(file_urls, conda_alias).replace('driver = "535.104.05"', 'driver = "450.80.02"')
    result = lock(tmp_path, text)
    assert result.returncode == 1
    assert "conda could not lock" in result.stderr and "__cuda" in result.stderr
    assert not (tmp_path / "L").exists()


def test_cpu_machine_gets_the_cpu_build(tmp_path: Path, file_urls: tuple[str, str], conda_alias: str) -> None:
    result = lock(tmp_path, conda_profile(file_urls, conda_alias, variant="cpu"))
    assert result.returncode == 0, result.stderr
    built = packages(tmp_path / "L" / "conda-lock.yml")
    assert built["pytorch"] == "py3.10_cpu_0" and "cpuonly" in built and "pytorch-cuda" not in built


def test_upgrade_with_conda_locks_every_step(tmp_path: Path, file_urls: tuple[str, str], conda_alias: str) -> None:
    """cu118 -> cu121 on torch 2.1.2: every step gets a conda-lock.yml with the build of its variant."""
    (tmp_path / "envplan.toml").write_text(conda_profile(file_urls, conda_alias))
    result = run("upgrade", "--to", "2.1.2", "--variant", "cu121", "--conda", "--out", "p", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    steps = sorted(d.name for d in (tmp_path / "p").iterdir() if d.is_dir())
    assert steps == ["00-baseline", "01-torch", "02-companions"]
    builds = {s: packages(tmp_path / "p" / s / "conda-lock.yml")["pytorch"] for s in steps}
    assert builds["00-baseline"] == "py3.10_cuda11.8_cudnn8.7.0_0"
    assert builds["02-companions"] == "py3.10_cuda12.1_cudnn8.9.2_0"


def test_conda_lock_itself_needs_a_conda_executable(
    tmp_path: Path, file_urls: tuple[str, str], conda_alias: str
) -> None:
    if any(shutil.which(n) for n in ("conda", "mamba", "micromamba")):
        pytest.skip("a conda executable exists here")
    (tmp_path / "envplan.toml").write_text(conda_profile(file_urls, conda_alias))
    result = run("lock", "--conda-lock", "--out", "L", cwd=tmp_path)
    assert result.returncode == 2
    assert "needs a conda, mamba or micromamba executable" in result.stderr and "use --conda" in result.stderr
    assert not (tmp_path / "L").exists()
