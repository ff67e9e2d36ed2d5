"""Progress for waits longer than a moment, on stderr: a spinner saying what is happening, a bar over a
command's steps, bytes per download. One concept for every command.

Quiet (nothing at all) with --json or when stderr is not a terminal: stdout stays clean for pipes, and
logs get no control characters. Every helper takes an optional `console` so tests can pass a rich Console
with `force_terminal=True` (active) or a plain file (quiet).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

__all__ = [
    "Status",
    "StepBar",
    "downloads",
    "live_console",
    "lock_progress",
    "spinner",
    "step_bar",
]

LockReport = Callable[[str, str], None]  # (lock name, event): "start", "done", "fresh"
DownloadReport = Callable[[str, int, int], None]  # (file name, bytes done, bytes in all or 0)


def live_console(quiet: bool, console: Console | None = None) -> Console | None:
    """The stderr console progress may draw on, or None: --json, or not a terminal."""
    if quiet:
        return None
    if console is None:
        from rich.console import Console

        console = Console(stderr=True)
    return console if console.is_terminal else None


def _progress(console: Console, *, bar: bool = False, transfer: bool = False) -> Progress:
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TransferSpeedColumn,
    )

    columns: list[ProgressColumn] = [SpinnerColumn(), TextColumn("{task.description}")]
    if bar:
        columns += [BarColumn(bar_width=20), MofNCompleteColumn()]
    if transfer:
        columns += [BarColumn(bar_width=20), DownloadColumn(), TransferSpeedColumn()]
    columns.append(TimeElapsedColumn())
    return Progress(*columns, console=console, transient=True)


class Status:
    """One spinner line: what is happening now (does nothing when quiet)."""

    def __init__(self, progress: Progress | None = None, task: TaskID | None = None) -> None:
        self._progress = progress
        self._task = task

    def update(self, text: str) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, description=text)


@contextmanager
def spinner(text: str, *, quiet: bool, console: Console | None = None) -> Iterator[Status]:
    """A spinner with `text` (change it with .update) while the block runs."""
    live = live_console(quiet, console)
    if live is None:
        yield Status()
        return
    with _progress(live) as progress:
        yield Status(progress, progress.add_task(text, total=None))


class StepBar:
    """A bar over a command's steps: `label name: status` and done/total (does nothing when quiet)."""

    def __init__(self, label: str, progress: Progress | None = None, task: TaskID | None = None) -> None:
        self._label = label
        self._progress = progress
        self._task = task
        self._name = ""

    @property
    def live(self) -> bool:
        """True when drawn (a terminal): worth measuring things only to show them."""
        return self._progress is not None

    def expect(self, total: int) -> None:
        """How many steps the bar counts (known once the command has read its input)."""
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, total=total)

    def start(self, name: str) -> None:
        self._name = name
        self._show(f"{self._label} {name}")

    def status(self, text: str) -> None:
        self._show(f"{self._label} {self._name}: {text}" if self._name else f"{self._label}: {text}")

    def advance(self) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task)

    def _show(self, text: str) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, description=text)


@contextmanager
def step_bar(label: str, total: int | None = None, *, quiet: bool, console: Console | None = None) -> Iterator[StepBar]:
    live = live_console(quiet, console)
    if live is None:
        yield StepBar(label)
        return
    with _progress(live, bar=True) as progress:
        yield StepBar(label, progress, progress.add_task(label, total=total))


@contextmanager
def lock_progress(quiet: bool, *, how: str = "", console: Console | None = None) -> Iterator[LockReport | None]:
    """A spinner line per lock while it resolves (`how`: e.g. "with pip-tools"), and how many are locked."""
    live = live_console(quiet, console)
    if live is None:
        yield None
        return
    with _progress(live) as progress:
        overall = progress.add_task("locked none yet", total=None)
        tasks: dict[str, TaskID] = {}
        settled: list[str] = []

        def report(name: str, event: str) -> None:
            if event == "start":
                tasks[name] = progress.add_task(f"locking {name}" + (f" {how}" if how else ""), total=None)
                return
            settled.append(name)
            progress.update(overall, description=f"locked {len(settled)} ({', '.join(settled)})")
            if name in tasks:
                progress.remove_task(tasks.pop(name))

        yield report


@contextmanager
def downloads(quiet: bool, *, console: Console | None = None) -> Iterator[DownloadReport | None]:
    """Bytes of the file being downloaded, and how many files were downloaded so far."""
    live = live_console(quiet, console)
    if live is None:
        yield None
        return
    with _progress(live, transfer=True) as progress:
        tasks: dict[str, TaskID] = {}

        def report(name: str, done: int, total: int) -> None:
            if name not in tasks:
                for other in tasks.values():
                    progress.remove_task(other)
                tasks.clear()
                count = len(seen) + 1
                seen.append(name)
                tasks[name] = progress.add_task(f"wheel {count}: {name}", total=total or None)
            progress.update(tasks[name], completed=done)

        seen: list[str] = []
        yield report
