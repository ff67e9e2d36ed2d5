"""The upgrade planner: profile + target + KB -> Plan. Pure: no files, no network, no subprocess.

The path is always torch first, then its companions, then the compiled extensions, each step an
environment of exact pins that works on its own; `via_minors` repeats that for every minor between.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envplan.blockers import hop_blockers, python_blocker
from envplan.check import context_of
from envplan.compat import Context, assess_python, assess_variant, choose_variant
from envplan.errors import EnvplanError
from envplan.extbuild import extension_builds
from envplan.findings import Finding, has_errors
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.plan_model import Blocker, Build, ExtensionBuild, Kind, Pin, Plan, Step
from envplan.profile import Profile

__all__ = ["plan_upgrade", "resolve_target", "stack_step"]


def resolve_target(text: str, kb: KB) -> Release:
    """`latest`, `2.1` (the newest patch of that minor) or `2.1.2`."""
    if text == "latest":
        return kb.latest()
    try:
        want = Version(text)
    except InvalidVersion:
        raise EnvplanError(
            "bad-target", f"{text!r} is not a version", where="--to", hint="write X.Y (newest patch), X.Y.Z or latest"
        ) from None
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
    python: Version  # the Python every hop must support
    free_threaded: bool


def plan_upgrade(
    profile: Profile,
    target: Release,
    kb: KB,
    *,
    variant: str | None = None,
    python: Version | None = None,
    via_minors: bool = False,
) -> Plan:
    """The safe path from the profile's stack to `target`, or the blockers that stand in the way."""
    ctx = replace(context_of(profile, kb), toolkit_installable=True)
    source = _current(profile, ctx, kb)
    opts = _Options(forced=variant, python=python or profile.python.version, free_threaded=profile.python.free_threaded)
    blocked = Plan(
        profile_name=profile.name, source=source.release, source_variant=source.variant, target=target, status="blocked"
    )
    hops: list[_Hop] = []
    keep = source.variant
    for release in _hop_releases(kb, source.release, target, via_minors):
        hop, blockers = _hop(ctx, release, keep, opts, kb)
        if hop is None:
            return replace(blocked, blockers=tuple(blockers))
        hops.append(hop)
        keep = hop.build.variant
    steps = _StepBuilder(profile, ctx, kb).steps(source, hops, opts.python)
    ext_warnings = (e.warning for step in steps for e in step.extensions if e.warning)
    warnings = tuple(dict.fromkeys([*(w for h in hops for w in h.warnings), *ext_warnings]))
    gpus = tuple(f"{g.name} ({g.sm})" for g in ctx.gpus)
    return replace(blocked, status="ok", steps=steps, warnings=warnings, gpus=gpus, machine=_machine_facts(profile))


def _machine_facts(profile: Profile) -> tuple[tuple[str, str], ...]:
    m = profile.machine
    facts = (
        ("OS", f"{m.os} {m.arch}"),
        ("glibc", m.glibc),
        ("NVIDIA driver", m.driver),
        ("CUDA toolkit (nvcc)", m.cuda_toolkit),
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
    if has_errors(assess_python(opts.python, opts.free_threaded, release)):
        return None, [python_blocker(release, opts.python)]
    if opts.forced is not None:
        if has_errors(findings := assess_variant(ctx, release, opts.forced, kb)):
            return None, hop_blockers(ctx, release, kb, only=opts.forced)
        return _made(Build(release, opts.forced), "forced by --variant", findings), []
    if keep in release.variants and not has_errors(findings := assess_variant(ctx, release, keep, kb)):
        why = f"today's variant, published for torch {release.torch} and supported by this machine"
        return _made(Build(release, keep), why, findings), []
    choice = choose_variant(ctx, release, kb)
    if choice.variant is None:
        return None, hop_blockers(ctx, release, kb)
    dropped = f"today's {keep} is not usable for torch {release.torch}; " if keep != choice.variant else ""
    return _made(Build(release, choice.variant), dropped + choice.reason, list(choice.findings)), []


def _made(build: Build, why: str, findings: list[Finding]) -> _Hop:
    warnings = tuple(f.message for f in findings if f.severity == "warning")
    return _Hop(build=build, reasons=(f"variant {build.variant}: {why}",), warnings=warnings)


class _StepBuilder:
    """Makes the steps of one profile's plan; holds what every step shares."""

    def __init__(self, profile: Profile, ctx: Context, kb: KB) -> None:
        self.profile, self.ctx, self.kb = profile, ctx, kb
        self.dependents = {str(r): kb.dependents.get(canonicalize_name(r.name), ()) for r in profile.stack.packages}

    def steps(self, source: Build, hops: list[_Hop], py: Version) -> tuple[Step, ...]:
        steps = [self.baseline(source)]
        moved_python = py != self.profile.python.version
        if moved_python and not has_errors(assess_python(py, self.profile.python.free_threaded, source.release)):
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

    def companions(self) -> tuple[str, ...]:
        """Companions in the stack, plus those a package needs (timm needs torchvision)."""
        wanted = {n for n in ("torchvision", "torchaudio") if getattr(self.profile.stack, n) is not None}
        wanted |= {c for needs in self.dependents.values() for c in needs}
        return tuple(n for n in ("torchvision", "torchaudio") if n in wanted)

    def pins(self, build: Build, names: tuple[str, ...], *, today: bool = False) -> tuple[Pin, ...]:
        machine = self.profile.machine
        release = build.release
        default = build.variant == release.pypi_default and (machine.os, machine.arch) == ("linux", "x86_64")
        index = "pypi" if machine.os == "macos" or default else "pytorch"
        label = "" if machine.os == "macos" else build.variant
        out = []
        for name in names:
            given = getattr(self.profile.stack, name) if today and name != "torch" else None
            version: Version = given if isinstance(given, Version) else getattr(release, name)
            out.append(Pin(name=name, version=version, label=label, index="pypi" if index == "pypi" else "pytorch"))
        return tuple(out)

    def step(
        self,
        name: str,
        kind: Kind,
        build: Build,
        *,
        py: Version,
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
            requirements=requirements,
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
            py=self.profile.python.version,
            pins=self.pins(build, names, today=True),
            requirements=tuple(self.dependents),
            reasons=reasons,
            extensions=extension_builds(self.profile, self.ctx, build, None, self.kb),
        )

    def python_step(self, build: Build, py: Version) -> Step:
        base = self.baseline(build)
        reasons = [
            f"Python {self.profile.python.version} -> {py} first, on today's torch {build} (which publishes "
            f"wheels for Python {build.release.python_min}-{build.release.python_max}): one change at a time"
        ]
        exts = extension_builds(self.profile, self.ctx, build, build.release, self.kb)
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

    def hop_steps(self, hop: _Hop, previous: Release, py: Version, tag: str, moved_python: bool) -> list[Step]:
        build, companions = hop.build, self.companions()
        deferred = tuple(req for req, needs in self.dependents.items() if needs)
        early = tuple(req for req in self.dependents if req not in deferred)
        reasons = [f"torch {previous.torch} -> {build.release.torch} alone", *hop.reasons]
        if self.kb.learned and build.release.torch in self.kb.learned:
            reasons.append(
                f"torch {build.release.torch} is not in the reviewed KB: {build.release.source}; "
                "its driver floors and architecture lists are unknown"
            )
        reasons += self._left_out(
            previous, build.release, companions=companions, deferred=deferred, moved_python=moved_python, py=py
        )
        steps = [
            self.step(
                f"torch{tag}",
                "torch",
                build,
                py=py,
                pins=self.pins(build, ("torch",)),
                requirements=early,
                reasons=reasons,
            )
        ]
        full = self.pins(build, ("torch", *companions))
        if companions:
            why = [
                f"{name} {getattr(build.release, name)}: the exact companion of torch {build.release.torch} in the "
                "KB" + (" (inferred, not verified: check its Requires-Dist)" if build.release.is_doubtful(name) else "")
                for name in companions
            ]
            if deferred:
                why.append("the packages that need them come back: " + ", ".join(deferred))
            steps.append(
                self.step(
                    f"companions{tag}",
                    "companions",
                    build,
                    py=py,
                    pins=full,
                    requirements=tuple(self.dependents),
                    reasons=why,
                )
            )
        exts = extension_builds(self.profile, self.ctx, build, previous, self.kb)
        if exts:
            steps.append(
                self.step(
                    f"extensions{tag}",
                    "extensions",
                    build,
                    py=py,
                    pins=full,
                    requirements=tuple(self.dependents),
                    extensions=exts,
                    reasons=[f"rebuild {len(exts)} compiled extension(s) against torch {build}"],
                )
            )
        return steps

    def _left_out(
        self,
        previous: Release,
        release: Release,
        *,
        companions: tuple[str, ...],
        deferred: tuple[str, ...],
        moved_python: bool,
        py: Version,
    ) -> list[str]:
        out = []
        if moved_python:
            out.append(
                f"Python {self.profile.python.version} -> {py} in the same step: torch {previous.torch} "
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
