"""A step's environment files as text: requirements.in (pip/uv) and environment.yml (conda)."""

from __future__ import annotations

from dataclasses import dataclass

from packaging.version import Version

from envplan.kb import KB
from envplan.plan_model import Step
from envplan.variants import parse_variant

__all__ = ["CondaEnv", "conda_env", "render_environment_yml", "render_requirements_in"]

# The pytorch channel selects CUDA with the pytorch-cuda metapackage from 1.13 on, cudatoolkit before.
_PYTORCH_CUDA_FROM = Version("1.13")


def render_requirements_in(step: Step) -> str:
    lines = [
        f"# {step.name}: exact pins for torch {step.release.torch}+{step.variant} on Python {step.python}.",
        "# Each package may come from one index only (never from the other):",
    ]
    if step.pytorch_index:
        lines.append(f"#   pytorch = {step.pytorch_index}  (the torch family and its CUDA runtime wheels)")
    lines.append(f"#   pypi    = {step.pypi_index}  (everything else)")
    lines.append("")
    lines += [f"{pin.requirement:<40} # from: {pin.index}" for pin in step.pins]
    lines += [f"{req:<40} # from: pypi" for req in step.requirements]
    for ext in step.extensions:
        lines.append(
            f"# {ext.name}{'==' + str(ext.version) if ext.version else ''}: built from source against "
            "this torch (not resolved here; see PLAN.md)"
        )
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, kw_only=True, slots=True)
class CondaEnv:
    """A step as a conda environment: channels, conda specs (conda-style `name=version`), pip requirements."""

    channels: tuple[str, ...]
    specs: tuple[str, ...]
    pip: tuple[str, ...]
    note: str
    solvable: bool = True  # False when conda has no build of this variant (the file says why)


def conda_env(step: Step, kb: KB) -> CondaEnv:
    v = parse_variant(step.variant)
    if v is None or v.kind == "rocm":
        return CondaEnv(
            channels=(),
            specs=(),
            pip=(),
            solvable=False,
            note=f"there is no conda equivalent of the {step.variant} wheels; use requirements.in",
        )
    base = (
        f"python={step.python}",
        f"pytorch={step.release.torch}",
        *(f"{n}={ver}" for n, ver in _companion_versions(step)),
    )
    if step.release.conda_pytorch_channel:
        return _pytorch_channel(step, kb, base)
    extra = (f"cuda-version={v.version.major}.{v.version.minor}",) if v.kind == "cuda" and v.version else ()
    return CondaEnv(
        channels=("conda-forge",),
        specs=base + extra,
        pip=step.requirements,
        note="conda-forge builds: the pytorch channel stopped at 2.5.1; whether conda-forge has this "
        "exact version is not in the KB",
    )


def render_environment_yml(step: Step, kb: KB) -> str:
    env = conda_env(step, kb)
    if not env.solvable and not env.specs:
        return f"# {step.name}: {env.note}\n"
    lines = [
        f"# {step.name}: torch {step.release.torch}+{step.variant} ({env.note})",
        f"name: envplan-{step.name}",
        "channels:",
        *[f"  - {c}" for c in env.channels],
        "dependencies:",
        *[f"  - {d}" for d in env.specs],
    ]
    if env.pip:
        lines += ["  - pip", "  - pip:", *[f"    - {r}" for r in env.pip]]
    return "\n".join(lines) + "\n"


def _companion_versions(step: Step) -> list[tuple[str, str]]:
    out = []
    for pin in step.pins:
        if pin.name == "torch":
            continue
        conda = getattr(step.release, f"conda_{pin.name}", None)
        out.append((pin.name, str(conda or pin.version)))
    return out


def _pytorch_channel(step: Step, kb: KB, base: tuple[str, ...]) -> CondaEnv:
    v = parse_variant(step.variant)
    cuda = f"{v.version.major}.{v.version.minor}" if v and v.version else ""
    note = "the pytorch conda channel, which publishes up to 2.5.1"
    if v and v.kind == "cpu":
        return CondaEnv(channels=("pytorch",), specs=(*base, "cpuonly"), pip=step.requirements, note=note)
    if step.release.torch >= _PYTORCH_CUDA_FROM and cuda in kb.conda.pytorch_cuda:
        return CondaEnv(
            channels=("pytorch", "nvidia"), specs=(*base, f"pytorch-cuda={cuda}"), pip=step.requirements, note=note
        )
    if step.release.torch < _PYTORCH_CUDA_FROM and cuda in kb.conda.cudatoolkit:
        return CondaEnv(
            channels=("pytorch", "conda-forge"), specs=(*base, f"cudatoolkit={cuda}"), pip=step.requirements, note=note
        )
    return CondaEnv(
        channels=("pytorch",),
        specs=base,
        pip=step.requirements,
        solvable=False,
        note=f"the pytorch channel has no CUDA {cuda} build: use requirements.in",
    )
