"""A small local conda channel shaped like the old `pytorch` channel: a pytorch-mutex chooses the cpu or
cuda build, `pytorch-cuda` needs a driver that reports CUDA >= its version (__cuda), `cpuonly` pins cpu."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
from pathlib import Path

STAMP_MS = 1_700_000_000_000
PY310 = "python >=3.10,<3.11.0a0"
PACKAGES = [
    ("linux-64", "python", "3.10.14", "h955ad1f_0", 0, ["__glibc >=2.17"], {}),
    ("linux-64", "python", "3.11.9", "h955ad1f_0", 0, ["__glibc >=2.17"], {}),
    (
        "linux-64",
        "pytorch",
        "2.1.2",
        "py3.10_cuda11.8_cudnn8.7.0_0",
        0,
        [PY310, "pytorch-cuda >=11.8,<11.9", "pytorch-mutex 1.0 cuda", "numpy >=1.21"],
        {"constrains": ["cpuonly <0"]},
    ),
    (
        "linux-64",
        "pytorch",
        "2.1.2",
        "py3.10_cuda12.1_cudnn8.9.2_0",
        0,
        [PY310, "pytorch-cuda >=12.1,<12.2", "pytorch-mutex 1.0 cuda", "numpy >=1.21"],
        {"constrains": ["cpuonly <0"]},
    ),
    (
        "linux-64",
        "pytorch",
        "2.1.2",
        "py3.10_cpu_0",
        0,
        [PY310, "pytorch-mutex 1.0 cpu", "numpy >=1.21"],
        {"constrains": ["cpuonly"]},
    ),
    ("linux-64", "torchvision", "0.16.2", "py310_cu118", 0, [PY310, "pytorch ==2.1.2", "numpy >=1.21"], {}),
    ("linux-64", "torchaudio", "2.1.2", "py310_cu118", 0, [PY310, "pytorch ==2.1.2"], {}),
    ("linux-64", "numpy", "1.26.4", "py310h0a1b2c3_0", 0, [PY310], {}),
    ("noarch", "pytorch-cuda", "11.8", "h7e8668a_0", 0, ["__cuda >=11.8"], {"noarch": "generic"}),
    ("noarch", "pytorch-cuda", "12.1", "ha16c6d3_0", 0, ["__cuda >=12.1"], {"noarch": "generic"}),
    ("noarch", "pytorch-mutex", "1.0", "cuda", 100, [], {"noarch": "generic"}),
    ("noarch", "pytorch-mutex", "1.0", "cpu", 100, [], {"noarch": "generic", "track_features": "pytorch-mutex"}),
    ("noarch", "cpuonly", "2.0", "0", 0, ["pytorch-mutex 1.0 cpu"], {"noarch": "generic"}),
]


# Shaped like conda-forge's records (build strings, depends and constrains as conda-forge writes them, e.g.
# pytorch-2.4.0-cuda118_py39hbf661d7_301 in tests/data/projects/drdmannturb/conda-lock.yml): CUDA 11.8 builds need
# cudatoolkit, CUDA 12 builds cuda-version; torchvision says which pytorch builds it goes with (`pytorch * cuda*`).
PY310_CF = ["python >=3.10,<3.11.0a0", "python_abi 3.10.* *_cp310"]
CU118 = ["__cuda", "cudatoolkit >=11.8,<12"]
CU120 = ["__cuda", "cuda-version >=12.0,<13", "cuda-cudart >=12.0.107,<13.0a0"]
CONDA_FORGE = [
    ("linux-64", "python", "3.10.14", "hd12c33a_0_cpython", 0, ["__glibc >=2.17,<3.0.a0"], {}),
    ("linux-64", "python_abi", "3.10", "4_cp310", 4, [], {"constrains": ["python 3.10.* *_cpython"]}),
    ("linux-64", "numpy", "1.26.4", "py310hb13e2d6_0", 0, [*PY310_CF, "__glibc >=2.17,<3.0.a0"], {}),
    ("linux-64", "cudatoolkit", "11.8.0", "h4ba93d1_13", 13, ["__glibc >=2.17,<3.0.a0"], {}),
    ("linux-64", "cuda-cudart", "12.0.107", "hd3aeb46_8", 8, ["cuda-version >=12.0,<12.1.0a0"], {}),
    ("linux-64", "cuda-cudart", "12.1.105", "hd3aeb46_9", 9, ["cuda-version >=12.1,<12.2.0a0"], {}),
    ("linux-64", "libtorch", "2.1.2", "cuda118_h7aef1c8_300", 300, CU118, {}),
    ("linux-64", "libtorch", "2.1.2", "cuda120_h2aa5df7_300", 300, CU120, {}),
    ("linux-64", "libtorch", "2.1.2", "cpu_mkl_h0bb0d08_100", 100, [], {}),
    (
        "linux-64",
        "pytorch",
        "2.1.2",
        "cuda118_py310h7fdc7dd_300",
        300,
        [*CU118, "libtorch 2.1.2.*", "numpy >=1.19,<3", *PY310_CF],
        {},
    ),
    (
        "linux-64",
        "pytorch",
        "2.1.2",
        "cuda120_py310h327d3bc_300",
        300,
        [*CU120, "libtorch 2.1.2.*", "numpy >=1.19,<3", *PY310_CF],
        {},
    ),
    (
        "linux-64",
        "pytorch",
        "2.1.2",
        "cpu_mkl_py310h3ea73d3_100",
        100,
        ["libtorch 2.1.2.*", "numpy >=1.19,<3", *PY310_CF],
        {},
    ),
    (
        "linux-64",
        "torchvision",
        "0.16.2",
        "cuda118_py310h0e8a1e5_1",
        1,
        [*CU118, "pytorch >=2.1.2,<2.2.0a0", "pytorch * cuda*", "numpy >=1.19,<3", *PY310_CF],
        {},
    ),
    (
        "linux-64",
        "torchvision",
        "0.16.2",
        "cuda120_py310h6a9d5a3_1",
        1,
        [*CU120, "pytorch >=2.1.2,<2.2.0a0", "pytorch * cuda*", "numpy >=1.19,<3", *PY310_CF],
        {},
    ),
    (
        "linux-64",
        "torchvision",
        "0.16.2",
        "cpu_py310h5c0a9e5_1",
        1,
        ["pytorch >=2.1.2,<2.2.0a0", "pytorch * cpu*", "numpy >=1.19,<3", *PY310_CF],
        {},
    ),
    (
        "linux-64",
        "xformers",
        "0.0.23",
        "cuda120_py310h2d17e6b_0",
        0,
        [*CU120, "pytorch 2.1.2.*", "pytorch * cuda*", *PY310_CF],
        {},
    ),
    ("noarch", "cuda-version", "11.8", "h70ddcb2_3", 3, [], {"constrains": ["__cuda >=11", "cudatoolkit 11.8|11.8.*"]}),
    ("noarch", "cuda-version", "12.0", "hffde075_2", 2, [], {"constrains": ["__cuda >=12", "cudatoolkit 12.0|12.0.*"]}),
    ("noarch", "cuda-version", "12.1", "h1d6eff3_3", 3, [], {"constrains": ["__cuda >=12", "cudatoolkit 12.1|12.1.*"]}),
]


def _tar_bz2(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:bz2") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), STAMP_MS // 1000, 0o644
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def build_channel(root: Path, name: str = "pytorch") -> Path:
    """root/<name>/{linux-64,noarch}/ with repodata.json and the packages; also an empty `nvidia` channel."""
    _write_channel(root / name, PACKAGES)
    for subdir in ("linux-64", "noarch"):
        empty = root / "nvidia" / subdir
        empty.mkdir(parents=True, exist_ok=True)
        (empty / "repodata.json").write_text(
            json.dumps({"info": {"subdir": subdir}, "packages": {}, "packages.conda": {}, "repodata_version": 1})
        )
    return root


def build_conda_forge(root: Path) -> Path:
    """root/conda-forge/{linux-64,noarch}/: conda-forge's way: CUDA and CPU builds of pytorch and torchvision told
    apart by their build strings, CUDA selected by cuda-version (12.x) or cudatoolkit (11.8); no torchaudio."""
    _write_channel(root / "conda-forge", CONDA_FORGE)
    return root


def _write_channel(channel: Path, packages: list[tuple]) -> None:
    repodata = {}
    for subdir in ("linux-64", "noarch"):
        (channel / subdir).mkdir(parents=True, exist_ok=True)
        repodata[subdir] = {"info": {"subdir": subdir}, "packages": {}, "packages.conda": {}, "repodata_version": 1}
    for subdir, pkg, version, build, number, depends, extra in packages:
        index = {
            "name": pkg,
            "version": version,
            "build": build,
            "build_number": number,
            "depends": depends,
            "subdir": subdir,
            "timestamp": STAMP_MS,
            "license": "BSD-3-Clause",
            **extra,
        }
        data = _tar_bz2(
            {
                "info/index.json": json.dumps(index, sort_keys=True).encode(),
                "info/paths.json": json.dumps({"paths": [], "paths_version": 1}).encode(),
            }
        )
        filename = f"{pkg}-{version}-{build}.tar.bz2"
        (channel / subdir / filename).write_bytes(data)
        repodata[subdir]["packages"][filename] = {
            **index,
            "md5": hashlib.md5(data).hexdigest(),
            "sha256": hashlib.sha256(data).hexdigest(),
            "size": len(data),
        }
    for subdir, data in repodata.items():
        (channel / subdir / "repodata.json").write_text(json.dumps(data, sort_keys=True))
