"""A real CUDA extension (one kernel, tests/data/cudaext) compiled by this machine's nvcc against torch 2.14.1 (the
CUDA 13.0 build PyPI serves, with its nvidia-* runtime wheels): `nox -s cuda`. No GPU is needed to compile, link,
import or check it. Built once per run (a few minutes) and shared by the tests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from helpers import ROOT, run

pytestmark = pytest.mark.cuda
SOURCE = ROOT / "tests" / "data" / "cudaext"


def _cuda_torch() -> bool:
    code = "import sys, torch; sys.exit(0 if torch.version.cuda else 1)"
    have = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False).returncode == 0
    return have and (Path(os.environ.get("CUDA_HOME", "/nonexistent")) / "bin" / "nvcc").exists()


needs_cuda = pytest.mark.skipif(
    not _cuda_torch() and not os.environ.get("ENVPLAN_REQUIRE_CUDA"),
    reason="needs a CUDA build of torch and CUDA_HOME with nvcc (nox -s cuda sets both up)",
)


def _build_env() -> dict[str, str]:
    return {**os.environ, "TORCH_CUDA_ARCH_LIST": "8.0", "MAX_JOBS": "2"}


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The extension built into a wheel and installed into this environment: the path of its .so."""
    src = tmp_path_factory.mktemp("cudaext")
    shutil.copytree(SOURCE, src, dirs_exist_ok=True)
    dist = tmp_path_factory.mktemp("dist")
    pip = [sys.executable, "-m", "pip"]
    built = subprocess.run(
        [*pip, "wheel", "--no-build-isolation", "--no-deps", "-w", str(dist), str(src)],
        env=_build_env(),
        capture_output=True,
        text=True,
        timeout=2400,
        check=False,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-3000:]
    wheel = next(dist.glob("addone_cuda-*.whl"))
    subprocess.run([*pip, "install", "--no-deps", "--force-reinstall", str(wheel)], check=True, capture_output=True)
    where = subprocess.run(
        [sys.executable, "-c", "import importlib.util as u; print(u.find_spec('addone_cuda').origin)"],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(where.stdout.strip())


def _imports(module: str, directory: Path | None = None) -> subprocess.CompletedProcess[str]:
    path = f"import sys; sys.path.insert(0, {str(directory)!r}); " if directory else ""
    return subprocess.run(
        [sys.executable, "-c", f"{path}import torch, {module}"], capture_output=True, text=True, check=False
    )


def _abi_check(*targets: str) -> tuple[int, list[dict]]:
    result = run("abi-check", "--python", sys.executable, "--json", *targets)
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, json.loads(result.stdout)["extensions"]


@needs_cuda
def test_a_real_cuda_extension_loads_and_abi_check_agrees(installed: Path) -> None:
    dynamic = subprocess.run(["readelf", "-d", str(installed)], capture_output=True, text=True, check=True).stdout
    assert "libcudart.so.13" in dynamic, "linked to the CUDA 13 runtime, without an RPATH to it"
    assert _imports("addone_cuda").returncode == 0, "the ground truth: it imports"
    code, (report,) = _abi_check("addone-cuda")
    assert code == 0 and report["ok"], report
    assert report["missing"] == [] and report["cuda-problem"] is None and report["missing-libraries"] == []


@needs_cuda
def test_a_copy_linked_to_another_cuda_runtime_is_flagged(installed: Path, tmp_path: Path) -> None:
    copy = tmp_path / installed.name
    shutil.copy2(installed, copy)
    subprocess.run(["patchelf", "--replace-needed", "libcudart.so.13", "libcudart.so.12", str(copy)], check=True)
    failed = _imports("addone_cuda", tmp_path)
    assert failed.returncode != 0 and "libcudart.so.12" in failed.stderr, "the ground truth: it does not import"
    code, (report,) = _abi_check(str(copy))
    assert code == 1 and not report["ok"]
    assert report["cuda-problem"] == "links the CUDA 12 runtime (libcudart.so.12) but torch uses CUDA 13"
    assert report["missing-libraries"] == ["libcudart.so.12"]


@needs_cuda
def test_doctor_reports_no_false_problem_for_it(installed: Path) -> None:
    result = run("doctor", "--python", sys.executable, "--json")
    findings = json.loads(result.stdout)["findings"]
    about_extensions = [f for f in findings if f["ref"] in ("extension-abi", "multiple-cuda-runtimes")]
    assert about_extensions == [], about_extensions
    assert not [f for f in findings if f["severity"] == "error"], findings


def test_a_text_file_is_not_a_shared_object(tmp_path: Path) -> None:
    text = tmp_path / "notes.so"
    text.write_text("not an ELF file\n")
    result = run("abi-check", "--python", sys.executable, str(text))
    assert result.returncode == 2
    assert result.stderr.strip().endswith(
        "not an ELF shared object, so nothing a Python extension could load (give the compiled extension's .so "
        "file, or the name of an installed package)"
    )


def _pypi_answers() -> bool:
    try:
        with urllib.request.urlopen("https://pypi.org/simple/torch/", timeout=10):
            return True
    except OSError:
        return False


PROFILE = """\
schema = 1
name = "cuda-ext"

[machine]
glibc = "2.36"
compute-capability = ["8.0"]  # one architecture keeps the build short; no GPU is needed to compile
driver = "580.65.06"
cuda-toolkit = "13.0"

[python]
version = "{python}"

[stack]
torch = "2.13.0"
variant = "cu130"

[[extensions]]
name = "addone-cuda"
"""


@needs_cuda
@pytest.mark.network
def test_a_plans_build_sh_builds_it_and_verify_imports_it(tmp_path: Path) -> None:
    """The whole flow on real tools: plan 2.13.0 -> 2.14.1 (locked from PyPI), then `envplan verify` installs the
    extension step's lock in a fresh environment, runs its build.sh (nvcc found by the profile's toolkit) on the
    extension's source, and imports it."""
    if not _pypi_answers():
        pytest.skip("PyPI does not answer: the plan is locked from PyPI (the PyTorch index is not reachable here)")
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    (tmp_path / "envplan.toml").write_text(PROFILE.format(python=python))
    planned = run("upgrade", "--to", "2.14.1", "--out", "plan", cwd=tmp_path)
    assert planned.returncode == 0, planned.stdout + planned.stderr
    step = tmp_path / "plan" / "02-extensions"
    build_sh = (step / "build.sh").read_text()
    assert "profile_cuda=/usr/local/cuda-13.0" in build_sh and "ADDONE_CUDA_SRC" in build_sh
    src = tmp_path / "src"
    shutil.copytree(SOURCE, src)
    env = {**_build_env(), "ADDONE_CUDA_SRC": str(src)}
    env.pop("CUDA_HOME", None)  # build.sh must find the toolkit itself (the profile's, else nvcc on PATH)
    envs = tmp_path / "envs"  # verify's step environments (removed once a step passes, unless --keep-envs)
    env["ENVPLAN_VERIFY_ENVS"] = str(envs)
    args = ("verify", "plan", "--step", "02-extensions", "--keep-envs", "--json")
    verified = run(*args, cwd=tmp_path, env=env, timeout=3600)
    assert verified.returncode == 0, verified.stdout[-3000:] + verified.stderr[-3000:]
    results = json.loads((step / "verify.json").read_text())["results"]
    assert any(r["check"] == "extension addone-cuda imports" and r["status"] == "ok" for r in results), results
    record = json.loads(next(envs.rglob("envplan-build.json")).read_text())  # what build.sh recorded
    assert record["built-against"]["torch"] == "2.14.1+cu130"
