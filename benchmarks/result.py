"""One row of RESULTS.md."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Result", "fmt_seconds"]


def fmt_seconds(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


@dataclass(frozen=True, slots=True)
class Result:
    name: str
    envplan: str  # the measured value, formatted
    reference: str = "—"
    ratio: float | None = None
    target: str = ""  # "" for an informational row (no target)
    passed: bool = False
    note: str = ""  # what was run and how
    skipped: str = ""  # why it was not run
    error: str = ""  # why it failed to run

    @property
    def status(self) -> str:
        if self.error:
            return f"error: {self.error.splitlines()[0][:200]}"
        if self.skipped:
            return f"skipped: {self.skipped}"
        if not self.target:
            return "info"
        return "pass" if self.passed else "FAIL"

    @property
    def missed(self) -> bool:
        return bool(self.error) or (bool(self.target) and not self.skipped and not self.passed)
