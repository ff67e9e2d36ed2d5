"""The one small interface every resolver backend implements."""

from __future__ import annotations

from typing import Protocol

from envplan.resolve.model import Lock, LockRequest

__all__ = ["Backend"]


class Backend(Protocol):
    name: str

    @property
    def version(self) -> str: ...

    def lock(self, request: LockRequest) -> Lock: ...
