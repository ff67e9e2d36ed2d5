"""Fixtures for tests that run the real resolvers against fake indexes on disk and on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fakeindex import build_indexes, serve


@pytest.fixture(scope="session")
def index_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("indexes")
    build_indexes(root)
    return root


@pytest.fixture(scope="session")
def file_urls(index_root: Path) -> tuple[str, str]:
    """(pypi simple URL, pytorch base URL) as file:// URLs."""
    return (index_root / "pypi" / "simple").as_uri(), (index_root / "pytorch").as_uri()


@pytest.fixture(scope="session")
def http_urls(index_root: Path) -> Iterator[tuple[str, str]]:
    with serve(index_root) as base:
        yield f"{base}/pypi/simple", f"{base}/pytorch"


@pytest.fixture(autouse=True)
def own_uv_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "uv-cache"))


@pytest.fixture(scope="session")
def conda_alias(tmp_path_factory: pytest.TempPathFactory) -> str:
    from fakeconda import build_channel

    return build_channel(tmp_path_factory.mktemp("conda")).as_uri()
