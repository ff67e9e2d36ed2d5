"""`upgrade --no-lock`, then `envplan lock PLAN_DIR` with the real uv against the fake indexes: the plan ends up
locked exactly as `upgrade` would have locked it, and every file says so."""

from __future__ import annotations

import json
from pathlib import Path

from envplan.resolve.reqparse import parse_requirements
from helpers import run
from locksupport import profile_text

STEPS = ["00-baseline", "01-torch", "02-companions"]


def unlocked_plan(tmp_path: Path, file_urls: tuple[str, str]) -> Path:
    (tmp_path / "envplan.toml").write_text(
        profile_text(file_urls, torch="2.0.1", vision="0.15.2", packages=("numpy<2", "timm"))
    )
    result = run("upgrade", "--to", "2.1", "--out", "p", "--no-lock", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "lock it later with `envplan lock p`" in result.stdout
    return tmp_path / "p"


def test_a_no_lock_plan_is_locked_in_place_and_says_so(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    plan = unlocked_plan(tmp_path, file_urls)
    assert not any((plan / s / "requirements.txt").exists() for s in STEPS)
    stale = run("lock", "p", "--check", "--json", cwd=tmp_path)
    assert stale.returncode == 1, stale.stderr
    assert [o["status"] for o in json.loads(stale.stdout)["locks"]] == ["stale"] * 3

    locked = run("lock", "p", "--json", cwd=tmp_path)
    assert locked.returncode == 0, locked.stderr
    doc = json.loads(locked.stdout)
    assert doc["schema"] == 1 and doc["locked"] is True and doc["backend"] == "uv"
    assert [o["status"] for o in doc["locks"]] == ["locked"] * 3

    companions = {
        p.name: p.version for p in parse_requirements((plan / "02-companions" / "requirements.txt").read_text())
    }
    assert companions["torchvision"] == "0.16.2+cu118" and "timm" in companions
    assert all((plan / s / name).is_file() for s in STEPS for name in ("pylock.toml", "lock.json"))

    plan_json = json.loads((plan / "plan.json").read_text())
    assert plan_json["lock"]["locked"] is True and [s["locked"] for s in plan_json["steps"]] == [True] * 3
    md = (plan / "PLAN.md").read_text()
    assert "## Not locked" not in md and "Not locked yet" not in md
    assert "-r 02-companions/requirements.txt" in md and "`envplan verify .`" in md
    record = (plan / "02-companions" / "ENVIRONMENT.md").read_text()
    assert f"- torchvision=={companions['torchvision']}" in record and f"- timm=={companions['timm']}" in record

    fresh = run("lock", "p", "--check", cwd=tmp_path)
    assert fresh.returncode == 0, fresh.stderr
    assert fresh.stdout.count("up to date (inputs unchanged, nothing resolved)") == 3


def test_a_locked_plan_checks_fresh_as_upgrade_wrote_it(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    """`upgrade` and `lock PLAN_DIR` record the same inputs: a plan upgrade locked is fresh for lock --check."""
    (tmp_path / "envplan.toml").write_text(profile_text(file_urls, torch="2.0.1", vision="0.15.2"))
    assert run("upgrade", "--to", "2.1", "--out", "p", cwd=tmp_path).returncode == 0
    check = run("lock", "p", "--check", "--json", cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    assert [o["status"] for o in json.loads(check.stdout)["locks"]] == ["fresh"] * 3
