"""check, upgrade and lock: profiles in, findings, plans and locks out."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from envplan.cli.output import emit_json, learned_notice, outcome_line, outcome_row, stdout_console, target_row
from envplan.errors import EXIT_BAD_INPUT, EXIT_FAILED, EnvplanError, ProfileError

if TYPE_CHECKING:
    from concurrent.futures import Future

    from envplan.core.findings import Finding
    from envplan.core.plan import LockState, Plan
    from envplan.kb.facts import KB
    from envplan.kb.model import Release
    from envplan.profile.model import Profile
    from envplan.resolve.locking import LockSettings, Progress
    from envplan.resolve.outcome import LockOutcome

    LockCache = dict[str, Future[dict[str, str]]]  # identical steps across a fleet are resolved once
    Planned = tuple[Plan, Path, list[LockOutcome]]

__all__ = ["cmd_check", "cmd_lock", "cmd_upgrade"]


def cmd_check(args: argparse.Namespace) -> int:
    from envplan.core.check import check_profile
    from envplan.core.findings import has_errors
    from envplan.kb import load_kb
    from envplan.profile.model import load_profile

    kb = load_kb()
    results: list[tuple[str, list[Finding]]] = []
    unreadable: set[str] = set()  # said once, on stderr, as every command says bad input
    for path in args.profiles:
        try:
            results.append((path, check_profile(load_profile(path), kb)))
        except EnvplanError as exc:
            results.append((path, _input_findings(exc)))
            unreadable.add(path)
            for line in exc.lines():
                print(f"envplan: error: {line}", file=sys.stderr)
    _render_check(results, args.json, unreadable)
    if unreadable:
        return EXIT_BAD_INPUT
    return EXIT_FAILED if any(has_errors(f) for _, f in results) else 0


def _input_findings(exc: EnvplanError) -> list[Finding]:
    from envplan.core.findings import Finding

    if isinstance(exc, ProfileError):
        return [Finding(ref=p.ref, severity="error", key=p.key, message=p.message) for p in exc.problems]
    return [Finding(ref=exc.ref, severity="error", message=exc.message, fix=exc.hint)]


def _render_check(results: list[tuple[str, list[Finding]]], as_json: bool, unreadable: set[str]) -> None:
    if as_json:
        from envplan.render.data import check_document

        emit_json(check_document(results))
        return
    from envplan.render.console import findings_view

    console = stdout_console()
    for path, findings in results:
        if path in unreadable:
            console.print(
                f"{path}: FAILED (not checked: {len(findings)} problem(s) with the file, said above)", markup=False
            )
        else:
            console.print(findings_view(path, findings))


def cmd_upgrade(args: argparse.Namespace) -> int:
    from envplan.cli.args import version_arg
    from envplan.core.planner import resolve_target
    from envplan.kb import load_kb
    from envplan.paths import inside
    from envplan.profile.model import load_profile

    kb = load_kb()
    if args.to != "latest":
        version_arg(args.to, "--to", "write X.Y (newest patch), X.Y.Z or latest")
    target = resolve_target(args.to, kb)
    paths = [Path(p) for p in (args.profiles or ["envplan.toml"])]
    profiles = [load_profile(p) for p in paths]
    names = [p.name for p in profiles]
    if len(set(names)) != len(names):
        raise EnvplanError(
            "duplicate-name",
            "two profiles share a name: " + ", ".join(sorted(names)),
            where="PROFILE",
            hint="give each profile its own name (each gets its own plan folder)",
        )
    fleet = len(profiles) > 1
    shared: LockCache = {}  # identical steps across the fleet are resolved once
    root = Path(args.out or f"plan-fleet-to-{target.torch}") if fleet else None
    results = []
    for path, profile in zip(paths, profiles, strict=True):
        out = inside(root, profile.name, what=f"{path}: name") if root else Path(args.out) if args.out else None
        results.append(_upgrade_one(args, kb, target, (path, profile), out=out, shared=shared, fleet=fleet))
    if args.report:
        from envplan.export.report import render_fleet_html
        from envplan.write import write_file

        write_file(Path(args.report), render_fleet_html(profiles, kb, target=target))
    if fleet:
        _render_fleet(results, args.json, _lock_choice(args))
    else:
        plan, out, locks = results[0]
        rewritten = str(paths[0]) if args.write_profile and plan.status == "ok" else None
        _render_plan(plan, out, args.json, locks, profile_rewritten=rewritten, choice=_lock_choice(args))
    return 0 if all(plan.status in ("ok", "current") for plan, _, _ in results) else EXIT_FAILED


def _upgrade_one(
    args: argparse.Namespace,
    kb: KB,
    target: Release,
    source: tuple[Path, Profile],
    *,
    out: Path | None,
    shared: LockCache,
    fleet: bool,
) -> Planned:
    from envplan.cli.args import python_arg, variant_arg
    from envplan.core.planner import plan_upgrade
    from envplan.write import check_out

    path, profile = source
    plan = plan_upgrade(
        profile,
        target,
        kb,
        variant=variant_arg(args.variant, kb),
        python=python_arg(args.python_version),
        via_minors=args.via_minors,
    )
    out = out or Path(f"plan-{plan.source.torch}-to-{target.torch}")
    locks: list[LockOutcome] = []
    if plan.status in ("ok", "current"):
        check_out(out, force=args.force, keep=(path,))  # refused before minutes of locking, not after
        text = path.read_text(encoding="utf-8")
        if not args.no_lock:
            from envplan.render.progress import lock_progress
            from envplan.resolve.locking import lock_plan

            how = _lock_how(args) + (f" for {profile.name}" if fleet else "")
            with lock_progress(args.json, how=how) as progress:
                settings = _lock_settings(args, kb, text, profile, progress, cache=shared)
                with _lock_failure(plan, path, args.json):
                    locks = lock_plan(plan, profile.machine, out, settings)
        _write_plan(plan, kb, (path, text), out, locks=locks, options=args)
    return plan, out, locks


@contextmanager
def _lock_failure(plan: Plan, profile: Path, as_json: bool) -> Iterator[None]:
    """A lock that fails inside `upgrade`: show the plan it was locking, name the profile, offer --no-lock."""
    try:
        yield
    except EnvplanError as exc:
        if not as_json:
            from envplan.render.console import plan_view

            console = stdout_console()
            console.print(plan_view(plan))
            console.print("this plan was not written: locking one of its steps failed (below)")
        where = f"{profile}: {exc.where}" if exc.where and exc.where != str(profile) else str(profile)
        next_step = "or add --no-lock to write the plan without lock files"
        raise EnvplanError(
            exc.ref,
            exc.message,
            where=where,
            hint=f"{exc.hint}; {next_step}" if exc.hint else next_step.removeprefix("or "),
            exit_code=exc.exit_code,
        ) from exc


def _render_fleet(results: list[Planned], as_json: bool, choice: LockState) -> None:
    from envplan.render.data import plan_document
    from envplan.resolve.lockstate import lock_state

    if as_json:
        plans = []
        for plan, out, locks in results:
            doc = plan_document(plan, lock_state(choice, plan, locks))
            doc["out"] = str(out) if plan.status in ("ok", "current") else None
            doc["locks"] = [outcome_row(o) for o in locks]
            doc["target"] = target_row(plan.target)
            plans.append(doc)
        emit_json({"schema": 1, "plans": plans})
        return
    from envplan.render.console import fleet_table

    console = stdout_console()
    learned_notice(console, results[0][0].target)
    console.print(fleet_table(results))


def cmd_lock(args: argparse.Namespace) -> int:
    if Path(args.profile).is_dir():
        from envplan.write import is_plan_dir  # only here: the unchanged-lock path below stays light

        if is_plan_dir(Path(args.profile)):
            return _lock_plan_dir(args)
    fast = _fresh_lock(args)
    if fast is not None:
        return fast
    from envplan.kb import load_kb
    from envplan.profile.model import load_profile
    from envplan.render.progress import lock_progress
    from envplan.resolve.locking import lock_profile
    from envplan.write import check_lock_dir

    kb = load_kb()
    profile = load_profile(args.profile)
    text = Path(args.profile).read_text(encoding="utf-8")
    out = Path(args.out or f"lock-{profile.name}")
    if not args.check:
        check_lock_dir(out, force=args.force)
    with lock_progress(args.json, how=_lock_how(args)) as progress:
        settings = _lock_settings(args, kb, text, profile, progress)
        outcome = lock_profile(profile, out, settings)
    if args.json:
        emit_json(
            {
                "schema": 1,
                "profile": args.profile,
                "out": str(out),
                "backend": settings.backend.name,
                "locks": [outcome_row(outcome)],
            }
        )
    else:
        stdout_console().print(outcome_line(outcome, out))
    return EXIT_FAILED if outcome.status == "stale" else 0


def _lock_plan_dir(args: argparse.Namespace) -> int:
    """`envplan lock PLAN_DIR`: every step of the plan, in place, as the plan recorded (flags override)."""
    from envplan.resolve.planlock import LockOptions, lock_plan_dir

    for flag, given in (("--out", args.out), ("--force", args.force)):
        if given:
            raise EnvplanError(
                "bad-argument",
                "not for a plan folder, which is locked in place",
                where=flag,
                hint=f"drop {flag}",
            )
    options = LockOptions(
        backend=args.backend,
        conda=_conda_tool(args) or None,
        python=args.lock_python,
        check=args.check,
    )
    from envplan.render.progress import lock_progress

    with lock_progress(args.json, how=_lock_how(args, default=None)) as progress:
        done = lock_plan_dir(Path(args.profile), options, progress)
    stale = any(o.status == "stale" for o in done.outcomes)
    if args.json:
        doc = {
            "schema": 1,
            "plan": args.profile,
            "backend": done.lock.backend,
            "locked": done.lock.locked and not stale,
        }
        emit_json({**doc, "locks": [outcome_row(o) for o in done.outcomes]})
        return EXIT_FAILED if stale else 0
    console = stdout_console()
    for o in done.outcomes:
        console.print(outcome_line(o, Path(args.profile) / o.name), markup=False)
    if not args.check:
        console.print(
            f"{args.profile}: locked; PLAN.md, plan.json and each ENVIRONMENT.md say so. "
            f"Next: envplan verify {args.profile}",
            markup=False,
        )
    return EXIT_FAILED if stale else 0


def _lock_how(args: argparse.Namespace, *, default: str | None = "uv") -> str:
    """What the lock spinner says it runs: pip-compile can take minutes, say so (a plan folder locked without
    --backend uses the backend it recorded: nothing is said about it)."""
    backend = {"pip-tools": "with pip-compile (can take minutes)", "uv": "with uv", None: ""}[args.backend or default]
    conda = "a conda solve" if _conda_tool(args) else ""
    return " and ".join(part for part in (backend, conda) if part)


def _conda_tool(args: argparse.Namespace) -> str:
    """What solves the conda environment: "conda-lock" (--conda-lock), "rattler" (--conda), "" (neither)."""
    return "conda-lock" if args.conda_lock else "rattler" if args.conda else ""


def _lock_choice(args: argparse.Namespace) -> LockState:
    """How upgrade locks (or, with --no-lock, would lock) the plan's steps: recorded in plan.json."""
    from envplan.core.plan import LockState

    backend = args.backend or "uv"
    return LockState(
        locked=False,
        backend=backend,
        conda=_conda_tool(args),
        python=(args.lock_python or "") if backend == "pip-tools" else "",
    )


def _lock_settings(
    args: argparse.Namespace,
    kb: KB,
    text: str,
    profile: Profile,
    progress: Progress | None,
    *,
    cache: LockCache | None = None,
) -> LockSettings:
    from envplan.resolve import make_backend
    from envplan.resolve.locking import LockSettings

    return LockSettings(
        backend=make_backend(args.backend or "uv", python=args.lock_python, python_flag=args.lock_python_flag),
        kb=kb,
        profile_text=text,
        conda_alias=profile.indexes.conda if _conda_tool(args) else None,
        conda_tool=_conda_tool(args) or "rattler",
        check=getattr(args, "check", False),
        progress=progress,
        cache={} if cache is None else cache,
    )


def _fresh_lock(args: argparse.Namespace) -> int | None:
    """The answer for an unchanged lock, without planning or resolving (None: take the full path). The forms
    `quicklock` reads never get here; this serves the others (`--backend uv`, `--out=DIR`, `--debug`...)."""
    from envplan.cli.quicklock import render_fresh
    from envplan.resolve.freshness import fresh_lock

    backend = args.backend or "uv"
    found = fresh_lock(args.profile, args.out, backend, conda=bool(_conda_tool(args)))
    if found is None:
        return None
    folder = str(Path(found[0]))
    return render_fresh(args.profile, folder, found[1], as_json=args.json, backend=backend)


def _write_plan(
    plan: Plan, kb: KB, profile: tuple[Path, str], out: Path, *, locks: list[LockOutcome], options: argparse.Namespace
) -> None:
    from envplan.render.planfiles import plan_files
    from envplan.resolve.lockstate import lock_state, planned_with
    from envplan.write import write_file, write_tree

    asked = planned_with(str(plan.target.torch), options.variant, options.python_version, options.via_minors)
    lock = lock_state(_lock_choice(options), plan, locks)
    files = plan_files(plan, kb, profile[1], lock=lock, planned_with=asked)
    for step, outcome in zip(plan.steps, locks, strict=bool(locks)):
        files.update({f"{step.name}/{name}": text for name, text in outcome.files.items()})
    write_tree(out, files, force=options.force, keep=(profile[0],))
    if options.write_profile:
        write_file(profile[0], files["target-profile.toml"])
        if not options.json:
            stdout_console().print(
                f"rewrote {profile[0]} to the target stack (torch {plan.target.torch}; comments and layout kept)",
                markup=False,
            )


def _render_plan(
    plan: Plan,
    out: Path,
    as_json: bool,
    locks: list[LockOutcome],
    *,
    profile_rewritten: str | None = None,
    choice: LockState,
) -> None:
    if as_json:
        from envplan.render.data import plan_document
        from envplan.resolve.lockstate import lock_state

        doc = plan_document(plan, lock_state(choice, plan, locks))
        doc["out"] = str(out) if plan.status in ("ok", "current") else None
        doc["profile_rewritten"] = profile_rewritten
        doc["locks"] = [outcome_row(o) for o in locks]
        doc["target"] = target_row(plan.target)
        emit_json(doc)
        return
    from envplan.render.console import plan_view

    console = stdout_console()
    learned_notice(console, plan.target)
    console.print(plan_view(plan))
    if plan.status == "blocked":
        return
    locked = (
        (
            f"each step locked ({sum(o.status == 'locked' for o in locks)} resolved, "
            f"{sum(o.status == 'fresh' for o in locks)} unchanged)"
        )
        if locks
        else f"not locked (--no-lock): lock it later with `envplan lock {out}`"
    )
    console.print(f"plan written to {out}/ (PLAN.md, plan.json, one folder per step; {locked})")
