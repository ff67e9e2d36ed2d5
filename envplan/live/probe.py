"""Inspect a live machine and Python environment: what torch, GPUs, driver and toolkit are really there.

Torch is imported only inside the target interpreter (a subprocess), never into envplan. Every probe
degrades gracefully: what could not be seen is said in `notes`. The parsers are pure and tested on recorded
outputs of the real tools; `Runner` lets tests replay them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Observed", "Runner", "parse_nvcc", "parse_nvidia_smi", "parse_proc_driver", "probe", "real_runner"]

Runner = Callable[[list[str]], tuple[int, str]]  # argv -> (exit code, stdout); 127 when not installed

_TORCH_PROBE = r"""
import importlib.metadata as md, json, platform, sys
out = {"python": "%d.%d.%d" % sys.version_info[:3], "executable": sys.executable, "machine": platform.machine()}
def version(name):
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return None
out["dists"] = {d.metadata["Name"].lower().replace("_", "-"): d.version for d in md.distributions()}
try:
    import torch
    out["torch"] = {"version": torch.__version__, "cuda": torch.version.cuda,
                    "cxx11_abi": bool(torch._C._GLIBCXX_USE_CXX11_ABI), "cuda_available": torch.cuda.is_available(),
                    "arch_list": torch.cuda.get_arch_list(),
                    "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
                    "devices": [[torch.cuda.get_device_name(i), "%d.%d" % torch.cuda.get_device_capability(i)]
                                for i in range(torch.cuda.device_count())] if torch.cuda.is_available() else []}
except Exception as exc:
    out["torch_error"] = "%s: %s" % (type(exc).__name__, exc)
print(json.dumps(out))
"""


@dataclass(frozen=True, kw_only=True, slots=True)
class Observed:
    python: str = ""
    executable: str = ""
    torch: dict[str, Any] | None = None  # version, cuda, cxx11_abi, cuda_available, arch_list, cudnn, devices
    torch_error: str = ""
    dists: Mapping[str, str] = field(default_factory=dict)
    gpus: tuple[tuple[str, str], ...] = ()  # (name, compute capability) from nvidia-smi
    driver: str = ""
    driver_cuda: str = ""  # the highest CUDA the driver supports (nvidia-smi's header)
    nvcc: str = ""  # the CUDA toolkit release nvcc reports
    cuda_home: str = ""
    ld_library_path: str = ""
    glibc: str = ""
    os: str = "linux"
    arch: str = "x86_64"
    cudart_majors: tuple[str, ...] = ()  # CUDA runtime majors found beside torch and on LD_LIBRARY_PATH
    notes: tuple[str, ...] = ()  # what could not be seen, and why


def real_runner(argv: list[str]) -> tuple[int, str]:
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    except FileNotFoundError:
        return 127, ""
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 1, str(exc)
    return proc.returncode, proc.stdout


def parse_nvidia_smi(csv_text: str) -> tuple[tuple[tuple[str, str], ...], str]:
    """`nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader` -> (gpus, driver)."""
    gpus, driver = [], ""
    for line in csv_text.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) >= 3 and parts[0]:
            gpus.append((parts[0], parts[1]))
            driver = driver or parts[2]
    return tuple(gpus), driver


def parse_smi_header(text: str) -> str:
    m = re.search(r"CUDA Version:\s*([\d.]+)", text)
    return m.group(1) if m else ""


def parse_proc_driver(text: str) -> str:
    """/proc/driver/nvidia/version -> the driver version."""
    m = re.search(r"Kernel Module(?: for \w+)?\s+([\d.]+)", text)
    return m.group(1) if m else ""


def parse_nvcc(text: str) -> str:
    m = re.search(r"release (\d+\.\d+)", text)
    return m.group(1) if m else ""


def _gpus(run: Runner, read: Callable[[str], str]) -> tuple[tuple[tuple[str, str], ...], str, str, list[str]]:
    notes = []
    code, out = run(["nvidia-smi", "--query-gpu=name,compute_cap,driver_version", "--format=csv,noheader"])
    gpus, driver = parse_nvidia_smi(out) if code == 0 else ((), "")
    driver_cuda = ""
    if code == 0:
        driver_cuda = parse_smi_header(run(["nvidia-smi"])[1])
    else:
        driver = parse_proc_driver(read("/proc/driver/nvidia/version"))
        notes.append(
            "nvidia-smi is not available: no NVIDIA GPU is visible"
            if not driver
            else "nvidia-smi failed; the driver version comes from /proc/driver/nvidia/version"
        )
    return gpus, driver, driver_cuda, notes


def _nvcc(run: Runner, env: Mapping[str, str]) -> tuple[str, list[str]]:
    home = env.get("CUDA_HOME") or env.get("CUDA_PATH") or ""
    candidates = [str(Path(home) / "bin" / "nvcc")] if home else []
    for nvcc in [*candidates, "nvcc"]:
        code, out = run([nvcc, "--version"])
        if code == 0 and parse_nvcc(out):
            return parse_nvcc(out), []
    return "", ["no nvcc found (CUDA_HOME/bin or PATH): compiled extensions cannot be built here"]


def _cudart_majors(torch_dir: str, ld_path: str) -> tuple[str, ...]:
    majors: set[str] = set()
    dirs = [Path(p) for p in ld_path.split(os.pathsep) if p]
    if torch_dir:
        site = Path(torch_dir).parent
        dirs += [Path(torch_dir) / "lib", *site.glob("nvidia/*/lib")]
    for d in dirs:
        for lib in d.glob("libcudart.so.*") if d.is_dir() else ():
            m = re.match(r"libcudart\.so\.(\d+)", lib.name)
            if m:
                majors.add(m.group(1))
    return tuple(sorted(majors))


def probe(
    python: str,
    *,
    run: Runner = real_runner,
    env: Mapping[str, str] | None = None,
    read: Callable[[str], str] | None = None,
) -> Observed:
    """Everything envplan can see about `python`'s environment and this machine."""
    env = dict(os.environ if env is None else env)
    read = read or _read_file
    notes: list[str] = []
    code, out = run([python, "-c", _TORCH_PROBE])
    data: dict[str, Any] = {}
    if code == 0 and out.strip():
        data = json.loads(out.strip().splitlines()[-1])
    else:
        notes.append(f"cannot run {python}: give --python the interpreter of the environment")
    gpus, driver, driver_cuda, gpu_notes = _gpus(run, read)
    nvcc, nvcc_notes = _nvcc(run, env)
    torch = data.get("torch")
    if torch is None and data:
        notes.append("torch is not importable there: " + str(data.get("torch_error", "not installed")))
    return Observed(
        python=data.get("python", ""),
        executable=data.get("executable", python),
        torch=torch,
        torch_error=str(data.get("torch_error", "")),
        dists=data.get("dists", {}),
        gpus=gpus,
        driver=driver,
        driver_cuda=driver_cuda,
        nvcc=nvcc,
        cuda_home=env.get("CUDA_HOME", ""),
        ld_library_path=env.get("LD_LIBRARY_PATH", ""),
        glibc=_glibc(),
        arch=data.get("machine", "x86_64") or "x86_64",
        cudart_majors=_cudart_majors(_torch_dir(data), env.get("LD_LIBRARY_PATH", "")),
        notes=tuple(notes + gpu_notes + nvcc_notes),
    )


def _torch_dir(data: dict[str, Any]) -> str:
    executable = data.get("executable")
    if not executable or data.get("torch") is None:
        return ""
    candidates = Path(executable).resolve().parent.parent.glob("lib/python3*/site-packages/torch")
    return str(next(iter(candidates), ""))


def _read_file(path: str) -> str:
    try:
        return Path(path).read_text(errors="replace")
    except OSError:
        return ""


def _glibc() -> str:
    try:
        text = os.confstr("CS_GNU_LIBC_VERSION") or ""
    except (ValueError, OSError, AttributeError):
        return ""
    return text.split()[-1] if text else ""
