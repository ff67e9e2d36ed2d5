"""Any corrupt or unwritable cache file is ignored (with a warning) or reported, never an exit 3: the KB overlay,
the compiled KB, a cache folder that cannot be written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT

PROFILE = str(ROOT / "profiles" / "a100-train.toml")


def envplan(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("ENVPLAN_KB_OVERLAY", None)
    return subprocess.run(
        [sys.executable, "-m", "envplan", *args], env=env, capture_output=True, text=True, check=False, cwd=cache.parent
    )


OVERLAYS = {
    "garbage": b"\x00\xff not toml",
    "deep": ("x = " + "[" * 3000 + "]" * 3000 + "\n").encode(),
    "release-not-a-list": b'schema = 1\nrelease = "x"\n',
    "conda-not-a-list": b'schema = 1\nconda = "x"\n',
    "bad-torch": b'schema = 1\n[[release]]\ntorch = "abc"\ntorchvision = "0.1"\n',
    "wrong-types": b'schema = 1\n[[release]]\ntorch = "2.99.0"\ntorchvision = 5\npython = "3.11"\nvariants = 7\n',
    "hostile-values": (
        'schema = 1\n[[release]]\ntorch = "2.99.0"\ntorchvision = "0.99.0"\npython = ["3.\u0661\u0660"]\n'
        'variants = ["cu\u0661\u0661\u0668"]\nglibc = "2.' + "8" * 5000 + '"\nfiles = []\n'
    ).encode(),
}


@pytest.mark.parametrize("kind", sorted(OVERLAYS))
def test_a_corrupt_overlay_is_ignored_with_a_warning(tmp_path: Path, kind: str) -> None:
    cache = tmp_path / "cache"
    (cache / "envplan").mkdir(parents=True)
    (cache / "envplan" / "kb-overlay.toml").write_bytes(OVERLAYS[kind])
    for args in (["check", PROFILE], ["matrix", "--json"], ["upgrade", PROFILE, "--to", "2.1", "--no-lock"]):
        result = envplan(cache, *args)
        assert result.returncode in (0, 1), (args, result.stderr)
        assert "internal error" not in result.stderr
    assert "envplan: warning:" in envplan(cache, "check", PROFILE).stderr
    assert envplan(cache, "kb", "reset").returncode == 0


def test_an_unwritable_cache_costs_time_not_the_command(tmp_path: Path) -> None:
    cache = tmp_path / "not-a-folder"
    cache.write_text("a file where the cache folder should be")
    assert envplan(cache, "check", PROFILE).returncode == 0, "the compiled KB simply is not stored"
    index = tmp_path / "whl"
    (index / "torch").mkdir(parents=True)
    (index / "torch" / "index.html").write_text("<html></html>")
    update = envplan(cache, "kb", "update", "--pytorch-index", index.as_uri(), "--pypi", index.as_uri())
    assert update.returncode == 1 and "internal error" not in update.stderr
    reset = envplan(cache, "kb", "reset")
    assert reset.returncode == 0 and "no learned releases" in reset.stdout


def test_kb_reset_that_cannot_remove_the_overlay_is_exit_1(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    (cache / "envplan" / "kb-overlay.toml").mkdir(parents=True)  # a folder where the file should be
    result = envplan(cache, "kb", "reset")
    assert result.returncode == 1 and "cannot remove the overlay" in result.stderr


def test_kb_update_that_cannot_write_the_overlay_is_exit_1(tmp_path: Path) -> None:
    from fakeindex import new_release_dists, write_index

    write_index(tmp_path / "whl", tmp_path / "files", new_release_dists(variants=("cpu",)), metadata=True)
    cache = tmp_path / "not-a-folder"
    cache.write_text("x")
    url = (tmp_path / "whl").as_uri()
    result = envplan(cache, "kb", "update", "--pytorch-index", url, "--pypi", url)
    assert result.returncode == 1 and "cannot write" in result.stderr and "internal error" not in result.stderr
