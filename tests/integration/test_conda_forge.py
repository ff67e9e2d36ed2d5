"""conda-forge as a real source: `kb update --conda-channel` learns a channel's torch builds from its repodata
(py-rattler, a local channel served on 127.0.0.1 in conda-forge's shape), a step's environment.yml then pins
the whole stack to exact builds (pip only for what the channel lacks), and `lock --conda` solves it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from fakeconda import build_channel, build_conda_forge

from fakeindex import serve
from locksupport import profile_text


@pytest.fixture(scope="module")
def channels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("channels")
    build_conda_forge(root)
    build_channel(root)
    with serve(root) as base:
        yield base


def envplan(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cwd / "cache")}
    return subprocess.run(
        [sys.executable, "-m", "envplan", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def learned(tmp_path: Path, channels: str, name: str = "conda-forge") -> dict:
    result = envplan(tmp_path, "kb", "update", "--conda-channel", f"{channels}/{name}", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def locked(
    tmp_path: Path, channels: str, variant: str, urls: tuple[str, str], *, audio: bool = True
) -> tuple[dict, str]:
    text = profile_text(urls, variant=variant, extra='torchaudio = "2.1.2"' if audio else "")
    (tmp_path / "envplan.toml").write_text(text + f'conda = "{channels}"\n')
    result = envplan(tmp_path, "lock", "--conda", "--out", "L")
    assert result.returncode == 0, result.stderr
    builds = {p["name"]: p for p in yaml.safe_load((tmp_path / "L" / "conda-lock.yml").read_text())["package"]}
    return builds, (tmp_path / "L" / "environment.yml").read_text()


def test_the_learner_reads_every_torch_build_of_the_channel(tmp_path: Path, channels: str) -> None:
    doc = learned(tmp_path, channels)
    rows = {(r["name"], r["build"]): r for r in doc["builds"]}
    assert {n for n, _ in rows} == {"pytorch", "torchvision", "xformers"}  # the channel has no torchaudio
    assert rows[("pytorch", "cuda118_py310h7fdc7dd_300")]["cuda"] == "11.8"
    assert rows[("pytorch", "cuda120_py310h327d3bc_300")]["cuda"] == "12.0"
    assert rows[("pytorch", "cuda120_py310h327d3bc_300")]["cuda-spec"] == "cuda-version >=12.0,<13"
    assert rows[("pytorch", "cpu_mkl_py310h3ea73d3_100")]["cuda"] == "cpu"
    vision = rows[("torchvision", "cuda118_py310h0e8a1e5_1")]
    assert (vision["python"], vision["torch"], vision["channel"]) == ("3.10", ["2.1.2"], f"{channels}/conda-forge")
    overlay = (tmp_path / "cache" / "envplan" / "kb-overlay.toml").read_text()
    assert overlay.count("[[conda]]") == 7 and "learned-on" in overlay


def test_a_step_pins_the_whole_stack_to_exact_builds(tmp_path: Path, channels: str, file_urls: tuple[str, str]) -> None:
    learned(tmp_path, channels)
    builds, env = locked(tmp_path, channels, "cu118", file_urls)
    assert "  - pytorch=2.1.2=cuda118_py310h7fdc7dd_300" in env
    assert "  - torchvision=0.16.2=cuda118_py310h0e8a1e5_1" in env
    assert "  - cuda-version=11.8" in env and f"  - {channels}/conda-forge" in env
    # torchaudio: the channel has no build of it, so pip installs it from the PyTorch index
    assert "    - torchaudio==2.1.2+cu118" in env and f"--extra-index-url {file_urls[1]}/cu118" in env
    assert builds["pytorch"]["build"] == "cuda118_py310h7fdc7dd_300"
    assert builds["torchvision"]["build"] == "cuda118_py310h0e8a1e5_1"
    assert builds["cudatoolkit"]["version"] == "11.8.0" and builds["libtorch"]["build"].startswith("cuda118")


def test_a_cuda_minor_the_channel_lacks_takes_its_build_of_the_same_major(
    tmp_path: Path, channels: str, file_urls: tuple[str, str]
) -> None:
    """cu121: conda-forge built torch 2.1.2 for CUDA 12.0; cuda-version=12.1 brings the 12.1 runtime. (cu121 is
    PyPI's default build of 2.1.2, and the fake PyPI has no torchaudio: the pip half of the lock leaves it out.)"""
    learned(tmp_path, channels)
    builds, env = locked(tmp_path, channels, "cu121", file_urls, audio=False)
    assert "pytorch=2.1.2=cuda120_py310h327d3bc_300" in env and "cuda-version=12.1" in env
    assert "for CUDA 12.0, not 12.1" in env
    assert builds["cuda-version"]["version"] == "12.1" and builds["cuda-cudart"]["version"] == "12.1.105"


def test_a_cpu_machine_gets_the_cpu_builds(tmp_path: Path, channels: str, file_urls: tuple[str, str]) -> None:
    learned(tmp_path, channels)
    builds, _env = locked(tmp_path, channels, "cpu", file_urls)
    assert builds["pytorch"]["build"] == "cpu_mkl_py310h3ea73d3_100"
    assert builds["torchvision"]["build"] == "cpu_py310h5c0a9e5_1" and "cudatoolkit" not in builds


def test_the_pytorch_channel_learned_keeps_its_metapackages(
    tmp_path: Path, channels: str, file_urls: tuple[str, str]
) -> None:
    learned(tmp_path, channels, "pytorch")
    builds, env = locked(tmp_path, channels, "cu118", file_urls)
    assert "pytorch=2.1.2=py3.10_cuda11.8_cudnn8.7.0_0" in env and "pytorch-cuda=11.8" in env
    assert "torchvision=0.16.2=py310_cu118" in env and "torchaudio=2.1.2=py310_cu118" in env
    assert builds["pytorch-cuda"]["version"] == "11.8"


def test_an_unreachable_channel_is_one_clear_error(tmp_path: Path) -> None:
    result = envplan(tmp_path, "kb", "update", "--conda-channel", "http://127.0.0.1:9/conda-forge")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "http://127.0.0.1:9/conda-forge: cannot read the channel's repodata" in lines[0]
    assert not (tmp_path / "cache" / "envplan" / "kb-overlay.toml").exists()


def test_kb_reset_forgets_the_channel(tmp_path: Path, channels: str) -> None:
    learned(tmp_path, channels)
    assert envplan(tmp_path, "kb", "reset").returncode == 0
    assert not (tmp_path / "cache" / "envplan" / "kb-overlay.toml").exists()
