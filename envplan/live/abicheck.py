"""`envplan abi-check`: will each compiled extension load against the installed torch? Decided statically:
an extension's undefined dynamic symbols must be defined by torch's libraries or the system libraries
it links, and each missing one says why (another torch version, the other C++11 ABI, another CUDA)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from envplan.errors import EXIT_BAD_INPUT, EnvplanError
from envplan.live.demangle import demangle
from envplan.live.dynlink import find_library, load_closure
from envplan.live.elfsyms import DynInfo, ElfInfo, read_dynamic, read_elf
from envplan.paths import cache_root, stat_key, store_cache
from envplan.verify.inenv import TORCH_NAMESPACE, symbol_verdict

__all__ = [
    "VERDICTS",
    "ExtReport",
    "Missing",
    "TorchLibs",
    "check_environment",
    "check_extension",
    "load_failures",
    "probe_environment",
    "torch_libs",
]

_SYSTEM_DIRS = (
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib/aarch64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
)
_ALWAYS = ("libstdc++.so.6", "libgcc_s.so.1", "libc.so.6", "libm.so.6")
VERDICTS = {
    "torch-version": "built against another torch version (its C++ API changed): rebuild it against this torch",
    "cxx11-abi-new": "built with _GLIBCXX_USE_CXX11_ABI=1, this torch with 0: rebuild it (or take the "
    "cxx11abiFALSE wheel)",
    "cxx11-abi-old": "built with _GLIBCXX_USE_CXX11_ABI=0, this torch with 1: rebuild it (or take the "
    "cxx11abiTRUE wheel)",
    "cuda-runtime": "needs a CUDA runtime symbol that no loaded CUDA library provides: built for another CUDA",
    "unresolved": "no library it links defines it: a missing or different shared library",
}


@dataclass(frozen=True, slots=True)
class Missing:
    symbol: str
    demangled: str
    verdict: str


@dataclass(frozen=True, slots=True)
class ExtReport:
    name: str
    version: str
    path: str
    missing: tuple[Missing, ...]
    cuda_problem: str = ""
    built_against: str = ""  # from envplan's build record, when there is one
    missing_libs: tuple[str, ...] = ()  # DT_NEEDED libraries the loader would not find

    @property
    def ok(self) -> bool:
        return not self.missing and not self.cuda_problem and not self.missing_libs

    @property
    def why(self) -> str:
        """Why it would not load, in one line ("" when it loads)."""
        if self.cuda_problem:
            return self.cuda_problem
        if self.missing_libs:
            return (
                f"needs {', '.join(self.missing_libs)}, which neither torch's libraries nor the library path "
                "provide (ImportError: cannot open shared object file)"
            )
        if self.missing:
            first = self.missing[0]
            return f"{VERDICTS[first.verdict]}; {len(self.missing)} missing, e.g. {first.demangled}"
        return ""


@dataclass(frozen=True, slots=True)
class TorchLibs:
    version: str
    lib_dir: Path
    defined: frozenset[str]
    cuda_major: str  # from the libcudart torch links, "" for CPU builds
    loaded: Mapping[str, str] = field(default_factory=dict)  # what `import torch` loads: soname -> path


_PROBE = r"""
import importlib.metadata as md, importlib.util, json, os, sys, sysconfig
spec = importlib.util.find_spec("torch")
torch_dir = list(spec.submodule_search_locations)[0] if spec and spec.submodule_search_locations else None
dists = []
for dist in ([] if "--files-only" in sys.argv else md.distributions()):
    files = [str(dist.locate_file(f)) for f in (dist.files or []) if ".so" in f.name]
    record = next((str(dist.locate_file(f)) for f in (dist.files or []) if f.name == "envplan-build.json"), None)
    meta = next((dist.locate_file(f) for f in (dist.files or []) if f.name == "METADATA"), None)
    if meta is not None and record is None and (meta.parent / "envplan-build.json").is_file():
        record = str(meta.parent / "envplan-build.json")
    if files:
        dists.append({"name": dist.metadata["Name"], "version": dist.version, "files": files, "record": record})
libdir, ldlib = sysconfig.get_config_var("LIBDIR") or "", sysconfig.get_config_var("LDLIBRARY") or ""
print(json.dumps({"python": sys.executable, "torch_dir": torch_dir,
                  "torch_version": md.version("torch") if torch_dir else None,
                  "libpython": os.path.join(libdir, ldlib) if ldlib.endswith(".so") or ".so." in ldlib else "",
                  "dists": dists}))
"""


def probe_environment(python: str, *, files_only: bool = False) -> dict[str, object]:
    """What is installed in `python`'s environment (without importing torch or any extension)."""
    argv = [python, "-c", _PROBE, *(["--files-only"] if files_only else [])]
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=True).stdout
    except (OSError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        raise EnvplanError(
            "python-unusable",
            f"cannot inspect that Python: {exc}",
            where=python,
            hint="give --python the interpreter of the environment to check",
            exit_code=EXIT_BAD_INPUT,
        ) from None
    data: dict[str, object] = json.loads(out)
    if not data.get("torch_dir"):
        raise EnvplanError(
            "no-torch",
            "torch is not installed in that environment",
            where=python,
            hint="install torch there, or give --python the right interpreter",
            exit_code=EXIT_BAD_INPUT,
        )
    return data


def _ld_library_path() -> tuple[str, ...]:
    return tuple(p for p in os.environ.get("LD_LIBRARY_PATH", "").split(":") if p)


def torch_libs(torch_dir: str, version: str, python_libs: Iterable[str]) -> TorchLibs:
    """Every symbol torch's own libraries, the C/C++ runtime and libpython define, and every library importing
    torch loads (found as the loader finds them): merged once, then kept in the user cache keyed by every
    library's path, size and mtime and by LD_LIBRARY_PATH."""
    lib_dir = Path(torch_dir) / "lib"
    sources = [str(p) for p in sorted(lib_dir.glob("*.so*"))]
    sources += [p for p in (*(_find(n, ()) for n in _ALWAYS), *python_libs) if p]
    keyed = [*(stat_key(p) for p in sources), "LD_LIBRARY_PATH=" + ":".join(_ld_library_path())]
    key = hashlib.sha256("\n".join(keyed).encode()).hexdigest()[:32]
    memo = cache_root() / "torchsyms" / f"v2-{key}.json"
    try:
        saved = json.loads(memo.read_text())
        return TorchLibs(
            version=version,
            lib_dir=lib_dir,
            defined=frozenset(saved["defined"]),
            cuda_major=str(saved["cuda_major"]),
            loaded={str(k): str(v) for k, v in saved["loaded"].items()},
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    libs = _merge_libs(lib_dir, version, python_libs)
    saved = {"defined": sorted(libs.defined), "cuda_major": libs.cuda_major, "loaded": dict(libs.loaded)}
    store_cache(memo, json.dumps(saved))
    return libs


def _merge_libs(lib_dir: Path, version: str, python_libs: Iterable[str]) -> TorchLibs:
    defined: set[str] = set()
    cuda_major = ""
    for so in sorted(lib_dir.glob("*.so*")):
        info = read_elf(so)
        if info is None:
            continue
        defined |= info.defined
        cuda_major = cuda_major or _cudart_major(info.needed)
    for path in [*(_find(n, ()) for n in _ALWAYS), *python_libs]:
        info = read_elf(path) if path else None
        if info is not None:
            defined |= info.defined
    loaded = load_closure([str(p) for p in sorted(lib_dir.glob("*.so*"))], ld_library_path=_ld_library_path())
    return TorchLibs(version=version, lib_dir=lib_dir, defined=frozenset(defined), cuda_major=cuda_major, loaded=loaded)


def _cudart_major(needed: Iterable[str]) -> str:
    for lib in needed:
        m = re.match(r"libcudart\.so\.(\d+)", lib)
        if m:
            return m.group(1)
    return ""


def _find(name: str, extra_dirs: Iterable[str]) -> str:
    for d in (*extra_dirs, *_SYSTEM_DIRS):
        candidate = Path(d) / name
        if candidate.exists():
            return str(candidate)
    return ""


def check_extension(name: str, version: str, so: str, torch: TorchLibs, *, built_against: str = "") -> ExtReport:
    info, dyn = read_elf(so), read_dynamic(str(Path(so).resolve()))
    if info is None or dyn is None:
        raise EnvplanError(
            "not-a-shared-object",
            "not an ELF shared object, so nothing a Python extension could load",
            where=so,
            hint="give the compiled extension's .so file, or the name of an installed package",
            exit_code=EXIT_BAD_INPUT,
        )
    provided, unfound = _provided(dyn, torch)
    missing = sorted(s for s in info.undefined if s not in provided)
    demangled = demangle(missing)
    report = tuple(Missing(s, d, symbol_verdict(s, d, torch.defined)) for s, d in zip(missing, demangled, strict=True))
    return ExtReport(
        name=name,
        version=version,
        path=so,
        missing=report,
        cuda_problem=_cuda_problem(info, torch),
        built_against=built_against,
        missing_libs=unfound,
    )


def _provided(dyn: DynInfo, torch: TorchLibs) -> tuple[set[str], tuple[str, ...]]:
    """The symbols the extension's own dependencies add to torch's (each found as the loader would, torch's
    loaded libraries first), and the dependencies the loader would not find."""
    provided = set(torch.defined)
    unfound: list[str] = []
    closure = {dyn.path: dyn}
    queue = [dyn]
    while queue:
        obj = queue.pop(0)
        for lib in obj.needed:
            if lib in _ALWAYS or (torch.lib_dir / lib).exists():
                continue  # already in torch.defined
            found = find_library(lib, obj, loaded=torch.loaded, ld_library_path=_ld_library_path())
            if not found:
                unfound.append(lib)
                continue
            if found in closure:
                continue
            dep, dep_dyn = read_elf(found), read_dynamic(found)
            if dep is not None and dep_dyn is not None:
                provided |= dep.defined
                closure[found] = dep_dyn
                queue.append(dep_dyn)
    return provided, tuple(dict.fromkeys(unfound))


def _cuda_problem(info: ElfInfo, torch: TorchLibs) -> str:
    mine = _cudart_major(info.needed)
    if mine and torch.cuda_major and mine != torch.cuda_major:
        return f"links the CUDA {mine} runtime (libcudart.so.{mine}) but torch uses CUDA {torch.cuda_major}"
    if mine and not torch.cuda_major:
        return f"links the CUDA {mine} runtime, but this torch is a CPU build"
    return ""


_NOT_EXTENSIONS = re.compile(r"^(torch|triton|pytorch-triton.*|nvidia-.*|cuda-.*)$", re.I)
_TORCH_LIBS = re.compile(r"^lib(c10|torch)[a-z_]*\.so")


def _links_torch(so: str) -> bool:
    info = read_elf(so)
    return info is not None and (
        any(_TORCH_LIBS.match(n) for n in info.needed) or any(TORCH_NAMESPACE.match(s) for s in info.undefined)
    )


def _record(path: object) -> str:
    if not isinstance(path, str):
        return ""
    try:
        data = json.loads(Path(path).read_text())
        return str(data["built-against"]["torch"])
    except (OSError, ValueError, KeyError, TypeError):
        return ""


def check_environment(python: str, targets: list[str]) -> tuple[str, list[ExtReport]]:
    """(torch version, one report per compiled extension file) for the environment of `python`."""
    env = probe_environment(python, files_only=bool(targets) and all(Path(t).is_file() for t in targets))
    torch = torch_libs(
        str(env["torch_dir"]),
        str(env["torch_version"]),
        [str(env.get("libpython") or ""), str(env.get("python") or "")],
    )
    dists = [d for d in env["dists"] if isinstance(d, dict)]  # type: ignore[attr-defined]
    reports = []
    for name, version, so, record in _selected(dists, targets):
        reports.append(check_extension(name, version, so, torch, built_against=_record(record)))
    return torch.version, reports


def _selected(dists: list[dict[str, object]], targets: list[str]) -> list[tuple[str, str, str, object]]:
    chosen: list[tuple[str, str, str, object]] = []
    wanted = {re.sub(r"[-_.]+", "-", t).lower() for t in targets if not Path(t).is_file()}
    for path in (t for t in targets if Path(t).is_file()):
        chosen.append((Path(path).name, "", str(Path(path).resolve()), None))
    for d in dists:
        name = str(d["name"])
        key = re.sub(r"[-_.]+", "-", name).lower()
        files = [str(f) for f in d["files"]]  # type: ignore[attr-defined]
        if targets and key not in wanted:
            continue
        if not targets and (_NOT_EXTENSIONS.match(key) or not any(_links_torch(f) for f in files)):
            continue
        chosen += [(name, str(d["version"]), f, d.get("record")) for f in files if _links_torch(f) or targets]
        wanted.discard(key)
    if wanted:
        raise EnvplanError(
            "not-installed",
            f"not installed there: {', '.join(sorted(wanted))}",
            where="abi-check",
            hint="name installed packages or .so files",
            exit_code=EXIT_BAD_INPUT,
        )
    return chosen


def load_failures(python: str) -> tuple[str, ...]:
    """One line per compiled extension of `python`'s environment that would not load (doctor reports them);
    nothing when the environment cannot be read."""
    try:
        _, reports = check_environment(python, [])
    except EnvplanError:
        return ()
    return tuple(f"{r.name} {r.version} ({Path(r.path).name}) would not load: {r.why}" for r in reports if not r.ok)
