"""`envplan kb update`: learn releases from the indexes (and the extensions' wheels from their GitHub releases),
merge them into the overlay, write it. The command line only parses and renders."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from packaging.version import Version

from envplan.errors import EnvplanError
from envplan.kb.model import ExtWheel
from envplan.kb.update import Learned

__all__ = ["Refreshed", "Sources", "refresh_overlay"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Sources:
    pytorch: str
    pypi: str
    since: Version | None = None
    github_api: str | None = None  # None: learn no extension wheels (--skip-github)
    offline: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class Refreshed:
    overlay: Path
    new: list[Learned]  # releases the embedded KB did not have
    known: list[str]  # releases seen that it has
    wheels: int  # prebuilt extension wheels seen
    conflicts: list[str]
    notes: list[str]
    fetched: int
    not_modified: int


def refresh_overlay(sources: Sources, today: date) -> Refreshed:
    from envplan.index.httpcache import CachedFetcher
    from envplan.kb.assets import wheel_rows
    from envplan.kb.facts import load_kb
    from envplan.kb.overlay import merge_learned, overlay_path, read_overlay, write_overlay
    from envplan.kb.update import learn

    fetch = CachedFetcher(offline=sources.offline)
    baseline = load_kb(overlay=False)
    result = learn(baseline, fetch, pytorch=sources.pytorch, pypi=sources.pypi, since=sources.since)
    embedded = {str(r.torch) for r in baseline.releases}
    new = [item for item in result.learned if item.torch not in embedded]
    notes = list(result.notes)
    wheels = _extension_wheels(sources, today, notes)
    if new or wheels:
        rows = wheel_rows(wheels) if wheels else None
        path = write_overlay(merge_learned(read_overlay(), new, today), wheels=rows)
    else:
        path = overlay_path()
    return Refreshed(
        overlay=path,
        new=new,
        known=sorted({i.torch for i in result.learned} & embedded, key=Version),
        wheels=len(wheels),
        conflicts=list(result.conflicts),
        notes=notes,
        fetched=fetch.fetched,
        not_modified=fetch.not_modified,
    )


def _extension_wheels(sources: Sources, today: date, notes: list[str]) -> list[ExtWheel]:
    """The prebuilt wheels flash-attn, causal-conv1d and mamba-ssm attach to their GitHub releases."""
    if sources.github_api is None:
        return []
    from envplan.index.httpcache import CachedFetcher
    from envplan.kb.assets import learn_assets

    github = CachedFetcher(offline=sources.offline, accept="application/vnd.github+json")
    try:
        wheels, failed = learn_assets(github, sources.github_api, today)
    except EnvplanError as exc:
        notes.append(f"extension wheels not learned: {exc.message} (skip them with --skip-github)")
        return []
    notes += [f"extension wheels not learned from {f} (skip them with --skip-github)" for f in failed]
    return wheels
