"""envplan's own sessions: `nox -s tests lint typecheck` is what CI runs."""

from __future__ import annotations

import nox

nox.options.sessions = ["tests", "lint", "typecheck"]
nox.options.reuse_existing_virtualenvs = True


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite (no network: tests marked `network` are deselected)."""
    session.install("-e", ".[test]")
    # the real torch 2.13.0 CPU wheel (on this kind of machine it lies on disk), to build real extensions
    session.install("torch==2.13.0", "setuptools", "ninja")
    session.run("pytest", "-m", "not network", *session.posargs, env={"ENVPLAN_REQUIRE_TORCH": "1"})


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check."""
    session.install("ruff>=0.6")
    session.run("ruff", "check", "envplan", "tests", "noxfile.py")
    session.run("ruff", "format", "--check", "envplan", "tests", "noxfile.py")


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict over the package."""
    session.install("-e", ".", "mypy>=1.10", "tomli")
    session.run("mypy")
