"""The knowledge base: matrix, kb update | show | reset."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from packaging.version import Version

from envplan.cli.args import url_arg, version_arg
from envplan.cli.output import emit_json, plain, report_written, stdout_console
from envplan.errors import EXIT_BAD_INPUT, EXIT_FAILED, EnvplanError

if TYPE_CHECKING:
    from envplan.kb.facts import KB
    from envplan.kb.model import Release
    from envplan.kb.update import Learned

__all__ = ["cmd_kb_reset", "cmd_kb_show", "cmd_kb_update", "cmd_matrix"]


def cmd_matrix(args: argparse.Namespace) -> int:
    from envplan.kb import load_kb

    if args.profiles and not args.report:
        raise EnvplanError(
            "bad-argument",
            "PROFILEs are pictured only in a report",
            where="PROFILE",
            hint="add --report FILE.html to picture them, or drop them for the table",
        )
    kb = load_kb()
    if args.report:
        return _matrix_report(args, kb)
    releases = list(kb.releases)
    if args.torch:
        releases = _filter_releases(releases, args.torch)
    if args.json:
        from envplan.render.data import matrix_document

        emit_json(matrix_document(releases))
    else:
        from envplan.render.console import matrix_table

        stdout_console().print(matrix_table(releases))
    return 0


def _filter_releases(releases: list[Release], text: str) -> list[Release]:
    want = version_arg(text, "--torch", "write X.Y (a minor) or X.Y.Z (a release)")
    exact = len(want.release) >= 3
    picked = [r for r in releases if (r.torch == want if exact else r.minor == Version(f"{want.major}.{want.minor}"))]
    if not picked:
        raise EnvplanError(
            "unknown-torch",
            f"the KB has no torch {text}",
            where="--torch",
            hint="run `envplan matrix` for the known releases",
            exit_code=EXIT_BAD_INPUT,
        )
    return picked


def _matrix_report(args: argparse.Namespace, kb: KB) -> int:
    from envplan.export.report import render_fleet_html
    from envplan.profile.model import load_profile
    from envplan.write import write_file

    if not args.profiles:
        raise EnvplanError(
            "bad-argument",
            "--report needs profiles to picture",
            where="--report",
            hint="envplan matrix profiles/*.toml --report fleet.html",
        )
    profiles = [load_profile(p) for p in args.profiles]
    write_file(Path(args.report), render_fleet_html(profiles, kb))
    report_written(args, [args.report])
    return 0


def cmd_kb_update(args: argparse.Namespace) -> int:
    if args.conda_channel:
        return cmd_kb_update_conda(args)
    from datetime import date

    from envplan.kb.refresh import Sources, refresh_overlay

    sources = Sources(
        pytorch=url_arg(args.pytorch_index, "--pytorch-index"),
        pypi=url_arg(args.pypi, "--pypi"),
        since=version_arg(args.since, "--since", "write a torch version, e.g. 2.5.1") if args.since else None,
        github_api=None if args.skip_github else args.github_api,
        offline=args.offline,
    )
    done = refresh_overlay(sources, date.today())
    if args.json:
        emit_json(
            {
                "schema": 1,
                "overlay": str(done.overlay),
                "learned": [_learned_row(i) for i in done.new],
                "extension-wheels": done.wheels,
                "known": done.known,
                "conflicts": done.conflicts,
                "notes": done.notes,
                "requests": {"fetched": done.fetched, "not-modified": done.not_modified},
            }
        )
        return 0
    console = stdout_console()
    for item in done.new:
        console.print(
            f"learned torch {item.torch}: {', '.join(item.variants)}; torchvision {item.torchvision or '?'}"
            f", torchaudio {item.torchaudio or '?'}; Python {', '.join(item.python)}; "
            f"PyPI default {item.pypi_default or '?'}"
        )
    for conflict in done.conflicts:
        console.print(f"[yellow]conflict: {conflict}[/yellow]")
    if done.wheels:
        console.print(f"{done.wheels} prebuilt extension wheel(s) seen on the GitHub releases")
    for note in done.notes:
        console.print(f"[yellow]note: {note}[/yellow]")
    console.print(
        f"{len(done.new)} new release(s) in {done.overlay}; {done.fetched} page(s) fetched, "
        f"{done.not_modified} unchanged"
    )
    return 0


def cmd_kb_update_conda(args: argparse.Namespace) -> int:
    from datetime import date

    from envplan.kb.condachannel import learn_conda_channel
    from envplan.kb.overlay import merge_conda, read_overlay, write_overlay
    from envplan.paths import cache_root

    platforms = tuple(args.conda_platform or ["linux-64"])
    rows: list[dict[str, object]] = []
    for url in args.conda_channel:
        rows += learn_conda_channel(url, platforms, cache_root() / "rattler", date.today())
    path = write_overlay(read_overlay(), conda=merge_conda(read_overlay(table="conda"), rows))
    counts: dict[str, int] = {}
    for row in rows:
        counts[str(row["name"])] = counts.get(str(row["name"]), 0) + 1
    if args.json:
        emit_json({"schema": 1, "overlay": str(path), "channels": list(args.conda_channel), "builds": rows})
    else:
        console = stdout_console()
        for url in args.conda_channel:
            mine = [r for r in rows if r["channel"] == url.rstrip("/")]
            torch = sorted({str(r["version"]) for r in mine if r["name"] == "pytorch"}, key=Version)
            console.print(f"{url}: {len(mine)} builds; pytorch {', '.join(torch) or 'none'}", markup=False)
        console.print(
            "learned " + ", ".join(f"{n}: {c}" for n, c in sorted(counts.items())) + f" into {path}", markup=False
        )
    return 0


def _learned_row(item: Learned) -> dict[str, object]:
    from dataclasses import asdict

    row = asdict(item)
    row["files"] = len(item.files)  # the proof is in the overlay; the count is enough here
    return row


def cmd_kb_show(args: argparse.Namespace) -> int:
    from envplan.kb import load_kb
    from envplan.render.data import release_row

    kb = load_kb()
    release = kb.release(version_arg(args.torch, "kb show", "write a torch version, e.g. 2.5.1"))
    if release is None:
        raise EnvplanError(
            "unknown-torch",
            f"the KB has no torch {args.torch}",
            where="kb show",
            hint="envplan matrix lists the releases; envplan kb update learns new ones",
        )
    row = release_row(release)
    row["origin"] = "learned (overlay)" if release.torch in kb.learned else "embedded KB"
    arch = {
        v: (w.arch_list() if (w := kb.wheel_archs(release, v)) else "unknown")
        for v in release.variants
        if v.startswith("cu")
    }
    row["architectures"] = arch
    if args.json:
        emit_json({"schema": 1, "release": row})
    else:
        console = stdout_console()
        for key, value in row.items():
            if isinstance(value, dict) and value:
                console.print(f"{key}:", markup=False)
                for sub, item in value.items():
                    console.print(f"  {sub}: {plain(item)}", markup=False)
            else:
                console.print(f"{key}: {plain(value)}", markup=False)
    return 0


def cmd_kb_reset(args: argparse.Namespace) -> int:
    import os

    from envplan.kb.overlay import overlay_path

    path = overlay_path()
    existed = os.path.lexists(path)
    try:
        if existed:
            path.unlink()
    except OSError as exc:
        raise EnvplanError(
            "write-failed",
            f"cannot remove the overlay: {exc.strerror or exc}",
            where=str(path),
            hint="remove it by hand, or check XDG_CACHE_HOME / ENVPLAN_KB_OVERLAY",
            exit_code=EXIT_FAILED,
        ) from None
    if args.json:
        emit_json({"schema": 1, "removed": str(path) if existed else None})
    else:
        stdout_console().print(f"removed {path}" if existed else "no learned releases to drop")
    return 0
