"""What a backend is asked to lock, and what it returns. Plain data."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field

from envplan.fastio import sha256_hex
from envplan.kb.variants import TORCH_FAMILY

__all__ = ["FAMILY_NAMES", "Lock", "LockRequest", "LockedPackage", "is_family", "json_digest"]

# Names that usually belong to a PyTorch build. A heuristic for reading other people's files (init --from),
# never for provenance: which index a locked package comes from is discovered (resolve/closure.py).
FAMILY_NAMES = frozenset({*TORCH_FAMILY, "triton", "pytorch-triton", "pytorch-triton-rocm", "pytorch-triton-xpu"})
_FAMILY_PREFIXES = ("nvidia-", "cuda-")  # the variant's CUDA runtime wheels
_SEPARATORS = re.compile(r"[-_.]+")


def json_digest(data: object) -> str:
    """The sha256 of `data` as canonical JSON: what a request (and so its lock) is identified by."""
    return sha256_hex(json.dumps(data, sort_keys=True).encode())


def is_family(name: str) -> bool:
    n = _SEPARATORS.sub("-", name).lower()
    return n in FAMILY_NAMES or n.startswith(_FAMILY_PREFIXES)


@dataclass(frozen=True, kw_only=True, slots=True)
class LockRequest:
    """One environment to lock: exact torch-family pins, other requirements, and the indexes each may use."""

    name: str  # the step (or profile) name, for messages
    python: str  # "3.10"
    platform: str  # uv's --python-platform, e.g. "x86_64-manylinux_2_28"
    family: tuple[str, ...]  # "torch==2.1.2+cu118" ...: exact pins, from `pytorch_index` when set
    requirements: tuple[str, ...]  # other PEP 508 requirements, from `pypi_index` only
    pypi_index: str
    pytorch_index: str = ""  # "" when the torch family comes from PyPI (its default build)
    label: str = ""  # the local label every torch-family pin from the PyTorch index must carry

    @property
    def python_minor(self) -> str:
        """ "3.13" for "3.13t": resolvers take the version; the free-threaded ABI is the lock's own concern."""
        return self.python.removesuffix("t")

    @property
    def free_threaded(self) -> bool:
        return self.python.endswith("t")

    def digest(self) -> str:
        return json_digest(asdict(self))

    def content_digest(self) -> str:
        """The digest of what is resolved, whatever the step is called: identical steps share one lock."""
        content = {k: v for k, v in asdict(self).items() if k != "name"}
        return json_digest(content)


@dataclass(frozen=True, kw_only=True, slots=True)
class LockedPackage:
    name: str
    version: str
    hashes: tuple[str, ...]  # "sha256:..."
    index: str = ""  # the index URL it came from, when the backend says


@dataclass(frozen=True, kw_only=True, slots=True)
class Lock:
    """The locked files of one request, and the packages in them."""

    request: LockRequest
    backend: str  # "uv 0.13.9", "pip-tools 7.6.2"
    packages: tuple[LockedPackage, ...]
    files: dict[str, str] = field(default_factory=dict)  # {"requirements.txt": text, "pylock.toml": text}
    # canonical names that must come from the PyTorch index: the pins and what they resolved to from there
    pytorch_names: frozenset[str] = frozenset()
