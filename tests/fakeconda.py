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
    channel = root / name
    repodata = {}
    for subdir in ("linux-64", "noarch"):
        (channel / subdir).mkdir(parents=True, exist_ok=True)
        repodata[subdir] = {"info": {"subdir": subdir}, "packages": {}, "packages.conda": {}, "repodata_version": 1}
    for subdir, pkg, version, build, number, depends, extra in PACKAGES:
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
    for subdir in ("linux-64", "noarch"):
        empty = root / "nvidia" / subdir
        empty.mkdir(parents=True, exist_ok=True)
        (empty / "repodata.json").write_text(
            json.dumps({"info": {"subdir": subdir}, "packages": {}, "packages.conda": {}, "repodata_version": 1})
        )
    return root
