"""`upgrade` and `lock` on a terminal: a line per lock while it resolves (naming the resolver), then how many
steps are locked; with --json, nothing but the JSON. The real uv against the fake indexes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from helpers import on_a_terminal
from locksupport import profile_text

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def test_upgrade_shows_each_step_locking_then_locked(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    (tmp_path / "envplan.toml").write_text(
        profile_text(file_urls, variant="cpu", python="3.11", torch="2.0.1", vision="0.15.2")
    )
    stdout, drawn, code = on_a_terminal(["upgrade", "--to", "2.1.2", "--out", "plan"], tmp_path)
    assert code == 0, stdout
    assert "locking 01-torch with uv" in drawn
    assert "locked 3 (" in drawn and "02-companions" in drawn and "locked none yet" in drawn
    assert "locking" not in stdout and "plan written to plan/" in stdout


def test_lock_with_json_draws_nothing(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    (tmp_path / "envplan.toml").write_text(
        profile_text(file_urls, variant="cpu", python="3.11", torch="2.0.1", vision="0.15.2")
    )
    stdout, drawn, code = on_a_terminal(["lock", "--json"], tmp_path)
    assert code == 0, stdout
    assert json.loads(stdout)["locks"][0]["status"] == "locked"
    assert drawn == ""
