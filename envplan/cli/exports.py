"""A plan taken where it runs: verify (nox), export docker | uv | wheelhouse | ci."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from envplan.cli.output import emit_json, report_written, stdout_console
from envplan.errors import EXIT_FAILED, EnvplanError

__all__ = ["cmd_export_ci", "cmd_export_docker", "cmd_export_uv", "cmd_export_wheelhouse", "cmd_verify"]


def cmd_verify(args: argparse.Namespace) -> int:
    from envplan.render.progress import step_bar
    from envplan.verify.runner import verify_plan

    plan_dir = Path(args.plan_dir)
    with step_bar("verifying", quiet=args.json) as bar:
        run = verify_plan(plan_dir, step=args.step, require_gpu=args.require_gpu, keep_envs=args.keep_envs, bar=bar)
    results = run.steps
    if args.json:
        doc = {"schema": 1, "plan": args.plan_dir, "steps": [r.to_dict() for r in results]}
        emit_json({**doc, "environments": run.envs.to_dict()})
    else:
        from envplan.render.console import envs_line, verify_table

        console = stdout_console()
        for r in results:
            if r.result == "failed" and r.output:
                sys.stderr.write(r.output[-4000:])
        console.print(verify_table(results))
        console.print(envs_line(run.envs, keep=args.keep_envs), markup=False)
    return 0 if all(r.result == "passed" for r in results) else EXIT_FAILED


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
    report_written(args, written)
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
    report_written(args, written)
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
        emit_json({"schema": 1, "out": str(out), "files": files, "downloaded": fetched, "kept": kept})
    else:
        stdout_console().print(f"{out}: {files} files ({fetched} downloaded, {kept} already there) and install.sh")
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
    report_written(args, [str(out)])
    return 0
