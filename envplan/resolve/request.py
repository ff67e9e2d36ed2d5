"""From a plan step to a LockRequest: the exact pins, the indexes, the target Python and platform."""

from __future__ import annotations

from packaging.version import Version

from envplan.core.plan import Step
from envplan.errors import EnvplanError
from envplan.profile.model import Machine
from envplan.resolve.model import LockRequest

__all__ = ["platform_tag", "request_for_step"]

# The manylinux targets uv's --python-platform accepts (uv 0.5 to 0.13: 2_17 = manylinux2014, then 2_28 and
# 2_31 to 2_40; no 2_18..2_27, 2_29 or 2_30). A machine's glibc maps to the highest one it can run.
_UV_MANYLINUX = tuple(Version(f"2.{m}") for m in (17, 28, *range(31, 41)))


def platform_tag(machine: Machine, glibc_floor: Version) -> str:
    """uv's --python-platform for the machine: its own glibc when the profile says it, else the wheels' floor,
    as the newest manylinux target uv accepts that the machine runs (glibc 2.27 -> manylinux_2_17)."""
    if machine.os == "macos":
        return f"{machine.arch}-apple-darwin"
    if machine.os == "windows":
        return "x86_64-pc-windows-msvc"
    glibc = machine.glibc or glibc_floor
    runnable = [t for t in _UV_MANYLINUX if t <= glibc]
    if not runnable:
        raise EnvplanError(
            "glibc-too-old",
            f"glibc {glibc} is older than manylinux2014 (2.17), the oldest platform a lock can target",
            where="machine.glibc",
            hint="no torch wheel of the releases envplan knows runs there: upgrade the OS",
        )
    tag = runnable[-1]
    return f"{machine.arch}-manylinux_{tag.major}_{tag.minor}"


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
