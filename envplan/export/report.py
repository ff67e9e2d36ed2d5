"""A picture of the fleet: one self-contained HTML page (no network, no script), machines x torch releases,
each cell coloured by what is possible there: which variant, only by minor-version compatibility, or blocked
and why (on hover)."""

from __future__ import annotations

import html
from dataclasses import dataclass, replace

from envplan.core.blockers import blockers_for
from envplan.core.compat import context_of
from envplan.core.variantchoice import choose_variant
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.profile.model import Profile

__all__ = ["Cell", "fleet_grid", "render_fleet_html"]


@dataclass(frozen=True, slots=True)
class Cell:
    status: str  # "ok" | "compat" | "blocked"
    label: str
    detail: str


def _columns(kb: KB) -> list[Release]:
    """The newest patch of every minor."""
    newest: dict[object, Release] = {}
    for r in kb.releases:
        newest[r.minor] = r
    return list(newest.values())


def _cell(profile: Profile, release: Release, kb: KB) -> Cell:
    ctx = replace(context_of(profile, kb), toolkit_installable=True)  # a toolkit can be installed: not a blocker
    py = profile.python
    blockers = blockers_for(ctx, release, kb, python=py.version, free_threaded=py.free_threaded)
    if blockers:
        return Cell("blocked", blockers[0].ref.split("-")[0], "; ".join(f"{b.message} ({b.fix})" for b in blockers))
    choice = choose_variant(ctx, release, kb)
    if choice.variant is None:
        return Cell("blocked", "variant", choice.reason)
    compat = any(f.ref == "driver-minor-compat" for f in choice.findings)
    return Cell("compat" if compat else "ok", choice.variant, choice.reason)


def fleet_grid(profiles: list[Profile], kb: KB) -> tuple[list[Release], list[tuple[Profile, list[Cell]]]]:
    columns = _columns(kb)
    return columns, [(p, [_cell(p, r, kb) for r in columns]) for p in profiles]


_CSS = """
body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}
table{border-collapse:collapse;font-size:.8rem}
th,td{border:1px solid #ccc;padding:.3rem .4rem;text-align:center;white-space:nowrap}
th.machine{text-align:left}
td.ok{background:#c8e6c9}td.compat{background:#ffe082}td.blocked{background:#ef9a9a}
td.now{outline:3px solid #1565c0;outline-offset:-3px}th.target{background:#bbdefb}
.legend span{display:inline-block;padding:.2rem .5rem;margin-right:.5rem}
"""


def render_fleet_html(profiles: list[Profile], kb: KB, *, target: Release | None = None) -> str:
    columns, rows = fleet_grid(profiles, kb)
    head = "".join(
        f'<th class="{"target" if target and r.minor == target.minor else ""}">{r.torch}</th>' for r in columns
    )
    body = []
    for profile, cells in rows:
        machine = html.escape(
            f"{profile.name}: {', '.join(profile.machine.gpus) or 'CPU'}"
            + (f", driver {profile.machine.driver}" if profile.machine.driver else "")
            + f", Python {profile.python}"
        )
        tds = "".join(
            f'<td class="{c.status}{" now" if r.minor == _minor(profile) else ""}"'
            f' title="{html.escape(c.detail)}">{html.escape(c.label)}</td>'
            for r, c in zip(columns, cells, strict=True)
        )
        body.append(f'<tr><th class="machine">{machine}</th>{tds}</tr>')
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>envplan fleet</title>'
        f"<style>{_CSS}</style></head><body>\n<h1>What each machine can run</h1>\n"
        '<p class="legend"><span class="ok" style="background:#c8e6c9">variant: fully supported</span>'
        '<span style="background:#ffe082">only by CUDA minor-version compatibility</span>'
        '<span style="background:#ef9a9a">blocked (hover for why)</span>'
        "framed: the torch each machine runs today; shaded column: the target</p>\n"
        f"<table><thead><tr><th>machine</th>{head}</tr></thead><tbody>\n"
        + "\n".join(body)
        + "\n</tbody></table>\n</body></html>\n"
    )


def _minor(profile: Profile) -> object:
    from envplan.kb.model import minor_of

    return minor_of(profile.stack.torch)
