"""The knowledge base: verified compatibility facts shipped as data, with typed queries (envplan.kb.facts).

The names below load on first use, so `envplan.kb.digest` (the fast path of an unchanged lock) does not pay for
reading the KB's model.
"""

from __future__ import annotations

TYPE_CHECKING = False  # neither typing nor importlib is imported: the unchanged-lock path goes through here
if TYPE_CHECKING:
    from typing import Any

    from envplan.kb.digest import kb_digest
    from envplan.kb.facts import KB, Release, load_kb

__all__ = ["KB", "Release", "kb_digest", "load_kb"]

_HOMES = {
    "KB": "envplan.kb.facts",
    "Release": "envplan.kb.facts",
    "load_kb": "envplan.kb.facts",
    "kb_digest": "envplan.kb.digest",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'envplan.kb' has no attribute {name!r}")
    return getattr(__import__(home, fromlist=[name]), name)
