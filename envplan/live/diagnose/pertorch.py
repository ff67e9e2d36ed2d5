"""Extensions that ship one native library per torch release (DGL's graphbolt, sparse and tensoradapter libraries):
the loader finds none for the installed torch, so that torch is not a release the installed extension was built for.
Or one wheel page per torch release (PyG's torch-scatter, torch-sparse and kin at data.pyg.org/whl/torch-X.html): the
page lists only the releases built for that torch, and pip finds none of the release pinned; or the page of another
torch than the one installed was given to pip, and what it installed was built for that torch."""

from __future__ import annotations

import re

from packaging.version import Version

from envplan.kb import KB

from .facts import torch_seen
from .model import Candidate, found
from .packages import PIP_FINDS_NONE, THEN_OFFERED
from .text import Text

__all__ = ["per_torch_library_missing"]

# DGL's own message, and the same said in a title ("can't find c++ library graphbolt")
_DGL_LIBRARY = re.compile(
    r"(?:can(?:no|')?t|unable\s+to|fail\w*\s+to)\s+(?:find|load)\s+(?:the\s+)?(?:DGL\s+)?(?:C\+\+\s+)?"
    r"(?:(?P<a>graphbolt|sparse)\s+(?:C\+\+\s+)?library|library\s+(?P<b>graphbolt|sparse))",
    re.IGNORECASE,
)
# the per-release file the loader looked for: libgraphbolt_pytorch_2.3.0.so, libdgl_sparse_pytorch_2.4.0.post301.so
# (on Windows without the "lib": graphbolt_pytorch_2.4.1.dll)
# (DGL before graphbolt: tensoradapter/pytorch/libtensoradapter_pytorch_1.10.1.so, pasted short as "pytorch.1.10.1.so")
_PER_RELEASE_FILE = re.compile(
    r"(?:lib)?(?P<lib>graphbolt|dgl_sparse|tensoradapter)_pytorch_(?P<v>\d+\.\d+\.\d+[\w.]*?)\.(?:so|dylib|dll)|"
    r"(?<![\w.])pytorch[._](?P<v2>\d+\.\d+\.\d+)\.(?:so|dylib|dll)"
)


# the per-release file itself named as what failed ("Failed to import graphbolt due to `libgraphbolt_pytorch_2.3.0...`")
# (or said absent: "There is no such file `graphbolt_pytorch_2.4.1.dll`")
_FILE_FAILING = re.compile(
    r"(?:fail\w*|unable|cannot|can't|error|no\s+such\s+file|not\s+found|missing)[^\n]{0,40}?(?:lib)?"
    r"(?:graphbolt|dgl_sparse|tensoradapter)_pytorch_\d|"
    r"(?<![\w.])pytorch[._]\d+\.\d+\.\d+\.(?:so|dylib|dll)[`'\"]?\s+(?:(?:is|was)\s+)?(?:not\s+found|missing)",
    re.IGNORECASE,
)
_DGL = re.compile(r"(?<![\w-])dgl(?![\w-])", re.IGNORECASE)
_NAMED_LIBRARY = re.compile(r"graphbolt|sparse|tensoradapter", re.IGNORECASE)


def per_torch_library_missing(text: Text, kb: KB) -> list[Candidate]:
    m = text.search(_DGL_LIBRARY) or text.search(_FILE_FAILING)
    if m is None or (not _NAMED_LIBRARY.search(m.group(0)) and not text.has(_DGL)):
        return _not_on_torchs_page(text)  # (a bare "pytorch.1.10.1.so" is DGL's only where DGL shows)
    named = m.groupdict()
    said = named.get("a") or named.get("b")  # DGL's own message names the library
    in_file = next((k for k in ("sparse", "tensoradapter", "graphbolt") if k in m.group(0)), "tensoradapter")
    lib = said.lower() if said else in_file
    file = text.search(_PER_RELEASE_FILE)
    torch = torch_seen(text.raw)
    version = (file.group("v") or file.group("v2")) if file else torch.text if torch else ""
    seen = f" {version}" if version else ""
    cause = f"DGL ships its {lib} library once per torch release, and the installed DGL has none for torch{seen}"
    series = ".".join(version.split("+")[0].split(".")[:2]) if version else "X.Y"
    fix = (
        f"install the DGL build for this torch (pip install dgl -f https://data.dgl.ai/wheels/torch-{series}/"
        "<cpu|cuXXX>/repo.html), or a torch release the installed DGL was built for (the libgraphbolt_pytorch_*.so "
        "files in dgl/graphbolt name them)"
    )
    return [found("extension-torch-mismatch", text, m.start(), 0.75 if torch or file else 0.6, cause=cause, fix=fix)]


# PyG's wheel page for one torch build ("-f https://pytorch-geometric.com/whl/torch-1.5.0+cu101.html", data.pyg.org's),
# and pip finding none of the release pinned there while it lists others ("(from versions: 2.0.4, 2.0.5)")
_TORCH_PAGE = re.compile(
    r"(?:data\.pyg\.org|pytorch-geometric\.com)/whl/torch-(?P<torch>\d+\.\d+\.\d+)(?:\+(?P<variant>\w+))?\.html",
    re.IGNORECASE,
)
_PIN_NOT_ON_PAGE = re.compile(
    rf"{PIP_FINDS_NONE}(?P<name>torch[-_](?:scatter|sparse|cluster|spline[-_]conv)|pyg[-_]lib)==(?P<pin>\d[\w.]*)"
    rf"{THEN_OFFERED}",
    re.IGNORECASE,
)


def _not_on_torchs_page(text: Text) -> list[Candidate]:
    page, m = text.search(_TORCH_PAGE), text.search(_PIN_NOT_ON_PAGE)
    if page is not None and m is None:
        return _page_of_another_torch(text, page)
    if page is None or m is None:
        return []
    listed = [v.strip() for v in m.group("listed").split(",")]
    if m.group("pin") in listed or listed == ["none"]:
        return []  # the release is there, or nothing is (another platform or Python): not the torch
    torch = page.group("torch") + (f"+{page.group('variant')}" if page.group("variant") else "")
    name, pin = m.group("name"), m.group("pin")
    cause = f"{name} {pin} has no build for torch {torch}: PyG's page for that torch lists only {', '.join(listed)}"
    fix = (
        f"pin a {name} release the page for torch {torch} lists ({listed[-1]}), or install the torch that {name} "
        f"{pin} was built for and take its page (data.pyg.org/whl/torch-<that release>+<variant>.html)"
    )
    return [found("extension-torch-mismatch", text, m.start(), 0.75, cause=cause, fix=fix)]


# an address, whose path names the page's torch: no statement of the torch installed
_URL = re.compile(r"https?://\S+|(?:data\.pyg\.org|pytorch-geometric\.com)/\S+", re.IGNORECASE)


def _page_of_another_torch(text: Text, page: re.Match[str]) -> list[Candidate]:
    """PyG's page for one torch given to pip where the text states another torch installed ("pytorch 1.7.0" and
    "-f https://pytorch-geometric.com/whl/torch-1.7.1+cu101.html", pytorch_sparse#150): the wheels it lists were built
    for that torch. Only another minor, or a newer release than the one installed (a page for an older patch of the
    same minor is what PyG's docs give for every patch)."""
    installed = torch_seen(_URL.sub(" ", text.raw))
    if installed is None:
        return []
    built = Version(page.group("torch"))
    have = installed.version
    if (built.major, built.minor) == (have.major, have.minor) and built <= have:
        return []
    cause = (
        f"the PyG wheels were taken from the page for torch {built} (data.pyg.org/whl/torch-{built}...), and torch "
        f"{installed.text} is installed: they are built for another torch"
    )
    fix = (
        f"install them from the page for the torch installed (-f https://data.pyg.org/whl/torch-{have.base_version}"
        "+<variant>.html), or install the torch the page is for"
    )
    return [found("extension-torch-mismatch", text, page.start(), 0.65, cause=cause, fix=fix)]
