"""`envplan init`: a commented profile from what the probe saw, ready for `check` and `upgrade`."""

from __future__ import annotations

import re
import socket

import tomlkit

from envplan.doctor import observed_variant
from envplan.errors import EXIT_BAD_INPUT, EnvplanError
from envplan.kb import KB
from envplan.probe import Observed

__all__ = ["render_init_profile"]


def _name() -> str:
    host = re.sub(r"[^a-z0-9-]+", "-", socket.gethostname().lower()).strip("-")
    return host or "this-machine"


def render_init_profile(obs: Observed, kb: KB) -> str:
    if obs.torch is None:
        raise EnvplanError(
            "torch-missing",
            "torch is not installed in that environment: there is no stack to describe",
            where=obs.executable or "--python",
            hint="give --python the interpreter of a torch environment",
            exit_code=EXIT_BAD_INPUT,
        )
    doc = tomlkit.document()
    doc.add(tomlkit.comment(f"Written by `envplan init` from {obs.executable}. Check it with `envplan check`,"))
    doc.add(tomlkit.comment("then plan an upgrade with `envplan upgrade --to X.Y`. Format: docs/profile.md."))
    doc["schema"] = 1
    doc["name"] = _name()
    doc["machine"] = _machine(obs)
    python = tomlkit.table()
    python["version"] = ".".join(obs.python.split(".")[:2])
    doc["python"] = python
    doc["stack"] = _stack(obs)
    extensions = [e for e in kb.extensions if e.name in obs.dists]
    if extensions:
        aot = tomlkit.aot()
        for e in extensions:
            t = tomlkit.table()
            t["name"] = e.name
            t["version"] = obs.dists[e.name]
            aot.append(t)
        doc["extensions"] = aot
    return tomlkit.dumps(doc)


def _machine(obs: Observed) -> tomlkit.items.Table:
    m = tomlkit.table()
    m["os"] = obs.os
    m["arch"] = obs.arch
    if obs.glibc:
        m["glibc"] = obs.glibc
        m["glibc"].comment("the system glibc")
    m["gpus"] = [name for name, _ in obs.gpus]
    m["gpus"].comment("from nvidia-smi; empty = CPU only" if obs.gpus else "no NVIDIA GPU visible: CPU only")
    if obs.gpus:
        m["compute-capability"] = [cc for _, cc in obs.gpus]
        m["driver"] = obs.driver
        m["driver"].comment(f"supports CUDA up to {obs.driver_cuda}" if obs.driver_cuda else "nvidia-smi")
    if obs.nvcc:
        m["cuda-toolkit"] = obs.nvcc
        m["cuda-toolkit"].comment("nvcc --version: builds compiled extensions")
    return m


def _stack(obs: Observed) -> tomlkit.items.Table:
    torch = obs.torch or {}
    s = tomlkit.table()
    s["torch"] = str(torch.get("version", "")).partition("+")[0]
    s["variant"] = observed_variant(obs)
    s["variant"].comment(f"torch.version.cuda = {torch.get('cuda')}")
    for name in ("torchvision", "torchaudio"):
        if obs.dists.get(name):
            s[name] = obs.dists[name].partition("+")[0]
    s["packages"] = tomlkit.array()
    s["packages"].comment('other requirements to keep, e.g. "numpy<2"')
    return s
