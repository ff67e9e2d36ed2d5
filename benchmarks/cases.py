"""The benchmarks: each runs envplan and its reference side by side and returns one row of RESULTS.md."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from inputs import (
    ROOT,
    Inputs,
    conda_request_of,
    ensure_torch,
    plan_request,
    requirements_in,
    stack_request,
)
from result import Result, fmt_seconds
from timing import BenchError, Pair, clean_env, median, run_timed, sibling_tool, time_pairs

from envplan.resolve.model import LockRequest

__all__ = ["CASES", "Bench", "Point", "planning_points", "planning_result"]

HERE = Path(__file__).resolve().parent
SEED_PROFILE = ROOT / "profiles" / "a100-train.toml"
FLEET_SIZES = (10, 100, 500)
FLEET_TARGET = "latest"
STARTUP_ROW = "`envplan --version`, whole process"
RELOCK_ROW = "re-run, unchanged inputs"
CHECK_ROW = "`envplan lock --check`, unchanged inputs"
RETIRED_ROW = "`envplan lock --backend uv` vs pip-compile, nine tiny wheels"


@dataclass(frozen=True, slots=True)
class Bench:
    inputs: Inputs
    work: Path  # scratch space: outputs, caches (a temp dir)
    cache: Path  # benchmarks/.cache: the torch venv survives between runs
    runs: int
    quick: bool
    with_torch: bool = True
    network: bool = True  # False: the rows that need PyPI are skipped

    def scratch(self, label: str) -> Path:
        return Path(tempfile.mkdtemp(prefix=f"{label}-", dir=self.work))

    def env(self, uv_cache: Path | None = None, **extra: str) -> dict[str, str]:
        """A clean environment; its own uv cache (a fresh, cold one unless given) and XDG cache."""
        cache = uv_cache or self.scratch("uv-cache")
        path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])  # as in a venv
        return clean_env({"UV_CACHE_DIR": str(cache), "XDG_CACHE_HOME": str(self.work / "xdg"), "PATH": path, **extra})


ENVPLAN = sibling_tool("envplan")
UV = sibling_tool("uv")
PIP_COMPILE = sibling_tool("pip-compile")


def _uv_compile(request: LockRequest, reqs: Path, out: Path) -> list[str]:
    """`uv pip compile --generate-hashes` of the request: same Python, platform and indexes as envplan's."""
    argv = [UV, "pip", "compile", "--no-config", "--quiet", "--generate-hashes"]
    argv += ["--python-version", request.python, "--python-platform", request.platform]
    argv += ["--default-index", request.pypi_index]
    if request.pytorch_index:
        argv += ["--index", request.pytorch_index]
    return [*argv, "-o", str(out), str(reqs)]


def _pip_compile(request: LockRequest, reqs: Path, out: Path, cache: Path) -> list[str]:
    argv = [PIP_COMPILE, "--no-config", "--quiet", "--generate-hashes", "--strip-extras", "--cache-dir", str(cache)]
    argv += ["--index-url", request.pypi_index]
    if request.pytorch_index:
        argv += ["--extra-index-url", request.pytorch_index]
    return [*argv, "-o", str(out), str(reqs)]


def _write_reqs(b: Bench, request: LockRequest) -> Path:
    path = b.scratch("reqs") / "requirements.in"
    path.write_text(requirements_in(request))
    return path


def _ratio(name: str, pair: Pair, limit: float | None, note: str) -> Result:
    """A row comparing medians; `limit` None makes it informational."""
    return Result(
        name=name,
        envplan=fmt_seconds(pair.envplan_median),
        reference=fmt_seconds(pair.reference_median),
        ratio=pair.ratio,
        target=f"ratio <= {limit:g}" if limit is not None else "",
        passed=limit is not None and pair.ratio <= limit,
        note=f"{note}; median of {len(pair.envplan)}",
    )


def _lock(profile: Path, out: Path, env: dict[str, str], *extra: str) -> float:
    return run_timed([ENVPLAN, "lock", str(profile), "--out", str(out), *extra], env=env, cwd=out.parent)


def _uv_reference(b: Bench, request: LockRequest, cache: Path | None = None) -> Callable[[int], float]:
    """A sample of `uv pip compile`: a cold cache each run unless `cache` (warmed by the first run) is given."""
    reqs = _write_reqs(b, request)

    def sample(_: int) -> float:
        out = b.scratch("ref")
        return run_timed(_uv_compile(request, reqs, out / "requirements.txt"), env=b.env(cache), cwd=out)

    return sample


def lock_one(b: Bench) -> Result:
    """`envplan lock` of one profile against `uv pip compile` of the same request, both with a cold cache."""
    profile = b.inputs.one

    def ours(_: int) -> float:
        out = b.scratch("lock")
        return _lock(profile, out / "L", b.env())

    pair = time_pairs(ours, _uv_reference(b, stack_request(profile)), runs=b.runs, warmup=not b.quick)
    return _ratio("`envplan lock` one profile (uv)", pair, 1.15, "vs `uv pip compile --generate-hashes`; cold caches")


def lock_one_found_python(b: Bench) -> Result:
    """Informational: the same as lock_one for a Python 3.11 profile, whose interpreter uv finds at once (for a
    Python the machine lacks, every `uv pip compile --python-version` first searches PATH for it)."""
    profile = b.inputs.py311

    def ours(_: int) -> float:
        out = b.scratch("lock")
        return _lock(profile, out / "L", b.env())

    pair = time_pairs(ours, _uv_reference(b, stack_request(profile)), runs=b.runs, warmup=not b.quick)
    note = "as above, Python 3.11 profile: no interpreter search in uv; cold caches"
    return _ratio("`envplan lock` one profile (uv), Python found", pair, None, note)


def lock_plan(b: Bench) -> Result:
    """`envplan upgrade --to 2.1` locking 4 steps, one warm uv cache shared by its steps, against one compile."""
    profile, shared = b.inputs.plan, b.scratch("uv-shared")

    def ours(_: int) -> float:
        out = b.scratch("plan")
        argv = [ENVPLAN, "upgrade", str(profile), "--to", "2.1", "--out", str(out / "p")]
        return run_timed(argv, env=b.env(shared), cwd=out)

    theirs = _uv_reference(b, plan_request(profile), b.scratch("uv-ref"))
    pair = time_pairs(ours, theirs, runs=b.runs, warmup=True)
    note = "`envplan upgrade --to 2.1` (baseline, torch, companions, extensions) vs one `uv pip compile` of its last"
    return _ratio("lock of a 4-step plan", pair, 2.0, note + " step; warm caches, the steps' cache shared")


def _warm_uv_reference(b: Bench, request: LockRequest) -> Callable[[int], float]:
    """`uv pip compile` at its best: a cache warmed by one online run, then --offline with the interpreter given
    (`--python` this Python, `--python-version` the request's: no interpreter search, no index request)."""
    reqs, cache = _write_reqs(b, request), b.scratch("uv-warm")
    given = ["--python", sys.executable]
    warm = b.scratch("ref")
    run_timed([*_uv_compile(request, reqs, warm / "requirements.txt"), *given], env=b.env(cache), cwd=warm)

    def sample(_: int) -> float:
        out = b.scratch("ref")
        argv = [*_uv_compile(request, reqs, out / "requirements.txt"), *given, "--offline"]
        return run_timed(argv, env=b.env(cache), cwd=out)

    return sample


def _unchanged(b: Bench, name: str, *extra: str) -> Result:
    """`envplan lock PROFILE --out DIR [extra]` on a DIR it just locked against the warm, offline uv reference."""
    profile = b.inputs.one
    out = b.scratch("relock") / "L"
    _lock(profile, out, b.env())

    def ours(_: int) -> float:
        return _lock(profile, out, b.env(), *extra)

    request = stack_request(profile)
    pair = time_pairs(ours, _warm_uv_reference(b, request), runs=_many(b), warmup=True)
    what = " ".join(["`envplan lock PROFILE --out DIR", *extra]) + "`"
    reference = f"`uv pip compile --offline --python THIS --python-version {request.python}`"
    note = f"{what} on the DIR it just locked (answered from lock.json, no uv run) vs {reference}"
    return _ratio(name, pair, 1.0, note + " of the same request, warm cache")


def relock(b: Bench) -> Result:
    """An unchanged re-lock against `uv pip compile` at its best."""
    return _unchanged(b, RELOCK_ROW)


def lock_check(b: Bench) -> Result:
    """`envplan lock --check` of a fresh lock against `uv pip compile` at its best."""
    return _unchanged(b, CHECK_ROW, "--check")


def startup(b: Bench) -> Result:
    """`envplan --version` (the console script) against the bare start-up of the interpreter it runs under."""
    env = b.env()
    pair = time_pairs(
        lambda _: run_timed([ENVPLAN, "--version"], env=env, cwd=b.work),
        lambda _: run_timed([sys.executable, "-c", "pass"], env=env, cwd=b.work),
        runs=_many(b),
        warmup=True,
    )
    note = "the console script vs `python -c pass` of its interpreter (.pyc files present)"
    return _ratio(STARTUP_ROW, pair, 2.0, note)


def _many(b: Bench) -> int:
    """Runs for a benchmark of a few tens of ms: enough that a few scheduling hiccups do not move the median (with 15,
    the re-lock rows moved by 0.1 between runs of the same code)."""
    return b.runs if b.quick else max(41, 8 * b.runs)


def uv_vs_pip_compile(b: Bench) -> Result:
    """`envplan lock --backend uv` against `pip-compile --generate-hashes` of the same (Python 3.11), both cold."""
    profile = b.inputs.py311
    request = stack_request(profile)
    reqs = _write_reqs(b, request)

    def ours(_: int) -> float:
        out = b.scratch("lock")
        return _lock(profile, out / "L", b.env(), "--backend", "uv")

    def theirs(_: int) -> float:
        out = b.scratch("pip-compile")
        argv = _pip_compile(request, reqs, out / "requirements.txt", out / "pip-cache")
        return run_timed(argv, env=b.env(PIP_CACHE_DIR=str(out / "pip-http")), cwd=out)

    pair = time_pairs(ours, theirs, runs=b.runs, warmup=not b.quick)
    note = "vs `pip-compile --generate-hashes --no-config`, Python 3.11 profile; cold caches; no target (retired)"
    return _ratio(RETIRED_ROW, pair, None, note)


def conda(b: Bench) -> Result:
    """envplan's conda solve (solve_conda: its worker process, py-rattler, conda-lock.yml) against a bare solve."""
    from envplan.resolve.conda import solve_conda

    request = conda_request_of(b.inputs.conda)
    payload = json.dumps(asdict(request))

    def ours(_: int) -> float:
        start = time.perf_counter()
        solve_conda(request)
        return time.perf_counter() - start

    def theirs(_: int) -> float:
        argv = [sys.executable, str(HERE / "rattler_solve.py")]  # the environment solve_conda's worker gets
        return run_timed(argv, env=dict(os.environ), cwd=b.work, stdin=payload)

    pair = time_pairs(ours, theirs, runs=b.runs, warmup=not b.quick)
    note = "`envplan.resolve.conda.solve_conda` (a worker process) vs a bare py-rattler solve in a process"
    return _ratio("conda lock (py-rattler)", pair, 1.3, note + "; local file:// channel")


def upgrade_no_lock(b: Bench) -> Result:
    """The seed profile's plan, whole process, against pip-compile's start-up."""

    def ours(_: int) -> float:
        out = b.scratch("upgrade")
        argv = [ENVPLAN, "upgrade", str(SEED_PROFILE), "--to", "2.1", "--no-lock", "--out", str(out / "p")]
        return run_timed(argv, env=b.env(), cwd=out)

    def theirs(_: int) -> float:
        return run_timed([PIP_COMPILE, "--version"], env=b.env(), cwd=b.work)

    pair = time_pairs(ours, theirs, runs=b.runs, warmup=not b.quick)
    note = "`envplan upgrade profiles/a100-train.toml --to 2.1 --no-lock` vs `pip-compile --version`"
    return _ratio("`upgrade --no-lock`, whole process", pair, 0.5, note)


def abi_check(b: Bench) -> Result:
    """`envplan abi-check` of one extension (warm: its symbol cache filled once) against `nm -D` of torch's libs."""
    name = "`abi-check` one extension, warm"
    if not b.with_torch:
        return Result(name=name, envplan="—", target="ratio <= 3", skipped="--no-torch")
    setup = ensure_torch(b.cache)
    if isinstance(setup, str):
        return Result(name=name, envplan="—", target="ratio <= 3", skipped=setup)
    env = b.env(XDG_CACHE_HOME=str(b.scratch("xdg-abi")))
    ours_argv = [ENVPLAN, "abi-check", "--python", str(setup.python), str(setup.extension)]
    nm_argv = ["nm", "-D", "--defined-only", *map(str, setup.libs)]
    pair = time_pairs(
        lambda _: run_timed(ours_argv, env=env, cwd=b.work),
        lambda _: run_timed(nm_argv, env=env, cwd=b.work),
        runs=b.runs,
        warmup=True,
    )
    note = f"torch 2.13.0+cpu, vs `nm -D --defined-only` over torch/lib/*.so* ({len(setup.libs)} files)"
    return _ratio(name, pair, 3.0, note)


@dataclass(frozen=True, slots=True)
class WorkerRun:
    """One run of planworker.py."""

    per_plan_ms: float  # the mean: total planning time / n
    p50_ms: float
    blocked_ms: float  # mean over the blocked plans (0 when none)
    peak_rss_mb: float
    kb_load_ms: float
    statuses: dict[str, int]


@dataclass(frozen=True, slots=True)
class Point:
    """The planning benchmark at one fleet size (medians over runs; peak RSS the highest)."""

    n: int
    per_plan_ms: float
    p50_ms: float
    blocked_ms: float
    peak_rss_mb: float
    kb_load_ms: float
    statuses: dict[str, int]
    fleet_cli_ms: float  # `envplan upgrade P1..Pn --no-lock`, whole process, per profile


def _plan_worker(n: int) -> WorkerRun:
    env = clean_env({"PYTHONPATH": str(HERE)})
    argv = [sys.executable, str(HERE / "planworker.py"), str(n)]
    proc = subprocess.run(argv, env=env, cwd=HERE, capture_output=True, text=True, timeout=1800, check=False)
    if proc.returncode != 0:
        raise BenchError(f"planworker {n} failed: {proc.stderr.strip()[-800:]}")
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    return WorkerRun(
        per_plan_ms=float(data["per_plan_ms"]),
        p50_ms=float(data["p50_ms"]),
        blocked_ms=float(data["mean_ms_by_status"].get("blocked", 0.0)),
        peak_rss_mb=float(data["peak_rss_mb"]),
        kb_load_ms=float(data["kb_load_s"]) * 1000,
        statuses={str(k): int(v) for k, v in data["statuses"].items()},
    )


def _fleet_cli(b: Bench, n: int) -> float:
    """Seconds per profile of `envplan upgrade` over n generated profile files (exits 1 when any is blocked)."""
    from profilegen import generate_profiles

    from envplan.kb import load_kb

    folder = b.scratch(f"fleet-{n}")
    paths = []
    for gen in generate_profiles(load_kb(), n):
        path = folder / f"{gen.name}.toml"
        path.write_text(gen.text)
        paths.append(str(path))
    argv = [ENVPLAN, "upgrade", *paths, "--to", FLEET_TARGET, "--no-lock", "--out", str(folder / "out")]
    return run_timed(argv, env=b.env(), cwd=folder, ok=(0, 1)) / n


def planning_points(b: Bench) -> list[Point]:
    """Per-plan time and peak RSS at each fleet size, in-process (planworker) and through the CLI."""
    points = []
    for n in FLEET_SIZES:
        runs = [_plan_worker(n) for _ in range(b.runs)]
        cli = [_fleet_cli(b, n) * 1000 for _ in range(b.runs)]
        points.append(
            Point(
                n=n,
                per_plan_ms=median([r.per_plan_ms for r in runs]),
                p50_ms=median([r.p50_ms for r in runs]),
                blocked_ms=median([r.blocked_ms for r in runs]),
                peak_rss_mb=max(r.peak_rss_mb for r in runs),
                kb_load_ms=median([r.kb_load_ms for r in runs]),
                statuses=runs[0].statuses,
                fleet_cli_ms=median(cli),
            )
        )
    return points


def planning_result(points: list[Point]) -> Result:
    last = points[-1]
    passed = last.per_plan_ms <= 5 and last.peak_rss_mb <= 150
    statuses = ", ".join(f"{v} {k}" for k, v in sorted(last.statuses.items()))
    return Result(
        name=f"planning {last.n} generated profiles in one process",
        envplan=f"{last.per_plan_ms:.2f} ms/plan, {last.peak_rss_mb:.0f} MB peak RSS",
        target="<= 5 ms/plan, <= 150 MB",
        passed=passed,
        note=f"mean of parse + resolve_target + plan_upgrade per profile ({statuses}; median plan "
        f"{last.p50_ms:.2f} ms, blocked plans {last.blocked_ms:.1f} ms on average); KB load {last.kb_load_ms:.0f} ms "
        "once, not counted",
    )


CASES: tuple[Callable[[Bench], Result], ...] = (
    startup,
    lock_one,
    lock_one_found_python,
    lock_plan,
    relock,
    lock_check,
    uv_vs_pip_compile,
    conda,
    upgrade_no_lock,
    abi_check,
)
