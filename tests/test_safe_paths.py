"""Never delete what envplan did not write: names are names, --out is refused on foreign folders, symlinks
are not followed into deletion, a replaced plan is swapped whole, leftovers are cleaned, umask is kept."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from envplan.errors import EnvplanError
from envplan.write import write_file, write_tree
from helpers import ROOT, SEED, edit, pretend_locked, run

MARKER = ".envplan-plan"  # the file that marks a folder envplan wrote


def seed_dir(tmp_path: Path, text: str = SEED, name: str = "envplan.toml") -> Path:
    (tmp_path / name).write_text(text)
    return tmp_path


def upgrade(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run("upgrade", "--to", "2.1", "--no-lock", *args, cwd=cwd)


# --- names are names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["..", ".", "/tmp/x", "../x", "a/b", "a\nb", "a\0b", ".hidden", "-rf", "a b", "x" * 101]
)
def test_check_refuses_a_name_that_is_not_a_folder_name(tmp_path: Path, name: str) -> None:
    (tmp_path / "p.toml").write_text(edit(SEED, 'name = "a100-train"', f"name = {json.dumps(name)}"))
    result = run("check", "p.toml", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "p.toml: name:" in result.stderr and "is not a usable name" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_fleet_name_never_leaves_out(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "data.txt").write_text("precious")
    work = tmp_path / "work"
    work.mkdir()
    seed_dir(work, edit(SEED, 'name = "a100-train"', 'name = "../victim"'), "a.toml")
    seed_dir(work, SEED, "b.toml")
    result = run("upgrade", "a.toml", "b.toml", "--to", "2.1", "--no-lock", "--out", "fleet", cwd=work)
    assert result.returncode == 2 and "name" in result.stderr
    assert (victim / "data.txt").read_text() == "precious"


def test_lock_default_folder_never_leaves_the_current_one(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("mine\n")
    work = tmp_path / "work"
    work.mkdir()
    seed_dir(work, edit(SEED, 'name = "a100-train"', 'name = "/.."'))
    result = run("lock", "--check", cwd=work)
    assert result.returncode == 2 and "name" in result.stderr
    assert (tmp_path / "requirements.txt").read_text() == "mine\n"


# --- --out: never delete what envplan did not write ----------------------------------------------------


def test_out_on_a_users_folder_is_refused_and_left_alone(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    project = cwd / "project"
    project.mkdir()
    (project / "main.py").write_text("print('mine')\n")
    result = upgrade(cwd, "--out", "project")
    assert result.returncode == 2
    assert "is a folder envplan did not write" in result.stderr and "--force" in result.stderr
    assert sorted(p.name for p in project.iterdir()) == ["main.py"]
    forced = upgrade(cwd, "--out", "project", "--force")
    assert forced.returncode == 0, forced.stderr
    assert not (project / "main.py").exists() and (project / "PLAN.md").is_file() and (project / MARKER).is_file()


def test_out_dot_never_replaces_the_folder_holding_the_profile(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    result = upgrade(cwd, "--out", ".")
    assert result.returncode == 2 and "--force" in result.stderr
    assert (cwd / "envplan.toml").read_text() == SEED
    forced = upgrade(cwd, "--out", ".", "--force")
    assert forced.returncode == 2 and "replacing it would delete that too" in forced.stderr
    (cwd / "sub").mkdir()
    (cwd / "sub" / "p.toml").write_text(SEED)
    (cwd / "sub" / "notes.txt").write_text("mine")
    beside = run("upgrade", "sub/p.toml", "--to", "2.1", "--no-lock", "--out", "sub", "--force", cwd=cwd)
    assert beside.returncode == 2 and "sub/p.toml" in beside.stderr
    assert (cwd / "envplan.toml").read_text() == SEED and (cwd / "sub" / "notes.txt").read_text() == "mine"


def test_a_plan_envplan_wrote_is_replaced_without_force(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    assert upgrade(cwd, "--out", "p").returncode == 0
    (cwd / "p" / "stale.txt").write_text("from the old plan")
    again = run("upgrade", "--to", "2.2", "--no-lock", "--out", "p", cwd=cwd)
    assert again.returncode == 0, again.stderr
    assert "2.2" in (cwd / "p" / "PLAN.md").read_text() and not (cwd / "p" / "stale.txt").exists()
    assert sorted(p.name for p in cwd.iterdir()) == ["envplan.toml", "p"], "nothing left beside it"


def test_a_plan_written_before_markers_is_still_replaced(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    assert upgrade(cwd, "--out", "p").returncode == 0
    (cwd / "p" / MARKER).unlink()  # as envplan wrote plans before the marker
    assert upgrade(cwd, "--out", "p").returncode == 0
    assert (cwd / "p" / MARKER).is_file()


def test_a_symlink_to_a_users_folder_is_not_followed(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    project = cwd / "project"
    project.mkdir()
    (project / "main.py").write_text("mine")
    (cwd / "link").symlink_to(project)
    refused = upgrade(cwd, "--out", "link")
    assert refused.returncode == 2 and "symbolic link" in refused.stderr
    forced = upgrade(cwd, "--out", "link", "--force")
    assert forced.returncode == 0, forced.stderr
    assert (project / "main.py").read_text() == "mine", "what the link pointed to is left alone"
    assert not (cwd / "link").is_symlink() and (cwd / "link" / "PLAN.md").is_file()


def test_a_symlink_to_a_plan_replaces_the_plan_behind_it(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    assert upgrade(cwd, "--out", "real").returncode == 0
    (cwd / "link").symlink_to(cwd / "real")
    assert run("upgrade", "--to", "2.2", "--no-lock", "--out", "link", cwd=cwd).returncode == 0
    assert (cwd / "link").is_symlink() and "2.2" in (cwd / "real" / "PLAN.md").read_text()


def test_a_symlink_inside_a_replaced_plan_is_not_followed(tmp_path: Path) -> None:
    keep = tmp_path / "keep"
    keep.mkdir()
    (keep / "data").write_text("precious")
    write_tree(tmp_path / "plan", {"PLAN.md": "1"})
    (tmp_path / "plan" / "link").symlink_to(keep)
    write_tree(tmp_path / "plan", {"PLAN.md": "2"})
    assert (keep / "data").read_text() == "precious"


def test_lock_refuses_to_overwrite_a_requirements_txt_it_did_not_write(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    (cwd / "requirements.txt").write_text("mine\n")
    result = run("lock", "--out", ".", cwd=cwd)
    assert result.returncode == 2 and "requirements.txt" in result.stderr and "--force" in result.stderr
    assert (cwd / "requirements.txt").read_text() == "mine\n"


# --- the path always holds the old plan or the new one; leftovers are cleaned ----------------------------

_KILL_AT_SWAP = """
import os, sys
from pathlib import Path
import envplan.write as w
real_rename, real_replace = os.rename, os.replace
def staged(src):
    name = Path(str(src)).name
    return name.startswith(".plan.") and ".old" not in name
def rename(src, dst, *a, **k):
    if staged(src):
        os._exit(9)  # killed while the new plan is moved into place
    return real_rename(src, dst, *a, **k)
def replace(src, dst, *a, **k):
    if staged(src):
        os._exit(9)
    return real_replace(src, dst, *a, **k)
os.rename, os.replace = rename, replace
exchange = getattr(w, "_exchange", None)
if sys.argv[2] == "no-exchange":
    w._exchange = lambda a, b: False
elif exchange is not None:
    def dying(a, b):
        exchange(a, b)
        os._exit(9)  # killed right after the swap, before the old plan is removed
    w._exchange = dying
w.write_tree(Path(sys.argv[1]), {"PLAN.md": "new", "plan.json": '{"schema": 1, "steps": []}'})
"""


@pytest.mark.parametrize("mode", ["exchange", "no-exchange"])
def test_a_kill_while_swapping_leaves_a_plan_and_the_next_run_cleans_up(tmp_path: Path, mode: str) -> None:
    write_tree(tmp_path / "plan", {"PLAN.md": "old", "plan.json": '{"schema": 1, "steps": []}'})
    subprocess.run([sys.executable, "-c", _KILL_AT_SWAP, str(tmp_path / "plan"), mode], check=False)
    if mode == "exchange":
        assert (tmp_path / "plan" / "PLAN.md").read_text() in ("old", "new"), "the path holds a whole plan"
    write_tree(tmp_path / "plan", {"PLAN.md": "next"})
    assert (tmp_path / "plan" / "PLAN.md").read_text() == "next"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan"], "no staging or old folder left behind"


def test_a_plan_moved_aside_by_a_killed_run_is_put_back(tmp_path: Path) -> None:
    old = tmp_path / ".plan.old.x1y2z3" / "plan"  # what a run killed between its two renames used to leave
    old.mkdir(parents=True)
    (old / "PLAN.md").write_text("old")
    (old / "plan.json").write_text('{"schema": 1, "steps": []}')
    (tmp_path / ".plan.stage-abc").mkdir()
    with pytest.raises(EnvplanError):
        write_tree(tmp_path / "plan", {"PLAN.md": "new", "x" * 300: "too long"})
    assert (tmp_path / "plan" / "PLAN.md").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan"]


def test_two_upgrades_on_one_out_dir_both_succeed(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    argv = [sys.executable, "-m", "envplan", "upgrade", "--to", "2.1", "--no-lock", "--out", "p"]
    for _ in range(3):
        procs = [subprocess.Popen(argv, cwd=cwd, stderr=subprocess.PIPE, text=True) for _ in range(3)]
        results = [(p.wait(), p.stderr.read() if p.stderr else "") for p in procs]
        assert all(code == 0 for code, _ in results), results
        assert (cwd / "p" / "PLAN.md").is_file()
    assert sorted(p.name for p in cwd.iterdir()) == ["envplan.toml", "p"]


# --- files and folders with the user's umask -----------------------------------------------------------


@pytest.mark.parametrize(("umask", "folder", "file"), [(0o022, 0o755, 0o644), (0o077, 0o700, 0o600)])
def test_plan_folders_and_files_follow_the_umask(tmp_path: Path, umask: int, folder: int, file: int) -> None:
    code = f"import os, sys; os.umask({umask}); from envplan.cli import main; sys.exit(main(sys.argv[1:]))"
    seed_dir(tmp_path)
    result = subprocess.run(
        [sys.executable, "-c", code, "upgrade", "--to", "2.1", "--no-lock", "--out", "p"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    plan = tmp_path / "p"
    assert stat.S_IMODE(plan.stat().st_mode) == folder
    assert stat.S_IMODE((plan / "01-torch").stat().st_mode) == folder
    assert stat.S_IMODE((plan / "PLAN.md").stat().st_mode) == file
    assert stat.S_IMODE((plan / "00-baseline" / "build.sh").stat().st_mode) == folder, "scripts: rwx where rw"


def test_write_file_keeps_the_mode_and_edits_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "profiles" / "real.toml"
    real.parent.mkdir()
    real.write_text("old")
    real.chmod(0o644)
    link = tmp_path / "envplan.toml"
    link.symlink_to(real)
    write_file(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o644


def test_write_profile_through_a_symlink_keeps_the_link_and_the_mode(tmp_path: Path) -> None:
    real = tmp_path / "profiles" / "a100.toml"
    real.parent.mkdir()
    real.write_text((ROOT / "profiles" / "a100-train.toml").read_text())
    real.chmod(0o664)
    (tmp_path / "envplan.toml").symlink_to(real)
    result = run("upgrade", "--to", "2.1", "--no-lock", "--write-profile", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "envplan.toml").is_symlink()
    assert 'torch = "2.1.2"' in real.read_text() and stat.S_IMODE(real.stat().st_mode) == 0o664


@pytest.mark.parametrize(
    "target",
    [
        "missing-dir/out.html",  # FileNotFoundError
        "afile/out.html",  # NotADirectoryError
        "/proc/envplan-test.html",  # the kernel refuses (PermissionError/ENOENT, even for root)
    ],
)
def test_write_errors_are_exit_1_with_the_path(tmp_path: Path, target: str) -> None:
    (tmp_path / "afile").write_text("x")
    result = run("matrix", str(ROOT / "profiles" / "cpu-laptop.toml"), "--report", target, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith(f"envplan: error: {target}: cannot write") and "Traceback" not in result.stderr


def test_a_nul_in_an_output_path_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(EnvplanError) as info:
        write_file(tmp_path / "a\0b", "x")
    assert info.value.exit_code == 2


def _fake_torch_python(tmp_path: Path) -> Path:
    probe = {"python": "3.11.9", "executable": "/x/python", "machine": "x86_64", "dists": {"torch": "2.5.1"}}
    probe["torch"] = {"version": "2.5.1+cpu", "cuda": None, "cxx11_abi": False, "cuda_available": False}
    probe["torch"] |= {"arch_list": [], "cudnn": None, "devices": []}
    script = tmp_path / "python"
    script.write_text(f"#!/bin/sh\ncat <<'EOF'\n{json.dumps(probe)}\nEOF\n")
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("output", ["afile/envplan.toml", "missing/envplan.toml"])  # -o DIR writes DIR/envplan.toml
def test_init_write_errors_are_not_internal_errors(tmp_path: Path, output: str) -> None:
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir").mkdir()
    python = _fake_torch_python(tmp_path)
    result = run("init", "--python", str(python), "-o", output, "--force", cwd=tmp_path)
    assert result.returncode in (1, 2), result.stderr
    assert "internal error" not in result.stderr and output in result.stderr


def test_export_write_errors_are_not_internal_errors(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    assert upgrade(cwd, "--out", "p").returncode == 0
    (cwd / "afile").write_text("x")
    pretend_locked(cwd / "p")  # past the lock check, to the write
    (cwd / "p" / "01-torch" / "pylock.toml").write_text('lock-version = "1.0"\ncreated-by = "x"\npackages = []\n')
    cases = [
        ("export", "docker", "p", "--step", "01-torch", "-o", "afile/Dockerfile"),
        ("export", "ci", "p", "--github", "-o", "afile/wf.yml"),
        ("export", "ci", "p", "--github", "-o", "/proc/wf.yml"),
        ("export", "wheelhouse", "p", "--step", "01-torch", "-o", "afile"),
    ]
    for argv in cases:
        result = run(*argv, cwd=cwd)
        assert result.returncode in (1, 2), (argv, result.stderr)
        assert "internal error" not in result.stderr, (argv, result.stderr)
        assert "not locked" not in result.stderr and argv[-1] in result.stderr, (argv, result.stderr)


def test_wheelhouse_and_docker_stay_inside_their_folders(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    assert upgrade(cwd, "--out", "p").returncode == 0
    original = (cwd / "p" / "plan.json").read_text()
    doc = json.loads(original)
    doc["steps"][1]["name"] = "../../escaped"
    (cwd / "p" / "plan.json").write_text(json.dumps(doc))
    result = run("export", "docker", "p", cwd=cwd)
    assert result.returncode == 2 and "escaped" in result.stderr
    assert not (tmp_path.parent / "escaped").exists()
    (cwd / "p" / "plan.json").write_text(original.replace('"locked": false', '"locked": true'))
    (cwd / "p" / "00-baseline" / "requirements.txt").write_text("")
    pylock = cwd / "p" / "00-baseline" / "pylock.toml"
    pylock.write_text(
        textwrap.dedent("""\
        lock-version = "1.0"
        created-by = "x"
        [[packages]]
        name = "evil"
        version = "1"
        [[packages.wheels]]
        name = "../../evil.whl"
        url = "file:///dev/null"
        hashes = {sha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}
        """)
    )
    result = run("export", "wheelhouse", "p", "--step", "00-baseline", "-o", "wh", cwd=cwd)
    assert result.returncode == 2 and "evil" in result.stderr
    assert not (tmp_path / "evil.whl").exists() and not (cwd.parent / "evil.whl").exists()


def test_verify_never_touches_files_outside_the_plan(tmp_path: Path) -> None:
    cwd = seed_dir(tmp_path)
    assert upgrade(cwd, "--out", "p").returncode == 0
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir(exist_ok=True)
    (outside / "verify.json").write_text("keep")
    doc = json.loads((cwd / "p" / "plan.json").read_text())
    doc["steps"][0]["name"] = f"../../{outside.name}"
    (cwd / "p" / "plan.json").write_text(json.dumps(doc))
    result = run("verify", "p", cwd=cwd)
    assert result.returncode == 2, result.stderr
    assert (outside / "verify.json").read_text() == "keep"
