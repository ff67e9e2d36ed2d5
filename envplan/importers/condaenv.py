"""environment.yml: conda match specs (`pytorch=2.1.2`, `pytorch::pytorch-cuda=11.8`, `numpy = 1.26.4`,
`ruff[version='>=0.4.8']`, `pytorch 2.1.2 py3.10_cuda11.8_*`) and the `pip:` section."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from envplan.errors import EnvplanError
from envplan.importers.model import Dep, FileFacts, canonical
from envplan.importers.requirements import parse_lines

__all__ = ["CondaSpec", "conda_dep", "parse_spec", "read_environment", "read_yaml"]

_SPEC = re.compile(r"^(?:(?P<channel>[^:\s]+)::)?(?P<name>[A-Za-z0-9_][A-Za-z0-9_.\-]*)\s*(?P<rest>.*)$")
_BRACKET = re.compile(r"\[\s*version\s*=\s*['\"]([^'\"]+)['\"]\s*\]")
_EXACT = re.compile(r"\d+(\.\d+){2,}([a-z]+\d*)?(\.post\d+)?")


class CondaSpec:
    """A parsed match spec: channel, name, version (as conda wrote it), build, and whether it is one release."""

    __slots__ = ("build", "channel", "exact", "name", "version")

    def __init__(self, channel: str, name: str, version: str, build: str, exact: bool) -> None:
        self.channel, self.name, self.version, self.build, self.exact = channel, name, version, build, exact


def parse_spec(text: str) -> CondaSpec | None:
    m = _SPEC.match(text.strip())
    if m is None:
        return None
    rest = m.group("rest").strip()
    bracket = _BRACKET.search(rest)
    version, build = "", ""
    if bracket:
        version = bracket.group(1)
    elif rest.startswith("=") and not rest.startswith("=="):
        version, _, build = rest[1:].strip().partition("=")
    elif rest:
        version, _, build = rest.partition(" ")
    version, build = version.strip(), build.strip()
    bare = version.removeprefix("==")
    exact = bool(_EXACT.fullmatch(bare)) and (version.startswith("==") or not re.search(r"[<>!*,|]", version))
    return CondaSpec(m.group("channel") or "", m.group("name"), bare if exact else version, build, exact)


def conda_dep(spec: CondaSpec, where: str, text: str, *, locked: bool = False, direct: bool = True) -> Dep:
    return Dep(
        name=canonical(spec.name, "conda"),
        where=where,
        manager="conda",
        text=text,
        version=spec.version if spec.exact else "",
        build=spec.build,
        channel=spec.channel if "://" in spec.channel else spec.channel.split("/")[0],
        locked=locked,
        direct=direct,
        requirement=_pep508(spec),
    )


def _pep508(spec: CondaSpec) -> str:
    """The spec as a pip requirement, as near as it goes (conda's `=1.2` is `==1.2.*`)."""
    name = spec.name
    version = spec.version
    if not version:
        return name
    if spec.exact:
        return f"{name}=={version}"
    if re.fullmatch(r"[\d.]+\*?", version):
        return f"{name}=={version.rstrip('*').rstrip('.')}.*"
    if re.fullmatch(r"[<>=!~][^|]*", version):
        return f"{name}{version}"
    return name


def read_yaml(path: Path, shown: str) -> Any:
    import yaml

    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise EnvplanError("unreadable", f"cannot read: {exc}", where=shown) from None
    except yaml.YAMLError as exc:
        line = getattr(getattr(exc, "problem_mark", None), "line", None)
        at = f" at line {line + 1}" if line is not None else ""
        raise EnvplanError(
            "bad-yaml", f"not valid YAML{at}", where=shown, hint="fix the file so that conda can read it"
        ) from None


def read_environment(path: Path, shown: str) -> FileFacts:
    data = read_yaml(path, shown)
    if not isinstance(data, dict) or not isinstance(data.get("dependencies"), list):
        raise EnvplanError(
            "bad-environment",
            "not a conda environment file (no `dependencies:` list)",
            where=shown,
            hint="give an environment.yml as `conda env export` writes it",
        )
    deps: list[Dep] = []
    indexes: list[str] = []
    notes: list[str] = []
    python, python_where, default_index = "", "", ""
    for i, item in enumerate(data["dependencies"]):
        where = f"{shown}: dependencies[{i}]"
        if isinstance(item, dict) and isinstance(item.get("pip"), list):
            pip_deps, pip_indexes, default_index, pip_notes = parse_lines(
                [str(x) for x in item["pip"]], f"{shown}: pip", path.parent
            )
            deps += pip_deps
            indexes += pip_indexes
            notes += pip_notes
            continue
        spec = parse_spec(str(item))
        if spec is None:
            notes.append(f"{where}: {item!r} is not a conda package spec: left out")
        elif spec.name == "python":
            python, python_where = _python(spec), where
        else:
            deps.append(conda_dep(spec, where, str(item)))
    return FileFacts(
        path=shown,
        format="environment.yml",
        deps=tuple(deps),
        python=python,
        python_where=python_where,
        indexes=tuple(indexes),
        default_index=default_index,
        channels=tuple(str(c) for c in data.get("channels") or ()),
        name=str(data.get("name") or ""),
        notes=tuple(notes),
    )


def _python(spec: CondaSpec) -> str:
    """`python=3.10`, `python=3.7.13` -> "3.10" / "3.7"; a range such as `python>=3.9` stays a specifier."""
    m = re.fullmatch(r"=?=?(3\.\d+)(\.[\d*]+)*\*?", spec.version)
    if m:
        return m.group(1)
    return spec.version
