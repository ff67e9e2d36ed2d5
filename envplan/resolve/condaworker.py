"""Child process of envplan.resolve.conda: solve with py-rattler, write conda-lock.yml, print one JSON line.

Reads the request as JSON on stdin. Ends with os._exit so that py-rattler's runtime is never torn down
(it can crash at interpreter shutdown after a solve).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any


async def _solve(req: dict[str, Any]) -> list[Any]:
    from rattler import Channel, Gateway, GenericVirtualPackage, PackageName, Version, solve
    from rattler.package import BuildString

    virtual = [GenericVirtualPackage(PackageName(n), Version(v), BuildString(b)) for n, v, b in req["virtual"]]
    return await solve(
        sources=[Channel(c) for c in req["channels"]],
        specs=list(req["specs"]),
        gateway=Gateway(),
        platforms=[req["platform"], "noarch"],
        virtual_packages=virtual,
    )


def _lockfile(req: dict[str, Any], records: list[Any]) -> str:
    from conda_lock.lockfile import write_conda_lock_file
    from conda_lock.lockfile.v2prelim.models import HashModel, LockedDependency, Lockfile, LockMeta
    from rattler import MatchSpec

    def locked(rec: Any) -> LockedDependency:
        deps = {}
        for d in rec.depends:
            spec = MatchSpec(d)
            deps[spec.name.normalized] = str(spec.version) if spec.version else ""
        return LockedDependency(
            name=rec.name.normalized,
            version=str(rec.version),
            manager="conda",
            platform=req["platform"],
            dependencies=deps,
            url=rec.url,
            hash=HashModel(md5=rec.md5.hex() if rec.md5 else None, sha256=rec.sha256.hex() if rec.sha256 else None),
            categories={"main"},
            build=str(rec.build),
        )

    lock = Lockfile(
        package=[locked(r) for r in records],
        metadata=LockMeta(
            content_hash={req["platform"]: req["digest"]},
            channels=list(req["channels"]),
            platforms=[req["platform"]],
            sources=[req["source"]],
        ),
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "conda-lock.yml"
        write_conda_lock_file(lock, path, metadata_choices=None)
        return path.read_text()


def main() -> None:
    req = json.load(sys.stdin)
    try:
        records = asyncio.run(_solve(req))
        result = {"ok": True, "lock": _lockfile(req, records), "packages": len(records)}
    except Exception as exc:  # the parent turns this into one clear error
        result = {"ok": False, "error": " ".join(str(exc).split())[:2000]}
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
