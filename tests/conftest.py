from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from envplan import tomlread
from envplan.kb import KB, load_kb
from helpers import SHARED_PLATFORMS, SHARED_REFERENCE, VENDORED_PLATFORMS, VENDORED_REFERENCE


@pytest.fixture(scope="session")
def kb() -> KB:
    return load_kb()


@pytest.fixture(scope="session")
def reference() -> dict:
    """The reference facts: shared/reference when beside the checkout, else the vendored copy."""
    path = SHARED_REFERENCE if SHARED_REFERENCE.exists() else VENDORED_REFERENCE
    return tomlread.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def write_profile(tmp_path: Path):
    def write(text: str, name: str = "p.toml") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="session")
def platforms_reference() -> dict:
    """shared/reference/platforms.toml (per-platform availability, Docker tags), else its vendored copy."""
    path = SHARED_PLATFORMS if SHARED_PLATFORMS.exists() else VENDORED_PLATFORMS
    return tomlread.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _verify_envs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """`envplan verify` keeps a failed step's environment (GBs with real torch): in a test, under its tmp folder."""
    monkeypatch.setenv("ENVPLAN_VERIFY_ENVS", str(tmp_path_factory.mktemp("verify-envs")))
