"""From a plan step to a LockRequest: the exact pins, the indexes, the target Python and platform."""

from __future__ import annotations

from packaging.version import Version

from envplan.plan_model import Step
from envplan.profile import Machine
from envplan.resolve.model import LockRequest

__all__ = ["platform_tag", "request_for_step"]

_UV_MANYLINUX_MAX = Version("2.40")


def platform_tag(machine: Machine, glibc_floor: Version) -> str:
    """uv's --python-platform for the machine: its own glibc when the profile says it, else the wheels' floor."""
    if machine.os == "macos":
        return f"{machine.arch}-apple-darwin"
    if machine.os == "windows":
        return "x86_64-pc-windows-msvc"
    glibc = min(machine.glibc or glibc_floor, _UV_MANYLINUX_MAX)
    return f"{machine.arch}-manylinux_{glibc.major}_{glibc.minor}"


def request_for_step(step: Step, machine: Machine) -> LockRequest:
    from_pytorch = [p for p in step.pins if p.index == "pytorch"]
    return LockRequest(
        name=step.name,
        python=step.python,
        platform=platform_tag(machine, step.release.glibc_for(step.variant)),
        family=tuple(p.requirement for p in step.pins),
        requirements=step.requirements,
        pypi_index=step.pypi_index,
        pytorch_index=step.pytorch_index,
        label=from_pytorch[0].label if from_pytorch else "",
    )
