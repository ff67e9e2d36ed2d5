"""`envplan kb update` against local indexes on 127.0.0.1 (fake wheels with real metadata and PEP 658 sidecars):
a new release is learned exactly, a second run is served by conditional requests, a disagreement with a
verified fact is a conflict, an unreachable index fails clearly, --offline opens no socket."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fakeindex import FakeDist, new_release_dists, serve, write_index
from helpers import ROOT

# What api.github.com/repos/<repo>/releases answers (the fields envplan reads), for a release the KB has no row for
FLASH_RELEASES = [
    {
        "tag_name": "v2.8.3.post2",
        "assets": [
            {
                "name": "flash_attn-2.8.3.post2+cu12torch2.9cxx11abiTRUE-cp312-cp312-linux_x86_64.whl",
                "browser_download_url": "https://github.com/Dao-AILab/flash-attention/releases/download/v2.8.3.post2/"
                "flash_attn-2.8.3.post2+cu12torch2.9cxx11abiTRUE-cp312-cp312-linux_x86_64.whl",
            },
            {"name": "flash_attn-2.8.3.post2.tar.gz", "browser_download_url": "https://example.invalid/sdist"},
        ],
    }
]
GITHUB: dict[str, str] = {}


@pytest.fixture(scope="module")
def indexes(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("kbindex")
    write_index(root / "whl", root / "files" / "whl", new_release_dists(), metadata=True)
    pypi = [FakeDist("torch", "2.15.0", ("filelock", "cuda-toolkit==13.0.3"), tag="cp312-cp312-manylinux_2_28_x86_64")]
    write_index(root / "pypi" / "simple", root / "files" / "pypi", pypi, metadata=True)
    for repo, releases in (
        ("Dao-AILab/flash-attention", FLASH_RELEASES),
        ("Dao-AILab/causal-conv1d", []),
        ("state-spaces/mamba", []),
    ):
        (root / "gh" / "repos" / repo).mkdir(parents=True)
        (root / "gh" / "repos" / repo / "releases").write_text(json.dumps(releases))
    with serve(root) as base:
        GITHUB["api"] = f"{base}/gh"
        yield f"{base}/whl", f"{base}/pypi/simple"


def envplan(tmp_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    if args[:2] == ("kb", "update") and "--github-api" not in args:
        args = (*args, "--github-api", GITHUB.get("api", "http://127.0.0.1:9/unreachable"))
    return subprocess.run(
        [sys.executable, "-m", "envplan", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_a_new_release_is_learned_exactly_and_planned(tmp_path: Path, indexes: tuple[str, str]) -> None:
    pytorch, pypi = indexes
    result = envplan(tmp_path, "kb", "update", "--pytorch-index", pytorch, "--pypi", pypi, "--json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    (learned,) = doc["learned"]
    assert learned["torch"] == "2.15.0" and learned["variants"] == ["cpu", "cu126", "cu130"]
    assert (learned["torchvision"], learned["torchaudio"]) == ("0.30.0", "2.15.0")
    assert learned["python"] == ["3.10", "3.11", "3.12", "3.13", "3.14", "3.14t"]
    assert (learned["glibc"], learned["pypi_default"]) == ("2.28", "cu130")
    matrix = json.loads(envplan(tmp_path, "matrix", "--torch", "2.15", "--json").stdout)["releases"][0]
    assert matrix["learned"] is True and matrix["verified"] is False
    shown = json.loads(envplan(tmp_path, "kb", "show", "2.15.0", "--json").stdout)["release"]
    assert shown["origin"] == "learned (overlay)" and pytorch in shown["source"]
    assert shown["architectures"]["cu130"] == "unknown", "no architecture list is guessed for a learned release"
    profile = (ROOT / "profiles" / "cpu-laptop.toml").read_text()
    (tmp_path / "envplan.toml").write_text(profile)
    plan = envplan(tmp_path, "upgrade", "--to", "2.15.0", "--no-lock", "--json")
    assert plan.returncode == 0, plan.stderr
    steps = json.loads(plan.stdout)["steps"]
    assert steps[1]["packages"] == {"torch": "2.15.0+cpu"}
    assert steps[2]["packages"]["torchvision"] == "0.30.0+cpu"
    assert any("not in the reviewed KB" in r and pytorch in r for r in steps[1]["reasons"])
    assert envplan(tmp_path, "kb", "reset").returncode == 0
    assert envplan(tmp_path, "matrix", "--torch", "2.15", "--json").returncode == 2


def test_a_second_run_transfers_almost_nothing(tmp_path: Path, indexes: tuple[str, str]) -> None:
    pytorch, pypi = indexes
    first = json.loads(envplan(tmp_path, "kb", "update", "--pytorch-index", pytorch, "--pypi", pypi, "--json").stdout)
    again = json.loads(envplan(tmp_path, "kb", "update", "--pytorch-index", pytorch, "--pypi", pypi, "--json").stdout)
    assert first["requests"]["fetched"] > 0
    assert again["requests"]["fetched"] == 0 and again["requests"]["not-modified"] == first["requests"]["fetched"]


def test_offline_opens_no_socket(tmp_path: Path, indexes: tuple[str, str]) -> None:
    pytorch, pypi = indexes
    envplan(tmp_path, "kb", "update", "--pytorch-index", pytorch, "--pypi", pypi)
    code = (
        "import socket, sys\n"
        "def refuse(*a, **k): raise SystemExit('a socket was opened')\n"
        "socket.socket.connect = refuse\n"
        "from envplan.cli import main\n"
        f"sys.exit(main(['kb', 'update', '--offline', '--pytorch-index', {pytorch!r}, '--pypi', {pypi!r}, "
        "'--json']))\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["learned"][0]["torch"] == "2.15.0"
    empty = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "XDG_CACHE_HOME": str(tmp_path / "none")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert empty.returncode == 1 and "--offline forbids the network" in empty.stderr


def test_a_disagreement_with_a_verified_fact_is_a_conflict(tmp_path: Path) -> None:
    dists = new_release_dists("2.1.2", "0.16.3", "2.1.2", ("cu118",))
    write_index(tmp_path / "whl", tmp_path / "files", dists, metadata=True)
    result = envplan(
        tmp_path,
        "kb",
        "update",
        "--pytorch-index",
        (tmp_path / "whl").as_uri(),
        "--pypi",
        (tmp_path / "whl").as_uri(),
        "--json",
    )
    doc = json.loads(result.stdout)
    assert doc["learned"] == [] and doc["known"] == ["2.1.2"]
    assert any("torchvision 0.16.3" in c and "0.16.2 (kept)" in c for c in doc["conflicts"])
    assert (
        json.loads(envplan(tmp_path, "matrix", "--torch", "2.1.2", "--json").stdout)["releases"][0]["torchvision"]
        == "0.16.2"
    )


def test_an_unreachable_index_fails_naming_the_url(tmp_path: Path) -> None:
    result = envplan(
        tmp_path, "kb", "update", "--pytorch-index", "http://127.0.0.1:9/whl", "--pypi", "http://127.0.0.1:9/simple"
    )
    assert result.returncode == 1 and "cannot reach http://127.0.0.1:9/whl/torch/" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("where", ["file:///nonexistent/whl", "empty"])
def test_an_index_without_torch_wheels_is_a_failure(tmp_path: Path, where: str) -> None:
    if where == "empty":
        write_index(tmp_path / "whl", tmp_path / "files", [FakeDist("numpy", "1.26.0")], metadata=True)
        where = (tmp_path / "whl").as_uri()
    result = envplan(tmp_path, "kb", "update", "--pytorch-index", where, "--pypi", where)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "lists no torch wheels" in result.stderr and "0 new release" not in result.stdout


def test_a_learned_release_carries_its_proof_and_is_marked_as_the_target(tmp_path: Path) -> None:
    """A hostile (or mistyped) index can publish a torch 99.0: it may be learned, but it keeps the hashes the
    index served, says where it came from, and `--to latest` says it is not reviewed."""
    dists = new_release_dists("99.0.0", "9.9.9", "99.0.0", ("cpu",))
    write_index(tmp_path / "whl", tmp_path / "files", dists, metadata=True)
    url = (tmp_path / "whl").as_uri()
    assert envplan(tmp_path, "kb", "update", "--pytorch-index", url, "--pypi", url).returncode == 0
    overlay = (tmp_path / "cache" / "envplan" / "kb-overlay.toml").read_text()
    assert re.search(r'"torch-99\.0\.0\+cpu-cp311-cp311-manylinux_2_28_x86_64\.whl sha256:[0-9a-f]{64}"', overlay)
    (tmp_path / "envplan.toml").write_text((ROOT / "profiles" / "cpu-laptop.toml").read_text())
    doc = json.loads(envplan(tmp_path, "upgrade", "--to", "latest", "--no-lock", "--json").stdout)
    assert doc["target"]["torch"] == "99.0.0" and doc["target"]["learned"] is True and url in doc["target"]["source"]
    human = envplan(tmp_path, "upgrade", "--to", "latest", "--no-lock", "--out", "p")
    assert "target torch 99.0.0 is not in the reviewed KB" in human.stdout
    # the same release without its files (an overlay written by hand, or before files were kept) is not used
    (tmp_path / "cache" / "envplan" / "kb-overlay.toml").write_text(re.sub(r"files = \[[^\]]*\]\n", "", overlay))
    check = envplan(tmp_path, "matrix", "--torch", "99.0", "--json")
    assert check.returncode == 2 and "release[0] ignored: no torch wheels with sha256 hashes" in check.stderr


def test_extension_wheels_seen_on_the_github_releases_are_learned_and_used(
    tmp_path: Path, indexes: tuple[str, str]
) -> None:
    pytorch, pypi = indexes
    result = envplan(tmp_path, "kb", "update", "--pytorch-index", pytorch, "--pypi", pypi, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["extension-wheels"] == 1, "the wheel counts, the sdist does not"
    profile = (
        'schema = 1\nname = "h100"\n[machine]\nglibc = "2.35"\ngpus = ["H100"]\ndriver = "570.124.06"\n'
        'cuda-toolkit = "12.8"\n[python]\nversion = "3.12"\n[stack]\ntorch = "2.8.0"\nvariant = "cu128"\n'
        '[[extensions]]\nname = "flash-attn"\nversion = "2.8.3"\n'
    )
    (tmp_path / "envplan.toml").write_text(profile)
    plan = json.loads(envplan(tmp_path, "upgrade", "--to", "2.9.1", "--no-lock", "--json").stdout)
    (ext,) = plan["steps"][-1]["extensions"]
    assert ext["method"] == "wheel-url" and ext["version"] == "2.8.3.post2"
    assert ext["spec"] == FLASH_RELEASES[0]["assets"][0]["browser_download_url"]
    assert any("seen on its GitHub release by envplan kb update" in r for r in ext["reasons"])
    again = json.loads(envplan(tmp_path, "kb", "update", "--pytorch-index", pytorch, "--pypi", pypi, "--json").stdout)
    assert again["extension-wheels"] == 1


def _platform_dists(torch: str = "2.16.0") -> list[FakeDist]:
    """A release as the PyTorch index lists it on four platforms, each with its own variants and Python tags."""
    builds = {
        "manylinux_2_28_x86_64": (("cpu", "cu126", "cu130"), ("cp311-cp311", "cp312-cp312", "cp313-cp313t")),
        "manylinux_2_28_aarch64": (("cpu", "cu128", "cu130"), ("cp311-cp311", "cp312-cp312")),
        "win_amd64": (("cpu", "cu126"), ("cp311-cp311", "cp312-cp312")),
        "macosx_11_0_arm64": ((None,), ("cp312-cp312",)),
    }
    out = []
    for platform, (variants, pythons) in builds.items():
        for variant in variants:
            local = f"+{variant}" if variant else ""
            for py in pythons:
                tag = f"{py}-{platform}"
                out.append(FakeDist("torch", f"{torch}{local}", ("filelock",), tag=tag))
                out.append(FakeDist("torchvision", f"0.31.0{local}", (f"torch=={torch}",), tag=tag))
                out.append(FakeDist("torchaudio", f"{torch}{local}", (f"torch=={torch}",), tag=tag))
    return out


def test_per_platform_availability_is_learned_from_the_filenames(tmp_path: Path) -> None:
    root = tmp_path / "idx"
    write_index(root / "whl", root / "files" / "whl", _platform_dists(), metadata=True)
    pypi = [
        FakeDist("torch", "2.16.0", ("cuda-toolkit==13.0.3",), tag="cp312-cp312-manylinux_2_28_x86_64"),
        FakeDist("torch", "2.16.0", ("cuda-toolkit==13.0.3",), tag="cp312-cp312-manylinux_2_28_aarch64"),
        FakeDist("torch", "2.16.0", ("filelock",), tag="cp312-cp312-win_amd64"),
        FakeDist("torch", "2.16.0", ("filelock",), tag="cp312-none-macosx_11_0_arm64"),
    ]
    write_index(root / "pypi" / "simple", root / "files" / "pypi", pypi, metadata=True)
    with serve(root) as base:
        result = envplan(tmp_path, "kb", "update", "--pytorch-index", f"{base}/whl", "--pypi", f"{base}/pypi/simple")
    assert result.returncode == 0, result.stderr
    overlay = tmp_path / "cache" / "envplan" / "kb-overlay.toml"
    probe = (
        "import json; from envplan.kb import load_kb\n"
        "kb = load_kb()\n"
        "rows = {p: kb.availability_of('2.16.0', p) for p in "
        "('linux-x86_64', 'linux-aarch64', 'windows-x86_64', 'macos-arm64', 'macos-x86_64')}\n"
        "print(json.dumps({p: r and [r.variants, r.python, r.pypi_default, r.verified] for p, r in rows.items()}))"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "ENVPLAN_KB_OVERLAY": str(overlay)}
    seen = json.loads(
        subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True).stdout
    )
    assert seen == {
        "linux-x86_64": [["cpu", "cu126", "cu130"], ["3.11", "3.12", "3.13t"], "cu130", False],
        "linux-aarch64": [["cpu", "cu128", "cu130"], ["3.11", "3.12"], "cu130", False],
        "windows-x86_64": [["cpu", "cu126"], ["3.11", "3.12"], "cpu", False],
        "macos-arm64": [["cpu"], ["3.12"], "cpu", False],
        "macos-x86_64": None,  # no wheel on the index: nothing to say, not "none published"
    }
    # the aarch64 machine keeps cu128, which only its platform's builds have (Linux x86_64's have cu126/cu130)
    shutil.copy(ROOT / "profiles" / "gh200-aarch64.toml", tmp_path / "gh200.toml")
    plan = envplan(tmp_path, "upgrade", "gh200.toml", "--to", "2.16.0", "--no-lock", "--json", "--out", "p")
    doc = json.loads(plan.stdout)
    assert doc["status"] == "ok", plan.stdout
    assert {s["variant"] for s in doc["steps"][1:]} == {"cu128"}
