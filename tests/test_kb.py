"""KB queries and invariants that every release must satisfy."""

from __future__ import annotations

from packaging.version import Version

from envplan.kb.variants import parse_variant


def test_releases_are_sorted_and_unique(kb) -> None:
    versions = [r.torch for r in kb.releases]
    assert versions == sorted(set(versions))


def test_every_advertised_linux_cuda_variant_has_an_arch_list(kb) -> None:
    missing = [
        (str(r.torch), v)
        for r in kb.releases
        for v in r.variants
        if parse_variant(v).kind == "cuda" and kb.wheel_archs(r, v) is None
    ]
    assert missing == []


def test_every_cuda_variant_has_a_driver_floor_except_cu102(kb) -> None:
    cudas = {v for r in kb.releases for v in r.variants if parse_variant(v).kind == "cuda"}
    assert {v for v in cudas if kb.toolkit_for_variant(v) is None} == {"cu102"}


def test_old_cuda_driver_floors_carry_their_source_and_stay_below_the_toolkits(kb) -> None:
    from envplan.kb.loader import read_table

    assert "Table 3" in read_table("cuda.toml")["driver-floor-source"]
    assert [str(f.version) for f in kb.driver_floors] == ["10.0", "10.1", "10.2"]
    assert all(not f.verified and f.version < min(c.version for c in kb.cuda) for f in kb.driver_floors)
    assert str(kb.driver_floor(Version("10.2.89"), "windows")) == "441.22"
    assert kb.driver_floor(Version("11.8"), "linux") == kb.toolkit(Version("11.8")).driver_linux
    assert kb.driver_floor(Version("9.0"), "linux") is None  # older than the table the KB holds: unknown


def test_python_versions_span_the_range(kb) -> None:
    assert kb.release("2.1.2").python_versions == ("3.8", "3.9", "3.10", "3.11")
    assert kb.release("2.9.0").python_versions[0] == "3.10"


def test_mixed_abi_and_glibc_of_2_6(kb) -> None:
    r = kb.release("2.6.0")
    assert r.cxx11_abi_for("cu126") is True and r.cxx11_abi_for("cu124") is False
    assert r.glibc_for("cu126") == Version("2.28") and r.glibc_for("cpu") == Version("2.17")


def test_2_0_0_pip_and_conda_pairings_differ(kb) -> None:
    r = kb.release("2.0.0")
    assert (str(r.torchvision), str(r.torchaudio)) == ("0.15.1", "2.0.1")
    assert (str(r.conda_torchvision), str(r.conda_torchaudio)) == ("0.15.0", "2.0.0")


def test_arch_list_spelling(kb) -> None:
    row = kb.wheel_archs(kb.release("2.7.1"), "cu128")
    assert row.arch_list() == "7.5;8.0;8.6;9.0;10.0;12.0+PTX"
    assert row.arch_list("aarch64") == ""


def test_driver_versions_print_as_nvidia_writes_them(kb) -> None:
    assert str(kb.toolkit(Version("11.8")).driver_linux) == "520.61.05"


def test_minor_lookup_and_latest(kb) -> None:
    assert [str(r.torch) for r in kb.minor_releases("2.1")] == ["2.1.0", "2.1.1", "2.1.2"]
    assert kb.latest().torch == max(r.torch for r in kb.releases)


def test_docker_images_by_release(kb) -> None:
    tags = {i.tag for i in kb.docker_images(Version("2.9.0"))}
    assert "pytorch/pytorch:2.9.0-cuda12.8-cudnn9-devel" in tags
    images = {i.tag: i for i in kb.docker_images(Version("2.12.0"))}
    assert images["pytorch/pytorch:2.12.0-cuda12.6-cudnn9-runtime"].verified is True  # seen in public Dockerfiles
    assert images["pytorch/pytorch:2.12.0-cuda13.2-cudnn9-devel"].verified is False  # derived only
