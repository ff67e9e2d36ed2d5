"""The compatibility rules: does a torch release, in a given variant, fit a machine? Pure functions.

Each rule returns Findings that carry the KB fact behind them; `check`, the planner and `doctor` share them.
Every rule asks the KB for the machine's platform (Linux x86_64, Linux aarch64, Windows, macOS): what a release
publishes there, for which Pythons, and which GPU architectures its builds carry there.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from packaging.version import Version

from envplan.core.findings import Finding, Severity
from envplan.core.platforms import Offer, arch_floor, arch_support, offer_for, platform_label
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.kb.variants import CC, format_cc, parse_variant
from envplan.profile.gpu import MachineGpu, machine_gpus, runs_on
from envplan.profile.model import Machine, Profile

__all__ = [
    "Context",
    "assess_python",
    "assess_variant",
    "context_of",
    "device_kind",
    "last_release_on",
    "nearest_releases_fix",
    "no_wheels",
    "python_tag",
    "releases_for",
    "unknown_gpu",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class Context:
    """The machine as the rules see it: its GPUs resolved, today's variant, whether extensions must be built."""

    machine: Machine
    gpus: tuple[MachineGpu, ...]
    needs_build: bool = False
    # planning for a future step: a missing or other CUDA toolkit is something to install, not a blocker
    toolkit_installable: bool = False
    today: str = ""  # today's variant ("" when auto or unknown): a choice keeps its kind and CUDA major
    exact_toolkit: bool = False  # an extension needs nvcc's CUDA major.minor to equal torch's (apex)

    @property
    def toolkit_severity(self) -> Severity:
        return "warning" if self.toolkit_installable else "error"

    @property
    def platform(self) -> str:
        return self.machine.platform

    def of(self, vendor: str) -> tuple[MachineGpu, ...]:
        return tuple(g for g in self.gpus if g.vendor == vendor)


def context_of(profile: Profile, kb: KB) -> Context:
    m = profile.machine
    facts = [kb.extension(e.name) for e in profile.extensions]
    return Context(
        machine=m,
        gpus=machine_gpus(m.gpus, m.compute_capability, kb.gpus),
        needs_build=bool(profile.extensions),
        today="" if profile.stack.variant == "auto" else profile.stack.variant,
        exact_toolkit=any(f is not None and f.toolkit_match == "major.minor" for f in facts),
    )


def device_kind(ctx: Context) -> str:
    """The kind of build the machine's GPUs need: cuda (NVIDIA), rocm (AMD), xpu (Intel), cpu (no GPU)."""
    for vendor, kind in (("nvidia", "cuda"), ("amd", "rocm"), ("intel", "xpu")):
        if ctx.of(vendor):
            return kind
    return "cpu"


def _label(release: Release, variant: str) -> str:
    return f"torch {release.torch}+{variant}"


def assess_variant(ctx: Context, release: Release, variant: str, kb: KB) -> list[Finding]:
    """Every finding about installing `release` in `variant` on the context's machine."""
    offer = offer_for(kb, release, ctx.platform)
    published = _published(offer, variant, kb)
    if any(f.severity == "error" for f in published):
        return published
    return [
        *published,
        *_device_kind(ctx, variant),
        *_tegra(ctx, variant),
        *_driver(ctx, release, variant, kb),
        *_archs(ctx, release, variant, kb),
        *_rocm_driver(ctx, variant, kb),
        *_rocm_archs(ctx, release, variant, kb),
        *_glibc(ctx, release, variant),
        *_toolkit(ctx, release, variant, kb),
    ]


def _published(offer: Offer, variant: str, kb: KB) -> list[Finding]:
    release = offer.release
    x86 = offer.platform == "linux-x86_64"
    if offer.publishes(variant) and not (x86 and variant not in release.variants):
        return []
    if x86 and offer.publishes(variant):
        return [
            Finding(
                ref="variant-unadvertised",
                severity="warning",
                key="stack.variant",
                message=f"{variant} wheels of torch {release.torch} are listed by PyTorch's release-matrix generator "
                f"but not on its install page (advertised: {', '.join(release.variants)})",
                fix="prefer an advertised variant",
            )
        ]
    if x86 and variant in release.unadvertised_variants:
        return [
            Finding(
                ref="variant-unadvertised",
                severity="warning",
                key="stack.variant",
                message=f"{variant} wheels of torch {release.torch} were seen on the index but are not "
                "advertised by PyTorch (unverified)",
                fix=f"prefer an advertised variant: {', '.join(release.variants)}",
            )
        ]
    if not offer.known:
        return _unknown_platform(offer, variant)
    if not offer.variants:
        return [no_wheels(offer, kb)]
    builds = ", ".join(offer.variants)
    return [
        _not_published(
            f"torch {release.torch} publishes no {variant} build for {offer.label}; its builds there: {builds}"
        )
    ]


def _not_published(message: str) -> Finding:
    return Finding(
        ref="variant-not-published",
        severity="error",
        key="stack.variant",
        message=message,
        fix="set stack.variant to one of those, or to auto",
    )


def _unknown_platform(offer: Offer, variant: str) -> list[Finding]:
    release = offer.release
    if variant not in release.variants:
        return [
            _not_published(
                f'"{variant}" is not a build of torch {release.torch}; its builds: {", ".join(release.variants)}'
            )
        ]
    return [
        Finding(
            ref="platform-unknown",
            severity="warning",
            key="machine.os",
            message=f"the KB does not know which builds torch {release.torch} publishes for {offer.label}; "
            f"{variant} exists for Linux x86_64",
            fix=f"check the index for a {offer.platform} wheel of torch {release.torch}+{variant}",
        )
    ]


def no_wheels(offer: Offer, kb: KB) -> Finding:
    last = last_release_on(kb, offer.platform)
    return Finding(
        ref="platform-no-wheels",
        severity="error",
        key="stack.torch",
        message=f"torch {offer.release.torch} publishes no {offer.label} wheels"
        + (f"; the last release that does is {last}" if last else ""),
        fix=f"use torch <= {last}, or another machine" if last else "use another machine",
    )


def last_release_on(kb: KB, platform: str) -> Version | None:
    """The newest release the KB knows to publish wheels for `platform`."""
    found = [v for a in kb.availability if a.platform == platform and a.variants for v in a.releases]
    return max(found) if found else None


def _device_kind(ctx: Context, variant: str) -> list[Finding]:
    kind = parse_variant(variant)
    if kind is None:
        return []
    machine = device_kind(ctx)
    if kind.kind == "cpu" and machine != "cpu":
        return [_cpu_on_gpu(ctx)]
    if kind.kind != "cpu" and machine not in ("cpu", kind.kind):
        vendors = {"cuda": "NVIDIA CUDA", "rocm": "AMD ROCm", "xpu": "Intel XPU"}
        return [
            Finding(
                ref="variant-device-mismatch",
                severity="error",
                key="stack.variant",
                message=f"{variant} is an {vendors[kind.kind]} build; the machine's GPUs need {vendors[machine]}",
                fix='choose a variant for the GPUs (or variant = "auto")',
            )
        ]
    if kind.kind != "cpu" and machine == "cpu":
        return [
            Finding(
                ref="gpu-build-without-gpu",
                severity="info",
                key="stack.variant",
                message=f"a {variant} build on a machine with no GPU listed: it runs on the CPU only "
                "and downloads the GPU libraries for nothing",
                fix='use variant = "cpu", or list the GPUs in machine.gpus',
            )
        ]
    return []


def _tegra(ctx: Context, variant: str) -> list[Finding]:
    v = parse_variant(variant)
    jetsons = [g for g in ctx.of("nvidia") if g.tegra]
    if v is None or v.kind != "cuda" or not jetsons:
        return []
    return [
        Finding(
            ref="jetson-needs-jetpack-wheels",
            severity="error",
            key="machine.gpus",
            message=f"{jetsons[0].name} is a Jetson module: its JetPack (L4T) CUDA stack is not the SBSA one PyTorch's "
            f"aarch64 {variant} wheels are built for (they fail with CUDA symbol errors there; Thor, on JetPack 7, "
            "is the first Jetson they serve)",
            fix="install NVIDIA's JetPack build of torch (pypi.jetson-ai-lab.io for your JetPack, or NVIDIA's "
            "JetPack wheels), or use the CPU build",
        )
    ]


def _cpu_on_gpu(ctx: Context) -> Finding:
    vendor = {"cuda": "NVIDIA", "rocm": "AMD", "xpu": "Intel"}[device_kind(ctx)]
    return Finding(
        ref="cpu-build-on-gpu",
        severity="warning",
        key="stack.variant",
        message=f"a CPU build on a machine with {vendor} GPUs: torch.cuda.is_available() will be False",
        fix='choose a GPU build (variant = "auto" picks one)',
    )


def _driver(ctx: Context, release: Release, variant: str, kb: KB) -> list[Finding]:
    v = parse_variant(variant)
    m = ctx.machine
    if v is None or v.cuda is None or m.driver is None:
        return []
    tk = kb.toolkit(v.cuda)
    full = tk.driver(m.os) if tk else None
    if tk is None or full is None:
        return [
            Finding(
                ref="driver-floor-unknown",
                severity="warning",
                key="machine.driver",
                message=f"the KB has no {m.os} driver requirement for CUDA {v.cuda}; "
                f"cannot tell whether driver {m.driver} runs {_label(release, variant)}",
                fix="check NVIDIA's CUDA release notes for the minimum driver",
            )
        ]
    if m.driver >= full:
        return []
    compat = tk.minor_compat_driver(m.os)
    if compat is not None and m.driver >= compat:
        return [
            Finding(
                ref="driver-minor-compat",
                severity="warning",
                key="machine.driver",
                message=f"driver {m.driver} is older than CUDA {tk.version}'s {full}; {variant} runs only "
                f"through CUDA minor-version compatibility (>= {compat}): ordinary kernels work, "
                "torch.compile/Triton and PTX JIT may fail",
                fix=f"upgrade the NVIDIA driver to >= {full} for full support",
            )
        ]
    floor = f">= {full}" + (f" (or >= {compat} with minor-version compatibility)" if compat else "")
    return [
        Finding(
            ref="driver-too-old",
            severity="error",
            key="machine.driver",
            message=f"driver {m.driver} is too old for {_label(release, variant)}: CUDA {tk.version} needs {floor}",
            fix=f"upgrade the NVIDIA driver to {floor}, or choose a variant with an older CUDA",
        )
    ]


def _archs(ctx: Context, release: Release, variant: str, kb: KB) -> list[Finding]:
    v = parse_variant(variant)
    gpus = ctx.of("nvidia")
    if v is None or v.kind != "cuda" or not gpus:
        return []
    support = arch_support(kb, release, variant, ctx.platform)
    where = platform_label(ctx.platform)
    if support.status == "unknown":
        return _archs_unknown(ctx, release, variant, kb)
    checked = [g for g in gpus if g.cc is not None]
    out = [
        _arch_unsupported(ctx, release, variant, g, kb)
        for g in checked
        if g.cc and not runs_on(g.cc, support.cubins, support.ptx)
    ]
    if checked and not out and (support.status == "inferred" or support.verified is not True):
        how = "inferred" if support.status == "inferred" else "not fully verified"
        out.append(
            Finding(
                ref="unverified-fact",
                severity="info",
                key="stack.variant",
                message=f"the architecture list of {_label(release, variant)} on {where} is {how} ({support.source})",
            )
        )
    return out


def _archs_unknown(ctx: Context, release: Release, variant: str, kb: KB) -> list[Finding]:
    """No list for this build here: GPUs below the floor of an older CUDA build of the release cannot run it;
    the others may, and are warned about."""
    gpus = ctx.of("nvidia")
    floor = arch_floor(kb, release, variant, ctx.platform)
    below = [g for g in gpus if floor is not None and g.cc is not None and g.cc < floor[0]]
    out = [_below_floor(ctx, release, variant, g, floor=floor, kb=kb) for g in below if floor is not None]
    rest = [g for g in gpus if g not in below]
    if rest:
        names = ", ".join(f"{g.name} ({g.sm})" for g in rest)
        out.append(
            Finding(
                ref="arch-list-unknown",
                severity="warning",
                key="stack.variant",
                message=f"the KB does not know which GPU architectures {_label(release, variant)} carries on "
                f'{platform_label(ctx.platform)}: {names} may get "no kernel image is available"',
                fix="after installing, compare torch.cuda.get_arch_list() with the GPUs",
            )
        )
    return out


def _below_floor(
    ctx: Context, release: Release, variant: str, gpu: MachineGpu, *, floor: tuple[CC, str], kb: KB
) -> Finding:
    cc = gpu.cc or (0, 0)
    lowest, older = floor
    return Finding(
        ref="gpu-arch-unsupported",
        severity="error",
        key="machine.gpus",
        message=f"GPU {gpu.name} ({gpu.sm}, compute capability {format_cc(cc)}) cannot run "
        f"{_label(release, variant)}: the KB does not know its list on {platform_label(ctx.platform)}, but the "
        f"older {older} build of the same release already starts at {format_cc(lowest)}, and a newer CUDA build "
        'never carries an older architecture back ("no kernel image is available for execution")',
        fix=_arch_fix(ctx, release, variant, cc, kb),
    )


def _rocm_archs(ctx: Context, release: Release, variant: str, kb: KB) -> list[Finding]:
    v = parse_variant(variant)
    gpus = ctx.of("amd")
    if v is None or v.kind != "rocm" or not gpus:
        return []
    row = kb.rocm_gfx(release, variant)
    if row is None:
        return [
            Finding(
                ref="arch-list-unknown",
                severity="warning",
                key="stack.variant",
                message=f"the KB does not know which gfx targets {_label(release, variant)} is compiled for: "
                + ", ".join(f"{g.name} ({g.sm})" for g in gpus)
                + ' may get "HIP error: invalid device function"',
                fix="after installing, compare torch.cuda.get_arch_list() with the GPUs' gfx targets",
            )
        ]
    out = [_gfx_missing(release, variant, g, row.gfx, kb) for g in gpus if g.gfx and g.gfx not in row.gfx]
    if not out and row.verified is not True:
        out.append(
            Finding(
                ref="unverified-fact",
                severity="info",
                key="stack.variant",
                message=f"the gfx list of {_label(release, variant)} is derived, not read from a wheel ({row.source})",
            )
        )
    return out


def _gfx_missing(release: Release, variant: str, gpu: MachineGpu, gfx: tuple[str, ...], kb: KB) -> Finding:
    others = [
        f"{r.torch}+{v}" for r in kb.releases for v in r.variants if (w := kb.rocm_gfx(r, v)) and gpu.gfx in w.gfx
    ]
    later = [o for o in others if Version(o.split("+")[0]) > release.torch]
    earlier = [o for o in others if Version(o.split("+")[0]) < release.torch]
    hints = ([f"the last earlier build that carries it is {earlier[-1]}"] if earlier else []) + (
        [f"the first later one is {later[0]}"] if later else []
    )
    return Finding(
        ref="gpu-arch-unsupported",
        severity="error",
        key="machine.gpus",
        message=f"GPU {gpu.name} ({gpu.gfx}) is not among the gfx targets of {_label(release, variant)} "
        f'({", ".join(gfx)}): "HIP error: invalid device function"',
        fix="; ".join(hints) or "build torch from source with PYTORCH_ROCM_ARCH including it",
    )


def _rocm_driver(ctx: Context, variant: str, kb: KB) -> list[Finding]:
    v = parse_variant(variant)
    host = ctx.machine.rocm
    if v is None or v.kind != "rocm" or v.version is None:
        return []
    need = Version(f"{v.version.major}.{v.version.minor}")
    if host is None:
        if not ctx.of("amd"):
            return []
        return [
            Finding(
                ref="rocm-driver-unknown",
                severity="info",
                key="machine.rocm",
                message=f"the wheels of {variant} bundle ROCm {need}'s user space; the host's amdgpu kernel driver "
                "must support it (AMD: +/- 2 releases before ROCm 6.4, about a year apart from 6.4), and the "
                "profile does not say which driver the host has",
                fix='set machine.rocm to the host\'s ROCm (amdgpu) version, e.g. "6.2" (cat /opt/rocm/.info/version)',
            )
        ]
    row = kb.rocm_driver(host)
    if row is None:
        return [
            Finding(
                ref="rocm-driver-not-in-kb",
                severity="warning",
                key="machine.rocm",
                message=f"the KB does not know which ROCm user space the host's amdgpu driver {host} runs; "
                f"{variant} needs ROCm {need}",
                fix="check AMD's user/kernel-space compatibility matrix",
            )
        ]
    if need in row.runs:
        return []
    runs = ", ".join(str(r) for r in row.runs)
    return [
        Finding(
            ref="rocm-driver-mismatch",
            severity="error",
            key="machine.rocm",
            message=f"the host's amdgpu driver (ROCm {host}) runs ROCm user space {runs}, not {need} "
            f"(the ROCm of {variant}; AMD's user/kernel-space compatibility matrix)",
            fix=f"choose a ROCm variant in {runs}, or update the amdgpu driver to one that supports ROCm {need}",
        )
    ]


def unknown_gpu(gpu: MachineGpu) -> Finding:
    if gpu.vendor == "amd":
        return Finding(
            ref="unknown-gpu",
            severity="warning",
            key="machine.gpus",
            message=f"GPU {gpu.name!r} is not in the KB, so its gfx target cannot be checked",
            fix='write it with its gfx target, e.g. "AMD Instinct MI300X gfx942" (rocminfo | grep gfx)',
        )
    return Finding(
        ref="unknown-gpu",
        severity="warning",
        key="machine.gpus",
        message=f"GPU {gpu.name!r} is not in the KB, so its architecture cannot be checked",
        fix='add its compute capability: machine.compute-capability = ["X.Y"] '
        "(nvidia-smi --query-gpu=compute_cap --format=csv)",
    )


def _arch_unsupported(ctx: Context, release: Release, variant: str, gpu: MachineGpu, kb: KB) -> Finding:
    cc = gpu.cc or (0, 0)
    support = arch_support(kb, release, variant, ctx.platform)
    return Finding(
        ref="gpu-arch-unsupported",
        severity="error",
        key="machine.gpus",
        message=f"GPU {gpu.name} ({gpu.sm}, compute capability {format_cc(cc)}) cannot run "
        f"{_label(release, variant)}: its {platform_label(ctx.platform)} wheels carry {support.arch_list} and no "
        'compatible cubin or PTX ("no kernel image is available for execution")',
        fix=_arch_fix(ctx, release, variant, cc, kb),
    )


def _arch_fix(ctx: Context, release: Release, variant: str, cc: CC, kb: KB) -> str:
    """The other builds of the release whose kernels run on `cc` here, else the nearest releases that have them."""
    offer = offer_for(kb, release, ctx.platform)
    others = [v for v in offer.variants if v != variant and _gpu_runs(kb, ctx, release, v, cc)]
    if others:
        return f"use a variant of torch {release.torch} built for it: {', '.join(others)}"
    return nearest_releases_fix(kb, ctx, release, cc)


def nearest_releases_fix(kb: KB, ctx: Context, release: Release, cc: CC) -> str:
    """Name the nearest releases, earlier and later, whose builds carry kernels for `cc` on this platform."""
    builds = releases_for(kb, ctx, cc)
    later = [b for b in builds if b[0] > release.torch]
    earlier = [b for b in builds if b[0] < release.torch]
    options = []
    if earlier:
        options.append(f"the last earlier release that does is {earlier[-1][0]}+{earlier[-1][1]}")
    if later:
        options.append(f"the first later release that does is {later[0][0]}+{later[0][1]}")
    if not options:
        return f"no torch release in the KB carries {format_cc(cc)} kernels for {platform_label(ctx.platform)}"
    return f"no variant of torch {release.torch} supports it; " + "; ".join(options)


def _gpu_runs(kb: KB, ctx: Context, release: Release, variant: str, cc: CC) -> bool:
    support = arch_support(kb, release, variant, ctx.platform)
    return support.status != "unknown" and runs_on(cc, support.cubins, support.ptx)


def releases_for(kb: KB, ctx: Context, cc: CC) -> list[tuple[Version, str]]:
    """Every (release, variant) whose wheels for the machine's platform run on compute capability `cc`."""
    return list(_releases_for(kb, ctx.platform, cc))


@cache
def _releases_for(kb: KB, platform: str, cc: CC) -> tuple[tuple[Version, str], ...]:
    out = []
    for r in kb.releases:
        for v in offer_for(kb, r, platform).variants:
            support = arch_support(kb, r, v, platform)
            if support.status != "unknown" and runs_on(cc, support.cubins, support.ptx):
                out.append((r.torch, v))
    return tuple(out)


def _glibc(ctx: Context, release: Release, variant: str) -> list[Finding]:
    m = ctx.machine
    if m.os != "linux" or m.glibc is None:
        return []
    floor = release.glibc_for(variant)
    if m.glibc >= floor:
        return []
    doubt = " (the KB marks this floor as assumed)" if release.is_doubtful("glibc") else ""
    return [
        Finding(
            ref="glibc-too-old",
            severity="error",
            key="machine.glibc",
            message=f"glibc {m.glibc} is older than {floor}, the floor of {_label(release, variant)}'s "
            f"{'manylinux_2_28' if floor >= Version('2.28') else 'manylinux2014'} wheels{doubt}",
            fix=f"use a system with glibc >= {floor} (e.g. a newer OS image or container), or an older torch",
        )
    ]


def _toolkit(ctx: Context, release: Release, variant: str, kb: KB) -> list[Finding]:
    v = parse_variant(variant)
    if not ctx.needs_build or v is None or v.cuda is None:
        return []
    tk = ctx.machine.cuda_toolkit
    if tk is None:
        return [
            Finding(
                ref="no-cuda-toolkit",
                severity="warning",
                key="machine.cuda-toolkit",
                message=f"no CUDA toolkit (nvcc) on the machine: extensions can only come from prebuilt "
                f"wheels; building them for {_label(release, variant)} needs CUDA {v.cuda.major}.x",
                fix=f"install CUDA toolkit {v.cuda} and set machine.cuda-toolkit",
            )
        ]
    if tk.major != v.cuda.major:
        return [
            Finding(
                ref="toolkit-mismatch",
                severity=ctx.toolkit_severity,
                key="machine.cuda-toolkit",
                message=f"nvcc is CUDA {tk} but {_label(release, variant)} is built with CUDA {v.cuda}: "
                "extensions built with it will not load (different CUDA major)",
                fix=f"install CUDA toolkit {v.cuda} and point CUDA_HOME at it",
            )
        ]
    return _toolkit_archs(ctx, tk, kb)


def _toolkit_archs(ctx: Context, tk: Version, kb: KB) -> list[Finding]:
    row = kb.toolkit(tk)
    if row is None:
        return []
    return [
        Finding(
            ref="toolkit-arch",
            severity=ctx.toolkit_severity,
            key="machine.cuda-toolkit",
            message=f"CUDA toolkit {tk} compiles for compute capability {format_cc(row.arch_min)} to "
            f"{format_cc(row.arch_max)}, not for GPU {g.name} ({g.sm})",
            fix="install a CUDA toolkit that supports this GPU",
        )
        for g in ctx.of("nvidia")
        if g.cc is not None and not row.compiles_for(g.cc)
    ]


def python_tag(python: Version, free_threaded: bool) -> str:
    return f"{python}{'t' if free_threaded else ''}"


def assess_python(python: Version, free_threaded: bool, release: Release, offer: Offer | None = None) -> list[Finding]:
    """Does `release` publish wheels for this CPython (free-threaded or not) on the platform of `offer`?"""
    if offer is None or not offer.known:
        return _python_by_range(python, free_threaded, release)
    tag = python_tag(python, free_threaded)
    if tag not in offer.python:
        return [_python_missing(tag, offer)]
    if tag in release.python_experimental:
        return [_python_experimental(tag, release)]
    return []


def _python_missing(tag: str, offer: Offer) -> Finding:
    free = tag.endswith("t")
    same_kind = offer.python_tags(free_threaded=free)
    regular = tag.rstrip("t")
    if free and regular in offer.python:
        fix = f"use the regular CPython {regular}, or a torch release with {tag} wheels (envplan matrix)"
    elif same_kind:
        fix = f"use Python {same_kind[0]}-{same_kind[-1]}, or a torch release with {tag} wheels (envplan matrix)"
    else:
        fix = "use a regular CPython, or a torch release with free-threaded wheels (envplan matrix)"
    kind = "free-threaded " if free else ""
    have = ", ".join(offer.python) or "none"
    return _python_unsupported(
        f"torch {offer.release.torch} publishes no {kind}Python {tag} wheels for {offer.label} (it has {have})", fix
    )


def _python_unsupported(message: str, fix: str) -> Finding:
    return Finding(ref="python-unsupported", severity="error", key="python.version", message=message, fix=fix)


def _python_experimental(tag: str, release: Release) -> Finding:
    return Finding(
        ref="python-experimental",
        severity="warning",
        key="python.version",
        message=f"Python {tag} support in torch {release.torch} is experimental",
        fix="prefer a Python the release supports fully",
    )


def _python_by_range(python: Version, free_threaded: bool, release: Release) -> list[Finding]:
    tag = python_tag(python, free_threaded)
    if free_threaded and tag not in release.python_experimental:
        return [
            _python_unsupported(
                f"torch {release.torch} publishes no free-threaded Python {tag} wheels",
                "use a regular CPython, or a torch release with free-threaded wheels (envplan matrix)",
            )
        ]
    if not release.python_min <= python <= release.python_max:
        span = f"{release.python_min}-{release.python_max}"
        return [
            _python_unsupported(
                f"torch {release.torch} publishes wheels for Python {span}, not {python}",
                f"use Python {span}, or a torch release that supports {python} (envplan matrix)",
            )
        ]
    if tag in release.python_experimental:
        return [_python_experimental(tag, release)]
    return []
