"""The KB against the reference file, row by row: they cannot drift apart."""

from __future__ import annotations

import re

import pytest
from packaging.version import Version

from envplan.kb.loader import parse_arch_list
from envplan.kb.model import cc_of
from envplan.profile.gpu import find_gpu
from helpers import SHARED_PLATFORMS, SHARED_REFERENCE, VENDORED_PLATFORMS, VENDORED_REFERENCE

EXPERIMENTAL = {
    None: (),
    "3.12 experimental": ("3.12",),
    "3.13 experimental": ("3.13",),
    "3.13t experimental": ("3.13t",),
    "3.14t experimental": ("3.14t",),
    "3.15t experimental (per RELEASE.md)": ("3.15t",),
}
VARIANT_TOKEN = re.compile(r"\b(cpu|cu\d{3}|rocm[\d.]+\d)\b")


def _torch_rows(reference: dict) -> list[dict]:
    return reference["torch"]


def test_vendored_reference_is_current() -> None:
    if not SHARED_REFERENCE.exists():
        pytest.skip("shared/reference is not beside this checkout")
    assert VENDORED_REFERENCE.read_bytes() == SHARED_REFERENCE.read_bytes(), (
        "tests/data/pytorch-matrix.toml differs from shared/reference: copy it and update the KB"
    )


def test_vendored_platforms_reference_is_current() -> None:
    if not SHARED_PLATFORMS.exists():
        pytest.skip("shared/reference is not beside this checkout")
    assert VENDORED_PLATFORMS.read_bytes() == SHARED_PLATFORMS.read_bytes(), (
        "tests/data/platforms.toml differs from shared/reference: copy it and update the KB"
    )


def test_availability_rows(kb, platforms_reference) -> None:
    rows = platforms_reference["availability"]
    assert len(kb.availability) == len(rows)
    for row, a in zip(rows, kb.availability, strict=True):
        where = f"{row['platform']} {row['torch']}"
        assert (a.line, a.platform) == (row["torch"], row["platform"]), where
        assert [str(v) for v in a.releases] == row["releases"], where
        assert list(a.variants) == row["variants"], where
        assert sorted(a.python) == sorted(row["python"]), where
        assert a.pypi_default == row["pypi_default"], where
        assert dict(a.arch_lists) == {v: parse_arch_list(t) for v, t in row.get("arch_list", {}).items()}, where
        assert (a.verified, a.source, a.note) == (row["verified"], row["source"], row.get("note", "")), where
        assert a.arch_list_note == row.get("arch_list_note", ""), where


def test_availability_agrees_with_the_pypi_default_summary(kb, platforms_reference) -> None:
    """The per-release PyPI defaults agree with the reference's per-platform summary rows."""
    for summary in platforms_reference["pypi_default"]:
        for span, build in summary["builds"].items():
            lo, _, hi = span.partition("-")
            for a in kb.availability:
                minor = Version(".".join(a.line.split(".")[:2]))
                if a.platform == summary["platform"] and Version(lo) <= minor <= Version(hi or lo):
                    assert a.pypi_default == build, (a.platform, a.line)


def test_every_reference_release_is_in_the_kb_and_nothing_else(kb, reference) -> None:
    assert [str(r.torch) for r in kb.releases] == [row["version"] for row in _torch_rows(reference)]


@pytest.mark.parametrize("index", range(31))
def test_release_row(kb, reference, index: int) -> None:
    row = _torch_rows(reference)[index]
    r = kb.release(row["version"])
    assert r is not None
    assert str(r.minor) == row["minor"]
    assert (str(r.torchvision), str(r.torchaudio)) == (row["torchvision"], row["torchaudio"])
    lo, hi = re.fullmatch(r">=(\d+\.\d+),<=(\d+\.\d+)", row["python"]).groups()
    assert (r.python_min, r.python_max) == (Version(lo), Version(hi))
    exp = row.get("python_experimental")
    assert r.python_experimental == (("3.14t",) if exp and exp.startswith("RELEASE.md says") else EXPERIMENTAL[exp])
    assert list(r.variants) == row["cuda"] + row["rocm"]
    default = row.get("pypi_default_cuda")
    assert r.pypi_default == ("cu" + default.replace(".", "") if default else None)
    assert r.cpp_standard == row["cpp_standard"]
    assert list(r.release_md_cuda_stable) == row["release_md_stable_cuda"]
    assert list(r.release_md_cuda_experimental) == row["release_md_experimental_cuda"]
    assert r.release_md_rocm == row["release_md_rocm"]
    assert r.conda_pytorch_channel is row["conda_pytorch_channel"]
    assert r.verified == row["verified"]
    if "source" in row:
        assert r.source == row["source"]
    for key in ("note", "python_note", "crosscheck"):
        if key in row:
            assert row[key] in r.note, f"{key} of {row['version']} lost"


@pytest.mark.parametrize("index", range(31))
def test_release_abi_and_glibc(kb, reference, index: int) -> None:
    row = _torch_rows(reference)[index]
    r = kb.release(row["version"])
    abi, manylinux = row["cxx11_abi"], row["manylinux"]
    if isinstance(abi, bool):
        assert r.cxx11_abi is abi and not r.cxx11_abi_by_variant
    else:
        for segment in abi.split(";"):
            expected = "ABI=1" in segment
            for variant in VARIANT_TOKEN.findall(segment):
                assert r.cxx11_abi_for(variant) is expected, (variant, segment)
    for segment in manylinux.split(";"):
        floor = Version("2.28") if "2_28" in segment or "2.28" in segment else Version("2.17")
        variants = VARIANT_TOKEN.findall(segment) or list(r.variants)
        for variant in variants:
            assert r.glibc_for(variant) == floor, (variant, segment)
    assert ("glibc" in r.unverified_fields) == ("assumed" in manylinux)


def test_cuda_rows(kb, reference) -> None:
    assert [str(c.version) for c in kb.cuda] == [row["version"] for row in reference["cuda"]]
    for row in reference["cuda"]:
        tk = kb.toolkit(Version(row["version"]))
        assert str(tk.driver_linux) in row["min_driver_linux"]
        if tk.driver_windows is None:
            assert row["min_driver_windows"].startswith("N/A")
        else:
            assert str(tk.driver_windows) in row["min_driver_windows"]
        first = re.search(r"\d+(\.\d+)*", row["minor_compat_min_driver_linux"]).group(0)
        assert tk.minor_compat_linux.major == Version(first).major
        assert tk.minor_compat_linux >= Version(first)
        lo, hi = re.match(r"(\d+\.\d+)-(\d+\.(?:\d+|x))", row["archs"]).groups()
        assert (tk.arch_min, tk.arch_max) == (cc_of(lo), cc_of(hi))
        assert (tk.drivers_verified, tk.arch_verified) == (row["drivers_verified"], row["arch_verified"])
        assert tk.latest_update_driver_linux == row["latest_update_driver_linux"]
        assert tk.latest_update_driver_windows == row["latest_update_driver_windows"]


def _arch_list(text: str) -> tuple[tuple, tuple]:
    cubins, ptx = [], []
    for item in text.split(";"):
        arch = re.match(r"\d+\.\d+", item.strip()).group(0)
        cubins.append(cc_of(arch))
        if "PTX" in item:
            ptx.append(cc_of(arch))
    return tuple(cubins), tuple(ptx)


def test_wheel_arch_rows(kb, reference) -> None:
    assert len(kb.wheel_arch) == len(reference["wheel_arch"])
    for row, w in zip(reference["wheel_arch"], kb.wheel_arch, strict=True):
        lo, _, hi = row["torch"].partition("-")
        assert (w.torch_from, w.torch_to, w.variant) == (Version(lo), Version(hi or lo), row["cuda_variant"])
        main, _, aarch = row["torch_cuda_arch_list"].partition(" (aarch64: ")
        assert (w.archs, w.ptx) == _arch_list(main)
        if aarch:
            assert (w.aarch64, w.aarch64_ptx) == _arch_list(aarch.rstrip(")"))
        else:
            assert w.aarch64 is None
        assert w.verified == row["verified"]
        assert w.source == row["source"]


def test_gpu_rows(kb, reference) -> None:
    by_ref = {g.reference_name: g for g in kb.gpus if g.reference_name}
    assert sorted(by_ref) == sorted(row["name"] for row in reference["gpu"])
    for row in reference["gpu"]:
        gpu = by_ref[row["name"]]
        assert gpu.compute_capability == cc_of(row["compute_capability"])
        assert (gpu.verified, gpu.source) == (row["verified"], row["source"])
        for name in gpu.names:
            assert find_gpu(name, kb.gpus).gpu is gpu, name


def test_docker_rows(kb, reference) -> None:
    tags = {i.tag: i for i in kb.docker}
    for row in reference["docker"]:
        head, *alts = row["tag"].split(" / ")
        for tag in [head] + [head.rsplit("-", 1)[0] + alt for alt in alts]:
            assert tags[tag].verified is row["verified"], tag
            assert tags[tag].torch == row["torch"]


def test_platform_and_conda_rows(kb, reference) -> None:
    for row in reference["platform"]:
        p = kb.platform(row["os"], {"arm64": "aarch64"}.get(row["arch"], row["arch"]))
        assert p is not None and p.verified == row["verified"] and p.source == row["source"]
        if "last_torch" in row:
            assert str(p.last_torch) == row["last_torch"]
        if "variants" in row:
            assert list(p.variants) == row["variants"]
        if "pypi_default" in row:
            assert p.pypi_default == row["pypi_default"]
    assert str(kb.conda.pytorch_channel_last_version) == reference["conda"]["pytorch_channel_last_version"]
    assert kb.conda.statement == reference["conda"]["statement"]


def test_every_platforms_docker_row_is_in_the_kb_exactly(kb, platforms_reference) -> None:
    rows = platforms_reference["docker"]
    transcribed = [i for i in kb.docker if i.cuda]
    assert [i.tag for i in transcribed] == [r["tag"] for r in rows]
    for row, image in zip(rows, transcribed, strict=True):
        assert image.verified == row["verified"] and type(image.verified) is type(row["verified"]), row["tag"]
        assert (image.note, image.source) == (row.get("note", ""), row["source"]), row["tag"]
        assert (image.torch, image.cuda, image.flavor) == (row["torch"], row["cuda"], row["flavor"]), row["tag"]
        assert f"-cudnn{row['cudnn_major']}-" in image.tag
