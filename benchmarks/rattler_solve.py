"""The conda reference: a bare py-rattler solve of a request (JSON on stdin, as envplan's CondaRequest),
nothing else: no lock file written. Prints the number of packages; ends with os._exit like envplan's worker."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any


async def solve_request(req: dict[str, Any]) -> int:
    from rattler import Channel, Gateway, GenericVirtualPackage, PackageName, Version, solve
    from rattler.package import BuildString

    virtual = [GenericVirtualPackage(PackageName(n), Version(v), BuildString(b)) for n, v, b in req["virtual"]]
    records = await solve(
        sources=[Channel(c) for c in req["channels"]],
        specs=list(req["specs"]),
        gateway=Gateway(),
        platforms=[req["platform"], "noarch"],
        virtual_packages=virtual,
    )
    return len(records)


def main() -> None:
    count = asyncio.run(solve_request(json.load(sys.stdin)))
    sys.stdout.write(f"{count}\n")
    sys.stdout.flush()
    os._exit(0 if count else 1)


if __name__ == "__main__":
    main()
