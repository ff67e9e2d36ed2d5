"""verify finds the Python a plan was resolved for (uv, PATH, `py -X.Y`) by running each candidate, and says
in one line which Python, why and how to get it when there is none. Interpreters here are stub scripts that
print what a real one prints for the probe (its executable, then X.Y[t])."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from envplan.verify.pythonfind import find_python, missing_python

pytestmark = pytest.mark.skipif(os.name == "nt", reason="stub interpreters are POSIX shell scripts")


def stub(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def interpreter(folder: Path, name: str, version: str) -> Path:
    """A stub that answers the probe like a Python `version` (and nothing else)."""
    return stub(folder, name, f'[ "$1" = "-c" ] || exit 3\necho "$0"\necho {version}')


def test_python_x_y_on_path_is_found_and_confirmed(tmp_path: Path) -> None:
    exe = interpreter(tmp_path / "bin", "python3.12", "3.12")
    assert find_python("3.12", path=str(tmp_path / "bin"), windows=False) == str(exe)


def test_a_shim_that_does_not_run_is_skipped_for_the_next_on_path(tmp_path: Path) -> None:
    stub(tmp_path / "shims", "python3.12", "echo 'pyenv: python3.12: command not found' >&2\nexit 127")
    real = interpreter(tmp_path / "real", "python3.12", "3.12")
    path = os.pathsep.join([str(tmp_path / "shims"), str(tmp_path / "real")])
    assert find_python("3.12", path=path, windows=False) == str(real)


def test_a_name_that_lies_about_its_version_is_not_taken(tmp_path: Path) -> None:
    interpreter(tmp_path / "bin", "python3.12", "3.11")
    assert find_python("3.12", path=str(tmp_path / "bin"), windows=False) is None


def test_free_threaded_is_its_own_python(tmp_path: Path) -> None:
    interpreter(tmp_path / "bin", "python3.13", "3.13")
    assert find_python("3.13t", path=str(tmp_path / "bin"), windows=False) is None
    exe = interpreter(tmp_path / "bin", "python3.13t", "3.13t")
    assert find_python("3.13t", path=str(tmp_path / "bin"), windows=False) == str(exe)


def test_uv_managed_python_comes_first_and_uv_never_downloads(tmp_path: Path) -> None:
    managed = interpreter(tmp_path / "uv-pythons", "python", "3.12")
    on_path = interpreter(tmp_path / "bin", "python3.12", "3.12")
    uv = stub(
        tmp_path / "tools",
        "uv",
        f'[ "$1 $2 $3" = "python find 3.12" ] && [ "$UV_PYTHON_DOWNLOADS" = never ] && echo {managed} || exit 2',
    )
    assert find_python("3.12", path=str(tmp_path / "bin"), uv=str(uv), windows=False) == str(managed)
    assert find_python("3.11", path=str(tmp_path / "bin"), uv=str(uv), windows=False) is None
    assert on_path.exists()


def test_the_windows_launcher_is_asked_for_the_version(tmp_path: Path) -> None:
    target = interpreter(tmp_path / "py312", "python", "3.12")
    stub(tmp_path / "bin", "py", f'[ "$1" = "-3.12" ] || exit 103\nshift\nexec {target} "$@"')
    assert find_python("3.12", path=str(tmp_path / "bin"), windows=True) == str(target)
    assert find_python("3.12", path=str(tmp_path / "bin"), windows=False) is None
    assert find_python("3.10", path=str(tmp_path / "bin"), windows=True) is None


def test_an_empty_path_finds_nothing(tmp_path: Path) -> None:
    assert find_python("3.12", path=str(tmp_path / "nothing"), windows=False) is None


def test_the_missing_python_line_says_which_why_and_how() -> None:
    error = missing_python("3.12", "plan-2.5.1-to-2.6.0", windows=False)
    assert error.exit_code == 2
    assert error.lines() == [
        "plan-2.5.1-to-2.6.0: Python 3.12 not found (uv python find 3.12, python3.12 on PATH): the plan's steps "
        "were resolved for Python 3.12, so their environments are built with it (install it with "
        "`uv python install 3.12` or the OS package python3.12, then run envplan verify again)"
    ]
    windows = missing_python("3.13t", "plan", windows=True)
    assert "(uv python find 3.13t, python3.13t on PATH, py -3.13t)" in windows.lines()[0]
    assert "`uv python install 3.13t`" in windows.lines()[0]
