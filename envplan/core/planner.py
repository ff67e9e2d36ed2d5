"""The upgrade planner: profile + target + KB -> Plan. Pure: no files, no network, no subprocess.

The path is always torch first, then its companions, then the compiled extensions, each step an
environment of exact pins that works on its own; `via_minors` repeats that for every minor between.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from envplan.core.blockers import blockers_for
from envplan.core.check import with_gpu_hint
from envplan.core.compat import Context, assess_python, assess_variant, context_of, unknown_gpu
from envplan.core.extbuild import extension_builds
from envplan.core.findings import Finding, has_errors
from envplan.core.plan import Blocker, Build, ExtensionBuild, Kind, Pin, Plan, Step
from envplan.core.platforms import conda_subdir, offer_for
from envplan.core.torchbound import BoundChoice, bound_choice, bound_requirements
from envplan.core.variantchoice import choose_variant
from envplan.errors import EnvplanError
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.kb.variants import parse_variant
from envplan.profile.model import Profile, PythonSpec

__all__ = ["plan_upgrade", "resolve_target", "stack_step"]

_TARGET = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?", re.ASCII)


def resolve_target(text: str, kb: KB) -> Release:
    """`latest`, `2.1` (the newest patch of that minor) or `2.1.2`."""
    if text == "latest":
        return kb.latest()
    base, plus, label = text.partition("+")
    if plus and parse_variant(label) is not None and _TARGET.fullmatch(base):
        raise EnvplanError(
            "bad-target",
            f"{text!r} names a build, not a release",
            where="--to",
            hint=f"write --to {base} --variant {label}",
        )
    if _TARGET.fullmatch(text) is None:
        raise EnvplanError(
            "bad-target",
            f"{text!r} is not a release",
            where="--to",
            hint="write X.Y (the newest patch of that minor, e.g. 2.6), X.Y.Z (e.g. 2.6.0) or latest",
        )
    want = Version(text)
    found = kb.release(want) if len(want.release) >= 3 else (kb.minor_releases(want) or (None,))[-1]
    if found is None:
        raise EnvplanError(
            "unknown-torch",
            f"the KB has no torch {text}",
            where="--to",
            hint=f"known releases run from {kb.releases[0].torch} to {kb.latest().torch} (envplan matrix)",
        )
    return found


@dataclass(frozen=True, kw_only=True, slots=True)
class _Hop:
    build: Build
    reasons: tuple[str, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class _Options:
    forced: str | None  # --variant
    python: PythonSpec  # the Python every hop must support


def plan_upgrade(
    profile: Profile,
    target: Release,
    kb: KB,
    *,
    variant: str | None = None,
    python: PythonSpec | None = None,
    via_minors: bool = False,
) -> Plan:
    """The safe path from the profile's stack to `target`, or every blocker that stands in the way."""
    ctx = replace(context_of(profile, kb), toolkit_installable=True)
    source = _current(profile, ctx, kb)
    opts = _Options(forced=variant, python=python or profile.python)
    blocked = Plan(
        profile_name=profile.name,
        source=source.release,
        source_variant=source.variant,
        target=target,
        status="blocked",
        warnings=_unknown_gpus(ctx),
    )
    if opts.python == profile.python and _already_there(ctx, source, target, opts, kb):
        today = with_gpu_hint(assess_variant(ctx, source.release, source.variant, kb), ctx, source.release, kb)
        notes = tuple(_warning_text(f) for f in today if f.severity == "warning")
        there = f"already at target: torch {source} on Python {profile.python}; the plan holds today's stack only"
        return replace(
            blocked,
            status="current",
            steps=_StepBuilder(profile, ctx, kb).steps(source, [], profile.python),
            warnings=(there, *blocked.warnings, *notes),
            gpus=tuple(f"{g.name} ({g.sm})" for g in ctx.gpus),
            machine=_machine_facts(profile),
            conda_subdir=conda_subdir(profile.machine),
        )
    hops: list[_Hop] = []
    keep = source.variant
    for release in _hop_releases(kb, source.release, target, via_minors):
        hop, blockers = _hop(ctx, release, keep, opts, kb)
        blockers += _bound_blockers(profile, release, opts.python, kb)
        if hop is None or blockers:
            return replace(blocked, blockers=tuple(blockers))
        hops.append(hop)
        keep = hop.build.variant
    steps = _StepBuilder(profile, ctx, kb).steps(source, hops, opts.python)
    ext_warnings = (e.warning for step in steps for e in step.extensions if e.warning)
    direction = _direction_warnings(source, target)
    hop_warnings = (w for h in hops for w in h.warnings)
    warnings = tuple(dict.fromkeys([*direction, *blocked.warnings, *hop_warnings, *ext_warnings]))
    gpus = tuple(f"{g.name} ({g.sm})" for g in ctx.gpus)
    return replace(
        blocked,
        status="ok",
        steps=steps,
        warnings=warnings,
        gpus=gpus,
        machine=_machine_facts(profile),
        conda_subdir=conda_subdir(profile.machine),
    )


def _already_there(ctx: Context, source: Build, target: Release, opts: _Options, kb: KB) -> bool:
    """The target is today's stack, and today's build works on this machine (a broken build is fixed instead)."""
    if source.release.torch != target.torch:
        return False
    wanted = opts.forced
    if wanted == "auto":
        wanted = choose_variant(ctx, target, kb).variant or "none fits"
    if wanted not in (None, source.variant):
        return False
    return not has_errors(assess_variant(ctx, source.release, source.variant, kb))


def _bound_blockers(profile: Profile, release: Release, py: PythonSpec, kb: KB) -> list[Blocker]:
    """A torch-bound package the profile pins to a release that cannot go with `release` blocks the plan."""
    out = []
    for text, facts in bound_requirements(profile.stack.packages, kb).items():
        choice = bound_choice(Requirement(text), facts, release, py.version, profile.machine)
        if choice.blocked:
            out.append(Blocker(ref="torch-bound-package", message=choice.blocked, fix=choice.fix))
    return out


def _direction_warnings(source: Build, target: Release) -> tuple[str, ...]:
    if target.torch < source.release.torch:
        return (
            f"downgrade: torch {source.release.torch} -> {target.torch}; torchvision/torchaudio and the "
            "extensions follow it down",
        )
    return ()


def _machine_facts(profile: Profile) -> tuple[tuple[str, str], ...]:
    m = profile.machine
    facts = (
        ("OS", f"{m.os} {m.arch}"),
        ("glibc", m.glibc),
        ("NVIDIA driver", m.driver),
        ("CUDA toolkit (nvcc)", m.cuda_toolkit),
        ("ROCm", m.rocm),
    )
    return tuple((k, str(v)) for k, v in facts if v is not None)


def _current(profile: Profile, ctx: Context, kb: KB) -> Build:
    release = kb.release(profile.stack.torch)
    where = f"{profile.path}: stack"
    if release is None:
        raise EnvplanError(
            "unknown-torch",
            f"torch {profile.stack.torch} is not in the KB",
            where=where + ".torch",
            hint="run `envplan check` on the profile",
        )
    if profile.stack.variant != "auto":
        return Build(release, profile.stack.variant)
    choice = choose_variant(ctx, release, kb)
    if choice.variant is None:
        raise EnvplanError(
            "no-variant-fits",
            f"no variant of today's torch {release.torch} fits this machine",
            where=where + ".variant",
            hint="set stack.variant to the build installed today",
        )
    return Build(release, choice.variant)


def _hop_releases(kb: KB, source: Release, target: Release, via_minors: bool) -> list[Release]:
    if not via_minors or target.torch <= source.torch:
        return [target]
    minors = sorted({r.minor for r in kb.releases if source.minor < r.minor < target.minor})
    return [kb.minor_releases(m)[-1] for m in minors] + [target]


def _hop(ctx: Context, release: Release, keep: str, opts: _Options, kb: KB) -> tuple[_Hop | None, list[Blocker]]:
    """The build of `release` this machine takes (today's when it can), or every blocker in the way."""
    py = opts.python
    offer = offer_for(kb, release, ctx.platform)
    if not has_errors(assess_python(py.version, py.free_threaded, release, offer)):
        hop = _build_for(ctx, release, keep, opts, kb)
        if hop is not None:
            return hop, []
    only = None if opts.forced == "auto" else opts.forced
    blockers = blockers_for(ctx, release, kb, python=py.version, free_threaded=py.free_threaded, only=only)
    if not blockers:  # nothing blocks by the rules, yet nothing fits: say so rather than guess
        reason = choose_variant(ctx, release, kb).reason
        blockers = [Blocker(ref="no-variant-fits", message=reason, fix="run `envplan check` for details")]
    return None, blockers


def _build_for(ctx: Context, release: Release, keep: str, opts: _Options, kb: KB) -> _Hop | None:
    forced = opts.forced if opts.forced != "auto" else None
    if forced is not None:
        findings = assess_variant(ctx, release, forced, kb)
        return None if has_errors(findings) else _made(Build(release, forced), keep, "forced by --variant", findings)
    offer = offer_for(kb, release, ctx.platform)
    kept = _keeps(ctx, release, keep, kb) if opts.forced is None else None
    if kept is not None:
        why = f"today's variant, published for torch {release.torch} on {offer.label} and supported by this machine"
        return _made(Build(release, keep), keep, why, with_gpu_hint(kept, ctx, release, kb))
    choice = choose_variant(ctx, release, kb)
    if choice.variant is None:
        return None
    dropped = _dropped(keep, release, assess_variant(ctx, release, keep, kb), auto=opts.forced == "auto")
    return _made(Build(release, choice.variant), keep, dropped + choice.reason, list(choice.findings))


def _keeps(ctx: Context, release: Release, keep: str, kb: KB) -> list[Finding] | None:
    """Today's variant stays when the target surely publishes it here and the machine runs it (its findings)."""
    findings = assess_variant(ctx, release, keep, kb)
    if has_errors(findings) or any(f.ref == "variant-unadvertised" for f in findings):
        return None
    return findings


def _dropped(keep: str, release: Release, findings: list[Finding], *, auto: bool) -> str:
    """Why today's variant does not carry on, in the words of the finding that stops it."""
    refs = {f.ref for f in findings}
    errors = [f for f in findings if f.severity == "error"]
    if refs & {"variant-not-published", "platform-unknown", "platform-no-wheels"}:
        return f"torch {release.torch} publishes no {keep} build for this platform; "
    if errors:
        return f"today's {keep} cannot work here: " + "; and ".join(f.message for f in errors[:2]) + "; "
    if "variant-unadvertised" in refs:
        return f"today's {keep} is not advertised for torch {release.torch} (only seen in build matrices); "
    if auto and "cpu-build-on-gpu" in refs:
        return f"--variant auto: today's {keep} build leaves the GPUs unused; "
    return "--variant auto: " if auto else ""


def _unknown_gpus(ctx: Context) -> tuple[str, ...]:
    """GPUs the KB does not know: the plan cannot check their architecture, and says so (as `check` does)."""
    return tuple(f"{f.message} ({f.fix})" for f in (unknown_gpu(g) for g in ctx.gpus if not g.known))


def _warning_text(f: Finding) -> str:
    """A warning as the plan shows it: the CPU-on-GPU one carries the variant to switch to."""
    return f.message + (f" ({f.fix})" if f.ref == "cpu-build-on-gpu" else "")


_TOOLKIT = frozenset({"no-cuda-toolkit", "toolkit-mismatch", "toolkit-arch"})  # said by the extension that builds


def _made(build: Build, before: str, why: str, findings: list[Finding]) -> _Hop:
    warnings = [_warning_text(f) for f in findings if f.severity == "warning" and f.ref not in _TOOLKIT]
    if build.variant != before:
        change = _family_note(before, build.variant)
        warnings.insert(0, f"variant {before} -> {build.variant} for torch {build.release.torch}{change}: {why}")
    return _Hop(build=build, reasons=(f"variant {build.variant}: {why}",), warnings=tuple(warnings))


def _family_note(before: str, after: str) -> str:
    a, b = parse_variant(before), parse_variant(after)
    if a is None or b is None or a.family == b.family:
        return ""
    if a.kind == b.kind and a.version is not None and b.version is not None:
        tool = {"cuda": "CUDA", "rocm": "ROCm"}.get(a.kind, a.kind)
        return (
            f" ({tool} major {a.version.major} -> {b.version.major}: compiled extensions need a {tool} "
            f"{b.version.major} toolkit and a rebuild)"
        )
    return f" ({a.kind} -> {b.kind} build)"


class _StepBuilder:
    """Makes the steps of one profile's plan; holds what every step shares."""

    def __init__(self, profile: Profile, ctx: Context, kb: KB) -> None:
        self.profile, self.ctx, self.kb = profile, ctx, kb
        self.dependents = {str(r): kb.dependents.get(canonicalize_name(r.name), ()) for r in profile.stack.packages}
        self.bound = bound_requirements(profile.stack.packages, kb)

    def steps(self, source: Build, hops: list[_Hop], py: PythonSpec) -> tuple[Step, ...]:
        steps = [self.baseline(source)]
        moved_python = py != self.profile.python
        offer = offer_for(self.kb, source.release, self.ctx.platform)
        if moved_python and not has_errors(assess_python(py.version, py.free_threaded, source.release, offer)):
            steps.append(self.python_step(source, py))
            moved_python = False
        previous = source
        for hop in hops:
            if hop.build == previous and steps[-1].python == str(py):
                continue
            tag = f"-{hop.build.release.torch}" if len(hops) > 1 else ""
            steps += self.hop_steps(hop, previous.release, py, tag, moved_python)
            previous, moved_python = hop.build, False
        return tuple(replace(s, name=f"{i:02d}-{s.name}") for i, s in enumerate(steps))

    def companions(self, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
        """Companions in the stack, plus those a package needs (timm needs torchvision; vllm pins both)."""
        wanted = {n for n in ("torchvision", "torchaudio") if getattr(self.profile.stack, n) is not None}
        wanted |= {c for needs in self.dependents.values() for c in needs} | set(extra)
        return tuple(n for n in ("torchvision", "torchaudio") if n in wanted)

    def pins(self, build: Build, names: tuple[str, ...], *, today: bool = False) -> tuple[Pin, ...]:
        offer = offer_for(self.kb, build.release, self.ctx.platform)
        from_pypi = build.variant == offer.pypi_default
        label = _local_label(offer.platform, build.variant, from_pypi=from_pypi)
        out = []
        for name in names:
            given = getattr(self.profile.stack, name) if today and name != "torch" else None
            version: Version = given if isinstance(given, Version) else getattr(build.release, name)
            out.append(Pin(name=name, version=version, label=label, index="pypi" if from_pypi else "pytorch"))
        return tuple(out)

    def step(
        self,
        name: str,
        kind: Kind,
        build: Build,
        *,
        py: PythonSpec,
        pins: tuple[Pin, ...],
        requirements: tuple[str, ...],
        reasons: list[str],
        extensions: tuple[ExtensionBuild, ...] = (),
    ) -> Step:
        uses_pytorch = any(p.index == "pytorch" for p in pins)
        index = f"{self.profile.indexes.pytorch}/{build.variant}" if uses_pytorch else ""
        return Step(
            name=name,
            kind=kind,
            release=build.release,
            variant=build.variant,
            python=str(py),
            pins=pins,
            requirements=(*requirements, *_extension_requirements(extensions, requirements)),
            extensions=extensions,
            pytorch_index=index,
            pypi_index=self.profile.indexes.pypi,
            reasons=tuple(reasons),
        )

    def baseline(self, build: Build) -> Step:
        names = ("torch", *(n for n in ("torchvision", "torchaudio") if getattr(self.profile.stack, n) is not None))
        reasons = [
            f"today's stack as the profile declares it: torch {build}; locked as it is, so the upgrade can "
            "be compared against it and rolled back to it"
        ]
        return self.step(
            "baseline",
            "baseline",
            build,
            py=self.profile.python,
            pins=self.pins(build, names, today=True),
            requirements=tuple(self.dependents),
            reasons=reasons,
            extensions=extension_builds(self.profile, self.ctx, build, None, self.kb),
        )

    def python_step(self, build: Build, py: PythonSpec) -> Step:
        base = self.baseline(build)
        reasons = [
            f"Python {self.profile.python} -> {py} first, on today's torch {build} (which publishes "
            f"wheels for Python {build.release.python_min}-{build.release.python_max}): one change at a time"
        ]
        exts = extension_builds(self.profile, self.ctx, build, build.release, self.kb, python=py)
        return self.step(
            "python",
            "python",
            build,
            py=py,
            pins=base.pins,
            requirements=base.requirements,
            reasons=reasons,
            extensions=exts,
        )

    def hop_steps(self, hop: _Hop, previous: Release, py: PythonSpec, tag: str, moved_python: bool) -> list[Step]:
        build = hop.build
        bound = self.bound_choices(build.release, py)
        companions = self.companions(tuple(c for b in bound.values() for c in b.companions))
        deferred = tuple(req for req, needs in self.dependents.items() if needs or req in bound)
        early = tuple(req for req in self.dependents if req not in deferred)
        later = tuple(bound[req].requirement if req in bound else req for req in self.dependents)
        reasons = [f"torch {previous.torch} -> {build.release.torch} alone", *hop.reasons]
        if self.kb.learned and build.release.torch in self.kb.learned:
            reasons.append(
                f"torch {build.release.torch} is not in the reviewed KB: {build.release.source}; "
                "its driver floors and architecture lists are unknown"
            )
        reasons += self._left_out(
            previous, build.release, companions=companions, deferred=deferred, moved_python=moved_python, py=py
        )
        torch_only = self.pins(build, ("torch",))
        steps = [self.step(f"torch{tag}", "torch", build, py=py, pins=torch_only, requirements=early, reasons=reasons)]
        full = self.pins(build, ("torch", *companions))
        if companions or deferred:
            why = [*self._companion_reasons(build.release, companions), *(b.reason for b in bound.values())]
            if deferred:
                why.append(
                    "the packages that wait for them come back: "
                    + ", ".join(later[i] for i, r in enumerate(self.dependents) if r in deferred)
                )
            kind: Kind = "companions" if companions else "packages"
            steps.append(self.step(f"{kind}{tag}", kind, build, py=py, pins=full, requirements=later, reasons=why))
        exts = extension_builds(self.profile, self.ctx, build, previous, self.kb, python=py)
        if exts:
            steps.append(
                self.step(
                    f"extensions{tag}",
                    "extensions",
                    build,
                    py=py,
                    pins=full,
                    requirements=later,
                    extensions=exts,
                    reasons=[f"rebuild {len(exts)} compiled extension(s) against torch {build}"],
                )
            )
        return steps

    def bound_choices(self, release: Release, py: PythonSpec) -> dict[str, BoundChoice]:
        """Each torch-bound requirement of the profile, re-pinned for `release` (blocked ones are the plan's)."""
        return {
            text: bound_choice(req, self.bound[text], release, py.version, self.profile.machine)
            for req in self.profile.stack.packages
            if (text := str(req)) in self.bound
        }

    @staticmethod
    def _companion_reasons(release: Release, companions: tuple[str, ...]) -> list[str]:
        return [
            f"{name} {getattr(release, name)}: the exact companion of torch {release.torch} in the KB"
            + (" (inferred, not verified: check its Requires-Dist)" if release.is_doubtful(name) else "")
            for name in companions
        ]

    def _left_out(
        self,
        previous: Release,
        release: Release,
        *,
        companions: tuple[str, ...],
        deferred: tuple[str, ...],
        moved_python: bool,
        py: PythonSpec,
    ) -> list[str]:
        out = []
        if moved_python:
            out.append(
                f"Python {self.profile.python} -> {py} in the same step: torch {previous.torch} "
                f"publishes no wheels for Python {py}"
            )
        if companions:
            out.append(
                f"{', '.join(companions)} left out: the {previous.minor} builds do not load with torch "
                f'{release.minor} ("operator torchvision::nms does not exist"); they come next'
            )
        if deferred:
            needs = sorted({c for req in deferred for c in self.dependents[req]})
            out.append(
                f"deferred to the companions step, because they require {', '.join(needs)}: " + ", ".join(deferred)
            )
        if self.profile.extensions:
            out.append(
                'compiled extensions left out: built against the old torch they fail with "undefined '
                'symbol"; they are rebuilt after the companions'
            )
        return out


def stack_step(profile: Profile, kb: KB) -> Step:
    """The profile's stack as one step of exact pins: what `envplan lock` locks."""
    ctx = context_of(profile, kb)
    return replace(_StepBuilder(profile, ctx, kb).baseline(_current(profile, ctx, kb)), name=profile.name)


def _local_label(platform: str, variant: str, *, from_pypi: bool) -> str:
    """The local version label the installed torch reports (`2.5.1+cu124`): none on macOS, and none for the
    CPU wheels PyPI serves for Linux aarch64 (platforms.toml: 'CPU wheels on PyPI without +cpu label')."""
    if platform.startswith("macos") or (platform == "linux-aarch64" and from_pypi and variant == "cpu"):
        return ""
    return variant


def _extension_requirements(exts: tuple[ExtensionBuild, ...], given: tuple[str, ...]) -> tuple[str, ...]:
    """What the extensions import at run time, and what their source builds import (build.sh installs them with
    --no-deps and --no-build-isolation): locked with the step, unless the profile already asks for them."""
    named = {canonicalize_name(Requirement(r).name) for r in given}
    out: dict[str, None] = {}
    for e in exts:
        for need in (*e.needs, *(e.build_needs if e.method == "source" else ())):
            if canonicalize_name(Requirement(need).name) not in named:
                out.setdefault(need)
    return tuple(out)
