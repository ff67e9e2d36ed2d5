"""The suite's inputs, all generated locally: fake PyPI/PyTorch indexes and a conda channel (the tests'
builders), the profiles pointing at them, the lock requests envplan derives from them (so the reference
tools get the identical requirements), and a torch 2.13.0+cpu venv with one tiny built extension."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from timing import BenchError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fakeconda import build_channel  # noqa: E402

from envplan.core.planner import plan_upgrade, resolve_target, stack_step  # noqa: E402
from envplan.kb import load_kb  # noqa: E402
from envplan.profile.model import load_profile  # noqa: E402
from envplan.resolve.conda import CondaRequest, conda_request  # noqa: E402
from envplan.resolve.model import LockRequest  # noqa: E402
from envplan.resolve.request import request_for_step  # noqa: E402
from fakeindex import build_indexes  # noqa: E402
from locksupport import profile_text  # noqa: E402

__all__ = [
    "ROOT",
    "Inputs",
    "TorchSetup",
    "build_inputs",
    "conda_request_of",
    "ensure_torch",
    "plan_request",
    "requirements_in",
    "stack_request",
]

PLAN_FROM, PLAN_TO = "2.0.1", "2.1"
EXTENSION = '[[extensions]]\nname = "causal-conv1d"\nversion = "1.0.0"'
TORCH = "2.13.0"


@dataclass(frozen=True, slots=True)
class Inputs:
    root: Path
    one: Path  # torch 2.1.2+cu118, torchvision, numpy<2, timm; Python 3.10 (uv locks it from anywhere)
    py311: Path  # the same on Python 3.11 (pip-compile needs the profile's Python to be this one)
    plan: Path  # torch 2.0.1+cu118 with causal-conv1d: --to 2.1 makes baseline, torch, companions, extensions
    conda: Path  # `one` plus [indexes] conda pointing at the local channel


def build_inputs(root: Path) -> Inputs:
    build_indexes(root / "indexes")
    alias = build_channel(root / "conda").as_uri()
    urls = ((root / "indexes" / "pypi" / "simple").as_uri(), (root / "indexes" / "pytorch").as_uri())
    packages = ("numpy<2", "timm")
    texts = {
        "one": profile_text(urls, packages=packages),
        "py311": profile_text(urls, packages=packages, python="3.11"),
        "plan": profile_text(urls, torch=PLAN_FROM, vision="0.15.2", packages=packages, extra=EXTENSION),
        "conda": profile_text(urls, packages=packages) + f'conda = "{alias}"\n',
    }
    (root / "profiles").mkdir(parents=True, exist_ok=True)
    paths = {name: root / "profiles" / f"{name}.toml" for name in texts}
    for name, text in texts.items():
        paths[name].write_text(text)
    return Inputs(root=root, **paths)


def stack_request(profile: Path) -> LockRequest:
    """What `envplan lock PROFILE` resolves."""
    p, kb = load_profile(profile), load_kb()
    return request_for_step(stack_step(p, kb), p.machine)


def plan_request(profile: Path) -> LockRequest:
    """What the last step of `envplan upgrade PROFILE --to 2.1` resolves (the largest of its locks)."""
    p, kb = load_profile(profile), load_kb()
    plan = plan_upgrade(p, resolve_target(PLAN_TO, kb), kb)
    if plan.status != "ok":
        raise BenchError(f"the benchmark plan is {plan.status}")
    return request_for_step(plan.steps[-1], p.machine)


def conda_request_of(profile: Path) -> CondaRequest:
    p, kb = load_profile(profile), load_kb()
    request = conda_request(stack_step(p, kb), p.machine, kb, p.indexes.conda)
    if request is None:
        raise BenchError("the conda profile has no conda build")
    return request


def requirements_in(request: LockRequest) -> str:
    """The request as a plain requirements.in: the exact torch-family pins, then the other packages."""
    return "\n".join([*request.family, *request.requirements]) + "\n"


@dataclass(frozen=True, slots=True)
class TorchSetup:
    python: Path
    extension: Path
    libs: tuple[Path, ...]  # torch/lib/*.so*


def _run(argv: list[str], cwd: Path, timeout: float) -> None:
    env = {**os.environ, "MAX_JOBS": "2"}  # pip keeps the machine's configuration: the wheel may lie on disk
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise BenchError(f"{' '.join(argv[:3])} failed: {(proc.stderr or proc.stdout).strip()[-400:]}")


def _venv(cache: Path) -> Path:
    venv = cache / "torch-venv"
    python = venv / "bin" / "python"
    done = venv / ".envplan-bench-complete"
    if not done.is_file():
        shutil.rmtree(venv, ignore_errors=True)
        _run([sys.executable, "-m", "venv", str(venv)], cache, 300)
        _run([str(python), "-m", "pip", "install", "-q", f"torch=={TORCH}", "setuptools", "ninja"], cache, 1800)
        done.write_text(TORCH + "\n")
    return python


def _extension(cache: Path, python: Path) -> Path:
    src = cache / "tinyext"
    built = sorted(src.glob("envplan_tinyext*.so"))
    if built:
        return built[0]
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    for name in ("setup.py", "good.cpp"):
        shutil.copy(ROOT / "tests" / "data" / "tinyext" / name, src / name)
    _run([str(python), "setup.py", "build_ext", "--inplace"], src, 1800)
    built = sorted(src.glob("envplan_tinyext*.so"))
    if not built:
        raise BenchError("the tiny extension built no .so")
    return built[0]


def ensure_torch(cache: Path) -> TorchSetup | str:
    """The cached torch venv and extension (made on first use, ~1 min), or why they cannot be had."""
    cache.mkdir(parents=True, exist_ok=True)
    try:
        python = _venv(cache)
        extension = _extension(cache, python)
    except (BenchError, OSError, subprocess.TimeoutExpired) as exc:
        return f"torch {TORCH} unavailable ({exc})"
    libs = sorted(python.parent.parent.glob("lib/python3*/site-packages/torch/lib"))
    if not libs:
        return "torch/lib not found in the venv"
    files = tuple(p for p in sorted(libs[0].glob("*.so*")) if p.is_file())
    return TorchSetup(python=python, extension=extension, libs=files)
