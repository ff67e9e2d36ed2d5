"""The one place envplan starts external tools: uv, pip-compile, nox. Failures become EnvplanErrors here.

Every child runs in its own process group and is known while it runs, so an interrupted envplan (SIGINT,
SIGTERM) stops all of them and their own children (stop_children), and starts no new one; temporary folders
of a run killed outright (SIGKILL) carry its pid and are removed by the next run (sweep_stale_temp).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from envplan.errors import EXIT_FAILED, EnvplanError

__all__ = [
    "ToolFailed",
    "allow_children",
    "clean_env",
    "run_captured",
    "run_streamed",
    "run_tool",
    "stop_children",
    "sweep_stale_temp",
    "temp_dir",
]

_LIVE: set[subprocess.Popen[str]] = set()
_LIVE_LOCK = threading.RLock()  # re-entrant: the signal handler runs on the main thread, which may hold it
_STOPPING = threading.Event()
_TEMP = re.compile(r"envplan-[a-z]+-(\d+)-")

# The machine's pip configuration must never leak into a lock (extra indexes, find-links, constraints).
_PIP_ENV_PREFIXES = ("PIP_", "UV_")
_KEEP = frozenset({"UV_CACHE_DIR"})  # where uv caches is not configuration


class ToolFailed(EnvplanError):
    """A tool ran and failed; `output` holds what it printed on stderr."""

    def __init__(self, tool: str, output: str, *, where: str) -> None:
        super().__init__("tool-failed", f"{tool} failed", where=where, exit_code=EXIT_FAILED)
        self.tool = tool
        self.output = output


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment minus pip's and uv's settings, plus `extra`; pip reads no config file."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(_PIP_ENV_PREFIXES) or k in _KEEP}
    env["PIP_CONFIG_FILE"] = os.devnull
    env["UV_PYTHON_DOWNLOADS"] = "never"
    env.update(extra or {})
    return env


def _start(argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], stderr: int) -> subprocess.Popen[str]:
    """The child, in its own session and known to stop_children(); none once envplan is stopping."""
    with _LIVE_LOCK:
        if _STOPPING.is_set():
            raise KeyboardInterrupt
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            errors="replace",
            start_new_session=True,
        )
        _LIVE.add(proc)
    return proc


def run_captured(
    argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """Run to completion, capturing output, whatever the exit code; the child is stopped with envplan."""
    proc = _start(argv, cwd=cwd, env=env, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(proc)
        proc.communicate()
        raise
    finally:
        with _LIVE_LOCK:
            _LIVE.discard(proc)
    if _STOPPING.is_set():
        raise KeyboardInterrupt
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def run_streamed(
    argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], on_line: Callable[[str], None]
) -> subprocess.CompletedProcess[str]:
    """Run to completion, stdout and stderr merged into `stdout`, each line passed to `on_line` as it comes
    (a status line follows a long child); the child is stopped with envplan."""
    proc = _start(argv, cwd=cwd, env=env, stderr=subprocess.STDOUT)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            on_line(line.rstrip("\n"))
        proc.wait()
    finally:
        with _LIVE_LOCK:
            _LIVE.discard(proc)
        if proc.poll() is None:
            _stop(proc)
            proc.wait()
    if _STOPPING.is_set():
        raise KeyboardInterrupt
    return subprocess.CompletedProcess(proc.args, proc.returncode, "".join(lines), "")


def run_tool(
    argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], where: str, timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    """Run a tool to completion; raise ToolFailed (non-zero exit) or EnvplanError (missing, timed out)."""
    try:
        proc = run_captured(argv, cwd=cwd, env=env, timeout=timeout)
    except FileNotFoundError:
        raise EnvplanError(
            "tool-missing",
            f"{argv[0]} is not installed",
            where=where,
            hint=f"install it (pip install {Path(argv[0]).name})",
            exit_code=EXIT_FAILED,
        ) from None
    except subprocess.TimeoutExpired:
        raise EnvplanError(
            "tool-timeout",
            f"{Path(argv[0]).name} did not finish in {timeout:.0f} s",
            where=where,
            hint="check that the indexes answer",
            exit_code=EXIT_FAILED,
        ) from None
    if proc.returncode != 0:
        raise ToolFailed(Path(argv[0]).name, proc.stderr.strip() or proc.stdout.strip(), where=where)
    return proc


def stop_children() -> None:
    """Stop every running child (and its process group) and start no new one: envplan is being interrupted."""
    _STOPPING.set()
    with _LIVE_LOCK:
        children = list(_LIVE)
    for proc in children:
        _stop(proc)


def allow_children() -> None:
    _STOPPING.clear()


def _stop(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(proc.pid, signal.SIGTERM)


def temp_dir(kind: str) -> tempfile.TemporaryDirectory[str]:
    """A temporary folder named after this process, so a later run can tell when its owner is gone."""
    return tempfile.TemporaryDirectory(prefix=f"envplan-{kind}-{os.getpid()}-")


def sweep_stale_temp() -> int:
    """Remove the temporary folders of envplan runs that were killed outright (their pid is gone)."""
    removed = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(tempfile.gettempdir()):
            m = _TEMP.match(entry.name)
            if m and entry.is_dir(follow_symlinks=False) and entry.stat().st_uid == os.getuid() and _gone(int(m[1])):
                shutil.rmtree(entry.path, ignore_errors=True)
                removed += 1
    return removed


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OSError):
        return False
    return False
