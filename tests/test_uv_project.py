"""The uv project of a step, as text: every extension method becomes the source a uv user would write."""

from __future__ import annotations

from envplan import tomlread
from envplan.export.uv import render_uv_project, uv_project
from envplan.resolve.model import LockedPackage

PYTORCH = "https://download.pytorch.org/whl/cu121"
STEP = {
    "name": "03-extensions",
    "python": "3.10",
    "variant": "cu121",
    "packages": {"torch": "2.3.1+cu121", "torchvision": "0.18.1+cu121"},
    "requirements": ["numpy<2"],
    "indexes": {"pytorch": PYTORCH, "pypi": "https://pypi.org/simple"},
    "build-env": {"TORCH_CUDA_ARCH_LIST": "8.0", "FLASH_ATTENTION_FORCE_BUILD": "TRUE"},
    "extensions": [
        {"name": "flash-attn", "version": "2.5.8", "method": "source", "spec": "flash-attn==2.5.8", "index": None},
        {
            "name": "xformers",
            "version": "0.0.27",
            "method": "wheel-index",
            "spec": "xformers==0.0.27",
            "index": PYTORCH,
        },
        {
            "name": "torch-scatter",
            "version": None,
            "method": "find-links",
            "spec": "torch-scatter",
            "index": "https://data.pyg.org/whl/torch-2.3.0+cu121.html",
        },
        {"name": "apex", "version": None, "method": "source", "spec": "git+https://github.com/NVIDIA/apex@24.04.01"},
    ],
}
LOCKED = (
    LockedPackage(name="torch", version="2.3.1+cu121", hashes=(), index=PYTORCH),
    LockedPackage(name="nvidia-cudnn-cu12", version="8.9.2.26", hashes=(), index=PYTORCH),
    LockedPackage(name="numpy", version="1.26.4", hashes=(), index="https://pypi.org/simple"),
)


def project() -> dict:
    text = render_uv_project(uv_project(STEP, {"profile": "h100"}, LOCKED, ("linux", "x86_64")))["pyproject.toml"]
    return tomlread.loads(text)


def test_each_extension_gets_the_source_its_method_needs() -> None:
    uv = project()["tool"]["uv"]
    assert uv["sources"]["xformers"] == {"index": "pytorch"}
    assert uv["sources"]["torch-scatter"] == {"index": "torch-scatter-wheels"}
    flat = next(i for i in uv["index"] if i["name"] == "torch-scatter-wheels")
    assert flat == {
        "name": "torch-scatter-wheels",
        "url": STEP["extensions"][2]["index"],
        "format": "flat",
        "explicit": True,
    }
    assert uv["sources"]["apex"] == {"git": "https://github.com/NVIDIA/apex", "rev": "24.04.01"}


def test_source_builds_compile_against_the_installed_torch() -> None:
    uv = project()["tool"]["uv"]
    assert uv["extra-build-dependencies"]["flash-attn"] == [{"requirement": "torch", "match-runtime": True}]
    assert uv["extra-build-variables"]["flash-attn"]["FLASH_ATTENTION_FORCE_BUILD"] == "TRUE"
    assert "apex" in uv["extra-build-dependencies"]


def test_the_family_and_the_cuda_wheels_are_tied_to_the_pytorch_index() -> None:
    data = project()
    sources = data["tool"]["uv"]["sources"]
    assert sources["torch"] == sources["nvidia-cudnn-cu12"] == {"index": "pytorch"}
    assert "numpy" not in sources
    assert data["project"]["dependencies"][:3] == [
        "torch==2.3.1+cu121",
        "torchvision==0.18.1+cu121",
        "nvidia-cudnn-cu12",
    ]
    assert data["tool"]["uv"]["constraint-dependencies"] == [
        "torch==2.3.1+cu121",
        "nvidia-cudnn-cu12==8.9.2.26",
        "numpy==1.26.4",
    ]
    assert data["tool"]["uv"]["environments"] == ["sys_platform == 'linux' and platform_machine == 'x86_64'"]
    assert not any(i["name"] == "pypi" for i in data["tool"]["uv"]["index"])  # PyPI itself needs no entry
