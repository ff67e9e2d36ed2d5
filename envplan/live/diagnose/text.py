"""The pasted text, read tolerantly: spacing, case, line wrapping and truncation do not hide a signal."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

__all__ = ["Text", "phrase", "plain", "sentences", "unquoted"]

# where one claim ends: a line break, or sentence punctuation (a dot only before a space, so 3.10 stays whole, and not
# the dot of "i.e.", "e.g.", "vs." or "etc.")
_SENTENCE_END = re.compile(
    r"\n|(?<=[.?!;])(?<!\b[ie]\.[eg]\.)(?<!\bvs\.)(?<!\betc\.)\s+|[。\uff1f\uff01\uff1b]", re.IGNORECASE
)


# markdown's (and mail's) quote markers at the start of a line ("> The detected CUDA version ..."); a prompt's ">>>" is
# no quote
# (a rendered quote pasted back as text keeps its bar: "▎ defined for option 'gpu-name'")
_QUOTE_MARKS = re.compile(r"^([ \t]*)((?:[>\u258e](?:[ \t]|$))+)", re.MULTILINE)


# a terminal's escape sequences, as a CI log or `script` keeps them (pip's and uv's colours, cursor moves: CSI; a
# hyperlink or title: OSC), and the line ends of a Windows log or a progress bar's carriage returns
_TERMINAL_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_LINE_END = re.compile(r"\r\n?")


# what a log writer puts before each line: an ISO 8601 timestamp (GitHub Actions' raw logs, `docker logs -t`), a
# Compose service's name and bar ("api-1  | ")
_TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?[ \t]", re.MULTILINE)
_SERVICE = re.compile(r"^(?P<name>[A-Za-z0-9][\w.-]*)[ \t]*\|[ \t]?", re.MULTILINE)


# the side borders of a panel a terminal library draws around a traceback (Rich's "│ ImportError: ... undefined   │"
# then "│ symbol: _ZN..."): a message wrapped inside the panel reads as one once they go (torch-harmonics#226)
_PANEL_SIDE = re.compile(r"^[ \t]*[\u2502\u2503][ \t]?|[ \t]*[\u2502\u2503][ \t]*$", re.MULTILINE)


# a run of non-blank characters longer than any message's token (a base64 blob, a progress bar drawn without spaces, a
# minified line): cut to its first characters, because patterns that scan a word from each of its positions take time
# that grows with the square of its length (a 30 KB run took over a minute, a 1,000-character one takes 0.1 s); the
# corpus's longest token is 316 characters, and a mangled C++ symbol or a path stays below the cut too
_RUN_KEPT = 1000
_LONG_RUN = re.compile(rf"\S{{{_RUN_KEPT + 1},}}")


def plain(raw: str) -> str:
    """The text as a person reads it: terminal escape sequences removed, every line end a newline, a panel's side
    borders taken off, and the prefix a log writer puts before each line taken off (a timestamp wherever it starts a
    line; a Compose service's name where a few names start most lines, so neither a line of prose with a bar in it nor
    a table's first column is lost)."""
    text = _PANEL_SIDE.sub("", _TIMESTAMP.sub("", _LINE_END.sub("\n", _TERMINAL_ESCAPE.sub("", raw))))
    text = _LONG_RUN.sub(lambda m: m.group(0)[:_RUN_KEPT], text)
    return _SERVICE.sub("", text) if _service_prefixed(text) else text


def _service_prefixed(text: str) -> bool:
    """Most lines start with a name and a bar, and the names repeat (a few services, each with many lines): `docker
    compose logs` (or `up`) output, not a table whose first column names a different package on each row."""
    lines = [line for line in text.split("\n") if line.strip()]
    names = Counter(m.group("name") for line in lines if (m := _SERVICE.match(line)))
    return len(lines) >= 2 and sum(names.values()) * 5 >= len(lines) * 4 and len(names) <= max(1, len(lines) // 3)


def unquoted(raw: str) -> str:
    """The text with quote markers turned into spaces (offsets and lines unchanged), so a quoted message that wraps
    reads as one."""
    return _QUOTE_MARKS.sub(lambda m: m.group(1) + " " * len(m.group(2)), raw)


def phrase(words: str) -> re.Pattern[str]:
    """A case-insensitive pattern for a message whose spaces may be missing, doubled or line breaks."""
    parts = [re.escape(w) for w in words.split()]
    return re.compile(r"\s*".join(parts), re.IGNORECASE)


def sentences(raw: str) -> list[str]:
    """The text's sentences and lines (a title is one), in order, stripped; empty ones dropped."""
    return [part.strip() for part in _SENTENCE_END.split(raw) if part.strip()]


@dataclass(frozen=True, slots=True)
class Text:
    raw: str

    def line_start(self, at: int) -> int:
        """The offset where the line holding offset `at` starts."""
        return self.raw.rfind("\n", 0, at) + 1

    def line(self, at: int, end: int | None = None) -> str:
        """The line holding offset `at` (up to the line holding `end`), stripped and cut to 400 characters."""
        start = self.line_start(at)
        stop = self.raw.find("\n", at if end is None else max(at, end - 1))
        return self.raw[start : stop if stop != -1 else len(self.raw)].strip()[:400]

    def search(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        return pattern.search(self.raw)

    def has(self, pattern: re.Pattern[str]) -> bool:
        return pattern.search(self.raw) is not None

    def lines(self) -> list[str]:
        return [line for line in self.raw.splitlines() if line.strip()]
