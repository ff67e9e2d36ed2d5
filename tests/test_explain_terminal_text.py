"""A log as a terminal or another system wrote it: a CI log or `script` output keeps the terminal's escape sequences
(pip's and uv's colours, cursor moves, hyperlinks), a Windows tool writes CRLF line ends, a progress bar redraws its
line with carriage returns, and log writers put a timestamp (GitHub Actions, `docker logs -t`) or a service's name
(`docker compose logs`) before each line. `explain` reads such a text as the same report a person sees: the corpus's
reports, written each of these ways, name the same first cause as pasted."""

from __future__ import annotations

import re

import pytest
from explaincorpus import load_reports

from envplan.kb import KB
from envplan.live.diagnose import explain_text
from envplan.live.diagnose.text import plain

_RED, _RESET = "\x1b[31;1m", "\x1b[0m"
_LINK = "\x1b]8;;https://example.invalid\x07"


def _coloured(text: str) -> str:
    """Every line naming an error in red, as pip, uv and most build tools print it to a terminal."""
    return re.sub(r"^(.*(?:Error|ERROR|error).*)$", lambda m: _RED + m.group(1) + _RESET, text, flags=re.MULTILINE)


def _windows(text: str) -> str:
    return text.replace("\n", "\r\n")


def _actions(text: str) -> str:
    """A GitHub Actions raw log: every line after its timestamp."""
    return "\n".join(f"2024-05-01T12:00:{i % 60:02d}.1234567Z {line}" for i, line in enumerate(text.split("\n")))


def _compose(text: str) -> str:
    """`docker compose logs`: every line after its service's name and a bar."""
    return "\n".join(f"api-1  | {line}" for line in text.split("\n"))


def _first(kb: KB, text: str) -> str:
    found = explain_text(text, kb)
    return found[0].ref if found else "none"


# one report in seven, in the corpus's own order: every part and every cause is among them
_SAMPLE = load_reports()[::7]


@pytest.mark.parametrize("report", _SAMPLE, ids=lambda r: r.url.rsplit("/", 3)[-3] + "-" + r.url.rsplit("/", 1)[-1])
def test_a_coloured_or_windows_log_reads_as_pasted(kb: KB, report: object) -> None:
    text = report.text  # type: ignore[attr-defined]
    pasted = _first(kb, text)
    assert _first(kb, _coloured(text)) == pasted
    assert _first(kb, _windows(text)) == pasted
    assert _first(kb, _actions(text)) == pasted
    assert _first(kb, _compose(text)) == pasted


def test_the_sample_holds_coloured_lines_and_findings() -> None:
    """The sample is not vacuous: it spans the corpus's causes, and most of its texts have a line the colouring
    changes."""
    coloured = [r for r in _SAMPLE if _coloured(r.text) != r.text]
    assert len({r.cause for r in _SAMPLE}) == 12 and len(coloured) >= len(_SAMPLE) // 2


def test_plain_removes_escapes_and_normalises_line_ends() -> None:
    raw = (
        f"{_RED}ERROR:{_RESET} Could not find a version\r\n"
        f"{_LINK}see the docs\x1b]8;;\x07\r\n"
        "Downloading 10%\rDownloading 100%\n"
        "\x1b[2K\x1b[1Gdone"
    )
    assert plain(raw) == "ERROR: Could not find a version\nsee the docs\nDownloading 10%\nDownloading 100%\ndone"


def test_plain_takes_off_a_log_writer_s_prefix_only() -> None:
    assert plain("2024-05-01T12:00:00.1Z ERROR: x\n2024-05-01T12:00:01Z y") == "ERROR: x\ny"
    compose = "api-1  | ERROR: x\napi-1  | y\nworker-1 | z\napi-1  | w\nworker-1 | v\napi-1  | u"
    assert plain(compose) == "ERROR: x\ny\nz\nw\nv\nu"
    # a table whose first column names a package on each row, and prose with a bar in one line, are kept
    table = "torch | 2.1.0\ntorchvision | 0.16.0\nnumpy | 1.26.4"
    assert plain(table) == table
    prose = "It fails with torch 2.1 | works with 2.0\nany idea?"
    assert plain(prose) == prose


def test_plain_cuts_a_run_longer_than_any_token() -> None:
    """A base64 blob or a progress bar drawn without spaces is cut to its first 1,000 characters (its length once made
    explain's time grow with its square: benchmarks/RESULTS.md times a 1 MB log); tokens as long as a mangled C++
    symbol or a path are kept whole."""
    blob = "QmFzZTY0" * 4000
    symbol = "_ZN3c10" + "N5torch8autograd4NodeE" * 20
    assert plain(f"before {blob} after") == f"before {blob[:1000]} after"
    assert plain(f"undefined symbol: {symbol}") == f"undefined symbol: {symbol}"


def test_a_finding_past_a_long_run_is_still_read(kb: KB) -> None:
    text = (
        "QmFzZTY0" * 20000
        + "\nERROR: Could not find a version that satisfies the requirement torch==2.1.0 (from versions: none)"
    )
    assert _first(kb, text) == "python-unsupported"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # pip's red error, uv's bold red: the escape codes split no message
        (
            "\x1b[31mERROR: Could not find a version that satisfies the requirement torch==2.1.0 (from versions: "
            "none)\x1b[0m\r\n\x1b[31mERROR: No matching distribution found for torch==2.1.0\x1b[0m",
            "python-unsupported",
        ),
        (
            "\x1b[1m\x1b[31merror\x1b[39m\x1b[0m: Failed to build `flash-attn==2.7.4.post1`\r\n"
            "  ModuleNotFoundError: No module named '\x1b[1mtorch\x1b[0m'",
            "build-isolation-missing-torch",
        ),
        # a coloured line that names no known failure stays silent
        ("\x1b[31mRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\x1b[0m", "none"),
    ],
)
def test_a_terminal_log_is_read(kb: KB, text: str, ref: str) -> None:
    assert _first(kb, text) == ref
