"""Learn a conda channel's torch builds from its repodata with py-rattler: pytorch, torchvision, torchaudio,
xformers and flash-attn, each build with its version, build string, CUDA, Python, and (for companions and
extensions) the channel's pytorch versions it installs with.

`envplan kb update --conda-channel URL` runs the query in a child process (`python -m envplan.kb.condachannel`),
as envplan.resolve.conda does for solves: py-rattler can crash at interpreter shutdown.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.kb.condabuild import conda_cuda

__all__ = ["PACKAGES", "learn_conda_channel"]

PACKAGES = ("pytorch", "torchvision", "torchaudio", "xformers", "flash-attn")
_PYTHON = re.compile(r"^python\s+>=?\s*(3\.\d+)")
_PYTHON_ABI = re.compile(r"^python_abi\s+(3\.\d+)")
_CUDA_DEP = re.compile(r"^(?:cuda-version|cudatoolkit|pytorch-cuda|cuda-cudart)\s+>=?\s*(\d+\.\d+)")


def learn_conda_channel(url: str, platforms: tuple[str, ...], cache: Path, today: date) -> list[dict[str, object]]:
    """The overlay rows of every torch-related build `url` publishes for `platforms`."""
    payload = json.dumps({"channel": url.rstrip("/"), "platforms": list(platforms), "cache": str(cache)})
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "envplan.kb.condachannel"],
            input=payload,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise EnvplanError("conda-timeout", "the channel did not answer in 900 s", where=url) from None
    try:
        result = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        result = {"ok": False, "error": proc.stderr.strip()[-500:] or "py-rattler stopped"}
    if not result.get("ok"):
        raise EnvplanError(
            "conda-channel-failed",
            f"cannot read the channel's repodata: {result.get('error')}",
            where=url,
            hint="check the URL (it ends with the channel name, e.g. https://conda.anaconda.org/conda-forge) "
            "and that it answers for " + ", ".join(platforms),
            exit_code=EXIT_FAILED,
        )
    return [{**row, "learned-on": today.isoformat()} for row in result["rows"]]


# --- the child process -----------------------------------------------------------------------------------


async def _query(req: dict[str, Any]) -> list[Any]:
    from rattler import Channel, Gateway

    gateway = Gateway(cache_dir=Path(req["cache"]))
    found = await gateway.query(
        [Channel(req["channel"])], [*req["platforms"], "noarch"], list(PACKAGES), recursive=False
    )
    return [record for per_channel in found for record in per_channel]


def _python(depends: list[str]) -> str:
    for dep in depends:
        m = _PYTHON_ABI.match(dep) or _PYTHON.match(dep)
        if m:
            return m.group(1)
    return ""


def _cuda(build: str, depends: list[str]) -> str:
    said = conda_cuda(build)
    if said:
        return said
    for dep in depends:
        m = _CUDA_DEP.match(dep)
        if m:
            return m.group(1)
    return ""


def _torch_versions(record: Any, pytorch: list[Any]) -> list[str]:
    """The channel's pytorch versions every `pytorch ...` dependency of `record` accepts (same subdir)."""
    from rattler import MatchSpec

    specs = [MatchSpec(d) for d in record.depends if d.split()[0] == "pytorch"]
    if not specs:
        return []
    same = [p for p in pytorch if p.subdir == record.subdir]
    ok = {str(p.version) for p in same if all(s.matches(p) for s in specs)}
    return sorted(ok, key=lambda v: [int(x) if x.isdigit() else 0 for x in re.split(r"[.+]", v)])


def _row(record: Any, channel: str, pytorch: list[Any]) -> dict[str, object]:
    depends = list(record.depends)
    row: dict[str, object] = {
        "channel": channel,
        "subdir": record.subdir,
        "name": record.name.normalized,
        "version": str(record.version),
        "build": str(record.build),
        "python": _python(depends),
        "cuda": _cuda(str(record.build), depends),
    }
    cuda_spec = next((d for d in depends if _CUDA_DEP.match(d)), "")
    if cuda_spec:
        row["cuda-spec"] = cuda_spec  # e.g. "cuda-version >=12.0,<13": the CUDA runtimes it installs with
    if record.name.normalized != "pytorch":
        row["torch"] = _torch_versions(record, pytorch)
    return row


def main() -> None:
    req = json.load(sys.stdin)
    try:
        records = asyncio.run(_query(req))
        pytorch = [r for r in records if r.name.normalized == "pytorch"]
        rows = [_row(r, req["channel"], pytorch) for r in records]
        rows.sort(key=lambda r: (str(r["subdir"]), str(r["name"]), str(r["version"]), str(r["build"])))
        result = {"ok": True, "rows": rows}
    except Exception as exc:  # the parent turns this into one clear error
        result = {"ok": False, "error": " ".join(str(exc).split())[:1000]}
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
