"""The compiled KB in the user cache is the KB the TOML files say, and is rebuilt when it is unreadable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


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
    compiled = list((tmp_path / "envplan").glob("kb-*.pickle"))
    assert len(compiled) == 1
    assert _dump(tmp_path) == first  # read from the compiled copy
    assert "520.61.05" in first, "driver versions keep their zeros through the cache"
    compiled[0].write_bytes(b"garbage")
    assert _dump(tmp_path) == first  # an unreadable copy is ignored and rebuilt


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
