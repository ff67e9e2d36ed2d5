"""A step's environment files as text: requirements.in (pip/uv) and environment.yml (conda)."""

from __future__ import annotations

from dataclasses import dataclass

from packaging.version import Version

from envplan.core.plan import Step
from envplan.kb import KB
from envplan.kb.variants import Variant, parse_variant
from envplan.quoting import yaml_scalar
from envplan.render.condapins import CondaPins, channel_name, conda_pins

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
    pip_index: str = ""  # the PyTorch index, when pip installs a torch package the channel lacks
    conda_extensions: tuple[str, ...] = ()  # extensions the channel builds: nothing to compile


def conda_env(step: Step, kb: KB, subdir: str = "linux-64") -> CondaEnv:
    """The step as a conda environment; exact builds when the KB learned the channel (kb update --conda-channel)."""
    v = parse_variant(step.variant)
    if v is None or v.kind == "rocm":
        return CondaEnv(
            channels=(),
            specs=(),
            pip=(),
            solvable=False,
            note=f"there is no conda equivalent of the {step.variant} wheels; use requirements.in",
        )
    pins = conda_pins(step, kb, v, subdir)
    if pins is not None:
        return _learned(step, pins, v)
    free = step.python.endswith("t")  # conda-forge: the free-threaded CPython comes with python-freethreading
    base = (
        f"python={step.python.removesuffix('t')}",
        *(("python-freethreading",) if free else ()),
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
        note="conda-forge builds: the pytorch channel stopped at 2.5.1; which builds conda-forge has is not in the "
        "KB yet: `envplan kb update --conda-channel https://conda.anaconda.org/conda-forge` pins them exactly",
    )


def _learned(step: Step, pins: CondaPins, v: Variant) -> CondaEnv:
    channel = channel_name(pins.channel)
    specs = list(pins.specs)
    channels = [channel]
    if pins.torch.build.startswith(("cuda", "cpu")):  # conda-forge: cuda-version selects the CUDA runtime
        if v.cuda is not None:
            specs.append(f"cuda-version={v.cuda.major}.{v.cuda.minor}")
    elif v.cuda is not None:  # the pytorch channel's way: the pytorch-cuda metapackage, from nvidia
        specs.append(f"pytorch-cuda={v.cuda.major}.{v.cuda.minor}")
        channels.append(channel.rsplit("/", 1)[0] + "/nvidia" if "://" in channel else "nvidia")
    else:
        specs.append("cpuonly")
    said = [f"exact builds from {channel}, learned on {pins.torch.source.rsplit(' on ', 1)[-1]}"]
    if pins.lacking:
        said.append(f"pip installs {', '.join(p.split('==')[0] for p in pins.lacking)}: the channel has no build")
    if pins.cuda_note:
        said.append(pins.cuda_note)
    return CondaEnv(
        channels=tuple(channels),
        specs=tuple(specs),
        pip=pins.lacking + step.requirements,
        note="; ".join(said),
        pip_index=step.pytorch_index if any("+" in p for p in pins.lacking) else "",
        conda_extensions=pins.extensions,
    )


def render_environment_yml(step: Step, kb: KB, subdir: str = "linux-64") -> str:
    env = conda_env(step, kb, subdir)
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
        index = [f"--extra-index-url {env.pip_index}"] if env.pip_index else []
        lines += ["  - pip", "  - pip:", *[f"    - {yaml_scalar(r)}" for r in (*index, *env.pip)]]  # profile text
    built = [e.name for e in step.extensions if e.name not in env.conda_extensions]
    if env.conda_extensions and built:
        lines.append(f"# {', '.join(built)}: not on the channel, built by build.sh")
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
