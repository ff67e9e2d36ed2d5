"""A plan step as a uv project: pyproject.toml with the step's pins, the PyTorch index as an explicit
[[tool.uv.index]] that only the torch family may use ([tool.uv.sources]), extensions as URL, index or build
sources, the step's lock as constraint-dependencies, and uv.lock written by uv itself. `uv sync --locked`
then installs exactly the step."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from envplan.errors import EXIT_FAILED, EnvplanError
from envplan.resolve.model import LockedPackage
from envplan.resolve.runner import ToolFailed, clean_env, run_tool

__all__ = ["UvProject", "lock_uv_project", "plan_machine", "render_uv_project", "uv_project"]

_ENVIRONMENTS = {
    ("linux", "x86_64"): "sys_platform == 'linux' and platform_machine == 'x86_64'",
    ("linux", "aarch64"): "sys_platform == 'linux' and platform_machine == 'aarch64'",
    ("macos", "aarch64"): "sys_platform == 'darwin' and platform_machine == 'arm64'",
    ("macos", "x86_64"): "sys_platform == 'darwin' and platform_machine == 'x86_64'",
    ("windows", "x86_64"): "sys_platform == 'win32'",
}
_NAME = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, kw_only=True, slots=True)
class UvProject:
    """What goes into the uv project of one step."""

    name: str
    python: str
    dependencies: tuple[str, ...]
    constraints: tuple[str, ...]  # every locked package at its locked version ("" when the step is not locked)
    sources: dict[str, str]  # package -> inline TOML table
    indexes: tuple[tuple[str, str, str], ...]  # (name, url, extra keys as TOML)
    environment: str
    build: dict[str, Any]  # no-build-isolation, extra-build-dependencies, extra-build-variables
    header: tuple[str, ...]


def uv_project(
    step: dict[str, Any], plan: dict[str, Any], locked: tuple[LockedPackage, ...], machine: tuple[str, str]
) -> UvProject:
    """The uv project of `step` (a plan.json step); `locked` is its requirements.txt, `machine` (os, arch)."""
    pytorch = step["indexes"].get("pytorch") or ""
    pins = dict(step["packages"])
    from_pytorch = sorted({p.name for p in locked if pytorch and p.index.rstrip("/") == pytorch.rstrip("/")})
    sources = dict.fromkeys(sorted(set(from_pytorch) | (set(pins) if pytorch else set())), '{ index = "pytorch" }')
    deps = [f"{n}=={v}" for n, v in pins.items()]
    asked = {canonicalize_name(Requirement(r).name) for r in step.get("requirements", [])}
    deps += [n for n in from_pytorch if n not in pins and n not in asked]  # a source needs a direct dependency
    deps += list(step.get("requirements", []))
    ext_deps, ext_sources, indexes, build = _extensions(step, pytorch)
    indexes = ([("pytorch", pytorch, "explicit = true")] if pytorch else []) + indexes
    if step["indexes"].get("pypi") and step["indexes"]["pypi"].rstrip("/") != "https://pypi.org/simple":
        indexes.append(("pypi", step["indexes"]["pypi"], "default = true"))
    return UvProject(
        name=_NAME.sub("-", f"envplan-{plan.get('profile', 'plan')}-{step['name']}".lower()).strip("-"),
        python=step["python"],
        dependencies=tuple(deps + ext_deps),
        constraints=tuple(f"{p.name}=={p.version}" for p in locked if p.name not in ext_sources),
        sources={**sources, **ext_sources},
        indexes=tuple(indexes),
        environment=_ENVIRONMENTS.get(machine, _ENVIRONMENTS[("linux", "x86_64")]),
        build=build,
        header=_header(step, plan, bool(locked)),
    )


def _header(step: dict[str, Any], plan: dict[str, Any], locked: bool) -> tuple[str, ...]:
    torch = step["packages"].get("torch", "?")
    lines = [
        f"Written by `envplan export uv` from the plan for {plan.get('profile')}, step {step['name']}: "
        f"torch {torch} on Python {step['python']}.",
        "`uv sync --locked` installs exactly this step; uv.lock holds the hash of every file.",
        "The torch family may come from the pytorch index only, and nothing else from there ([tool.uv.sources]).",
    ]
    if not locked:
        lines.append("The step was not locked (upgrade --no-lock): uv chose the versions the pins leave open.")
    return tuple(lines)


def _extensions(
    step: dict[str, Any], pytorch: str
) -> tuple[list[str], dict[str, str], list[tuple[str, str, str]], dict[str, Any]]:
    deps: list[str] = []
    sources: dict[str, str] = {}
    indexes: list[tuple[str, str, str]] = []
    build: dict[str, Any] = {"no-build-isolation": [], "variables": {}}
    for ext in step.get("extensions", []):
        name, method, spec = ext["name"], ext["method"], ext["spec"]
        deps.append(name if method == "wheel-url" else spec)
        if method == "wheel-url" or spec.startswith(("git+", "http")):
            sources[name] = _url_source(spec)
            if method != "wheel-url":
                deps[-1] = name
        elif (
            method == "wheel-index" and ext.get("index") and pytorch and ext["index"].rstrip("/") == pytorch.rstrip("/")
        ):
            sources[name] = '{ index = "pytorch" }'
        elif method == "find-links" and ext.get("index"):
            index = f"{name}-wheels"
            indexes.append((index, ext["index"], 'format = "flat"\nexplicit = true'))
            sources[name] = f'{{ index = "{index}" }}'
        if method == "source" or (method != "wheel-url" and spec.startswith("git+")):
            build["no-build-isolation"].append(name)
            build["variables"][name] = dict(step.get("build-env", {}))
    return deps, sources, indexes, build


def _url_source(spec: str) -> str:
    if spec.startswith("git+"):
        url, _, ref = spec[4:].partition("@")
        return f"{{ git = {json.dumps(url)}" + (f", rev = {json.dumps(ref)}" if ref else "") + " }"
    return f"{{ url = {json.dumps(spec)} }}"


def render_uv_project(p: UvProject) -> dict[str, str]:
    """{file name: text}: pyproject.toml and .python-version."""
    lines = [*(f"# {h}" for h in p.header), "[project]", f"name = {json.dumps(p.name)}", 'version = "0"']
    lines += [f'requires-python = "=={p.python}.*"', "dependencies = ["]
    lines += [f"    {json.dumps(d)}," for d in p.dependencies] + ["]", "", "[tool.uv]", "package = false"]
    lines += [f"environments = [{json.dumps(p.environment)}]"]
    if p.constraints:
        lines += ["# the step's lock: every package at the version envplan locked", "constraint-dependencies = ["]
        lines += [f"    {json.dumps(c)}," for c in p.constraints] + ["]"]
    if p.build["no-build-isolation"]:
        lines += _build_tables(p.build)
    for name, url, extra in p.indexes:
        lines += ["", "[[tool.uv.index]]", f"name = {json.dumps(name)}", f"url = {json.dumps(url)}", extra]
    if p.sources:
        lines += ["", "[tool.uv.sources]"] + [f"{_key(n)} = {s}" for n, s in p.sources.items()]
    return {"pyproject.toml": "\n".join(lines) + "\n", ".python-version": p.python + "\n"}


def _build_tables(build: dict[str, Any]) -> list[str]:
    """Source-built extensions: built against the torch the environment installs (match-runtime)."""
    names = build["no-build-isolation"]
    lines = ["", "[tool.uv.extra-build-dependencies]"]
    lines += [f'{_key(n)} = [{{ requirement = "torch", match-runtime = true }}]' for n in names]
    variables = {n: v for n, v in build["variables"].items() if v}
    if variables:
        lines += ["", "[tool.uv.extra-build-variables]"]
        for name, env in variables.items():
            lines.append(f"{_key(name)} = {{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in env.items()) + " }")
    return lines


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name)


def lock_uv_project(folder: Path, uv: str, *, where: str) -> str:
    """`uv lock` in the project folder; returns uv.lock's text.

    The project's own [tool.uv] settings must apply (--no-config would drop its indexes), the user's must not:
    no UV_* variables, and a configuration home with no uv.toml in it."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="envplan-uv-config-") as home:
        env = clean_env({"XDG_CONFIG_HOME": home})
        try:
            run_tool([uv, "lock", "--quiet"], cwd=folder, env=env, where=where, timeout=1800)
        except ToolFailed as exc:
            raise _lock_failed(exc, folder) from None
    return (folder / "uv.lock").read_text(encoding="utf-8")


def _lock_failed(exc: ToolFailed, folder: Path) -> EnvplanError:
    tail = " ".join(exc.output.split()[-60:])
    return EnvplanError(
        "uv-lock-failed",
        f"uv could not lock the project: {tail}",
        where=str(folder),
        hint="check that the indexes in pyproject.toml answer, then run `uv lock` there",
        exit_code=EXIT_FAILED,
    )


def plan_machine(root: Path) -> tuple[str, str]:
    """(os, arch) of the plan's machine, from target-profile.toml (linux x86_64 when it does not say)."""
    from envplan import tomlread

    try:
        machine = tomlread.loads((root / "target-profile.toml").read_text(encoding="utf-8")).get("machine", {})
    except (OSError, ValueError):
        machine = {}
    return str(machine.get("os", "linux")), str(machine.get("arch", "x86_64"))
