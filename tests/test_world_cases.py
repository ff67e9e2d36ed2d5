"""Real-world upgrade situations (tests/cases/world/*.toml): each from a public thread (its `source`), with what
the thread states, what is assumed, and what a packaging expert would plan (`expert-decision`). The planner must
reach that decision and show the reason for it."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomlkit
from packaging.version import Version

from envplan import tomlread
from envplan.core.plan import Plan
from envplan.core.planner import plan_upgrade, resolve_target
from envplan.kb import KB
from envplan.profile.model import PythonSpec, parse_profile
from helpers import ROOT

CASES = sorted((ROOT / "tests" / "cases" / "world").glob("*.toml"))


def plan_of(case: dict, kb: KB, *, variant: str | None = None) -> Plan:
    profile = parse_profile(tomlkit.dumps(case["profile"]), "case.toml")
    py = case.get("python")
    spec = PythonSpec(version=Version(py.rstrip("t")), free_threaded=py.endswith("t")) if py else None
    return plan_upgrade(profile, resolve_target(case["to"], kb), kb, python=spec, variant=variant)


def test_the_world_cases_cover_every_kind() -> None:
    kinds = {k for path in CASES for k in tomlread.loads(path.read_text())["kind"]}
    wanted = {"linux-aarch64", "windows", "macos-arm64", "macos-x86_64", "rocm", "free-threaded", "old-driver"}
    wanted |= {"downgrade", "blocked", "cpu-on-gpu", "python-step", "torch-bound", "glibc", "blackwell"}
    assert wanted <= kinds
    for path in CASES:
        case = tomlread.loads(path.read_text())
        assert case["source"].startswith("https://") and case["expert-decision"] and case["summary"], path.name


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_world_case(path: Path, kb: KB) -> None:
    case = tomlread.loads(path.read_text())
    expect = case["expect"]
    plan = plan_of(case, kb, variant=case.get("variant"))
    assert plan.status == expect["status"], [b.message for b in plan.blockers] + list(plan.warnings)
    if plan.status == "blocked":
        assert [b.ref for b in plan.blockers] == expect["blockers"]
        text = " ".join(f"{b.message} {b.fix}" for b in plan.blockers)
        for fragment in expect.get("blocker-text", []):
            assert fragment in text, text
        return
    variants = {s.variant for s in plan.steps if s.kind not in ("baseline", "python")}
    wanted = expect.get("variant-one-of") or [expect["variant"]]
    assert len(variants) == 1 and variants <= set(wanted), variants
    assert not set(expect.get("not-variants", [])) & variants
    steps = {s.name: s for s in plan.steps}
    for name, packages in expect.get("packages", {}).items():
        step = steps[name]
        pinned = {**step.packages, **{r.split("==")[0]: r.split("==")[1] for r in step.requirements if "==" in r}}
        for package, version in packages.items():
            assert pinned.get(package) == version, (name, package, pinned)
    shown = " ".join([*plan.warnings, *(r for s in plan.steps for r in s.reasons)])
    for fragment in expect.get("shown", []):
        assert fragment in shown, shown


def test_cpu_build_on_a_gpu_machine_names_the_variant_without_switching(kb: KB) -> None:
    """Without --variant auto, a CPU stack stays CPU, and the plan says which GPU build fits and how to get it."""
    for path in CASES:
        case = tomlread.loads(path.read_text())
        if "cpu-on-gpu" not in case["kind"] or case["expect"]["status"] != "ok":
            continue
        plan = plan_of(case, kb)
        want = case["expect"].get("variant-one-of", [case["expect"].get("variant")])[0]
        assert any(
            f"--variant {want}" in w and "torch.cuda.is_available() will be False" in w for w in plan.warnings
        ), (
            path.name,
            plan.warnings,
        )
