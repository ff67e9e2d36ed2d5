"""Profile strings never become commands: index URLs are validated, and whatever reaches a shell line, a YAML
file, a Dockerfile or a comment is quoted for it (the renderers are tested with values the loader would refuse,
as a hand-edited plan.json can hold them)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from envplan.core.plan import LockState
from envplan.core.planner import plan_upgrade, resolve_target
from envplan.profile.model import parse_profile
from envplan.render.envfiles import render_environment_yml
from envplan.render.planmd import render_plan_md
from envplan.write import write_tree
from helpers import SEED, edit, locked_plan_files, run

EVIL_URL = "https://pypi.org/simple/;touch${IFS}PWNED;"
EVIL_NAME = "x\ndefaults:\n  run:\n    shell: touch PWNED; bash {0}\nRUN touch /PWNED"


def plan_dir(kb, tmp_path: Path) -> Path:
    profile = parse_profile(SEED, "p.toml")
    plan = plan_upgrade(profile, resolve_target("2.1", kb), kb)
    write_tree(tmp_path / "p", locked_plan_files(plan, kb, SEED))
    return tmp_path / "p"


def poison(folder: Path) -> None:
    """Edit plan.json the way an attacker with write access to it (or an old envplan) could."""
    doc = json.loads((folder / "plan.json").read_text())
    doc["profile"] = EVIL_NAME
    for step in doc["steps"]:
        step["indexes"] = {"pypi": EVIL_URL, "pytorch": EVIL_URL + "x"}
    (folder / "plan.json").write_text(json.dumps(doc))


@pytest.mark.parametrize(
    "url",
    [
        EVIL_URL,
        "https://x/simple`id`",
        "https://x/$(id)",
        "https://x/s'q",
        'https://x/"',
        "https://x/a b",
        "https://x/?q",
    ],
)
def test_index_urls_that_are_not_plain_urls_are_refused(write_profile, url: str) -> None:
    path = write_profile(SEED + f"\n[indexes]\npypi = {json.dumps(url)}\n")
    result = run("check", str(path))
    assert result.returncode == 2 and "indexes.pypi:" in result.stderr, result.stderr


def test_dockerfile_runs_pip_in_exec_form_and_comments_stay_comments(kb, tmp_path: Path) -> None:
    folder = plan_dir(kb, tmp_path)
    poison(folder)
    assert run("export", "docker", str(folder), cwd=tmp_path).returncode == 0
    text = (folder / "03-extensions" / "Dockerfile").read_text()
    instructions = {"ARG", "FROM", "ENV", "WORKDIR", "COPY", "RUN"}
    for line in text.splitlines():
        assert line.startswith("#") or line.startswith("    ") or line.split()[0] in instructions, line
    runs = [json.loads(line[4:]) for line in text.splitlines() if line.startswith('RUN ["python", "-m", "pip"')]
    assert len(runs) == 2 and all(EVIL_URL in argv for argv in runs), "the URL is one argument, never shell text"
    assert "touch /PWNED" not in "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    hadolint = shutil.which("hadolint")
    if hadolint:
        lint = subprocess.run([hadolint, "--failure-threshold", "error", "-"], input=text, text=True, check=False)
        assert lint.returncode == 0


def test_github_workflow_keeps_names_inside_strings(kb, tmp_path: Path) -> None:
    folder = plan_dir(kb, tmp_path)
    poison(folder)
    second = tmp_path / "q"
    shutil.copytree(folder, second)
    assert run("export", "ci", "p", "q", "--github", "-o", "wf.yml", cwd=tmp_path).returncode == 0
    doc = yaml.safe_load((tmp_path / "wf.yml").read_text())
    assert set(doc) == {"name", True, "jobs"}, "only name, on and jobs at the top (PyYAML reads `on` as True)"
    assert all("defaults" not in job for job in doc["jobs"].values())
    assert all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", job_id) for job_id in doc["jobs"]), "GitHub's job id rule"
    first = next(iter(doc["jobs"].values()))
    assert first["name"].startswith(EVIL_NAME), "the name is data, kept exactly"
    checker = shutil.which("check-jsonschema")
    if checker:
        check = [checker, "--builtin-schema", "vendor.github-workflows", str(tmp_path / "wf.yml")]
        assert subprocess.run(check, capture_output=True, check=False).returncode == 0


def test_plan_md_commands_pass_urls_as_one_word(kb, tmp_path: Path) -> None:
    profile = parse_profile(SEED, "p.toml")
    plan = plan_upgrade(profile, resolve_target("2.1", kb), kb)
    steps = tuple(replace(s, pypi_index=EVIL_URL, pytorch_index=EVIL_URL + "x") for s in plan.steps)
    md = render_plan_md(replace(plan, steps=steps), LockState(locked=True))
    lines = [line for line in md.splitlines() if line.startswith(("pip install", "PYTHON=python bash", "export "))]
    assert lines
    script = "pip() { printf '%s\\n' \"$@\" >> args.txt; }\nbash() { :; }\n" + "\n".join(lines) + "\n"
    subprocess.run(["bash", "-c", script], cwd=tmp_path, check=True)
    assert not (tmp_path / "PWNED").exists()
    args = (tmp_path / "args.txt").read_text().splitlines()
    assert EVIL_URL in args and EVIL_URL + "x" in args


def test_environment_yml_keeps_requirements_as_strings(kb) -> None:
    text = edit(SEED, 'packages = ["numpy<2"]', 'packages = ["numpy<2", "einops; python_version >= \\"3.8\\""]')
    profile = parse_profile(text, "p.toml")
    plan = plan_upgrade(profile, resolve_target("2.1", kb), kb)
    step = replace(plan.steps[1], requirements=(*plan.steps[1].requirements, "x\n- evil # not a comment"))
    doc = yaml.safe_load(render_environment_yml(step, kb))
    pip = next(d["pip"] for d in doc["dependencies"] if isinstance(d, dict))
    assert pip == list(step.requirements)


@pytest.mark.parametrize(
    "text",
    [
        "numpy<2",
        "torch==2.1.2+cu118",
        "--extra-index-url https://download.pytorch.org/whl/cu118",
        "true",
        "No",
        "off",
        "null",
        "~",
        "1.0",
        "0x1F",
        "1e3",
        ".inf",
        "-1",
        "12:30",
        "a: b",
        "a:",
        "x #y",
        "#x",
        "- x",
        "-",
        "? x",
        "[x]",
        "{x}",
        "*x",
        "&x",
        "!x",
        "%x",
        "@x",
        "`x",
        "|x",
        ">x",
        "'x'",
        '"x"',
        "a\nb",
        " lead",
        "trail ",
        "",
    ],
)
def test_a_yaml_scalar_reads_back_as_the_same_string(text: str) -> None:
    # plain when no YAML reader could take it for anything else (readable files), quoted otherwise
    from envplan.quoting import yaml_scalar

    scalar = yaml_scalar(text)
    assert yaml.safe_load(f"- {scalar}\n") == [text], scalar
    if text in ("numpy<2", "torch==2.1.2+cu118"):
        assert scalar == text
