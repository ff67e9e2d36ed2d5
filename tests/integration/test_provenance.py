"""Provenance by index, not by name, with the real uv and pip-compile against a hostile pair of indexes.

The PyTorch index's torch 2.5.1+cu121 needs its build companions (triton, pytorch-triton, torchtriton, nvidia-*)
loosely or exactly; on "PyPI" an attacker uploaded every one of those names at 9.9.9 / 99.0 (the torchtriton
attack of December 2022: https://pytorch.org/blog/compromised-nightly-dependency/). Every package the torch
family resolves from the PyTorch index must be locked from there, everything else from PyPI, in both backends,
and the audit checks each entry against the index it must come from."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from envplan import tomlread
from envplan.index.simple import project_files
from envplan.resolve.reqparse import parse_requirements
from fakeindex import BUILD_COMPANIONS, FakeDist, FakeIndexes, hostile_indexes, write_index
from helpers import run
from locksupport import profile_text

HERE = f"{sys.version_info[0]}.{sys.version_info[1]}"
ATTACKER = {"9.9.9", "99.0"}


def hostile_profile(indexes: FakeIndexes) -> str:
    urls = (indexes.pypi, indexes.pytorch)
    return profile_text(urls, torch="2.5.1", variant="cu121", python=HERE, vision="0.20.1", packages=("einops",))


@pytest.fixture(scope="module", params=["loose", "exact"])
def hostile(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> FakeIndexes:
    return hostile_indexes(tmp_path_factory.mktemp(f"hostile-{request.param}"), exact=request.param == "exact")


def served(index: str, name: str, version: str) -> set[str]:
    """The sha256 hashes `index` serves for exactly name==version (read independently of envplan's backends)."""
    return {f"sha256:{f.sha256}" for f in project_files(index, name) if f"-{version}-" in f.filename}


@pytest.mark.parametrize("backend", ["uv", "pip-tools"])
def test_every_package_comes_from_the_index_it_must(tmp_path: Path, hostile: FakeIndexes, backend: str) -> None:
    (tmp_path / "envplan.toml").write_text(hostile_profile(hostile))
    result = run("lock", "--backend", backend, "--out", "L", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    got = {p.name: p for p in parse_requirements((tmp_path / "L" / "requirements.txt").read_text())}
    pylock = {p["name"]: p for p in tomlread.loads((tmp_path / "L" / "pylock.toml").read_text())["packages"]}
    pytorch, pypi = f"{hostile.pytorch}/cu121", hostile.pypi
    assert got["torch"].version == "2.5.1+cu121" and got["torchvision"].version == "0.20.1+cu121"
    for name, version in BUILD_COMPANIONS.items():
        assert got[name].version == version, f"{name} {got[name].version}: taken from the attacker's index"
    assert not [p for p in got.values() if p.version in ATTACKER]
    # from the PyTorch index: the family and everything it pulled in from there (numpy too: torchvision needs it)
    expected = dict.fromkeys(("torch", "torchvision", *BUILD_COMPANIONS, "filelock", "typing-extensions"), pytorch)
    expected |= {"numpy": pytorch, "pillow": pytorch, "einops": pypi}
    for name, index in expected.items():
        assert got[name].index.rstrip("/") == index or pylock[name].get("index", "").rstrip("/") == index, name
        assert set(got[name].hashes) <= served(index, name, got[name].version), f"{name}: a file from elsewhere"
    assert got["einops"].version == "0.7.0"


def test_a_lock_of_another_index_content_discovers_its_own_closure(tmp_path: Path) -> None:
    """The closure is found from what the index serves now, never from a cache keyed by its URL: after the
    index changes under the same URL, a package the new torch does not need does not appear."""
    root = tmp_path / "index"
    first = hostile_indexes(root, exact=True)
    (tmp_path / "envplan.toml").write_text(hostile_profile(first))
    assert run("lock", "--out", "A", cwd=tmp_path).returncode == 0
    assert "torchtriton==" in (tmp_path / "A" / "requirements.txt").read_text()
    shutil.rmtree(root / "pytorch")
    plain = [
        FakeDist("torch", "2.5.1+cu121", ("filelock",)),
        FakeDist("torchvision", "0.20.1+cu121", ("torch==2.5.1",)),
        FakeDist("torchtriton", "3.1.0"),
        FakeDist("filelock", "3.13.1"),
    ]
    write_index(root / "pytorch" / "cu121", root / "pytorch-files" / "cu121", plain)
    second = run("lock", "--out", "B", cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    names = {p.name for p in parse_requirements((tmp_path / "B" / "requirements.txt").read_text())}
    assert "torchtriton" not in names and "triton" not in names, names


def test_a_corrupt_closure_cache_left_by_an_older_envplan_is_harmless(tmp_path: Path, hostile: FakeIndexes) -> None:
    cache = tmp_path / "cache" / "envplan" / "family"
    cache.mkdir(parents=True)
    for i, junk in enumerate(['{"a": 1}', "123", '["evil-package"]', "not json"]):
        (cache / f"{i:032x}.json").write_text(junk)
    (tmp_path / "envplan.toml").write_text(hostile_profile(hostile))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    result = subprocess.run(
        [sys.executable, "-m", "envplan", "lock", "--out", "L", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["locks"][0]["status"] == "locked"
    assert "evil-package" not in (tmp_path / "L" / "requirements.txt").read_text()
