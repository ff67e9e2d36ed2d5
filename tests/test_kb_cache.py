"""The compiled KB in the user cache is the KB the TOML files say, and is rebuilt when it is unreadable."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT


def _dump(cache: Path) -> str:
    code = (
        "from envplan.kb import load_kb; from envplan.render.data import matrix_document; import json; "
        "kb = load_kb(); print(json.dumps(matrix_document(kb.releases)), str(kb.cuda[8].driver_linux), "
        "len(kb.extensions), len(kb.gpus))"
    )
    env = {"XDG_CACHE_HOME": str(cache), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout


def test_the_compiled_kb_equals_the_parsed_one(tmp_path: Path) -> None:
    first = _dump(tmp_path)  # parses the TOML files and writes the compiled copy
    compiled = list((tmp_path / "envplan").glob("kb-*.json"))
    assert len(compiled) == 1
    json.loads(compiled[0].read_text())  # plain data
    assert _dump(tmp_path) == first  # read from the compiled copy
    assert "520.61.05" in first, "driver versions keep their zeros through the cache"
    compiled[0].write_bytes(b"garbage")
    assert _dump(tmp_path) == first  # an unreadable copy is ignored and rebuilt
    assert compiled[0].read_text().startswith('{"format":')


def test_the_compiled_form_round_trips_every_value() -> None:
    from envplan.kb import compiled
    from envplan.kb.facts import _parse

    kb = _parse()
    assert repr(compiled.loads(compiled.dumps(kb))) == repr(kb)


def _kb_cache_name() -> str:
    from envplan.kb.facts import compiled_path

    return compiled_path().stem


class _Plant:
    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


def test_a_planted_cache_file_runs_no_code(tmp_path: Path) -> None:
    """A shared CI cache is writable by others: what envplan reads from it must be data."""
    cache = tmp_path / "envplan"
    cache.mkdir()
    marker = tmp_path / "PWNED"
    payload = pickle.dumps(_Plant(str(marker)))
    (cache / f"{_kb_cache_name()}.pickle").write_bytes(payload)
    (cache / f"{_kb_cache_name()}.json").write_bytes(payload)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "envplan", "check", str(ROOT / "profiles" / "a100-train.toml")],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert not marker.exists(), "the planted file ran code"
    assert result.returncode in (0, 1) and "internal error" not in result.stderr
    assert "envplan: warning:" in result.stderr and "ignored and rebuilt" in result.stderr


@pytest.mark.parametrize(
    "planted",
    [
        {"format": 1, "kb": ["c", "Popen", {"args": "touch PWNED"}]},
        {"format": 1, "kb": ["c", "Release", {"torch": "x"}]},
        {"format": 1, "kb": ["t", []]},
        {"format": 1, "kb": {"releases": []}},
        [1, 2, 3],
    ],
)
def test_a_compiled_kb_of_the_wrong_shape_is_rebuilt(tmp_path: Path, planted: object) -> None:
    cache = tmp_path / "envplan"
    cache.mkdir()
    (cache / f"{_kb_cache_name()}.json").write_text(json.dumps(planted))
    first = _dump(tmp_path)
    assert "520.61.05" in first and not (tmp_path / "PWNED").exists()
    assert json.loads((cache / f"{_kb_cache_name()}.json").read_text())["format"] == 1


def test_a_cache_entry_is_replaced_whole_and_an_unwritable_cache_is_not_an_error(tmp_path: Path) -> None:
    from envplan.paths import store_cache

    entry = tmp_path / "sub" / "entry.json"
    assert store_cache(entry, '{"a": 1}')
    assert store_cache(entry, b"\x00binary")
    assert entry.read_bytes() == b"\x00binary"
    assert [p.name for p in entry.parent.iterdir()] == ["entry.json"], "no temporary file is left behind"
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert not store_cache(blocker / "entry.json", "x")
    assert blocker.read_text() == "not a directory"
