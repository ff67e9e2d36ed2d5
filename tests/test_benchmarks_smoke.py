"""The benchmark suite runs (one quick pass, no targets enforced), so it cannot rot; `nox -s bench` is the real run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT


def test_quick_benchmark_smoke(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--no-torch", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    report = (tmp_path / "RESULTS.md").read_text()
    for row in (
        "`envplan --version`, whole process",
        "`envplan lock` one profile (uv)",
        "lock of a 4-step plan",
        "re-run, unchanged inputs",
        "`envplan lock --check`, unchanged inputs",
        "`envplan lock --backend uv` vs pip-compile, nine tiny wheels",
        "conda lock (py-rattler)",
        "`upgrade --no-lock`, whole process",
        "planning 500 generated profiles",
    ):
        assert row in report
    for row in (
        "real lock: README quick-start profile from PyPI, cold",
        "real lock: README quick-start profile from PyPI, warm",
    ):
        assert f"| {row} | — | — | — | — | skipped: --quick runs nothing over the network |" in report
    assert (tmp_path / "results.png").stat().st_size > 1000
