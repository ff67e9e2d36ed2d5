"""`envplan check`: a profile against the knowledge base. Pure: profile + KB in, findings out."""

from __future__ import annotations

from dataclasses import replace

from envplan.core.compat import Context, assess_python, assess_variant, context_of, unknown_gpu
from envplan.core.findings import Finding
from envplan.core.platforms import offer_for
from envplan.core.torchbound import bound_choice
from envplan.core.variantchoice import choose_variant, gpu_build_hint
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.profile.model import Profile

__all__ = ["check_profile", "context_of", "with_gpu_hint"]


def check_profile(profile: Profile, kb: KB) -> list[Finding]:
    """Every finding about the profile's stack on its machine, errors first."""
    ctx = context_of(profile, kb)
    findings = _gpu_findings(ctx)
    release = kb.release(profile.stack.torch)
    if release is None:
        return [_unknown_torch(profile, kb), *findings]
    findings += _release_doubts(release)
    findings += _variant(profile, ctx, release, kb)
    findings += _companions(profile, release)
    findings += _bound(profile, release, kb)
    offer = offer_for(kb, release, ctx.platform)
    findings += assess_python(profile.python.version, profile.python.free_threaded, release, offer)
    order = {"error": 0, "warning": 1, "info": 2}
    return sorted(findings, key=lambda f: order[f.severity])


def _gpu_findings(ctx: Context) -> list[Finding]:
    out = []
    for gpu in ctx.gpus:
        if not gpu.known:
            out.append(unknown_gpu(gpu))
        elif not gpu.verified:
            out.append(
                Finding(
                    ref="unverified-fact",
                    severity="info",
                    key="machine.gpus",
                    message=f"the compute capability of {gpu.name} ({gpu.sm}) comes from an unverified source",
                    fix="confirm it with nvidia-smi --query-gpu=compute_cap --format=csv and set "
                    "machine.compute-capability",
                )
            )
    return out


def _unknown_torch(profile: Profile, kb: KB) -> Finding:
    same_minor = kb.minor_releases(profile.stack.torch)
    known = (
        ", ".join(str(r.torch) for r in same_minor) if same_minor else ", ".join(str(r.torch) for r in kb.releases[-3:])
    )
    return Finding(
        ref="unknown-torch",
        severity="error",
        key="stack.torch",
        message=f"{profile.stack.torch} is not a torch release the KB knows; known: {known}",
        fix="pick a release from `envplan matrix`",
    )


def _release_doubts(release: Release) -> list[Finding]:
    if release.verified is True and not release.unverified_fields:
        return []
    fields = f" (doubtful: {', '.join(release.unverified_fields)})" if release.unverified_fields else ""
    return [
        Finding(
            ref="unverified-release" if release.verified is False else "unverified-fact",
            severity="warning" if release.verified is False else "info",
            key="stack.torch",
            message=f"the KB's facts about torch {release.torch} are "
            f"{'not verified' if release.verified is False else 'partly derived'}{fields}",
            fix="check them against the release's own notes before relying on them",
        )
    ]


def with_gpu_hint(findings: list[Finding], ctx: Context, release: Release, kb: KB) -> list[Finding]:
    """A CPU build on a GPU machine: name the exact GPU variant that fits and how to switch."""
    return [replace(f, fix=gpu_build_hint(ctx, release, kb)) if f.ref == "cpu-build-on-gpu" else f for f in findings]


def _variant(profile: Profile, ctx: Context, release: Release, kb: KB) -> list[Finding]:
    if profile.stack.variant != "auto":
        return with_gpu_hint(assess_variant(ctx, release, profile.stack.variant, kb), ctx, release, kb)
    choice = choose_variant(ctx, release, kb)
    if choice.variant is None:
        return [
            Finding(
                ref="no-variant-fits",
                severity="error",
                key="stack.variant",
                message=f"no variant of torch {release.torch} fits this machine: "
                + "; ".join(f"{v}: {f.message}" for v, f in choice.rejected),
                fix="change the machine (driver, GPU) or choose another torch release",
            )
        ]
    chosen = Finding(ref="variant-chosen", severity="info", key="stack.variant", message=f"auto chose {choice.reason}")
    return [chosen, *choice.findings]


def _bound(profile: Profile, release: Release, kb: KB) -> list[Finding]:
    """Packages that pin torch or ship code compiled against it: today's must go with today's torch."""
    out = []
    for i, req in enumerate(profile.stack.packages):
        facts = kb.bound(req.name)
        if facts is None:
            continue
        choice = bound_choice(req, facts, release, profile.python.version, profile.machine)
        key = f"stack.packages[{i}]"
        if choice.blocked:
            out.append(
                Finding(ref="torch-bound-mismatch", severity="error", key=key, message=choice.blocked, fix=choice.fix)
            )
        else:
            out.append(
                Finding(
                    ref="torch-bound",
                    severity="info",
                    key=key,
                    message=f"{req.name} moves with torch: {choice.reason}; `envplan upgrade` re-pins it after torch",
                )
            )
    return out


def _companions(profile: Profile, release: Release) -> list[Finding]:
    out = []
    for name in ("torchvision", "torchaudio"):
        want = getattr(profile.stack, name)
        exact = getattr(release, name)
        if want is None or want in ("auto", exact):
            continue
        conda = getattr(release, f"conda_{name}")
        trap = (
            f" ({want} is the conda pairing of torch {release.torch}; pip wheels pair it with {exact})"
            if conda is not None and want == conda
            else ""
        )
        out.append(
            Finding(
                ref="companion-mismatch",
                severity="error",
                key=f"stack.{name}",
                message=f"{name} {want} does not match torch {release.torch}; its exact companion is "
                f"{exact}{trap} (mismatches fail at import, e.g. "
                '"operator torchvision::nms does not exist")',
                fix=f'set {name} = "{exact}" (or "auto")',
            )
        )
    for name in ("torchvision", "torchaudio"):
        if getattr(profile.stack, name) is not None and release.is_doubtful(name):
            out.append(
                Finding(
                    ref="unverified-companion",
                    severity="warning",
                    key=f"stack.{name}",
                    message=f"the {name} pairing of torch {release.torch} "
                    f"({getattr(release, name)}) is inferred, not verified",
                    fix=f"check the {name} wheel's Requires-Dist on torch before relying on it",
                )
            )
    return out
