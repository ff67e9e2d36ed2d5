"""`envplan lock` with the real uv against fake indexes (file:// and http://127.0.0.1)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.pylock import Pylock

from envplan import tomlread
from envplan.resolve.reqparse import parse_requirements
from helpers import run
from locksupport import profile_text


def lock(tmp_path: Path, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "envplan.toml").write_text(text)
    return run("lock", "--out", "L", *args, cwd=tmp_path)


def packages(tmp_path: Path) -> dict[str, object]:
    return {p.name: p for p in parse_requirements((tmp_path / "L" / "requirements.txt").read_text())}


@pytest.mark.parametrize("transport", ["file_urls", "http_urls"])
def test_lock_ties_each_package_to_its_index(tmp_path: Path, transport: str, request: pytest.FixtureRequest) -> None:
    pypi, pytorch = request.getfixturevalue(transport)
    result = lock(tmp_path, profile_text((pypi, pytorch), packages=("numpy<2", "timm")))
    assert result.returncode == 0, result.stderr
    got = packages(tmp_path)
    assert got["torch"].version == "2.1.2+cu118" and got["torchvision"].version == "0.16.2+cu118"
    # the family and everything it resolves to from the PyTorch index (numpy: torchvision needs it, and the
    # index mirrors it) come from there, as `pip install --index-url .../cu118` takes them; the rest from PyPI
    for name in ("torch", "torchvision", "triton", "filelock", "numpy"):
        assert got[name].index == f"{pytorch}/cu118", name
    assert got["numpy"].version == "1.26.0"
    assert got["pillow"].index == pypi, "the PyTorch index does not serve pillow here: PyPI's"
    assert all(p.hashes for p in got.values())


def test_dependency_confusion_traps_are_never_taken(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    result = lock(tmp_path, profile_text(file_urls, packages=("timm", "einops")))
    assert result.returncode == 0, result.stderr
    got = packages(tmp_path)
    assert got["torch"].version == "2.1.2+cu118"  # not PyPI's 9.9.9
    assert got["triton"].version == "2.1.0" and got["triton"].index.endswith("/cu118")  # not PyPI's 9.9.9
    assert "torchtriton" not in got and "pytorch-triton" not in got
    assert got["einops"].index == file_urls[0]  # the mirror's different einops file is never used


def test_pylock_is_valid_pep_751_and_agrees(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    assert lock(tmp_path, profile_text(file_urls)).returncode == 0
    data = tomlread.loads((tmp_path / "L" / "pylock.toml").read_text())
    Pylock.from_dict(data)
    assert {(p["name"], p["version"]) for p in data["packages"]} == {
        (p.name, p.version) for p in packages(tmp_path).values()
    }


def test_machine_pip_configuration_never_leaks(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    assert lock(tmp_path, profile_text(file_urls)).returncode == 0
    for name in ("requirements.txt", "pylock.toml"):
        text = (tmp_path / "L" / name).read_text()
        assert "/opt/wheels" not in text and "/opt/pypi" not in text and "--extra-index-url" not in text


def test_pypi_default_variant_uses_pypi_alone(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    text = profile_text(file_urls, variant="cu121")
    result = lock(tmp_path, text)
    assert result.returncode == 0, result.stderr
    got = packages(tmp_path)
    assert got["torch"].version == "2.1.2" and got["torch"].index == file_urls[0]
    assert "nvidia-cuda-runtime-cu12" in got


def test_hashed_lock_installs_and_a_tampered_wheel_fails(tmp_path: Path, index_root: Path) -> None:
    indexes = tmp_path / "indexes"
    shutil.copytree(index_root, indexes)
    urls = ((indexes / "pypi" / "simple").as_uri(), (indexes / "pytorch").as_uri())
    assert lock(tmp_path, profile_text(urls, variant="cpu")).returncode == 0
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull}
    install = [
        sys.executable,
        "-m",
        "pip",
        "--python",
        str(venv / "bin" / "python"),
        "install",
        "--no-deps",
        "--require-hashes",
        "--index-url",
        urls[0],
        "--extra-index-url",
        f"{urls[1]}/cpu",
        "-r",
        str(tmp_path / "L" / "requirements.txt"),
    ]
    ok = subprocess.run(install, capture_output=True, text=True, env=env, check=False)
    assert ok.returncode == 0, ok.stderr
    show = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import torch; print(torch.__version__)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert show.stdout.strip() == "2.1.2+cpu"
    wheel = indexes / "pytorch-files" / "cpu" / "torch-2.1.2+cpu-py3-none-any.whl"
    wheel.chmod(stat.S_IWUSR | stat.S_IRUSR)
    wheel.write_bytes(wheel.read_bytes() + b"\0")
    shutil.rmtree(venv)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    bad = subprocess.run([*install, "--no-cache-dir"], capture_output=True, text=True, env=env, check=False)
    assert bad.returncode != 0 and "HASHES" in bad.stderr.upper()


def test_unchanged_inputs_resolve_nothing(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    assert lock(tmp_path, profile_text(file_urls)).returncode == 0
    before = (tmp_path / "L" / "requirements.txt").stat().st_mtime_ns
    log = tmp_path / "uv.log"
    shim = tmp_path / "bin" / "uv"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {shutil.which("uv")} "$@"\n')
    shim.chmod(0o755)
    env_path = f"{shim.parent}{os.pathsep}{os.environ['PATH']}"
    result = subprocess.run(
        [sys.executable, "-m", "envplan", "lock", "--out", "L", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": env_path},
        check=False,
    )
    assert json.loads(result.stdout)["locks"][0]["status"] == "fresh"
    assert "compile" not in (log.read_text() if log.exists() else "")
    assert (tmp_path / "L" / "requirements.txt").stat().st_mtime_ns == before


def test_check_reports_what_changed(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    assert lock(tmp_path, profile_text(file_urls)).returncode == 0
    assert run("lock", "--out", "L", "--check", cwd=tmp_path).returncode == 0
    (tmp_path / "envplan.toml").write_text(profile_text(file_urls, packages=("numpy<2", "einops")))
    stale = run("lock", "--out", "L", "--check", "--json", cwd=tmp_path)
    assert stale.returncode == 1
    assert set(json.loads(stale.stdout)["locks"][0]["changed"]) == {"request changed", "profile changed"}
    assert "einops" not in (tmp_path / "L" / "requirements.txt").read_text(), "--check writes nothing"
    (tmp_path / "envplan.toml").write_text(profile_text(file_urls))
    with (tmp_path / "L" / "requirements.txt").open("a") as f:
        f.write("# edited\n")
    edited = run("lock", "--out", "L", "--check", cwd=tmp_path)
    assert edited.returncode == 1 and "requirements.txt was edited" in edited.stdout


def test_unreachable_index_fails_cleanly_and_writes_nothing(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    urls = ("http://127.0.0.1:9/simple", "http://127.0.0.1:9/whl")
    result = lock(tmp_path, profile_text(urls))
    assert result.returncode == 1
    assert "envplan: error: fake:" in result.stderr and "http://127.0.0.1:9" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "L").exists()


def test_version_the_index_lacks(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    result = lock(tmp_path, profile_text(file_urls, variant="cu117", torch="2.0.1", vision="0.15.2"))
    assert result.returncode == 1
    assert "uv could not lock fake" in result.stderr and not (tmp_path / "L").exists()


def test_profile_failing_check_is_not_locked(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    result = lock(tmp_path, profile_text(file_urls, vision="0.15.2"))
    assert result.returncode == 1 and "does not pass `envplan check`" in result.stderr


def test_a_fresh_lock_reports_what_it_pins(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    assert lock(tmp_path, profile_text(file_urls)).returncode == 0
    pinned = sum("==" in line for line in (tmp_path / "L" / "requirements.txt").read_text().splitlines())
    for argv in (("lock", "--out", "L", "--json"), ("lock", "--out", "L", "--check", "--json")):
        row = json.loads(run(*argv, cwd=tmp_path).stdout)["locks"][0]
        assert (row["status"], row["packages"]) == ("fresh", pinned) and pinned > 3, argv


def test_a_lock_that_fails_inside_upgrade_shows_the_plan_and_names_the_profile(tmp_path: Path) -> None:
    urls = ("http://127.0.0.1:9/simple", "http://127.0.0.1:9/whl")
    (tmp_path / "one.toml").write_text(profile_text(urls))
    (tmp_path / "two.toml").write_text(profile_text(urls, variant="cpu").replace('name = "fake"', 'name = "two"'))
    result = run("upgrade", "one.toml", "two.toml", "--to", "2.2", "--out", "F", cwd=tmp_path)
    assert result.returncode == 1
    assert "01-torch" in result.stdout and "this plan was not written" in result.stdout, "the plan it was locking"
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("envplan: error:")]
    assert line.startswith("envplan: error: one.toml: "), "which profile of the fleet failed"
    assert result.stderr.rstrip().endswith("or add --no-lock to write the plan without lock files)")
    assert not (tmp_path / "F").exists()


HEAVY = ("argparse", "json", "typing", "dataclasses", "pathlib", "hashlib", "shutil", "tomllib", "rich", "packaging")
_PROBE = """
import sys
from envplan.cli import main
code = main(sys.argv[1:])
heavy = [m for m in {heavy!r} if m in sys.modules]
sys.stdout.write("loaded: " + ",".join(heavy) + "\\n")
raise SystemExit(code)
"""


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """envplan's user cache for this test alone: the quick path needs the uv version remembered for the uv it finds,
    and the user's cache is written meanwhile by whatever else runs envplan on the machine (other venvs, another test
    run): what the test checks must not depend on it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def _answers(tmp_path: Path, *argv: str) -> tuple[int, str, list[str]]:
    """(exit code, what `envplan ARGV` printed, the heavy modules the answer loaded)."""
    probe = _PROBE.format(heavy=HEAVY)
    done = subprocess.run(
        [sys.executable, "-c", probe, *argv], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    printed, _, loaded = done.stdout.rpartition("loaded: ")
    return done.returncode, printed, [m for m in loaded.strip().split(",") if m]


@pytest.mark.usefixtures("own_cache")
def test_an_unchanged_lock_is_answered_before_anything_heavy_is_imported(
    tmp_path: Path, file_urls: tuple[str, str]
) -> None:
    (tmp_path / "envplan.toml").write_text(profile_text(file_urls))
    assert run("lock", cwd=tmp_path).returncode == 0  # the default folder, lock-fake
    assert run("lock", "--out", "L", cwd=tmp_path).returncode == 0
    plain = [("lock",), ("lock", "--out", "L"), ("lock", "envplan.toml", "--out", "L", "--check"), ("lock", "--json")]
    for argv in plain:
        code, printed, loaded = _answers(tmp_path, *argv)
        assert code == 0 and loaded == (["json"] if "--json" in argv else []), (argv, loaded)  # json writes JSON
        # the full path (argparse reads these forms) answers the same
        full = run(*argv[:1], "--debug", *argv[1:], cwd=tmp_path)
        assert (full.returncode, full.stdout) == (code, printed), argv
    code, printed, _ = _answers(tmp_path, "lock", "--out", "L")
    assert printed == "L: up to date (inputs unchanged, nothing resolved)\n"
    assert _answers(tmp_path, "lock", "--out=L")[2], "a form quicklock does not read takes the full path"


@pytest.mark.usefixtures("own_cache")
def test_the_unchanged_lock_path_reads_what_a_user_may_have_changed(tmp_path: Path, file_urls: tuple[str, str]) -> None:
    (tmp_path / "envplan.toml").write_text(profile_text(file_urls))
    assert run("lock", "--out", "L", cwd=tmp_path).returncode == 0
    stamp = tmp_path / "L" / "lock.json"
    stamp.write_text(json.dumps(json.loads(stamp.read_text()), indent=4))  # reformatted by hand: still the stamp
    assert _answers(tmp_path, "lock", "--out", "L", "--check")[:2] == (
        0,
        "L: up to date (inputs unchanged, nothing resolved)\n",
    )
    profile = tmp_path / "envplan.toml"
    profile.write_text(profile.read_text() + "# a comment is a change of the profile's text\n")
    code, printed, loaded = _answers(tmp_path, "lock", "--out", "L", "--check")
    assert code == 1 and "stale (profile changed)" in printed and "argparse" in loaded
    profile.write_text(profile_text(file_urls))
    (tmp_path / "L" / "pylock.toml").write_text("edited\n")
    code, printed, _ = _answers(tmp_path, "lock", "--out", "L", "--check")
    assert code == 1 and "pylock.toml was edited" in printed
