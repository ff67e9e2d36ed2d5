"""The command line. Thin: each command parses, calls one function of a room, renders (rich or --json).

This package is the only place that knows exit codes, --debug and colours:
0 = ok, 1 = a check failed, 2 = bad input, 3 = internal error (a bug: please report it).

Start-up is kept at the floor: `envplan --version` imports nothing, an unchanged `envplan lock` only
`quicklock` and what it reads, and a command imports only its own module
(`parser` names handlers as "module:function", loaded when the command runs).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # collections.abc and typing are not imported: an unchanged `envplan lock` goes through here
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--version"]:
        from envplan import __version__

        sys.stdout.write(f"envplan {__version__}\n")
        return 0
    if args[:1] == ["lock"]:
        from envplan.cli.quicklock import answer

        fresh = answer(args[1:])  # an unchanged lock: answered before argparse is imported
        if fresh is not None:
            return fresh
    from envplan.cli.app import run

    return run(args)
