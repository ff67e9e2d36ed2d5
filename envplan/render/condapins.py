"""A step's conda packages pinned to exact builds the KB learned from a channel (`kb update --conda-channel`):
pytorch, then the companions and extensions the channel has for that pytorch, Python and CUDA; the rest is
left to pip. Pure: the learned builds come in with the KB."""

from __future__ import annotations

import re
from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

from envplan.core.plan import Step
from envplan.kb import KB
from envplan.kb.model import CondaBuild
from envplan.kb.variants import Variant

__all__ = ["DEFAULT_ALIAS", "CondaPins", "channel_name", "conda_pins"]

DEFAULT_ALIAS = "https://conda.anaconda.org"
_NUMBER = re.compile(r"_(\d+)$")


@dataclass(frozen=True, kw_only=True, slots=True)
class CondaPins:
    channel: str  # URL
    torch: CondaBuild
    specs: tuple[str, ...]  # conda specs, exact builds
    lacking: tuple[str, ...]  # companions the channel has no build of (pip installs them)
    extensions: tuple[str, ...]  # extensions the channel builds (no source build needed)
    cuda_note: str  # when the build's CUDA is not exactly the variant's


def channel_name(url: str) -> str:
    """conda-forge for https://conda.anaconda.org/conda-forge; any other channel keeps its URL."""
    prefix = DEFAULT_ALIAS + "/"
    return url[len(prefix) :] if url.startswith(prefix) and "/" not in url[len(prefix) :] else url


def _number(build: str) -> int:
    m = _NUMBER.search(build)
    return int(m.group(1)) if m else 0


def _fits(b: CondaBuild, v: Variant) -> tuple[int, float] | None:
    """How well a build's CUDA serves the variant: exact first, then the same major at a lower minor."""
    if v.kind == "cpu":
        return (0, 0.0) if b.cuda == "cpu" else None
    if v.cuda is None or b.cuda in ("", "cpu"):
        return None
    try:
        cuda = Version(b.cuda)
    except InvalidVersion:
        return None
    if cuda == v.cuda:
        return (0, 0.0)
    if cuda.major == v.cuda.major and cuda < v.cuda:
        return (1, -float(cuda.minor))
    return None


def _pick_torch(builds: tuple[CondaBuild, ...], step: Step, v: Variant, subdir: str) -> CondaBuild | None:
    fits = [
        (fit, -_number(b.build), b.build, b)
        for b in builds
        if b.name == "pytorch" and b.subdir == subdir and b.version == str(step.release.torch)
        if b.python == step.python.removesuffix("t") and (fit := _fits(b, v)) is not None
    ]
    return min(fits, key=lambda f: f[:3])[3] if fits else None


def _with(builds: list[CondaBuild], name: str, version: str, torch: CondaBuild, step: Step) -> CondaBuild | None:
    """The channel's build of `name` (at `version` when given) that installs with this pytorch build."""
    fits = [
        b
        for b in builds
        if b.name == name
        and (not version or b.version == version)
        and b.cuda in (torch.cuda, "")
        and str(step.release.torch) in b.torch
        and b.python in (step.python.removesuffix("t"), "")
    ]
    return max(fits, key=lambda b: (_number(b.build), b.build)) if fits else None


def conda_pins(step: Step, kb: KB, v: Variant, subdir: str) -> CondaPins | None:
    torch = _pick_torch(kb.conda_builds, step, v, subdir)
    if torch is None:
        return None
    same = [b for b in kb.conda_builds if b.channel == torch.channel and b.subdir == subdir]
    python = step.python.removesuffix("t")
    free = ("python-freethreading",) if step.python.endswith("t") else ()
    specs = [f"python={python}", *free, f"pytorch={torch.version}={torch.build}"]
    lacking = []
    for pin in step.pins:
        if pin.name == "torch":
            continue
        version = str(getattr(step.release, f"conda_{pin.name}", None) or pin.version)
        build = _with(same, pin.name, version, torch, step)
        if build is None:
            lacking.append(pin.requirement)
        else:
            specs.append(f"{pin.name}={build.version}={build.build}")
    exts = []
    for ext in step.extensions:
        build = _with(same, ext.name, str(ext.version or ""), torch, step)
        if build is not None:
            specs.append(f"{ext.name}={build.version}={build.build}")
            exts.append(ext.name)
    note = ""
    if v.cuda is not None and torch.cuda != f"{v.cuda.major}.{v.cuda.minor}":
        note = (
            f"the channel builds torch {torch.version} for CUDA {torch.cuda}, not {v.cuda}: the same CUDA major, "
            f"with the CUDA {v.cuda} runtime"
        )
    return CondaPins(
        channel=torch.channel,
        torch=torch,
        specs=tuple(specs),
        lacking=tuple(lacking),
        extensions=tuple(exts),
        cuda_note=note,
    )
