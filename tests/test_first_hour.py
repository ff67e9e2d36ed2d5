"""A new user's first hour (#17): every error names what to do next and the flag of the command that was run,
exit codes are README's, and output meant for people reads as people read it. The messages are snapshots:
a change to what users see shows up here."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from helpers import ROOT, edit, run

A100 = ROOT / "profiles" / "a100-train.toml"


@pytest.fixture
def here(tmp_path: Path) -> Path:
    shutil.copy(A100, tmp_path / "a100.toml")
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir.toml").mkdir()
    (tmp_path / "bin.toml").write_bytes(b"\x00\x01\x02name")
    (tmp_path / "latin1.toml").write_bytes(b'name = "caf\xe9"\n')
    return tmp_path


# (arguments, exit code, the exact stderr line): what a user sees for each mistake of the issue
MESSAGES = [
    (
        ("check", "adir.toml"),
        2,
        "envplan: error: adir.toml: is a folder, not a profile (give the profile's .toml file inside it)",
    ),
    (
        ("lock", "adir.toml"),
        2,
        "envplan: error: adir.toml: is a folder, not a profile (give the profile's .toml file inside it)",
    ),
    (
        ("lock", "bin.toml"),
        2,
        "envplan: error: bin.toml: a binary file, not a profile (give the profile's .toml file)",
    ),
    (
        ("lock", "latin1.toml"),
        2,
        "envplan: error: latin1.toml: not UTF-8 text (byte 11): not a profile "
        "(give the profile's .toml file (save it as UTF-8))",
    ),
    (
        ("lock",),
        2,
        "envplan: error: envplan.toml: no such file (write one for this machine with `envplan init`, or give "
        "the path of a profile TOML file, e.g. profiles/a100-train.toml)",
    ),
    (
        ("upgrade", "a100.toml", "--to", "2.8", "--no-lock", "--out", "afile/plan"),
        2,
        "envplan: error: {tmp}/afile/plan: cannot be a folder: {tmp}/afile is a file (choose another --out)",
    ),
    (
        ("upgrade", "a100.toml", "--to", "2.8", "--no-lock", "--variant", "cu999"),
        2,
        "envplan: error: --variant: no torch release in the KB publishes a cu999 build (use auto or one of cpu, "
        "cu102, cu113, cu116, cu117, cu118, cu121, cu124, cu126, cu128, cu129, cu130, cu132, rocm5.1.1, rocm5.2, "
        "rocm5.4.2, rocm5.6, rocm5.7, rocm6.0, rocm6.1, rocm6.2, rocm6.2.4, rocm6.3, rocm6.4, rocm7.0, rocm7.1, "
        "rocm7.2, xpu; `envplan kb update` learns newer builds)",
    ),
    (
        ("upgrade", "a100.toml", "--to", "2.8", "--lock-python", "/usr/bin/python3"),
        2,
        "envplan: error: --lock-python: --lock-python is for --backend pip-tools; uv locks for the profile's "
        "Python without running it (drop --lock-python, or add --backend pip-tools)",
    ),
    (
        ("lock", "a100.toml", "--backend", "pip-tools", "--python", "/nope/python3"),
        2,
        "envplan: error: --python: /nope/python3: no such interpreter (give --python the path of a Python "
        "interpreter, e.g. .venv/bin/python; `uv python find 3.12` prints one)",
    ),
    (
        ("doctor", "--python", "/nope/python3"),
        2,
        "envplan: error: --python: /nope/python3: no such interpreter (give --python the path of a Python "
        "interpreter, e.g. .venv/bin/python; `uv python find 3.12` prints one)",
    ),
    (
        ("init", "-o", "afile/envplan.toml", "--from", "req.txt"),
        2,
        "envplan: error: -o afile/envplan.toml: {tmp}/afile is a file, not a folder (choose another -o)",
    ),
    (
        ("matrix", "a100.toml"),
        2,
        "envplan: error: PROFILE: PROFILEs are pictured only in a report (add --report FILE.html to picture them, "
        "or drop them for the table)",
    ),
    (
        ("export", "docker", "plan", "-o", "Dockerfile"),
        2,
        "envplan: error: -o: -o names one Dockerfile, and a plan has one per step (add --step NAME, or drop -o "
        "to write PLAN_DIR/STEP/Dockerfile for every step)",
    ),
    (
        ("matrix", "--report", "afile/x.html", "a100.toml"),
        1,
        "envplan: error: afile/x.html: cannot write: {tmp}/afile is a file, not a folder (write somewhere else)",
    ),
    (
        ("matrix", "--report", "missing/x.html", "a100.toml"),
        1,
        "envplan: error: missing/x.html: cannot write: its folder does not exist (create the folder first, or "
        "write somewhere else)",
    ),
]


@pytest.mark.parametrize(("args", "code", "line"), MESSAGES, ids=[" ".join(m[0]) for m in MESSAGES])
def test_each_mistake_gets_one_line_with_the_next_step(here: Path, args: tuple[str, ...], code: int, line: str) -> None:
    (here / "req.txt").write_text("torch==2.4.0\n")
    result = run(*args, cwd=here)
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [line.format(tmp=here)]


def test_check_reports_each_error_once(here: Path) -> None:
    result = run("check", "adir.toml", "bin.toml", cwd=here)
    assert result.returncode == 2
    assert result.stderr.count("is a folder, not a profile") == 1 and "is a folder" not in result.stdout
    assert result.stderr.count("a binary file, not a profile") == 1 and "binary" not in result.stdout
    assert "adir.toml: FAILED (not checked: 1 problem(s) with the file, said above)" in result.stdout
    as_json = run("check", "adir.toml", "--json", cwd=here)
    assert json.loads(as_json.stdout)["schema"] and as_json.stderr.count("is a folder, not a profile") == 1


def test_a_number_where_a_string_belongs_says_to_quote_it(here: Path) -> None:
    text = edit(
        A100.read_text(),
        'gpus = ["NVIDIA A100-SXM4-80GB"]',
        'gpus = ["NVIDIA A100-SXM4-80GB"]\ncompute-capability = [8.0]',
    )
    (here / "cc.toml").write_text(text)
    result = run("check", "cc.toml", cwd=here)
    assert result.returncode == 2
    assert (
        'machine.compute-capability[0]: 8.0 must be a quoted string, not a number; write it as ["8.0"]' in result.stderr
    )


def test_debug_works_before_the_command(here: Path) -> None:
    for argv in (("--debug", "lock", "adir.toml"), ("lock", "adir.toml", "--debug")):
        result = run(*argv, cwd=here)
        assert result.returncode == 2 and "is a folder" in result.stderr, argv


def test_piped_output_is_not_wrapped(here: Path) -> None:
    result = run("upgrade", "a100.toml", "--to", "2.8", "--no-lock", "--out", "p", cwd=here)
    assert result.returncode == 0, result.stderr
    reason = next(line for line in result.stdout.splitlines() if "variant cu128:" in line)
    assert "it is the build PyPI serves by default on Linux x86_64" in reason, "a reason cut over two lines"
    assert not any(line.endswith(" ") for line in result.stdout.splitlines()), "lines padded to a width"


def test_an_unknown_gpu_is_said_in_upgrade_as_in_check(here: Path) -> None:
    text = edit(A100.read_text(), 'gpus = ["NVIDIA A100-SXM4-80GB"]', 'gpus = ["Quadro Z9000"]')
    (here / "unk.toml").write_text(text)
    said = "GPU 'Quadro Z9000' is not in the KB, so its architecture cannot be checked"
    assert said in run("check", "unk.toml", cwd=here).stdout
    result = run("upgrade", "unk.toml", "--to", "2.8", "--no-lock", "--json", "--out", "p", cwd=here)
    assert any(w.startswith(said) for w in json.loads(result.stdout)["warnings"])


def test_kb_show_reads_as_text_not_python(here: Path) -> None:
    out = run("kb", "show", "2.8.0", cwd=here).stdout
    assert "python: 3.9, 3.10, 3.11, 3.12, 3.13" in out and "cxx11-abi: yes" in out
    assert "  cu128: 7.0;7.5;8.0;8.6;9.0;10.0;12.0" in out
    assert not re.search(r"\['|\{'|: (True|False|None|\[\]|\{\})$", out, re.MULTILINE), out


def test_init_into_a_folder_writes_envplan_toml_there(here: Path) -> None:
    (here / "req.txt").write_text("torch==2.4.0+cu121\n--extra-index-url https://download.pytorch.org/whl/cu121\n")
    (here / "proj").mkdir()
    result = run("init", "--from", "req.txt", "-o", "proj", cwd=here)
    assert result.returncode == 0, result.stderr
    assert 'torch = "2.4.0"' in (here / "proj" / "envplan.toml").read_text()
    again = run("init", "--from", "req.txt", "-o", "proj", cwd=here)
    assert again.returncode == 2 and "proj/envplan.toml: already exists (pass --force" in again.stderr
    assert run("init", "--from", "req.txt", "-o", "proj", "--force", cwd=here).returncode == 0


def test_write_profile_says_what_it_rewrote(here: Path) -> None:
    result = run("upgrade", "a100.toml", "--to", "2.8", "--no-lock", "--out", "p", "--write-profile", cwd=here)
    assert result.returncode == 0, result.stderr
    assert "rewrote a100.toml to the target stack (torch 2.8.0; comments and layout kept)" in result.stdout
    assert 'torch = "2.8.0"' in (here / "a100.toml").read_text()
    (here / "b.toml").write_text(A100.read_text().replace('name = "a100-train"', 'name = "b"'))
    doc = json.loads(
        run("upgrade", "b.toml", "--to", "2.8", "--no-lock", "--out", "q", "--write-profile", "--json", cwd=here).stdout
    )
    assert doc["profile_rewritten"] == "b.toml"


def _readme_exit_codes() -> dict[str, str]:
    rows = {}
    for line in (ROOT / "README.md").read_text().splitlines():
        m = re.match(
            r"\| `envplan ([a-z-]+(?: (?:docker|uv|wheelhouse|ci|update|show|reset))?)[^`]*` \|.*\| ([^|]+) \|$", line
        )
        if m:
            rows.setdefault(m.group(1), "")
            rows[m.group(1)] += m.group(2)
    return rows


def test_every_exit_code_seen_here_is_in_readme_for_its_command() -> None:
    documented = _readme_exit_codes()
    for args, code, _ in MESSAGES:
        command = args[0] if args[0] not in ("export", "kb") else f"{args[0]} {args[1]}"
        assert command in documented, f"README has no row for envplan {command}"
        assert re.search(rf"(^|[ ,]){code}\b", documented[command]), f"envplan {command} exits {code}: not in README"
