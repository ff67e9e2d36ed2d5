"""How each compiled extension gets into a step: a matching prebuilt wheel, or a source build against the
step's torch with the right environment. Pure."""

from __future__ import annotations

from dataclasses import dataclass, replace

from packaging.version import Version

from envplan.core.compat import Context
from envplan.core.extmatch import Target, choose_build
from envplan.core.plan import Build, ExtensionBuild
from envplan.kb import KB
from envplan.kb.extmodel import ExtensionFacts
from envplan.kb.model import Release
from envplan.kb.variants import format_cc, parse_variant
from envplan.profile.model import Extension, Profile, PythonSpec

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
    profile: Profile, ctx: Context, build: Build, previous: Release | None, kb: KB, *, python: PythonSpec | None = None
) -> tuple[ExtensionBuild, ...]:
    """One entry per extension of the profile, in build order (mamba-ssm after causal-conv1d), matched to the
    step's torch and Python (a Python step's extensions get wheels for the new Python)."""
    py = python or profile.python
    target = Target(
        release=build.release,
        variant=build.variant,
        python=py.version,
        free_threaded=py.free_threaded,
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
    today = previous is None and ext.version is not None  # the baseline: the version installed today, as it is
    choice = choose_build(replace(ext, pin=True) if today else ext, target, kb)
    head = (_why(ext.name, target, previous),)
    notes = _gpu_notes(facts, ctx)
    base = ExtensionBuild(
        name=ext.name,
        version=choice.version,
        method=choice.method,
        spec=choice.spec,
        index=choice.index,
        import_name=facts.import_name if facts else ext.name.replace("-", "_"),
        needs=facts.needs if facts else (),
        warning=choice.warning,
        reasons=head + choice.reasons + notes,
    )
    if choice.method != "source":
        return base
    build = _source_build(facts, ctx, target, kb, choice.version)
    return replace(
        base,
        build_env=build.env,
        toolkit=build.toolkit,
        toolkit_ok=build.ok,
        toolkit_match=facts.toolkit_match if facts else "major",
        build_needs=facts.build_needs if facts else ("setuptools", "wheel"),
        cuda_home=build.cuda_home,
        memory_gb_per_job=facts.build_memory_gb_per_job if facts else 2.0,
        reasons=head + choice.reasons + build.reasons + _abi_note(target, previous) + notes,
        warning=base.warning or ("" if build.ok else f"{ext.name}: {build.reasons[-1]}"),
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class _SourceBuild:
    env: dict[str, str]
    toolkit: str = ""  # the CUDA a build needs ("" for CPU builds)
    ok: bool = True  # the profile's nvcc can do it
    cuda_home: str = ""  # the profile's toolkit folder, tried after $CUDA_HOME
    reasons: tuple[str, ...] = ()


def _source_build(
    facts: ExtensionFacts | None, ctx: Context, target: Target, kb: KB, version: Version | None
) -> _SourceBuild:
    v = parse_variant(target.variant)
    env = dict(facts.force_build) if facts else {}
    if v is None or v.cuda is None:
        return _SourceBuild(env=env, reasons=("a CPU build of torch: only the extension's CPU code (if any) is built",))
    exact = facts is not None and facts.toolkit_match == "major.minor"
    toolkit = f"{v.cuda.major}.{v.cuda.minor}"
    have = ctx.machine.cuda_toolkit
    ok = have is not None and (have.release[:2] == v.cuda.release[:2] if exact else have.major == v.cuda.major)
    arch_env, archs = _archs(facts, ctx, target, kb, (version, have or v.cuda))
    return _SourceBuild(
        env={**env, "FORCE_CUDA": "1", **arch_env},
        toolkit=toolkit,
        ok=ok,
        cuda_home=f"/usr/local/cuda-{have.major}.{have.minor}" if have is not None else "",
        reasons=(*archs, _toolkit_reason(toolkit, have, ok, exact)),
    )


def _archs(
    facts: ExtensionFacts | None, ctx: Context, target: Target, kb: KB, versions: tuple[Version | None, Version]
) -> tuple[dict[str, str], tuple[str, ...]]:
    """The architecture variable the package's setup.py reads, and what the build honestly compiles.
    `versions`: the extension's release being built, and the nvcc building it."""
    version, nvcc = versions
    arch, origin = arch_list_for(ctx, target.release, target.variant, kb)
    var = facts.arch_env if facts else "TORCH_CUDA_ARCH_LIST"
    if facts is not None and facts.arch_env_from is not None and (version is None or version < facts.arch_env_from):
        var = ""  # older releases hard-code their list
    if var and arch:
        value = arch if facts is None or facts.arch_format == "torch" else _sm_list(arch)
        count = len(value.split(";"))
        return {var: value}, (f"{var}={value} from {origin}: {count} architecture(s) compiled" + _time(facts, count),)
    if facts is None or not facts.archs_for(nvcc):
        return {}, ("its setup.py chooses the architectures itself (the KB does not know which)",)
    fixed = facts.archs_for(nvcc)
    count = len(fixed.split(";"))
    return {}, (
        f"{facts.name} ignores TORCH_CUDA_ARCH_LIST: its setup.py compiles its own list with nvcc {nvcc} "
        f"({fixed}: {count} architectures)" + _time(facts, count),
    )


def _sm_list(arch: str) -> str:
    """8.0;9.0+PTX -> 80;90"""
    return ";".join(a.split("+")[0].replace(".", "") for a in arch.split(";"))


def _time(facts: ExtensionFacts | None, count: int) -> str:
    if facts is None or facts.build_core_minutes_per_arch is None:
        return ""
    core_minutes = facts.build_core_minutes_per_arch * count
    return (
        f"; about {core_minutes:.0f} core-minutes in all (~{core_minutes / 2:.0f} min on 2 cores, "
        f"~{core_minutes / 16:.0f} min on 16; {facts.build_time_source})"
    )


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
