"""What a running verify session is doing, for its status line: nox's commands and the verifier's checks read
from the session's output, and while an install is silent (minutes for CUDA wheels) the environment's size."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from envplan.render.progress import StepBar

__all__ = ["SessionStatus", "Shows", "disk_usage", "follow_line"]


_PHASES = (  # what a line of nox's output says the session is doing now
    ("Creating virtual environment", "creating the environment"),
    ("--require-hashes", "installing the lock (downloads the wheels the first time)"),
    ("install", "installing build tools"),
    ("build.sh", "building the compiled extensions"),
    ("envplan_verify.py", "running the checks"),
)


class Shows(Protocol):
    def status(self, text: str) -> None: ...


def follow_line(bar: Shows, line: str) -> None:
    """Turn a line of the session's output into the status line: nox's commands, then each check."""
    text = line.strip()
    if text.startswith("nox >"):
        for needle, what in _PHASES:
            if needle in text:
                bar.status(what)
                return
    elif text.startswith(("ok  ", "FAILED  ", "skipped  ")):
        bar.status("checked " + text.split("  ", 1)[1][:60])


class SessionStatus:
    """The step's status line, and while an install runs (silent for minutes) the environment's size so far."""

    def __init__(self, bar: StepBar, envdir: Path) -> None:
        self.bar = bar
        self.envdir = envdir
        self.text = ""
        self._lock = threading.Lock()

    def follow(self, line: str) -> None:
        follow_line(self, line)

    def status(self, text: str) -> None:
        with self._lock:
            self.text = text
            self.bar.status(text)

    @contextmanager
    def watching(self, every: float = 2.0) -> Iterator[None]:
        if not self.bar.live:
            yield
            return
        stop = threading.Event()
        watcher = threading.Thread(target=self._watch, args=(stop, every), daemon=True)
        watcher.start()
        try:
            yield
        finally:
            stop.set()
            watcher.join()

    def _watch(self, stop: threading.Event, every: float) -> None:
        while not stop.wait(every):
            with self._lock:
                text = self.text
            if text.startswith(("installing", "building")):
                size = disk_usage(self.envdir) / 1e6
                with self._lock:
                    if self.text == text:
                        self.bar.status(f"{text}: {size:,.0f} MB in the environment so far")


def disk_usage(root: Path) -> int:
    """Bytes of the files under `root`, each hard-linked file once (uv links from its cache), links not followed."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for folder, _dirs, files in os.walk(root):
        for name in files:
            try:
                st = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_size
    return total
