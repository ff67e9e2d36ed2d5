"""The rooms of docs/ARCHITECTURE.md and what each may import, read from the source (every import, also those
inside functions), so a seam cannot open unnoticed."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT

PACKAGE = ROOT / "envplan"

# The envplan modules and rooms a room may import (its own room always). Anything not listed is forbidden.
MAY_IMPORT: dict[str, set[str]] = {
    "core": {"kb", "profile", "errors"},
    "profile": {"kb", "errors", "paths", "tomlread"},
    "kb": {"index", "errors", "paths", "fastio", "tomlread", "write", "__version__"},
    "index": {"errors", "paths"},
}
# The outer rooms may import each other, never the CLI; resolvers never reach into the live machine.
MAY_NOT_IMPORT: dict[str, set[str]] = {
    "resolve": {"cli", "live"},
    "render": {"cli"},
    "export": {"cli"},
    "live": {"cli"},
    "verify": {"cli"},
    "importers": {"cli"},
}
# No I/O in the pure core: the planner must run where files, processes and sockets are forbidden.
IO_MODULES = {"subprocess", "socket", "urllib", "http", "shutil", "tempfile", "os", "io", "rich", "multiprocessing"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, absolute, with its line; `from envplan import x` counts as envplan.x."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "envplan":
                found += [(node.lineno, f"envplan.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, node.module))
    return found


def _room(module: str) -> str:
    return module.split(".")[1] if module.count(".") >= 1 else ""


def _files(room: str) -> list[Path]:
    where = PACKAGE / room
    return sorted(where.rglob("*.py")) if where.is_dir() else [where.with_suffix(".py")]


def _violations(room: str) -> list[str]:
    bad = []
    for path in _files(room):
        for line, module in _imports(path):
            forbidden_room = module.startswith("envplan.") and not _may(room, _room(module))
            io_in_core = room == "core" and module.split(".")[0] in IO_MODULES
            if forbidden_room or io_in_core:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return bad


def _may(room: str, target: str) -> bool:
    if room in MAY_IMPORT:
        return target in MAY_IMPORT[room] | {room}
    return target not in MAY_NOT_IMPORT[room]


@pytest.mark.parametrize("room", sorted(MAY_IMPORT | MAY_NOT_IMPORT))
def test_room_imports_only_what_it_may(room: str) -> None:
    assert _violations(room) == []


def test_every_room_is_a_package_with_a_docstring() -> None:
    """A room says what it is for in its __init__; the four rooms with rules exist (the table cannot rot)."""
    for room in MAY_IMPORT:
        init = PACKAGE / room / "__init__.py"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), f"{init} has no docstring"


def test_the_in_environment_verifier_stands_alone() -> None:
    """verify/inenv.py is copied into each step's environment as envplan_verify.py, where envplan is not installed."""
    bad = [m for _, m in _imports(PACKAGE / "verify" / "inenv.py") if m == "envplan" or m.startswith("envplan.")]
    assert bad == []


def test_only_the_entry_point_imports_the_cli() -> None:
    users = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in PACKAGE.rglob("*.py")
        if not _module_name(path).startswith("envplan.cli") and path.name != "__main__.py"
        for line, module in _imports(path)
        if module == "envplan.cli" or module.startswith("envplan.cli.")
    ]
    assert users == []


def test_no_module_is_named_after_another_room() -> None:
    """`verify.py`, `verifyrun.py` and `resolve/verify.py` were three things with one name: a module inside a room
    never takes the name of a room."""
    rooms = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    clashes = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.parent != PACKAGE and path.stem in rooms
    ]
    assert clashes == []


def test_the_rule_catches_a_forbidden_import(tmp_path: Path) -> None:
    """The checker itself: a core module that runs a process, or imports a resolver, is reported."""
    bad = tmp_path / "envplan" / "core" / "x.py"
    bad.parent.mkdir(parents=True)
    bad.write_text("def f():\n    import subprocess\n    from envplan.resolve import uv\n", encoding="utf-8")
    found = [m for _, m in _imports(bad)]
    assert found == ["subprocess", "envplan.resolve"]
    assert "subprocess" in IO_MODULES and _room("envplan.resolve") not in MAY_IMPORT["core"]


def test_importing_the_core_loads_no_io_room() -> None:
    """At run time too: importing every core module pulls in no resolver, renderer, live probe or CLI."""
    modules = sorted(_module_name(p) for p in _files("core"))
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "rooms = {'resolve', 'render', 'export', 'live', 'verify', 'cli', 'index', 'write'}\n"
        "print(sorted(m for m in sys.modules if m.startswith('envplan.') and m.split('.')[1] in rooms))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


def _rebound(source: str) -> list[str]:
    """Module-level names a source binds more than once (an assignment, a def or a class)."""
    seen: dict[str, int] = {}
    for node in ast.parse(source).body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
        for name in names:
            seen[name] = seen.get(name, 0) + 1
    return [name for name, count in seen.items() if count > 1]


def test_no_module_binds_a_name_twice() -> None:
    """A second `_INSTALLING = ...` further down packages.py silently replaced the first for every function that read
    it (added in round BK, found in review): a module-level name is bound once."""
    bad = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for name in _rebound(path.read_text(encoding="utf-8"))
    ]
    assert bad == []


def test_the_rebinding_check_catches_one() -> None:
    source = "import re\nA = re.compile('a')\n\n\ndef f():\n    return A\n\n\nA = re.compile('b')\nB = 1\n"
    assert _rebound(source) == ["A"]


# The one kind whose severity depends on the step: a toolkit still to be installed in a later step is a warning.
STEP_DEPENDENT_SEVERITY = {"toolkit-mismatch", "toolkit-arch"}


def _finding_kinds() -> dict[str, set[str]]:
    """Every Finding(ref="...", severity=...) in the source: ref -> the severities it is given ("?" = computed)."""
    kinds: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Finding"):
                continue
            kw = {k.arg: k.value for k in node.keywords}
            ref, severity = kw.get("ref"), kw.get("severity")
            if isinstance(ref, ast.Constant) and isinstance(ref.value, str):
                value = severity.value if isinstance(severity, ast.Constant) else "?"
                kinds.setdefault(ref.value, set()).add(str(value))
    return kinds


def test_one_severity_per_finding_kind() -> None:
    """`cpu-build-on-gpu` was a warning in check and an error in doctor: a kind of finding is as bad everywhere."""
    kinds = _finding_kinds()
    assert len(kinds) > 30  # the scan sees the findings (it would pass vacuously on none)
    mixed = {ref: sorted(s) for ref, s in kinds.items() if len(s) > 1 or "?" in s}
    assert {ref: s for ref, s in mixed.items() if ref not in STEP_DEPENDENT_SEVERITY} == {}
    assert set(mixed) <= STEP_DEPENDENT_SEVERITY
