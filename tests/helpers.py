"""Shared test helpers: paths, the seed profile, exact edits, and running the CLI as a user does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VENDORED_REFERENCE = ROOT / "tests" / "data" / "pytorch-matrix.toml"
SHARED_REFERENCE = ROOT.parent / "shared" / "reference" / "pytorch-matrix.toml"
VENDORED_PLATFORMS = ROOT / "tests" / "data" / "platforms.toml"
SHARED_PLATFORMS = ROOT.parent / "shared" / "reference" / "platforms.toml"


SEED = """\
schema = 1
name = "a100-train"

[machine]
os = "linux"
arch = "x86_64"
glibc = "2.31"
gpus = ["A100"]
driver = "535.104.05"
cuda-toolkit = "11.8"

[python]
version = "3.10"

[stack]
torch = "2.0.1"
variant = "cu118"
torchvision = "0.15.2"
torchaudio = "2.0.2"
packages = ["numpy<2"]

[[extensions]]
name = "causal-conv1d"
version = "1.0.0"
"""


def edit(text: str, old: str, new: str) -> str:
    """Replace exactly one occurrence: a test's edit that silently does nothing would prove nothing."""
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
    return text.replace(old, new)


def run(
    *args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, timeout: int = 300, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m envplan ARGS` in `cwd`, as a user would run it (`input` on its standard input)."""
    return subprocess.run(
        [sys.executable, "-m", "envplan", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        check=False,
        env=env,
        input=input,
    )


def locked_plan_files(plan: Any, kb: Any, text: str) -> dict[str, str]:
    """A plan's files as a locked plan has them, for tests of what is rendered from the plan alone: each step's
    requirements.txt is a stand-in (real locks: tests/integration)."""
    from envplan.core.plan import LockState
    from envplan.render.planfiles import plan_files

    files = plan_files(plan, kb, text, lock=LockState(locked=True))
    files.update({f"{s.name}/requirements.txt": "# a stand-in lock\n" for s in plan.steps})
    return files


def pretend_locked(folder: Path) -> None:
    """Mark a plan written with --no-lock as locked, each step with a stand-in requirements.txt, for tests of
    what the exports do past the lock check (real locks: tests/integration)."""
    import json

    doc = json.loads((folder / "plan.json").read_text())
    doc["lock"]["locked"] = True
    for step in doc["steps"]:
        step["locked"] = True
        (folder / step["name"] / "requirements.txt").write_text("# a stand-in lock\n")
    (folder / "plan.json").write_text(json.dumps(doc, indent=2) + "\n")


def on_a_terminal(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[str, str, int]:
    """(stdout, what was drawn on stderr, exit code) of envplan ARGS with stderr a pseudo-terminal and stdout a pipe."""
    import os
    import pty
    import subprocess
    import threading

    main, tty = pty.openpty()
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal's other end is closed
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    env = {**(env or os.environ), "COLUMNS": "150"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "envplan", *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=tty
    )
    os.close(tty)
    stdout, _ = proc.communicate(timeout=120)
    reader.join(timeout=10)
    os.close(main)
    return stdout.decode(), b"".join(chunks).decode(errors="replace"), proc.returncode


def first_ref(kb: Any, text: str) -> str:
    """The cause `envplan explain` names first for `text` (with c++filt's demangling), or "none"."""
    from envplan.live.demangle import demangle_one
    from envplan.live.diagnose import explain_text

    found = explain_text(text, kb, demangle_one)
    return found[0].ref if found else "none"


def assert_first_ref(kb: Any, text: str, ref: str) -> None:
    """`envplan explain` names `ref` first for `text` ("none": it names nothing)."""
    assert first_ref(kb, text) == ref, text
