"""The planner against data cases (tests/cases/plan/*.toml: a profile, a target, the expected plan)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import tomlkit
from packaging.version import Version

from envplan import tomlread
from envplan.core.plan import Plan
from envplan.core.planner import plan_upgrade, resolve_target
from envplan.errors import EnvplanError
from envplan.kb import KB
from envplan.profile.model import PythonSpec, parse_profile
from envplan.render.envfiles import render_environment_yml
from helpers import ROOT


def python_spec(text: str) -> PythonSpec:
    return PythonSpec(version=Version(text.rstrip("t")), free_threaded=text.endswith("t"))


CASES = sorted((ROOT / "tests" / "cases" / "plan").glob("*.toml"))


def run_case(case: dict, kb: KB) -> Plan:
    profile = parse_profile(tomlkit.dumps(case["profile"]), "case.toml")
    python = python_spec(case["python"]) if "python" in case else None
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


def test_same_target_is_already_there(kb: KB) -> None:
    case = tomlread.loads((ROOT / "tests/cases/plan/seed-a100-2.0-to-2.1.toml").read_text())
    case["to"] = "2.0.1"
    plan = run_case(case, kb)
    assert plan.status == "current" and plan.blockers == ()
    assert [(s.kind, str(s.release.torch), s.variant) for s in plan.steps] == [("baseline", "2.0.1", "cu118")]
    assert plan.warnings == ("already at target: torch 2.0.1+cu118 on Python 3.10; the plan holds today's stack only",)


def test_same_target_with_another_variant_is_a_plan(kb: KB) -> None:
    case = tomlread.loads((ROOT / "tests/cases/plan/seed-a100-2.0-to-2.1.toml").read_text())
    case["to"], case["variant"] = "2.0.1", "cu117"
    plan = run_case(case, kb)
    assert plan.status == "ok" and plan.final is not None and plan.final.variant == "cu117"


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
        "import sys, envplan.core.planner\n"
        "bad = {'socket', 'urllib.request', 'http.client', 'envplan.write', 'envplan.cli',\n"
        "       'envplan.render.targetprofile'}\n"
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


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        (
            "2",
            "'2' is not a release",
            "write X.Y (the newest patch of that minor, e.g. 2.6), X.Y.Z (e.g. 2.6.0) or latest",
        ),
        ("2.6.0+cu118", "'2.6.0+cu118' names a build, not a release", "write --to 2.6.0 --variant cu118"),
        (
            "\uff12.\uff16",  # fullwidth digits: \\d would take them, Version() does not
            "'\uff12.\uff16' is not a release",
            "write X.Y (the newest patch of that minor, e.g. 2.6), X.Y.Z (e.g. 2.6.0) or latest",
        ),
    ],
)
def test_bad_targets_say_what_to_write(kb: KB, text: str, message: str, hint: str) -> None:
    with pytest.raises(EnvplanError) as err:
        resolve_target(text, kb)
    assert (err.value.message, err.value.where, err.value.hint) == (message, "--to", hint)


def _seed(kb: KB, **changes: str) -> Plan:
    case = tomlread.loads((ROOT / "tests/cases/plan/seed-a100-2.0-to-2.1.toml").read_text())
    case.update(changes)
    return run_case(case, kb)


def test_a_downgrade_is_called_one_and_the_companions_follow(kb: KB) -> None:
    case = tomlread.loads((ROOT / "tests/cases/plan/seed-a100-2.0-to-2.1.toml").read_text())
    case["profile"]["stack"].update(torch="2.1.2", torchvision="0.16.2", torchaudio="2.1.2")
    case["to"] = "2.0.1"
    plan = run_case(case, kb)
    assert (
        plan.warnings[0] == "downgrade: torch 2.1.2 -> 2.0.1; torchvision/torchaudio and the extensions follow it down"
    )
    assert plan.final is not None and plan.final.packages["torchvision"] == "0.15.2+cu118"
    from envplan.render.planmd import render_plan_md

    assert render_plan_md(plan).startswith("# Downgrade plan for a100-train: torch 2.1.2+cu118 -> 2.0.1+cu118")


def test_free_threaded_python_reaches_steps_and_environment_yml(kb: KB) -> None:
    text = (
        'schema = 1\nname = "ft"\n[machine]\ngpus = ["H100"]\ndriver = "570.124.06"\nglibc = "2.35"\n'
        '[python]\nversion = "3.13t"\n[stack]\ntorch = "2.7.1"\nvariant = "cu128"\n'
    )
    plan = plan_upgrade(parse_profile(text), resolve_target("2.9", kb), kb)
    assert plan.status == "ok" and {s.python for s in plan.steps} == {"3.13t"}
    yml = render_environment_yml(plan.steps[-1], kb)
    assert "python=3.13" in yml and "python-freethreading" in yml and "python=3.13t" not in yml


def test_free_threaded_target_without_wheels_names_the_way_out(kb: KB) -> None:
    text = '[python]\nversion = "3.13t"\n[stack]\ntorch = "2.7.1"\nvariant = "cpu"\n'
    plan = plan_upgrade(parse_profile('schema = 1\nname = "ft"\n' + text), resolve_target("2.12.1", kb), kb)
    (blocker,) = plan.blockers
    assert blocker.message == (
        "torch 2.12.1 publishes no free-threaded Python 3.13t wheels for Linux x86_64 "
        "(it has 3.10, 3.11, 3.12, 3.13, 3.14, 3.14t)"
    )
    assert blocker.needs["earlier-release"] == "2.12.0" and blocker.needs["nearest-python"] == "3.13"


def test_every_blocker_at_once_each_with_its_value(kb: KB) -> None:
    """Python, glibc and driver all stand in the way of 2.9 on this box: one run names all three."""
    text = (
        'schema = 1\nname = "old"\n[machine]\nglibc = "2.17"\ngpus = ["V100"]\ndriver = "470.82.01"\n'
        '[python]\nversion = "3.8"\n[stack]\ntorch = "2.0.1"\nvariant = "cu117"\n'
    )
    plan = plan_upgrade(parse_profile(text), resolve_target("2.9", kb), kb)
    refs = {b.ref: b for b in plan.blockers}
    assert set(refs) == {"python-unsupported", "driver-too-old", "glibc-too-old"}
    assert refs["python-unsupported"].needs["nearest-python"] == "3.10"
    assert refs["glibc-too-old"].needs == {"glibc": "2.28"}
    assert refs["driver-too-old"].needs["driver"] == "525.60.13"


def test_rtx4090_on_driver_550_stays_on_cuda_12(kb: KB) -> None:
    """The minor-version-compatibility warning is the price of staying on CUDA 12; cu118 would change the major."""
    text = (
        'schema = 1\nname = "4090"\n[machine]\nglibc = "2.35"\ngpus = ["RTX 4090"]\ndriver = "550.54.14"\n'
        '[python]\nversion = "3.11"\n[stack]\ntorch = "2.5.1"\nvariant = "cu124"\n'
    )
    for via in (False, True):
        plan = plan_upgrade(parse_profile(text), resolve_target("2.7", kb), kb, via_minors=via)
        assert [s.variant for s in plan.steps] == ["cu124", *(["cu124"] if via else []), "cu126"]
        assert any("driver 550.54.14 runs it by minor-version compatibility" in w for w in plan.warnings)
        assert any(w.startswith("variant cu124 -> cu126 for torch 2.7.1") for w in plan.warnings)


def test_aarch64_prefers_a_variant_whose_arch_list_is_known(kb: KB) -> None:
    """A GH200 on 2.8: the KB knows the aarch64 cu129 list (with sm_90); it has no aarch64 list for the others."""
    text = (
        'schema = 1\nname = "gh"\n[machine]\narch = "aarch64"\nglibc = "2.35"\ngpus = ["GH200"]\n'
        'driver = "575.51.03"\n[python]\nversion = "3.12"\n[stack]\ntorch = "2.7.1"\nvariant = "cu128"\n'
    )
    plan = plan_upgrade(parse_profile(text), resolve_target("2.8", kb), kb)
    assert plan.final is not None and plan.final.variant == "cu129"
    assert "torch 2.8.0 publishes no cu128 build for this platform" in " ".join(plan.final.reasons)


def test_an_unadvertised_build_with_no_known_list_is_not_offered_to_a_gpu_below_its_older_siblings(kb: KB) -> None:
    # torch 2.10.0's cu129 Linux wheels are reported but unadvertised and their arch list is unknown; its cu126
    # and cu128 start at 5.0 and 7.5, so a K80 (sm_37) cannot get kernels from cu129 either: blocked, not cu129
    text = """schema = 1
name = "k80"
[machine]
gpus = ["Tesla K80"]
driver = "525.60.13"
[python]
version = "3.10"
[stack]
torch = "2.9.0"
variant = "cu126"
"""
    plan = plan_upgrade(parse_profile(text), resolve_target("2.10.0", kb), kb)
    assert plan.status == "blocked"
    (blocker,) = plan.blockers
    assert blocker.ref == "gpu-arch-unsupported" and "cu129" in blocker.message
    assert "2.7.1+cu118" in blocker.fix
