"""The one writer: all of a tree or none of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from envplan.errors import EnvplanError
from envplan.write import MARKER, write_file, write_tree


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file but the marker envplan adds to each tree it writes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file() and p.name != MARKER}


def test_new_tree(tmp_path: Path) -> None:
    write_tree(tmp_path / "plan", {"PLAN.md": "x", "01-torch/requirements.in": "torch==2.1.2\n"})
    assert snapshot(tmp_path / "plan") == {"PLAN.md": b"x", "01-torch/requirements.in": b"torch==2.1.2\n"}
    assert (tmp_path / "plan" / MARKER).is_file(), "marked as envplan's, so the next run may replace it"


def test_replacing_a_tree_removes_files_of_the_old_one(tmp_path: Path) -> None:
    write_tree(tmp_path / "plan", {"a": "1", "old/b": "2"})
    write_tree(tmp_path / "plan", {"a": "3"})
    assert snapshot(tmp_path / "plan") == {"a": b"3"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan"]


def test_a_failure_midway_leaves_the_old_tree_untouched(tmp_path: Path) -> None:
    write_tree(tmp_path / "plan", {"PLAN.md": "old plan"})
    with pytest.raises(EnvplanError) as info:
        write_tree(tmp_path / "plan", {"PLAN.md": "new plan", "x" * 300: "name too long"})
    assert info.value.ref == "write-failed" and info.value.exit_code == 1
    assert snapshot(tmp_path / "plan") == {"PLAN.md": b"old plan"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan"], "no staging directory left behind"


def test_a_failure_on_a_new_tree_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(EnvplanError):
        write_tree(tmp_path / "plan", {"a": "1", "b" * 300: "2"})
    assert list(tmp_path.iterdir()) == []


def test_write_file_is_atomic(tmp_path: Path) -> None:
    target = tmp_path / "profile.toml"
    target.write_text("old")
    write_file(target, "new")
    assert target.read_text() == "new" and sorted(p.name for p in tmp_path.iterdir()) == ["profile.toml"]
