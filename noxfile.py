"""envplan's own sessions: `nox -s tests lint typecheck` is what CI runs."""

from __future__ import annotations

import nox

nox.options.sessions = ["tests", "e2e", "lint", "typecheck"]
nox.options.reuse_existing_virtualenvs = True


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite: real uv, pip-compile, py-rattler and nox against local fake indexes (no network)."""
    session.install("-e", ".[test]")
    session.run("pytest", "-m", "not network and not e2e", *session.posargs)


@nox.session
def e2e(session: nox.Session) -> None:
    """End to end with the real torch 2.13.0 CPU wheel: real extension builds, abi-check, envplan verify."""
    session.install("-e", ".[test]")
    # on this kind of machine the wheel lies on disk; elsewhere pip downloads the CPU build
    session.install("torch==2.13.0", "setuptools", "ninja")
    session.run("pytest", "-m", "e2e", *session.posargs, env={"ENVPLAN_REQUIRE_TORCH": "1"})


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
    when a target is missed (about 3 min; the first run also builds a torch 2.13.0 venv in benchmarks/.cache)."""
    session.install("-e", ".", "matplotlib")
    session.run("python", "benchmarks/run.py", *session.posargs)
