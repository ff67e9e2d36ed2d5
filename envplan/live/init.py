"""`envplan init`: a commented profile, from what the probe saw or from a project's files, ready for `check`.

One writer (`render_profile`) takes a ProfileDraft; `render_init_profile` drafts from a live environment,
envplan.importers from requirements.txt, pyproject.toml, uv.lock, pylock.toml, environment.yml, conda-lock.yml.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field

import tomlkit
from tomlkit.items import Table

from envplan.errors import EXIT_BAD_INPUT, EnvplanError
from envplan.kb import KB
from envplan.live.doctor import observed_variant
from envplan.live.probe import Observed

__all__ = ["MachineDraft", "ProfileDraft", "machine_draft", "profile_name", "render_init_profile", "render_profile"]

_PLACEHOLDERS = (
    ('glibc = "2.31"', "the system glibc: ldd --version"),
    ('gpus = ["NVIDIA A100-SXM4-80GB"]', "nvidia-smi --query-gpu=name --format=csv; none = CPU only"),
    ('driver = "535.104.05"', "nvidia-smi"),
    ('cuda-toolkit = "11.8"', "nvcc --version: builds compiled extensions"),
)


@dataclass(frozen=True, kw_only=True, slots=True)
class MachineDraft:
    os: str = "linux"
    arch: str = "x86_64"
    glibc: str = ""
    gpus: tuple[str, ...] = ()
    compute_capability: tuple[str, ...] = ()
    driver: str = ""
    driver_cuda: str = ""
    nvcc: str = ""
    probed: bool = True  # False: not read from a machine, written as commented placeholders


@dataclass(frozen=True, kw_only=True, slots=True)
class ProfileDraft:
    """A profile to write, each value with the comment that says where it comes from."""

    header: tuple[str, ...]
    name: str
    machine: MachineDraft
    python: str
    torch: str
    variant: str
    torchvision: str = ""  # a version, "auto", or "" (not installed)
    torchaudio: str = ""
    packages: tuple[str, ...] = ()
    extensions: tuple[tuple[str, str], ...] = ()  # (name, version or "")
    indexes: Mapping[str, str] = field(default_factory=dict)
    comments: Mapping[str, str] = field(default_factory=dict)  # dotted key -> comment
    notes: tuple[str, ...] = ()  # written at the end of the file


def profile_name(text: str = "") -> str:
    name = re.sub(r"[^a-z0-9-]+", "-", (text or socket.gethostname()).lower()).strip("-")
    return name or "this-machine"


def machine_draft(obs: Observed) -> MachineDraft:
    return MachineDraft(
        os=obs.os,
        arch=obs.arch,
        glibc=obs.glibc,
        gpus=tuple(name for name, _ in obs.gpus),
        compute_capability=tuple(cc for _, cc in obs.gpus),
        driver=obs.driver,
        driver_cuda=obs.driver_cuda,
        nvcc=obs.nvcc,
    )


def render_init_profile(obs: Observed, kb: KB) -> str:
    if obs.torch is None:
        raise EnvplanError(
            "torch-missing",
            "torch is not installed in that environment: there is no stack to describe",
            where=obs.executable or "--python",
            hint="give --python the interpreter of a torch environment",
            exit_code=EXIT_BAD_INPUT,
        )
    torch = obs.torch
    draft = ProfileDraft(
        header=(
            f"Written by `envplan init` from {obs.executable}. Check it with `envplan check`,",
            "then plan an upgrade with `envplan upgrade --to X.Y`. Format: docs/profile.md.",
        ),
        name=profile_name(),
        machine=machine_draft(obs),
        python=".".join(obs.python.split(".")[:2]),
        torch=str(torch.get("version", "")).partition("+")[0],
        variant=observed_variant(obs),
        torchvision=obs.dists.get("torchvision", "").partition("+")[0],
        torchaudio=obs.dists.get("torchaudio", "").partition("+")[0],
        extensions=tuple((e.name, obs.dists[e.name]) for e in kb.extensions if e.name in obs.dists),
        comments={
            "stack.variant": f"torch.version.cuda = {torch.get('cuda')}",
            "stack.packages": 'other requirements to keep, e.g. "numpy<2"',
        },
    )
    return render_profile(draft)


def render_profile(draft: ProfileDraft) -> str:
    doc = tomlkit.document()
    for line in draft.header:
        doc.add(tomlkit.comment(line))
    doc["schema"] = 1
    doc["name"] = draft.name
    doc["machine"] = _machine(draft.machine)
    python = tomlkit.table()
    python["version"] = draft.python
    _comment(python, "version", draft.comments.get("python.version"))
    doc["python"] = python
    doc["stack"] = _stack(draft)
    if draft.extensions:
        doc["extensions"] = _extensions(draft)
    if draft.indexes:
        indexes = tomlkit.table()
        for key, url in draft.indexes.items():
            indexes[key] = url
            _comment(indexes, key, draft.comments.get(f"indexes.{key}"))
        doc["indexes"] = indexes
    for note in draft.notes:
        doc.add(tomlkit.comment(note))
    return tomlkit.dumps(doc)


def _comment(table: Table, key: str, text: str | None) -> None:
    if text:
        table[key].comment(text)


def _machine(m: MachineDraft) -> Table:
    t = tomlkit.table()
    t["os"] = m.os
    t["arch"] = m.arch
    if not m.probed:
        t.add(tomlkit.comment("Not read from a machine: fill these in, or run `envplan init --from ... --probe` on it"))
        for line, why in _PLACEHOLDERS:
            t.add(tomlkit.comment(f"{line:<34} # {why}"))
        return t
    if m.glibc:
        t["glibc"] = m.glibc
        t["glibc"].comment("the system glibc")
    t["gpus"] = list(m.gpus)
    t["gpus"].comment("from nvidia-smi; empty = CPU only" if m.gpus else "no NVIDIA GPU visible: CPU only")
    if m.gpus:
        t["compute-capability"] = list(m.compute_capability)
        t["driver"] = m.driver
        t["driver"].comment(f"supports CUDA up to {m.driver_cuda}" if m.driver_cuda else "nvidia-smi")
    if m.nvcc:
        t["cuda-toolkit"] = m.nvcc
        t["cuda-toolkit"].comment("nvcc --version: builds compiled extensions")
    return t


def _stack(draft: ProfileDraft) -> Table:
    s = tomlkit.table()
    s["torch"] = draft.torch
    _comment(s, "torch", draft.comments.get("stack.torch"))
    s["variant"] = draft.variant
    _comment(s, "variant", draft.comments.get("stack.variant"))
    for name, value in (("torchvision", draft.torchvision), ("torchaudio", draft.torchaudio)):
        if value:
            s[name] = value
            _comment(s, name, draft.comments.get(f"stack.{name}"))
    packages = tomlkit.array()
    packages.extend(draft.packages)
    if len(draft.packages) > 3:
        packages.multiline(True)
    s["packages"] = packages
    _comment(s, "packages", draft.comments.get("stack.packages"))
    return s


def _extensions(draft: ProfileDraft) -> tomlkit.items.AoT:
    aot = tomlkit.aot()
    for name, version in draft.extensions:
        t = tomlkit.table()
        t["name"] = name
        if version:
            t["version"] = version
        _comment(t, "name", draft.comments.get(f"extensions.{name}"))
        aot.append(t)
    return aot
