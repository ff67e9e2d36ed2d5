"""Helpers for the locking tests: profiles pointing at the fake indexes."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path


def profile_text(
    urls: tuple[str, str],
    *,
    torch: str = "2.1.2",
    variant: str = "cu118",
    python: str = "3.10",
    vision: str | None = "0.16.2",
    packages: tuple[str, ...] = ("numpy<2",),
    extra: str = "",
) -> str:
    vision_line = f'torchvision = "{vision}"' if vision else ""
    gpu = 'gpus = ["A100"]\ndriver = "535.104.05"' if variant != "cpu" else ""
    return textwrap.dedent(f"""\
        schema = 1
        name = "fake"
        [machine]
        glibc = "2.31"
        {gpu}
        [python]
        version = "{python}"
        [stack]
        torch = "{torch}"
        variant = "{variant}"
        {vision_line}
        packages = {list(packages)!r}
        {extra}
        [indexes]
        pypi = "{urls[0]}"
        pytorch = "{urls[1]}"
        """).replace("'", '"')


def copy_tree(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst
