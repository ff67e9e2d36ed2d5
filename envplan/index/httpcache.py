"""The KB updater's only network code: GET with timeouts and conditional requests (ETag/Last-Modified),
so a second run transfers almost nothing. `offline` serves from the cache and never opens a socket."""

from __future__ import annotations

import hashlib
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.paths import cache_root, store_cache

__all__ = ["CachedFetcher", "cache_root"]


class CachedFetcher:
    def __init__(
        self,
        *,
        offline: bool = False,
        timeout: float = 30.0,
        cache: Path | None = None,
        accept: str = "application/vnd.pypi.simple.v1+json, text/html;q=0.1",
    ) -> None:
        self.offline = offline
        self.accept = accept
        self.timeout = timeout
        self.dir = (cache or cache_root()) / "http"
        self.fetched = 0
        self.not_modified = 0
        self._lock = threading.Lock()

    def __call__(self, url: str) -> tuple[bytes, str]:
        if url.startswith("file://"):
            return _read_file(url)
        key = hashlib.sha256(url.encode()).hexdigest()
        meta_path, body_path = self.dir / f"{key}.json", self.dir / f"{key}.body"
        meta = _load(meta_path) if body_path.exists() else {}
        if self.offline:
            if not meta:
                raise EnvplanError(
                    "offline",
                    f"not in the cache and --offline forbids the network: {url}",
                    where="kb update",
                    hint="run once without --offline",
                    exit_code=EXIT_FAILED,
                )
            return body_path.read_bytes(), str(meta.get("type", ""))
        return self._get(url, meta, meta_path, body_path)

    def _get(self, url: str, meta: dict[str, str], meta_path: Path, body_path: Path) -> tuple[bytes, str]:
        headers = {"Accept": self.accept}
        if meta.get("etag"):
            headers["If-None-Match"] = meta["etag"]
        if meta.get("modified"):
            headers["If-Modified-Since"] = meta["modified"]
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=self.timeout) as r:
                body, kind = r.read(), r.headers.get("Content-Type", "")
                new = {"etag": r.headers.get("ETag", ""), "modified": r.headers.get("Last-Modified", ""), "type": kind}
        except urllib.error.HTTPError as exc:
            if exc.code == 304 and meta:
                with self._lock:
                    self.not_modified += 1
                return body_path.read_bytes(), str(meta.get("type", ""))
            if exc.code == 404:
                raise FileNotFoundError(url) from None
            raise EnvplanError("index-error", f"{url} answered {exc.code}", where=url, exit_code=EXIT_FAILED) from None
        except (OSError, TimeoutError) as exc:
            raise EnvplanError(
                "index-unreachable",
                f"cannot reach {url}: {getattr(exc, 'reason', exc)}",
                where=url,
                hint="check the URL and the network, or use --offline with a filled cache",
                exit_code=EXIT_FAILED,
            ) from None
        with self._lock:
            self.fetched += 1
        if store_cache(body_path, body):  # the validators only go with the body they describe
            store_cache(meta_path, json.dumps(new))
        return body, kind


def _load(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _read_file(url: str) -> tuple[bytes, str]:
    path = Path(urllib.request.url2pathname(urllib.parse.urlparse(url).path))
    return (path / "index.html" if path.is_dir() else path).read_bytes(), "text/html"
