from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from envplan.kb import KB, load_kb

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
VENDORED_REFERENCE = ROOT / "tests" / "data" / "pytorch-matrix.toml"
SHARED_REFERENCE = ROOT.parent / "shared" / "reference" / "pytorch-matrix.toml"


@pytest.fixture(scope="session")
def kb() -> KB:
    return load_kb()


@pytest.fixture(scope="session")
def reference() -> dict:
    """The reference facts: shared/reference when beside the checkout, else the vendored copy."""
    path = SHARED_REFERENCE if SHARED_REFERENCE.exists() else VENDORED_REFERENCE
    with path.open("rb") as f:
        return tomllib.load(f)


SEED = """\
schema = 1
name = "a100-train"

[machine]
os = "linux"
arch = "x86_64"
glibc = "2.31"
gpus = ["A100"]
driver = "535.104.05"
cuda-toolkit = "11.8"

[python]
version = "3.10"

[stack]
torch = "2.0.1"
variant = "cu118"
torchvision = "0.15.2"
torchaudio = "2.0.2"
packages = ["numpy<2"]

[[extensions]]
name = "causal-conv1d"
version = "1.0.0"
"""


def edit(text: str, old: str, new: str) -> str:
    """Replace exactly one occurrence: a test's edit that silently does nothing would prove nothing."""
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
    return text.replace(old, new)


@pytest.fixture
def write_profile(tmp_path: Path):
    def write(text: str, name: str = "p.toml") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    return write
