"""`envplan export uv`: a step of a plan as a uv project, locked by the real uv against the local fake indexes;
`uv sync --locked` installs exactly the step's lock, and `init --from` reads the project back."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from envplan import tomlread
from envplan.resolve import find_uv
from envplan.resolve.reqparse import parse_requirements
from helpers import run
from locksupport import profile_text


@pytest.fixture(scope="module")
def plan(tmp_path_factory: pytest.TempPathFactory, file_urls: tuple[str, str]) -> Path:
    """torch 2.0.1 -> 2.1.2 (cu118) on Python 3.11 (the Python this machine has, so uv can install it)."""
    root = tmp_path_factory.mktemp("uvplan")
    (root / "envplan.toml").write_text(
        profile_text(file_urls, torch="2.0.1", vision="0.15.2", python="3.11", packages=("numpy<2", "timm"))
    )
    result = run("upgrade", "--to", "2.1.2", "--out", "p", cwd=root)
    assert result.returncode == 0, result.stderr
    return root / "p"


def uv(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UV_", "PIP_"))}
    env |= {"UV_OFFLINE": "1", "UV_PYTHON_DOWNLOADS": "never", "UV_CACHE_DIR": os.environ["UV_CACHE_DIR"]}
    return subprocess.run([find_uv(), *args], cwd=cwd, env=env, capture_output=True, text=True, check=False)


def exported(plan: Path, step: str, out: Path) -> Path:
    result = run("export", "uv", str(plan), "--step", step, "-o", str(out))
    assert result.returncode == 0, result.stderr
    return out


def locked_pins(plan: Path, step: str) -> set[str]:
    return {f"{p.name}=={p.version}" for p in parse_requirements((plan / step / "requirements.txt").read_text())}


@pytest.mark.parametrize("step", ["01-torch", "02-companions"])
def test_uv_sync_locked_installs_exactly_the_step(plan: Path, tmp_path: Path, step: str) -> None:
    project = exported(plan, step, tmp_path / "proj")
    lock = (project / "uv.lock").read_text()
    assert "pypi.org" not in lock and "pythonhosted" not in lock  # resolved from the local indexes only
    result = uv("sync", "--locked", cwd=project)
    assert result.returncode == 0, result.stderr
    freeze = uv("pip", "freeze", "--python", str(project / ".venv" / "bin" / "python"), cwd=project)
    assert set(freeze.stdout.split()) == locked_pins(plan, step)


def test_the_torch_family_may_come_from_the_pytorch_index_only(plan: Path, tmp_path: Path) -> None:
    project = exported(plan, "02-companions", tmp_path / "proj")
    data = tomlread.loads((project / "pyproject.toml").read_text())
    indexes = {i["name"]: i for i in data["tool"]["uv"]["index"]}
    assert indexes["pytorch"]["explicit"] is True and indexes["pytorch"]["url"].endswith("/pytorch/cu118")
    sources = data["tool"]["uv"]["sources"]
    step_lock = parse_requirements((plan / "02-companions" / "requirements.txt").read_text())
    from_pytorch = {p.name for p in step_lock if p.index.endswith("/pytorch/cu118")}  # what the lock took there
    assert {"torch", "torchvision", "triton", "numpy"} <= from_pytorch
    assert {n for n, s in sources.items() if s == {"index": "pytorch"}} == from_pytorch
    assert "torch==2.1.2+cu118" in data["project"]["dependencies"]
    assert data["project"]["requires-python"] == "==3.11.*"
    lock = tomlread.loads((project / "uv.lock").read_text())
    origin = {p["name"]: p["source"].get("registry", "") for p in lock["package"]}
    assert origin["torch"].endswith("/pytorch/cu118") and origin["triton"].endswith("/pytorch/cu118")
    # torchvision's numpy: the PyTorch index mirrors it, so the lock (and the project) take it from there only
    assert origin["numpy"].endswith("/pytorch/cu118") and origin["pillow"].endswith("/pypi/simple")
    versions = {p["name"]: p["version"] for p in lock["package"]}
    assert versions["torch"] == "2.1.2+cu118"  # never PyPI's 9.9.9 trap


def test_an_edited_project_no_longer_syncs_locked(plan: Path, tmp_path: Path) -> None:
    project = exported(plan, "01-torch", tmp_path / "proj")
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('    "numpy<2",\n', '    "numpy<2",\n    "einops",\n'))
    result = uv("sync", "--locked", cwd=project)
    assert result.returncode != 0 and "lock" in result.stderr.lower()


def test_init_reads_the_exported_project_back(plan: Path, tmp_path: Path) -> None:
    project = exported(plan, "02-companions", tmp_path / "proj")
    out = tmp_path / "back.toml"
    result = run("init", "--from", str(project / "pyproject.toml"), str(project / "uv.lock"), "-o", str(out))
    assert result.returncode == 0, result.stderr
    profile = tomlread.loads(out.read_text())
    assert profile["stack"]["torch"] == "2.1.2" and profile["stack"]["variant"] == "cu118"
    assert profile["stack"]["torchvision"] == "0.16.2" and profile["python"]["version"] == "3.11"
    assert profile["indexes"]["pytorch"].endswith("/pytorch") and set(profile["stack"]["packages"]) == {
        "numpy<2",
        "timm",
    }
    only_lock = run("init", "--from", str(project / "uv.lock"), "-o", str(tmp_path / "lock-only.toml"))
    assert only_lock.returncode == 0, only_lock.stderr
    assert 'variant = "cu118"' in (tmp_path / "lock-only.toml").read_text()


def test_a_wheel_url_extension_becomes_a_url_source(plan: Path, tmp_path: Path) -> None:
    """An extension the plan installs from a wheel URL (a GitHub release asset in the KB; here a wheel served on
    127.0.0.1): a URL source in the project, locked with its hash, installed by uv sync."""
    import json

    from fakeindex import FakeDist, build_wheel, serve

    dist = FakeDist("causal-conv1d", "1.4.0", ("torch",))
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / dist.filename).write_bytes(build_wheel(dist))
    copy = tmp_path / "plan"
    subprocess.run(["cp", "-r", str(plan), str(copy)], check=True)
    doc = json.loads((copy / "plan.json").read_text())
    step = next(s for s in doc["steps"] if s["name"] == "02-companions")
    with serve(tmp_path / "assets") as base:
        url = f"{base}/{dist.filename}"
        step["extensions"] = [
            {"name": "causal-conv1d", "version": "1.4.0", "method": "wheel-url", "spec": url, "index": None}
        ]
        (copy / "plan.json").write_text(json.dumps(doc))
        project = exported(copy, "02-companions", tmp_path / "proj")
        data = tomlread.loads((project / "pyproject.toml").read_text())
        assert data["tool"]["uv"]["sources"]["causal-conv1d"] == {"url": url}
        assert "causal-conv1d" in data["project"]["dependencies"]
        result = uv("sync", "--locked", cwd=project)
        assert result.returncode == 0, result.stderr
    freeze = uv("pip", "freeze", "--python", str(project / ".venv" / "bin" / "python"), cwd=project).stdout
    assert f"causal-conv1d @ {url}" in freeze
    lock = tomlread.loads((project / "uv.lock").read_text())
    entry = next(p for p in lock["package"] if p["name"] == "causal-conv1d")
    assert entry["wheels"][0]["hash"].startswith("sha256:")


def test_init_reads_the_pylock_and_hashed_requirements_uv_writes(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    """pylock.toml (PEP 751) and a hashed requirements.txt, both written by the real uv (`envplan lock`)."""
    (tmp_path / "envplan.toml").write_text(profile_text(file_urls, packages=("numpy<2", "timm")))
    assert run("lock", "--out", "L", cwd=tmp_path).returncode == 0
    for name in ("pylock.toml", "requirements.txt"):
        out = tmp_path / f"{name}.profile.toml"
        result = run("init", "--from", str(tmp_path / "L" / name), "-o", str(out), cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        profile = tomlread.loads(out.read_text())
        stack = profile["stack"]
        assert (stack["torch"], stack["variant"], stack["torchvision"]) == ("2.1.2", "cu118", "0.16.2"), name
        assert "+cu118 in " in out.read_text()  # the build comes from the local label: neither file names its index
    pylock = tomlread.loads((tmp_path / "pylock.toml.profile.toml").read_text())
    assert {"numpy==1.26.0", "timm==0.9.12", "pillow==10.2.0"} <= set(pylock["stack"]["packages"])
    assert not any(p.startswith(("torch", "triton")) for p in pylock["stack"]["packages"])
