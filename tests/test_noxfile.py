"""The plan's noxfile: one session per step (golden), and profile values never become code."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from envplan import tomlread
from envplan.core.planner import plan_upgrade, resolve_target
from envplan.errors import ProfileError
from envplan.profile.model import parse_profile
from envplan.render.planfiles import plan_files
from envplan.write import write_tree
from helpers import SEED, edit

GOLDEN = [
    "* 00-baseline -> baseline: torch 2.0.1+cu118, torchvision 0.15.2+cu118, torchaudio 2.0.2+cu118",
    "* 01-torch -> torch: torch 2.1.2+cu118",
    "* 02-companions -> companions: torch 2.1.2+cu118, torchvision 0.16.2+cu118, torchaudio 2.1.2+cu118",
    "* 03-extensions -> extensions: torch 2.1.2+cu118, torchvision 0.16.2+cu118, torchaudio 2.1.2+cu118",
]


def written_plan(kb, tmp_path: Path, text: str = SEED, name: str = "") -> Path:
    profile = parse_profile(text, "p.toml")
    plan = plan_upgrade(profile, resolve_target("2.1", kb), kb)
    if name:  # the loader refuses such names; the renderers must keep them data all the same
        plan = replace(plan, profile_name=name)
    write_tree(tmp_path / "plan", plan_files(plan, kb, text))
    return tmp_path / "plan"


def nox_list(folder: Path) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-m", "nox", "-f", str(folder / "noxfile.py"), "-l"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line for line in out.splitlines() if line.startswith("* ")]


def test_four_step_plan_lists_one_session_per_step(kb, tmp_path: Path) -> None:
    assert nox_list(written_plan(kb, tmp_path)) == GOLDEN


def test_each_step_has_its_expectations(kb, tmp_path: Path) -> None:
    folder = written_plan(kb, tmp_path)
    expect = json.loads((folder / "03-extensions" / "expect.json").read_text())
    assert expect["torch"] == "2.1.2+cu118" and expect["cuda"] == "11.8" and expect["cxx11_abi"] is False
    assert expect["extensions"] == [{"name": "causal-conv1d", "import": "causal_conv1d", "smoke": "causal-conv1d"}]
    assert (folder / "envplan_verify.py").read_text().startswith('"""Prove one plan step')


def test_hostile_profile_values_stay_data(kb, tmp_path: Path) -> None:
    hostile = 'x\\"\\"\\" + __import__(\'os\').system(\'touch pwned\') + \\"\\"\\" \\\\'
    with pytest.raises(ProfileError):
        parse_profile(edit(SEED, 'name = "a100-train"', f'name = "{hostile}"'), "p.toml")
    folder = written_plan(kb, tmp_path, name=tomlread.loads(f'name = "{hostile}"')["name"])
    source = (folder / "noxfile.py").read_text()
    tree = ast.parse(source)
    title = next(n.value.value for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "TITLE")
    assert "__import__('os')" in title, "the name is inside a string literal"
    assert nox_list(folder) == GOLDEN
    assert not (folder / "pwned").exists() and not Path("pwned").exists()
