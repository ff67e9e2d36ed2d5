"""Conda locks: a step's environment.yml solved with py-rattler for the target machine's virtual packages
(__cuda from the driver, __glibc, __linux), written as conda-lock.yml in conda-lock's own format.

The solve runs in a child process (envplan.resolve.condaworker): py-rattler can crash while the
interpreter shuts down after a solve, and envplan's own exit code must not depend on that.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass

from packaging.version import Version

from envplan.core.plan import Step
from envplan.core.platforms import conda_subdir
from envplan.errors import EXIT_BAD_INPUT, EXIT_FAILED, EnvplanError
from envplan.kb import KB
from envplan.profile.model import Machine
from envplan.render.envfiles import conda_env
from envplan.resolve.model import json_digest

__all__ = ["CondaRequest", "conda_executable", "conda_request", "driver_cuda", "run_conda_lock", "solve_conda"]

DEFAULT_CHANNEL_ALIAS = "https://conda.anaconda.org"
LINUX_KERNEL_FLOOR = "3.10"  # __linux: the profile has no kernel version; manylinux2014's floor is assumed


@dataclass(frozen=True, kw_only=True, slots=True)
class CondaRequest:
    name: str
    channels: tuple[str, ...]  # full URLs
    specs: tuple[str, ...]
    platform: str  # linux-64, linux-aarch64, osx-arm64, ...
    virtual: tuple[tuple[str, str, str], ...]  # (name, version, build)

    def digest(self) -> str:
        return json_digest(asdict(self))


def driver_cuda(machine: Machine, kb: KB) -> Version | None:
    """The highest CUDA the machine's driver fully supports (what nvidia-smi reports), from the KB."""
    if machine.driver is None:
        return None
    fits = [c.version for c in kb.cuda if (d := c.driver(machine.os)) is not None and d <= machine.driver]
    return max(fits) if fits else None


def _virtual(machine: Machine, step: Step, kb: KB) -> tuple[tuple[str, str, str], ...]:
    out: list[tuple[str, str, str]] = []
    if machine.os in ("linux", "macos"):
        out.append(("__unix", "0", "0"))
    if machine.os == "linux":
        glibc = machine.glibc or step.release.glibc_for(step.variant)
        out += [("__linux", LINUX_KERNEL_FLOOR, "0"), ("__glibc", str(glibc), "0")]
    if machine.os == "windows":
        out.append(("__win", "0", "0"))
    out.append(("__archspec", "1", machine.arch))
    cuda = driver_cuda(machine, kb) if machine.has_gpu else None
    if cuda is not None:
        out.append(("__cuda", str(cuda), "0"))
    return tuple(out)


def _solver_spec(spec: str) -> str:
    """environment.yml's `name=version=build` as py-rattler reads a match spec (`name ==version[build='...']`: the
    bracket form also takes the pytorch channel's dotted build strings)."""
    name, _, rest = spec.partition("=")
    version, _, build = rest.partition("=")
    return f"{name} =={version}[build='{build}']" if build and not version.startswith("=") else spec


def conda_request(step: Step, machine: Machine, kb: KB, alias: str) -> CondaRequest | None:
    """The conda solve of a step, or None when conda has no build of its variant."""
    env = conda_env(step, kb, conda_subdir(machine))
    if not env.solvable:
        return None
    channels = tuple(c if "://" in c else f"{alias.rstrip('/')}/{c}" for c in env.channels)
    return CondaRequest(
        name=step.name,
        channels=channels,
        specs=tuple(_solver_spec(s) for s in env.specs),
        platform=conda_subdir(machine),
        virtual=_virtual(machine, step, kb),
    )


def solve_conda(request: CondaRequest, *, source: str = "environment.yml") -> str:
    """conda-lock.yml text for the request (solved offline from the channels' repodata by py-rattler)."""
    payload = json.dumps({**asdict(request), "digest": request.digest(), "source": source})
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "envplan.resolve.condaworker"],
            input=payload,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise EnvplanError(
            "conda-timeout", "the conda solve did not finish in 600 s", where=request.name, exit_code=EXIT_FAILED
        ) from None
    try:
        result = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise EnvplanError(
            "conda-failed",
            f"the conda solver stopped: {proc.stderr.strip()[-500:]}",
            where=request.name,
            exit_code=EXIT_FAILED,
        ) from None
    if not result.get("ok"):
        raise EnvplanError(
            "conda-failed",
            f"conda could not lock {request.name}: {result.get('error')}",
            where=request.name,
            hint="check that the channels answer (" + ", ".join(request.channels) + ") and that the pins exist there",
            exit_code=EXIT_FAILED,
        )
    return str(result["lock"])


def conda_executable() -> str | None:
    """A conda, mamba or micromamba executable, for `--conda conda-lock`."""
    return next((p for p in (shutil.which(n) for n in ("micromamba", "mamba", "conda")) if p), None)


def run_conda_lock(request: CondaRequest, environment_yml: str) -> str:
    """conda-lock itself (it needs a conda, mamba or micromamba executable), for `--conda-lock`."""
    import tempfile
    from pathlib import Path

    exe = conda_executable()
    if exe is None:
        raise EnvplanError(
            "no-conda",
            "conda-lock needs a conda, mamba or micromamba executable and none is on PATH",
            where="--conda-lock",
            hint="use --conda (py-rattler, no conda needed) instead",
            exit_code=EXIT_BAD_INPUT,
        )
    with tempfile.TemporaryDirectory(prefix="envplan-conda-lock-") as tmp:
        work = Path(tmp)
        (work / "environment.yml").write_text(environment_yml)
        argv = [
            "conda-lock",
            "lock",
            "--file",
            "environment.yml",
            "--platform",
            request.platform,
            "--lockfile",
            "conda-lock.yml",
            "--conda",
            exe,
        ]
        proc = subprocess.run(argv, cwd=work, capture_output=True, text=True, timeout=1800, check=False)
        if proc.returncode != 0:
            raise EnvplanError(
                "conda-failed",
                f"conda-lock could not lock {request.name}: " + " ".join(proc.stderr.split()[-60:]),
                where=request.name,
                exit_code=EXIT_FAILED,
            )
        return (work / "conda-lock.yml").read_text()
