"""The verification plumbing on fake wheels: the real nox session installs a step's hashed lock from the fake
indexes and runs envplan_verify.py; the version checks see the companions (a fake torch has no ops, so the
op checks fail, which the report says)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import run
from locksupport import profile_text


def test_version_checks_run_in_the_step_environment(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    (tmp_path / "envplan.toml").write_text(
        profile_text(file_urls, variant="cpu", python="3.11", torch="2.0.1", vision="0.15.2")
    )
    assert run("upgrade", "--to", "2.1.2", "--out", "plan", cwd=tmp_path).returncode == 0
    expect_path = tmp_path / "plan" / "02-companions" / "expect.json"
    expect = json.loads(expect_path.read_text())
    assert (expect["torch"], expect["torchvision"]) == ("2.1.2+cpu", "0.16.2+cpu")
    expect["torchvision"] = "0.16.1+cpu"
    expect_path.write_text(json.dumps(expect))
    result = run("verify", "plan", "--step", "02-companions", "--json", cwd=tmp_path)
    assert result.returncode == 1
    (step,) = json.loads(result.stdout)["steps"]
    checks = {
        r["check"]: r for r in json.loads((tmp_path / "plan" / "02-companions" / "verify.json").read_text())["results"]
    }
    assert checks["torch version"] == {"check": "torch version", "status": "ok", "detail": "2.1.2+cpu"}
    assert checks["torchvision version"]["status"] == "FAILED"
    assert checks["torchvision version"]["detail"].startswith(
        "torchvision.__version__: expected 0.16.1+cpu, found 0.16.2+cpu"
    )
    assert checks["matmul"]["status"] == "FAILED", "a fake torch has no ops: the op check must not pass"
    assert any("torchvision.__version__" in f for f in step["failed"])
