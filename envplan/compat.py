"""The compatibility rules: does a torch release, in a given variant, fit a machine? Pure functions.

Each rule returns Findings that carry the KB fact behind them; `check` and the planner share them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from packaging.version import Version

from envplan.findings import Finding, Severity, has_errors
from envplan.gpu import MachineGpu, runs_on
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.profile import Machine
from envplan.variants import CC, format_cc, parse_variant

__all__ = ["Choice", "Context", "assess_python", "assess_variant", "choose_variant", "releases_for", "unknown_gpu"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Context:
    """The machine as the rules see it: its GPUs resolved, and whether extensions must be built."""

    machine: Machine
    gpus: tuple[MachineGpu, ...]
    needs_build: bool = False
    # planning for a future step: a missing or other CUDA toolkit is something to install, not a blocker
    toolkit_installable: bool = False

    @property
    def toolkit_severity(self) -> Severity:
        return "warning" if self.toolkit_installable else "error"


@dataclass(frozen=True, kw_only=True, slots=True)
class Choice:
    variant: str | None
    reason: str
    findings: tuple[Finding, ...] = ()
    rejected: tuple[tuple[str, Finding], ...] = ()  # each candidate turned down, with its first error


def _label(release: Release, variant: str) -> str:
    return f"torch {release.torch}+{variant}"


def assess_variant(ctx: Context, release: Release, variant: str, kb: KB) -> list[Finding]:
    """Every finding about installing `release` in `variant` on the context's machine."""
    published = _published(release, variant)
    if has_errors(published):
        return published
    return [
        *published,
        *_platform(ctx, release, variant, kb),
        *_device_kind(ctx, variant),
        *_driver(ctx, release, variant, kb),
        *_archs(ctx, release, variant, kb),
        *_glibc(ctx, release, variant),
        *_toolkit(ctx, release, variant, kb),
    ]


def _published(release: Release, variant: str) -> list[Finding]:
    if variant in release.variants:
        return []
    if variant in release.unadvertised_variants:
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
    return [
        Finding(
            ref="variant-not-published",
            severity="error",
            key="stack.variant",
            message=f'"{variant}" is not a known variant; known for torch {release.torch}: '
            + ", ".join(release.variants),
            fix="set stack.variant to one of those, or to auto",
        )
    ]


def _platform(ctx: Context, release: Release, variant: str, kb: KB) -> list[Finding]:
    m = ctx.machine
    if m.os == "linux":
        return []
    plat = kb.platform(m.os, m.arch)
    out = []
    if m.os == "macos" and variant != "cpu":
        out.append(
            Finding(
                ref="platform-variant",
                severity="error",
                key="stack.variant",
                message=f"macOS wheels are CPU/MPS builds only; there is no {variant} build",
                fix='set stack.variant = "cpu"',
            )
        )
    if plat is not None and plat.last_torch is not None and release.torch > plat.last_torch:
        out.append(
            Finding(
                ref="platform-no-wheels",
                severity="error",
                key="stack.torch",
                message=f"torch {release.torch} publishes no {m.os} {m.arch} wheels; the last is "
                f"{plat.last_torch} ({plat.source})",
                fix=f"use torch <= {plat.last_torch}, or another machine",
            )
        )
    if m.os == "windows" and plat is not None and plat.pypi_default and variant != plat.pypi_default:
        out.append(
            Finding(
                ref="windows-index",
                severity="info",
                key="stack.variant",
                message=f"on Windows, PyPI serves {plat.pypi_default} builds; {variant} comes only "
                "from the PyTorch index (unverified KB fact)",
            )
        )
    return out


def _device_kind(ctx: Context, variant: str) -> list[Finding]:
    kind = parse_variant(variant)
    if kind is None:
        return []
    if kind.kind == "cpu" and ctx.gpus:
        return [
            Finding(
                ref="cpu-build-on-gpu",
                severity="warning",
                key="stack.variant",
                message="a CPU build on a machine with NVIDIA GPUs: torch.cuda.is_available() will be False",
                fix='choose a CUDA variant (or variant = "auto")',
            )
        ]
    if kind.kind == "rocm" and ctx.gpus:
        return [
            Finding(
                ref="rocm-on-nvidia",
                severity="error",
                key="stack.variant",
                message=f"{variant} is an AMD ROCm build; the machine's GPUs are NVIDIA",
                fix='choose a CUDA variant (or variant = "auto")',
            )
        ]
    if kind.kind == "cuda" and not ctx.gpus:
        return [
            Finding(
                ref="cuda-without-gpu",
                severity="info",
                key="stack.variant",
                message=f"a {variant} build on a machine with no GPU listed: it runs on the CPU only "
                "and downloads the CUDA libraries for nothing",
                fix='use variant = "cpu", or list the GPUs in machine.gpus',
            )
        ]
    return []


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
    if v is None or v.kind != "cuda" or not ctx.gpus:
        return []
    row = kb.wheel_archs(release, variant)
    known = row.for_arch(ctx.machine.arch) if row else None
    if row is None or known is None:
        return [
            Finding(
                ref="arch-list-unknown",
                severity="warning",
                key="stack.variant",
                message=f"the KB does not know which GPU architectures {_label(release, variant)} "
                f"({ctx.machine.arch}) is compiled for",
                fix="after installing, compare torch.cuda.get_arch_list() with the GPUs",
            )
        ]
    checked = [g for g in ctx.gpus if g.cc is not None]
    out = [_arch_unsupported(ctx, release, variant, g, kb) for g in checked if g.cc and not runs_on(g.cc, *known)]
    if checked and not out and row.verified is not True:
        out.append(
            Finding(
                ref="unverified-fact",
                severity="info",
                key="stack.variant",
                message=f"the architecture list of {_label(release, variant)} is not fully verified ({row.source})",
            )
        )
    return out


def unknown_gpu(gpu: MachineGpu) -> Finding:
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
    row = kb.wheel_archs(release, variant)
    archs = row.arch_list(ctx.machine.arch) if row else "?"
    others = [v for v in release.variants if v != variant and _gpu_runs(kb, ctx, release, v, cc)]
    return Finding(
        ref="gpu-arch-unsupported",
        severity="error",
        key="machine.gpus",
        message=f"GPU {gpu.name} ({gpu.sm}, compute capability {format_cc(cc)}) cannot run "
        f"{_label(release, variant)}: its wheels carry {archs} and no compatible cubin or PTX "
        '("no kernel image is available for execution")',
        fix=f"use a variant of torch {release.torch} built for it: {', '.join(others)}"
        if others
        else _other_release_fix(kb, ctx, release, cc),
    )


def _other_release_fix(kb: KB, ctx: Context, release: Release, cc: CC) -> str:
    builds = releases_for(kb, ctx, cc)
    later = [b for b in builds if b[0] > release.torch]
    earlier = [b for b in builds if b[0] < release.torch]
    head = f"no variant of torch {release.torch} supports it; "
    if later:
        return head + f"the first release that does is {later[0][0]}+{later[0][1]}"
    if earlier:
        return head + f"the last release that still does is {earlier[-1][0]}+{earlier[-1][1]}"
    return "no torch release in the KB is built for it: build torch from source"


def _gpu_runs(kb: KB, ctx: Context, release: Release, variant: str, cc: CC) -> bool:
    row = kb.wheel_archs(release, variant)
    known = row.for_arch(ctx.machine.arch) if row else None
    return known is not None and runs_on(cc, *known)


def releases_for(kb: KB, ctx: Context, cc: CC) -> list[tuple[Version, str]]:
    """Every (release, variant) whose wheels run on compute capability `cc`, oldest first."""
    return list(_releases_for(kb, ctx.machine.arch, cc))


@cache
def _releases_for(kb: KB, arch: str, cc: CC) -> tuple[tuple[Version, str], ...]:
    out = []
    for r in kb.releases:
        for v in r.variants:
            row = kb.wheel_archs(r, v)
            known = row.for_arch(arch) if row else None
            if known is not None and runs_on(cc, *known):
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
        for g in ctx.gpus
        if g.cc is not None and not row.compiles_for(g.cc)
    ]


def assess_python(python: Version, free_threaded: bool, release: Release) -> list[Finding]:
    """Does `release` publish wheels for this CPython?"""
    tag = f"{python}{'t' if free_threaded else ''}"
    if free_threaded and tag not in release.python_experimental:
        return [
            Finding(
                ref="python-unsupported",
                severity="error",
                key="python.version",
                message=f"torch {release.torch} publishes no free-threaded {tag} wheels",
                fix=f"use the regular CPython {python}",
            )
        ]
    if not release.python_min <= python <= release.python_max:
        span = f"{release.python_min}-{release.python_max}"
        return [
            Finding(
                ref="python-unsupported",
                severity="error",
                key="python.version",
                message=f"torch {release.torch} publishes wheels for Python {span}, not {python}",
                fix=f"use Python {span}, or a torch release that supports {python} (envplan matrix)",
            )
        ]
    if tag in release.python_experimental:
        return [
            Finding(
                ref="python-experimental",
                severity="warning",
                key="python.version",
                message=f"Python {tag} support in torch {release.torch} is experimental"
                + (f" ({release.note})" if "Linux x86_64" in release.note else ""),
                fix="prefer a Python the release supports fully",
            )
        ]
    return []


def choose_variant(ctx: Context, release: Release, kb: KB) -> Choice:
    """The best advertised variant of `release` for the machine, and why."""
    scored, rejected = [], []
    for variant in _candidates(ctx, release):
        findings = assess_variant(ctx, release, variant, kb)
        errors = [f for f in findings if f.severity == "error"]
        if errors:
            rejected.append((variant, errors[0]))
        else:
            scored.append((_rank(ctx, release, variant, findings), variant, findings))
    if not scored:
        return Choice(
            variant=None, reason=f"no variant of torch {release.torch} fits this machine", rejected=tuple(rejected)
        )
    scored.sort(key=lambda s: s[0])
    _, best, findings = scored[0]
    return Choice(
        variant=best, reason=_why(ctx, release, best, findings), findings=tuple(findings), rejected=tuple(rejected)
    )


def _candidates(ctx: Context, release: Release) -> list[str]:
    """On a GPU machine the CUDA builds, else the CPU build: auto never silently drops the GPU."""
    want = "cuda" if ctx.gpus else "cpu"
    return [v for v in release.variants if (p := parse_variant(v)) is not None and p.kind == want]


def _rank(ctx: Context, release: Release, variant: str, findings: list[Finding]) -> tuple[int, int, int, float]:
    """Fewest warnings (full driver support beats minor-version compatibility), then the CUDA of the nvcc that
    builds the extensions, then PyPI's default (one index fewer), then the newest CUDA."""
    v = parse_variant(variant)
    warnings = sum(f.severity == "warning" for f in findings)
    toolkit = ctx.machine.cuda_toolkit
    same_nvcc = 0 if ctx.needs_build and v is not None and toolkit is not None and v.cuda == toolkit else 1
    default = 0 if variant == release.pypi_default else 1
    newest = -float(v.version.major * 100 + v.version.minor) if v and v.version else 0.0
    return warnings, same_nvcc, default, newest


def _why(ctx: Context, release: Release, variant: str, findings: list[Finding]) -> str:
    if not ctx.gpus:
        return f"{variant}: no GPU listed, so the CPU build"
    parts = [f"{variant}: every GPU is in its architecture list"]
    if ctx.machine.driver is not None:
        minor = any(f.ref == "driver-minor-compat" for f in findings)
        parts.append(
            f"driver {ctx.machine.driver} "
            + ("runs it by minor-version compatibility" if minor else "fully supports it")
        )
    v = parse_variant(variant)
    if ctx.needs_build and v is not None and v.cuda is not None and v.cuda == ctx.machine.cuda_toolkit:
        parts.append(f"its CUDA matches nvcc {ctx.machine.cuda_toolkit}, which builds the extensions")
    if variant == release.pypi_default:
        parts.append("it is the build PyPI serves by default (one index fewer)")
    return ", ".join(parts)
