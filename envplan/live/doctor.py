"""`envplan doctor`: findings about a live environment, from what the probe saw and the KB. Pure."""

from __future__ import annotations

from packaging.version import InvalidVersion, Version

from envplan.core.compat import Context, assess_python, assess_variant
from envplan.core.findings import Finding
from envplan.kb import KB
from envplan.kb.model import Release
from envplan.kb.variants import DisplayVersion, parse_cc, parse_sm
from envplan.live.probe import Observed
from envplan.profile.gpu import MachineGpu, find_gpu, runs_on
from envplan.profile.model import Machine, Profile

__all__ = ["doctor", "observed_machine", "observed_variant", "stack_drift"]


def _version(text: str) -> Version | None:
    try:
        return DisplayVersion(text) if text else None
    except InvalidVersion:
        return None


def observed_variant(obs: Observed) -> str:
    """The installed torch's variant: its local label, else what torch.version.cuda says."""
    torch = obs.torch or {}
    label = str(torch.get("version", "")).partition("+")[2]
    if label:
        return label
    cuda = torch.get("cuda")
    return f"cu{str(cuda).replace('.', '')}" if cuda else "cpu"


def observed_machine(obs: Observed, kb: KB) -> tuple[Machine, tuple[MachineGpu, ...]]:
    gpus = []
    for name, cap in obs.gpus:
        cc = parse_cc(cap)
        match = find_gpu(name, kb.gpus)
        gpus.append(MachineGpu(name, cc or (match.gpu.compute_capability if match else None), "nvidia-smi"))
    machine = Machine(
        os=obs.os,
        arch=obs.arch,
        glibc=_version(obs.glibc),
        gpus=tuple(n for n, _ in obs.gpus),
        driver=_version(obs.driver),
        cuda_toolkit=_version(obs.nvcc),
    )
    return machine, tuple(gpus)


def doctor(
    obs: Observed, kb: KB, profile: Profile | None = None, *, extension_failures: tuple[str, ...] = ()
) -> list[Finding]:
    """Every finding, errors first. `extension_failures`: abi-check's one-line verdicts, computed by the caller."""
    if obs.torch is None:
        return _no_torch(obs, kb)
    machine, gpus = observed_machine(obs, kb)
    base = str(obs.torch["version"]).partition("+")[0]
    release = kb.release(base)
    findings = _runtime_facts(obs, gpus)
    if release is None:
        findings.append(
            Finding(
                ref="torch-not-in-kb",
                severity="warning",
                message=f"torch {obs.torch['version']} is "
                "not in the KB: only what the environment itself shows is checked",
                fix="envplan kb update (when available) or check the release notes",
            )
        )
    else:
        findings += _against_kb(obs, release, machine, gpus, kb)
    findings += [
        Finding(
            ref="extension-abi",
            severity="error",
            message=f,
            fix="rebuild it against this torch (envplan upgrade plans it) or install its wheel for this torch",
        )
        for f in extension_failures
    ]
    if profile is not None:
        findings += _drift(obs, profile, machine) + stack_drift(obs, profile)
    order = {"error": 0, "warning": 1, "info": 2}
    return sorted(findings, key=lambda f: order[f.severity])


def _no_torch(obs: Observed, kb: KB) -> list[Finding]:
    if not obs.torch_error or "No module named 'torch'" in obs.torch_error:
        return [
            Finding(
                ref="torch-missing",
                severity="error",
                message="torch is not installed in this environment",
                fix="envplan init writes a profile; envplan lock / upgrade give the exact install",
            )
        ]
    from envplan.live.diagnose import explain_text

    causes = explain_text(obs.torch_error, kb)
    cause = f" ({causes[0].cause})" if causes else ""
    return [
        Finding(
            ref="torch-import-failed",
            severity="error",
            message=f"import torch fails: {obs.torch_error}" + cause,
            fix=causes[0].fix if causes else "envplan explain on the full traceback",
        )
    ]


def _runtime_facts(obs: Observed, gpus: tuple[MachineGpu, ...]) -> list[Finding]:
    torch = obs.torch or {}
    out = []
    if gpus and not torch.get("cuda"):
        out.append(
            Finding(
                ref="cpu-build-on-gpu",
                severity="warning",  # as `check` says it: a choice that leaves the GPUs idle, not a breakage
                message=f"torch {torch.get('version')} is a CPU "
                f"build on a machine with {', '.join(g.name for g in gpus)}",
                fix="install the CUDA variant of the same torch (envplan check picks one for the driver)",
            )
        )
    arch_list = [a for a in torch.get("arch_list", []) if isinstance(a, str)]
    cubins = [c for a in arch_list if a.startswith("sm_") and (c := parse_sm(a))]
    ptx = [c for a in arch_list if a.startswith("compute_") and (c := parse_sm(a))]
    for g in gpus:
        if arch_list and g.cc is not None and not runs_on(g.cc, cubins, ptx):
            out.append(
                Finding(
                    ref="gpu-arch-unsupported",
                    severity="error",
                    message=f"{g.name} ({g.sm}) is not in torch.cuda.get_arch_list() {arch_list}: "
                    '"no kernel image is available for execution"',
                    fix="install a torch variant built for it (envplan check names one)",
                )
            )
    if len(obs.cudart_majors) > 1:
        out.append(
            Finding(
                ref="multiple-cuda-runtimes",
                severity="warning",
                message="CUDA runtimes of several majors are on the library path: "
                + ", ".join(f"libcudart.so.{m}" for m in obs.cudart_majors),
                fix="keep one CUDA major: fix LD_LIBRARY_PATH, remove stray nvidia-* wheels",
            )
        )
    return out


def _against_kb(
    obs: Observed, release: Release, machine: Machine, gpus: tuple[MachineGpu, ...], kb: KB
) -> list[Finding]:
    out = _companions(obs, release)
    known = tuple(g for g in gpus if g.cc is not None)
    ctx = Context(machine=machine, gpus=known, needs_build=bool(_installed_extensions(obs, kb)))
    skip = {"cpu-build-on-gpu", "gpu-arch-unsupported", "variant-not-published", "cuda-without-gpu"}
    out += [f for f in assess_variant(ctx, release, observed_variant(obs), kb) if f.ref not in skip]
    py = _version(".".join(obs.python.split(".")[:2]))
    if py is not None:
        out += assess_python(py, False, release)
    return [_strip_key(f) for f in out]


def _strip_key(f: Finding) -> Finding:
    return Finding(ref=f.ref, severity=f.severity, message=f.message, fix=f.fix)


def _companions(obs: Observed, release: Release) -> list[Finding]:
    out = []
    for name in ("torchvision", "torchaudio"):
        have = obs.dists.get(name)
        want = getattr(release, name)
        if have and Version(have.partition("+")[0]) != want:
            out.append(
                Finding(
                    ref="companion-mismatch",
                    severity="error",
                    message=f"{name} {have} does not match torch {release.torch}: its exact companion is "
                    f'{want} ("operator torchvision::nms does not exist" and kin)',
                    fix=f"pip install {name}=={want} from the index torch came from",
                )
            )
    return out


def _installed_extensions(obs: Observed, kb: KB) -> list[str]:
    return [e.name for e in kb.extensions if e.name in obs.dists]


def _drift(obs: Observed, profile: Profile, machine: Machine) -> list[Finding]:
    pairs = [
        ("machine.driver", profile.machine.driver, machine.driver),
        ("machine.cuda-toolkit", profile.machine.cuda_toolkit, machine.cuda_toolkit),
        ("machine.glibc", profile.machine.glibc, machine.glibc),
        ("stack.torch", profile.stack.torch, Version(str((obs.torch or {}).get("version", "0")).partition("+")[0])),
        ("python.version", profile.python.version, _version(".".join(obs.python.split(".")[:2]))),
    ]
    out = []
    for key, declared, seen in pairs:
        if declared is not None and seen is not None and declared != seen:
            out.append(
                Finding(
                    ref="profile-drift",
                    severity="warning",
                    key=key,
                    message=f"the profile says {declared}, the machine has {seen}",
                    fix="update the profile (envplan init writes one from this machine) or the machine",
                )
            )
    if len(profile.machine.gpus) != len(obs.gpus) and (profile.machine.gpus or obs.gpus):
        out.append(
            Finding(
                ref="profile-drift",
                severity="warning",
                key="machine.gpus",
                message=f"the profile lists {len(profile.machine.gpus)} GPU(s), nvidia-smi shows {len(obs.gpus)}",
                fix="update machine.gpus",
            )
        )
    return out


def stack_drift(obs: Observed, profile: Profile) -> list[Finding]:
    """Where the environment left the profile's stack: torch's variant, the companions, packages, extensions."""
    if obs.torch is None:
        return []
    return [
        *_variant_drift(obs, profile),
        *_companion_drift(obs, profile),
        *_package_drift(obs, profile),
        *_extension_drift(obs, profile),
    ]


def _drift_finding(key: str, message: str, fix: str) -> Finding:
    return Finding(ref="profile-drift", severity="warning", key=key, message=message, fix=fix)


def _variant_drift(obs: Observed, profile: Profile) -> list[Finding]:
    want, have = profile.stack.variant, observed_variant(obs)
    if want in ("auto", have):
        return []
    torch = f"torch=={profile.stack.torch}+{want}"
    return [
        _drift_finding(
            "stack.variant",
            f"the profile says {want}, the installed torch is {(obs.torch or {}).get('version')} ({have})",
            f"pip install --force-reinstall --no-deps {torch} --index-url {profile.indexes.pytorch}/{want} "
            "(and the companions of that variant); envplan lock PROFILE gives the whole locked install",
        )
    ]


def _companion_drift(obs: Observed, profile: Profile) -> list[Finding]:
    out = []
    variant = profile.stack.variant if profile.stack.variant != "auto" else observed_variant(obs)
    for name in ("torchvision", "torchaudio"):
        want = getattr(profile.stack, name)
        if not isinstance(want, Version):
            continue  # not declared, or "auto" (doctor checks the companion against torch anyway)
        have = obs.dists.get(name)
        fix = f"pip install --no-deps {name}=={want}+{variant} --index-url {profile.indexes.pytorch}/{variant}"
        if have is None:
            out.append(_drift_finding(f"stack.{name}", f"the profile lists {name} {want}; it is not installed", fix))
        elif Version(have.partition("+")[0]) != want:
            out.append(_drift_finding(f"stack.{name}", f"the profile says {name} {want}, installed is {have}", fix))
    return out


def _package_drift(obs: Observed, profile: Profile) -> list[Finding]:
    from packaging.utils import canonicalize_name

    out = []
    installed = {canonicalize_name(k): v for k, v in obs.dists.items()}
    for req in profile.stack.packages:
        have = installed.get(canonicalize_name(req.name))
        fix = f"pip install --no-deps '{req}' (envplan lock PROFILE pins it with the rest)"
        if have is None:
            out.append(_drift_finding("stack.packages", f"{req} is in the profile but not installed", fix))
        elif req.specifier and not req.specifier.contains(have, prereleases=True):
            out.append(_drift_finding("stack.packages", f"{req.name} {have} is installed; the profile says {req}", fix))
    return out


def _extension_drift(obs: Observed, profile: Profile) -> list[Finding]:
    out = []
    for i, ext in enumerate(profile.extensions):
        have = obs.dists.get(ext.name)
        pinned = f"{ext.name}=={ext.version}" if ext.version else ext.name
        fix = (
            f"pip install --no-build-isolation --no-deps {pinned} (built against the installed torch; "
            "envplan upgrade PROFILE plans the rebuild)"
        )
        key = f"extensions[{i}]"
        if have is None:
            out.append(_drift_finding(key, f"the extension {pinned} is in the profile but not installed", fix))
        elif ext.version is not None and Version(have.partition("+")[0]) != ext.version:
            out.append(_drift_finding(key, f"the profile says {pinned}, installed is {ext.name} {have}", fix))
    return out
