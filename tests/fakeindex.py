"""Small fake wheels with real metadata, served as PEP 503 simple indexes (file:// and http://127.0.0.1).

`build_indexes(root)` makes two indexes, the way the world has them: a "PyTorch" one (torch, torchvision,
torchaudio, triton builds per variant, each wheel labelled +cuXYZ / +cpu) and a "PyPI" one (plain packages,
PyPI's default torch build without a label, and the traps: a higher-versioned `torch` and a `torchtriton`
that a lock must never take from there).
"""

from __future__ import annotations

import base64
import hashlib
import html
import http.server
import io
import os
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from packaging.utils import canonicalize_name


@dataclass(frozen=True)
class FakeDist:
    name: str
    version: str
    requires: tuple[str, ...] = ()
    requires_python: str = ">=3.8"
    tag: str = "py3-none-any"
    extra_files: dict[str, str] = field(default_factory=dict)

    @property
    def filename(self) -> str:
        return f"{self.name.replace('-', '_')}-{self.version}-{self.tag}.whl"


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _metadata(dist: FakeDist) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {dist.name}",
        f"Version: {dist.version}",
        f"Requires-Python: {dist.requires_python}",
        *[f"Requires-Dist: {r}" for r in dist.requires],
    ]
    return "\n".join(lines) + "\n"


def build_wheel(dist: FakeDist) -> bytes:
    module = dist.name.replace("-", "_")
    info = f"{module}-{dist.version}.dist-info"
    files = {
        f"{module}/__init__.py": f'__version__ = "{dist.version}"\n',
        **dist.extra_files,
        f"{info}/METADATA": _metadata(dist),
        f"{info}/WHEEL": f"Wheel-Version: 1.0\nGenerator: envplan-tests\nRoot-Is-Purelib: true\nTag: {dist.tag}\n",
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        record = []
        for path, text in files.items():
            data = text.encode()
            zf.writestr(zipfile.ZipInfo(path, (2024, 1, 1, 0, 0, 0)), data)
            record.append(_record_line(path, data))
        record.append(f"{info}/RECORD,,")
        zf.writestr(zipfile.ZipInfo(f"{info}/RECORD", (2024, 1, 1, 0, 0, 0)), "\n".join(record) + "\n")
    return buf.getvalue()


def write_index(simple: Path, files: Path, dists: list[FakeDist], *, metadata: bool = False) -> Path:
    """A PEP 503 index: project pages under `simple`, wheels in `files`; with `metadata`, PEP 658 sidecars
    (`<wheel>.metadata`) advertised by data-core-metadata. Returns `simple`."""
    files.mkdir(parents=True, exist_ok=True)
    projects: dict[str, list[tuple[str, str, str]]] = {}
    for dist in dists:
        data = build_wheel(dist)
        (files / dist.filename).write_bytes(data)
        if metadata:
            (files / f"{dist.filename}.metadata").write_text(_metadata(dist))
        sha = hashlib.sha256(data).hexdigest()
        projects.setdefault(canonicalize_name(dist.name), []).append((dist.filename, sha, dist.requires_python))
    for project, entries in projects.items():
        page = simple / project
        page.mkdir(parents=True, exist_ok=True)
        rel = Path(os.path.relpath(files, page)).as_posix()
        meta = ' data-core-metadata="true"' if metadata else ""
        links = [
            f'<a href="{rel}/{html.escape(fn)}#sha256={sha}" data-requires-python="{html.escape(rp)}"{meta}>'
            f"{html.escape(fn)}</a><br>"
            for fn, sha, rp in entries
        ]
        (page / "index.html").write_text("<!DOCTYPE html><html><body>\n" + "\n".join(links) + "\n</body></html>\n")
    index = [f'<a href="{p}/">{p}</a><br>' for p in sorted(projects)]
    (simple / "index.html").write_text("<!DOCTYPE html><html><body>\n" + "\n".join(index) + "\n</body></html>\n")
    return simple


def _torch_family(version: str, vision: str, audio: str, triton: str, label: str) -> list[FakeDist]:
    lv = f"+{label}"
    torch_requires = ["filelock", "typing-extensions"]
    if label.startswith("cu"):
        torch_requires.append(f'triton=={triton}; platform_system == "Linux" and platform_machine == "x86_64"')
    return [
        FakeDist("torch", version + lv, tuple(torch_requires)),
        FakeDist("torchvision", vision + lv, (f"torch=={version}", "numpy", "pillow")),
        FakeDist("torchaudio", audio + lv, (f"torch=={version}",)),
    ]


PYTORCH_RELEASES = [("2.0.1", "0.15.2", "2.0.2", "2.0.0"), ("2.1.2", "0.16.2", "2.1.2", "2.1.0")]


def pytorch_dists(variants: tuple[str, ...] = ("cu118", "cu121", "cpu")) -> dict[str, list[FakeDist]]:
    """One index per variant, as download.pytorch.org/whl/<variant> has them."""
    out: dict[str, list[FakeDist]] = {}
    for variant in variants:
        dists = []
        for torch, vision, audio, triton in PYTORCH_RELEASES:
            dists += _torch_family(torch, vision, audio, triton, variant)
        if variant.startswith("cu"):
            dists += [FakeDist("triton", t, ("filelock",)) for *_, t in PYTORCH_RELEASES]
        # the PyTorch index mirrors some PyPI packages too; a lock must still take those from PyPI, and
        # einops 0.7.0 here is a different file from PyPI's (the same version, another hash)
        dists.append(FakeDist("numpy", "1.26.0"))
        dists.append(FakeDist("einops", "0.7.0", extra_files={"einops/_mirror.py": "MIRROR = True\n"}))
        dists += [FakeDist("filelock", "3.13.1"), FakeDist("typing-extensions", "4.9.0")]
        out[variant] = dists
    return out


def pypi_dists() -> list[FakeDist]:
    return [
        FakeDist("numpy", "1.26.4"),
        FakeDist("numpy", "2.1.0"),
        FakeDist("pillow", "10.2.0"),
        FakeDist("einops", "0.7.0"),
        FakeDist("filelock", "3.13.1"),
        FakeDist("typing-extensions", "4.9.0"),
        FakeDist("timm", "0.9.12", ("torch", "torchvision")),
        # what a source build of a compiled extension imports under --no-build-isolation (locked with its step)
        FakeDist("ninja", "1.11.1.1"),
        FakeDist("packaging", "24.0"),
        FakeDist("setuptools", "69.0.3"),
        FakeDist("wheel", "0.42.0"),
        # PyPI's default torch build (CUDA 12.1 for 2.1.x) carries no local label
        FakeDist("torch", "2.1.2", ("filelock", "typing-extensions", "nvidia-cuda-runtime-cu12==12.1.105")),
        FakeDist("torchvision", "0.16.2", ("torch==2.1.2", "numpy", "pillow")),
        FakeDist("nvidia-cuda-runtime-cu12", "12.1.105"),
        # the traps: dependency confusion must never pick these up
        FakeDist("torch", "9.9.9", ("torchtriton",)),
        FakeDist("torchtriton", "9.9.9"),
        FakeDist("pytorch-triton", "9.9.9"),
        FakeDist("triton", "9.9.9"),
    ]


@dataclass(frozen=True)
class FakeIndexes:
    root: Path
    pypi: str  # simple index URL
    pytorch: str  # base URL; the variant is appended


def build_indexes(root: Path) -> tuple[Path, Path]:
    """(the PyPI simple dir, the PyTorch base dir whose <variant>/ subdirectories are simple indexes)."""
    pypi = write_index(root / "pypi" / "simple", root / "pypi" / "files", pypi_dists())
    for variant, dists in pytorch_dists().items():
        write_index(root / "pytorch" / variant, root / "pytorch-files" / variant, dists)
    return pypi, root / "pytorch"


def file_indexes(root: Path) -> FakeIndexes:
    pypi, pytorch = build_indexes(root)
    return FakeIndexes(root=root, pypi=pypi.as_uri(), pytorch=pytorch.as_uri())


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serve(root: Path) -> Iterator[str]:
    """Serve `root` on 127.0.0.1 (a free port) for the duration; yields the base URL."""

    def handler(*args: object, **kwargs: object) -> _Quiet:
        return _Quiet(*args, directory=str(root), **kwargs)  # type: ignore[arg-type]

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)  # type: ignore[arg-type]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def new_release_dists(
    torch: str = "2.15.0",
    vision: str = "0.30.0",
    audio: str = "2.15.0",
    variants: tuple[str, ...] = ("cpu", "cu126", "cu130"),
) -> list[FakeDist]:
    """A torch release the embedded KB has never seen, as the PyTorch index's all-variant pages list it."""
    pythons = [
        "cp310-cp310",
        "cp311-cp311",
        "cp312-cp312",
        "cp313-cp313",
        "cp314-cp314",
        "cp314-cp314t",
    ]  # free-threaded: the ABI tag carries the t, as on the real index
    out = []
    for variant in variants:
        for py in pythons:
            tag = f"{py}-manylinux_2_28_x86_64"
            out.append(FakeDist("torch", f"{torch}+{variant}", ("filelock",), tag=tag))
            out.append(FakeDist("torchvision", f"{vision}+{variant}", (f"torch=={torch}",), tag=tag))
            out.append(FakeDist("torchaudio", f"{audio}+{variant}", (f"torch=={torch}",), tag=tag))
    return out


# --- a hostile pair of indexes: what dependency confusion looks like -------------------------------------

# What a torch 2.5.1+cu121 build pulls in from its PyTorch index (as the real one does: triton, the CUDA wheels),
# plus the names the PyTorch index has used for triton over time (torchtriton was the one attacked on PyPI).
BUILD_COMPANIONS = {
    "triton": "3.1.0",
    "pytorch-triton": "3.1.0",
    "torchtriton": "3.1.0",
    "nvidia-cudnn-cu12": "9.1.0.70",
    "nvidia-cuda-runtime-cu12": "12.1.105",
}


def hostile_dists(*, exact: bool) -> tuple[list[FakeDist], list[FakeDist]]:
    """(PyTorch index cu121, "PyPI"): torch needs its build companions loosely (no version, as nightly builds
    and many derived indexes do) or exactly; on "PyPI" an attacker uploaded every one of those names at a higher
    version (9.9.9, or 99.0 for the nvidia ones), and a higher torch/torchvision."""
    needs = [f"{n}=={v}" if exact else n for n, v in BUILD_COMPANIONS.items()]
    pytorch = [
        FakeDist("torch", "2.5.1+cu121", (*needs, "filelock", "typing-extensions")),
        FakeDist("torchvision", "0.20.1+cu121", ("torch==2.5.1", "numpy", "pillow")),
        *[FakeDist(name, version) for name, version in BUILD_COMPANIONS.items()],
        # what the real index mirrors for torch's own dependencies
        FakeDist("filelock", "3.13.1"),
        FakeDist("typing-extensions", "4.9.0"),
        FakeDist("numpy", "1.26.0"),
        FakeDist("pillow", "10.2.0"),
    ]
    attacker = [FakeDist(n, "99.0" if n.startswith("nvidia-") else "9.9.9") for n in BUILD_COMPANIONS]
    pypi = [
        FakeDist("numpy", "1.26.4"),
        FakeDist("pillow", "10.2.0"),
        FakeDist("filelock", "3.13.1"),
        FakeDist("typing-extensions", "4.9.0"),
        FakeDist("einops", "0.7.0"),
        FakeDist("torch", "9.9.9"),
        FakeDist("torchvision", "9.9.9", ("torch",)),
        *attacker,
    ]
    return pytorch, pypi


def hostile_indexes(root: Path, *, exact: bool) -> FakeIndexes:
    """The pair on disk: `pytorch` is the base URL (its cu121/ is the variant's index)."""
    pytorch, pypi = hostile_dists(exact=exact)
    write_index(root / "pytorch" / "cu121", root / "pytorch-files" / "cu121", pytorch)
    write_index(root / "pypi" / "simple", root / "pypi" / "files", pypi)
    return FakeIndexes(root=root, pypi=(root / "pypi" / "simple").as_uri(), pytorch=(root / "pytorch").as_uri())
