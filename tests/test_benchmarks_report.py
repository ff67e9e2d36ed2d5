"""The benchmark report's own logic, without running a benchmark: the floors beside a missed start-up target, the
retired target's reason, the real-lock rows' pin comparison and when they skip."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from cases import RELOCK_ROW, RETIRED_ROW, STARTUP_ROW
from reallock import pins
from report import write_results
from result import Result


def _report(tmp_path: Path, relock_ms: int) -> str:
    results = [
        Result(name=STARTUP_ROW, envplan="24 ms", reference="14 ms", ratio=24 / 14, target="ratio <= 2", passed=True),
        Result(
            name=RELOCK_ROW,
            envplan=f"{relock_ms} ms",
            reference="25 ms",
            ratio=relock_ms / 25,
            target="ratio <= 1",
            passed=relock_ms <= 25,
        ),
        Result(name=RETIRED_ROW, envplan="300 ms", reference="600 ms", ratio=0.5),
    ]
    path = tmp_path / "RESULTS.md"
    write_results(path, results, [], quick=False, runs=5, seconds=1.0, load_before="0.1 0.1 0.1")
    return path.read_text()


def test_a_missed_relock_target_is_reported_with_the_start_up_floor(tmp_path: Path) -> None:
    report = _report(tmp_path, relock_ms=70)
    assert f"**missed: {RELOCK_ROW}**" in report
    assert "- `python -c pass`: 14 ms" in report
    assert "- warm `uv pip compile --offline`, interpreter given: 25 ms" in report
    assert (
        f"- **{RELOCK_ROW}** missed: a bare Python start-up already costs 14 ms (a ratio of 0.56 against the "
        "reference's 25 ms), envplan's start-up 24 ms (0.96); the other 46 ms of its 70 ms are the command's own "
        "imports and work."
    ) in report


def test_met_targets_name_no_miss_and_the_retired_target_says_why(tmp_path: Path) -> None:
    report = _report(tmp_path, relock_ms=20)
    assert "**every target met**" in report
    assert "missed:" not in report
    assert f"- **{RETIRED_ROW}** had the target ratio <= 0.3." in report
    assert f"| {RETIRED_ROW} | 300 ms | 600 ms | 0.50 | — | info |" in report


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "# header\nfilelock==4.3.1 \\\n    --hash=sha256:ab\n    # via torch\ntorch==2.5.1 \\\n",
            {"filelock==4.3.1", "torch==2.5.1"},
        ),
        ("# only comments\n", set()),
    ],
)
def test_pins_reads_the_name_and_version_lines_of_a_hashed_lock(text: str, expected: set[str]) -> None:
    assert pins(text) == expected


@pytest.mark.parametrize(
    ("quick", "network", "why"),
    [(True, True, "--quick runs nothing over the network"), (False, False, "--no-network")],
)
def test_the_real_lock_rows_skip_without_touching_the_network(
    tmp_path: Path, quick: bool, network: bool, why: str
) -> None:
    from cases import Bench
    from inputs import build_inputs
    from reallock import REAL_COLD_ROW, REAL_WARM_ROW, real_lock_cold, real_lock_warm

    b = Bench(inputs=build_inputs(tmp_path / "in"), work=tmp_path, cache=tmp_path, runs=1, quick=quick, network=network)
    rows = [real_lock_cold(b), real_lock_warm(b)]
    assert [(r.name, r.status, r.missed) for r in rows] == [
        (REAL_COLD_ROW, f"skipped: {why}", False),
        (REAL_WARM_ROW, f"skipped: {why}", False),
    ]
