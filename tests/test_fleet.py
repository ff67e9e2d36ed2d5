"""Fleets: several profiles planned at once, one summary, and the fleet picture (self-contained HTML)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from helpers import ROOT, run

PROFILES = sorted(str(p) for p in (ROOT / "profiles").glob("*.toml"))


def test_a_fleet_plans_each_machine_and_summarizes(tmp_path: Path) -> None:
    result = run("upgrade", *PROFILES, "--to", "2.8", "--no-lock", "--out", "fleet", "--json", cwd=tmp_path)
    assert result.returncode == 1, "t4-old-driver cannot take 2.8: the fleet exits 1"
    plans = {p["profile"]: p for p in json.loads(result.stdout)["plans"]}
    assert plans["t4-old-driver"]["status"] == "blocked"
    assert [b["ref"] for b in plans["t4-old-driver"]["blockers"]] == ["driver-too-old", "glibc-too-old"]
    assert plans["rtx5090-blackwell"]["steps"][-1]["variant"] in ("cu128", "cu129")
    assert sorted(p.name for p in (tmp_path / "fleet").iterdir()) == sorted(
        name for name, p in plans.items() if p["status"] == "ok"
    )
    human = run("upgrade", *PROFILES, "--to", "2.8", "--no-lock", "--out", "fleet", cwd=tmp_path)
    assert "BLOCKED" in human.stdout and "fleet/cpu-laptop/" in human.stdout


def test_two_profiles_with_one_name_are_refused(tmp_path: Path) -> None:
    shutil.copy(PROFILES[0], tmp_path / "a.toml")
    shutil.copy(PROFILES[0], tmp_path / "b.toml")
    result = run("upgrade", "a.toml", "b.toml", "--to", "2.1", "--no-lock", cwd=tmp_path)
    assert result.returncode == 2 and "two profiles share a name" in result.stderr


class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[dict[str, str]]] = []
        self.head: list[str] = []
        self._cell: dict[str, str] | None = None
        self._in_head = False
        self.external = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag in ("script", "link", "img") or a.get("src") or a.get("href", "").startswith("http"):
            self.external.append(tag)
        if tag == "thead":
            self._in_head = True
        if tag == "tr" and not self._in_head:
            self.rows.append([])
        if tag == "td":
            self._cell = {"class": a.get("class", ""), "title": a.get("title", ""), "text": ""}

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self._in_head = False
        if tag == "td" and self._cell is not None:
            self.rows[-1].append(self._cell)
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell["text"] += data
        elif self._in_head and data.strip() and data.strip() != "machine":
            self.head.append(data.strip())


def test_fleet_picture_is_self_contained_and_says_why(tmp_path: Path) -> None:
    result = run("matrix", *PROFILES, "--report", "fleet.html", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    page = _Cells()
    page.feed((tmp_path / "fleet.html").read_text())
    assert page.external == [], "no network, no script"
    assert len(page.rows) == len(PROFILES) and all(len(r) == len(page.head) for r in page.rows)
    by_profile = dict(zip(sorted(Path(p).stem for p in PROFILES), page.rows, strict=True))
    column = {v: i for i, v in enumerate(page.head)}
    blackwell = by_profile["rtx5090-blackwell"]
    assert "blocked" in blackwell[column["2.6.0"]]["class"] and "sm_120" in blackwell[column["2.6.0"]]["title"]
    assert blackwell[column["2.7.1"]]["text"] == "cu128"
    t4 = by_profile["t4-old-driver"]
    assert "compat" in t4[column["2.0.1"]]["class"], "driver 470 runs cu11x only by minor-version compatibility"
    assert "now" in t4[column["1.13.1"]]["class"], "today's torch is framed"
    laptop = by_profile["cpu-laptop"]
    assert laptop[column["2.13.0"]]["text"] == "cpu" and "ok" in laptop[column["2.13.0"]]["class"]


def test_fleet_picture_renders_in_a_browser(tmp_path: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        if os.environ.get("ENVPLAN_REQUIRE_BROWSER"):  # CI installed it: a skip there would hide a broken report
            pytest.fail("ENVPLAN_REQUIRE_BROWSER is set but no chromium is on PATH")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    run("matrix", *PROFILES, "--report", "fleet.html", cwd=tmp_path)
    shot = tmp_path / "fleet.png"
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            f"--user-data-dir={tmp_path / 'chrome'}",
            f"--screenshot={shot}",
            "--window-size=1600,600",
            (tmp_path / "fleet.html").as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert shot.is_file() and shot.stat().st_size > 10_000
