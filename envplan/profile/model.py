"""Profile format v1: load a TOML profile into frozen dataclasses, reporting every problem at once.

Each problem names the file and the dotted key (`stack.variant: ...`). The loader knows the format,
not the knowledge base: whether a torch version or a variant exists is `check`'s business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from envplan import tomlread
from envplan.errors import EnvplanError, ProfileError
from envplan.kb.variants import CC, TORCH_FAMILY, parse_variant
from envplan.paths import NAME_RULE, safe_name
from envplan.profile.gpu import gpu_vendor
from envplan.profile.reader import Reader

__all__ = [
    "DEFAULT_PYPI",
    "DEFAULT_PYTORCH",
    "Extension",
    "Indexes",
    "Machine",
    "Profile",
    "PythonSpec",
    "Stack",
    "index_url_problem",
    "load_profile",
    "parse_profile",
]

DEFAULT_PYPI = "https://pypi.org/simple"
DEFAULT_PYTORCH = "https://download.pytorch.org/whl"
DEFAULT_CONDA = "https://conda.anaconda.org"
# ASCII digits only (\d also matches fullwidth and Arabic-Indic digits, which Version() refuses), and no
# number longer than any real version has (int() refuses more than 4,300 digits).
_DRIVER = re.compile(r"\d{3,4}(\.\d{1,3}){1,2}", re.ASCII)
_MAJOR_MINOR = re.compile(r"\d{1,9}\.\d{1,9}(\.\d{1,9})?", re.ASCII)
_PYTHON = re.compile(r"(3\.\d{1,2})(\.\d{1,9})?(t?)", re.ASCII)
_RELEASE = re.compile(r"\d{1,9}\.\d{1,9}\.\d{1,9}(\+[a-z0-9.]{1,64})?", re.ASCII)
# An index URL: http(s) with a host, or file://; no query, no fragment, and only characters no shell, YAML or
# Dockerfile treats specially (anything else percent-encoded, as RFC 3986 allows).
_INDEX = re.compile(r"(https?://[A-Za-z0-9.-]|file:///?[A-Za-z0-9._~%+-])[A-Za-z0-9._~%+=,@:/-]*", re.ASCII)
_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?", re.ASCII)
_GFX = re.compile(r"gfx\d{2,4}[a-z]?", re.ASCII)  # an AMD GPU's LLVM target, given in compute-capability
_ARCH_ALIASES = {"arm64": "aarch64", "amd64": "x86_64", "x64": "x86_64"}  # what uname, Windows and macOS print
_PEP440 = re.compile(
    r"\d{1,12}(\.\d{1,12}){0,8}((a|b|rc)\d{1,9})?(\.post\d{1,9})?(\.dev\d{1,9})?(\+[a-z0-9]{1,32}([.][a-z0-9]{1,32}){0,8})?",
    re.I | re.ASCII,
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Machine:
    os: str = "linux"
    arch: str = "x86_64"
    glibc: Version | None = None
    gpus: tuple[str, ...] = ()
    compute_capability: tuple[CC | str, ...] = ()  # NVIDIA (8, 9), or an AMD gfx target "gfx942"
    driver: Version | None = None
    cuda_toolkit: Version | None = None
    rocm: Version | None = None  # the ROCm release installed on the host (its amdgpu driver), when known

    @property
    def has_gpu(self) -> bool:
        return bool(self.gpus or self.compute_capability)

    @property
    def platform(self) -> str:
        """The KB's platform name: linux-x86_64, linux-aarch64, windows-x86_64, macos-arm64, macos-x86_64."""
        arch = "arm64" if (self.os, self.arch) == ("macos", "aarch64") else self.arch
        return f"{self.os}-{arch}"


@dataclass(frozen=True, kw_only=True, slots=True)
class PythonSpec:
    version: Version  # major.minor
    free_threaded: bool = False

    def __str__(self) -> str:
        return f"{self.version}{'t' if self.free_threaded else ''}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Stack:
    torch: Version  # without local label
    variant: str  # cpu | cuXYZ | rocmX.Y | auto
    torchvision: Version | str | None = None  # a version, "auto", or None = not installed
    torchaudio: Version | str | None = None
    packages: tuple[Requirement, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class Extension:
    name: str
    version: Version | None = None
    pin: bool = False  # keep exactly this version (a source build when it has no wheel for the target)


@dataclass(frozen=True, kw_only=True, slots=True)
class Indexes:
    pypi: str = DEFAULT_PYPI
    pytorch: str = DEFAULT_PYTORCH
    conda: str = DEFAULT_CONDA  # channel alias: channel names are appended (…/pytorch, …/conda-forge)


@dataclass(frozen=True, kw_only=True, slots=True)
class Profile:
    path: str
    name: str
    machine: Machine
    python: PythonSpec
    stack: Stack
    extensions: tuple[Extension, ...] = ()
    indexes: Indexes = Indexes()


def load_profile(path: str | Path) -> Profile:
    """Read and validate a profile file; raise ProfileError listing every problem."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        hint = "give the path of a profile TOML file, e.g. profiles/a100-train.toml"
        if p.name == "envplan.toml" and not p.parent.name:
            hint = "write one for this machine with `envplan init`, or " + hint
        raise EnvplanError("profile-not-found", "no such file", where=str(p), hint=hint) from None
    except IsADirectoryError:
        inner = p / "envplan.toml"
        hint = f"give {inner}" if inner.is_file() else "give the profile's .toml file inside it"
        raise EnvplanError("profile-unreadable", "is a folder, not a profile", where=str(p), hint=hint) from None
    except OSError as exc:
        raise EnvplanError(
            "profile-unreadable", f"cannot read: {exc.strerror or exc}", where=str(p), hint="check its permissions"
        ) from None
    return parse_profile(_profile_text(raw, str(p)), str(p))


def _profile_text(raw: bytes, where: str) -> str:
    """A profile is UTF-8 text: a binary file or another encoding is named as such, not as a TOML syntax error."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EnvplanError(
            "profile-unreadable",
            f"not UTF-8 text (byte {exc.start}): not a profile",
            where=where,
            hint="give the profile's .toml file (save it as UTF-8)",
        ) from None
    if "\0" in text:
        raise EnvplanError(
            "profile-unreadable", "a binary file, not a profile", where=where, hint="give the profile's .toml file"
        )
    return text


def parse_profile(text: str, path: str = "<profile>") -> Profile:
    try:
        data = tomlread.loads(text)
    except tomlread.TOMLDecodeError as exc:
        raise EnvplanError(
            "toml-syntax", f"not valid TOML: {exc}", where=path, hint="fix the syntax at that line and column"
        ) from None
    except RecursionError:
        raise EnvplanError(
            "toml-syntax", "not a profile: arrays or tables nested too deeply", where=path, hint="a profile is flat"
        ) from None
    r = Reader(path)
    profile = _profile(r, data)
    if r.problems or profile is None:
        raise ProfileError(r.problems)
    return profile


def _profile(r: Reader, data: dict[str, Any]) -> Profile | None:
    r.keys(data, "", {"schema", "name", "machine", "python", "stack", "extensions", "indexes"})
    schema = data.get("schema")
    if schema != 1:
        r.add(
            "schema",
            "missing" if schema is None else f"{schema!r} is not a supported schema",
            "set schema = 1",
            ref="bad-schema",
        )
    name = _name(r, r.string(data, "name", required=True))
    machine = _machine(r, r.table(data, "machine"))
    python_table, stack_table = r.table(data, "python", required=True), r.table(data, "stack", required=True)
    python = _python(r, python_table) if "python" in data else None
    stack = _stack(r, stack_table) if "stack" in data else None
    extensions = _extensions(r, data.get("extensions", []))
    indexes = _indexes(r, r.table(data, "indexes"))
    if r.problems or name is None or python is None or stack is None or machine is None:
        return None
    return Profile(
        path=r.path, name=name, machine=machine, python=python, stack=stack, extensions=extensions, indexes=indexes
    )


def _name(r: Reader, name: str | None) -> str | None:
    if name is not None and not safe_name(name):
        r.add("name", f"{name!r} is not a usable name", f"it names folders (lock-<name>): use {NAME_RULE}")
        return None
    return name


def _machine(r: Reader, t: dict[str, Any]) -> Machine | None:
    r.keys(t, "machine", {"os", "arch", "glibc", "gpus", "compute-capability", "driver", "cuda-toolkit", "rocm"})
    os = r.choice(t, "machine.os", ("linux", "windows", "macos"), default="linux")
    arch = _ARCH_ALIASES.get(str(t.get("arch", "")).lower(), t.get("arch"))
    arch = r.choice({"arch": arch} if "arch" in t else {}, "machine.arch", ("x86_64", "aarch64"), default="x86_64")
    glibc = r.version(t, "machine.glibc", _MAJOR_MINOR, "a glibc version such as 2.31 (ldd --version)")
    if glibc is not None and os not in (None, "linux"):
        r.add("machine.glibc", f"only meaningful on linux, not {os}", "remove it")
    gpus = r.strings(t, "machine.gpus")
    ccs = _compute_capabilities(r, t, len(gpus))
    driver = r.version(t, "machine.driver", _DRIVER, "an NVIDIA driver version such as 535.104.05 (nvidia-smi)")
    nvidia = any(gpu_vendor(g) == "nvidia" and "jetson" not in g.lower() for g in gpus) or (
        any(not isinstance(c, str) for c in ccs) and not gpus
    )
    if nvidia and driver is None and "driver" not in t:
        r.add(
            "machine.driver",
            "required when NVIDIA gpus are given",
            'add driver = "<version>" as nvidia-smi prints it',
            ref="missing-driver",
        )
    toolkit = r.version(t, "machine.cuda-toolkit", _MAJOR_MINOR, "a CUDA toolkit version such as 11.8 (nvcc --version)")
    rocm = r.version(
        t, "machine.rocm", _MAJOR_MINOR, "the host's ROCm version such as 6.2 (cat /opt/rocm/.info/version)"
    )
    if None in (os, arch):
        return None
    return Machine(
        os=str(os),
        arch=str(arch),
        glibc=glibc,
        gpus=tuple(gpus),
        compute_capability=ccs,
        driver=driver,
        cuda_toolkit=toolkit,
        rocm=rocm,
    )


def _compute_capabilities(r: Reader, t: dict[str, Any], n_gpus: int) -> tuple[CC | str, ...]:
    items = r.strings(t, "machine.compute-capability")
    ccs: list[CC | str] = []
    for i, item in enumerate(items):
        if _GFX.fullmatch(item.strip().lower()):
            ccs.append(item.strip().lower())
            continue
        cc = r.cc(item, f"machine.compute-capability[{i}]")
        if cc is not None:
            ccs.append(cc)
    if items and n_gpus and len(items) != n_gpus:
        r.add(
            "machine.compute-capability",
            f"{len(items)} values for {n_gpus} gpus",
            "give one compute capability per entry of machine.gpus, in the same order",
        )
    return tuple(ccs)


def _python(r: Reader, t: dict[str, Any]) -> PythonSpec | None:
    r.keys(t, "python", {"version"})
    text = r.string(t, "python.version", required=True)
    if text is None:
        return None
    m = _PYTHON.fullmatch(text)
    if m is None:
        r.add("python.version", f"{text!r} is not a CPython version", "write it as 3.10 (or 3.13t for free-threaded)")
        return None
    return PythonSpec(version=Version(m.group(1)), free_threaded=bool(m.group(3)))


def _stack(r: Reader, t: dict[str, Any]) -> Stack | None:
    r.keys(t, "stack", {"torch", "variant", "torchvision", "torchaudio", "packages"})
    torch, label = _release_version(r, t, "stack.torch", required=True)
    variant = r.string(t, "stack.variant") or label or "auto"
    if variant != "auto" and parse_variant(variant) is None:
        r.add("stack.variant", f"{variant!r} is not a variant name", "use cpu, cuXYZ (e.g. cu118), rocmX.Y or auto")
    elif label and variant != label:
        r.add(
            "stack.torch",
            f"local label +{label} differs from stack.variant {variant!r}",
            f'drop the label or set variant = "{label}"',
            ref="mixed-variant",
        )
    companions = [_companion(r, t, name, variant) for name in ("torchvision", "torchaudio")]
    packages = _packages(r, t)
    if torch is None:
        return None
    return Stack(torch=torch, variant=variant, torchvision=companions[0], torchaudio=companions[1], packages=packages)


def _release_version(r: Reader, t: dict[str, Any], key: str, *, required: bool = False) -> tuple[Version | None, str]:
    text = r.string(t, key, required=required)
    if text is None:
        return None, ""
    if _RELEASE.fullmatch(text) is None:
        r.add(key, f"{text!r} is not an exact release version", "write it as X.Y.Z, e.g. 2.0.1", ref="bad-version")
        return None, ""
    base, _, label = text.partition("+")
    return Version(base), label


def _companion(r: Reader, t: dict[str, Any], name: str, variant: str) -> Version | str | None:
    key = f"stack.{name}"
    if t.get(name) == "auto":
        return "auto"
    version, label = _release_version(r, t, key)
    if label and variant not in (label, "auto"):
        r.add(
            key,
            f"local label +{label} differs from stack.variant {variant!r}",
            f"every torch package must come from the same variant: use +{variant} or no label",
            ref="mixed-variant",
        )
    return version


def _packages(r: Reader, t: dict[str, Any]) -> tuple[Requirement, ...]:
    out = []
    for i, text in enumerate(r.strings(t, "stack.packages")):
        key = f"stack.packages[{i}]"
        try:
            req = Requirement(text)
        except InvalidRequirement as exc:
            r.add(
                key, f"{text!r} is not a PEP 508 requirement ({exc})", "write it as pip would accept it, e.g. numpy<2"
            )
            continue
        if canonicalize_name(req.name) in TORCH_FAMILY:
            r.add(
                key,
                f"{req.name} belongs in stack.{canonicalize_name(req.name)}, not in packages",
                f"move it to stack.{canonicalize_name(req.name)}",
            )
            continue
        out.append(req)
    return tuple(out)


def _extensions(r: Reader, items: object) -> tuple[Extension, ...]:
    if not isinstance(items, list):
        r.add("extensions", "must be an array of tables", 'write each as [[extensions]] with name = "..."')
        return ()
    out = []
    for i, t in enumerate(items):
        key = f"extensions[{i}]"
        if not isinstance(t, dict):
            r.add(key, "must be a table", 'write it as [[extensions]] with name = "..."')
            continue
        r.keys(t, key, {"name", "version", "pin"})
        name = r.string(t, f"{key}.name", required=True)
        pin = t.get("pin", False)
        if not isinstance(pin, bool):
            r.add(f"{key}.pin", f"{pin!r} is not true or false", "write pin = true to keep exactly this version")
        elif pin and "version" not in t:
            r.add(f"{key}.pin", "pin = true needs a version to keep", 'add version = "X.Y.Z", or drop pin')
        if name is not None and _NAME.fullmatch(name) is None:
            r.add(f"{key}.name", f"{name!r} is not a package name", "use the name pip knows it by, e.g. causal-conv1d")
            name = None
        version = r.version(t, f"{key}.version", _PEP440, "a PEP 440 version such as 1.0.0")
        if name is not None:
            out.append(Extension(name=str(canonicalize_name(name)), version=version, pin=pin is True))
    return tuple(out)


def index_url_problem(url: str) -> str | None:
    """What is wrong with an index URL (None: nothing)."""
    if _INDEX.fullmatch(url) is None:
        return (
            f"{url!r} is not an http(s):// or file:// index URL (no query or fragment; percent-encode characters "
            "other than letters, digits and -._~%+=,@:/)"
        )
    return None


def _indexes(r: Reader, t: dict[str, Any]) -> Indexes:
    r.keys(t, "indexes", {"pypi", "pytorch", "conda"})
    urls = {}
    for name in ("pypi", "pytorch", "conda"):
        url = r.string(t, f"indexes.{name}")
        problem = index_url_problem(url) if url is not None else None
        if problem is not None:
            r.add(f"indexes.{name}", problem, "give the index's full URL")
        elif url is not None:
            urls[name] = url.rstrip("/")
    return Indexes(**urls)
