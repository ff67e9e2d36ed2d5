"""The planner against data cases (tests/cases/plan/*.toml: a profile, a target, the expected plan)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import tomlkit
from packaging.version import Version

from envplan import tomlread
from envplan.errors import EnvplanError
from envplan.kb import KB
from envplan.plan_model import Plan
from envplan.planner import plan_upgrade, resolve_target
from envplan.profile import parse_profile
from envplan.render.envfiles import render_environment_yml
from helpers import ROOT

CASES = sorted((ROOT / "tests" / "cases" / "plan").glob("*.toml"))


def run_case(case: dict, kb: KB) -> Plan:
    profile = parse_profile(tomlkit.dumps(case["profile"]), "case.toml")
    python = Version(case["python"]) if "python" in case else None
    return plan_upgrade(
        profile,
        resolve_target(case["to"], kb),
        kb,
        variant=case.get("variant"),
        python=python,
        via_minors=case.get("via-minors", False),
    )


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path, kb: KB) -> None:
    case = tomlread.loads(path.read_text())
    expect = case["expect"]
    plan = run_case(case, kb)
    assert plan.status == expect["status"], [b.message for b in plan.blockers]
    if plan.status == "blocked":
        _check_blocked(plan, expect)
        return
    steps = {s.name: s for s in plan.steps}
    assert list(steps) == expect["steps"]
    _check_steps(plan, steps, expect)
    _check_extensions(steps, expect)
    env_yml = "".join(render_environment_yml(s, kb) for s in plan.steps[1:])
    for fragment in expect.get("environment-yml-contains", []):
        assert fragment in env_yml


def _check_blocked(plan: Plan, expect: dict) -> None:
    assert [b.ref for b in plan.blockers] == expect["blockers"]
    text = " ".join(f"{b.message} {b.fix}" for b in plan.blockers)
    for fragment in expect.get("blocker-text", []):
        assert fragment in text
    assert plan.steps == ()


def _check_steps(plan: Plan, steps: dict, expect: dict) -> None:
    if "variant" in expect:
        assert {s.variant for s in plan.steps if s.kind not in ("baseline", "python")} == {expect["variant"]}
    assert not set(expect.get("not-variants", [])) & {s.variant for s in plan.steps[1:]}
    for name, packages in expect.get("packages", {}).items():
        assert steps[name].packages == packages, name
    for name, env in expect.get("build-env", {}).items():
        assert steps[name].build_env == env
    reasons = " ".join(r for s in plan.steps for r in s.reasons)
    for fragment in expect.get("reasons-contain", []):
        assert fragment in reasons
    for fragment in expect.get("warnings-contain", []):
        assert any(fragment in w for w in plan.warnings), plan.warnings
    for key, value in expect.items():
        if key.startswith("requirements-"):
            assert list(steps[key.removeprefix("requirements-")].requirements) == value


def _check_extensions(steps: dict, expect: dict) -> None:
    for step_name, exts in expect.get("extensions", {}).items():
        built = {e.name: e for e in steps[step_name].extensions}
        for name, want in exts.items():
            got = built[name]
            for key in ("method", "spec"):
                if key in want:
                    assert getattr(got, key) == want[key], (name, key)
            for fragment in want.get("warning-contains", []):
                assert fragment in got.warning
            for fragment in want.get("reasons-contain", []):
                assert any(fragment in r for r in got.reasons), got.reasons
    for key, value in expect.items():
        if key.startswith("extension-order-"):
            assert [e.name for e in steps[key.removeprefix("extension-order-")].extensions] == value


def test_every_case_file_names_its_scenario() -> None:
    assert len(CASES) >= 9
    for path in CASES:
        assert tomlread.loads(path.read_text())["description"]


@pytest.mark.parametrize(("text", "expected"), [("2.1", "2.1.2"), ("2.1.0", "2.1.0"), ("2.0", "2.0.1")])
def test_resolve_target(kb: KB, text: str, expected: str) -> None:
    assert str(resolve_target(text, kb).torch) == expected


def test_resolve_latest(kb: KB) -> None:
    assert resolve_target("latest", kb) == kb.latest()


@pytest.mark.parametrize("text", ["2.99", "3.0.0", "nope"])
def test_resolve_unknown_target(kb: KB, text: str) -> None:
    with pytest.raises(EnvplanError) as info:
        resolve_target(text, kb)
    assert info.value.where == "--to" and info.value.exit_code == 2


def test_forced_variant_that_cannot_work_blocks(kb: KB) -> None:
    case = tomlread.loads((ROOT / "tests/cases/plan/seed-a100-2.0-to-2.1.toml").read_text())
    case["variant"] = "cu121"
    case["profile"]["machine"]["driver"] = "470.82.01"
    case["profile"]["machine"]["cuda-toolkit"] = "12.1"
    plan = run_case(case, kb)
    assert plan.status == "blocked" and [b.ref for b in plan.blockers] == ["driver-too-old"]


def test_same_target_is_only_the_baseline(kb: KB) -> None:
    case = tomlread.loads((ROOT / "tests/cases/plan/seed-a100-2.0-to-2.1.toml").read_text())
    case["to"] = "2.0.1"
    plan = run_case(case, kb)
    assert plan.status == "ok" and [s.name for s in plan.steps] == ["00-baseline"]


def test_pypi_default_variant_takes_torch_from_pypi(kb: KB) -> None:
    case = tomlread.loads((ROOT / "tests/cases/plan/seed-a100-2.0-to-2.1.toml").read_text())
    case["variant"] = "cu121"
    case["profile"]["machine"]["cuda-toolkit"] = "12.1"
    plan = run_case(case, kb)
    torch_step = plan.steps[1]
    assert torch_step.pins[0].index == "pypi" and torch_step.pins[0].requirement == "torch==2.1.2"
    assert torch_step.packages["torch"] == "2.1.2+cu121" and torch_step.pytorch_index == ""
    assert plan.steps[0].pytorch_index == "https://download.pytorch.org/whl/cu118"


def test_the_planner_does_no_io() -> None:
    """Imported alone, the planner pulls in no network module and none of envplan's writers."""
    code = (
        "import sys, envplan.planner\n"
        "bad = {'socket', 'urllib.request', 'http.client', 'envplan.write', 'envplan.cli', 'envplan.editprofile'}\n"
        "print(sorted(bad & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_planner_runs_with_files_and_processes_forbidden(kb: KB, monkeypatch) -> None:
    case = tomlread.loads((ROOT / "tests/cases/plan/via-three-minors.toml").read_text())
    profile = parse_profile(tomlkit.dumps(case["profile"]), "case.toml")
    target = resolve_target("2.3", kb)

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the planner touched the outside world")

    import builtins
    import os
    import socket

    monkeypatch.setattr(builtins, "open", forbidden)
    monkeypatch.setattr(os, "open", forbidden)
    monkeypatch.setattr(socket, "socket", forbidden)
    monkeypatch.setattr(subprocess, "Popen", forbidden)
    plan = plan_upgrade(profile, target, kb, via_minors=True)
    assert plan.status == "ok" and len(plan.steps) == 10
