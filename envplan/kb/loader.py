"""Read the KB's TOML files into typed facts. A malformed file is an EnvplanError naming file and key."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from packaging.version import InvalidVersion, Version

from envplan import tomlread
from envplan.errors import EnvplanError
from envplan.kb.extmodel import BoundRelease, ExtensionFacts, ExtRelease, TorchBound
from envplan.kb.model import (
    PLATFORMS,
    ArchList,
    Availability,
    CondaFacts,
    CudaToolkit,
    DockerImage,
    DriverFloor,
    Gpu,
    Platform,
    Release,
    RocmDriver,
    RocmWheel,
    Verified,
    WheelArch,
    cc_of,
)
from envplan.kb.variants import DisplayVersion

__all__ = [
    "load_availability",
    "load_build_imports_torch",
    "load_companion_pins",
    "load_conda",
    "load_cuda",
    "load_dependents",
    "load_distro_glibc",
    "load_docker",
    "load_driver_floors",
    "load_extensions",
    "load_gpus",
    "load_platform_since",
    "load_platforms",
    "load_published_releases",
    "load_python_bound",
    "load_release_wheels",
    "load_releases",
    "load_rocm",
    "load_torch_bound",
    "load_wheel_arch",
    "load_wheel_only",
    "load_wheel_only_latest",
    "load_wheel_only_releases",
    "read_table",
]

T = TypeVar("T")
DATA = Path(__file__).resolve().parent  # the KB's TOML files ship inside the package
Row = dict[str, Any]


def read_table(name: str) -> dict[str, Any]:
    """One KB file as a dict (package data, so it works from a wheel too)."""
    text = (DATA / name).read_text(encoding="utf-8")
    try:
        data = tomlread.loads(text)
    except tomlread.TOMLDecodeError as exc:
        raise EnvplanError("kb-invalid", f"knowledge base file is not valid TOML: {exc}", where=name) from exc
    if data.get("schema") != 1:
        raise EnvplanError("kb-invalid", "unsupported KB schema", where=f"{name}: schema")
    return data


def _rows(name: str, key: str, build: Callable[[Row], T]) -> tuple[T, ...]:
    out = []
    for i, row in enumerate(read_table(name).get(key, [])):
        try:
            out.append(build(row))
        except (KeyError, ValueError, InvalidVersion, TypeError) as exc:
            raise EnvplanError("kb-invalid", f"bad entry: {exc!r}", where=f"{name}: {key}[{i}]") from exc
    return tuple(out)


def _opt_version(text: str | None) -> Version | None:
    return DisplayVersion(text) if text else None


def _verified(value: object) -> Verified:
    if value is True or value is False or value == "partial":
        return value
    raise ValueError(f"verified must be true, false or 'partial', not {value!r}")


def _release(r: Row) -> Release:
    return Release(
        torch=Version(r["torch"]),
        torchvision=Version(r["torchvision"]),
        torchaudio=Version(r["torchaudio"]),
        conda_torchvision=_opt_version(r.get("conda-torchvision")),
        conda_torchaudio=_opt_version(r.get("conda-torchaudio")),
        python_min=Version(r["python-min"]),
        python_max=Version(r["python-max"]),
        python_experimental=tuple(r["python-experimental"]),
        variants=tuple(r["variants"]),
        unadvertised_variants=tuple(r.get("unadvertised-variants", ())),
        pypi_default=r.get("pypi-default"),
        cxx11_abi=bool(r["cxx11-abi"]),
        cxx11_abi_by_variant=dict(r.get("cxx11-abi-by-variant", {})),
        glibc=Version(r["glibc"]),
        glibc_by_variant={k: Version(v) for k, v in r.get("glibc-by-variant", {}).items()},
        manylinux=r["manylinux"],
        cpp_standard=r["cpp-standard"],
        release_md_cuda_stable=tuple(r["release-md-cuda-stable"]),
        release_md_cuda_experimental=tuple(r["release-md-cuda-experimental"]),
        release_md_rocm=r.get("release-md-rocm", ""),
        conda_pytorch_channel=bool(r["conda-pytorch-channel"]),
        verified=_verified(r["verified"]),
        unverified_fields=tuple(r.get("unverified-fields", ())),
        source=r["source"],
        note=r.get("note", ""),
    )


def load_releases() -> tuple[Release, ...]:
    return tuple(sorted(_rows("releases.toml", "release", _release), key=lambda r: r.torch))


def _cuda(r: Row) -> CudaToolkit:
    return CudaToolkit(
        version=Version(r["version"]),
        driver_linux=_opt_version(r["driver-linux"]),
        driver_windows=_opt_version(r["driver-windows"]),
        minor_compat_linux=_opt_version(r["minor-compat-linux"]),
        minor_compat_windows=_opt_version(r["minor-compat-windows"]),
        latest_update_driver_linux=r.get("latest-update-driver-linux", ""),
        latest_update_driver_windows=r.get("latest-update-driver-windows", ""),
        arch_min=cc_of(r["arch-min"]),
        arch_max=cc_of(r["arch-max"]),
        drivers_verified=bool(r["drivers-verified"]),
        arch_verified=bool(r["arch-verified"]),
        note=r.get("note", ""),
    )


def load_cuda() -> tuple[CudaToolkit, ...]:
    return _rows("cuda.toml", "cuda", _cuda)


def _driver_floor(r: Row) -> DriverFloor:
    return DriverFloor(
        version=Version(r["version"]),
        driver_linux=DisplayVersion(r["driver-linux"]),
        driver_windows=DisplayVersion(r["driver-windows"]),
        verified=bool(r["verified"]),
        note=r.get("note", ""),
        arch_max=cc_of(r["arch-max"]) if "arch-max" in r else None,
    )


def load_driver_floors() -> tuple[DriverFloor, ...]:
    return _rows("cuda.toml", "driver-floor", _driver_floor)


def _ccs(items: list[str]) -> tuple[tuple[int, int], ...]:
    return tuple(cc_of(a) for a in items)


def _wheel_arch(r: Row) -> WheelArch:
    lo, hi = r["torch"]
    return WheelArch(
        torch_from=Version(lo),
        torch_to=Version(hi),
        variant=r["variant"],
        archs=_ccs(r["archs"]),
        ptx=_ccs(r.get("ptx", [])),
        aarch64=_ccs(r["aarch64"]) if "aarch64" in r else None,
        aarch64_ptx=_ccs(r.get("aarch64-ptx", [])),
        verified=_verified(r["verified"]),
        source=r["source"],
        note="; ".join(r[k] for k in ("note", "crosscheck") if k in r),
    )


def load_wheel_arch() -> tuple[WheelArch, ...]:
    return _rows("wheel_arch.toml", "wheel-arch", _wheel_arch)


def _gpu(r: Row) -> Gpu:
    vendor = r.get("vendor", "nvidia")
    if vendor not in ("nvidia", "amd", "intel"):
        raise ValueError(f"unknown vendor {vendor!r}")
    return Gpu(
        names=tuple(r["names"]),
        compute_capability=cc_of(r["compute-capability"]) if "compute-capability" in r else None,
        verified=bool(r["verified"]),
        source=r["source"],
        reference_name=r.get("reference-name", ""),
        vendor=vendor,
        gfx=r.get("gfx", ""),
        tegra=bool(r.get("tegra", False)),
    )


def load_gpus() -> tuple[Gpu, ...]:
    return _rows("gpus.toml", "gpu", _gpu)


def _docker_row(r: Row) -> DockerImage:
    return DockerImage(
        tag=r["tag"],
        verified=_verified(r["verified"]),
        source=r["source"],
        note=r.get("note", ""),
        cuda=r["cuda"],
        flavor=r["flavor"],
    )


def load_docker() -> tuple[DockerImage, ...]:
    data = read_table("docker.toml")
    rows = _rows("docker.toml", "docker", _docker_row)
    listed = {i.tag for i in rows}
    seen = rows + tuple(
        DockerImage(tag=r["tag"], verified=bool(r["verified"]), source=r["source"])
        for r in data["image"]
        if r["tag"] not in listed
    )
    derived = tuple(
        DockerImage(
            tag=f"pytorch/pytorch:{t}-cuda{c}-cudnn{d['cudnn']}-{kind}",
            verified=False,
            source="derived from the release matrix generator (pytorch-matrix.md section 9)",
        )
        for d in data.get("derived", [])
        for t in d["torch"]
        for c in d["cuda"]
        for kind in ("runtime", "devel")
    )
    known = {i.tag for i in seen}
    return seen + tuple(i for i in derived if i.tag not in known)


def _platform(r: Row) -> Platform:
    return Platform(
        os=r["os"],
        arch=r["arch"],
        last_torch=_opt_version(r.get("last-torch")),
        variants=tuple(r.get("variants", ())),
        pypi_default=r.get("pypi-default"),
        verified=_verified(r["verified"]),
        source=r["source"],
        note=r.get("note", ""),
    )


def load_platforms() -> tuple[Platform, ...]:
    return _rows("platforms.toml", "platform", _platform)


def parse_arch_list(text: str) -> ArchList:
    """`8.0;9.0;12.0+PTX` -> ((8, 0), (9, 0), (12, 0)), ((12, 0),)"""
    cubins, ptx = [], []
    for item in text.split(";"):
        arch, plus, rest = item.strip().partition("+")
        if plus and rest != "PTX":
            raise ValueError(f"not an architecture list entry: {item!r}")
        cubins.append(cc_of(arch))
        if plus:
            ptx.append(cc_of(arch))
    return tuple(cubins), tuple(ptx)


def _python_order(tag: str) -> tuple[int, int, bool]:
    major, minor = tag.rstrip("t").split(".")
    return int(major), int(minor), tag.endswith("t")


def _availability(r: Row) -> Availability:
    if r["platform"] not in PLATFORMS:
        raise ValueError(f"unknown platform {r['platform']!r}")
    return Availability(
        line=r["torch"],
        releases=tuple(Version(v) for v in r["releases"]),
        platform=r["platform"],
        variants=tuple(r["variants"]),
        python=tuple(sorted(r["python"], key=_python_order)),
        pypi_default=r["pypi-default"],
        arch_lists={v: parse_arch_list(a) for v, a in r.get("arch-list", {}).items()},
        arch_list_note=r.get("arch-list-note", ""),
        verified=_verified(r["verified"]),
        note=r.get("note", ""),
        source=r["source"],
    )


def load_availability() -> tuple[Availability, ...]:
    return _rows("availability.toml", "availability", _availability)


def _rocm_wheel(r: Row) -> RocmWheel:
    return RocmWheel(
        torch=Version(r["torch"]),
        variants=tuple(r["variants"]),
        gfx=tuple(r["gfx"]),
        verified=_verified(r["verified"]),
        source=r["source"],
        note=r.get("note", ""),
    )


def _rocm_driver(r: Row) -> RocmDriver:
    return RocmDriver(
        driver=Version(r["driver"]),
        runs=tuple(Version(v) for v in r["runs"]),
        verified=_verified(r["verified"]),
        source=r["source"],
    )


def load_rocm() -> tuple[tuple[RocmWheel, ...], tuple[RocmDriver, ...]]:
    return _rows("rocm.toml", "wheel-gfx", _rocm_wheel), _rows("rocm.toml", "driver", _rocm_driver)


def load_conda() -> CondaFacts:
    c = read_table("platforms.toml")["conda"]
    return CondaFacts(
        pytorch_channel_last_version=Version(c["pytorch-channel-last-version"]),
        statement=c["statement"],
        source=c["source"],
        cuda_selection=c["cuda-selection"],
        alternative=c["alternative"],
        pytorch_cuda=tuple(c["pytorch-cuda"]),
        cudatoolkit=tuple(c["cudatoolkit"]),
    )


def load_dependents() -> dict[str, tuple[str, ...]]:
    """Package name -> the companions (torchvision, torchaudio) it requires."""
    return {r["name"]: tuple(r["requires"]) for r in read_table("dependents.toml").get("package", [])}


def load_wheel_only() -> dict[str, tuple[tuple[str, ...], str, str]]:
    """Package name -> (the platforms it publishes wheels for, its latest release's Python range, an alternative) for
    compiled packages that publish no source distribution."""
    return {
        r["name"]: (tuple(r["platforms"]), r["python"], r.get("instead", ""))
        for r in read_table("wheel_only.toml").get("package", [])
    }


def load_wheel_only_latest() -> dict[str, str]:
    """Package name -> its latest release on PyPI, for the packages of wheel_only.toml."""
    return {r["name"]: r["latest"] for r in read_table("wheel_only.toml").get("package", [])}


def load_wheel_only_releases() -> dict[str, tuple[str, ...]]:
    """Package name -> every release with files on PyPI, oldest first, for the packages of wheel_only.toml."""
    return {r["name"]: tuple(r["releases"]) for r in read_table("wheel_only.toml").get("package", [])}


def load_published_releases() -> dict[str, tuple[str, tuple[str, ...]]]:
    """torch, torchvision, torchaudio -> (the first release the list is whole from, every release published: PyPI's
    and PyTorch's own index's only), oldest first (published_releases.toml)."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for i, r in enumerate(read_table("published_releases.toml").get("package", [])):
        try:
            listed = sorted({*r["releases"], *r.get("elsewhere", [])}, key=Version)
            out[r["name"]] = (str(Version(r["whole-from"])), tuple(listed))
        except (KeyError, InvalidVersion) as exc:
            where = f"published_releases.toml: package[{i}]"
            raise EnvplanError("kb-invalid", f"bad entry: {exc!r}", where=where) from exc
    return out


def load_companion_pins() -> dict[str, dict[str, str]]:
    """torchvision/torchaudio -> {release: the torch specifier its wheel requires} for the releases older than the
    matrix (companion_pins.toml); "" where the release names no torch release."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    out: dict[str, dict[str, str]] = {}
    for i, r in enumerate(read_table("companion_pins.toml").get("pin", [])):
        try:
            out.setdefault(r["package"], {})[str(Version(r["version"]))] = str(SpecifierSet(r["torch"]))
        except (KeyError, InvalidVersion, InvalidSpecifier) as exc:
            raise EnvplanError("kb-invalid", f"bad entry: {exc!r}", where=f"companion_pins.toml: pin[{i}]") from exc
    return out


def load_platform_since() -> dict[str, dict[str, str]]:
    """Package name -> {platform: the first release with a wheel for it} (platform_since.toml)."""
    platforms = ("windows", "linux-aarch64", "macos-arm64")
    return {
        r["name"]: {p: r[p] for p in platforms if p in r} for r in read_table("platform_since.toml").get("package", [])
    }


def load_release_wheels() -> dict[str, dict[str, str]]:
    """Package name -> {release: the newest Python 3 minor its wheels are built for} (release_wheels.toml)."""
    return {r["name"]: dict(r["newest-python"]) for r in read_table("release_wheels.toml").get("package", [])}


def load_python_bound() -> dict[str, tuple[str, str, str]]:
    """Package name -> (the oldest Python minor any release accepts, the first minor none accepts or "", an
    alternative) for packages every release of which declares a requires-python."""
    return {
        r["name"]: (r["floor"], r["ceiling"], r.get("instead", ""))
        for r in read_table("python_bound.toml").get("package", [])
    }


def load_distro_glibc() -> dict[str, str]:
    """ "name release" ("ubuntu 18.04", "centos 7", "centos stream9") -> the glibc that release ships ("2.27")."""
    return {f"{r['name']} {r['release']}": r["glibc"] for r in read_table("distro_glibc.toml").get("distro", [])}


def load_build_imports_torch() -> dict[str, str]:
    """Package name -> what an isolated build of it does ("fails", "downloads-torch", "varies"), for compiled torch
    extensions whose build imports torch."""
    return {r["name"]: r["isolated"] for r in read_table("build_imports_torch.toml").get("package", [])}


def _versions(items: list[str] | None) -> tuple[Version, ...]:
    return tuple(Version(v) for v in items or ())


def _pair(items: list[str] | None) -> tuple[Version, Version] | None:
    return (Version(items[0]), Version(items[1])) if items else None


def _ext_release(r: Row) -> ExtRelease:
    return ExtRelease(
        versions=_versions(r.get("versions")),
        version_range=_pair(r.get("version-range")),
        python=_pair(r.get("python")),
        torch=_versions(r.get("torch")),
        torch_range=_pair(r.get("torch-range")),
        torch_and_later=bool(r.get("torch-and-later", False)),
        cuda=_versions(r.get("cuda")),
        cuda_token=r.get("cuda-token", "major"),
        cuda_torch_max={k: Version(v) for k, v in r.get("cuda-torch-max", {}).items()},
        cuda_torch_min={k: Version(v) for k, v in r.get("cuda-torch-min", {}).items()},
        variants=tuple(r.get("variants", ())),
        abi=r.get("abi", "unknown"),
        abi_false_torch=_versions(r.get("abi-false-torch")),
        glibc=_opt_version(r.get("glibc")),
        commits=dict(r.get("commits", {})),
        wheel_version=r.get("wheel-version", ""),
        nightly=_versions(r.get("nightly")),
        on_pypi=bool(r.get("on-pypi", True)),
        verified=_verified(r.get("verified", True)),
        note=r.get("note", ""),
    )


def _extension(r: Row) -> ExtensionFacts:
    return ExtensionFacts(
        name=r["name"],
        import_name=r["import"],
        repo=r["repo"],
        ships=r["ships"],
        wheel=r.get("wheel", ""),
        url=r.get("url", ""),
        find_links=r.get("find-links", ""),
        git=r.get("git", ""),
        tag=r.get("tag", "v{version}"),
        sdist_builds_from=_opt_version(r.get("sdist-builds-from")),
        sdist_source=r.get("sdist-source", ""),
        source_ref=r.get("source-ref", ""),
        source_ref_note=r.get("source-ref-note", ""),
        arch_env=r.get("arch-env", "TORCH_CUDA_ARCH_LIST"),
        arch_format=r.get("arch-format", "torch"),
        arch_env_from=_opt_version(r.get("arch-env-from")),
        default_archs=tuple((Version(d["nvcc"]), d["archs"]) for d in r.get("default-archs", [])),
        build_core_minutes_per_arch=r.get("build-core-minutes-per-arch"),
        build_time_source=r.get("build-time-source", ""),
        force_build=dict(r.get("force-build", {})),
        force_cxx11_abi=r.get("force-cxx11-abi", ""),
        toolkit_match=r.get("toolkit-match", "major"),
        min_nvcc=_opt_version(r.get("min-nvcc")),
        min_compute_capability=_opt_version(r.get("min-compute-capability")),
        needs=tuple(r.get("needs", ())),
        build_needs=tuple(r.get("build-needs", ())),
        after=tuple(r.get("after", ())),
        stable_abi_from=_opt_version(r.get("stable-abi-from")),
        build_memory_gb_per_job=float(r.get("build-memory-gb-per-job", 2.0)),
        releases=tuple(_ext_release(x) for x in r.get("release", [])),
        same_pages_as=r.get("same-pages-as", ""),
        verified=_verified(r["verified"]),
        source=r["source"],
        note=r.get("note", ""),
    )


def _bound_release(r: Row) -> BoundRelease:
    from packaging.specifiers import SpecifierSet

    return BoundRelease(
        version=Version(r["version"]),
        torch=SpecifierSet(r["torch"]),
        companions={k: SpecifierSet(v) for k, v in r.get("companions", {}).items()},
        python=SpecifierSet(r["python"]) if r.get("python") else None,
        compiled=int(r.get("compiled", 0)),
        glibc=_opt_version(r.get("glibc")),
        source=r.get("source", ""),
    )


def _torch_bound(r: Row) -> TorchBound:
    return TorchBound(
        name=r["name"],
        releases=tuple(sorted((_bound_release(x) for x in r["release"]), key=lambda b: b.version)),
        note=r.get("note", ""),
        source=r.get("source", ""),
    )


def load_torch_bound() -> tuple[TorchBound, ...]:
    return _rows("torch_bound.toml", "package", _torch_bound)


def load_extensions() -> tuple[ExtensionFacts, ...]:
    return _rows("extensions.toml", "extension", _extension)
