"""Every bundled profile locks with the real uv: against indexes built for it on disk, whose torch wheels carry
the platform tags the real ones do (the release's manylinux floor, macOS arm64, Windows amd64), so a
--python-platform uv refuses (x86_64-manylinux_2_27 for the T4's Ubuntu 18.04) or one that excludes the wheels
fails here."""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.requirements import Requirement

from envplan import tomlread
from envplan.core.planner import stack_step
from envplan.kb import load_kb
from envplan.profile.model import load_profile
from envplan.resolve.request import platform_tag
from fakeindex import FakeDist, write_index
from helpers import ROOT, run

PROFILES = sorted((ROOT / "profiles").glob("*.toml"))
CANDIDATES = ["0.7.0", "1.24.0", "1.26.4", "4.40.0", "10.2.0"]


def _wheel_tag(profile_path: Path) -> str:
    profile, kb = load_profile(profile_path), load_kb()
    step = stack_step(profile, kb)
    py = f"cp{step.python.replace('.', '')}"
    if profile.machine.os == "macos":
        return f"{py}-none-macosx_11_0_arm64"
    if profile.machine.os == "windows":
        return f"{py}-{py}-win_amd64"
    floor = step.release.glibc_for(step.variant)
    return f"{py}-{py}-manylinux_{floor.major}_{floor.minor}_{profile.machine.arch}"


def _indexes_for(profile_path: Path, root: Path) -> tuple[str, str]:
    """A PyTorch index and a PyPI holding exactly what the profile's stack needs."""
    step = stack_step(load_profile(profile_path), load_kb())
    tag = _wheel_tag(profile_path)
    family = {"pytorch": [], "pypi": []}
    for pin in step.pins:
        family[pin.index].append(FakeDist(pin.name, pin.requirement.split("==")[1], tag=tag))
    others = []
    for text in step.requirements:
        req = Requirement(text)
        version = next(v for v in CANDIDATES if req.specifier.contains(v))
        others.append(FakeDist(req.name, version))
    variant = step.pytorch_index.rstrip("/").rsplit("/", 1)[-1] if step.pytorch_index else "none"
    for simple, dists in ((root / "pytorch" / variant, family["pytorch"]), (root / "pypi", family["pypi"] + others)):
        simple.mkdir(parents=True)
        if dists:
            write_index(simple, root / "files" / simple.name, dists)
    return (root / "pypi").as_uri(), (root / "pytorch").as_uri()


@pytest.mark.parametrize("path", PROFILES, ids=[p.stem for p in PROFILES])
def test_every_bundled_profile_locks(tmp_path: Path, path: Path) -> None:
    pypi, pytorch = _indexes_for(path, tmp_path / "index")
    text = path.read_text() + f'\n[indexes]\npypi = "{pypi}"\npytorch = "{pytorch}"\n'
    tomlread.loads(text)
    (tmp_path / "envplan.toml").write_text(text)
    result = run("lock", "--out", "L", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "torch==" in (tmp_path / "L" / "requirements.txt").read_text()


@pytest.mark.parametrize(
    ("glibc", "tag"),
    [
        ("2.17", "2_17"),
        ("2.27", "2_17"),  # Ubuntu 18.04: uv has no manylinux_2_27 target
        ("2.28", "2_28"),
        ("2.30", "2_28"),
        ("2.31", "2_31"),
        ("2.39", "2_39"),
        ("2.41", "2_40"),
    ],
)
def test_glibc_maps_to_a_platform_uv_accepts(glibc: str, tag: str) -> None:
    from envplan.kb.variants import DisplayVersion
    from envplan.profile.model import Machine

    machine = Machine(glibc=DisplayVersion(glibc))
    assert platform_tag(machine, DisplayVersion("2.17")) == f"x86_64-manylinux_{tag}"
