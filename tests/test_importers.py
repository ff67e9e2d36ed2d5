"""`envplan init --from`: real projects' files (tests/data/projects, each with its source) become profiles;
what the files leave open is a one-line error that says what to set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envplan import tomlread
from envplan.core.check import check_profile
from envplan.errors import EnvplanError
from envplan.importers import ImportOptions, detect_format, draft_from_files
from envplan.live.init import MachineDraft, ProfileDraft, render_profile
from envplan.profile.model import parse_profile
from helpers import ROOT, run

PROJECTS = ROOT / "tests" / "data" / "projects"
NO_MACHINE = MachineDraft(probed=False)


def draft(kb, *names: str, **opts: str) -> ProfileDraft:
    return draft_from_files([PROJECTS / n for n in names], kb, ImportOptions(**opts), NO_MACHINE)


def failure(kb, *names: str, **opts: str) -> EnvplanError:
    with pytest.raises(EnvplanError) as info:
        draft(kb, *names, **opts)
    assert info.value.exit_code == 2
    return info.value


def test_every_real_file_has_its_source() -> None:
    rows = tomlread.loads((PROJECTS / "SOURCES.toml").read_text())["file"]
    listed = {r["path"] for r in rows}
    on_disk = {str(p.relative_to(PROJECTS)) for p in PROJECTS.rglob("*") if p.is_file() and p.name != "SOURCES.toml"}
    assert listed == on_disk
    assert len(on_disk) >= 10
    for row in rows:
        assert row["url"].startswith("https://github.com/") and "/blob/" in row["url"], row["path"]


CASES = {
    # files, options -> torch, variant, python, torchvision, torchaudio, extensions
    "open-sora cu121 (per-line --index-url)": (
        ["open-sora/requirements-cu121.txt"],
        {},
        ("2.3.0", "cu121", "3.11", "0.18.0", "", {"xformers": "0.0.26.post1"}),
    ),
    "dinov2 requirements (unlabelled torch, cu117 extra index)": (
        ["dinov2/requirements.txt"],
        {},
        ("2.0.0", "cu117", "3.11", "0.15.0", "", {"xformers": "0.0.18"}),
    ),
    "dinov2 conda.yaml (pytorch-cuda=11.7.0)": (
        ["dinov2/conda.yaml"],
        {},
        ("2.0.0", "cu117", "3.9", "0.15.0", "", {"xformers": "0.0.18"}),
    ),
    "kohya (several requirements a line, -r include)": (
        ["kohya-ss/requirements_linux.txt"],
        {},
        ("2.0.1", "cu118", "3.11", "0.15.2", "", {"xformers": "0.0.20"}),
    ),
    "stable-diffusion (pytorch channel, cudatoolkit=11.3)": (
        ["stable-diffusion/environment.yaml"],
        {},
        ("1.11.0", "cu113", "3.9", "0.12.0", "", {}),
    ),
    "gaussian-splatting (cudatoolkit=11.6, python=3.7.13)": (
        ["gaussian-splatting/environment.yml"],
        {},
        ("1.12.1", "cu116", "3.7", "0.13.1", "0.12.1", {}),
    ),
    "drdmannturb conda-lock (conda-forge cuda118 build)": (
        ["drdmannturb/conda-lock.yml"],
        {},
        ("2.4.0", "cu118", "3.9", "", "", {}),
    ),
    "drdmannturb environment.yml + its lock": (
        ["drdmannturb/environment.yml", "drdmannturb/conda-lock.yml"],
        {},
        ("2.4.0", "cu118", "3.9", "", "", {}),
    ),
    "boxmot pyproject + uv.lock, --torch chooses": (
        ["boxmot/pyproject.toml", "boxmot/uv.lock"],
        {"torch": "2.11.0"},
        ("2.11.0", "cu130", "3.10", "auto", "", {}),
    ),
    "llava (unpinned torch) with --torch and --variant": (
        ["llava/pyproject.toml"],
        {"torch": "2.1.2", "variant": "cu121"},
        ("2.1.2", "cu121", "3.8", "auto", "", {}),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_real_project_becomes_a_profile(kb, case: str) -> None:
    files, opts, (torch, variant, python, vision, audio, exts) = CASES[case]
    d = draft(kb, *files, **opts)
    assert (d.torch, d.variant, d.python, d.torchvision, d.torchaudio) == (torch, variant, python, vision, audio)
    assert dict(d.extensions) == exts
    profile = parse_profile(render_profile(d), "imported.toml")
    assert str(profile.stack.torch) == torch and profile.stack.variant == variant


def test_what_each_file_says_goes_into_the_comments(kb) -> None:
    d = draft(kb, "open-sora/requirements-cu121.txt")
    text = render_profile(d)
    assert "the index https://download.pytorch.org/whl/cu121" in text and "requirements-cu121.txt:1" in text
    assert "# glibc =" in text and "--probe" in text  # the machine is left as placeholders


def test_packages_keep_the_projects_requirements(kb) -> None:
    d = draft(kb, "dinov2/requirements.txt")
    assert {"omegaconf", "torchmetrics==0.10.3", "cuml-cu11", "aiohttp"} <= set(d.packages)
    assert not {p for p in d.packages if p.startswith(("torch==", "torchvision", "xformers"))}
    assert any("https://pypi.nvidia.com" in n for n in d.notes)  # an index the profile cannot keep is said


def test_a_repeated_package_keeps_the_first_and_says_so(kb) -> None:
    d = draft(kb, "kohya-ss/requirements_linux.txt")
    assert "tensorboard==2.12.3" in d.packages and "tensorboard==2.10.1" not in d.packages
    assert any("tensorboard is required twice" in n for n in d.notes)


def test_git_requirements_keep_their_url_and_local_paths_are_noted(kb) -> None:
    d = draft(kb, "stable-diffusion/environment.yaml")
    assert "clip @ git+https://github.com/openai/CLIP.git@main#egg=clip" in d.packages
    assert "numpy==1.19.2" in d.packages and not any(p.startswith(("pip", "cudatoolkit")) for p in d.packages)
    g = draft(kb, "gaussian-splatting/environment.yml")
    assert any("submodules/simple-knn" in n and "left out" in n for n in g.notes)


def test_the_2_0_0_companion_trap_is_kept_for_check_to_report(kb) -> None:
    """dinov2 pins torchvision 0.15.0 with torch 2.0.0 (the conda pairing; pip's is 0.15.1): init keeps what the
    project has, and `check` names the mismatch."""
    profile = parse_profile(render_profile(draft(kb, "dinov2/requirements.txt")), "dinov2.toml")
    assert "companion-mismatch" in [f.ref for f in check_profile(profile, kb)]


def test_a_conda_forge_cuda_build_without_a_wheel_twin_becomes_auto(kb, tmp_path: Path) -> None:
    lock = (PROJECTS / "drdmannturb" / "conda-lock.yml").read_text()
    path = tmp_path / "conda-lock.yml"
    path.write_text(lock.replace("cuda118_py39hbf661d7_301", "cuda120_py39hbf661d7_301"))
    d = draft_from_files([path], kb, ImportOptions(), NO_MACHINE)
    assert d.variant == "auto" and "no cu120 wheels" in d.comments["stack.variant"]


ERRORS = {
    "no torch at all": (["text-generation-webui/requirements.txt"], {}, "no-torch", "--torch"),
    "unpinned torch": (["llava/pyproject.toml"], {}, "torch-not-pinned", "--torch"),
    "conda's pytorch=2.0 is 2.0.*": (["sd-webui/environment-wsl2.yaml"], {}, "torch-not-pinned", "pytorch=2.0"),
    "the env without its lock": (["drdmannturb/environment.yml"], {}, "torch-not-pinned", "lock file"),
    "two torch versions in uv.lock": (["boxmot/uv.lock"], {}, "two-torch-pins", "--torch 2.11.0"),
    "two files, two torch pins": (
        ["open-sora/requirements-cu121.txt", "open-sora/requirements-cu124.txt"],
        {},
        "two-torch-pins",
        "--torch",
    ),
    "conda and pip torch": (["dinov2/requirements.txt", "dinov2/conda.yaml"], {}, "conda-and-pip-torch", "remove one"),
    "a bad --torch": (["llava/pyproject.toml"], {"torch": "2.1"}, "bad-argument", "X.Y.Z"),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_what_the_files_leave_open_is_an_error_saying_what_to_set(kb, case: str) -> None:
    files, opts, ref, hint = ERRORS[case]
    exc = failure(kb, *files, **opts)
    assert exc.ref == ref
    assert hint in exc.hint or hint in exc.message
    assert len(exc.lines()) == 1


def test_no_build_anywhere_names_pypis_default(kb, tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("torch==2.1.2\nnumpy<2\n")
    with pytest.raises(EnvplanError) as info:
        draft_from_files([tmp_path / "requirements.txt"], kb, ImportOptions(), NO_MACHINE)
    assert info.value.ref == "no-variant" and "--variant" in info.value.hint and "cu121" in info.value.hint
    d = draft_from_files([tmp_path / "requirements.txt"], kb, ImportOptions(variant="cpu"), NO_MACHINE)
    assert d.variant == "cpu" and d.packages == ("numpy<2",)


def test_mixed_builds_in_one_file_are_refused(kb, tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("torch==2.1.2+cu118\ntorchvision==0.16.2+cu121\n")
    with pytest.raises(EnvplanError) as info:
        draft_from_files([tmp_path / "requirements.txt"], kb, ImportOptions(), NO_MACHINE)
    assert info.value.ref == "mixed-variant" and "requirements.txt:2" in info.value.where


def test_two_builds_are_refused_unless_variant_chooses(kb, tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text(
        "--extra-index-url https://download.pytorch.org/whl/cu118\ntorch==2.1.2+cu121\n"
    )
    with pytest.raises(EnvplanError) as info:
        draft_from_files([tmp_path / "requirements.txt"], kb, ImportOptions(), NO_MACHINE)
    assert info.value.ref == "two-torch-builds" and "--variant" in info.value.hint
    d = draft_from_files([tmp_path / "requirements.txt"], kb, ImportOptions(variant="cu121"), NO_MACHINE)
    assert d.variant == "cu121" and "cu118" in d.comments["stack.variant"]


def test_a_mirror_of_the_pytorch_index_is_kept(kb, tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text(
        "-i https://mirror.example/pypi/simple\n--extra-index-url https://mirror.example/pytorch/whl/cu121\n"
        "torch==2.1.2\n"
    )
    d = draft_from_files([tmp_path / "requirements.txt"], kb, ImportOptions(), NO_MACHINE)
    assert d.variant == "cu121"
    assert dict(d.indexes) == {
        "pytorch": "https://mirror.example/pytorch/whl",
        "pypi": "https://mirror.example/pypi/simple",
    }


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("requirements-dev.txt", "requirements.txt"),
        ("pyproject.toml", "pyproject.toml"),
        ("uv.lock", "uv.lock"),
        ("pylock.toml", "pylock.toml"),
        ("pylock.cuda.toml", "pylock.toml"),
        ("environment.yml", "environment.yml"),
        ("conda.yaml", "environment.yml"),
        ("conda-lock.yml", "conda-lock.yml"),
    ],
)
def test_formats_are_known_by_name(name: str, fmt: str) -> None:
    assert detect_format(Path(name)) == fmt


def test_a_renamed_conda_lock_is_known_by_its_content(tmp_path: Path) -> None:
    path = tmp_path / "linux.yml"
    path.write_text((PROJECTS / "drdmannturb" / "conda-lock.yml").read_text())
    assert detect_format(path) == "conda-lock.yml"


@pytest.mark.parametrize(
    ("name", "text", "ref"),
    [
        ("setup.cfg", "[metadata]\n", "unknown-format"),
        ("environment.yml", "dependencies: [pytorch=2.1.2\n", "bad-yaml"),
        ("environment.yml", "name: x\n", "bad-environment"),
        ("pyproject.toml", "[project\n", "toml-syntax"),
        ("uv.lock", "[[package]]\nname = 'x'\n", "bad-uv-lock"),
        ("pylock.toml", "packages = []\n", "bad-pylock"),
        ("conda-lock.yml", "version: 2\npackage: []\n", "bad-conda-lock"),
    ],
)
def test_bad_input_is_one_line_naming_the_file(tmp_path: Path, name: str, text: str, ref: str) -> None:
    (tmp_path / name).write_text(text)
    result = run("init", "--from", str(tmp_path / name), "-o", str(tmp_path / "out.toml"), "--json", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(tmp_path / name) in lines[0]
    assert not (tmp_path / "out.toml").exists()
    assert json.loads(result.stdout)["error"]["ref"] == ref


def test_cli_writes_the_profile_and_json_says_what_it_read(tmp_path: Path) -> None:
    out = tmp_path / "envplan.toml"
    src = PROJECTS / "open-sora" / "requirements-cu121.txt"
    result = run("init", "--from", str(src), "-o", str(out), "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["schema"] == 1 and doc["stack"] == {"torch": "2.3.0", "variant": "cu121", "python": "3.11"}
    assert doc["extensions"] == [{"name": "xformers", "version": "0.0.26.post1"}]
    check = run("check", str(out), cwd=tmp_path)
    assert "unknown key" not in check.stdout + check.stderr
    again = run("init", "--from", str(src), "-o", str(out), cwd=tmp_path)
    assert again.returncode == 2 and "--force" in again.stderr


def test_cli_missing_file_and_unknown_ref_in_json(tmp_path: Path) -> None:
    result = run("init", "--from", "nope.txt", "--json", cwd=tmp_path)
    assert result.returncode == 2 and "nope.txt: no such file" in result.stderr
    assert json.loads(result.stdout)["error"]["ref"] == "not-found"
