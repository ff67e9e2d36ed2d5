"""The failure catalogue: from an error text (a traceback, a pip log) to its cause and fix. Pure.

Each rule finds its evidence line, extracts the versions the text states, and asks the KB for the fix.
Nothing is guessed: when no rule matches, the answer is an empty list.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from packaging.version import Version

from envplan.kb import KB
from envplan.variants import parse_variant
from envplan.verify import symbol_verdict

__all__ = ["Diagnosis", "explain_text"]

Demangle = Callable[[str], str]


@dataclass(frozen=True, kw_only=True, slots=True)
class Diagnosis:
    ref: str
    confidence: str  # "high" | "medium"
    evidence: str  # the line of the text that shows it
    cause: str
    fix: str

    def to_dict(self) -> dict[str, str]:
        return {
            "ref": self.ref,
            "confidence": self.confidence,
            "evidence": self.evidence,
            "cause": self.cause,
            "fix": self.fix,
        }


def _line(text: str, match: re.Match[str]) -> str:
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    return text[start : end if end != -1 else len(text)].strip()[:400]


_UNDEFINED = re.compile(r"(?:(?P<path>/\S+?\.so(?:\.\d+)*):\s*)?undefined symbol:\s*(?P<sym>[_A-Za-z0-9$.@]+)")
_COMPANION_PATH = re.compile(r"(torchvision|torchaudio)")


def _undefined(text: str, kb: KB, demangle: Demangle) -> list[Diagnosis]:
    out = []
    for m in _UNDEFINED.finditer(text):
        path, sym = m.group("path") or "", m.group("sym")
        companion = _COMPANION_PATH.search(path)
        demangled = demangle(sym)
        verdict = symbol_verdict(sym, demangled)
        evidence = _line(text, m)
        if companion:
            out.append(
                _companion(
                    evidence,
                    kb,
                    f"{companion.group(1)}'s compiled ops do not resolve against the installed torch ({demangled})",
                )
            )
        elif verdict.startswith("cxx11-abi"):
            flavour = "1 (new)" if verdict == "cxx11-abi-new" else "0 (old)"
            out.append(
                Diagnosis(
                    ref="cxx11-abi-mismatch",
                    confidence="high",
                    evidence=evidence,
                    cause=f"{_ext_name(path)} was built with _GLIBCXX_USE_CXX11_ABI={flavour}, the "
                    f"installed torch with the other one (the symbol is {demangled})",
                    fix="install the wheel whose cxx11abi flag matches torch._C._GLIBCXX_USE_CXX11_ABI "
                    "(cxx11abiTRUE for torch >= 2.7 and 2.6+cu126), or rebuild it from source "
                    "against this torch with --no-build-isolation",
                )
            )
        elif verdict in ("torch-version", "unresolved"):
            out.append(
                Diagnosis(
                    ref="extension-torch-mismatch",
                    confidence="high" if verdict == "torch-version" else "medium",
                    evidence=evidence,
                    cause=f"{_ext_name(path)} was built against another torch version: the installed "
                    f"torch does not define {demangled}",
                    fix=f"rebuild {_ext_name(path)} against the installed torch (pip install "
                    "--no-build-isolation --no-cache-dir --force-reinstall <it>), install its wheel "
                    "for this torch, or plan it: envplan upgrade PROFILE --to <torch>",
                )
            )
    return out


def _ext_name(path: str) -> str:
    name = path.rsplit("/", 1)[-1].split(".", maxsplit=1)[0] if path else ""
    return f"the extension {name}" if name else "a compiled extension"


_COMPANION = re.compile(
    r"operator torchvision::\w+ does not exist|Couldn't load custom C\+\+ ops|"
    r"(?P<pkg>torchvision|torchaudio) (?P<pv>[\w.+]+) requires torch==(?P<want>[\w.+]+), but you "
    r"have torch (?P<have>[\w.+]+)"
)


def _companion(evidence: str, kb: KB, cause: str, torch: str | None = None) -> Diagnosis:
    release = kb.release(torch.split("+")[0]) if torch else None
    if release is not None:
        fix = (
            f"install the exact companions of torch {release.torch}: torchvision=={release.torchvision} "
            f"torchaudio=={release.torchaudio}, from the same index as torch"
        )
    else:
        fix = (
            "reinstall torch, torchvision and torchaudio as one matched triple from the same index "
            "(envplan matrix shows them; envplan check verifies a profile)"
        )
    return Diagnosis(ref="companion-mismatch", confidence="high", evidence=evidence, cause=cause, fix=fix)


def _companions(text: str, kb: KB, demangle: Demangle) -> list[Diagnosis]:
    out = []
    for m in _COMPANION.finditer(text):
        if m.group("pkg"):
            cause = f"{m.group('pkg')} {m.group('pv')} is built for torch {m.group('want')}, not {m.group('have')}"
            out.append(_companion(_line(text, m), kb, cause, m.group("have")))
        else:
            out.append(
                _companion(
                    _line(text, m),
                    kb,
                    "torchvision's compiled operators were built against another torch than the installed one",
                )
            )
    return out


_ARCH = re.compile(
    r"no kernel image is available for execution on the device|"
    r"with CUDA capability (?P<sm>sm_\d+) is not compatible with the current PyTorch installation|"
    r"Unsupported gpu architecture '(?P<nv>compute_\d+|sm_\d+)'"
)


def _arch(text: str, kb: KB, demangle: Demangle) -> list[Diagnosis]:
    out = []
    for m in _ARCH.finditer(text):
        if m.group("nv"):
            cc = _cc(m.group("nv"))
            tk = next((c.version for c in kb.cuda if cc and c.compiles_for(cc)), None)
            fix = (
                f"use a CUDA toolkit that can compile {m.group('nv')} (the first in the KB is CUDA {tk}), or drop "
                "it from TORCH_CUDA_ARCH_LIST"
                if tk
                else "use a newer CUDA toolkit"
            )
            cause = f"nvcc is too old to compile for {m.group('nv')}"
        else:
            sm = m.group("sm") or _first_sm(text)
            cause = (
                f"the installed torch (or an extension) carries no kernels for this GPU{' (' + sm + ')' if sm else ''}"
            )
            fix = _arch_fix(kb, sm)
        out.append(Diagnosis(ref="arch-not-compiled", confidence="high", evidence=_line(text, m), cause=cause, fix=fix))
    return out[:1] if len({d.cause for d in out}) == 1 else out


def _cc(token: str) -> tuple[int, int] | None:
    m = re.search(r"(\d+)(\d)$", token)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _first_sm(text: str) -> str:
    m = re.search(r"\bsm_(\d{2,3})\b", text)
    return f"sm_{m.group(1)}" if m else ""


def _arch_fix(kb: KB, sm: str) -> str:
    cc = _cc(sm) if sm else None
    if cc is None:
        return (
            "install a torch variant whose architecture list covers the GPU (envplan check with the GPU in the "
            "profile names it), and rebuild extensions with TORCH_CUDA_ARCH_LIST set to the GPU's capability"
        )
    from envplan.compat import Context, releases_for
    from envplan.profile import Machine

    builds = releases_for(kb, Context(machine=Machine(), gpus=()), cc)
    first = f"; the first torch with kernels for it is {builds[0][0]}+{builds[0][1]}" if builds else ""
    return (
        f"install a torch build compiled for {sm}{first} (newer releases: envplan matrix; envplan check verifies "
        f"a profile), and rebuild extensions with TORCH_CUDA_ARCH_LIST={cc[0]}.{cc[1]}"
    )


_RUNTIME = re.compile(
    r"(?P<lib>lib(?:cudart|cublas|cublasLt|cudnn\w*|cufft|curand|cusparse|cusolver|nvrtc|nccl|nvJitLink"
    r"|cupti)[\w]*\.so(?:\.(?P<ver>\d+(?:\.\d+)*))?): cannot open shared object file"
)


def _runtime(text: str, kb: KB, demangle: Demangle) -> list[Diagnosis]:
    out = []
    for m in _RUNTIME.finditer(text):
        lib, ver = m.group("lib"), m.group("ver") or ""
        major = ver.split(".")[0] if ver else ""
        cuda = (
            f" of CUDA {major}"
            if major
            and lib.startswith(
                ("libcudart", "libcublas", "libcufft", "libcurand", "libcusparse", "libcusolver", "libnvrtc")
            )
            else ""
        )
        out.append(
            Diagnosis(
                ref="cuda-runtime-missing",
                confidence="high",
                evidence=_line(text, m),
                cause=f"{lib}{cuda} is not where the loader looks: the CUDA runtime a library was built for is not "
                "installed, or LD_LIBRARY_PATH points at another CUDA",
                fix=f"install the CUDA runtime{cuda} (pip wheels of a cu{major}x torch bring their own nvidia-* "
                "runtime packages), or point LD_LIBRARY_PATH at $CUDA_HOME/lib64 of the matching toolkit; an "
                "extension built for another CUDA major must be rebuilt"
                if major
                else "install the missing CUDA library or set LD_LIBRARY_PATH to the toolkit's lib64",
            )
        )
    return out


_DRIVER = re.compile(
    r"CUDA driver version is insufficient for CUDA runtime version|"
    r"The NVIDIA driver on your system is too old \(found version (?P<found>\d+)\)"
)


def _driver(text: str, kb: KB, demangle: Demangle) -> list[Diagnosis]:
    out = []
    for m in _DRIVER.finditer(text):
        found = m.group("found")
        supports = f" (it supports up to CUDA {int(found) // 1000}.{int(found) % 1000 // 10})" if found else ""
        cuda = _torch_cuda(text)
        tk = kb.toolkit(Version(cuda)) if cuda else None
        floor = tk.driver("linux") if tk else None
        need = f": CUDA {cuda} needs driver >= {floor} (Linux)" if floor else ""
        out.append(
            Diagnosis(
                ref="driver-too-old",
                confidence="high",
                evidence=_line(text, m),
                cause=f"the NVIDIA driver is older than the CUDA runtime torch uses{supports}",
                fix=f"upgrade the NVIDIA driver{need}, or install a torch variant with an older CUDA "
                "(envplan check with machine.driver set picks one)",
            )
        )
    return out


def _torch_cuda(text: str) -> str:
    m = re.search(r"(?:torch\.version\.cuda\W+|\+cu)(\d+\.\d+|\d{2,3})", text)
    if not m:
        return ""
    token = m.group(1)
    if "." in token:
        return token
    variant = parse_variant(f"cu{token}")
    return str(variant.cuda) if variant and variant.cuda else ""


_TOOLKIT = re.compile(
    r"The detected CUDA version \((?P<nvcc>[\d.]+)\) mismatches the version that was used to "
    r"compile\s+PyTorch \((?P<torch>[\d.]+)\)|Cuda extensions are being compiled with a version of "
    r"Cuda that does not match the version used to compile Pytorch binaries"
)


def _toolkit(text: str, kb: KB, demangle: Demangle) -> list[Diagnosis]:
    out = []
    for m in _TOOLKIT.finditer(text):
        nvcc, torch = m.group("nvcc"), m.group("torch")
        if nvcc and torch:
            cause = f"nvcc is CUDA {nvcc} but torch was built with CUDA {torch}"
            fix = (
                f"install CUDA toolkit {torch} (same major; apex needs the same major.minor), export "
                f"CUDA_HOME=/usr/local/cuda-{torch} and PATH=$CUDA_HOME/bin:$PATH, then rebuild"
            )
        else:
            cause = "apex requires nvcc's major.minor to equal torch.version.cuda exactly"
            fix = "install the CUDA toolkit whose major.minor equals torch.version.cuda and point CUDA_HOME at it"
        out.append(
            Diagnosis(
                ref="toolkit-torch-cuda-mismatch", confidence="high", evidence=_line(text, m), cause=cause, fix=fix
            )
        )
    return out


_CPU = re.compile(r"Torch not compiled with CUDA enabled")


def _cpu(text: str, kb: KB, demangle: Demangle) -> list[Diagnosis]:
    return [
        Diagnosis(
            ref="cpu-only-build",
            confidence="high",
            evidence=_line(text, m),
            cause="the installed torch is a CPU build, so nothing can run on the GPU",
            fix="install a CUDA variant of the same torch (e.g. --index-url https://download.pytorch.org"
            "/whl/cu121 with torch==X+cu121); envplan check with the GPUs and driver in the profile "
            "picks the variant",
        )
        for m in _CPU.finditer(text)
    ][:1]


_NO_TORCH = re.compile(r"No module named '?torch'?")
_BUILDING = re.compile(
    r"Getting requirements to build wheel|Preparing metadata|setup\.py|bdist_wheel|"
    r"subprocess-exited-with-error|build_meta|pyproject\.toml"
)


def _isolation(text: str, kb: KB, demangle: Demangle) -> list[Diagnosis]:
    m = _NO_TORCH.search(text)
    if m is None or not _BUILDING.search(text):
        return []
    return [
        Diagnosis(
            ref="build-isolation-missing-torch",
            confidence="high",
            evidence=_line(text, m),
            cause="the package's build imports torch, but pip built it in an isolated environment without torch",
            fix="install torch first, then the package with pip install --no-build-isolation (and "
            "--no-cache-dir, so no wheel built against another torch is reused)",
        )
    ]


_GLIBC = re.compile(r"(?P<lib>GLIBC|GLIBCXX|CXXABI)_(?P<ver>[\d.]+)'? not found")


def _glibc(text: str, kb: KB, demangle: Demangle) -> list[Diagnosis]:
    out = []
    for m in _GLIBC.finditer(text):
        lib, ver = m.group("lib"), m.group("ver")
        if lib == "GLIBC":
            cause = f"the binary needs glibc {ver} or newer; this system's glibc is older"
            fix = (
                f"use a system (or container) with glibc >= {ver}, or a wheel built for an older glibc "
                "(torch <= 2.5 wheels need 2.17, 2.7+ need 2.28; flash-attn 2.8.x wheels need 2.32)"
            )
        else:
            cause = f"the binary needs a newer libstdc++ ({lib}_{ver}) than the one loaded"
            fix = (
                "use a newer libstdc++ (conda install -c conda-forge libstdcxx-ng, or LD_PRELOAD the newer "
                "libstdc++.so.6), or build with the system compiler"
            )
        out.append(Diagnosis(ref="glibc-too-old", confidence="high", evidence=_line(text, m), cause=cause, fix=fix))
    return out[:1] if out else []


_NO_DIST = re.compile(
    r"No matching distribution found for (?P<req>[\w.-]+)(?:==(?P<ver>[\w.+]+))?|"
    r"requires a different Python: (?P<have>[\d.]+) not in '(?P<spec>[^']+)'"
)


def _python(text: str, kb: KB, demangle: Demangle) -> list[Diagnosis]:
    out = []
    for m in _NO_DIST.finditer(text):
        if m.group("have"):
            cause = f"the package requires Python {m.group('spec')}, and this is Python {m.group('have')}"
            fix = "use a Python in that range, or a release of the package that supports this Python"
        else:
            name, ver = m.group("req"), m.group("ver")
            release = kb.release(_base(ver)) if name == "torch" and ver else None
            if name in ("torch", "torchvision", "torchaudio") and release is None and not _python_hint(text):
                continue
            py = _python_hint(text)
            cause = f"no {name}{'==' + ver if ver else ''} wheel for this Python/platform" + (
                f" (Python {py})" if py else ""
            )
            fix = (
                f"torch {release.torch} publishes wheels for Python {release.python_min}-{release.python_max}: "
                "use one of those (or a torch release that supports this Python)"
                if release
                else "check the Python versions the release publishes wheels for (envplan matrix) and the index URL"
            )
        out.append(
            Diagnosis(ref="python-unsupported", confidence="medium", evidence=_line(text, m), cause=cause, fix=fix)
        )
    return out


def _base(version: str) -> str:
    return version.split("+", maxsplit=1)[0]


def _python_hint(text: str) -> str:
    m = re.search(r"[Pp]ython (3\.\d+)|cp3(\d+)", text)
    if not m:
        return ""
    return m.group(1) or f"3.{m.group(2)}"


RULES = (_undefined, _companions, _arch, _runtime, _driver, _toolkit, _cpu, _isolation, _glibc, _python)


def explain_text(text: str, kb: KB, demangle: Demangle = lambda s: s) -> list[Diagnosis]:
    """Every cause the text shows, most likely first (high confidence, then where it appears); [] if none."""
    found: list[tuple[int, int, Diagnosis]] = []
    for rule in RULES:
        for d in rule(text, kb, demangle):
            found.append((0 if d.confidence == "high" else 1, text.find(d.evidence), d))
    seen: set[tuple[str, str]] = set()
    out = []
    for _, _, d in sorted(found, key=lambda f: (f[0], f[1])):
        if (d.ref, d.evidence) not in seen:
            seen.add((d.ref, d.evidence))
            out.append(d)
    return out
