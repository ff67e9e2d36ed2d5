"""Why a target cannot be reached, and what would unblock it. Pure."""

from __future__ import annotations

from collections.abc import Iterable

from packaging.version import Version

from envplan.compat import Context, assess_python, assess_variant, choose_variant, releases_for
from envplan.findings import Finding, has_errors
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.plan_model import Blocker
from envplan.variants import format_cc, parse_variant

__all__ = ["hop_blockers", "newest_reachable", "python_blocker"]


def hop_blockers(ctx: Context, release: Release, kb: KB, *, only: str | None = None) -> list[Blocker]:
    """Why no candidate variant of `release` works: the kinds of error every candidate shares (each one a
    real obstacle), or, when they fail for different reasons, each reason once."""
    candidates = [only] if only else _device_variants(ctx, release)
    errors = {v: [f for f in assess_variant(ctx, release, v, kb) if f.severity == "error"] for v in candidates}
    kinds = [{f.ref for f in fs} for fs in errors.values()]
    shared = set.intersection(*kinds) if kinds else set()
    wanted = shared or set.union(*kinds) if kinds else set()
    out = []
    if "driver-too-old" in wanted:
        out.append(_driver_blocker(ctx, release, errors, kb))
    if "gpu-arch-unsupported" in wanted:
        out.append(_arch_blocker(ctx, release, errors, kb))
    if "glibc-too-old" in wanted:
        floor = min(release.glibc_for(v) for v in candidates)
        out.append(
            Blocker(
                ref="glibc-too-old",
                message=f"glibc {ctx.machine.glibc} is older than {floor}, which "
                f"every build of torch {release.torch} needs",
                fix=f"move to a system (or container) with glibc >= {floor}" + _reachable(ctx, kb),
            )
        )
    handled = {"driver-too-old", "gpu-arch-unsupported", "glibc-too-old"}
    for f in _first_each(f for fs in errors.values() for f in fs if f.ref in wanted - handled):
        out.append(Blocker(ref=f.ref, message=f.message, fix=f.fix))
    return out or [
        Blocker(
            ref="no-variant-fits",
            message=f"no variant of torch {release.torch} fits this machine",
            fix="run `envplan check` on the target profile for details",
        )
    ]


def _device_variants(ctx: Context, release: Release) -> list[str]:
    want = "cuda" if ctx.gpus else "cpu"
    return [v for v in release.variants if (p := parse_variant(v)) is not None and p.kind == want]


def _first_each(findings: Iterable[Finding]) -> list[Finding]:
    seen: dict[str, Finding] = {}
    for f in findings:
        seen.setdefault(f.ref, f)
    return list(seen.values())


def _driver_blocker(ctx: Context, release: Release, errors: dict[str, list[Finding]], kb: KB) -> Blocker:
    """Name the least driver that would do: the lowest floor among the variants that fail on the driver alone."""
    floors: list[tuple[Version, Version, str]] = []
    for variant, fs in errors.items():
        tk = kb.toolkit_for_variant(variant)
        full = tk.driver(ctx.machine.os) if tk else None
        if tk and full and all(f.ref == "driver-too-old" for f in fs):
            floors.append((tk.minor_compat_driver(ctx.machine.os) or full, full, variant))
    need = ""
    if floors:
        compat, full, variant = min(floors)
        need = f"; the least it needs is {compat} ({variant}, by minor-version compatibility; {full} for full support)"
    return Blocker(
        ref="driver-too-old",
        message=f"driver {ctx.machine.driver} is too old for every usable variant of torch {release.torch}{need}",
        fix="upgrade the NVIDIA driver" + _reachable(ctx, kb),
    )


def _arch_blocker(ctx: Context, release: Release, errors: dict[str, list[Finding]], kb: KB) -> Blocker:
    bad = [
        g
        for g in ctx.gpus
        if g.cc is not None
        and all(any(f.ref == "gpu-arch-unsupported" and g.name in f.message for f in fs) for fs in errors.values())
    ]
    names = ", ".join(f"{g.name} ({g.sm})" for g in bad) or "a GPU"
    hints = []
    for g in bad:
        builds = [b for b in releases_for(kb, ctx, g.cc) if b[0] < release.torch] if g.cc else []
        if builds:
            hints.append(f"the last release with kernels for {g.sm} is {builds[-1][0]}+{builds[-1][1]}")
    cc = ", ".join(format_cc(g.cc) for g in bad if g.cc)
    return Blocker(
        ref="gpu-arch-unsupported",
        message=f"no build of torch {release.torch} carries kernels for {names} (compute capability "
        f'{cc}): "no kernel image is available for execution"',
        fix=("; ".join(hints) or "build torch from source with TORCH_CUDA_ARCH_LIST including it"),
    )


def newest_reachable(ctx: Context, kb: KB, python: Version | None = None) -> tuple[Release, str] | None:
    """The newest release (and variant) that fits the machine as it is today."""
    for release in reversed(kb.releases):
        if python is not None and has_errors(assess_python(python, False, release)):
            continue
        choice = choose_variant(ctx, release, kb)
        if choice.variant is not None:
            return release, choice.variant
    return None


def _reachable(ctx: Context, kb: KB) -> str:
    best = newest_reachable(ctx, kb)
    return f"; with the machine as it is, the newest reachable torch is {best[0].torch}+{best[1]}" if best else ""


def python_blocker(release: Release, python: Version) -> Blocker:
    supported = release.python_versions
    nearest = next((v for v in supported if Version(v) >= python), supported[-1])
    return Blocker(
        ref="python-unsupported",
        message=f"torch {release.torch} publishes wheels for Python {supported[0]}-{supported[-1]}, not {python}",
        fix=f"move to Python {nearest} first: rerun with --python-version {nearest} to plan that step too",
    )
