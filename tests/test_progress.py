"""Progress is drawn on a terminal's stderr and nowhere else: nothing with --json (quiet) or when stderr is a
pipe or a file, and never on stdout. A rich Console with force_terminal stands in for a terminal."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from rich.console import Console

from envplan.render.console import envs_line
from envplan.render.progress import downloads, live_console, lock_progress, spinner, step_bar
from envplan.verify.runner import Envs
from envplan.verify.status import SessionStatus, disk_usage, follow_line
from helpers import on_a_terminal, run


def terminal() -> Console:
    return Console(file=io.StringIO(), force_terminal=True, width=120, color_system=None)


def pipe() -> Console:
    return Console(file=io.StringIO(), width=120)


def written(console: Console) -> str:
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def test_a_terminal_is_live_a_pipe_or_json_is_quiet() -> None:
    assert live_console(False, terminal()) is not None
    assert live_console(False, pipe()) is None
    assert live_console(True, terminal()) is None


def test_the_spinner_says_what_is_happening_on_a_terminal() -> None:
    console = terminal()
    with spinner("probing /usr/bin/python3 (torch, CUDA, GPUs, driver)", quiet=False, console=console) as status:
        status.update("checking that the compiled extensions load")
    assert "probing /usr/bin/python3 (torch, CUDA, GPUs, driver)" in written(console)
    assert "checking that the compiled extensions load" in written(console)


def test_every_helper_is_silent_with_json_and_on_a_pipe() -> None:
    for quiet, console in ((True, terminal()), (False, pipe())):
        with spinner("probing", quiet=quiet, console=console) as status:
            status.update("still probing")
        with step_bar("verifying", 2, quiet=quiet, console=console) as bar:
            bar.start("00-baseline")
            bar.status("installing")
            bar.advance()
        with lock_progress(quiet, how="with uv", console=console) as report:
            assert report is None
        with downloads(quiet, console=console) as fetched:
            assert fetched is None
        assert written(console) == ""


def test_the_step_bar_names_the_step_its_phase_and_the_count() -> None:
    console = terminal()
    with step_bar("verifying", 3, quiet=False, console=console) as bar:
        bar.start("00-baseline")
        bar.advance()
        bar.start("01-torch")
        bar.status("installing the lock (downloads the wheels the first time)")
    out = written(console)
    assert "verifying 01-torch: installing the lock (downloads the wheels the first time)" in out
    assert "1/3" in out


def test_lock_progress_shows_each_lock_running_then_how_many_are_locked() -> None:
    console = terminal()
    with lock_progress(False, how="with pip-compile (can take minutes)", console=console) as report:
        assert report is not None
        report("00-baseline", "fresh")
        report("01-torch", "start")
        report("01-torch", "done")
    out = written(console)
    assert "locked 2 (00-baseline, 01-torch)" in out


def test_lock_progress_names_the_running_lock_and_its_tool() -> None:
    console = terminal()
    with lock_progress(False, how="with pip-compile (can take minutes)", console=console) as report:
        assert report is not None
        report("01-torch", "start")
    assert "locking 01-torch with pip-compile (can take minutes)" in written(console)


def test_downloads_show_the_wheel_count_and_bytes() -> None:
    console = terminal()
    with downloads(False, console=console) as report:
        assert report is not None
        report("a-1.0-py3-none-any.whl", 1_000_000, 1_000_000)
        report("torch-2.6.0-cp312-cp312-linux_x86_64.whl", 500_000_000, 800_000_000)
    out = written(console)
    assert "wheel 2: torch-2.6.0-cp312-cp312-linux_x86_64.whl" in out
    assert "500.0/800.0 MB" in out


def test_nox_output_becomes_the_status_line() -> None:
    seen: list[str] = []

    class Bar:
        def status(self, text: str) -> None:
            seen.append(text)

    lines = [
        "nox > Running session 01-torch",
        "nox > Creating virtual environment (uv) using python3.12 in /c/01-torch/01-torch",
        "nox > uv pip install --require-hashes --no-deps --index-url https://pypi.org/simple -r r.txt",
        "nox > uv pip install --index-url https://pypi.org/simple pip setuptools wheel ninja",
        "nox > bash /p/01-torch/build.sh",
        "nox > python /p/envplan_verify.py /p/01-torch/expect.json --report /p/01-torch/verify.json",
        "verifying 01-torch in /c/01-torch/bin/python",
        "     ok  torch version: 2.6.0+cu124",
        " FAILED  matmul: boom",
        "Downloading torch",
    ]
    for line in lines:
        follow_line(Bar(), line)
    assert seen == [
        "creating the environment",
        "installing the lock (downloads the wheels the first time)",
        "installing build tools",
        "building the compiled extensions",
        "running the checks",
        "checked torch version: 2.6.0+cu124",
        "checked matmul: boom",
    ]


def test_the_last_line_of_verify_says_where_the_environments_are_and_their_size(tmp_path: Path) -> None:
    root = tmp_path / "plan-abc"
    gone = Envs(path=root, kept=(), size=0)
    assert envs_line(gone, keep=False) == (
        f"step environments: removed once each step passed (built under {root}; --keep-envs keeps them)"
    )
    kept = Envs(path=root, kept=("00-baseline", "01-torch"), size=2_400_000_000)
    assert envs_line(kept, keep=True) == (
        f"step environments: 2.4 GB in {root} (00-baseline, 01-torch; --keep-envs); remove them with `rm -rf {root}`"
    )
    failed = Envs(path=root, kept=("01-torch",), size=350_000_000)
    assert envs_line(failed, keep=False) == (
        f"step environments: 350.0 MB in {root} (01-torch; a failed step's environment is kept to look into); "
        f"remove them with `rm -rf {root}`"
    )


def test_disk_usage_counts_a_hard_linked_file_once(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"x" * 1000)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b").hardlink_to(tmp_path / "a")
    (tmp_path / "c").write_bytes(b"y" * 24)
    assert disk_usage(tmp_path) == 1024


def test_verify_on_a_pipe_prints_no_progress(tmp_path: Path) -> None:
    plan = tmp_path / "plan"
    plan.mkdir()
    (plan / "plan.json").write_text(json.dumps({"schema": 1, "status": "ok", "steps": [{"name": "00-baseline"}]}))
    (plan / "noxfile.py").write_text(
        "import nox\n@nox.session(name='00-baseline', python=False)\ndef s(session):\n    print('hello')\n"
    )
    (plan / "00-baseline").mkdir()
    (plan / "00-baseline" / "requirements.txt").write_text("")  # a plan.json without "locked": its lock is there
    result = run("verify", "plan", cwd=tmp_path, env=_env(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and "\x1b" not in result.stdout
    assert "verifying 00-baseline" not in result.stdout


def _env(tmp_path: Path) -> dict[str, str]:
    import os

    return {**os.environ, "ENVPLAN_VERIFY_ENVS": str(tmp_path / "envs")}


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_verify_on_a_terminal_shows_the_step_on_stderr_and_keeps_stdout_clean(tmp_path: Path) -> None:
    plan = tmp_path / "plan"
    plan.mkdir()
    (plan / "plan.json").write_text(json.dumps({"schema": 1, "status": "ok", "steps": [{"name": "00-baseline"}]}))
    (plan / "noxfile.py").write_text(
        "import nox, time\n@nox.session(name='00-baseline', python=False)\ndef s(session):\n    time.sleep(1)\n"
    )
    (plan / "00-baseline").mkdir()
    (plan / "00-baseline" / "requirements.txt").write_text("")  # a plan.json without "locked": its lock is there
    stdout, drawn, _ = on_a_terminal(["verify", "plan", "--json"], tmp_path, _env(tmp_path))
    assert json.loads(stdout)["steps"][0]["result"] == "passed", "stdout is the JSON alone"
    assert drawn == "", "--json draws nothing, even on a terminal"
    stdout, drawn, _ = on_a_terminal(["verify", "plan"], tmp_path, _env(tmp_path))
    assert "verifying 00-baseline" in drawn and "0/1" in drawn
    assert "\x1b" not in stdout and "verifying 00-baseline" not in stdout
    assert "passed" in stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_doctor_on_a_terminal_names_the_interpreter_it_probes(tmp_path: Path) -> None:
    stdout, drawn, code = on_a_terminal(["doctor", "--python", sys.executable], tmp_path)
    assert code in (0, 1), stdout
    assert f"probing {sys.executable} (torch, CUDA, GPUs, driver)" in drawn
    assert "\x1b[?25l" not in stdout and "probing" not in stdout


def test_an_install_shows_the_environment_growing(tmp_path: Path) -> None:
    from envplan.render.progress import StepBar

    console = terminal()
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "torch.so").write_bytes(b"x" * 3_000_000)
    with step_bar("verifying", 1, quiet=False, console=console) as bar:
        assert isinstance(bar, StepBar) and bar.live
        status = SessionStatus(bar, tmp_path / "env")
        with status.watching(every=0.05):
            status.follow("nox > uv pip install --require-hashes -r requirements.txt")
            import time

            time.sleep(0.5)
    assert "installing the lock (downloads the wheels the first time): 3 MB in the environment so far" in written(
        console
    )


def test_the_remove_command_fits_the_platforms_shell_and_quotes_the_path() -> None:
    from envplan.render.console import remove_command

    assert remove_command("/home/a b/envs", platform="linux") == "rm -rf '/home/a b/envs'"
    assert remove_command("/cache/envs", platform="darwin") == "rm -rf /cache/envs"
    assert remove_command(r"C:\Users\a b\envs", platform="win32") == r'rmdir /s /q "C:\Users\a b\envs"'
