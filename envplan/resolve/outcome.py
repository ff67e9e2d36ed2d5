"""What locking one environment came to: locked, fresh (reused as it was) or stale (with --check)."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["LockOutcome"]


@dataclass(frozen=True, kw_only=True, slots=True)
class LockOutcome:
    name: str
    status: str  # "locked" | "fresh" | "stale"
    files: dict[str, str] = field(default_factory=dict)  # the lock's files, lock.json included
    changed: tuple[str, ...] = ()  # why a lock is stale (or was redone)
    packages: int = 0
