"""envplan's benchmark suite: every benchmark side by side with the tool a user would run instead.

    python benchmarks/run.py [--quick] [--runs N] [--out DIR] [--no-torch] [--no-network]

Writes DIR/RESULTS.md and DIR/results.png (DIR defaults to this folder). Full mode: median of --runs runs
each, exit 1 when a target is missed or a benchmark fails. --quick: one run each, exit 0 whatever the
numbers (the CI smoke), and nothing over the network. The torch 2.13.0 venv for abi-check and the Python
venv pip-compile runs under for the real-lock rows are made once under benchmarks/.cache/.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import explain_recall
from cases import CASES, Bench, Point, planning_points, planning_result
from inputs import build_inputs
from reallock import NETWORK_CASES
from report import load_average, plot_scaling, write_results
from result import Result

HERE = Path(__file__).resolve().parent


def _args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one run each, targets not enforced (exit 0)")
    parser.add_argument("--runs", type=int, default=5, help="runs per benchmark in full mode (default 5)")
    parser.add_argument("--out", type=Path, default=HERE, help="where RESULTS.md and results.png go")
    parser.add_argument("--no-torch", action="store_true", help="skip abi-check (needs a torch 2.13.0 venv)")
    parser.add_argument("--no-network", action="store_true", help="skip the real-lock rows (they need PyPI)")
    return parser.parse_args(argv)


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _run_case(case: object, bench: Bench) -> Result:
    name = getattr(case, "__name__", str(case))
    _log(f"· {name} ...")
    start = time.perf_counter()
    try:
        result: Result = case(bench)  # type: ignore[operator]
    except Exception as exc:  # one broken benchmark is reported, the others still run
        result = Result(name=name, envplan="—", error=f"{type(exc).__name__}: {exc}")
    ratio = f" ratio {result.ratio:.2f}" if result.ratio is not None else ""
    _log(f"  {result.envplan} vs {result.reference}{ratio}: {result.status} ({time.perf_counter() - start:.0f} s)")
    return result


def _planning(bench: Bench) -> tuple[Result, list[Point]]:
    _log("· planning generated profiles ...")
    try:
        points = planning_points(bench)
    except Exception as exc:  # reported like any benchmark that fails to run
        return Result(name="planning generated profiles", envplan="—", error=f"{type(exc).__name__}: {exc}"), []
    result = planning_result(points)
    _log(f"  {result.envplan}: {result.status}")
    return result, points


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    runs = 1 if args.quick else max(1, args.runs)
    args.out.mkdir(parents=True, exist_ok=True)
    start, load_before = time.perf_counter(), load_average()
    with tempfile.TemporaryDirectory(prefix="envplan-bench-") as tmp:
        work = Path(tmp)
        bench = Bench(
            inputs=build_inputs(work / "inputs"),
            work=work,
            cache=HERE / ".cache",
            runs=runs,
            quick=args.quick,
            with_torch=not args.no_torch,
            network=not args.no_network,
        )
        results = [_run_case(case, bench) for case in CASES]
        planning, points = _planning(bench)
        results.insert(len(results) - 1, planning)
        results += [_run_case(case, bench) for case in NETWORK_CASES]
    seconds = time.perf_counter() - start
    write_results(
        args.out / "RESULTS.md",
        results,
        points,
        quick=args.quick,
        runs=runs,
        seconds=seconds,
        load_before=load_before,
    )
    if points:
        plot_scaling(args.out / "results.png", points)
    explain_recall.update(args.out / "RESULTS.md", explain_recall.section())
    missed = [r.name for r in results if r.missed]
    _log(f"wrote {args.out / 'RESULTS.md'}" + (f"; missed: {', '.join(missed)}" if missed else "; all targets met"))
    return 0 if args.quick or not missed else 1


if __name__ == "__main__":
    sys.exit(main())
