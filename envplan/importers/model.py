"""What a project file says, as plain data: one Dep per requirement it names, and the file-wide facts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from packaging.utils import canonicalize_name

__all__ = ["CONDA_TORCH", "Dep", "FileFacts", "canonical"]

CONDA_TORCH = {"pytorch": "torch", "pytorch-gpu": "torch", "pytorch-cpu": "torch"}  # conda names of torch


def canonical(name: str, manager: str = "pip") -> str:
    """The PyPI name: `pytorch` (conda) is torch; other names are normalized (`torch_scatter` = torch-scatter)."""
    n = str(canonicalize_name(name))
    return CONDA_TORCH.get(n, n) if manager == "conda" else n


@dataclass(frozen=True, kw_only=True, slots=True)
class Dep:
    """One requirement as a file states it."""

    name: str  # canonical PyPI name (conda's pytorch is "torch")
    where: str  # "requirements.txt:3", "environment.yml: dependencies[4]"
    manager: Literal["pip", "conda"] = "pip"
    text: str = ""  # as written, for messages
    requirement: str = ""  # PEP 508 form of a pip requirement ("" when not expressible)
    version: str = ""  # the exact version when the file pins one (local label included: 2.1.2+cu118)
    index: str = ""  # pip: the index URL this requirement is tied to (a per-line option, uv source, lock registry)
    url: str = ""  # a direct URL (wheel, git)
    marker: str = ""  # PEP 508 environment marker
    build: str = ""  # conda: the build string
    channel: str = ""  # conda: the channel it comes from
    locked: bool = False  # from a lock file: the exact file that was installed
    direct: bool = True  # asked for by the project (False: only pulled in by something else)
    optional: str = ""  # the extra or dependency group it belongs to ("" = always installed)

    @property
    def base_version(self) -> str:
        return self.version.partition("+")[0]

    @property
    def label(self) -> str:
        return self.version.partition("+")[2]


@dataclass(frozen=True, kw_only=True, slots=True)
class FileFacts:
    """Everything one file says about the environment."""

    path: str
    format: str  # requirements.txt | pyproject.toml | uv.lock | pylock.toml | environment.yml | conda-lock.yml
    deps: tuple[Dep, ...] = ()
    python: str = ""  # an exact X.Y, or a specifier such as ">=3.9" ("" when the file is silent)
    python_where: str = ""
    indexes: tuple[str, ...] = ()  # pip index URLs the whole file uses (--index-url, --extra-index-url, -f)
    default_index: str = ""  # a replacement for PyPI (--index-url that is not a PyTorch index, uv default index)
    channels: tuple[str, ...] = ()  # conda channels
    name: str = ""  # the project or environment name, when the file has one
    notes: tuple[str, ...] = ()
