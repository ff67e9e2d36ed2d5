"""Running a command: signals, warnings, the one place errors become exit codes and bugs become a message."""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO

from envplan.cli.output import emit_json
from envplan.cli.parser import build_parser
from envplan.errors import EnvplanError

__all__ = ["EXIT_INTERNAL", "run"]

EXIT_INTERNAL = 3


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so every `finally` (temporary folders, staged plans) runs."""


def run(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(argv).parse_args(argv)
    args.debug = args.debug or args.debug_first  # `envplan --debug CMD` and `envplan CMD --debug` alike
    with warnings.catch_warnings(), _signals():
        warnings.showwarning = _show_warning
        return _run(args)


@contextmanager
def _signals() -> Iterator[None]:
    """On SIGINT or SIGTERM: stop the tools envplan started (uv, pip-compile, nox), then unwind."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        from envplan.resolve.runner import stop_children

        stop_children()
        raise _Terminated if signum == signal.SIGTERM else KeyboardInterrupt

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        runner = sys.modules.get("envplan.resolve.runner")
        if runner is not None:
            runner.allow_children()  # a later run() in this process (tests) starts tools again


def _show_warning(  # noqa: PLR0917 -- warnings.showwarning's signature
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """envplan's own warnings (an ignored cache file) as one line on stderr; others as Python prints them."""
    from envplan.paths import CacheWarning

    if issubclass(category, CacheWarning):
        print(f"envplan: warning: {message}", file=sys.stderr)
    else:
        sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def _run(args: argparse.Namespace) -> int:
    try:
        _no_nul(args)
        return _handler(args.handler)(args)
    except EnvplanError as exc:
        return _report_error(exc, args)
    except KeyboardInterrupt as exc:
        print("envplan: interrupted", file=sys.stderr)
        return 143 if isinstance(exc, _Terminated) else 130
    except Exception as exc:  # the one place a bug is turned into a message
        if args.debug:
            raise
        print(f"envplan: internal error: {exc!r} (run with --debug for the traceback, and report it)", file=sys.stderr)
        return EXIT_INTERNAL


def _handler(name: str) -> Callable[[argparse.Namespace], int]:
    """ "planning:cmd_lock" -> the function; only the command's own module is imported."""
    module, _, function = name.partition(":")
    handler: Callable[[argparse.Namespace], int] = getattr(importlib.import_module(f"envplan.cli.{module}"), function)
    return handler


def _no_nul(args: argparse.Namespace) -> None:
    """A NUL byte cannot come from a shell, and no path or version holds one: refuse it up front."""
    for key, value in vars(args).items():
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and "\0" in v for v in values):
            raise EnvplanError("bad-argument", f"the {key.replace('_', '-')} argument contains a NUL byte")


def _report_error(exc: EnvplanError, args: argparse.Namespace) -> int:
    for line in exc.lines():
        print(f"envplan: error: {line}", file=sys.stderr)
    if args.json:
        emit_json(
            {"schema": 1, "error": {"ref": exc.ref, "message": exc.message, "where": exc.where, "lines": exc.lines()}}
        )
    return exc.exit_code
