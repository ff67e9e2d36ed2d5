"""Findings: what a check found, for people and for scripts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Finding", "Severity", "has_errors"]

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Finding:
    """One fact about a profile or an environment: a kebab-case ref, how bad, what, and the fix."""

    ref: str
    severity: Severity
    message: str
    fix: str = ""
    key: str = ""  # the profile's dotted key it is about, when there is one

    def to_dict(self) -> dict[str, str]:
        return {"ref": self.ref, "severity": self.severity, "message": self.message, "fix": self.fix, "key": self.key}

    def line(self) -> str:
        where = f"{self.key}: " if self.key else ""
        return f"{self.severity}[{self.ref}] {where}{self.message}" + (f" Fix: {self.fix}" if self.fix else "")


def has_errors(findings: list[Finding] | tuple[Finding, ...]) -> bool:
    return any(f.severity == "error" for f in findings)
