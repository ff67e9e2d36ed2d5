"""`envplan upgrade` as a user runs it: plan directory, JSON, blocked plans, atomic writes, --write-profile."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from envplan import tomlread
from helpers import ROOT, SEED, edit, run


def seed_dir(tmp_path: Path, text: str = SEED) -> Path:
    (tmp_path / "envplan.toml").write_text(text)
    return tmp_path


def test_default_profile_and_plan_directory(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    result = run("upgrade", "--to", "2.1", "--no-lock", cwd=cwd)
    assert result.returncode == 0, result.stderr
    out = cwd / "plan-2.0.1-to-2.1.2"
    assert "01-torch" in result.stdout and "02-companions" in result.stdout and "03-extensions" in result.stdout
    names = sorted(p.name for p in out.iterdir() if p.name != ".envplan-plan")
    assert (out / ".envplan-plan").is_file()
    assert names == [
        "00-baseline",
        "01-torch",
        "02-companions",
        "03-extensions",
        "PLAN.md",
        "envplan_verify.py",
        "noxfile.py",
        "plan.json",
        "source-profile.toml",
        "target-profile.toml",
    ]
    for step in names[:4]:
        expected = ["ENVIRONMENT.md", "environment.yml", "expect.json", "requirements.in"]
        if step in ("00-baseline", "03-extensions"):  # the steps with compiled extensions get build.sh
            expected.insert(1, "build.sh")
            assert (out / step / "build.sh").stat().st_mode & 0o111, "build.sh is executable"
        assert sorted(p.name for p in (out / step).iterdir()) == expected
    doc = json.loads((out / "plan.json").read_text())
    assert doc["schema"] == 1 and doc["status"] == "ok"
    assert [s["kind"] for s in doc["steps"]] == ["baseline", "torch", "companions", "extensions"]
    assert doc["steps"][1]["packages"] == {"torch": "2.1.2+cu118"}
    (ext,) = doc["steps"][3]["extensions"]
    assert ext["method"] == "wheel-url" and doc["steps"][3]["build-env"] == {}, "a release with a wheel, no build"
    assert doc["steps"][0]["build-env"]["CAUSAL_CONV1D_FORCE_BUILD"] == "TRUE", "today's 1.0.0 has no wheel"
    assert all(s["reasons"] for s in doc["steps"])


def test_requirements_in_pins_each_package_to_its_index(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    run("upgrade", "--to", "2.1", "--no-lock", "--out", "p", cwd=cwd)
    text = (cwd / "p" / "02-companions" / "requirements.in").read_text()
    assert "torchvision==0.16.2+cu118" in text and "# from: pytorch" in text
    assert "numpy<2" in text and "pytorch = https://download.pytorch.org/whl/cu118" in text
    env = (cwd / "p" / "02-companions" / "environment.yml").read_text()
    assert "pytorch=2.1.2" in env and "pytorch-cuda=11.8" in env and "  - nvidia" in env


def test_plan_md_explains_every_step(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    run("upgrade", "--to", "2.1", "--no-lock", "--out", "p", cwd=cwd)
    md = (cwd / "p" / "PLAN.md").read_text()
    for heading in ("## 00-baseline", "## 01-torch", "## 02-companions", "## 03-extensions"):
        assert heading in md
    assert "operator torchvision::nms does not exist" in md
    assert "https://github.com/pytorch/pytorch/releases/tag/v2.1.2" in md
    assert "export CAUSAL_CONV1D_FORCE_BUILD=TRUE" in md, "today's 1.0.0 (baseline) is built from source"
    assert "causal-conv1d ignores TORCH_CUDA_ARCH_LIST" not in md or "nvcc" in md
    assert "1.4.0 is the nearest later 1.x release known to" in md and "What to test:" in md


def test_json_output(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    result = run("upgrade", "--to", "2.1.0", "--no-lock", "--json", "--out", "p", cwd=cwd)
    doc = json.loads(result.stdout)
    assert doc["status"] == "ok" and doc["out"] == "p" and doc["blockers"] == []
    assert doc["steps"][2]["packages"]["torchvision"] == "0.16.0+cu118"


def test_blocked_plan_exits_1_and_writes_nothing(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path, edit(SEED, "535.104.05", "470.82.01"))
    result = run("upgrade", "--to", "2.8", "--no-lock", "--json", cwd=cwd)
    assert result.returncode == 1
    doc = json.loads(result.stdout)
    assert doc["status"] == "blocked" and doc["steps"] == [] and doc["out"] is None
    assert doc["blockers"][0]["ref"] == "driver-too-old" and "2.7.1+cu118" in doc["blockers"][0]["fix"]
    assert sorted(p.name for p in cwd.iterdir()) == ["envplan.toml"]
    human = run("upgrade", "--to", "2.8", "--no-lock", cwd=cwd)
    assert human.returncode == 1 and "BLOCKED" in human.stdout and "unblock:" in human.stdout


def test_out_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    (cwd / "taken").write_text("keep me")
    result = run("upgrade", "--to", "2.1", "--no-lock", "--out", "taken", cwd=cwd)
    assert result.returncode == 2 and "taken: exists and is not a directory" in result.stderr
    assert (cwd / "taken").read_text() == "keep me"
    assert not [p for p in cwd.iterdir() if p.name.startswith(".taken")]


def test_write_profile_keeps_comments(tmp_path: Path) -> None:
    shutil.copy(ROOT / "profiles" / "a100-train.toml", tmp_path / "a100.toml")
    result = run("upgrade", "a100.toml", "--to", "2.1", "--no-lock", "--write-profile", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "a100.toml").read_text()
    assert "# Ubuntu 20.04" in text and "# nvcc used to build causal-conv1d" in text
    stack = tomlread.loads(text)["stack"]
    assert (stack["torch"], stack["torchvision"], stack["torchaudio"]) == ("2.1.2", "0.16.2", "2.1.2")
    assert run("check", "a100.toml", cwd=tmp_path).returncode == 0


def test_missing_default_profile_is_a_clear_error(tmp_path: Path) -> None:
    result = run("upgrade", "--to", "2.1", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("envplan: error: envplan.toml: no such file")


def test_bad_arguments_exit_2(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    assert run("upgrade", "--to", "2.99", cwd=cwd).returncode == 2
    assert run("upgrade", "--to", "2.1", "--variant", "gpu", cwd=cwd).returncode == 2
    assert run("upgrade", "--to", "2.1", "--python-version", "3", cwd=cwd).returncode == 2
