"""`envplan verify` runs the plan's real nox sessions in order and stops at the first failing step."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from helpers import run

_THIS = f"{sys.version_info[0]}.{sys.version_info[1]}"  # found by verify as a user's Python would be

_NOXFILE = """
import nox
from pathlib import Path

HERE = Path(__file__).resolve().parent

def _session(name, ok):
    @nox.session(name=name, python=False)
    def step(session):
        (HERE / f"ran-{name}").write_text("x")
        if not ok:
            session.error(f"{name} fails")
    return step

for _name, _ok in [("00-baseline", True), ("01-torch", False), ("02-companions", True), ("03-extensions", True)]:
    _session(_name, _ok)
"""


def test_verify_stops_at_the_first_failing_step(tmp_path: Path) -> None:
    plan = tmp_path / "plan"
    plan.mkdir()
    names = ["00-baseline", "01-torch", "02-companions", "03-extensions"]
    (plan / "plan.json").write_text(json.dumps({"schema": 1, "status": "ok", "steps": [{"name": n} for n in names]}))
    (plan / "noxfile.py").write_text(_NOXFILE)
    for name in names:
        (plan / name).mkdir()
        (plan / name / "requirements.txt").write_text("")  # a plan.json without "locked": its locks are there
    result = run("verify", "plan", "--json", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    steps = json.loads(result.stdout)["steps"]
    assert [(s["name"], s["result"]) for s in steps] == [
        ("00-baseline", "passed"),
        ("01-torch", "failed"),
        ("02-companions", "not run"),
        ("03-extensions", "not run"),
    ]
    assert sorted(p.name for p in plan.glob("ran-*")) == ["ran-00-baseline", "ran-01-torch"]


def _plan(tmp_path: Path, python: str, noxfile: str) -> Path:
    plan = tmp_path / "plan"
    plan.mkdir()
    doc = {"schema": 1, "status": "ok", "steps": [{"name": "00-baseline", "python": python}]}
    (plan / "plan.json").write_text(json.dumps(doc))
    (plan / "noxfile.py").write_text(noxfile)
    (plan / "00-baseline").mkdir()
    (plan / "00-baseline" / "requirements.txt").write_text("")  # a plan.json without "locked": its lock is there
    return plan


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "ENVPLAN_VERIFY_ENVS": str(tmp_path / "envs")}


_VENV_NOXFILE = """
import nox
from pathlib import Path

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.error_on_missing_interpreters = True

@nox.session(name="00-baseline", python={python!r})
def step(session):
    session.run("python", "-c", "import sys; open({marker!r}, 'w').write(sys.prefix)")
    {tail}
"""


def test_a_python_the_machine_lacks_is_said_in_one_line_before_anything_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    _plan(tmp_path, "3.99", _VENV_NOXFILE.format(python="3.99", marker=str(marker), tail="pass"))
    result = run("verify", "plan", cwd=tmp_path, env=_env(tmp_path))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"envplan: error: {tmp_path / 'plan'}: Python 3.99 not found (uv python find 3.99, python3.99 on PATH): "
        "the plan's steps were resolved for Python 3.99, so their environments are built with it (install it with "
        "`uv python install 3.99` or the OS package python3.99, then run envplan verify again)"
    ]
    assert result.stdout == "" and not marker.exists() and not (tmp_path / "envs").exists()


def test_a_passing_step_runs_in_the_found_python_and_its_environment_is_removed(tmp_path: Path) -> None:
    marker = tmp_path / "prefix"
    _plan(tmp_path, _THIS, _VENV_NOXFILE.format(python=_THIS, marker=str(marker), tail="pass"))
    result = run("verify", "plan", "--json", cwd=tmp_path, env=_env(tmp_path))
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    root = Path(doc["environments"]["path"])
    assert root.parent == tmp_path / "envs" and root.name.startswith("plan-")
    assert Path(marker.read_text()).is_relative_to(root / "00-baseline"), "the session ran in the cache, not .nox"
    assert doc["environments"] == {"path": str(root), "kept": [], "bytes": 0}
    assert not root.exists() and not (tmp_path / "plan" / ".nox").exists()
    shown = run("verify", "plan", cwd=tmp_path, env=_env(tmp_path))
    assert shown.stdout.splitlines()[-1] == (
        f"step environments: removed once each step passed (built under {root}; --keep-envs keeps them)"
    )


def test_keep_envs_keeps_them_and_says_where_and_how_big(tmp_path: Path) -> None:
    _plan(tmp_path, _THIS, _VENV_NOXFILE.format(python=_THIS, marker=str(tmp_path / "m"), tail="pass"))
    result = run("verify", "plan", "--keep-envs", cwd=tmp_path, env=_env(tmp_path))
    assert result.returncode == 0, result.stderr
    (root,) = (tmp_path / "envs").iterdir()
    assert (root / "00-baseline").is_dir()
    last = result.stdout.splitlines()[-1]
    assert last.startswith("step environments: ") and last.endswith(
        f" in {root} (00-baseline; --keep-envs); remove them with `rm -rf {root}`"
    )
    assert " MB in " in last or " kB in " in last


def test_a_failed_steps_environment_is_kept_to_look_into(tmp_path: Path) -> None:
    tail = 'session.error("boom")'
    _plan(tmp_path, _THIS, _VENV_NOXFILE.format(python=_THIS, marker=str(tmp_path / "m"), tail=tail))
    result = run("verify", "plan", "--json", cwd=tmp_path, env=_env(tmp_path))
    assert result.returncode == 1
    envs = json.loads(result.stdout)["environments"]
    assert envs["kept"] == ["00-baseline"] and envs["bytes"] > 0
    assert (Path(envs["path"]) / "00-baseline").is_dir()
