"""Why a target cannot be reached, and what would unblock it: every obstacle at once, each with the value that
removes it (the driver, the glibc, the Python, the nearest releases with kernels for a GPU). Pure."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from packaging.version import Version

from envplan.core.compat import (
    Context,
    assess_python,
    assess_variant,
    last_release_on,
    nearest_releases_fix,
    no_wheels,
    releases_for,
)
from envplan.core.findings import Finding, has_errors
from envplan.core.plan import Blocker
from envplan.core.platforms import Offer, offer_for
from envplan.core.variantchoice import candidates, choose_variant, wanted_kind
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.kb.variants import format_cc

__all__ = ["blockers_for", "newest_reachable"]

_HANDLED = ("python-unsupported", "driver-too-old", "gpu-arch-unsupported", "glibc-too-old")


def blockers_for(
    ctx: Context, release: Release, kb: KB, *, python: Version, free_threaded: bool, only: str | None = None
) -> list[Blocker]:
    """Every obstacle between the machine and `release` (in `only` when a variant is forced), or []."""
    offer = offer_for(kb, release, ctx.platform)
    if offer.known and not offer.variants:  # nothing at all for this platform: the one blocker that matters
        f = no_wheels(offer, kb)
        last = last_release_on(kb, ctx.platform)
        return [Blocker(ref=f.ref, message=f.message, fix=f.fix, needs={"last-release": str(last)} if last else {})]
    having = _releases_with(kb, ctx.platform, f"{python}{'t' if free_threaded else ''}")
    out = [
        _python_blocker(f, offer, python, having)
        for f in assess_python(python, free_threaded, release, offer)
        if _error(f)
    ]
    candidates = [only] if only else _candidates(ctx, release, kb)
    errors = {v: [f for f in assess_variant(ctx, release, v, kb) if _error(f)] for v in candidates}
    if not errors or all(errors.values()):
        out += _variant_blockers(ctx, release, kb, errors)
    return out


def _error(f: Finding) -> bool:
    return f.severity == "error"


def _candidates(ctx: Context, release: Release, kb: KB) -> list[str]:
    return candidates(offer_for(kb, release, ctx.platform), wanted_kind(ctx))


def _variant_blockers(ctx: Context, release: Release, kb: KB, errors: dict[str, list[Finding]]) -> list[Blocker]:
    """The obstacles every candidate shares; when they fail for different reasons, those of the candidate that
    needs the fewest changes (named, so the user knows which build the fix is for)."""
    if not errors:
        offer = offer_for(kb, release, ctx.platform)
        kind = wanted_kind(ctx)
        return [
            Blocker(
                ref="no-variant-for-device",
                message=f"torch {release.torch} publishes no {kind.upper()} build for {offer.label}; "
                f"its builds there: {', '.join(offer.variants) or 'none'}",
                fix="choose another torch release (envplan matrix), or another machine",
            )
        ]
    kinds = [{f.ref for f in fs} for fs in errors.values()]
    shared = set.intersection(*kinds)
    if shared:
        focus = errors
    else:
        best = min(errors, key=lambda v: (len({f.ref for f in errors[v]}), v))
        focus = {best: errors[best]}
        shared = {f.ref for f in errors[best]}
    out = []
    if "driver-too-old" in shared:
        out.append(_driver_blocker(ctx, release, focus, kb))
    if "gpu-arch-unsupported" in shared:
        out.append(_arch_blocker(ctx, release, focus, kb))
    if "glibc-too-old" in shared:
        out.append(_glibc_blocker(ctx, release, focus, kb))
    for f in _first_each(f for fs in focus.values() for f in fs if f.ref in shared - set(_HANDLED)):
        out.append(Blocker(ref=f.ref, message=f.message, fix=f.fix + _reachable(ctx, kb)))
    return out


def _first_each(findings: Iterable[Finding]) -> list[Finding]:
    seen: dict[str, Finding] = {}
    for f in findings:
        seen.setdefault(f.ref, f)
    return list(seen.values())


def _which(focus: dict[str, list[Finding]], release: Release) -> str:
    variants = sorted(focus)
    if len(variants) == 1:
        return f"torch {release.torch}+{variants[0]}"
    return f"every usable variant of torch {release.torch} ({', '.join(variants)})"


def _driver_blocker(ctx: Context, release: Release, focus: dict[str, list[Finding]], kb: KB) -> Blocker:
    """Name the least driver that would do: the lowest floor among the variants in focus."""
    floors: list[tuple[Version, Version, str]] = []
    for variant in focus:
        tk = kb.toolkit_for_variant(variant)
        full = tk.driver(ctx.machine.os) if tk else None
        if tk is not None and full is not None:
            floors.append((tk.minor_compat_driver(ctx.machine.os) or full, full, variant))
    needs: dict[str, str] = {}
    detail = ""
    if floors:
        least, full, variant = min(floors)
        needs = {"driver": str(least), "driver-full": str(full), "variant": variant}
        how = "by minor-version compatibility; " if least != full else ""
        detail = f"; the least it needs is {least} ({variant}, {how}{full} for full support)"
    return Blocker(
        ref="driver-too-old",
        message=f"driver {ctx.machine.driver} is too old for {_which(focus, release)}{detail}",
        fix=(f"upgrade the NVIDIA driver to >= {needs['driver']}" if needs else "upgrade the NVIDIA driver")
        + _reachable(ctx, kb),
        needs=needs,
    )


def _arch_blocker(ctx: Context, release: Release, focus: dict[str, list[Finding]], kb: KB) -> Blocker:
    bad = [
        g
        for g in ctx.of("nvidia")
        if g.cc is not None
        and all(any(f.ref == "gpu-arch-unsupported" and g.name in f.message for f in fs) for fs in focus.values())
    ]
    names = ", ".join(f"{g.name} ({g.sm})" for g in bad) or "a GPU"
    cc = ", ".join(format_cc(g.cc) for g in bad if g.cc)
    needs: dict[str, str] = {}
    fixes = []
    for g in bad:
        assert g.cc is not None
        builds = releases_for(kb, ctx, g.cc)
        earlier = [b for b in builds if b[0] < release.torch]
        later = [b for b in builds if b[0] > release.torch]
        if earlier:
            needs[f"earlier-{g.sm}"] = f"{earlier[-1][0]}+{earlier[-1][1]}"
        if later:
            needs[f"later-{g.sm}"] = f"{later[0][0]}+{later[0][1]}"
        fixes.append(nearest_releases_fix(kb, ctx, release, g.cc))
    return Blocker(
        ref="gpu-arch-unsupported",
        message=f"{_which(focus, release)} carries no kernels for {names} (compute capability "
        f'{cc}): "no kernel image is available for execution"',
        fix="; ".join(fixes) or "build torch from source with TORCH_CUDA_ARCH_LIST including it",
        needs=needs,
    )


def _glibc_blocker(ctx: Context, release: Release, focus: dict[str, list[Finding]], kb: KB) -> Blocker:
    floor = min(release.glibc_for(v) for v in focus)
    return Blocker(
        ref="glibc-too-old",
        message=f"glibc {ctx.machine.glibc} is older than {floor}, which {_which(focus, release)} needs",
        fix=f"move to a system (or container) with glibc >= {floor}" + _reachable(ctx, kb),
        needs={"glibc": str(floor)},
    )


def _releases_with(kb: KB, platform: str, tag: str) -> list[Version]:
    """The releases that publish wheels for the Python `tag` on `platform`, oldest first."""
    return [r.torch for r in kb.releases if (o := offer_for(kb, r, platform)).known and tag in o.python]


def _python_blocker(finding: Finding, offer: Offer, python: Version, having: list[Version]) -> Blocker:
    """Both ways out: the nearest Python the release supports, and the nearest releases that support this Python."""
    regular = offer.python_tags(free_threaded=False)
    needs: dict[str, str] = {}
    fixes = [finding.fix]
    if regular:
        nearest = next((p for p in regular if Version(p) >= python), regular[-1])
        needs.update({"python": f"{regular[0]}-{regular[-1]}", "nearest-python": nearest})
        fixes.append(f"rerun with --python-version {nearest} to plan the Python step too")
    later = [v for v in having if v > offer.release.torch]
    earlier = [v for v in having if v < offer.release.torch]
    if later:
        needs["later-release"] = str(later[0])
        fixes.append(f"the first later torch with these wheels for {offer.label} is {later[0]}")
    if earlier:
        needs["earlier-release"] = str(earlier[-1])
        fixes.append(f"the last earlier one is {earlier[-1]}")
    return Blocker(ref="python-unsupported", message=finding.message, fix="; ".join(fixes), needs=needs)


@cache
def newest_reachable(ctx: Context, kb: KB, python: Version | None = None) -> tuple[Release, str] | None:
    """The newest release (and variant) that fits the machine as it is today."""
    for release in reversed(kb.releases):
        offer = offer_for(kb, release, ctx.platform)
        if python is not None and has_errors(assess_python(python, False, release, offer)):
            continue
        choice = choose_variant(ctx, release, kb)
        if choice.variant is not None:
            return release, choice.variant
    return None


def _reachable(ctx: Context, kb: KB) -> str:
    best = newest_reachable(ctx, kb)
    return f"; with the machine as it is, the newest reachable torch is {best[0].torch}+{best[1]}" if best else ""
