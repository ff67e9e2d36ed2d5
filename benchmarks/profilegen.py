"""Generated fleets: profiles made from the KB's releases, variants and GPUs, each with an upgrade target."""

from __future__ import annotations

import json
from dataclasses import dataclass

from envplan.kb import KB
from envplan.kb.model import Release

__all__ = ["GeneratedProfile", "generate_profiles"]

DRIVERS = ("470.42.01", "525.60.13", "535.104.05", "550.54.14", "570.86.10", "580.65.06")
PACKAGE_SETS = ((), ("numpy<2",), ("numpy<2", "einops"), ("timm",), ("numpy<2", "timm", "einops"))
EXTENSIONS = (("causal-conv1d", "1.0.0"), ("flash-attn", "2.5.6"))


@dataclass(frozen=True, slots=True)
class GeneratedProfile:
    name: str
    text: str
    target: str  # what `--to` gets: X.Y or X.Y.Z


def _variant(release: Release, i: int) -> str:
    usable = [v for v in release.variants if not v.startswith("rocm")]
    return usable[i % len(usable)]


def _machine(kb: KB, variant: str, i: int) -> list[str]:
    lines = ["[machine]", 'os = "linux"', 'arch = "x86_64"', f'glibc = "{("2.31", "2.35", "2.28")[i % 3]}"']
    if variant != "cpu":
        gpus = [g for g in kb.gpus if g.vendor == "nvidia" and not g.tegra]
        gpu = gpus[(i * 7) % len(gpus)].names[0]
        lines += [f"gpus = {json.dumps([gpu] * (1 + i % 4))}", f'driver = "{DRIVERS[i % len(DRIVERS)]}"']
        if i % 5 == 0:
            lines.append(f'cuda-toolkit = "{variant[2:-1]}.{variant[-1]}"')
    return lines


def _stack(release: Release, variant: str, i: int) -> list[str]:
    lines = ["[stack]", f'torch = "{release.torch}"', f'variant = "{variant}"']
    lines.append(f'torchvision = "{release.torchvision}"')
    if i % 2:
        lines.append(f'torchaudio = "{release.torchaudio}"')
    lines.append(f"packages = {json.dumps(list(PACKAGE_SETS[i % len(PACKAGE_SETS)]))}")
    if i % 5 == 0:
        name, version = EXTENSIONS[(i // 5) % len(EXTENSIONS)]
        lines += ["", "[[extensions]]", f'name = "{name}"', f'version = "{version}"']
    return lines


def _target(kb: KB, source: int, i: int) -> str:
    later = kb.releases[source + 1 :]
    release = later[(i * 3) % len(later)]
    return str(release.minor) if i % 2 else str(release.torch)


def generate_profiles(kb: KB, n: int) -> list[GeneratedProfile]:
    """`n` distinct, deterministic profiles across the KB (every release but the newest is a source)."""
    out = []
    for i in range(n):
        source = i % (len(kb.releases) - 1)
        release = kb.releases[source]
        variant = _variant(release, i // len(kb.releases))
        python = release.python_versions[i % len(release.python_versions)]
        name = f"gen-{i:04d}"
        text = "\n".join(
            [
                "schema = 1",
                f'name = "{name}"',
                "",
                *_machine(kb, variant, i),
                "",
                "[python]",
                f'version = "{python}"',
                "",
                *_stack(release, variant, i),
            ]
        )
        out.append(GeneratedProfile(name=name, text=text + "\n", target=_target(kb, source, i)))
    return out
