"""Read the KB's TOML files into typed facts. A malformed file is an EnvplanError naming file and key."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from packaging.version import InvalidVersion, Version

from envplan import tomlread
from envplan.errors import EnvplanError
from envplan.kb.extmodel import ExtensionFacts, ExtRelease
from envplan.kb.model import (
    CondaFacts,
    CudaToolkit,
    DockerImage,
    Gpu,
    Platform,
    Release,
    Verified,
    WheelArch,
    cc_of,
)
from envplan.variants import DisplayVersion

__all__ = [
    "load_conda",
    "load_cuda",
    "load_dependents",
    "load_docker",
    "load_extensions",
    "load_gpus",
    "load_platforms",
    "load_releases",
    "load_wheel_arch",
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
    return Gpu(
        names=tuple(r["names"]),
        compute_capability=cc_of(r["compute-capability"]),
        verified=bool(r["verified"]),
        source=r["source"],
        reference_name=r.get("reference-name", ""),
    )


def load_gpus() -> tuple[Gpu, ...]:
    return _rows("gpus.toml", "gpu", _gpu)


def load_docker() -> tuple[DockerImage, ...]:
    data = read_table("docker.toml")
    seen = tuple(DockerImage(tag=r["tag"], verified=bool(r["verified"]), source=r["source"]) for r in data["image"])
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
        source_spec=r.get("source-spec", ""),
        force_build=dict(r.get("force-build", {})),
        force_cxx11_abi=r.get("force-cxx11-abi", ""),
        toolkit_match=r.get("toolkit-match", "major"),
        min_nvcc=_opt_version(r.get("min-nvcc")),
        min_compute_capability=_opt_version(r.get("min-compute-capability")),
        needs=tuple(r.get("needs", ())),
        after=tuple(r.get("after", ())),
        stable_abi_from=_opt_version(r.get("stable-abi-from")),
        build_memory_gb_per_job=float(r.get("build-memory-gb-per-job", 2.0)),
        releases=tuple(_ext_release(x) for x in r.get("release", [])),
        same_pages_as=r.get("same-pages-as", ""),
        verified=_verified(r["verified"]),
        source=r["source"],
        note=r.get("note", ""),
    )


def load_extensions() -> tuple[ExtensionFacts, ...]:
    return _rows("extensions.toml", "extension", _extension)
