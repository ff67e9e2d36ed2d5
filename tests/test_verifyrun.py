"""`envplan verify` runs the plan's real nox sessions in order and stops at the first failing step."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import run

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
