"""`envplan check`: a profile against the knowledge base. Pure: profile + KB in, findings out."""

from __future__ import annotations

from envplan.compat import Context, assess_python, assess_variant, choose_variant, unknown_gpu
from envplan.findings import Finding, Severity
from envplan.gpu import machine_gpus
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.profile import Profile

__all__ = ["check_profile", "context_of"]


def context_of(profile: Profile, kb: KB) -> Context:
    m = profile.machine
    return Context(
        machine=m, gpus=machine_gpus(m.gpus, m.compute_capability, kb.gpus), needs_build=bool(profile.extensions)
    )


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
    findings += assess_python(profile.python.version, profile.python.free_threaded, release)
    order = {"error": 0, "warning": 1, "info": 2}
    return sorted(findings, key=lambda f: order[f.severity])


def _gpu_findings(ctx: Context) -> list[Finding]:
    out = []
    for gpu in ctx.gpus:
        if gpu.cc is None:
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
    severity: Severity = "warning" if release.verified is False else "info"
    return [
        Finding(
            ref="unverified-fact",
            severity=severity,
            key="stack.torch",
            message=f"the KB's facts about torch {release.torch} are "
            f"{'not verified' if release.verified is False else 'partly derived'}{fields}",
            fix="check them against the release's own notes before relying on them",
        )
    ]


def _variant(profile: Profile, ctx: Context, release: Release, kb: KB) -> list[Finding]:
    if profile.stack.variant != "auto":
        return assess_variant(ctx, release, profile.stack.variant, kb)
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
                    ref="unverified-fact",
                    severity="warning",
                    key=f"stack.{name}",
                    message=f"the {name} pairing of torch {release.torch} "
                    f"({getattr(release, name)}) is inferred, not verified",
                    fix=f"check the {name} wheel's Requires-Dist on torch before relying on it",
                )
            )
    return out
