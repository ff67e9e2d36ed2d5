"""What explain reports: a Diagnosis per cause, and the Candidate each rule proposes before ranking."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

__all__ = ["THRESHOLD", "Candidate", "Demangle", "Diagnosis", "TorchExports", "found", "level"]

Demangle = Callable[[str], str]


class TorchExports(Protocol):
    """The torch installed where the log came from (envplan explain --python), asked about a missing symbol."""

    @property
    def version(self) -> str: ...

    def verdict(self, symbol: str) -> str:
        """ "exported" (torch defines it), "other-abi" (only with the other C++ ABI's std::string), "absent" (under
        neither ABI), or "unknown"."""
        ...


class _Lines(Protocol):
    def line(self, at: int, end: int | None = None) -> str: ...


THRESHOLD = 0.5  # below this a candidate is not reported: silence beats a wrong cause


def level(score: float) -> str:
    """The confidence label people read: high, medium or low."""
    return "high" if score >= 0.8 else "medium" if score >= 0.65 else "low"


@dataclass(frozen=True, kw_only=True, slots=True)
class Diagnosis:
    ref: str
    confidence: str  # "high" | "medium" | "low", from score
    score: float  # 0..1: the weight of the evidence found for this cause
    evidence: str  # the line of the text that shows it
    cause: str
    fix: str

    def to_dict(self) -> dict[str, str | float]:
        return {
            "ref": self.ref,
            "confidence": self.confidence,
            "score": round(self.score, 2),
            "evidence": self.evidence,
            "cause": self.cause,
            "fix": self.fix,
        }


@dataclass(frozen=True, kw_only=True, slots=True)
class Candidate:
    """A cause one rule sees, with the summed weight of its signals and where the main one is."""

    ref: str
    score: float
    at: int  # offset of the main signal in the text
    evidence: str
    cause: str
    fix: str

    def diagnosis(self) -> Diagnosis:
        score = min(self.score, 0.99)
        return Diagnosis(
            ref=self.ref,
            confidence=level(score),
            score=score,
            evidence=self.evidence,
            cause=self.cause,
            fix=self.fix,
        )


def found(ref: str, text: _Lines, at: int, score: float, *, cause: str, fix: str) -> Candidate:
    """A cause a rule sees at offset `at` of the text, the line there its evidence."""
    return Candidate(ref=ref, score=score, at=at, evidence=text.line(at), cause=cause, fix=fix)
