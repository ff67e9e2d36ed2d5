"""Errors for people: plain data with a kebab-case ref, where it happened, and what to do.

Only the CLI renders them and knows exit codes beyond the number stored here.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "EnvplanError", "Problem", "ProfileError"]

EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


@dataclass(frozen=True, kw_only=True, slots=True)
class Problem:
    """One thing wrong with an input file: where (file and dotted key) and what."""

    ref: str
    path: str
    key: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}: {self.key}: " if self.key else f"{self.path}: "
        return where + self.message


class EnvplanError(Exception):
    """A failure a user can act on. `hint` says what to do."""

    def __init__(
        self, ref: str, message: str, *, where: str = "", hint: str = "", exit_code: int = EXIT_BAD_INPUT
    ) -> None:
        super().__init__(message)
        self.ref = ref
        self.message = message
        self.where = where
        self.hint = hint
        self.exit_code = exit_code

    def lines(self) -> list[str]:
        head = f"{self.where}: {self.message}" if self.where else self.message
        return [head + (f" ({self.hint})" if self.hint else "")]


class ProfileError(EnvplanError):
    """Every problem found in an input file, reported at once (exit 2)."""

    def __init__(self, problems: list[Problem]) -> None:
        path = problems[0].path if problems else "input"
        super().__init__("invalid-profile", f"{len(problems)} problem(s) in {path}", where=path)
        self.problems = problems

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]
