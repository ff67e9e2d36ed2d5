"""The explain corpus (tests/data/explain-corpus/*.toml): real failure reports, their split and their scores.

Each report is the text a user pasted (cut to the relevant lines), its source URL and the cause the thread
settled on (a catalogue ref, or "none"). The split is fixed by a hash of the URL, so it never depends on the
rules: "dev" is what the rules were tuned on, "held-out" was measured once at the end, "fresh" was collected
after the tuning and measured before any further change (its files are named fresh-*.toml). Later rounds add
batches named by their files (batch-a-*.toml -> "batch-a"): each collected before the round's rule changes,
measured first, and only the batches the README says were tuned on were ever studied for misses.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import tomllib

CORPUS = Path(__file__).resolve().parent / "data" / "explain-corpus"
MEASUREMENTS = "measurements.toml"  # first scores of each batch, not reports
READINGS = "blind-reading.toml"  # what readers of the text alone named for each report, not reports
HELD_OUT_SHARE = 3  # one report in three (by URL hash) is held out

__all__ = [
    "CORPUS",
    "HELD_OUT_BATCHES",
    "Measurement",
    "Reading",
    "Report",
    "Score",
    "load_measurements",
    "load_readings",
    "load_reports",
    "parts",
    "ratio",
    "read_by_reader",
    "score",
]

# batches never tuned on (tests/data/explain-corpus/README.md): their first measurement is their only floor
HELD_OUT_BATCHES = ("batch-g",)


@dataclass(frozen=True, kw_only=True, slots=True)
class Report:
    url: str
    cause: str
    text: str
    note: str
    file: str

    @property
    def part(self) -> str:
        if self.file.startswith("fresh-"):
            return "fresh"
        if self.file.startswith("batch-"):
            return "-".join(self.file.split("-")[:2])  # batch-a-github.toml -> batch-a
        digest = int(hashlib.sha256(self.url.encode()).hexdigest()[:8], 16)
        return "held-out" if digest % HELD_OUT_SHARE == 0 else "dev"

    @property
    def source(self) -> str:
        """ "github" for an issue tracker, "web" for a forum, blog or Q&A page."""
        return "github" if urlparse(self.url).netloc == "github.com" else "web"

    @property
    def project(self) -> str:
        parsed = urlparse(self.url)
        if parsed.netloc != "github.com":
            return parsed.netloc
        return "/".join(parsed.path.strip("/").split("/")[:2])


def parts(reports: Iterable[Report]) -> tuple[str, ...]:
    """The corpus's parts in the order they were made: the round-1 split, then the batches by name."""
    present = {r.part for r in reports}
    first = tuple(p for p in ("dev", "held-out", "fresh") if p in present)
    return first + tuple(sorted(p for p in present if p.startswith("batch-")))


def load_reports(corpus: Path = CORPUS) -> list[Report]:
    reports = []
    for path in sorted(corpus.glob("*.toml")):
        if path.name in (MEASUREMENTS, READINGS):
            continue
        for entry in tomllib.loads(path.read_text(encoding="utf-8"))["report"]:
            reports.append(
                Report(
                    url=entry["url"],
                    cause=entry["cause"],
                    text=entry["text"],
                    note=entry.get("note", ""),
                    file=path.name,
                )
            )
    return reports


@dataclass(frozen=True, kw_only=True, slots=True)
class Reading:
    """One report read blind: by a reader who saw its text alone (no thread, URL, label or envplan), in random order."""

    url: str
    reader: int
    cause: str  # what the reader would name to the user, or "none" when the text does not let them tell
    guess: str  # the reader's best guess, named or not
    sure: str  # "high" | "medium" | "low", of the guess
    why: str
    again: str | None  # the cause named when the same text came back under another id
    again_reader: str | None  # "same" or "other": who read it the second time


def load_readings(corpus: Path = CORPUS) -> dict[str, Reading]:
    path = corpus / READINGS
    entries = tomllib.loads(path.read_text(encoding="utf-8"))["reading"] if path.exists() else []
    return {
        e["url"]: Reading(
            url=e["url"],
            reader=e["reader"],
            cause=e["cause"],
            guess=e["guess"],
            sure=e["sure"],
            why=e["why"],
            again=e.get("again"),
            again_reader=e.get("again-reader"),
        )
        for e in entries
    }


@dataclass(frozen=True, kw_only=True, slots=True)
class Measurement:
    """A batch scored once, recorded in measurements.toml by the commit of the rules that scored it."""

    part: str
    when: str
    rules: str  # short commit of the rules measured
    right: int
    total: int
    sources: dict[str, tuple[int, int]]  # "github"/"web" -> (right, reports)
    causes: dict[str, tuple[int, int]]  # cause -> (right cause first, reports)

    @property
    def share(self) -> float:
        return self.right / self.total if self.total else 1.0


def load_measurements(corpus: Path = CORPUS) -> list[Measurement]:
    path = corpus / MEASUREMENTS
    entries = tomllib.loads(path.read_text(encoding="utf-8"))["measurement"] if path.exists() else []
    return [
        Measurement(
            part=e["part"],
            when=e["when"],
            rules=e["rules"],
            right=e["right"],
            total=e["total"],
            sources={s: (e[s][0], e[s][1]) for s in ("github", "web")},
            causes={c: (v[0], v[1]) for c, v in e["causes"].items()},
        )
        for e in entries
    ]


@dataclass(frozen=True, kw_only=True, slots=True)
class Score:
    """What explain named first for each report, against the cause the thread settled on."""

    pairs: tuple[tuple[Report, str], ...]  # (report, the first ref explain named, or "none")

    @property
    def right(self) -> int:
        return sum(1 for r, got in self.pairs if got == r.cause)

    @property
    def total(self) -> int:
        return len(self.pairs)

    @property
    def share(self) -> float:
        return self.right / self.total if self.total else 1.0

    def recall(self, cause: str) -> tuple[int, int]:
        mine = [got for r, got in self.pairs if r.cause == cause]
        return sum(1 for got in mine if got == cause), len(mine)

    def precision(self, cause: str) -> tuple[int, int]:
        named = [r.cause for r, got in self.pairs if got == cause]
        return sum(1 for want in named if want == cause), len(named)

    def causes(self) -> list[str]:
        return sorted(Counter(r.cause for r, _ in self.pairs), key=lambda c: (c == "none", c))

    def misses(self) -> list[tuple[Report, str]]:
        return [(r, got) for r, got in self.pairs if got != r.cause]

    def pairs_reports(self) -> list[Report]:
        return [r for r, _ in self.pairs]

    def only(self, keep: Callable[[Report], bool]) -> Score:
        return Score(pairs=tuple((r, got) for r, got in self.pairs if keep(r)))


def score(reports: Iterable[Report], first_ref: Callable[[str], str]) -> Score:
    return Score(pairs=tuple((r, first_ref(r.text)) for r in reports))


def read_by_reader(reports: Iterable[Report], readings: dict[str, Reading]) -> Score:
    """What the blind readers named, scored like explain: the reader's `cause` against the thread's."""
    return Score(pairs=tuple((r, readings[r.url].cause) for r in reports))


def table(scores: Sequence[tuple[str, Score]]) -> list[str]:
    """A markdown table: per cause, recall (right first / reports) and precision in each scored part."""
    parts = [name for name, _ in scores]
    lines = [
        "| cause | " + " | ".join(f"{p} recall | {p} precision" for p in parts) + " |",
        "|---|" + "---|---|" * len(parts),
    ]
    causes = sorted({c for _, s in scores for c in s.causes()}, key=lambda c: (c == "none", c))
    for cause in causes:
        cells = []
        for _, s in scores:
            cells += [ratio(*s.recall(cause)), ratio(*s.precision(cause))]
        lines.append(f"| `{cause}` | " + " | ".join(cells) + " |")
    lines.append("| **all** | " + " | ".join(f"**{ratio(s.right, s.total)}** | " for _, s in scores) + "|")
    return lines


def measurement_table(measurements: Sequence[Measurement], reader: Score | None = None) -> list[str]:
    """A markdown table: per cause, the recall each batch had when it was first measured; with `reader`, a last row
    with what a blind reader of the same texts named right."""
    heads = [f"{m.part} ({m.rules})" for m in measurements]
    lines = ["| cause | " + " | ".join(heads) + " |", "|---|" + "---|" * len(heads)]
    causes = sorted({c for m in measurements for c in m.causes}, key=lambda c: (c == "none", c))
    for cause in causes:
        lines.append(f"| `{cause}` | " + " | ".join(ratio(*m.causes.get(cause, (0, 0))) for m in measurements) + " |")
    for source in ("github", "web"):
        lines.append(f"| {source} | " + " | ".join(ratio(*m.sources[source]) for m in measurements) + " |")
    lines.append("| **all** | " + " | ".join(f"**{ratio(m.right, m.total)}**" for m in measurements) + " |")
    if reader is not None:
        cells = [reader.only(lambda r, part=m.part: r.part == part) for m in measurements]
        lines.append("| a reader of the text alone | " + " | ".join(ratio(s.right, s.total) for s in cells) + " |")
    return lines


def ratio(right: int, total: int) -> str:
    """ "right/total (share%)", or a dash when there is nothing to count."""
    return f"{right}/{total} ({100 * right / total:.0f}%)" if total else "—"
