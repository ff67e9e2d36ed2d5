"""Packages that move with torch (they pin it exactly, or ship code compiled against one torch): which of their
releases goes with a target torch, or why none can. Pure: KB facts in, a choice out.

Such a package in `stack.packages` (xformers, vllm, torchtext, torchdata ...) would drag torch back to the release
it pins if it rode into the torch step, so the planner leaves it out there and re-pins it in the step after torch
to the newest release whose requirements the target meets, within what the profile asks of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from packaging.requirements import Requirement
from packaging.version import Version

from envplan.kb import KB
from envplan.kb.extmodel import BoundRelease, TorchBound
from envplan.kb.model import Release
from envplan.profile.model import Machine

__all__ = ["BoundChoice", "bound_choice", "bound_requirements"]


@dataclass(frozen=True, kw_only=True, slots=True)
class BoundChoice:
    name: str
    requirement: str  # what the step asks for: "vllm==0.19.0" ("" when blocked)
    companions: tuple[str, ...] = ()  # the companions its release pins (the step must carry them)
    reason: str = ""
    blocked: str = ""  # why no release fits (with the versions that would)
    fix: str = ""
    warning: str = ""


def bound_requirements(requirements: tuple[Requirement, ...], kb: KB) -> dict[str, TorchBound]:
    """The profile's requirements (as written) that name a torch-bound package."""
    return {str(r): facts for r in requirements if (facts := kb.bound(r.name)) is not None}


def _fits(row: BoundRelease, release: Release, python: Version, machine: Machine) -> bool:
    if not row.torch.contains(str(release.torch), prereleases=True):
        return False
    for name, spec in row.companions.items():
        if not spec.contains(str(getattr(release, name)), prereleases=True):
            return False
    if row.python is not None and not row.python.contains(str(python), prereleases=True):
        return False
    return not (row.glibc and machine.os == "linux" and machine.glibc and machine.glibc < row.glibc)


def bound_choice(
    req: Requirement, facts: TorchBound, release: Release, python: Version, machine: Machine
) -> BoundChoice:
    """The newest release of `req` made for exactly torch `release` (else the newest whose range admits it), within
    what `req` allows; or why none is."""
    fitting = [r for r in facts.releases if _fits(r, release, python, machine)]
    allowed = [r for r in fitting if req.specifier.contains(r.version, prereleases=True)]
    if allowed:
        made_for = [r for r in allowed if r.exact]  # a release built for exactly this torch, before a range
        row = (made_for or allowed)[-1]
        extras = f"[{','.join(sorted(req.extras))}]" if req.extras else ""
        marker = f"; {req.marker}" if req.marker else ""
        return BoundChoice(
            name=facts.name,
            requirement=f"{facts.name}{extras}=={row.version}{marker}",
            companions=tuple(row.companions),
            reason=f"{facts.name} {row.version} requires torch{row.torch}"
            + "".join(f", {n}{s}" for n, s in row.companions.items())
            + f": the newest release that goes with torch {release.torch} ({facts.note})",
            warning=_range_warning(facts, row, release),
        )
    return _blocked(req, facts, release, fitting)


def _range_warning(facts: TorchBound, row: BoundRelease, release: Release) -> str:
    if row.exact or not row.compiled:
        return ""
    return (
        f"{facts.name} {row.version} ships {row.compiled} compiled file(s) but allows torch{row.torch}: it was built "
        f"against one torch, so on {release.torch} its C++ symbols may not resolve (check it imports)"
    )


def _blocked(req: Requirement, facts: TorchBound, release: Release, fitting: list[BoundRelease]) -> BoundChoice:
    if fitting:
        versions = ", ".join(str(r.version) for r in fitting[-6:])
        known = any(req.specifier.contains(r.version, prereleases=True) for r in facts.releases)
        return BoundChoice(
            name=facts.name,
            requirement="",
            blocked=f"{req} admits none of the {facts.name} releases that go with torch {release.torch} ({versions})"
            + (f"; {_pins(facts, req)}" if known else ""),
            fix=f"let {facts.name} move to one of them (relax or drop its pin in stack.packages)",
        )
    return BoundChoice(
        name=facts.name,
        requirement="",
        blocked=f"no {facts.name} release goes with torch {release.torch}: " + _pins(facts, None),
        fix=f"choose a torch its releases pin, or drop {facts.name} from stack.packages",
    )


def _pins(facts: TorchBound, req: Requirement | None) -> str:
    """What the releases (allowed by `req`) require of torch, grouped: 'torch==2.9.1 (0.14.0-0.16.0), ...'"""
    groups: dict[str, list[Version]] = {}
    for r in facts.releases:
        if req is None or req.specifier.contains(r.version, prereleases=True):
            groups.setdefault(f"torch{r.torch}", []).append(r.version)
    parts = [f"{spec} ({vs[0]}" + (f"-{vs[-1]})" if len(vs) > 1 else ")") for spec, vs in groups.items()]
    return "its releases require " + ", ".join(parts[-5:]) if parts else "the KB knows no release of it"
