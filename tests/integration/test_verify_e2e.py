"""`envplan verify` end to end: a real nox session installs the real torch 2.13.0+cpu wheel from the plan's
hashed lock (a local "PyTorch index" built from that wheel, the machine's local PyPI mirror for the rest),
builds a tiny real extension with the step's build.sh, and passes envplan.verify.inenv; a wrong expectation fails."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from helpers import ROOT, run

WHEELS = Path(os.environ.get("ENVPLAN_E2E_WHEELS", "/opt/wheels"))
PYPI = os.environ.get("ENVPLAN_E2E_PYPI", "file:///opt/pypi/simple")
TORCH = next(iter(sorted(WHEELS.glob("torch-2.13.0+cpu-cp311-*.whl"))), None) if WHEELS.is_dir() else None
HAVE = TORCH is not None and Path(PYPI.removeprefix("file://"), "torch").parent.is_dir()

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not HAVE and not os.environ.get("ENVPLAN_REQUIRE_TORCH"),
        reason="needs the local torch 2.13.0+cpu wheel and PyPI mirror of this machine kind",
    ),
]


@pytest.fixture(scope="module")
def pytorch_index(tmp_path_factory: pytest.TempPathFactory) -> str:
    assert TORCH is not None, f"no torch 2.13.0+cpu wheel in {WHEELS}"
    root = tmp_path_factory.mktemp("pt")
    (root / "files").mkdir()
    (root / "files" / TORCH.name).symlink_to(TORCH)
    page = root / "cpu" / "torch"
    page.mkdir(parents=True)
    sha = hashlib.sha256(TORCH.read_bytes()).hexdigest()
    page.joinpath("index.html").write_text(f'<a href="../../files/{TORCH.name}#sha256={sha}">{TORCH.name}</a>\n')
    (root / "cpu" / "index.html").write_text('<a href="torch/">torch</a>\n')
    return root.as_uri()


def cpu_profile(pytorch: str, extension: bool) -> str:
    text = f"""schema = 1
name = "cpu-e2e"
[machine]
glibc = "2.36"
[python]
version = "3.11"
[stack]
torch = "2.13.0"
variant = "cpu"
[indexes]
pypi = "{PYPI}"
pytorch = "{pytorch}"
"""
    return text + ('[[extensions]]\nname = "envplan-tinyext"\n' if extension else "")


def plan(tmp_path: Path, pytorch: str, *, extension: bool) -> Path:
    (tmp_path / "envplan.toml").write_text(cpu_profile(pytorch, extension))
    result = run("upgrade", "--to", "2.13.0", "--out", "plan", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return tmp_path / "plan"


def test_a_cpu_plan_with_a_real_extension_verifies_green(
    tmp_path: Path, pytorch_index: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = plan(tmp_path, pytorch_index, extension=True)
    monkeypatch.setenv("ENVPLAN_TINYEXT_SRC", str(ROOT / "tests" / "data" / "tinyext"))
    result = run("verify", str(folder), "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    (step,) = json.loads(result.stdout)["steps"]
    assert step["name"] == "00-baseline" and step["result"] == "passed" and step["failed"] == []
    checks = {r["check"]: r for r in json.loads((folder / "00-baseline" / "verify.json").read_text())["results"]}
    assert checks["torch version"]["detail"] == "2.13.0+cpu"
    assert checks["extension envplan-tinyext imports"]["status"] == "ok"
    record = (folder / "00-baseline" / "ENVIRONMENT.md").read_text()
    assert "- result: passed" in record and "- torch: 2.13.0+cpu" in record
    assert json.loads((folder / "verify-report.json").read_text())["steps"][0]["result"] == "passed"


def test_a_wrong_expectation_fails_naming_expected_and_found(tmp_path: Path, pytorch_index: str) -> None:
    folder = plan(tmp_path, pytorch_index, extension=False)
    expect = json.loads((folder / "00-baseline" / "expect.json").read_text())
    expect["torch"] = "2.12.0+cpu"
    (folder / "00-baseline" / "expect.json").write_text(json.dumps(expect))
    result = run("verify", str(folder), cwd=tmp_path)
    assert result.returncode == 1
    assert "torch.__version__: expected 2.12.0+cpu, found 2.13.0+cpu" in result.stdout + result.stderr


def test_the_wheelhouse_of_a_real_cpu_step_installs_offline(tmp_path: Path, pytorch_index: str) -> None:
    import subprocess
    import sys

    folder = plan(tmp_path, pytorch_index, extension=False)
    result = run("export", "wheelhouse", str(folder), "--step", "00-baseline", "-o", "wh", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "wh" / TORCH.name).is_file()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull, "PYTHON": str(venv / "bin" / "python")}
    installed = subprocess.run(
        ["bash", str(tmp_path / "wh" / "install.sh")], capture_output=True, text=True, env=env, check=False
    )
    assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-2000:]
    assert "torch version: 2.13.0+cpu" in installed.stdout and "FAILED" not in installed.stdout
