"""The seed case for real (`nox -s seed`, opt-in: about 45 minutes on 2 cores): causal-conv1d's release source
(../shared/fixtures/, made with `git archive` at v1.6.1.post4, because its PyPI sdists carry no csrc/ and this
machine cannot reach GitHub) built through a plan's own build.sh against torch 2.14.1 with this machine's nvcc,
then imported and checked by abi-check. The measured time goes into benchmarks/RESULTS.md."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from helpers import ROOT, run

pytestmark = pytest.mark.seed
FIXTURE = ROOT.parent / "shared" / "fixtures" / "causal-conv1d-v1.6.1.post4.tar.gz"
RESULTS = ROOT / "benchmarks" / "RESULTS.md"

PROFILE = """\
schema = 1
name = "seed"

[machine]
glibc = "2.36"
gpus = ["A100"]
driver = "580.65.06"
cuda-toolkit = "13.0"

[python]
version = "{python}"

[stack]
torch = "2.13.0"
variant = "cu130"

[[extensions]]
name = "causal-conv1d"
version = "1.6.1.post4"
pin = true
"""


def _record(seconds: float, archs: str) -> None:
    section = (
        "<!-- seed:start -->\n## The seed case, built for real (`nox -s seed`)\n\n"
        f"causal-conv1d 1.6.1.post4 from its release source, through the plan's build.sh, against torch 2.14.1+cu130 "
        f"with nvcc 13.0 on {os.cpu_count()} CPUs: **{seconds / 60:.1f} min** (architectures its setup.py compiled: "
        f"{archs}). Measured {time.strftime('%Y-%m-%d')}.\n<!-- seed:end -->\n"
    )
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    text = re.sub(r"<!-- seed:start -->.*?<!-- seed:end -->\n", "", text, flags=re.S)
    RESULTS.write_text(text.rstrip("\n") + "\n\n" + section, encoding="utf-8")


def test_causal_conv1d_builds_from_its_release_source_through_build_sh(tmp_path: Path) -> None:
    if not FIXTURE.exists():
        pytest.skip(f"the release source is not beside this checkout ({FIXTURE}): see shared/fixtures/README.md")
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    (tmp_path / "envplan.toml").write_text(PROFILE.format(python=python))
    planned = run("upgrade", "--to", "2.14.1", "--no-lock", "--out", "plan", cwd=tmp_path)
    assert planned.returncode == 0, planned.stdout + planned.stderr
    step = next(p for p in (tmp_path / "plan").iterdir() if p.name.endswith("-extensions"))
    doc = json.loads((tmp_path / "plan" / "plan.json").read_text())
    (ext,) = doc["steps"][-1]["extensions"]
    assert ext["method"] == "source" and ext["spec"].endswith("@9e4ace0b1d53ede275308abf25f64a1fc04c5fd4")
    src = tmp_path / "src"
    with tarfile.open(FIXTURE) as tar:
        tar.extractall(src, filter="data")
    root = next(p for p in src.iterdir() if (p / "setup.py").exists())
    env = {**os.environ, "PYTHON": sys.executable, "CAUSAL_CONV1D_SRC": str(root)}
    started = time.monotonic()
    built = subprocess.run(
        ["bash", str(step / "build.sh")], env=env, capture_output=True, text=True, timeout=4 * 3600, check=False
    )
    seconds = time.monotonic() - started
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    assert "CUDA_HOME=" in built.stdout and "recorded torch 2.14.1+cu130" in built.stdout
    imported = subprocess.run([sys.executable, "-c", "import torch, causal_conv1d"], capture_output=True, check=False)
    assert imported.returncode == 0
    checked = run("abi-check", "--python", sys.executable, "--json", "causal-conv1d")
    report = json.loads(checked.stdout)["extensions"]
    assert checked.returncode == 0 and report and all(r["ok"] for r in report), report
    assert all(r["built-against"] == "2.14.1+cu130" for r in report)
    archs = ", ".join(sorted(set(re.findall(r"sm_\d+", built.stdout + built.stderr)))) or "see the build log"
    _record(seconds, archs)
