"""`envplan abi-check` against real extensions built with torch.utils.cpp_extension on the real torch
2.13.0+cpu wheel: a good one, one with the other C++11 ABI, one needing a symbol this torch lacks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, run

NAMES = ("envplan_good", "envplan_oldabi", "envplan_newapi")


def _have_torch() -> bool:
    probe = subprocess.run([sys.executable, "-c", "import torch, setuptools"], capture_output=True, check=False)
    return probe.returncode == 0


pytestmark = pytest.mark.e2e
needs_torch = pytest.mark.skipif(
    not _have_torch() and not os.environ.get("ENVPLAN_REQUIRE_TORCH"),
    reason="needs torch 2.13.0+cpu in this environment (nox -s tests installs it)",
)


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    src = tmp_path_factory.mktemp("ext")
    shutil.copytree(ROOT / "tests" / "data" / "extension", src, dirs_exist_ok=True)
    env = {**os.environ, "MAX_JOBS": "2"}
    result = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=src,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return {name: next(src.glob(f"{name}.*.so")) for name in NAMES}


def imports(path: Path) -> subprocess.CompletedProcess[str]:
    code = f"import sys, torch; sys.path.insert(0, {str(path.parent)!r}); import {path.name.split('.')[0]}"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


def abi_check(*paths: Path) -> tuple[int, list[dict]]:
    result = run("abi-check", "--python", sys.executable, "--json", *map(str, paths))
    return result.returncode, json.loads(result.stdout)["extensions"]


@needs_torch
def test_a_good_extension_passes_and_imports(built: dict[str, Path]) -> None:
    code, (report,) = abi_check(built["envplan_good"])
    assert code == 0 and report["ok"] and report["missing"] == []
    assert imports(built["envplan_good"]).returncode == 0


@needs_torch
def test_the_other_cxx11_abi_is_named_and_really_fails(built: dict[str, Path]) -> None:
    code, (report,) = abi_check(built["envplan_oldabi"])
    assert code == 1 and not report["ok"]
    assert {m["verdict"] for m in report["missing"]} == {"cxx11-abi-old"}
    assert any("c10::Device::Device" in m["demangled"] for m in report["missing"])
    failed = imports(built["envplan_oldabi"])
    assert failed.returncode != 0 and "undefined symbol" in failed.stderr
    assert any(m["symbol"] in failed.stderr for m in report["missing"]), "abi-check names the symbol import trips on"


@needs_torch
def test_a_symbol_this_torch_lacks_means_another_torch(built: dict[str, Path]) -> None:
    code, (report,) = abi_check(built["envplan_newapi"])
    assert code == 1
    (missing,) = report["missing"]
    assert missing["verdict"] == "torch-version"
    assert missing["demangled"] == "at::_ops::envplan_removed_op::call(at::Tensor const&, bool)"
    failed = imports(built["envplan_newapi"])
    assert missing["symbol"] in failed.stderr


@needs_torch
def test_human_table_and_exit_code(built: dict[str, Path]) -> None:
    result = run("abi-check", "--python", sys.executable, *map(str, built.values()))
    assert result.returncode == 1
    assert "loads" in result.stdout and "BROKEN" in result.stdout and "_GLIBCXX_USE_CXX11_ABI=0" in result.stdout


def test_an_environment_without_torch_is_a_clear_error(tmp_path: Path) -> None:
    venv = tmp_path / "empty"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    result = run("abi-check", "--python", str(venv / "bin" / "python"))
    assert result.returncode == 2 and "torch is not installed in that environment" in result.stderr


def explain(log: str, *options: str) -> dict:
    result = run("explain", "--json", *options, "-", input=log)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@needs_torch
def test_explain_with_the_environment_tells_the_abi_from_another_torch(built: dict[str, Path]) -> None:
    # the real ImportErrors of the two broken builds: the text alone cannot tell which is which (no torch version in
    # it; the corpus threads settle such symbols both ways), the installed torch's exports can
    import torch

    old_abi, new_api = imports(built["envplan_oldabi"]).stderr, imports(built["envplan_newapi"]).stderr
    assert "undefined symbol" in old_abi and "undefined symbol" in new_api
    alone = explain(old_abi)["findings"][0]["ref"]
    told = explain(old_abi, "--python", sys.executable)
    assert told["environment"] == {"python": told["environment"]["python"], "torch": torch.__version__}
    first = told["findings"][0]
    assert first["ref"] == "cxx11-abi-mismatch" and "_GLIBCXX_USE_CXX11_ABI=0, torch with 1" in first["cause"]
    assert "cxx11abiTRUE" in first["fix"]
    assert alone != first["ref"], "the text alone took the default the environment corrects"
    lacks = explain(new_api, "--python", sys.executable)["findings"][0]
    assert lacks["ref"] == "extension-torch-mismatch" and "under either C++ ABI" in lacks["cause"]


def test_explain_with_a_python_that_has_no_torch_is_a_clear_error(tmp_path: Path) -> None:
    venv = tmp_path / "empty"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    result = run("explain", "--python", str(venv / "bin" / "python"), "-", input="undefined symbol: _ZN3c104xxxEv")
    assert result.returncode == 2 and "torch is not installed in that environment" in result.stderr
    assert "Traceback" not in result.stderr
