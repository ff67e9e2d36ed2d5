"""`envplan kb update` for compiled extensions: the prebuilt wheels flash-attn, causal-conv1d and mamba-ssm attach
to their GitHub releases. Their file names say everything a match needs (CUDA major, torch minor, C++ ABI flag,
CPython, platform), so the release listing alone proves which wheels exist. Pure over a `fetch` function."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date

from envplan.kb.model import ExtWheel

__all__ = ["GITHUB_EXTENSIONS", "ext_wheels_from_overlay", "learn_assets", "wheel_of", "wheel_rows"]

GITHUB_EXTENSIONS = {
    "flash-attn": "Dao-AILab/flash-attention",
    "causal-conv1d": "Dao-AILab/causal-conv1d",
    "mamba-ssm": "state-spaces/mamba",
}
_NAME = re.compile(
    r"^(?P<pkg>flash_attn|causal_conv1d|mamba_ssm)-(?P<version>[^+-]+)\+cu(?P<cuda>\d+)torch(?P<torch>\d+\.\d+)"
    r"cxx11abi(?P<abi>TRUE|FALSE)-cp(?P<py>\d+)-cp\d+t?-linux_(?P<arch>x86_64|aarch64)\.whl$"
)
_PAGE = 100
Fetch = Callable[[str], tuple[bytes, str]]


def wheel_of(extension: str, tag: str, name: str, url: str, provenance: tuple[str, str]) -> ExtWheel | None:
    """The facts a release asset's file name states, or None when it is not such a wheel."""
    m = _NAME.match(name)
    if m is None:
        return None
    cuda = m["cuda"]
    return ExtWheel(
        extension=extension,
        tag=tag.removeprefix("v"),
        cuda_major=int(cuda[:-1]) if len(cuda) == 3 else int(cuda),  # cu118 / cu122 name a minor, cu12 a major
        torch_minor=m["torch"],
        abi=m["abi"] == "TRUE",
        python=f"3.{m['py'][1:]}",
        arch=m["arch"],
        url=url,
        learned_from=provenance[0],
        learned_on=provenance[1],
    )


def learn_assets(fetch: Fetch, api: str, today: date) -> tuple[list[ExtWheel], list[str]]:
    """Every wheel the three repositories' GitHub releases carry, and a note per repository that failed."""
    wheels: list[ExtWheel] = []
    notes: list[str] = []
    for extension, repo in GITHUB_EXTENSIONS.items():
        try:
            wheels += _repo_wheels(fetch, api.rstrip("/"), extension, repo, today)
        except (OSError, ValueError) as exc:
            notes.append(f"{repo}: {exc}")
    return wheels, notes


def _repo_wheels(fetch: Fetch, api: str, extension: str, repo: str, today: date) -> list[ExtWheel]:
    out: list[ExtWheel] = []
    for page in range(1, 11):
        url = f"{api}/repos/{repo}/releases?per_page={_PAGE}&page={page}"
        body, _ = fetch(url)
        releases = json.loads(body)
        if not isinstance(releases, list):
            raise ValueError(f"{url} did not answer a list of releases")
        for release in releases:
            tag = str(release.get("tag_name", ""))
            for asset in release.get("assets", []) or []:
                name, link = str(asset.get("name", "")), str(asset.get("browser_download_url", ""))
                wheel = wheel_of(extension, tag, name, link, (url, today.isoformat()))
                if wheel is not None:
                    out.append(wheel)
        if len(releases) < _PAGE:
            break
    return out


def wheel_rows(wheels: list[ExtWheel]) -> list[dict[str, object]]:
    """The overlay's `[[ext-wheel]]` rows: one per file, with where and when it was seen."""
    return [
        {
            "extension": w.extension,
            "tag": w.tag,
            "cuda-major": w.cuda_major,
            "torch": w.torch_minor,
            "cxx11-abi": w.abi,
            "python": w.python,
            "arch": w.arch,
            "url": w.url,
            "learned-from": w.learned_from,
            "learned-on": w.learned_on,
        }
        for w in sorted(wheels, key=lambda w: (w.extension, w.url))
    ]


def ext_wheels_from_overlay(rows: list[dict[str, object]]) -> tuple[ExtWheel, ...]:
    out = []
    for r in rows:
        try:
            out.append(
                ExtWheel(
                    extension=str(r["extension"]),
                    tag=str(r["tag"]),
                    cuda_major=int(str(r["cuda-major"])),
                    torch_minor=str(r["torch"]),
                    abi=bool(r["cxx11-abi"]),
                    python=str(r["python"]),
                    arch=str(r["arch"]),
                    url=str(r["url"]),
                    learned_from=str(r.get("learned-from", "")),
                    learned_on=str(r.get("learned-on", "")),
                )
            )
        except (KeyError, ValueError, TypeError):
            continue  # a damaged row costs that row, never the KB
    return tuple(out)
