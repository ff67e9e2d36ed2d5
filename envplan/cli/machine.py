"""The live machine: doctor, explain, abi-check, init."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from envplan.cli.args import read_input, target_python
from envplan.cli.output import emit_json, stdout_console
from envplan.core.findings import has_errors
from envplan.errors import EXIT_FAILED, EnvplanError

__all__ = ["cmd_abi_check", "cmd_doctor", "cmd_explain", "cmd_init", "cmd_init_from"]


def cmd_abi_check(args: argparse.Namespace) -> int:
    from envplan.live.abicheck import check_environment
    from envplan.render.data import abi_row

    python = target_python(args.python)
    torch, reports = check_environment(python, list(args.targets))
    if args.json:
        emit_json({"schema": 1, "python": python, "torch": torch, "extensions": [abi_row(r) for r in reports]})
    else:
        from envplan.render.console import abi_table

        stdout_console().print(abi_table(torch, reports))
    return 0 if all(r.ok for r in reports) else EXIT_FAILED


def cmd_explain(args: argparse.Namespace) -> int:
    from envplan.kb import load_kb
    from envplan.live.demangle import demangle_one
    from envplan.live.diagnose import explain_text

    text = read_input(args.file)
    installed = None
    if args.python:
        from envplan.live.torchexports import installed_torch

        installed = installed_torch(target_python(args.python))
    found = explain_text(text, load_kb(), demangle=demangle_one, installed=installed)
    if args.json:
        document: dict[str, object] = {"schema": 1, "findings": [d.to_dict() for d in found]}
        if installed is not None:
            document["environment"] = {"python": installed.python, "torch": installed.version}
        emit_json(document)
        return 0
    from envplan.render.console import diagnoses_view

    if installed is not None:
        stdout_console().print(f"read against torch {installed.version} in {installed.python}", style="dim")
    stdout_console().print(diagnoses_view(found))
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from envplan.kb import load_kb
    from envplan.live.abicheck import load_failures
    from envplan.live.doctor import doctor
    from envplan.live.probe import probe
    from envplan.profile.model import load_profile
    from envplan.render.progress import spinner

    python = target_python(args.python)
    profile = load_profile(args.profile) if args.profile else None
    kb = load_kb()
    with spinner(f"probing {python} (torch, CUDA, GPUs, driver)", quiet=args.json) as status:
        observed = probe(python)
        status.update(f"checking that the compiled extensions in {python} load against its torch")
        failures = load_failures(python) if observed.torch else ()
    findings = doctor(observed, kb, profile, extension_failures=failures)
    if args.json:
        emit_json(
            {"schema": 1, "python": python, "observed": asdict(observed), "findings": [f.to_dict() for f in findings]}
        )
    else:
        from envplan.render.findings import doctor_view

        stdout_console().print(doctor_view(observed, findings))
    return EXIT_FAILED if has_errors(findings) else 0


def cmd_init(args: argparse.Namespace) -> int:
    if args.from_files:
        return cmd_init_from(args)
    from envplan.kb import load_kb
    from envplan.live.init import render_init_profile
    from envplan.live.probe import probe
    from envplan.render.progress import spinner
    from envplan.write import write_file

    out = _init_output(args)
    python = target_python(args.python)
    with spinner(f"probing {python} and this machine (torch, CUDA, GPUs, driver)", quiet=args.json):
        observed = probe(python)
    text = render_init_profile(observed, load_kb())
    write_file(out, text)
    if args.json:
        emit_json({"schema": 1, "written": str(out)})
    else:
        stdout_console().print(f"wrote {out}: check it with `envplan check {out}`")
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

        python = target_python(args.python)
        with spinner(f"probing {python} and this machine (torch, CUDA, GPUs, driver)", quiet=args.json):
            observed = probe(python)
        machine, python = machine_draft(observed), ".".join(observed.python.split(".")[:2]) or python
    opts = ImportOptions(
        torch=args.torch or "", variant=args.variant or "", os=machine.os, arch=machine.arch, fallback_python=python
    )
    draft = draft_from_files([Path(f) for f in args.from_files], load_kb(), opts, machine)
    write_file(out, render_profile(draft))
    if args.json:
        emit_json(
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
        console = stdout_console()
        console.print(
            f"wrote {out}: torch {draft.torch} ({draft.variant}), Python {draft.python}, "
            f"{len(draft.extensions)} extension(s), {len(draft.packages)} other package(s)"
        )
        for note in draft.notes:
            console.print(f"  {note}", markup=False)
        console.print(f"check it with `envplan check {out}`")
    return 0
