"""`envplan export wheelhouse`: every file of a step's lock, hash-verified and resumable, installable offline."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from helpers import run
from locksupport import profile_text


def plan(tmp_path: Path, urls: tuple[str, str]) -> Path:
    (tmp_path / "envplan.toml").write_text(
        profile_text(urls, variant="cpu", python="3.11", torch="2.0.1", vision="0.15.2")
    )
    assert run("upgrade", "--to", "2.1.2", "--out", "plan", cwd=tmp_path).returncode == 0
    return tmp_path / "plan"


def test_wheelhouse_downloads_resumes_and_installs_offline(tmp_path: Path, http_urls: tuple[str, str]) -> None:
    plan(tmp_path, http_urls)
    first = run("export", "wheelhouse", "plan", "--step", "02-companions", "-o", "wh", "--json", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    doc = json.loads(first.stdout)
    assert doc["files"] == doc["downloaded"] > 0 and doc["kept"] == 0
    wheel = next((tmp_path / "wh").glob("torch-2.1.2+cpu-*.whl"))
    wheel.write_bytes(b"half a download")  # a broken file is fetched again, the good ones are kept
    again = json.loads(
        run("export", "wheelhouse", "plan", "--step", "02-companions", "-o", "wh", "--json", cwd=tmp_path).stdout
    )
    assert (again["downloaded"], again["kept"]) == (1, doc["files"] - 1)
    assert sorted(p.name for p in (tmp_path / "wh").iterdir() if not p.name.endswith(".whl")) == [
        "envplan_verify.py",
        "expect.json",
        "install.sh",
        "requirements.txt",
    ]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull, "PYTHON": str(venv / "bin" / "python")}
    result = subprocess.run(
        ["bash", str(tmp_path / "wh" / "install.sh")], capture_output=True, text=True, env=env, check=False
    )
    assert "Successfully installed" in result.stdout and "torch-2.1.2+cpu" in result.stdout
    assert re.search(r"ok\s+torch version: 2\.1\.2\+cpu", result.stdout)
    # a fake torch has no ops: the verifier at the end of install.sh fails, and says so
    assert result.returncode != 0 and "FAILED  matmul" in result.stdout


def test_a_file_whose_hash_changed_on_the_index_is_refused(tmp_path: Path, index_root: Path) -> None:
    import shutil

    copy = tmp_path / "indexes"
    shutil.copytree(index_root, copy)
    urls = ((copy / "pypi" / "simple").as_uri(), (copy / "pytorch").as_uri())
    plan(tmp_path, urls)
    target = copy / "pytorch-files" / "cpu" / "filelock-3.13.1-py3-none-any.whl"  # torch's, from its index
    assert target.as_uri() in (tmp_path / "plan" / "00-baseline" / "pylock.toml").read_text()
    target.write_bytes(target.read_bytes() + b"\0")
    result = run("export", "wheelhouse", "plan", "--step", "02-companions", "-o", "wh", cwd=tmp_path)
    assert result.returncode == 1 and "does not have the locked sha256" in result.stderr
    assert not list((tmp_path / "wh").glob("filelock*"))
