"""How each compiled extension gets into a step: a matching prebuilt wheel, or a source build against the
step's torch with the right environment. Pure."""

from __future__ import annotations

from dataclasses import replace

from packaging.version import Version

from envplan.compat import Context
from envplan.extmatch import Target, choose_build
from envplan.kb import KB
from envplan.kb.extmodel import ExtensionFacts
from envplan.kb.model import Release
from envplan.plan_model import Build, ExtensionBuild
from envplan.profile import Extension, Profile
from envplan.variants import format_cc, parse_variant

__all__ = ["arch_list_for", "extension_builds"]


def arch_list_for(ctx: Context, release: Release, variant: str, kb: KB) -> tuple[str, str]:
    """(TORCH_CUDA_ARCH_LIST, where it came from): every GPU of the profile, else the wheel's own list."""
    ccs = sorted({g.cc for g in ctx.gpus if g.cc is not None})
    if ccs:
        return ";".join(format_cc(c) for c in ccs), "the profile's GPUs"
    row = kb.wheel_archs(release, variant)
    listed = row.arch_list(ctx.machine.arch) if row else ""
    return listed, f"torch {release.torch}+{variant}'s own architecture list (no GPU in the profile)"


def extension_builds(
    profile: Profile, ctx: Context, build: Build, previous: Release | None, kb: KB, *, python: Version | None = None
) -> tuple[ExtensionBuild, ...]:
    """One entry per extension of the profile, in build order (mamba-ssm after causal-conv1d)."""
    target = Target(
        release=build.release,
        variant=build.variant,
        python=python or profile.python.version,
        machine=profile.machine,
        pytorch_index=f"{profile.indexes.pytorch}/{build.variant}",
    )
    builds = [_one(ext, ctx, target, previous, kb) for ext in profile.extensions]
    order = {e.name: i for i, e in enumerate(builds)}
    for e in builds:
        facts = kb.extension(e.name)
        for before in facts.after if facts else ():
            if before in order and order[before] > order[e.name]:
                order[e.name], order[before] = order[before], order[e.name]
    return tuple(sorted(builds, key=lambda e: order[e.name]))


def _one(ext: Extension, ctx: Context, target: Target, previous: Release | None, kb: KB) -> ExtensionBuild:
    facts = kb.extension(ext.name)
    choice = choose_build(ext, target, kb)
    head = (_why(ext.name, target, previous),)
    notes = _gpu_notes(facts, ctx)
    base = ExtensionBuild(
        name=ext.name,
        version=choice.version,
        method=choice.method,
        spec=choice.spec,
        index=choice.index,
        import_name=facts.import_name if facts else ext.name.replace("-", "_"),
        warning=choice.warning,
        reasons=head + choice.reasons + notes,
    )
    if choice.method != "source":
        return base
    env, toolkit, ok, toolkit_reasons = _source_env(facts, ctx, target, kb)
    return replace(
        base,
        build_env=env,
        toolkit=toolkit,
        toolkit_ok=ok,
        memory_gb_per_job=facts.build_memory_gb_per_job if facts else 2.0,
        reasons=head + choice.reasons + toolkit_reasons + _abi_note(target, previous) + notes,
    )


def _source_env(
    facts: ExtensionFacts | None, ctx: Context, target: Target, kb: KB
) -> tuple[dict[str, str], str, bool, tuple[str, ...]]:
    v = parse_variant(target.variant)
    env = dict(facts.force_build) if facts else {}
    if v is None or v.cuda is None:
        return env, "", True, ("a CPU build of torch: only the extension's CPU code (if any) can be built",)
    arch, origin = arch_list_for(ctx, target.release, target.variant, kb)
    exact = facts is not None and facts.toolkit_match == "major.minor"
    toolkit = f"{v.cuda.major}.{v.cuda.minor}"
    env.update({"FORCE_CUDA": "1", "TORCH_CUDA_ARCH_LIST": arch, "CUDA_HOME": f"/usr/local/cuda-{toolkit}"})
    have = ctx.machine.cuda_toolkit
    ok = have is not None and (have.release[:2] == v.cuda.release[:2] if exact else have.major == v.cuda.major)
    return env, toolkit, ok, (f"TORCH_CUDA_ARCH_LIST={arch} from {origin}", _toolkit_reason(toolkit, have, ok, exact))


def _gpu_notes(facts: ExtensionFacts | None, ctx: Context) -> tuple[str, ...]:
    if facts is None or facts.min_compute_capability is None:
        return ()
    floor = facts.min_compute_capability
    old = [g for g in ctx.gpus if g.cc is not None and Version(format_cc(g.cc)) < floor]
    return tuple(f"{facts.name} supports compute capability >= {floor}; {g.name} ({g.sm}) is older" for g in old)


def _abi_note(target: Target, previous: Release | None) -> tuple[str, ...]:
    abi = target.release.cxx11_abi_for(target.variant)
    if previous is not None and previous.cxx11_abi_for(target.variant) != abi:
        return (f"the C++11 ABI changes ({int(not abi)} -> {int(abi)}): every .so built before is unusable",)
    return ()


def _why(name: str, target: Target, previous: Release | None) -> str:
    build = f"{target.release.torch}+{target.variant}"
    if previous is None:
        return f"{name} as built today against torch {build}"
    return (
        f"{name} was built against torch {previous.torch}; against {build} its C++ symbols no longer resolve "
        '("undefined symbol: _ZN3c10..."), and nothing records which torch an extension was built against'
    )


def _toolkit_reason(toolkit: str, have: object, ok: bool, exact: bool) -> str:
    rule = "major.minor" if exact else "major"
    if ok:
        return f"nvcc {have} has the same CUDA {rule} as the wheels' CUDA {toolkit}"
    if have is None:
        return f"needs CUDA toolkit {toolkit} (nvcc): the profile lists none; install it and set CUDA_HOME"
    return (
        f"needs CUDA toolkit {toolkit}: the profile's nvcc {have} differs in CUDA {rule}, so the build would "
        f"fail (install CUDA {toolkit} and point CUDA_HOME at it)"
    )
