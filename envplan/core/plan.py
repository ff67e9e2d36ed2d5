"""The plan as data: steps of pinned packages, each with the reasons for it. Frozen, no behaviour."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from packaging.version import Version

from envplan.kb.model import Release

__all__ = ["Blocker", "ExtensionBuild", "Kind", "LockState", "Pin", "Plan", "Step"]

Kind = Literal["baseline", "python", "torch", "companions", "extensions", "packages"]


@dataclass(frozen=True, slots=True)
class Build:
    """A torch release in one variant: what a step installs."""

    release: Release
    variant: str

    def __str__(self) -> str:
        return f"{self.release.torch}+{self.variant}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Pin:
    """An exact package version, the build label it reports at runtime, and the one index it may come from."""

    name: str
    version: Version
    label: str = ""  # "cu118", "cpu"; "" when the build carries none (macOS)
    index: Literal["pytorch", "pypi"]

    @property
    def identity(self) -> str:
        """What `pkg.__version__` reports: 2.1.2+cu118."""
        return f"{self.version}+{self.label}" if self.label else str(self.version)

    @property
    def requirement(self) -> str:
        """The pin as a requirement line: the PyTorch index names builds by label, PyPI does not."""
        if self.index == "pytorch" and self.label:
            return f"{self.name}=={self.version}+{self.label}"
        return f"{self.name}=={self.version}"


@dataclass(frozen=True, kw_only=True, slots=True)
class ExtensionBuild:
    """A compiled extension in a step: built from source against the step's torch."""

    name: str
    version: Version | None
    method: str = "source"  # "source" | "wheel-url" | "wheel-index" | "find-links"
    spec: str = ""  # what pip installs: name==version, a URL, or a source spec
    index: str = ""  # the index or find-links page a prebuilt wheel comes from
    import_name: str = ""
    build_env: Mapping[str, str] = field(default_factory=dict)
    toolkit: str = ""  # the CUDA toolkit version the build needs ("" for CPU builds and wheels)
    toolkit_ok: bool = True  # the profile's nvcc can do it
    toolkit_match: str = "major"  # "major.minor" when nvcc must equal torch's CUDA exactly (apex)
    cuda_home: str = ""  # the profile's CUDA toolkit folder (machine.cuda-toolkit), tried after $CUDA_HOME
    needs: tuple[str, ...] = ()  # what it imports at run time (build.sh installs it with --no-deps): locked
    build_needs: tuple[str, ...] = ()  # what a source build imports (--no-build-isolation): locked too
    memory_gb_per_job: float = 2.0  # sizes MAX_JOBS in build.sh
    reasons: tuple[str, ...] = ()
    warning: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Step:
    name: str
    kind: Kind
    release: Release
    variant: str
    python: str
    pins: tuple[Pin, ...]
    requirements: tuple[str, ...] = ()  # the profile's other packages, PEP 508
    extensions: tuple[ExtensionBuild, ...] = ()
    pytorch_index: str = ""  # "" when nothing comes from the PyTorch index
    pypi_index: str
    reasons: tuple[str, ...] = ()

    @property
    def packages(self) -> dict[str, str]:
        return {p.name: p.identity for p in self.pins}

    @property
    def build_env(self) -> dict[str, str]:
        env: dict[str, str] = {}
        for ext in self.extensions:
            env.update(ext.build_env)
        return env


@dataclass(frozen=True, kw_only=True, slots=True)
class Blocker:
    ref: str
    message: str
    fix: str
    needs: Mapping[str, str] = field(default_factory=dict)  # what unblocks it, as values: {"driver": "570.26"}


@dataclass(frozen=True, kw_only=True, slots=True)
class Plan:
    profile_name: str
    source: Release
    source_variant: str
    target: Release
    status: Literal["ok", "blocked", "current"]  # current: the stack already is the target
    steps: tuple[Step, ...] = ()
    blockers: tuple[Blocker, ...] = ()
    warnings: tuple[str, ...] = ()
    gpus: tuple[str, ...] = ()  # the machine's GPUs as "name (sm_XY)", for what-to-test lists
    machine: tuple[tuple[str, str], ...] = ()  # the profile's machine facts, for ENVIRONMENT.md
    conda_subdir: str = "linux-64"  # the machine's conda platform, for each step's environment.yml

    @property
    def final(self) -> Step | None:
        return self.steps[-1] if self.steps else None


@dataclass(frozen=True, kw_only=True, slots=True)
class LockState:
    """Whether a plan's steps are locked, and how they are (or are to be) locked: what `upgrade` was asked,
    so that `envplan lock PLAN_DIR` can lock a --no-lock plan later the same way."""

    locked: bool = False
    backend: str = "uv"  # "uv" | "pip-tools"
    conda: str = ""  # "" | "rattler" (--conda) | "conda-lock" (--conda-lock)
    python: str = ""  # the interpreter pip-tools runs under ("" for the default)
    pins: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # step -> "name==version" from its lock
