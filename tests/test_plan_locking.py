"""One truth about locking (#17): a plan written with --no-lock says so in PLAN.md, plan.json, ENVIRONMENT.md and
its noxfile, every command that installs a step refuses it with the one command that fixes it, and PLAN.md and
ENVIRONMENT.md read as a user needs them. (Locking a plan folder for real: tests/integration/test_lock_plan_dir.py.)"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from envplan.core.plan import LockState, Plan
from envplan.core.planner import plan_upgrade, resolve_target
from envplan.profile.model import parse_profile
from envplan.render.planmd import render_plan_md
from envplan.render.verifyfiles import render_environment_md
from helpers import SEED, run

NO_EXTENSIONS = SEED.split("[[extensions]]")[0]


def planned(kb, text: str = SEED, to: str = "2.1") -> Plan:
    return plan_upgrade(parse_profile(text, "p.toml"), resolve_target(to, kb), kb)


def sections(md: str) -> dict[str, str]:
    """Each `## ` heading and the text under it, up to the next heading."""
    parts = re.split(r"^## (.+)$", md, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1].strip() for i in range(1, len(parts), 2)}


@pytest.fixture
def unlocked(tmp_path: Path) -> Path:
    (tmp_path / "envplan.toml").write_text(SEED)
    result = run("upgrade", "--to", "2.1", "--no-lock", "--out", "p", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return (tmp_path / "p").resolve()


def refusal(plan: Path, step: str) -> str:
    return f"envplan: error: {plan}: step {step} is not locked (run `envplan lock {plan}` first)\n"


# PLAN.md


def test_an_unlocked_plan_md_promises_no_hashes_and_no_missing_file(kb) -> None:
    md = render_plan_md(planned(kb))
    assert "carries its hash" not in md and "--require-hashes -r" not in md
    assert not re.search(r"-r \S+/requirements\.txt", md), "an install command for a file that does not exist"
    body = sections(md)["Not locked"]
    assert "written with `--no-lock`" in body and "`envplan lock .`" in body and "`envplan lock PLAN_DIR`" in body
    assert "(backend uv)" in body
    assert md.count("Not locked yet: `envplan lock .` writes `") == 4  # one per step, naming its requirements.txt


def test_a_locked_plan_md_shows_how_to_install_each_step(kb) -> None:
    md = render_plan_md(planned(kb), LockState(locked=True))
    assert "## Not locked" not in md and "Not locked yet" not in md
    assert md.count("every pin carries its hash") == 4
    assert "pip install --require-hashes --no-deps --index-url https://pypi.org/simple --extra-index-url " in md
    assert "-r 01-torch/requirements.txt" in md and "PYTHON=python bash 03-extensions/build.sh" in md


@pytest.mark.parametrize("locked", [True, False])
def test_plan_md_says_where_to_run_with_which_python_and_verify(kb, locked: bool) -> None:
    md = render_plan_md(planned(kb), LockState(locked=locked))
    where = sections(md)["Where to run it"]
    assert "inside this plan folder" in where and "Python 3.10" in where and "`uv venv --python 3.10`" in where
    assert "`envplan verify .`" in where and "it needs Python 3.10 on this machine" in where


def test_plan_md_names_each_index_one_way(kb) -> None:
    md = render_plan_md(planned(kb), LockState(locked=True))
    assert "the pypi index" not in md and "the pytorch index" not in md
    assert "`torch==2.1.2+cu118` from the PyTorch index" in md and "`numpy<2` from PyPI" in md


def test_plan_md_promises_only_the_steps_the_plan_has(kb) -> None:
    without = render_plan_md(planned(kb, NO_EXTENSIONS))
    assert "extension" not in without.split("|")[0]  # the summary, above the table
    assert "Torch moves first, then its companions, so a failure points at exactly one change." in without
    full = render_plan_md(planned(kb))
    assert "Torch moves first, then its companions, then the compiled extensions" in full


def test_plan_md_has_no_empty_section(kb) -> None:
    current = planned(kb, to="2.0.1")  # already at target: no release notes to read
    for plan in (planned(kb), current):
        for locked in (True, False):
            md = render_plan_md(plan, LockState(locked=locked))
            assert all(body for body in sections(md).values()), md
    assert "Release notes" not in render_plan_md(current)


# ENVIRONMENT.md


def test_environment_md_lists_the_locked_versions_after_a_lock(kb) -> None:
    plan = planned(kb)
    step = plan.steps[1]
    pins = ("filelock==3.13.1", "numpy==1.26.4", "torch==2.1.2+cu118")
    md = render_environment_md(step, plan, pins=pins)
    body = sections(md)["Versions (from the lock: 3 packages)"]
    assert body.splitlines() == ["- filelock==3.13.1", "- numpy==1.26.4", "- torch==2.1.2+cu118"]
    unlocked = render_environment_md(step, plan)
    head = "Versions (asked for: not locked yet, `envplan lock PLAN_DIR` pins every package)"
    assert sections(unlocked)[head].splitlines() == ["- torch 2.1.2+cu118", "- numpy<2"]


def test_environment_md_leaves_out_empty_observations(kb) -> None:
    plan = planned(kb)
    md = render_environment_md(plan.steps[1], plan, {"torch": "2.1.2+cu118", "env": {}, "devices": []})
    assert sections(md)["Observed by `envplan verify`"] == "- torch: 2.1.2+cu118"


def test_the_verifier_records_no_empty_env(monkeypatch: pytest.MonkeyPatch) -> None:
    from envplan.verify.inenv import observe

    for name in ("CUDA_HOME", "LD_LIBRARY_PATH", "TORCH_CUDA_ARCH_LIST"):
        monkeypatch.delenv(name, raising=False)
    assert "env" not in observe()
    monkeypatch.setenv("CUDA_HOME", "/usr/local/cuda")
    assert observe()["env"] == {"CUDA_HOME": "/usr/local/cuda"}


# plan.json and the plan folder


def test_an_unlocked_plan_records_it_and_keeps_its_profile(unlocked: Path) -> None:
    doc = json.loads((unlocked / "plan.json").read_text())
    assert doc["lock"] == {"locked": False, "backend": "uv", "conda": None, "python": None}
    assert doc["planned-with"] == {"to": "2.1.2", "variant": None, "python-version": None, "via-minors": False}
    assert [s["locked"] for s in doc["steps"]] == [False] * 4
    assert (unlocked / "source-profile.toml").read_text() == SEED
    assert "## Versions (asked for: not locked yet" in (unlocked / "01-torch" / "ENVIRONMENT.md").read_text()


def test_the_lock_options_asked_are_recorded_for_later(tmp_path: Path) -> None:
    (tmp_path / "envplan.toml").write_text(SEED)
    args = ("--no-lock", "--backend", "pip-tools", "--lock-python", "/usr/bin/python3", "--conda", "--out", "p")
    assert run("upgrade", "--to", "2.1", *args, cwd=tmp_path).returncode == 0
    doc = json.loads((tmp_path / "p" / "plan.json").read_text())
    assert doc["lock"] == {"locked": False, "backend": "pip-tools", "conda": "rattler", "python": "/usr/bin/python3"}
    assert "(backend pip-tools, conda (rattler))" in (tmp_path / "p" / "PLAN.md").read_text()


# refusals: exit 2 and one line that says what to run


def test_verify_refuses_an_unlocked_plan(unlocked: Path) -> None:
    result = run("verify", str(unlocked))
    assert (result.returncode, result.stderr) == (2, refusal(unlocked, "00-baseline"))
    step = run("verify", str(unlocked), "--step", "02-companions")
    assert (step.returncode, step.stderr) == (2, refusal(unlocked, "02-companions"))
    assert not (unlocked / "verify-report.json").exists()


@pytest.mark.parametrize(
    ("argv", "step"),
    [
        (["export", "docker"], "00-baseline"),
        (["export", "docker", "--step", "01-torch"], "01-torch"),
        (["export", "uv", "--step", "01-torch", "-o", "uvproj"], "01-torch"),
        (["export", "uv", "--step", "01-torch", "-o", "uvproj", "--no-lock"], "01-torch"),
        (["export", "wheelhouse", "--step", "02-companions", "-o", "wh"], "02-companions"),
        (["export", "ci", "--github", "-o", "wf.yml"], "00-baseline"),
    ],
)
def test_exports_refuse_an_unlocked_step(unlocked: Path, argv: list[str], step: str) -> None:
    result = run(*argv[:2], str(unlocked), *argv[2:], cwd=unlocked.parent)
    assert (result.returncode, result.stderr) == (2, refusal(unlocked, step))
    assert not list(unlocked.glob("*/Dockerfile")) and not (unlocked.parent / "uvproj").exists()
    assert not (unlocked.parent / "wh").exists() and not (unlocked.parent / "wf.yml").exists()


def test_a_step_whose_lock_went_missing_is_refused_too(unlocked: Path) -> None:
    doc = json.loads((unlocked / "plan.json").read_text())
    for step in doc["steps"]:
        step["locked"] = True
    (unlocked / "plan.json").write_text(json.dumps(doc))
    result = run("export", "docker", str(unlocked), "--step", "01-torch")
    assert (result.returncode, result.stderr) == (2, refusal(unlocked, "01-torch"))


def test_the_plans_noxfile_refuses_an_unlocked_step_before_making_an_environment(unlocked: Path) -> None:
    nox = [sys.executable, "-m", "nox", "-f", str(unlocked / "noxfile.py"), "-s", "01-torch"]
    result = subprocess.run(nox, capture_output=True, text=True, check=False, timeout=120)
    out = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"Session 01-torch aborted: step 01-torch is not locked: run `envplan lock {unlocked}` first" in out
    assert "interpreter" not in out and not (unlocked / ".nox").exists()


def test_upgrade_says_how_to_lock_later(tmp_path: Path) -> None:
    (tmp_path / "envplan.toml").write_text(SEED)
    result = run("upgrade", "--to", "2.1", "--no-lock", "--out", "p", cwd=tmp_path)
    assert "not locked (--no-lock): lock it later with `envplan lock p`" in result.stdout


# envplan lock PLAN_DIR: what it refuses before resolving anything


@pytest.mark.parametrize("flag", [["--out", "L"], ["--force"]])
def test_lock_plan_dir_refuses_profile_only_flags(unlocked: Path, flag: list[str]) -> None:
    result = run("lock", str(unlocked), *flag)
    expected = f"envplan: error: {flag[0]}: not for a plan folder, which is locked in place (drop {flag[0]})\n"
    assert (result.returncode, result.stderr) == (2, expected)


def test_lock_plan_dir_refuses_a_plan_that_does_not_keep_its_profile(unlocked: Path) -> None:
    (unlocked / "source-profile.toml").unlink()
    result = run("lock", str(unlocked))
    assert result.returncode == 2
    assert result.stderr == (
        f"envplan: error: {unlocked}: the plan does not keep what it was planned from (plan.json planned-with, "
        "source-profile.toml): written by an older envplan (write it again with `envplan upgrade PROFILE --to "
        "VERSION`, which locks it)\n"
    )


def test_lock_plan_dir_refuses_a_plan_that_no_longer_plans_the_same(unlocked: Path) -> None:
    doc = json.loads((unlocked / "plan.json").read_text())
    doc["steps"][2]["requirements"] = ["numpy<3"]
    (unlocked / "plan.json").write_text(json.dumps(doc))
    result = run("lock", str(unlocked), "--check")
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"envplan: error: {unlocked}: planned again from source-profile.toml, the plan differs from plan.json "
        "(02-companions): the KB or envplan changed since it was written (write it again: envplan upgrade "
    )
    assert not (unlocked / "02-companions" / "requirements.txt").exists()


def test_a_profile_is_still_locked_as_before(tmp_path: Path) -> None:
    """A folder that is not a plan is not taken for one: `lock DIR` still reads DIR as a profile (and says so)."""
    (tmp_path / "d").mkdir()
    result = run("lock", "d", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.startswith("envplan: error: d: ")
    assert "is a folder, not a profile" in result.stderr
