"""Which variant of a release a machine should install, by explicit, ordered criteria. Pure.

Among the variants the release publishes for the machine's platform, of the kind its GPUs need (CUDA for
NVIDIA, ROCm for AMD, XPU for Intel, CPU only without GPUs), every variant that has an error is rejected; the
rest are ordered by, in turn:

1. the same family as today's variant (CUDA major, ROCm major): a CUDA major change moves every compiled
   extension and the toolkit that builds them, so it is taken only when no variant of today's major fits;
2. an architecture list known to carry every GPU on this platform (read there, or inferred from another
   platform's by a documented rule), before an unknown one;
3. advertised by PyTorch, before builds only seen on the index;
4. full driver support, before CUDA minor-version compatibility, before a driver floor the KB does not know
   (e.g. CUDA 13 on Windows);
5. when an extension needs nvcc's exact CUDA (apex), the variant whose CUDA equals nvcc's;
6. the build PyPI serves by default on this platform (one index fewer);
7. the newest CUDA/ROCm.

docs/variants.md states the same order for users.
"""

from __future__ import annotations

from dataclasses import dataclass

from envplan.core.compat import Context, assess_variant, device_kind
from envplan.core.findings import Finding
from envplan.core.platforms import Offer, arch_support, offer_for
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.kb.variants import Variant, parse_variant

__all__ = ["Choice", "candidates", "choose_variant", "gpu_build_hint", "wanted_kind"]

Rank = tuple[int, int, int, int, int, int, float]


@dataclass(frozen=True, kw_only=True, slots=True)
class Choice:
    variant: str | None
    reason: str
    findings: tuple[Finding, ...] = ()
    rejected: tuple[tuple[str, Finding], ...] = ()  # each candidate turned down, with its first error
    family_change: str = ""  # "CUDA 12 -> 13" when the choice leaves today's family


def wanted_kind(ctx: Context) -> str:
    """The build kind a choice is made among: the GPUs' kind; without GPUs, today's GPU kind; else CPU."""
    machine = device_kind(ctx)
    if machine != "cpu":
        return machine
    today = parse_variant(ctx.today) if ctx.today else None
    return today.kind if today is not None else "cpu"


def choose_variant(ctx: Context, release: Release, kb: KB, *, kind: str | None = None) -> Choice:
    """The best variant of `release` for the machine, and why (criteria in the module docstring)."""
    offer = offer_for(kb, release, ctx.platform)
    want = kind or wanted_kind(ctx)
    scored: list[tuple[Rank, str, list[Finding]]] = []
    rejected: list[tuple[str, Finding]] = []
    for variant in candidates(offer, want):
        findings = assess_variant(ctx, release, variant, kb)
        errors = [f for f in findings if f.severity == "error"]
        if errors:
            rejected.append((variant, errors[0]))
        else:
            scored.append((_rank(ctx, offer, variant, findings, kb), variant, findings))
    if not scored:
        what = f"no {want.upper() if want != 'cpu' else 'CPU'} variant"
        return Choice(
            variant=None,
            reason=f"{what} of torch {release.torch} fits this machine ({offer.label})",
            rejected=tuple(rejected),
        )
    scored.sort(key=lambda s: s[0])
    _, best, findings = scored[0]
    return Choice(
        variant=best,
        reason=_why(ctx, offer, scored),
        findings=tuple(findings),
        rejected=tuple(rejected),
        family_change=_family_change(ctx.today, best),
    )


def candidates(offer: Offer, kind: str) -> list[str]:
    """The builds of `kind` a release offers on the platform (on Linux x86_64 also those only seen on the index)."""
    variants = list(offer.variants)
    if offer.platform == "linux-x86_64":
        variants += [v for v in offer.release.unadvertised_variants if v not in variants]
    return [v for v in variants if (p := parse_variant(v)) is not None and p.kind == kind]


def _family(variant: str) -> str:
    v = parse_variant(variant)
    return v.family if v is not None else ""


def _family_change(today: str, chosen: str) -> str:
    before, after = parse_variant(today) if today else None, parse_variant(chosen)
    if before is None or after is None or before.family == after.family or before.kind == "cpu":
        return ""
    return f"{_family_name(before)} -> {_family_name(after)} ({today} -> {chosen})"


def _family_name(v: Variant) -> str:
    names = {"cuda": "CUDA", "rocm": "ROCm", "xpu": "XPU", "cpu": "CPU"}
    return f"{names[v.kind]} {v.version.major}" if v.version is not None else names[v.kind]


def _rank(ctx: Context, offer: Offer, variant: str, findings: list[Finding], kb: KB) -> Rank:
    v = parse_variant(variant)
    today = parse_variant(ctx.today) if ctx.today else None
    same_family = today is None or today.kind == "cpu" or (v is not None and v.family == today.family)
    status = _arch_status(ctx, offer.release, variant, kb)
    refs = {f.ref for f in findings}
    toolkit = ctx.machine.cuda_toolkit
    exact_nvcc = v is not None and v.cuda is not None and toolkit is not None and v.cuda == toolkit
    newest = float(v.version.major * 100 + v.version.minor) if v and v.version and len(v.version.release) > 1 else 0.0
    return (
        0 if same_family else 1,
        {"known": 0, "inferred": 0, "unknown": 1}[status],
        1 if "variant-unadvertised" in refs else 0,
        2 if "driver-floor-unknown" in refs else 1 if "driver-minor-compat" in refs else 0,
        0 if not ctx.exact_toolkit or exact_nvcc else 1,
        0 if variant == offer.pypi_default else 1,
        -newest,
    )


def _arch_status(ctx: Context, release: Release, variant: str, kb: KB) -> str:
    """How well the KB knows that `variant` carries the machine's GPU architectures on its platform."""
    v = parse_variant(variant)
    if v is not None and v.kind == "cuda" and ctx.of("nvidia"):
        return arch_support(kb, release, variant, ctx.platform).status
    if v is not None and v.kind == "rocm" and ctx.of("amd"):
        return "known" if kb.rocm_gfx(release, variant) is not None else "unknown"
    return "known"


def _why(ctx: Context, offer: Offer, scored: list[tuple[Rank, str, list[Finding]]]) -> str:
    """Why the first of `scored` (sorted) won, and why the runner-up lost."""
    rank, variant, _findings = scored[0]
    others = scored[1:]
    v = parse_variant(variant)
    if v is None or v.kind == "cpu":
        return f"{variant}: no GPU listed, so the CPU build"
    parts = [f"{variant}: {_gpu_clause(ctx, rank)}"]
    today = parse_variant(ctx.today) if ctx.today else None
    if today is not None and today.family == v.family and ctx.today != variant:
        parts.append(f"the same {_family_name(v)} family as today's {ctx.today}")
    if v.kind == "cuda" and ctx.machine.driver is not None:
        support = ("fully supports it", "runs it by minor-version compatibility", "may run it: the KB has no floor")
        parts.append(f"driver {ctx.machine.driver} {support[rank[3]]}")
    if ctx.exact_toolkit and rank[4] == 0:
        parts.append(f"its CUDA equals nvcc {ctx.machine.cuda_toolkit}, which an extension needs exactly")
    if variant == offer.pypi_default:
        parts.append(f"it is the build PyPI serves by default on {offer.label} (one index fewer)")
    lost = _runner_up(ctx, offer, others, rank)
    return ", ".join(parts) + (f"; {lost}" if lost else "")


def _gpu_clause(ctx: Context, rank: Rank) -> str:
    if not ctx.of("nvidia"):
        return "built for the machine's GPUs"
    return (
        "every GPU is in its architecture list" if rank[1] == 0 else "the KB does not know its architecture list here"
    )


def _runner_up(ctx: Context, offer: Offer, others: list[tuple[Rank, str, list[Finding]]], rank: Rank) -> str:
    """Why the strongest alternative lost: the first criterion on which it ranks worse."""
    if not others:
        return ""
    other_rank, other, _ = others[0]
    because = (
        f"it would leave today's family ({_family_change(ctx.today, other)})",
        "its architecture list for this platform is less certain",
        "it is not advertised by PyTorch",
        _driver_clause(other_rank[3]),
        f"its CUDA differs from nvcc {ctx.machine.cuda_toolkit}",
        f"it is not PyPI's default build on {offer.label}",
        "it is older",
    )
    i = next((i for i, (a, b) in enumerate(zip(rank, other_rank, strict=True)) if a != b), None)
    return f"not {other}: {because[i]}" if i is not None else ""


def _driver_clause(level: int) -> str:
    return (
        "the driver fully supports it too",
        "it would need CUDA minor-version compatibility",
        "the KB has no driver floor for its CUDA on this OS",
    )[level]


def gpu_build_hint(ctx: Context, release: Release, kb: KB) -> str:
    """For a CPU build on a GPU machine: the exact variant that fits, and how to switch to it."""
    kind = device_kind(ctx)
    choice = choose_variant(ctx, release, kb, kind=kind)
    if choice.variant is None:
        return f"no GPU build of torch {release.torch} fits this machine: {choice.reason}"
    return (
        f'{choice.variant} fits ({choice.reason}): set stack.variant = "{choice.variant}" '
        f'(or "auto"), or plan with --variant {choice.variant}'
    )
