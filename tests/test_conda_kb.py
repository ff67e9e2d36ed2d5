"""Learned conda builds: build strings read for their CUDA, the overlay keeps them beside learned releases, and a
step picks the build that serves its variant (exact CUDA first, then the same major), companions with it."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from envplan.core.planner import stack_step
from envplan.kb.condabuild import conda_cuda, cuda_variant
from envplan.kb.model import CondaBuild
from envplan.kb.overlay import conda_builds_from_overlay, merge_conda, read_overlay, write_overlay
from envplan.profile.model import parse_profile
from envplan.render.envfiles import conda_env, render_environment_yml
from helpers import SEED, edit


@pytest.mark.parametrize(
    ("build", "cuda"),
    [
        ("py3.10_cuda11.8_cudnn8.7.0_0", "11.8"),  # pytorch channel
        ("py310_cu118", "11.8"),  # pytorch channel torchvision
        ("cuda118_py39hbf661d7_301", "11.8"),  # conda-forge (tests/data/projects/drdmannturb/conda-lock.yml)
        ("cuda126_mkl_py312h1763f6d_303", "12.6"),
        ("cuda112py39h4de5995_1", "11.2"),  # older conda-forge builds: no underscore before py
        ("py3.10_cpu_0", "cpu"),
        ("cpu_mkl_py39hd2dbf71_101", "cpu"),
        ("cpu_generic_py39he0e5f83_1", "cpu"),
        ("h7e8668a_0", ""),
    ],
)
def test_a_build_string_says_its_cuda(build: str, cuda: str) -> None:
    assert conda_cuda(build) == cuda
    if cuda:
        assert cuda_variant(cuda) in ("cpu", f"cu{cuda.replace('.', '')}")


def row(channel: str, subdir: str, build: str) -> dict[str, object]:
    return {"channel": channel, "subdir": subdir, "name": "pytorch", "version": "2.1.2", "build": build}


def test_learning_a_channel_again_replaces_only_that_channel() -> None:
    old = [row("A", "linux-64", "x"), row("A", "osx-arm64", "y"), row("B", "linux-64", "z")]
    merged = merge_conda(old, [row("A", "linux-64", "new")])
    assert [r["build"] for r in merged] == ["y", "z", "new"]


def test_writing_learned_releases_keeps_the_conda_builds(tmp_path: Path) -> None:
    path = tmp_path / "overlay.toml"
    write_overlay([], path, conda=[{**row("A", "linux-64", "cuda118_py310h_300"), "learned-on": "2026-01-02"}])
    write_overlay([{"torch": "9.0.0", "torchvision": "0.99.0"}], path)
    assert [r["build"] for r in read_overlay(path, table="conda")] == ["cuda118_py310h_300"]
    assert [r["torch"] for r in read_overlay(path)] == ["9.0.0"]
    (build,) = conda_builds_from_overlay(read_overlay(path, table="conda"))
    assert build.source == "learned by envplan kb update from A on 2026-01-02"


CF = "https://conda.anaconda.org/conda-forge"


def builds(*rows: tuple[str, str, str, str, tuple[str, ...]]) -> tuple[CondaBuild, ...]:
    return tuple(
        CondaBuild(
            channel=CF, subdir="linux-64", name=n, version=v, build=b, python="3.10", cuda=c, torch=t, source="x on d"
        )
        for n, v, b, c, t in rows
    )


LEARNED = builds(
    ("pytorch", "2.1.2", "cuda118_py310h7fdc7dd_300", "11.8", ()),
    ("pytorch", "2.1.2", "cuda120_py310h327d3bc_300", "12.0", ()),
    ("pytorch", "2.1.2", "cpu_mkl_py310h3ea73d3_100", "cpu", ()),
    ("torchvision", "0.16.2", "cuda118_py310h0e8a1e5_1", "11.8", ("2.1.2",)),
    ("torchvision", "0.16.2", "cpu_py310h5c0a9e5_1", "cpu", ("2.1.2",)),
)


def step_for(kb, variant: str):
    text = edit(edit(SEED, 'torch = "2.0.1"', 'torch = "2.1.2"'), 'variant = "cu118"', f'variant = "{variant}"')
    text = edit(edit(text, 'torchvision = "0.15.2"', 'torchvision = "0.16.2"'), 'torchaudio = "2.0.2"', "")
    return stack_step(parse_profile(text, "p.toml"), kb)


def test_the_exact_cuda_build_and_its_companion(kb) -> None:
    env = conda_env(step_for(kb, "cu118"), replace(kb, conda_builds=LEARNED))
    assert env.channels == ("conda-forge",)
    assert "pytorch=2.1.2=cuda118_py310h7fdc7dd_300" in env.specs
    assert "torchvision=0.16.2=cuda118_py310h0e8a1e5_1" in env.specs and "cuda-version=11.8" in env.specs
    assert "numpy<2" in env.pip and not any(p.startswith("torch") for p in env.pip)  # the family is all conda


def test_the_same_major_when_the_minor_is_missing_and_pip_for_what_the_channel_lacks(kb) -> None:
    env = conda_env(step_for(kb, "cu121"), replace(kb, conda_builds=LEARNED))
    assert "pytorch=2.1.2=cuda120_py310h327d3bc_300" in env.specs and "cuda-version=12.1" in env.specs
    assert "torchvision==0.16.2" in env.pip  # the channel has no CUDA 12 torchvision here: pip installs it
    assert "CUDA 12.0, not 12.1" in env.note and "pip installs torchvision" in env.note


def test_nothing_learned_for_that_release_keeps_the_old_advice(kb) -> None:
    step = step_for(kb, "cu118")
    other = tuple(replace(b, version="2.2.0") for b in LEARNED)
    text = render_environment_yml(step, replace(kb, conda_builds=other))
    assert "=cuda118" not in text and "pytorch-cuda=11.8" in text  # the pytorch channel's way, as before


def test_learned_builds_survive_the_round_trip_through_the_overlay(tmp_path: Path) -> None:
    path = tmp_path / "overlay.toml"
    rows = [{**row(CF, "linux-64", "cuda118_py310h7fdc7dd_300"), "python": "3.10", "cuda": "11.8"}]
    write_overlay([], path, conda=[{**r, "learned-on": date(2026, 1, 2).isoformat()} for r in rows])
    (b,) = conda_builds_from_overlay(read_overlay(path, table="conda"))
    assert (b.name, b.build, b.python, b.cuda, b.torch) == ("pytorch", "cuda118_py310h7fdc7dd_300", "3.10", "11.8", ())


def test_an_extension_the_channel_builds_is_pinned_not_compiled(kb) -> None:
    step = step_for(kb, "cu118")
    (ext,) = step.extensions
    learned = (*LEARNED, *builds(("causal-conv1d", str(ext.version), "cuda118_py310h1a2b3c4_0", "11.8", ("2.1.2",))))
    env = conda_env(step, replace(kb, conda_builds=learned))
    assert f"causal-conv1d={ext.version}=cuda118_py310h1a2b3c4_0" in env.specs
    assert env.conda_extensions == ("causal-conv1d",)
    other = conda_env(step, replace(kb, conda_builds=LEARNED))
    assert other.conda_extensions == () and not any(s.startswith("causal-conv1d") for s in other.specs)


def test_without_learned_builds_a_conda_forge_file_says_how_to_get_them(kb) -> None:
    text = edit(edit(SEED, 'torch = "2.0.1"', 'torch = "2.13.0"'), 'variant = "cu118"', 'variant = "cpu"')
    text = edit(edit(text, 'torchvision = "0.15.2"', 'torchvision = "auto"'), 'torchaudio = "2.0.2"', "")
    step = stack_step(parse_profile(text, "p.toml"), kb)
    yml = render_environment_yml(step, replace(kb, conda_builds=()))
    assert "  - conda-forge" in yml and "pytorch=2.13.0" in yml
    assert "kb update --conda-channel https://conda.anaconda.org/conda-forge" in yml
