"""Interrupting a lock: the real uv is waiting on an index that never answers; SIGTERM or SIGINT to envplan stops
uv (and whatever it started), removes the temporary folders, and exits 143/130. A run killed outright leaves its
folder, which the next run removes."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from locksupport import profile_text


@pytest.fixture
def silent_index() -> Iterator[str]:
    """An HTTP 'index' that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


def _running_in(folder: Path) -> dict[int, Path]:
    """{pid: the top folder under `folder` it works in} (uv runs inside envplan's temporary folder)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cwd = Path(os.readlink(entry / "cwd"))
            except OSError:
                continue
            if cwd.is_relative_to(folder) and cwd != folder:
                found[int(entry.name)] = folder / cwd.relative_to(folder).parts[0]
    return found


def _processes_in(folder: Path) -> list[int]:
    return list(_running_in(folder))


def _cwds_in(folder: Path) -> set[Path]:
    return set(_running_in(folder).values())


def _start_lock(tmp_path: Path, index: str) -> tuple[subprocess.Popen[str], Path]:
    temp = tmp_path / "tmp"
    temp.mkdir(exist_ok=True)
    (tmp_path / "envplan.toml").write_text(profile_text((f"{index}/simple", f"{index}/whl")))
    env = {**os.environ, "TMPDIR": str(temp), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "envplan", "lock", "--out", "L"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Wait for the uv that resolves (it runs in envplan's own folder and hangs on the silent index), not for
    # a `uv --version` that runs first in a plain temporary folder and is gone a moment later.
    deadline = time.monotonic() + 60
    while not any(p.name.startswith("envplan-uv-") for p in _cwds_in(temp)):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "uv never started"
        time.sleep(0.05)
    time.sleep(0.3)
    return proc, temp


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_uv_and_removes_the_temporary_folders(
    tmp_path: Path, silent_index: str, sig: int, code: int
) -> None:
    proc, temp = _start_lock(tmp_path, silent_index)
    children = _processes_in(temp)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert "envplan: interrupted" in err and "Traceback" not in err
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _processes_in(temp), "an orphan uv is still running"
    assert list(temp.iterdir()) == [], "a temporary folder was left behind"
    assert not (tmp_path / "L").exists()


def test_a_run_killed_outright_is_cleaned_up_by_the_next(tmp_path: Path, silent_index: str) -> None:
    proc, temp = _start_lock(tmp_path, silent_index)
    orphans = _processes_in(temp)
    proc.kill()
    proc.communicate()
    for pid in orphans:  # nothing can stop them once envplan is gone: they end at uv's own timeout
        os.killpg(pid, signal.SIGKILL)
    (left,) = temp.iterdir()
    assert left.name.startswith(f"envplan-uv-{proc.pid}-")
    (tmp_path / "envplan.toml").write_text(profile_text(("http://127.0.0.1:9/simple", "http://127.0.0.1:9/whl")))
    env = {**os.environ, "TMPDIR": str(temp), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    again = subprocess.run(
        [sys.executable, "-m", "envplan", "lock", "--out", "L"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert again.returncode == 1
    assert list(temp.iterdir()) == [], "the killed run's folder was not removed"
