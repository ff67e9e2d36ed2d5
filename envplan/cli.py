"""The command line. Thin: parse arguments, call the core, render (rich or --json).

This is the only module that knows exit codes, --debug and colours:
0 = ok, 1 = a check failed, 2 = bad input, 3 = internal error (a bug: please report it).
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from packaging.version import Version

from envplan import __version__
from envplan.core.findings import Finding, has_errors
from envplan.errors import EXIT_BAD_INPUT, EXIT_FAILED, EnvplanError, ProfileError

__all__ = ["main"]

EXIT_INTERNAL = 3


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so every `finally` (temporary folders, staged plans) runs."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    args.debug = args.debug or args.debug_first  # `envplan --debug CMD` and `envplan CMD --debug` alike
    with warnings.catch_warnings(), _signals():
        warnings.showwarning = _show_warning
        return _run(args)


@contextmanager
def _signals() -> Iterator[None]:
    """On SIGINT or SIGTERM: stop the tools envplan started (uv, pip-compile, nox), then unwind."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        from envplan.resolve.runner import stop_children

        stop_children()
        raise _Terminated if signum == signal.SIGTERM else KeyboardInterrupt

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        runner = sys.modules.get("envplan.resolve.runner")
        if runner is not None:
            runner.allow_children()  # a later main() in this process (tests) starts tools again


def _show_warning(message: Warning | str, category: type[Warning], *rest: Any, **kw: Any) -> None:
    """envplan's own warnings (an ignored cache file) as one line on stderr; others as Python prints them."""
    from envplan.paths import CacheWarning

    if issubclass(category, CacheWarning):
        print(f"envplan: warning: {message}", file=sys.stderr)
    else:
        sys.stderr.write(warnings.formatwarning(message, category, *rest[:2]))


def _run(args: argparse.Namespace) -> int:
    try:
        _no_nul(args)
        handler: Callable[[argparse.Namespace], int] = args.handler
        return handler(args)
    except EnvplanError as exc:
        return _report_error(exc, args)
    except KeyboardInterrupt as exc:
        print("envplan: interrupted", file=sys.stderr)
        return 143 if isinstance(exc, _Terminated) else 130
    except Exception as exc:  # the one place a bug is turned into a message
        if args.debug:
            raise
        print(f"envplan: internal error: {exc!r} (run with --debug for the traceback, and report it)", file=sys.stderr)
        return EXIT_INTERNAL


def _no_nul(args: argparse.Namespace) -> None:
    """A NUL byte cannot come from a shell, and no path or version holds one: refuse it up front."""
    for key, value in vars(args).items():
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and "\0" in v for v in values):
            raise EnvplanError("bad-argument", f"the {key.replace('_', '-')} argument contains a NUL byte")


def _version_arg(text: str, where: str, hint: str) -> Version:
    """A version from the command line: ASCII digits, a sane length, PEP 440."""
    try:
        if text.isascii() and len(text) <= 64:
            return Version(text)
    except ValueError:  # InvalidVersion
        pass
    raise EnvplanError("bad-argument", f"{text[:64]!r} is not a version", where=where, hint=hint)


def _url_arg(text: str, where: str) -> str:
    from envplan.profile.model import index_url_problem

    problem = index_url_problem(text.rstrip("/"))
    if problem is not None:
        raise EnvplanError("bad-argument", problem, where=where, hint="give the index's full URL")
    return text.rstrip("/")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="envplan", description="Exact, reproducible, safely upgradable PyTorch environments."
    )
    parser.add_argument("--version", action="version", version=f"envplan {__version__}")
    parser.add_argument("--debug", dest="debug_first", action="store_true", help="show tracebacks")
    parser.set_defaults(debug=False, json=False)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", help="show tracebacks")
    common.add_argument("--json", action="store_true", help="machine-readable output (with a schema field)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    _plan_commands(sub, common)
    _environment_commands(sub, common)
    _export_commands(sub, common)
    _kb_commands(sub, common)
    return parser


def _plan_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    """Commands about profiles and plans: check, upgrade, lock, verify."""
    check = sub.add_parser("check", parents=[common], help="validate profiles and check them against the KB")
    check.add_argument("profiles", nargs="+", metavar="PROFILE")
    check.set_defaults(handler=cmd_check)

    upgrade = sub.add_parser("upgrade", parents=[common], help="plan a safe upgrade: torch, companions, extensions")
    upgrade.add_argument(
        "profiles", nargs="*", metavar="PROFILE", help="the profile (default: envplan.toml here); several = a fleet"
    )
    upgrade.add_argument("--report", metavar="FILE.html", help="also write the fleet picture (machines x releases)")
    upgrade.add_argument("--to", required=True, metavar="VERSION", help="2.1 (newest patch), 2.1.2 or latest")
    upgrade.add_argument("--variant", metavar="cuXYZ|cpu|auto", help="force the target's variant")
    upgrade.add_argument("--python-version", metavar="X.Y", help="move to this Python as part of the plan")
    upgrade.add_argument("--via-minors", action="store_true", help="hop through every minor release in between")
    upgrade.add_argument("--out", metavar="DIR", help="plan directory (default: plan-<from>-to-<to>)")
    upgrade.add_argument(
        "--force", action="store_true", help="replace --out even when it is a folder envplan did not write"
    )
    upgrade.add_argument("--no-lock", action="store_true", help="write the plan without lock files")
    _lock_options(upgrade, python_flag="--lock-python")
    upgrade.add_argument(
        "--write-profile",
        action="store_true",
        help="also rewrite PROFILE to the target stack (comments and layout kept)",
    )
    upgrade.set_defaults(handler=cmd_upgrade)

    lock = sub.add_parser(
        "lock",
        parents=[common],
        help="lock the profile's stack (hashed requirements.txt, pylock.toml), or every step of a plan folder",
    )
    lock.add_argument(
        "profile",
        nargs="?",
        default="envplan.toml",
        metavar="PROFILE|PLAN_DIR",
        help="the profile (default: envplan.toml here), or a plan folder to lock in place (upgrade --no-lock)",
    )
    lock.add_argument("--out", metavar="DIR", help="where the lock files go (default: lock-<profile name>)")
    _lock_options(lock, python_flag="--python")
    lock.add_argument("--check", action="store_true", help="resolve nothing; exit 1 if the lock is stale")
    lock.add_argument("--force", action="store_true", help="overwrite lock files in --out that envplan did not write")
    lock.set_defaults(handler=cmd_lock)

    abi = sub.add_parser(
        "abi-check",
        parents=[common],
        help="will each compiled extension load against the installed torch? (nothing imported)",
    )
    abi.add_argument(
        "targets",
        nargs="*",
        metavar="PATH_OR_PACKAGE",
        help=".so files or installed packages (default: every compiled extension that links torch)",
    )
    abi.add_argument("--python", metavar="PATH", help="the environment's interpreter (default: python on PATH)")
    abi.set_defaults(handler=cmd_abi_check)

    verify = sub.add_parser("verify", parents=[common], help="prove each step of a plan in a fresh environment (nox)")
    verify.add_argument("plan_dir", metavar="PLAN_DIR", help="the directory envplan upgrade wrote")
    verify.add_argument("--step", metavar="NAME", help="only this step")
    verify.add_argument("--require-gpu", action="store_true", help="fail, not skip, the GPU checks without a GPU")
    verify.add_argument(
        "--keep-envs",
        action="store_true",
        help="keep every step's environment (default: removed once the step passed; they live in the user cache)",
    )
    verify.set_defaults(handler=cmd_verify)


def _kb_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    """envplan kb update | show | reset."""
    kb = sub.add_parser("kb", help="the knowledge base: learn new releases from the indexes, show sources")
    verbs = kb.add_subparsers(dest="verb", required=True, metavar="VERB")
    update = verbs.add_parser("update", parents=[common], help="learn torch releases from the indexes")
    update.add_argument("--pytorch-index", default="https://download.pytorch.org/whl", metavar="URL")
    update.add_argument("--pypi", default="https://pypi.org/simple", metavar="URL")
    update.add_argument("--since", metavar="VERSION", help="only releases newer than this")
    update.add_argument("--offline", action="store_true", help="no network: answer from the cache")
    update.add_argument(
        "--github-api",
        default="https://api.github.com",
        metavar="URL",
        help="where the extensions' GitHub releases are listed (their prebuilt wheels are learned too)",
    )
    update.add_argument(
        "--skip-github", action="store_true", help="learn no extension wheels (e.g. where GitHub is unreachable)"
    )
    update.add_argument(
        "--conda-channel",
        action="append",
        metavar="URL",
        help="learn a conda channel's torch builds instead (e.g. https://conda.anaconda.org/conda-forge; repeatable)",
    )
    update.add_argument(
        "--conda-platform",
        action="append",
        metavar="SUBDIR",
        help="with --conda-channel: the platforms to learn (default linux-64; repeatable)",
    )
    update.set_defaults(handler=cmd_kb_update)
    show = verbs.add_parser("show", parents=[common], help="every fact of a release and where it comes from")
    show.add_argument("torch", metavar="VERSION")
    show.set_defaults(handler=cmd_kb_show)
    reset = verbs.add_parser("reset", parents=[common], help="drop the learned releases (the overlay)")
    reset.set_defaults(handler=cmd_kb_reset)


def _export_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    """envplan export docker | wheelhouse | uv | ci."""
    export = sub.add_parser("export", help="take a plan where it runs: Dockerfiles, wheelhouses, CI")
    kinds = export.add_subparsers(dest="kind", required=True, metavar="KIND")
    docker = kinds.add_parser("docker", parents=[common], help="a Dockerfile per step")
    docker.add_argument("plan_dir", metavar="PLAN_DIR")
    docker.add_argument("--step", metavar="NAME", help="only this step")
    docker.add_argument("-o", "--output", metavar="FILE", help="with --step: where (default PLAN_DIR/STEP/Dockerfile)")
    docker.set_defaults(handler=cmd_export_docker)
    wheels = kinds.add_parser("wheelhouse", parents=[common], help="every file of a step's lock, for offline installs")
    wheels.add_argument("plan_dir", metavar="PLAN_DIR")
    wheels.add_argument("--step", required=True, metavar="NAME")
    wheels.add_argument("-o", "--output", required=True, metavar="DIR")
    wheels.set_defaults(handler=cmd_export_wheelhouse)
    uv = kinds.add_parser("uv", parents=[common], help="a step as a uv project: pyproject.toml and uv.lock")
    uv.add_argument("plan_dir", metavar="PLAN_DIR")
    uv.add_argument("--step", required=True, metavar="NAME")
    uv.add_argument("-o", "--output", required=True, metavar="DIR", help="the project folder to write")
    uv.add_argument("--no-lock", action="store_true", help="write pyproject.toml only (run `uv lock` there later)")
    uv.set_defaults(handler=cmd_export_uv)
    ci = kinds.add_parser("ci", parents=[common], help="a GitHub Actions workflow: one job per step")
    ci.add_argument("plan_dirs", nargs="+", metavar="PLAN_DIR", help="a plan, or several (a fleet)")
    ci.add_argument("--github", action="store_true", required=True, help="GitHub Actions (the one kind so far)")
    ci.add_argument("-o", "--output", default=".github/workflows/envplan.yml", metavar="FILE")
    ci.add_argument(
        "--gpu-runner",
        action="append",
        metavar="LABEL",
        help="runner labels for GPU profiles (repeatable; default: self-hosted, linux, gpu)",
    )
    ci.set_defaults(handler=cmd_export_ci)


def _environment_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    """Commands about a live environment and the KB: doctor, init, explain, abi-check, matrix."""
    doctor = sub.add_parser("doctor", parents=[common], help="diagnose a live environment and this machine")
    doctor.add_argument("--python", metavar="PATH", help="the environment's interpreter (default: python on PATH)")
    doctor.add_argument("--profile", metavar="PROFILE", help="also report where the machine drifted from it")
    doctor.set_defaults(handler=cmd_doctor)

    init = sub.add_parser("init", parents=[common], help="write a profile from what is installed")
    init.add_argument("--python", metavar="PATH", help="the environment's interpreter (default: python on PATH)")
    init.add_argument(
        "-o",
        "--output",
        default="envplan.toml",
        metavar="FILE",
        help="the profile to write, or a folder for FOLDER/envplan.toml (default: envplan.toml)",
    )
    init.add_argument("--force", action="store_true", help="overwrite an existing file")
    init.add_argument(
        "--from",
        dest="from_files",
        nargs="+",
        metavar="FILE",
        help="read the project's requirements.txt, pyproject.toml, uv.lock, pylock.toml, environment.yml, "
        "conda-lock.yml instead of a live environment",
    )
    init.add_argument("--probe", action="store_true", help="with --from: also read this machine (GPUs, driver, nvcc)")
    init.add_argument("--torch", metavar="X.Y.Z", help="with --from: the torch release, when the files name several")
    init.add_argument("--variant", metavar="cuXYZ|cpu|auto", help="with --from: the torch build, when files don't say")
    init.set_defaults(handler=cmd_init)

    explain = sub.add_parser("explain", parents=[common], help="name the cause of an error log, and its fix")
    explain.add_argument("file", nargs="?", default="-", metavar="FILE", help="the log (default: standard input)")
    explain.set_defaults(handler=cmd_explain)

    matrix = sub.add_parser("matrix", parents=[common], help="the torch compatibility table")
    matrix.add_argument("--torch", metavar="X.Y[.Z]", help="only this minor (2.1) or release (2.1.2)")
    matrix.add_argument("profiles", nargs="*", metavar="PROFILE", help="with --report: the machines to picture")
    matrix.add_argument("--report", metavar="FILE.html", help="write the fleet picture of the PROFILEs")
    matrix.set_defaults(handler=cmd_matrix)


def _lock_options(parser: argparse.ArgumentParser, *, python_flag: str) -> None:
    parser.add_argument(
        "--backend",
        choices=("uv", "pip-tools"),
        help="the resolver (default: uv; for a plan folder, the one the plan was written with)",
    )
    parser.add_argument(
        "--conda", action="store_true", help="also solve the conda environment (py-rattler) into conda-lock.yml"
    )
    parser.add_argument(
        "--conda-lock",
        action="store_true",
        help="like --conda, but run conda-lock itself (needs conda, mamba or micromamba)",
    )

    parser.set_defaults(lock_python_flag=python_flag)
    parser.add_argument(
        python_flag,
        dest="lock_python",
        metavar="PATH",
        help="with --backend pip-tools: the interpreter pip-compile runs under",
    )


def _emit_json(doc: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(doc, indent=2) + "\n")


def _console() -> Any:
    from rich.console import Console

    # Piped output is read in files and logs: do not squeeze tables into 80 columns there.
    return Console(highlight=False, width=None if sys.stdout.isatty() else 100_000)


def _report_error(exc: EnvplanError, args: argparse.Namespace) -> int:
    for line in exc.lines():
        print(f"envplan: error: {line}", file=sys.stderr)
    if args.json:
        _emit_json(
            {"schema": 1, "error": {"ref": exc.ref, "message": exc.message, "where": exc.where, "lines": exc.lines()}}
        )
    return exc.exit_code


def cmd_check(args: argparse.Namespace) -> int:
    from envplan.core.check import check_profile
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
    if isinstance(exc, ProfileError):
        return [Finding(ref=p.ref, severity="error", key=p.key, message=p.message) for p in exc.problems]
    return [Finding(ref=exc.ref, severity="error", message=exc.message, fix=exc.hint)]


def _render_check(results: list[tuple[str, list[Finding]]], as_json: bool, unreadable: set[str]) -> None:
    if as_json:
        from envplan.render.data import check_document

        _emit_json(check_document(results))
        return
    from envplan.render.console import findings_view

    console = _console()
    for path, findings in results:
        if path in unreadable:
            console.print(
                f"{path}: FAILED (not checked: {len(findings)} problem(s) with the file, said above)", markup=False
            )
        else:
            console.print(findings_view(path, findings))


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

        _emit_json(matrix_document(releases))
    else:
        from envplan.render.console import matrix_table

        _console().print(matrix_table(releases))
    return 0


def _filter_releases(releases: list[Any], text: str) -> list[Any]:
    want = _version_arg(text, "--torch", "write X.Y (a minor) or X.Y.Z (a release)")
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


def cmd_upgrade(args: argparse.Namespace) -> int:
    from envplan.core.planner import resolve_target
    from envplan.kb import load_kb
    from envplan.paths import inside
    from envplan.profile.model import load_profile

    kb = load_kb()
    if args.to != "latest":
        _version_arg(args.to, "--to", "write X.Y (newest patch), X.Y.Z or latest")
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
    shared: dict[str, Any] = {"cache": {}, "fleet": fleet}  # identical steps across the fleet are resolved once
    root = Path(args.out or f"plan-fleet-to-{target.torch}") if fleet else None
    results = []
    for path, profile in zip(paths, profiles, strict=True):
        out = inside(root, profile.name, what=f"{path}: name") if root else Path(args.out) if args.out else None
        results.append(_upgrade_one(args, kb, target, (path, profile), out=out, shared=shared))
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
    kb: Any,
    target: Any,
    source: tuple[Path, Any],
    *,
    out: Path | None,
    shared: dict[str, Any],
) -> tuple[Any, Path, list[Any]]:
    from envplan.core.planner import plan_upgrade
    from envplan.write import check_out

    path, profile = source
    plan = plan_upgrade(
        profile,
        target,
        kb,
        variant=_variant_arg(args.variant, kb),
        python=_python_arg(args.python_version),
        via_minors=args.via_minors,
    )
    out = out or Path(f"plan-{plan.source.torch}-to-{target.torch}")
    locks: list[Any] = []
    if plan.status in ("ok", "current"):
        check_out(out, force=args.force, keep=(path,))  # refused before minutes of locking, not after
        text = path.read_text(encoding="utf-8")
        if not args.no_lock:
            from envplan.render.progress import lock_progress
            from envplan.resolve.locking import lock_plan

            how = _lock_how(args) + (f" for {profile.name}" if shared["fleet"] else "")
            with lock_progress(args.json, how=how) as progress:
                settings = _lock_settings(args, kb, text, profile, progress, cache=shared["cache"])
                with _lock_failure(plan, path, args.json):
                    locks = lock_plan(plan, profile.machine, out, settings)
        _write_plan(plan, kb, (path, text), out, locks=locks, options=args)
    return plan, out, locks


def _lock_choice(args: argparse.Namespace) -> Any:
    """How upgrade locks (or, with --no-lock, would lock) the plan's steps: recorded in plan.json."""
    from envplan.core.plan import LockState

    backend = args.backend or "uv"
    return LockState(
        locked=False,
        backend=backend,
        conda="conda-lock" if args.conda_lock else "rattler" if args.conda else "",
        python=(args.lock_python or "") if backend == "pip-tools" else "",
    )


@contextmanager
def _lock_failure(plan: Any, profile: Path, as_json: bool) -> Iterator[None]:
    """A lock that fails inside `upgrade`: show the plan it was locking, name the profile, offer --no-lock."""
    try:
        yield
    except EnvplanError as exc:
        if not as_json:
            from envplan.render.console import plan_view

            console = _console()
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


def _target_row(release: Any) -> dict[str, Any]:
    """The target release and whether it was learned from an index (`kb update`) rather than reviewed."""
    learned = release.source.startswith("learned by envplan kb update")
    return {"torch": str(release.torch), "learned": learned, "source": release.source}


def _learned_notice(console: Any, release: Any) -> None:
    if _target_row(release)["learned"]:
        console.print(f"[yellow]target torch {release.torch} is not in the reviewed KB: {release.source}[/yellow]")


def _render_fleet(results: list[tuple[Any, Path, list[Any]]], as_json: bool, choice: Any) -> None:
    from envplan.render.data import plan_document
    from envplan.resolve.planlock import lock_state

    if as_json:
        plans = []
        for plan, out, locks in results:
            doc = plan_document(plan, lock_state(choice, plan, locks))
            doc["out"] = str(out) if plan.status in ("ok", "current") else None
            doc["locks"] = [_outcome_row(o) for o in locks]
            doc["target"] = _target_row(plan.target)
            plans.append(doc)
        _emit_json({"schema": 1, "plans": plans})
        return
    from envplan.render.console import fleet_table

    console = _console()
    _learned_notice(console, results[0][0].target)
    console.print(fleet_table(results))


def cmd_lock(args: argparse.Namespace) -> int:
    from envplan.write import is_plan_dir

    if Path(args.profile).is_dir() and is_plan_dir(Path(args.profile)):
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
        _emit_json(
            {
                "schema": 1,
                "profile": args.profile,
                "out": str(out),
                "backend": settings.backend.name,
                "locks": [_outcome_row(outcome)],
            }
        )
    else:
        _console().print(_outcome_line(outcome, out))
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
        conda="conda-lock" if args.conda_lock else "rattler" if args.conda else None,
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
        _emit_json({**doc, "locks": [_outcome_row(o) for o in done.outcomes]})
        return EXIT_FAILED if stale else 0
    console = _console()
    for o in done.outcomes:
        console.print(_outcome_line(o, Path(args.profile) / o.name), markup=False)
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
    conda = "a conda solve" if args.conda or args.conda_lock else ""
    return " and ".join(part for part in (backend, conda) if part)


def _lock_settings(
    args: argparse.Namespace, kb: Any, text: str, profile: Any, progress: Any, *, cache: dict[str, Any] | None = None
) -> Any:
    from envplan.resolve import make_backend
    from envplan.resolve.locking import LockSettings

    return LockSettings(
        backend=make_backend(args.backend or "uv", python=args.lock_python, python_flag=args.lock_python_flag),
        kb=kb,
        profile_text=text,
        conda_alias=profile.indexes.conda if args.conda or args.conda_lock else None,
        conda_tool="conda-lock" if args.conda_lock else "rattler",
        check=getattr(args, "check", False),
        progress=progress,
        cache={} if cache is None else cache,
    )


def _fresh_lock(args: argparse.Namespace) -> int | None:
    """The answer for an unchanged lock, without planning or resolving (None: take the full path)."""
    from envplan.resolve.freshness import quick_fresh

    try:
        text = Path(args.profile).read_text(encoding="utf-8")
        from envplan import tomlread
        from envplan.paths import safe_name

        name = tomlread.loads(text)["name"]
        if not args.out and not (isinstance(name, str) and safe_name(name)):
            return None  # the full path reports the bad name
        out = Path(args.out or f"lock-{name}")
        if (args.backend or "uv") == "uv":
            from envplan.resolve import find_uv
            from envplan.resolve.uv import UvBackend

            backend = f"uv {UvBackend(uv=find_uv()).version}"
        else:
            return None
    except (OSError, ValueError, KeyError, TypeError, EnvplanError):
        return None
    if not quick_fresh(out, text, backend, conda=bool(args.conda or args.conda_lock)):
        return None
    from envplan.resolve.locking import STAMP, LockOutcome, pinned

    files = {n: (out / n).read_text(encoding="utf-8") for n in ("requirements.txt", "pylock.toml", STAMP)}
    outcome = LockOutcome(name=str(out), status="fresh", files=files, packages=pinned(files["requirements.txt"]))
    if args.json:
        _emit_json(
            {"schema": 1, "profile": args.profile, "out": str(out), "backend": "uv", "locks": [_outcome_row(outcome)]}
        )
    else:
        print(_outcome_line(outcome, out))
    return 0


def _outcome_row(o: Any) -> dict[str, Any]:
    return {
        "name": o.name,
        "status": o.status,
        "changed": list(o.changed),
        "packages": o.packages,
        "files": sorted(o.files),
    }


def _outcome_line(o: Any, where: Path) -> str:
    if o.status == "stale":
        return f"{where}: stale ({'; '.join(o.changed)}): run envplan lock without --check"
    if o.status == "fresh":
        return f"{where}: up to date (inputs unchanged, nothing resolved)"
    return f"{where}: locked {o.packages} packages (requirements.txt, pylock.toml, lock.json)"


def _variant_arg(text: str | None, kb: Any) -> str | None:
    """--variant: auto, or a build some torch release in the KB publishes (a typo is bad input, not a blocker)."""
    from envplan.kb.variants import parse_variant

    if text is None or text == "auto":
        return text
    if parse_variant(text) is None:
        raise EnvplanError(
            "bad-argument",
            f"{text!r} is not a variant",
            where="--variant",
            hint="use cpu, cuXYZ (e.g. cu121), rocmX.Y or auto",
        )
    published = (v for r in kb.releases for v in (*r.variants, *r.unadvertised_variants))
    known = {*published, *(v for a in kb.availability for v in a.variants)}
    if text not in known:
        from envplan.kb.variants import variant_sort_key

        raise EnvplanError(
            "bad-argument",
            f"no torch release in the KB publishes a {text} build",
            where="--variant",
            hint=f"use auto or one of {', '.join(sorted(known, key=variant_sort_key))}; "
            "`envplan kb update` learns newer builds",
        )
    return text


def _python_arg(text: str | None) -> Any:
    import re

    from envplan.profile.model import PythonSpec

    if text is None:
        return None
    m = re.fullmatch(r"(3\.\d{1,2})(t?)", text, re.ASCII)
    if m is None:
        raise EnvplanError(
            "bad-argument",
            f"{text!r} is not a Python version",
            where="--python-version",
            hint="write 3.12, or 3.13t for free-threaded CPython",
        )
    return PythonSpec(version=Version(m.group(1)), free_threaded=bool(m.group(2)))


def _write_plan(
    plan: Any, kb: Any, profile: tuple[Path, str], out: Path, *, locks: list[Any], options: argparse.Namespace
) -> None:
    from envplan.render.planfiles import plan_files
    from envplan.resolve.planlock import lock_state, planned_with
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
            _console().print(
                f"rewrote {profile[0]} to the target stack (torch {plan.target.torch}; comments and layout kept)",
                markup=False,
            )


def _render_plan(
    plan: Any, out: Path, as_json: bool, locks: list[Any], *, profile_rewritten: str | None = None, choice: Any
) -> None:
    if as_json:
        from envplan.render.data import plan_document
        from envplan.resolve.planlock import lock_state

        doc = plan_document(plan, lock_state(choice, plan, locks))
        doc["out"] = str(out) if plan.status in ("ok", "current") else None
        doc["profile_rewritten"] = profile_rewritten
        doc["locks"] = [_outcome_row(o) for o in locks]
        doc["target"] = _target_row(plan.target)
        _emit_json(doc)
        return
    from envplan.render.console import plan_view

    console = _console()
    _learned_notice(console, plan.target)
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


def cmd_abi_check(args: argparse.Namespace) -> int:
    from envplan.live.abicheck import check_environment
    from envplan.render.data import abi_row

    python = _target_python(args.python)
    torch, reports = check_environment(python, list(args.targets))
    if args.json:
        _emit_json({"schema": 1, "python": python, "torch": torch, "extensions": [abi_row(r) for r in reports]})
    else:
        from envplan.render.console import abi_table

        _console().print(abi_table(torch, reports))
    return 0 if all(r.ok for r in reports) else EXIT_FAILED


def cmd_verify(args: argparse.Namespace) -> int:
    from envplan.render.progress import step_bar
    from envplan.verify.runner import verify_plan

    plan_dir = Path(args.plan_dir)
    with step_bar("verifying", quiet=args.json) as bar:
        run = verify_plan(plan_dir, step=args.step, require_gpu=args.require_gpu, keep_envs=args.keep_envs, bar=bar)
    results = run.steps
    if args.json:
        doc = {"schema": 1, "plan": args.plan_dir, "steps": [r.to_dict() for r in results]}
        _emit_json({**doc, "environments": run.envs.to_dict()})
    else:
        from envplan.render.console import envs_line, verify_table

        console = _console()
        for r in results:
            if r.result == "failed" and r.output:
                sys.stderr.write(r.output[-4000:])
        console.print(verify_table(results))
        console.print(envs_line(run.envs, keep=args.keep_envs), markup=False)
    return 0 if all(r.result == "passed" for r in results) else EXIT_FAILED


def cmd_explain(args: argparse.Namespace) -> int:
    from envplan.kb import load_kb
    from envplan.live.demangle import demangle_one
    from envplan.live.diagnose import explain_text

    text = _read_input(args.file)
    found = explain_text(text, load_kb(), demangle=demangle_one)
    if args.json:
        _emit_json({"schema": 1, "findings": [d.to_dict() for d in found]})
        return 0
    from envplan.render.console import diagnoses_view

    _console().print(diagnoses_view(found))
    return 0


def _read_input(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise EnvplanError(
            "unreadable",
            f"cannot read: {exc.strerror}",
            where=name,
            hint="give a log file, or - to read standard input",
        ) from None


def _target_python(arg: str | None) -> str:
    import shutil

    from envplan.resolve import interpreter_arg

    return interpreter_arg(arg, "--python") or shutil.which("python3") or shutil.which("python") or sys.executable


def cmd_doctor(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from envplan.kb import load_kb
    from envplan.live.doctor import doctor
    from envplan.live.probe import probe
    from envplan.profile.model import load_profile
    from envplan.render.progress import spinner

    python = _target_python(args.python)
    profile = load_profile(args.profile) if args.profile else None
    kb = load_kb()
    with spinner(f"probing {python} (torch, CUDA, GPUs, driver)", quiet=args.json) as status:
        observed = probe(python)
        status.update(f"checking that the compiled extensions in {python} load against its torch")
        failures = _abi_failures(python) if observed.torch else ()
    findings = doctor(observed, kb, profile, extension_failures=failures)
    if args.json:
        _emit_json(
            {"schema": 1, "python": python, "observed": asdict(observed), "findings": [f.to_dict() for f in findings]}
        )
    else:
        from envplan.render.findings import doctor_view

        _console().print(doctor_view(observed, findings))
    return EXIT_FAILED if has_errors(findings) else 0


def _abi_failures(python: str) -> tuple[str, ...]:
    from envplan.live.abicheck import check_environment

    try:
        _, reports = check_environment(python, [])
    except EnvplanError:
        return ()
    return tuple(f"{r.name} {r.version} ({Path(r.path).name}) would not load: {r.why}" for r in reports if not r.ok)


def cmd_init(args: argparse.Namespace) -> int:
    if args.from_files:
        return cmd_init_from(args)
    from envplan.kb import load_kb
    from envplan.live.init import render_init_profile
    from envplan.live.probe import probe
    from envplan.render.progress import spinner
    from envplan.write import write_file

    out = _init_output(args)
    python = _target_python(args.python)
    with spinner(f"probing {python} and this machine (torch, CUDA, GPUs, driver)", quiet=args.json):
        observed = probe(python)
    text = render_init_profile(observed, load_kb())
    write_file(out, text)
    if args.json:
        _emit_json({"schema": 1, "written": str(out)})
    else:
        _console().print(f"wrote {out}: check it with `envplan check {out}`")
    return 0


def _init_output(args: argparse.Namespace) -> Path:
    """-o FILE, or -o DIR for DIR/envplan.toml; an existing file only with --force; checked before any probing."""
    from envplan.write import file_above

    out = Path(args.output)
    if out.is_dir():
        out = out / "envplan.toml"
    if out.is_dir():
        raise EnvplanError("exists", "is a folder", where=str(out), hint="give -o the profile file to write")
    if out.exists() and not args.force:
        raise EnvplanError("exists", "already exists", where=str(out), hint="pass --force to overwrite it, or -o FILE")
    blocker = file_above(out)
    if blocker is not None:
        raise EnvplanError(
            "bad-argument", f"{blocker} is a file, not a folder", where=f"-o {out}", hint="choose another -o"
        )
    return out


def cmd_init_from(args: argparse.Namespace) -> int:
    from envplan.importers import ImportOptions, draft_from_files
    from envplan.kb import load_kb
    from envplan.live.init import MachineDraft, machine_draft, render_profile
    from envplan.write import write_file

    out = _init_output(args)
    machine, python = MachineDraft(probed=False), f"{sys.version_info[0]}.{sys.version_info[1]}"
    if args.probe:
        from envplan.live.probe import probe
        from envplan.render.progress import spinner

        python = _target_python(args.python)
        with spinner(f"probing {python} and this machine (torch, CUDA, GPUs, driver)", quiet=args.json):
            observed = probe(python)
        machine, python = machine_draft(observed), ".".join(observed.python.split(".")[:2]) or python
    opts = ImportOptions(
        torch=args.torch or "", variant=args.variant or "", os=machine.os, arch=machine.arch, fallback_python=python
    )
    draft = draft_from_files([Path(f) for f in args.from_files], load_kb(), opts, machine)
    write_file(out, render_profile(draft))
    if args.json:
        _emit_json(
            {
                "schema": 1,
                "written": str(out),
                "from": list(args.from_files),
                "stack": {"torch": draft.torch, "variant": draft.variant, "python": draft.python},
                "torchvision": draft.torchvision or None,
                "torchaudio": draft.torchaudio or None,
                "extensions": [{"name": n, "version": v or None} for n, v in draft.extensions],
                "packages": list(draft.packages),
                "indexes": dict(draft.indexes),
                "notes": [n.removeprefix("note: ") for n in draft.notes],
            }
        )
    else:
        console = _console()
        console.print(
            f"wrote {out}: torch {draft.torch} ({draft.variant}), Python {draft.python}, "
            f"{len(draft.extensions)} extension(s), {len(draft.packages)} other package(s)"
        )
        for note in draft.notes:
            console.print(f"  {note}", markup=False)
        console.print(f"check it with `envplan check {out}`")
    return 0


def cmd_export_docker(args: argparse.Namespace) -> int:
    from envplan.export.docker import render_dockerfile
    from envplan.export.planfiles import read_plan_dir
    from envplan.kb import load_kb
    from envplan.paths import inside
    from envplan.write import write_file

    if args.output and not args.step:
        raise EnvplanError(
            "bad-argument",
            "-o names one Dockerfile, and a plan has one per step",
            where="-o",
            hint="add --step NAME, or drop -o to write PLAN_DIR/STEP/Dockerfile for every step",
        )
    plan = read_plan_dir(Path(args.plan_dir))
    for step in plan.step(args.step):  # every Dockerfile COPYs its step's lock: refused before any is written
        plan.require_locked(step["name"])
    written = []
    for step in plan.step(args.step):
        folder = inside(plan.root, step["name"], what=f"{plan.root / 'plan.json'}: steps")
        out = Path(args.output) if args.output else folder / "Dockerfile"
        write_file(out, render_dockerfile(step, plan.doc, load_kb()))
        written.append(str(out))
    _report_written(args, written)
    return 0


def cmd_export_uv(args: argparse.Namespace) -> int:
    from envplan.export.planfiles import read_plan_dir
    from envplan.export.uv import lock_uv_project, plan_machine, render_uv_project, uv_project
    from envplan.resolve import find_uv
    from envplan.resolve.reqparse import parse_requirements
    from envplan.write import write_file

    plan = read_plan_dir(Path(args.plan_dir))
    (step,) = plan.step(args.step)
    plan.require_locked(step["name"])
    lock = plan.root / step["name"] / "requirements.txt"
    locked = parse_requirements(lock.read_text(encoding="utf-8"))
    project = uv_project(step, plan.doc, locked, plan_machine(plan.root))
    out = Path(args.output)
    written = []
    for name, text in render_uv_project(project).items():
        write_file(out / name, text, parents=True)  # an unwritable -o is exit 1, not a traceback
        written.append(str(out / name))
    if not args.no_lock:
        lock_uv_project(out, find_uv(), where=step["name"])
        written.append(str(out / "uv.lock"))
    _report_written(args, written)
    return 0


def cmd_export_wheelhouse(args: argparse.Namespace) -> int:
    from envplan.export.planfiles import read_plan_dir
    from envplan.export.wheelhouse import build_wheelhouse
    from envplan.render.progress import downloads

    plan = read_plan_dir(Path(args.plan_dir))
    (step,) = plan.step(args.step)
    plan.require_locked(step["name"])
    out = Path(args.output)
    with downloads(args.json) as progress:
        files, fetched, kept = build_wheelhouse(plan, step["name"], out, progress=progress)
    if args.json:
        _emit_json({"schema": 1, "out": str(out), "files": files, "downloaded": fetched, "kept": kept})
    else:
        _console().print(f"{out}: {files} files ({fetched} downloaded, {kept} already there) and install.sh")
    return 0


def cmd_export_ci(args: argparse.Namespace) -> int:
    import os

    from envplan.export.ci import GPU_RUNNER, render_github_workflow
    from envplan.export.planfiles import read_plan_dir
    from envplan.write import write_file

    out = Path(args.output)
    plans = []
    for d in args.plan_dirs:
        plan = read_plan_dir(Path(d))
        for step in plan.steps:  # each job runs the step's nox session, which refuses a step without its lock
            plan.require_locked(step["name"])
        plans.append((os.path.relpath(plan.root, Path.cwd()), plan.doc))
    labels = tuple(args.gpu_runner) if args.gpu_runner else GPU_RUNNER
    write_file(out, render_github_workflow(plans, gpu_runner=labels), parents=True)
    _report_written(args, [str(out)])
    return 0


def _report_written(args: argparse.Namespace, written: list[str]) -> None:
    if args.json:
        _emit_json({"schema": 1, "written": written})
    else:
        for w in written:
            _console().print(f"wrote {w}")


def _matrix_report(args: argparse.Namespace, kb: Any) -> int:
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
    _report_written(args, [args.report])
    return 0


def cmd_kb_update(args: argparse.Namespace) -> int:
    if args.conda_channel:
        return cmd_kb_update_conda(args)
    from datetime import date

    from envplan.index.httpcache import CachedFetcher
    from envplan.kb import load_kb
    from envplan.kb.assets import wheel_rows
    from envplan.kb.overlay import merge_learned, overlay_path, read_overlay, write_overlay
    from envplan.kb.update import learn

    pytorch, pypi = _url_arg(args.pytorch_index, "--pytorch-index"), _url_arg(args.pypi, "--pypi")
    since = _version_arg(args.since, "--since", "write a torch version, e.g. 2.5.1") if args.since else None
    fetch = CachedFetcher(offline=args.offline)
    baseline = load_kb(overlay=False)
    result = learn(baseline, fetch, pytorch=pytorch, pypi=pypi, since=since)
    embedded = {str(r.torch) for r in baseline.releases}
    new = [item for item in result.learned if item.torch not in embedded]
    wheels = _learn_extension_wheels(args, result.notes)
    rows = wheel_rows(wheels) if wheels else None
    changed = bool(new or wheels)
    path = write_overlay(merge_learned(read_overlay(), new, date.today()), wheels=rows) if changed else overlay_path()
    doc = {
        "schema": 1,
        "overlay": str(path),
        "learned": [_learned_row(i) for i in new],
        "extension-wheels": len(wheels),
        "known": sorted({i.torch for i in result.learned} & embedded, key=Version),
        "conflicts": result.conflicts,
        "notes": result.notes,
        "requests": {"fetched": fetch.fetched, "not-modified": fetch.not_modified},
    }
    if args.json:
        _emit_json(doc)
    else:
        console = _console()
        for item in new:
            console.print(
                f"learned torch {item.torch}: {', '.join(item.variants)}; torchvision {item.torchvision or '?'}"
                f", torchaudio {item.torchaudio or '?'}; Python {', '.join(item.python)}; "
                f"PyPI default {item.pypi_default or '?'}"
            )
        for conflict in result.conflicts:
            console.print(f"[yellow]conflict: {conflict}[/yellow]")
        if wheels:
            console.print(f"{len(wheels)} prebuilt extension wheel(s) seen on the GitHub releases")
        for note in result.notes:
            console.print(f"[yellow]note: {note}[/yellow]")
        console.print(
            f"{len(new)} new release(s) in {path}; {fetch.fetched} page(s) fetched, {fetch.not_modified} unchanged"
        )
    return 0


def _learn_extension_wheels(args: argparse.Namespace, notes: list[str]) -> list[Any]:
    """The prebuilt wheels flash-attn, causal-conv1d and mamba-ssm attach to their GitHub releases."""
    if args.skip_github:
        return []
    from datetime import date

    from envplan.index.httpcache import CachedFetcher
    from envplan.kb.assets import learn_assets

    github = CachedFetcher(offline=args.offline, accept="application/vnd.github+json")
    try:
        wheels, failed = learn_assets(github, args.github_api, date.today())
    except EnvplanError as exc:
        notes.append(f"extension wheels not learned: {exc.message} (skip them with --skip-github)")
        return []
    notes += [f"extension wheels not learned from {f} (skip them with --skip-github)" for f in failed]
    return wheels


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
        _emit_json({"schema": 1, "overlay": str(path), "channels": list(args.conda_channel), "builds": rows})
    else:
        console = _console()
        for url in args.conda_channel:
            mine = [r for r in rows if r["channel"] == url.rstrip("/")]
            torch = sorted({str(r["version"]) for r in mine if r["name"] == "pytorch"}, key=Version)
            console.print(f"{url}: {len(mine)} builds; pytorch {', '.join(torch) or 'none'}", markup=False)
        console.print(
            "learned " + ", ".join(f"{n}: {c}" for n, c in sorted(counts.items())) + f" into {path}", markup=False
        )
    return 0


def _learned_row(item: Any) -> dict[str, Any]:
    from dataclasses import asdict

    row = asdict(item)
    row["files"] = len(item.files)  # the proof is in the overlay; the count is enough here
    return row


def cmd_kb_show(args: argparse.Namespace) -> int:
    from envplan.kb import load_kb
    from envplan.render.data import release_row

    kb = load_kb()
    release = kb.release(_version_arg(args.torch, "kb show", "write a torch version, e.g. 2.5.1"))
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
        _emit_json({"schema": 1, "release": row})
    else:
        console = _console()
        for key, value in row.items():
            if isinstance(value, dict) and value:
                console.print(f"{key}:", markup=False)
                for sub, item in value.items():
                    console.print(f"  {sub}: {_plain(item)}", markup=False)
            else:
                console.print(f"{key}: {_plain(value)}", markup=False)
    return 0


def _plain(value: object) -> str:
    """A fact as a person reads it: lists joined, yes/no, '-' for nothing (never a Python repr)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value) or "-"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_plain(v)}" for k, v in value.items()) or "-"
    return "-" if value in ("", None) else str(value)


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
        _emit_json({"schema": 1, "removed": str(path) if existed else None})
    else:
        _console().print(f"removed {path}" if existed else "no learned releases to drop")
    return 0
