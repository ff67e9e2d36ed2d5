"""The arguments of every command. Handlers are "module:function" strings: a command imports only its module."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, cast

from envplan import __version__

__all__ = ["build_parser"]

SubParsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser for `argv`: when it names a command, only that command's arguments are built (each parser costs
    argparse a couple of milliseconds; a no-op `envplan lock` should not pay for twenty of them)."""
    wanted = next((a for a in argv if not a.startswith("-")), None)
    parser, matched = _build(wanted)
    return parser if matched else _build(None)[0]


def _build(wanted: str | None) -> tuple[argparse.ArgumentParser, bool]:
    parser = argparse.ArgumentParser(
        prog="envplan", description="Exact, reproducible, safely upgradable PyTorch environments."
    )
    parser.add_argument("--version", action="version", version=f"envplan {__version__}")
    parser.add_argument("--debug", dest="debug_first", action="store_true", help="show tracebacks")
    parser.set_defaults(debug=False, json=False)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", help="show tracebacks")
    common.add_argument("--json", action="store_true", help="machine-readable output (with a schema field)")
    sub = _Commands(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"), wanted)

    _plan_commands(sub, common)
    _environment_commands(sub, common)
    _export_commands(sub, common)
    _kb_commands(sub, common)
    return parser, wanted is None or sub.matched


class _Skipped:
    """Stands in for the parser of a command that is not running: takes every call, builds nothing."""

    def __getattr__(self, name: str) -> Callable[..., _Skipped]:
        return lambda *args, **kwargs: self


class _Commands:
    """add_parser for the command that runs (all of them when none is named, e.g. for --help)."""

    def __init__(self, sub: SubParsers, wanted: str | None) -> None:
        self.sub, self.wanted, self.matched = sub, wanted, False

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        if self.wanted is not None and name != self.wanted:
            return cast(argparse.ArgumentParser, _Skipped())  # never parsed: only its calls are absorbed
        self.matched = True
        return self.sub.add_parser(name, **kwargs)


def _plan_commands(sub: _Commands, common: argparse.ArgumentParser) -> None:
    """Commands about profiles and plans: check, upgrade, lock, verify."""
    check = sub.add_parser("check", parents=[common], help="validate profiles and check them against the KB")
    check.add_argument("profiles", nargs="+", metavar="PROFILE")
    check.set_defaults(handler="planning:cmd_check")

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
    upgrade.set_defaults(handler="planning:cmd_upgrade")

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
    lock.set_defaults(handler="planning:cmd_lock")

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
    abi.set_defaults(handler="machine:cmd_abi_check")

    verify = sub.add_parser("verify", parents=[common], help="prove each step of a plan in a fresh environment (nox)")
    verify.add_argument("plan_dir", metavar="PLAN_DIR", help="the directory envplan upgrade wrote")
    verify.add_argument("--step", metavar="NAME", help="only this step")
    verify.add_argument("--require-gpu", action="store_true", help="fail, not skip, the GPU checks without a GPU")
    verify.add_argument(
        "--keep-envs",
        action="store_true",
        help="keep every step's environment (default: removed once the step passed; they live in the user cache)",
    )
    verify.set_defaults(handler="exports:cmd_verify")


def _kb_commands(sub: _Commands, common: argparse.ArgumentParser) -> None:
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
    update.set_defaults(handler="knowledge:cmd_kb_update")
    show = verbs.add_parser("show", parents=[common], help="every fact of a release and where it comes from")
    show.add_argument("torch", metavar="VERSION")
    show.set_defaults(handler="knowledge:cmd_kb_show")
    reset = verbs.add_parser("reset", parents=[common], help="drop the learned releases (the overlay)")
    reset.set_defaults(handler="knowledge:cmd_kb_reset")


def _export_commands(sub: _Commands, common: argparse.ArgumentParser) -> None:
    """envplan export docker | wheelhouse | uv | ci."""
    export = sub.add_parser("export", help="take a plan where it runs: Dockerfiles, wheelhouses, CI")
    kinds = export.add_subparsers(dest="kind", required=True, metavar="KIND")
    docker = kinds.add_parser("docker", parents=[common], help="a Dockerfile per step")
    docker.add_argument("plan_dir", metavar="PLAN_DIR")
    docker.add_argument("--step", metavar="NAME", help="only this step")
    docker.add_argument("-o", "--output", metavar="FILE", help="with --step: where (default PLAN_DIR/STEP/Dockerfile)")
    docker.set_defaults(handler="exports:cmd_export_docker")
    wheels = kinds.add_parser("wheelhouse", parents=[common], help="every file of a step's lock, for offline installs")
    wheels.add_argument("plan_dir", metavar="PLAN_DIR")
    wheels.add_argument("--step", required=True, metavar="NAME")
    wheels.add_argument("-o", "--output", required=True, metavar="DIR")
    wheels.set_defaults(handler="exports:cmd_export_wheelhouse")
    uv = kinds.add_parser("uv", parents=[common], help="a step as a uv project: pyproject.toml and uv.lock")
    uv.add_argument("plan_dir", metavar="PLAN_DIR")
    uv.add_argument("--step", required=True, metavar="NAME")
    uv.add_argument("-o", "--output", required=True, metavar="DIR", help="the project folder to write")
    uv.add_argument("--no-lock", action="store_true", help="write pyproject.toml only (run `uv lock` there later)")
    uv.set_defaults(handler="exports:cmd_export_uv")
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
    ci.set_defaults(handler="exports:cmd_export_ci")


def _environment_commands(sub: _Commands, common: argparse.ArgumentParser) -> None:
    """Commands about a live environment and the KB: doctor, init, explain, abi-check, matrix."""
    doctor = sub.add_parser("doctor", parents=[common], help="diagnose a live environment and this machine")
    doctor.add_argument("--python", metavar="PATH", help="the environment's interpreter (default: python on PATH)")
    doctor.add_argument("--profile", metavar="PROFILE", help="also report where the machine drifted from it")
    doctor.set_defaults(handler="machine:cmd_doctor")

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
    init.set_defaults(handler="machine:cmd_init")

    explain = sub.add_parser("explain", parents=[common], help="name the cause of an error log, and its fix")
    explain.add_argument("file", nargs="?", default="-", metavar="FILE", help="the log (default: standard input)")
    explain.add_argument(
        "--python",
        metavar="PATH",
        help="the interpreter of the environment the log came from: its torch's exports decide which C++ ABI a "
        "missing symbol lacks (default: the text alone)",
    )
    explain.set_defaults(handler="machine:cmd_explain")

    matrix = sub.add_parser("matrix", parents=[common], help="the torch compatibility table")
    matrix.add_argument("--torch", metavar="X.Y[.Z]", help="only this minor (2.1) or release (2.1.2)")
    matrix.add_argument("profiles", nargs="*", metavar="PROFILE", help="with --report: the machines to picture")
    matrix.add_argument("--report", metavar="FILE.html", help="write the fleet picture of the PROFILEs")
    matrix.set_defaults(handler="knowledge:cmd_matrix")


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
