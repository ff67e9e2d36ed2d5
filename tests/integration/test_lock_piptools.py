"""`envplan lock --backend pip-tools`: the real pip-compile, the interpreter rule, and the index check."""

from __future__ import annotations

import sys
from pathlib import Path

from packaging.pylock import Pylock

from envplan import tomlread
from envplan.resolve.reqparse import parse_requirements
from helpers import run
from locksupport import profile_text

HERE = f"{sys.version_info[0]}.{sys.version_info[1]}"
OTHER = "3.10" if HERE != "3.10" else "3.11"


def lock(tmp_path: Path, text: str, *args: str):
    (tmp_path / "envplan.toml").write_text(text)
    return run("lock", "--backend", "pip-tools", "--out", "L", *args, cwd=tmp_path)


def test_pip_compile_locks_with_hashes(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    result = lock(tmp_path, profile_text(file_urls, python=HERE, packages=("numpy<2", "timm")))
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "L" / "requirements.txt").read_text()
    got = {p.name: p for p in parse_requirements(text)}
    assert got["torch"].version == "2.1.2+cu118" and got["torchvision"].version == "0.16.2+cu118"
    assert got["numpy"].version == "1.26.0" and all(p.hashes for p in got.values())  # torchvision's, from cu118
    assert "/opt/wheels" not in text and "--index-url" not in text and "--extra-index-url" not in text
    data = tomlread.loads((tmp_path / "L" / "pylock.toml").read_text())
    Pylock.from_dict(data)
    indexes = {p["name"]: p["index"] for p in data["packages"]}
    assert indexes["torch"] == indexes["numpy"] == f"{file_urls[1]}/cu118" and indexes["pillow"] == file_urls[0]


def test_interpreter_mismatch_is_refused(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    result = lock(tmp_path, profile_text(file_urls, python=OTHER))
    assert result.returncode == 2
    assert f"not for the profile's Python {OTHER}" in result.stderr and "--python PATH" in result.stderr
    assert not (tmp_path / "L").exists()


def test_python_path_names_the_interpreter(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    result = lock(tmp_path, profile_text(file_urls, python=HERE), "--python", sys.executable)
    assert result.returncode == 0, result.stderr


def test_a_package_both_indexes_serve_differently_fails(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    """pip-compile cannot tie einops to PyPI; the PyTorch index serves another einops 0.7.0: refuse."""
    result = lock(tmp_path, profile_text(file_urls, python=HERE, packages=("einops",)))
    assert result.returncode == 1
    assert "einops==0.7.0" in result.stderr and "dependency confusion" in result.stderr
    assert not (tmp_path / "L").exists()
