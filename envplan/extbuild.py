"""How a compiled extension is rebuilt against a step's torch: the build environment and its reasons. Pure.

The prebuilt-wheel matching and the per-package recipes come with the extensions knowledge; until then
every extension is rebuilt from source, with the architecture list taken from the profile's GPUs.
"""

from __future__ import annotations

from envplan.compat import Context
from envplan.kb import KB
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
    profile: Profile, ctx: Context, build: Build, previous: Release | None, kb: KB
) -> tuple[ExtensionBuild, ...]:
    """One source build per extension of the profile, against `build`."""
    return tuple(_build(ext, ctx, build, previous, kb) for ext in profile.extensions)


def _build(ext: Extension, ctx: Context, build: Build, previous: Release | None, kb: KB) -> ExtensionBuild:
    name, release, variant = ext.name, build.release, build.variant
    v = parse_variant(variant)
    reasons = [_why(name, release, variant, previous)]
    env: dict[str, str] = {}
    toolkit, ok = "", True
    if v is not None and v.cuda is not None:
        arch, origin = arch_list_for(ctx, release, variant, kb)
        toolkit = f"{v.cuda.major}.{v.cuda.minor}"
        env = {"FORCE_CUDA": "1", "TORCH_CUDA_ARCH_LIST": arch, "CUDA_HOME": f"/usr/local/cuda-{toolkit}"}
        reasons.append(f"TORCH_CUDA_ARCH_LIST={arch} from {origin}")
        have = ctx.machine.cuda_toolkit
        ok = have is not None and have.major == v.cuda.major
        reasons.append(_toolkit_reason(toolkit, have, ok))
    abi = release.cxx11_abi_for(variant)
    if previous is not None and previous.cxx11_abi_for(variant) != abi:
        reasons.append(f"the C++11 ABI changes ({int(not abi)} -> {int(abi)}): every .so built before is unusable")
    return ExtensionBuild(
        name=name,
        version=ext.version,
        build_env=env,
        toolkit=toolkit,
        toolkit_ok=ok,
        reasons=tuple(reasons),
    )


def _why(name: str, release: Release, variant: str, previous: Release | None) -> str:
    if previous is None:
        return f"{name} as built today against torch {release.torch}+{variant}"
    return (
        f"{name} was built against torch {previous.torch}; against {release.torch}+{variant} its C++ symbols "
        'no longer resolve ("undefined symbol: _ZN3c10..."), and nothing records which torch an extension '
        "was built against: rebuild it"
    )


def _toolkit_reason(toolkit: str, have: object, ok: bool) -> str:
    if ok:
        return f"nvcc {have} has the same CUDA major as the wheels' CUDA {toolkit}"
    if have is None:
        return f"needs CUDA toolkit {toolkit} (nvcc): the profile lists none"
    return f"needs CUDA toolkit {toolkit}: the profile's nvcc {have} has another CUDA major, so the build would fail"
