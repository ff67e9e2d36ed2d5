"""The unchanged-lock path reads lock.json and the profile's name without json or tomllib: whatever it reads must
be what those would read, and where it cannot be sure it must say so (None: the full path answers)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import tomllib
from hypothesis import given
from hypothesis import strategies as st

from envplan.fastio import sha256_hex
from envplan.resolve.freshness import _profile_name, read_stamp

text = st.text(max_size=30)
pairs = st.dictionaries(text, text, max_size=6)


@given(inputs=pairs, files=pairs, indent=st.sampled_from([2, 4, None]), newline=st.booleans())
def test_a_stamp_is_read_as_json_reads_it(
    inputs: dict[str, str], files: dict[str, str], indent: int | None, newline: bool
) -> None:
    stamp = json.dumps({"schema": 1, "inputs": inputs, "files": files}, indent=indent) + ("\n" if newline else "")
    assert read_stamp(stamp) == (inputs, files)


def test_what_is_not_a_stamp_is_none() -> None:
    for broken in ("", "{", '{"schema": 1}', "[]", '{"inputs": [], "files": {}}', "null"):
        assert read_stamp(broken) is None, broken


@given(data=st.binary(max_size=300))
def test_sha256_is_hashlibs(data: bytes) -> None:
    assert sha256_hex(data) == hashlib.sha256(data).hexdigest()


NAMES = {
    'schema = 1\nname = "box"\n[machine]\n': "box",
    "  name = 'box-2'  # a comment\n": "box-2",
    'name="a.b_c"\n': "a.b_c",
    '[machine]\nname = "gpu"\n': None,  # a key of a table, not the profile's name
    'notes = """\nname = "x"\n"""\nname = "y"\n': None,  # inside a multi-line string: only tomllib knows
    'name = "with space"\n': None,  # not a folder name: the full path says so
    'name = "../up"\n': None,
    'name = "a\\u0041"\n': None,  # an escape
    "schema = 1\n": None,
}


def test_the_profile_name_is_read_only_when_it_is_plain() -> None:
    for profile, name in NAMES.items():
        assert _profile_name(profile) == name, profile
        if name is not None:
            assert tomllib.loads(profile)["name"] == name, profile


def test_the_kb_digest_is_remembered_by_the_files_stat_and_follows_an_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from envplan.kb import digest

    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "a.toml").write_text("x = 1\n")
    (kb / "b.toml").write_text("y = 2\n")
    (kb / "notes.md").write_text("not a KB file\n")
    monkeypatch.setattr(digest, "KB_DATA", str(kb))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    compute = digest.kb_digest.__wrapped__
    want = hashlib.sha256(b"a.toml\0x = 1\nb.toml\0y = 2\n").hexdigest()  # what lock.json has always recorded
    assert compute() == want
    assert (tmp_path / "cache" / "envplan" / digest.MEMO).read_text().endswith(want)
    assert compute() == want  # read from the memo
    (kb / "b.toml").write_text("y = 3  # edited\n")
    assert compute() == hashlib.sha256(b"a.toml\0x = 1\nb.toml\0y = 3  # edited\n").hexdigest()


@given(name=st.text(alphabet=st.characters(codec="utf-8"), max_size=110) | st.from_regex(r"[A-Za-z0-9][\w.-]{0,105}"))
def test_the_plain_name_rule_is_safe_names(name: str) -> None:
    """The unchanged-lock path checks a folder name without re: it must be exactly paths.safe_name's rule."""
    from envplan.paths import safe_name
    from envplan.resolve.freshness import _plain_name

    assert _plain_name(name) == safe_name(name), name


def test_uv_beside_this_interpreter_is_found_without_the_uv_packages_search(tmp_path: Path) -> None:
    # the unchanged-lock path asks for uv's version: with uv not on PATH, the binary pip put next to this interpreter
    # is taken by one stat, not by importing the `uv` package (a few ms of sysconfig)
    import os
    import subprocess
    import sys

    beside = Path(sys.executable).with_name("uv")
    if not beside.is_file():
        pytest.skip("no uv installed beside this interpreter")
    code = "import sys; from envplan.resolve import find_uv; print(find_uv()); print('uv' in sys.modules)"
    env = {**os.environ, "PATH": str(tmp_path)}  # an empty folder: no uv on PATH
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(beside), "False"]


def test_each_uv_binary_keeps_its_remembered_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user's venvs each bring a uv: remembering one must not forget another, or an unchanged lock asked from the
    other venv runs `uv --version` again (the unchanged-lock path takes the full one)."""
    from envplan.resolve import freshness

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    binaries = []
    for name in ("venv-a", "venv-b"):
        uv = tmp_path / name / "uv"
        uv.parent.mkdir()
        uv.write_text(f"#!/bin/sh\necho uv from {name}\n")
        binaries.append(str(uv))
    a, b = binaries
    assert freshness.remembered_uv_version(a)[1] is None
    freshness.remember_uv_version(freshness.remembered_uv_version(a)[0], "0.13.9")
    freshness.remember_uv_version(freshness.remembered_uv_version(b)[0], "0.9.0")
    assert freshness.remembered_uv_version(a)[1] == "0.13.9"
    assert freshness.remembered_uv_version(b)[1] == "0.9.0"
    # the binary replaced (another size or mtime): its old version is not its version
    Path(a).write_text("#!/bin/sh\necho a newer uv\n")
    assert freshness.remembered_uv_version(a)[1] is None
    # a memo written when one binary was kept is read as it was
    key_b = freshness.remembered_uv_version(b)[0]
    (tmp_path / "cache" / "envplan" / freshness.UV_VERSION_MEMO).write_text(f"{key_b}\n0.9.0")
    assert freshness.remembered_uv_version(b)[1] == "0.9.0"


def test_the_uv_memo_keeps_the_newest_few(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from envplan.resolve import freshness

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for n in range(freshness._UV_MEMO_KEPT + 3):
        freshness.remember_uv_version(f"/venv-{n}/uv|1|{n}", f"0.{n}.0")
    memo = freshness._uv_memo()
    assert len(memo) == freshness._UV_MEMO_KEPT
    assert next(iter(memo)) == f"/venv-{freshness._UV_MEMO_KEPT + 2}/uv|1|{freshness._UV_MEMO_KEPT + 2}"  # newest first
    assert "/venv-0/uv|1|0" not in memo
