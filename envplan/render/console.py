"""Rich renderings for people. Returns rich renderables; the CLI prints them."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from envplan.core.findings import Finding
from envplan.core.plan import Plan
from envplan.kb.model import Release
from envplan.render.data import split_variants

if TYPE_CHECKING:
    from envplan.live.abicheck import ExtReport
    from envplan.live.diagnose import Diagnosis
    from envplan.verify.runner import Envs, StepResult

__all__ = [
    "abi_table",
    "diagnoses_view",
    "envs_line",
    "findings_view",
    "fleet_table",
    "matrix_table",
    "plan_view",
    "verify_table",
]

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
_VERIFIED = {True: Text("yes", "green"), "partial": Text("partial", "yellow"), False: Text("no", "red")}
_LEARNED = Text("learned", "magenta")


def matrix_table(releases: list[Release]) -> Table:
    table = Table(
        title="torch compatibility (envplan KB)",
        header_style="bold",
        caption="* PyPI's default build; ? inferred pairing or Python bound; abi = C++11 ABI (0/1/mixed by variant)",
    )
    for col in ("torch", "vision", "audio", "python", "variants", "rocm", "abi", "glibc", "verified"):
        table.add_column(col, no_wrap=col in ("torch", "vision", "audio", "abi", "verified"))
    for r in releases:
        variants, rocm = split_variants(r)
        shown = [v + ("*" if v == r.pypi_default else "") for v in variants]
        shown += [f"{v} (unadvertised)" for v in r.unadvertised_variants]
        py = f"{r.python_versions[0]}-{r.python_versions[-1]}"
        if r.python_experimental:
            py += f" (exp. {', '.join(r.python_experimental)})"
        abi = "mixed" if r.cxx11_abi_by_variant else ("1" if r.cxx11_abi else "0")
        glibc = "/".join(dict.fromkeys([str(r.glibc), *map(str, r.glibc_by_variant.values())]))
        table.add_row(
            str(r.torch),
            _doubt(str(r.torchvision), r, "torchvision"),
            _doubt(str(r.torchaudio), r, "torchaudio"),
            _doubt(py, r, "python-max"),
            ", ".join(shown),
            ", ".join(rocm),
            abi,
            glibc,
            _LEARNED if r.source.startswith("learned by envplan kb update") else _VERIFIED[r.verified],
        )
    return table


def _doubt(text: str, r: Release, field: str) -> Text:
    return Text(text + " ?", "yellow") if r.is_doubtful(field) else Text(text)


def findings_view(path: str, findings: list[Finding]) -> Group:
    errors = sum(f.severity == "error" for f in findings)
    head = Text.assemble((path, "bold"), ": ", ("FAILED" if errors else "ok", "bold red" if errors else "bold green"))
    lines = [head]
    for f in findings:
        line = Text("  ")
        line.append(f"{f.severity} ", _STYLE[f.severity])
        line.append(f"[{f.ref}] ", "dim")
        if f.key:
            line.append(f"{f.key}: ", "bold")
        line.append(f.message)
        lines.append(line)
        if f.fix:
            lines.append(Text(f"      fix: {f.fix}", "dim"))
    return Group(*lines)


def plan_view(plan: Plan) -> Group:
    """The steps as a tree: what each installs, and why."""
    final = plan.final
    dst = f"{final.release.torch}+{final.variant}" if final else str(plan.target.torch)
    if plan.status == "blocked":
        head = Text.assemble(
            ("BLOCKED", "bold red"),
            f": torch {plan.source.torch}+{plan.source_variant} -> "
            f"{plan.target.torch} cannot work on this machine ({plan.profile_name})",
        )
        lines: list[Text | Tree] = [head]
        for b in plan.blockers:
            lines.append(Text.assemble("  ", (f"[{b.ref}] ", "dim"), b.message))
            lines.append(Text(f"      unblock: {b.fix}", "cyan"))
        return Group(*lines)
    warnings = plan.warnings
    if plan.status == "current":
        head = Text.assemble(
            ("already at target", "bold green"),
            f": torch {plan.source.torch}+{plan.source_variant} ({plan.profile_name}); "
            "the plan holds today's stack only",
        )
        warnings = tuple(w for w in warnings if not w.startswith("already at target"))
    else:
        head = Text.assemble(
            (f"torch {plan.source.torch}+{plan.source_variant} -> {dst}", "bold"),
            f" ({plan.profile_name}): {len(plan.steps)} steps",
        )
    tree = Tree(head)
    for step in plan.steps:
        pkgs = ", ".join(f"{k} {v}" for k, v in step.packages.items())
        node = tree.add(Text.assemble((step.name, "bold cyan"), f"  {pkgs}  (Python {step.python})"))
        for reason in step.reasons:
            node.add(Text(reason))
        for ext in step.extensions:
            if ext.method == "source":
                env = " ".join(f"{k}={v}" for k, v in ext.build_env.items())
                line = Text.assemble(("build ", "bold"), ext.name, f"  {env}")
            else:
                line = Text.assemble(("install ", "bold"), ext.name, f"  {ext.spec}")
            if not ext.toolkit_ok:
                line.append(f"  (needs CUDA toolkit {ext.toolkit})", "yellow")
            node.add(line)
    parts: list[Text | Tree] = [tree]
    parts += [Text(f"warning: {w}", "yellow") for w in warnings]
    return Group(*parts)


def abi_table(torch: str, reports: list[ExtReport]) -> Table:
    """One row per extension file: loads or not, and why."""
    table = Table(title=f"compiled extensions against torch {torch}", header_style="bold")
    for col in ("extension", "version", "status", "why", "built against"):
        table.add_column(col)
    for r in reports:
        if r.ok:
            status, why = Text("loads", "green"), ""
        else:
            status, why = Text("BROKEN", "bold red"), r.why
        table.add_row(
            f"{r.name}\n{r.path}" if r.version == "" else r.name, r.version, status, why, r.built_against or "-"
        )
    if not reports:
        table.caption = "no compiled extension linking torch is installed"
    return table


def verify_table(results: list[StepResult]) -> Table:
    table = Table(title="envplan verify", header_style="bold")
    for col in ("step", "result", "time", "skipped checks", "failed checks"):
        table.add_column(col)
    style = {"passed": "green", "failed": "bold red", "not run": "dim"}
    for r in results:
        table.add_row(
            r.name,
            Text(r.result, style[r.result]),
            f"{r.seconds:.0f} s" if r.seconds else "-",
            "\n".join(r.skipped) or "-",
            "\n".join(r.failed) or "-",
        )
    return table


def envs_line(envs: Envs, *, keep: bool) -> str:
    """verify's last line: where the step environments are and how much disk they use, or that they are gone."""
    if not envs.kept:
        return f"step environments: removed once each step passed (built under {envs.path}; --keep-envs keeps them)"
    why = "--keep-envs" if keep else "a failed step's environment is kept to look into"
    return (
        f"step environments: {_size(envs.size)} in {envs.path} ({', '.join(envs.kept)}; {why}); "
        f"remove them with `{remove_command(envs.path)}`"
    )


def remove_command(path: Path | str, *, platform: str = sys.platform) -> str:
    """The shell line that removes a folder, for the shell of this platform, quoted (a path may hold spaces)."""
    if platform == "win32":
        return f'rmdir /s /q "{path}"'
    return f"rm -rf {shlex.quote(str(path))}"


def _size(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def diagnoses_view(found: list[Diagnosis]) -> Group:
    if not found:
        return Group(
            Text(
                "no known cause found in this text (envplan explain knows the failures listed in docs/diagnosis.md)",
                "yellow",
            )
        )
    lines: list[Text] = []
    for d in found:
        lines.append(Text.assemble((f"[{d.ref}]", "bold red"), f" ({d.confidence}) ", d.cause))
        lines.append(Text(f"    seen: {d.evidence}", "dim"))
        lines.append(Text(f"    fix:  {d.fix}", "cyan"))
    return Group(*lines)


def fleet_table(results: Sequence[tuple[Plan, object, object]]) -> Table:
    """One row per machine: can it take the target, with which variant, or what blocks it."""
    table = Table(title="fleet", header_style="bold")
    for col in ("profile", "status", "from", "to", "steps", "why / plan"):
        table.add_column(col)
    for plan, out, _ in results:
        final = plan.final
        if plan.status == "ok" and final is not None:
            table.add_row(
                plan.profile_name,
                Text("ok", "green"),
                f"{plan.source.torch}+{plan.source_variant}",
                f"{final.release.torch}+{final.variant}",
                str(len(plan.steps)),
                f"{out}/",
            )
        elif plan.status == "current":
            table.add_row(
                plan.profile_name,
                Text("at target", "green"),
                f"{plan.source.torch}+{plan.source_variant}",
                f"{plan.source.torch}+{plan.source_variant}",
                str(len(plan.steps)),
                f"{out}/ (today's stack, locked)",
            )
        else:
            table.add_row(
                plan.profile_name,
                Text("BLOCKED", "bold red"),
                f"{plan.source.torch}+{plan.source_variant}",
                str(plan.target.torch),
                "-",
                "; ".join(f"{b.message} (unblock: {b.fix})" for b in plan.blockers),
            )
    return table
