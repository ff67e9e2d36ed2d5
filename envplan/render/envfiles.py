"""A step's environment files as text: requirements.in (pip/uv) and environment.yml (conda)."""

from __future__ import annotations

from packaging.version import Version

from envplan.kb import KB
from envplan.plan_model import Step
from envplan.variants import parse_variant

__all__ = ["render_environment_yml", "render_requirements_in"]

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


def render_environment_yml(step: Step, kb: KB) -> str:
    v = parse_variant(step.variant)
    if v is None or v.kind == "rocm":
        return f"# {step.name}: there is no conda equivalent of the {step.variant} wheels; use requirements.in\n"
    if step.release.conda_pytorch_channel:
        channels, deps, note = _pytorch_channel(step, kb)
    else:
        channels, deps, note = _conda_forge(step)
    lines = [
        f"# {step.name}: torch {step.release.torch}+{step.variant} ({note})",
        f"name: envplan-{step.name}",
        "channels:",
        *[f"  - {c}" for c in channels],
        "dependencies:",
        f"  - python={step.python}",
        *deps,
    ]
    if step.requirements:
        lines += ["  - pip", "  - pip:", *[f"    - {r}" for r in step.requirements]]
    return "\n".join(lines) + "\n"


def _companion_versions(step: Step) -> list[tuple[str, str]]:
    out = []
    for pin in step.pins:
        if pin.name == "torch":
            continue
        conda = getattr(step.release, f"conda_{pin.name}", None)
        out.append((pin.name, str(conda or pin.version)))
    return out


def _pytorch_channel(step: Step, kb: KB) -> tuple[list[str], list[str], str]:
    v = parse_variant(step.variant)
    deps = [f"  - pytorch={step.release.torch}", *[f"  - {n}={ver}" for n, ver in _companion_versions(step)]]
    channels = ["pytorch"]
    cuda = f"{v.version.major}.{v.version.minor}" if v and v.version else ""
    if v and v.kind == "cpu":
        deps.append("  - cpuonly")
    elif step.release.torch >= _PYTORCH_CUDA_FROM and cuda in kb.conda.pytorch_cuda:
        deps.append(f"  - pytorch-cuda={cuda}")
        channels.append("nvidia")
    elif step.release.torch < _PYTORCH_CUDA_FROM and cuda in kb.conda.cudatoolkit:
        deps.append(f"  - cudatoolkit={cuda}")
        channels.append("conda-forge")
    else:
        return channels, deps, f"the pytorch channel has no CUDA {cuda} build: use requirements.in"
    return channels, deps, "the pytorch conda channel, which publishes up to 2.5.1"


def _conda_forge(step: Step) -> tuple[list[str], list[str], str]:
    v = parse_variant(step.variant)
    deps = [f"  - pytorch={step.release.torch}", *[f"  - {n}={ver}" for n, ver in _companion_versions(step)]]
    if v and v.version and v.kind == "cuda":
        deps.append(f"  - cuda-version={v.version.major}.{v.version.minor}")
    return (
        ["conda-forge"],
        deps,
        (
            "conda-forge builds: the pytorch channel stopped at 2.5.1; whether conda-forge "
            "has this exact version is not in the KB"
        ),
    )
