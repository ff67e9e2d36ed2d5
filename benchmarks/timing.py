"""Running and timing commands: a clean environment (no pip/uv configuration leaks in), medians."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["BenchError", "Pair", "clean_env", "median", "run_timed", "sibling_tool", "time_pairs"]


class BenchError(RuntimeError):
    """A benchmarked command failed: the benchmark is reported as an error, not timed."""


def sibling_tool(name: str) -> str:
    """The console script installed beside this interpreter (envplan, uv, pip-compile), else from PATH."""
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if found is None:
        raise BenchError(f"{name} is not installed")
    return found


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment minus pip's and uv's settings (as envplan runs its tools), plus `extra`. Without
    PYTHONDONTWRITEBYTECODE: users' installs have their .pyc files, and start-up without them costs ~2x."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_")) and k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PIP_CONFIG_FILE": os.devnull, "UV_PYTHON_DOWNLOADS": "never", "UV_NO_PROGRESS": "1"}
    env |= dict(extra or {})
    return env


def run_timed(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path,
    stdin: str | None = None,
    ok: tuple[int, ...] = (0,),
    timeout: float = 900,
) -> float:
    """Wall-clock seconds of one run of `argv` (stdout discarded unread); raise BenchError when it fails."""
    start = time.perf_counter()
    proc = subprocess.run(
        list(argv),
        cwd=cwd,
        env=dict(env),
        input=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=timeout,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok:
        raise BenchError(f"{Path(argv[0]).name} exited {proc.returncode}: {proc.stderr.strip()[-800:]}")
    return elapsed


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


@dataclass(frozen=True, slots=True)
class Pair:
    """Medians of interleaved runs: envplan and its reference, each sample taken right after the other."""

    envplan: list[float]
    reference: list[float]

    @property
    def envplan_median(self) -> float:
        return median(self.envplan)

    @property
    def reference_median(self) -> float:
        return median(self.reference)

    @property
    def ratio(self) -> float:
        return self.envplan_median / self.reference_median


Sample = Callable[[int], float]  # run number -> seconds of the timed part (any set-up inside is not counted)


def time_pairs(envplan: Sample, reference: Sample, *, runs: int, warmup: bool) -> Pair:
    """Alternate the two sides run by run so that the machine's noise hits both alike."""
    if warmup:
        envplan(-1)
        reference(-1)
    ours: list[float] = []
    theirs: list[float] = []
    for i in range(runs):
        ours.append(envplan(i))
        theirs.append(reference(i))
    return Pair(ours, theirs)
