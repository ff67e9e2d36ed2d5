"""The command line as a user runs it: a subprocess, exit codes, one-line errors, --json documents."""

from __future__ import annotations

import json
import subprocess

import pytest

from helpers import ROOT, SEED, edit, run

PROFILES = sorted((ROOT / "profiles").glob("*.toml"))


def test_every_example_profile_checks_clean() -> None:
    assert len(PROFILES) >= 6
    result = run("check", *map(str, PROFILES))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(": ok") == len(PROFILES)


def test_check_json_document() -> None:
    result = run("check", "--json", str(PROFILES[0]))
    doc = json.loads(result.stdout)
    assert doc["schema"] == 1
    assert [p["path"] for p in doc["profiles"]] == [str(PROFILES[0])]
    assert doc["profiles"][0]["ok"] is True


def test_failed_check_exits_1_with_findings(write_profile) -> None:
    path = write_profile(edit(SEED, 'torchvision = "0.15.2"', 'torchvision = "0.16.2"'))
    result = run("check", "--json", str(path))
    assert result.returncode == 1
    (profile,) = json.loads(result.stdout)["profiles"]
    assert profile["ok"] is False
    assert [f["ref"] for f in profile["findings"] if f["severity"] == "error"] == ["companion-mismatch"]
    assert set(profile["findings"][0]) == {"ref", "severity", "message", "fix", "key"}


def test_human_output_has_one_line_per_finding(write_profile) -> None:
    path = write_profile(edit(SEED, "535.104.05", "450.51.06"))
    result = run("check", str(path))
    assert result.returncode == 1
    assert "error [driver-too-old] machine.driver: driver 450.51.06 is too old" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_invalid_profile_exits_2_with_every_problem_and_no_traceback(write_profile) -> None:
    text = edit(edit(SEED, 'os = "linux"', 'os = "beos"'), "[stack]", "[stack]\nflavour = 1")
    path = write_profile(text)
    result = run("check", str(path))
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line]
    assert lines == [
        f"envplan: error: {path}: machine.os: 'beos' is not one of linux, windows, macos; use one of linux, "
        "windows, macos",
        f"envplan: error: {path}: stack.flavour: unknown key; known keys: packages, torch, torchaudio, "
        "torchvision, variant",
    ]
    assert "Traceback" not in result.stderr


def test_toml_syntax_error_exits_2(write_profile) -> None:
    path = write_profile("schema = 1\n[machine\n")
    result = run("check", "--json", str(path))
    assert result.returncode == 2
    assert "line 2, column" in result.stderr
    finding = json.loads(result.stdout)["profiles"][0]["findings"][0]
    assert finding["ref"] == "toml-syntax"


def test_bad_input_wins_over_failed_checks(write_profile, tmp_path) -> None:
    bad = write_profile(edit(SEED, 'torchvision = "0.15.2"', 'torchvision = "0.16.2"'), "bad.toml")
    result = run("check", str(bad), str(tmp_path / "missing.toml"))
    assert result.returncode == 2
    assert f"envplan: error: {tmp_path / 'missing.toml'}: no such file" in result.stderr


def test_matrix_json_lists_every_release_with_companions() -> None:
    result = run("matrix", "--json")
    assert result.returncode == 0
    doc = json.loads(result.stdout)
    assert doc["schema"] == 1
    rows = {r["torch"]: r for r in doc["releases"]}
    assert len(rows) == 31
    assert {k: rows["2.1.2"][k] for k in ("torchvision", "torchaudio", "python", "variants", "verified")} == {
        "torchvision": "0.16.2",
        "torchaudio": "2.1.2",
        "python": ["3.8", "3.9", "3.10", "3.11"],
        "variants": ["cpu", "cu118", "cu121"],
        "verified": True,
    }
    assert rows["2.12.0"]["verified"] is False and rows["2.4.0"]["verified"] == "partial"


def test_matrix_filters_by_minor_and_release() -> None:
    minor = json.loads(run("matrix", "--json", "--torch", "2.1").stdout)
    assert [r["torch"] for r in minor["releases"]] == ["2.1.0", "2.1.1", "2.1.2"]
    exact = json.loads(run("matrix", "--json", "--torch", "2.0.0").stdout)
    assert [r["torch"] for r in exact["releases"]] == ["2.0.0"]


@pytest.mark.parametrize("arg", ["9.9", "banana"])
def test_matrix_bad_torch_exits_2(arg: str) -> None:
    result = run("matrix", "--torch", arg)
    assert result.returncode == 2 and result.stderr.startswith("envplan: error: --torch:")


def test_matrix_table_for_people() -> None:
    result = run("matrix", "--torch", "2.6")
    assert result.returncode == 0
    assert "2.6.0" in result.stdout and "cu124*" in result.stdout and "mixed" in result.stdout


def test_console_script_and_version() -> None:
    result = subprocess.run(["envplan", "--version"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and result.stdout.startswith("envplan ")


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "a.toml", "--json"],
        ["upgrade", "p.toml", "--to", "2.1", "--no-lock", "--lock-python", "/usr/bin/python3"],
        ["--debug", "lock", "p.toml", "--check", "--backend", "pip-tools"],
        ["abi-check", "x.so"],
        ["verify", "plan", "--step", "s"],
        ["doctor", "--profile", "p.toml"],
        ["init", "--from", "requirements.txt", "--torch", "2.1.2"],
        ["explain", "log.txt"],
        ["matrix", "--torch", "2.1"],
        ["export", "ci", "plan", "--github"],
        ["kb", "show", "2.1.2"],
    ],
)
def test_the_parser_built_for_one_command_reads_it_as_the_full_parser(argv: list[str]) -> None:
    """Only the running command's arguments are built (start-up); what it parses must not change."""
    from envplan.cli.parser import _build, build_parser

    assert vars(build_parser(argv).parse_args(argv)) == vars(_build(None)[0].parse_args(argv))
