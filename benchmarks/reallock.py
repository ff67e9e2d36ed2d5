"""The real-lock rows: README's quick-start profile locked against PyPI itself, `envplan lock` (uv) against
`pip-compile --generate-hashes` of the same request, cold caches and warm. They need the network: not run by
--quick (the CI smoke) nor --no-network, and skipped, saying so, where PyPI does not answer."""

from __future__ import annotations

import os
import subprocess
import urllib.error
import urllib.request
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from cases import ENVPLAN, UV, Bench
from inputs import ROOT, requirements_in, stack_request
from result import Result, fmt_seconds
from timing import BenchError, Pair, run_timed

from envplan.resolve.model import LockRequest
from envplan.verify.pythonfind import find_python

__all__ = [
    "NETWORK_CASES",
    "QUICKSTART",
    "REAL_COLD_ROW",
    "REAL_WARM_ROW",
    "ensure_piptools",
    "pins",
    "real_lock_cold",
    "real_lock_warm",
]

# README's quick start: torch 2.5.1+cu124, the build PyPI serves by default, so the lock needs PyPI alone
QUICKSTART = ROOT / "profiles" / "rtx4090-cu124.toml"
PYPI = "https://pypi.org/simple"
REAL_COLD_ROW = "real lock: README quick-start profile from PyPI, cold"
REAL_WARM_ROW = "real lock: README quick-start profile from PyPI, warm"
# One pip-compile run a row: it downloads every wheel of the request to hash it, warm or cold (pip keeps no
# copy): GBs for torch's CUDA libraries, about 2 min. envplan's side (about 1 s) runs --runs times.
PIP_COMPILE_RUNS = 1


def _why_not(b: Bench) -> str:
    """Why the network rows cannot run here ("" when they can)."""
    if b.quick:
        return "--quick runs nothing over the network"
    if not b.network:
        return "--no-network"
    try:
        with urllib.request.urlopen(f"{PYPI}/pip/", timeout=15) as response:
            response.read(1)
    except (OSError, urllib.error.URLError) as exc:
        return f"PyPI does not answer here ({exc})"
    return ""


def _python_for(version: str) -> str:
    """A Python `version` (pip-compile resolves for the interpreter it runs under): uv's, on PATH, or pyenv's."""
    pyenv = sorted(Path.home().glob(f".pyenv/versions/{version}.*/bin"))
    path = os.pathsep.join([os.environ.get("PATH", ""), *map(str, pyenv)])
    found = find_python(version, path=path, uv=UV)
    if found is None:
        raise BenchError(f"no Python {version} on this machine for pip-compile (the profile's Python)")
    return str(found)


def ensure_piptools(cache: Path, version: str) -> Path:
    """A venv of Python `version` with this environment's pip and pip-tools versions (made once under
    benchmarks/.cache; remade when those versions change)."""
    venv = cache / f"piptools-py{version}"
    python = venv / "bin" / "python"
    wanted = [f"{dist}=={metadata.version(dist)}" for dist in ("pip", "pip-tools")]
    done = venv / ".envplan-bench-complete"
    if done.is_file() and done.read_text().split() == wanted:
        return python
    create = [_python_for(version), "-m", "venv", "--clear", str(venv)]
    for argv in (create, [str(python), "-m", "pip", "install", "-q", *wanted]):
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=900, check=False)
        if proc.returncode != 0:
            raise BenchError(f"{' '.join(argv[:4])} failed: {(proc.stderr or proc.stdout).strip()[-400:]}")
    done.write_text("\n".join(wanted) + "\n")
    return python


def _pip_compile(python: Path, request: LockRequest, reqs: Path, out: Path, caches: Path) -> list[str]:
    argv = [str(python), "-m", "piptools", "compile", "--no-config", "--quiet", "--generate-hashes", "--strip-extras"]
    argv += ["--allow-unsafe"]  # pin setuptools too, as envplan's lock does
    argv += ["--cache-dir", str(caches / "pip-tools"), "--index-url", request.pypi_index]
    if request.pytorch_index:
        argv += ["--extra-index-url", request.pytorch_index]
    return [*argv, "-o", str(out), str(reqs)]


class _Sides:
    """envplan and pip-compile on the quick-start profile, each run into a fresh output folder; caches under
    `caches(i)` for run i (a fresh folder: cold; one folder: warm)."""

    def __init__(self, b: Bench, caches: Callable[[int], Path]) -> None:
        self.b, self.caches = b, caches
        self.request = stack_request(QUICKSTART)
        self.python = ensure_piptools(b.cache, self.request.python)
        self.reqs = b.scratch("real-reqs") / "requirements.in"
        self.reqs.write_text(requirements_in(self.request))
        self.outputs: dict[str, Path] = {}  # the last requirements.txt of each side

    def _env(self, i: int) -> dict[str, str]:
        caches = self.caches(i)
        return self.b.env(caches / "uv", PIP_CACHE_DIR=str(caches / "pip"))

    def ours(self, i: int) -> float:
        out = self.b.scratch("real-lock") / "L"
        self.outputs["envplan"] = out / "requirements.txt"
        return run_timed([ENVPLAN, "lock", str(QUICKSTART), "--out", str(out)], env=self._env(i), cwd=out.parent)

    def theirs(self, i: int) -> float:
        out = self.b.scratch("real-pip-compile")
        self.outputs["pip-compile"] = out / "requirements.txt"
        argv = _pip_compile(self.python, self.request, self.reqs, out / "requirements.txt", self.caches(i))
        return run_timed(argv, env=self._env(i), cwd=out, timeout=1800)

    def agreement(self) -> str:
        """Whether both sides pinned the same packages at the same versions (they should: one request)."""
        ours, theirs = (pins(self.outputs[side].read_text()) for side in ("envplan", "pip-compile"))
        if ours == theirs:
            return f"both pin the same {len(ours)} packages"
        mine, other = ", ".join(sorted(ours - theirs)) or "-", ", ".join(sorted(theirs - ours)) or "-"
        return f"the pins differ: envplan only {mine}; pip-compile only {other}"


def pins(requirements: str) -> set[str]:
    """The `name==version` lines of a hashed requirements.txt."""
    lines = (line.split(" ", 1)[0] for line in requirements.splitlines() if not line.startswith((" ", "#")))
    return {line for line in lines if "==" in line}


def _pair(sides: _Sides, runs: int) -> Pair:
    """envplan `runs` times and pip-compile PIP_COMPILE_RUNS times, interleaved while both have runs left."""
    ours: list[float] = []
    theirs: list[float] = []
    for i in range(max(runs, PIP_COMPILE_RUNS)):
        if i < runs:
            ours.append(sides.ours(i))
        if i < PIP_COMPILE_RUNS:
            theirs.append(sides.theirs(i))
    return Pair(ours, theirs)


def _row(name: str, pair: Pair, note: str) -> Result:
    runs = f"median of {len(pair.envplan)} (envplan), {len(pair.reference)} (pip-compile: GBs downloaded a run)"
    return Result(
        name=name,
        envplan=fmt_seconds(pair.envplan_median),
        reference=fmt_seconds(pair.reference_median),
        ratio=pair.ratio,
        note=f"{note}; {runs}; network (PyPI), no target: PyPI's speed sets the numbers",
    )


_HOW = "`envplan lock profiles/rtx4090-cu124.toml` (uv) vs `pip-compile --generate-hashes` of the same request"


def real_lock_cold(b: Bench) -> Result:
    """Both sides with empty caches: what a first lock costs."""
    why = _why_not(b)
    if why:
        return Result(name=REAL_COLD_ROW, envplan="—", skipped=why)
    sides = _Sides(b, lambda i: b.work / f"real-caches-{i}")  # run 0's caches are the warm row's
    pair = _pair(sides, b.runs)
    note = f"{_HOW} (under Python {sides.request.python}); {sides.agreement()}; cold caches"
    return _row(REAL_COLD_ROW, pair, note)


def real_lock_warm(b: Bench) -> Result:
    """Both sides again with the caches the first run filled (a fresh output folder each run)."""
    why = _why_not(b)
    if why:
        return Result(name=REAL_WARM_ROW, envplan="—", skipped=why)
    warm = b.work / "real-caches-0"
    sides = _Sides(b, lambda _: warm)
    if not warm.is_dir():  # the cold row did not run: fill the caches first
        sides.ours(-1)
        sides.theirs(-1)
    pair = _pair(sides, b.runs)
    return _row(REAL_WARM_ROW, pair, f"{_HOW}; {sides.agreement()}; the caches the cold row filled")


NETWORK_CASES: tuple[Callable[[Bench], Result], ...] = (real_lock_cold, real_lock_warm)
