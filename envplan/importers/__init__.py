"""Read a project's own files (requirements.txt, pyproject.toml, uv.lock, pylock.toml, environment.yml,
conda-lock.yml) into a profile draft: `envplan init --from FILE...`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from envplan.errors import EnvplanError
from envplan.importers.condaenv import read_environment
from envplan.importers.condalock import read_conda_lock
from envplan.importers.locks import read_pylock, read_uv_lock
from envplan.importers.model import Dep, FileFacts
from envplan.importers.packages import companion, extensions, indexes, other_packages
from envplan.importers.pyproject import read_pyproject
from envplan.importers.requirements import read_requirements
from envplan.importers.stack import (
    ImportOptions,
    known_release,
    marker_env,
    pick_python,
    pick_torch,
    pick_variant,
    visible,
)
from envplan.kb import KB
from envplan.live.init import MachineDraft, ProfileDraft, profile_name

__all__ = ["FORMATS", "ImportOptions", "detect_format", "draft_from_files", "read_file"]

Reader = Callable[[Path, str], FileFacts]
FORMATS: dict[str, Reader] = {
    "requirements.txt": read_requirements,
    "pyproject.toml": read_pyproject,
    "uv.lock": read_uv_lock,
    "pylock.toml": read_pylock,
    "environment.yml": read_environment,
    "conda-lock.yml": read_conda_lock,
}


def detect_format(path: Path) -> str:
    """The format of a file, by its name first, then by a look inside YAML and TOML files."""
    name = path.name.lower()
    if name == "pyproject.toml":
        return "pyproject.toml"
    if name == "uv.lock":
        return "uv.lock"
    if name == "pylock.toml" or (name.startswith("pylock.") and name.endswith(".toml")):
        return "pylock.toml"
    if name.endswith((".txt", ".in")) or name.startswith("requirements"):
        return "requirements.txt"
    if name.endswith((".yml", ".yaml")):
        return "conda-lock.yml" if "conda-lock" in name or _looks_like_conda_lock(path) else "environment.yml"
    raise EnvplanError(
        "unknown-format",
        "not a format envplan reads",
        where=str(path),
        hint="give requirements*.txt, pyproject.toml, uv.lock, pylock.toml, environment.yml or conda-lock.yml "
        "(rename the file if it is one of these)",
    )


def _looks_like_conda_lock(path: Path) -> bool:
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:4000]
    except OSError:
        return False
    return "\npackage:" in head and "manager:" in head


def read_file(path: Path) -> FileFacts:
    shown = str(path)
    if not path.is_file():
        raise EnvplanError(
            "not-found" if not path.exists() else "unreadable",
            "no such file" if not path.exists() else "not a file",
            where=shown,
            hint="give the project's requirements.txt, pyproject.toml, uv.lock, pylock.toml, environment.yml or "
            "conda-lock.yml",
        )
    return FORMATS[detect_format(path)](path, shown)


def draft_from_files(paths: list[Path], kb: KB, opts: ImportOptions, machine: MachineDraft) -> ProfileDraft:
    """Read every file and decide the stack; raises EnvplanError (exit 2) on what the files leave open."""
    facts = [read_file(p) for p in paths]
    by_path = {f.path: f for f in facts}
    first_python = pick_python(facts, None, opts.fallback_python).value
    env = marker_env(first_python, opts)
    deps = [d for f in facts for d in f.deps if visible(d, env)]
    torches = [d for d in deps if d.name == "torch"]
    torch = pick_torch(torches, [f.path for f in facts], opts)
    release = known_release(kb, torch.value)
    variant = pick_variant(torches, by_path, release, (torch.value, opts))
    python = pick_python(facts, release, opts.fallback_python)
    others = other_packages(deps, kb)
    index_table, index_notes = indexes(facts, variant.detail)
    exts = extensions(deps, kb)
    return ProfileDraft(
        header=_header(facts),
        name=profile_name(next((f.name for f in facts if f.name), "") or _dir_name(paths[0])),
        machine=machine,
        python=python.value,
        torch=torch.value,
        variant=variant.value,
        torchvision=companion(deps, "torchvision", variant.value),
        torchaudio=companion(deps, "torchaudio", variant.value),
        packages=others.packages,
        extensions=tuple((name, version) for name, version, _ in exts),
        indexes=index_table,
        comments=_comments(torch.why, variant.why, python.why, exts, deps),
        notes=tuple(_notes(facts, list(others.notes) + index_notes, release, torch.value)),
    )


def _dir_name(path: Path) -> str:
    return path.resolve().parent.name


def _header(facts: list[FileFacts]) -> tuple[str, ...]:
    names = ", ".join(f"{f.path} ({f.format})" for f in facts)
    return (
        f"Written by `envplan init --from` from {names}.",
        "Check it with `envplan check`, then plan an upgrade with `envplan upgrade --to X.Y`. Format: docs/profile.md.",
    )


def _comments(
    torch_why: str, variant_why: str, python_why: str, exts: list[tuple[str, str, str]], deps: list[Dep]
) -> dict[str, str]:
    comments = {"stack.torch": f"from {torch_why}", "stack.variant": variant_why, "python.version": python_why}
    for name in ("torchvision", "torchaudio"):
        where = next((d.where for d in deps if d.name == name), "")
        if where:
            comments[f"stack.{name}"] = f"from {where}"
    comments["stack.packages"] = "the project's other requirements"
    for name, _, where in exts:
        comments[f"extensions.{name}"] = f"from {where}"
    return comments


def _notes(facts: list[FileFacts], extra: list[str], release: object, torch: str) -> list[str]:
    notes = [n for f in facts for n in f.notes] + extra
    if release is None:
        notes.append(f"torch {torch} is not in envplan's knowledge base: `envplan check` will say what it cannot check")
    return [f"note: {n}" for n in notes]
