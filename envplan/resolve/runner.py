"""The one place envplan starts external tools: uv, pip-compile. Failures become EnvplanErrors here."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from envplan.errors import EXIT_FAILED, EnvplanError

__all__ = ["ToolFailed", "clean_env", "run_tool"]

# The machine's pip configuration must never leak into a lock (extra indexes, find-links, constraints).
_PIP_ENV_PREFIXES = ("PIP_", "UV_")
_KEEP = frozenset({"UV_CACHE_DIR"})  # where uv caches is not configuration


class ToolFailed(EnvplanError):
    """A tool ran and failed; `output` holds what it printed on stderr."""

    def __init__(self, tool: str, output: str, *, where: str) -> None:
        super().__init__("tool-failed", f"{tool} failed", where=where, exit_code=EXIT_FAILED)
        self.tool = tool
        self.output = output


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment minus pip's and uv's settings, plus `extra`; pip reads no config file."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(_PIP_ENV_PREFIXES) or k in _KEEP}
    env["PIP_CONFIG_FILE"] = os.devnull
    env["UV_PYTHON_DOWNLOADS"] = "never"
    env.update(extra or {})
    return env


def run_tool(
    argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], where: str, timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    """Run a tool to completion; raise ToolFailed (non-zero exit) or EnvplanError (missing, timed out)."""
    try:
        proc = subprocess.run(
            list(argv), cwd=cwd, env=dict(env), capture_output=True, text=True, timeout=timeout, check=False
        )
    except FileNotFoundError:
        raise EnvplanError(
            "tool-missing",
            f"{argv[0]} is not installed",
            where=where,
            hint=f"install it (pip install {Path(argv[0]).name})",
            exit_code=EXIT_FAILED,
        ) from None
    except subprocess.TimeoutExpired:
        raise EnvplanError(
            "tool-timeout",
            f"{Path(argv[0]).name} did not finish in {timeout:.0f} s",
            where=where,
            hint="check that the indexes answer",
            exit_code=EXIT_FAILED,
        ) from None
    if proc.returncode != 0:
        raise ToolFailed(Path(argv[0]).name, proc.stderr.strip() or proc.stdout.strip(), where=where)
    return proc
