"""Read a package's files from a simple index (PEP 503 HTML or PEP 691 JSON; http(s) or file://)."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from packaging.utils import canonicalize_name

from envplan.errors import EXIT_FAILED, EnvplanError

__all__ = ["IndexFile", "project_files"]

_JSON = "application/vnd.pypi.simple.v1+json"


@dataclass(frozen=True, slots=True)
class IndexFile:
    filename: str
    url: str
    sha256: str


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self._href: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href")

    def handle_data(self, data: str) -> None:
        if self._href is not None and data.strip():
            self.links.append((data.strip(), self._href))

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._href = None


def _fetch(url: str) -> tuple[bytes, str]:
    if url.startswith("file://"):
        path = Path(urllib.request.url2pathname(urllib.parse.urlparse(url).path))
        return (path / "index.html" if path.is_dir() else path).read_bytes(), "text/html"
    request = urllib.request.Request(url, headers={"Accept": f"{_JSON}, text/html;q=0.1"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read(), response.headers.get("Content-Type", "")


def project_files(index: str, name: str) -> list[IndexFile]:
    """Every file the index lists for the project, with its sha256 (files without one are left out)."""
    page = f"{index.rstrip('/')}/{canonicalize_name(name)}/"
    try:
        body, kind = _fetch(page)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise EnvplanError(
            "index-unreachable",
            f"cannot read {page}: {exc}",
            where=index,
            hint="check that the index answers",
            exit_code=EXIT_FAILED,
        ) from None
    if _JSON in kind:
        data = json.loads(body)
        return [
            IndexFile(f["filename"], urllib.parse.urljoin(page, f["url"]), f["hashes"]["sha256"])
            for f in data.get("files", [])
            if "sha256" in f.get("hashes", {})
        ]
    parser = _Links()
    parser.feed(body.decode("utf-8", "replace"))
    out = []
    for text, href in parser.links:
        url, _, fragment = urllib.parse.urljoin(page, href).partition("#")
        if fragment.startswith("sha256="):
            out.append(IndexFile(text, url, fragment.removeprefix("sha256=")))
    return out
