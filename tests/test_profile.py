"""The profile loader: every problem at once, each naming file and dotted key."""

from __future__ import annotations

import pytest
from packaging.version import Version

from envplan.errors import EnvplanError, ProfileError
from envplan.profile.model import DEFAULT_PYPI, load_profile, parse_profile
from helpers import SEED, edit


def problems(text: str) -> list[str]:
    with pytest.raises(ProfileError) as info:
        parse_profile(text, "p.toml")
    return info.value.lines()


def test_seed_profile_loads() -> None:
    p = parse_profile(SEED, "seed.toml")
    assert p.name == "a100-train"
    assert p.machine.gpus == ("A100",) and str(p.machine.driver) == "535.104.05"
    assert p.stack.torch == Version("2.0.1") and p.stack.variant == "cu118"
    assert p.stack.torchvision == Version("0.15.2") and p.stack.torchaudio == Version("2.0.2")
    assert [str(r) for r in p.stack.packages] == ["numpy<2"]
    assert p.extensions[0].name == "causal-conv1d" and p.extensions[0].version == Version("1.0.0")
    assert p.indexes.pypi == DEFAULT_PYPI


def test_defaults_for_a_minimal_profile() -> None:
    p = parse_profile('schema = 1\nname = "m"\n[python]\nversion = "3.11"\n[stack]\ntorch = "2.1.2"\n')
    assert (p.machine.os, p.machine.arch, p.machine.gpus, p.stack.variant) == ("linux", "x86_64", (), "auto")
    assert p.stack.torchvision is None and p.extensions == ()


def test_syntax_error_names_line_and_column() -> None:
    with pytest.raises(EnvplanError) as info:
        parse_profile('schema = 1\nname = "x\n', "bad.toml")
    (line,) = info.value.lines()
    assert line.startswith("bad.toml: not valid TOML:") and "line 2" in line and "column" in line
    assert info.value.exit_code == 2


def test_every_problem_is_reported_at_once() -> None:
    text = edit(SEED, 'os = "linux"', 'os = "solaris"')
    text = edit(text, 'version = "3.10"', 'version = "three"')
    text = edit(text, 'torch = "2.0.1"', 'torch = "2.0"')
    text = edit(text, "[stack]", '[stack]\ntorchvison = "0.15.2"')
    lines = problems(text)
    assert lines == [
        "p.toml: machine.os: 'solaris' is not one of linux, windows, macos; use one of linux, windows, macos",
        "p.toml: python.version: 'three' is not a CPython version; write it as 3.10 (or 3.13t for free-threaded)",
        "p.toml: stack.torchvison: unknown key; did you mean 'torchvision'?",
        "p.toml: stack.torch: '2.0' is not an exact release version; write it as X.Y.Z, e.g. 2.0.1",
    ]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('driver = "535.104.05"\n', "", "p.toml: machine.driver: required when NVIDIA gpus are given"),
        ('driver = "535.104.05"', 'driver = "latest"', "p.toml: machine.driver: 'latest' is not an NVIDIA driver"),
        ('driver = "535.104.05"', "driver = 535.1", "p.toml: machine.driver: 535.1 must be a quoted string"),
        ('glibc = "2.31"', 'glibc = "new"', "p.toml: machine.glibc: 'new' is not a glibc version"),
        ('gpus = ["A100"]', 'gpus = "A100"', "p.toml: machine.gpus: must be a list of strings, not a string"),
        ('gpus = ["A100"]', 'gpus = ["A100"]\ncompute-capability = ["8"]', "p.toml: machine.compute-capability[0]"),
        ('gpus = ["A100"]', 'gpus = ["A100"]\ncompute-capability = ["8.0", "9.0"]', "2 values for 1 gpus"),
        ('variant = "cu118"', 'variant = "cuda11"', "p.toml: stack.variant: 'cuda11' is not a variant name"),
        ('torch = "2.0.1"', 'torch = "2.0.1+cu117"', "p.toml: stack.torch: local label +cu117 differs"),
        ('torchvision = "0.15.2"', 'torchvision = "0.15.2+cu121"', "p.toml: stack.torchvision: local label +cu121"),
        ('torchvision = "0.15.2"', "torchvision = 0.15", "p.toml: stack.torchvision: must be a non-empty string"),
        ('packages = ["numpy<2"]', 'packages = ["numpy<<2"]', "p.toml: stack.packages[0]: 'numpy<<2' is not a PEP 508"),
        ('packages = ["numpy<2"]', 'packages = ["torchvision"]', "belongs in stack.torchvision"),
        ('name = "causal-conv1d"', 'nam = "causal-conv1d"', "p.toml: extensions[0].name: missing"),
        ("schema = 1", "schema = 2", "p.toml: schema: 2 is not a supported schema"),
        ('name = "a100-train"', "", "p.toml: name: missing"),
        ("[python]", '[indexes]\npypi = "ftp://x"\n[python]', "p.toml: indexes.pypi: 'ftp://x' is not an http(s)://"),
        ('os = "linux"', 'os = "windows"', "p.toml: machine.glibc: only meaningful on linux, not windows"),
    ],
)
def test_one_problem_each(old: str, new: str, expected: str) -> None:
    lines = problems(edit(SEED, old, new))
    assert any(line.startswith(expected) or expected in line for line in lines), lines


def test_missing_tables_are_named() -> None:
    assert problems('schema = 1\nname = "x"\n') == [
        "p.toml: python: missing table; add a [python] table",
        "p.toml: stack: missing table; add a [stack] table",
    ]


def test_local_label_sets_the_variant_when_auto() -> None:
    p = parse_profile(edit(edit(SEED, 'variant = "cu118"\n', ""), 'torch = "2.0.1"', 'torch = "2.0.1+cu118"'))
    assert p.stack.variant == "cu118" and p.stack.torch == Version("2.0.1")


def test_companion_auto_and_free_threaded_python() -> None:
    p = parse_profile(edit(edit(SEED, 'torchvision = "0.15.2"', 'torchvision = "auto"'), '"3.10"', '"3.13t"'))
    assert p.stack.torchvision == "auto" and p.python.free_threaded and str(p.python) == "3.13t"


def test_compute_capability_without_gpu_names() -> None:
    p = parse_profile(edit(SEED, 'gpus = ["A100"]', 'compute-capability = ["8.0"]'))
    assert p.machine.compute_capability == ((8, 0),) and p.machine.has_gpu


def test_missing_file_is_one_clear_error(tmp_path) -> None:
    with pytest.raises(EnvplanError) as info:
        load_profile(tmp_path / "nope.toml")
    assert info.value.ref == "profile-not-found" and info.value.exit_code == 2
