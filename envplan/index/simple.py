"""Read a package's files from a simple index (PEP 503 HTML or PEP 691 JSON; http(s) or file://)."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from packaging.utils import canonicalize_name

from envplan.errors import EXIT_FAILED, EnvplanError

__all__ = ["Fetch", "IndexFile", "parse_page", "project_files"]

_JSON = "application/vnd.pypi.simple.v1+json"


@dataclass(frozen=True, slots=True)
class IndexFile:
    filename: str
    url: str
    sha256: str
    metadata: bool = False  # the index serves the wheel's METADATA beside it (PEP 658/714: <url>.metadata)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str, bool]] = []
        self._href: str | None = None
        self._meta = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            a = dict(attrs)
            self._href = a.get("href")
            self._meta = bool(a.get("data-core-metadata") or a.get("data-dist-info-metadata"))

    def handle_data(self, data: str) -> None:
        if self._href is not None and data.strip():
            self.links.append((data.strip(), self._href, self._meta))

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


Fetch = Callable[[str], tuple[bytes, str]]  # url -> (body, content type)


def project_files(index: str, name: str, fetch: Fetch | None = None) -> list[IndexFile]:
    """Every file the index lists for the project, with its sha256 (files without one are left out)."""
    page = f"{index.rstrip('/')}/{canonicalize_name(name)}/"
    try:
        body, kind = (fetch or _fetch)(page)
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
    return parse_page(body, kind, page)


def parse_page(body: bytes, kind: str, page: str) -> list[IndexFile]:
    if _JSON in kind:
        data = json.loads(body)
        return [
            IndexFile(
                f["filename"],
                urllib.parse.urljoin(page, f["url"]),
                f["hashes"]["sha256"],
                bool(f.get("core-metadata") or f.get("dist-info-metadata")),
            )
            for f in data.get("files", [])
            if "sha256" in f.get("hashes", {})
        ]
    parser = _Links()
    parser.feed(body.decode("utf-8", "replace"))
    out = []
    for text, href, meta in parser.links:
        url, _, fragment = urllib.parse.urljoin(page, href).partition("#")
        if fragment.startswith("sha256="):
            out.append(IndexFile(text, url, fragment.removeprefix("sha256="), meta))
    return out
