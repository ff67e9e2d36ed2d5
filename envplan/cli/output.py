"""What every command prints: JSON documents (with a schema field) and the console for people."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from envplan.kb.model import Release
    from envplan.resolve.outcome import LockOutcome

__all__ = [
    "emit_json",
    "learned_notice",
    "outcome_line",
    "outcome_row",
    "plain",
    "report_written",
    "stdout_console",
    "target_row",
]


def emit_json(doc: dict[str, Any]) -> None:  # Any: a JSON document
    sys.stdout.write(json.dumps(doc, indent=2) + "\n")


def stdout_console() -> Console:
    from rich.console import Console

    # Piped output is read in files and logs: do not squeeze tables into 80 columns there.
    return Console(highlight=False, width=None if sys.stdout.isatty() else 100_000)


def report_written(args: argparse.Namespace, written: list[str]) -> None:
    if args.json:
        emit_json({"schema": 1, "written": written})
    else:
        for w in written:
            stdout_console().print(f"wrote {w}")


def plain(value: object) -> str:
    """A fact as a person reads it: lists joined, yes/no, '-' for nothing (never a Python repr)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value) or "-"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {plain(v)}" for k, v in value.items()) or "-"
    return "-" if value in ("", None) else str(value)


def outcome_row(o: LockOutcome) -> dict[str, object]:
    from envplan.cli.quicklock import lock_row

    return lock_row(o.name, o.status, o.changed, o.packages, o.files)


def outcome_line(o: LockOutcome, where: Path) -> str:
    if o.status == "stale":
        return f"{where}: stale ({'; '.join(o.changed)}): run envplan lock without --check"
    if o.status == "fresh":
        from envplan.resolve.freshness import fresh_message

        return fresh_message(str(where))
    return f"{where}: locked {o.packages} packages (requirements.txt, pylock.toml, lock.json)"


def target_row(release: Release) -> dict[str, object]:
    """The target release and whether it was learned from an index (`kb update`) rather than reviewed."""
    learned = release.source.startswith("learned by envplan kb update")
    return {"torch": str(release.torch), "learned": learned, "source": release.source}


def learned_notice(out: Console, release: Release) -> None:
    if target_row(release)["learned"]:
        out.print(f"[yellow]target torch {release.torch} is not in the reviewed KB: {release.source}[/yellow]")
