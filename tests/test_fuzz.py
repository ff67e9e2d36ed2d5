"""Exit codes as the README says, for hostile input: 0 ok, 1 a failed check, 2 bad input, never 3 (a bug).

Each class of input that once made envplan exit 3 has its own test; two hypothesis properties then fuzz
profiles and command-line arguments through the real `main()` (in-process, so they stay fast)."""

from __future__ import annotations

import contextlib
import io
import string
from pathlib import Path

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envplan.cli import main
from helpers import SEED, edit, pretend_locked

OK_CODES = {0, 1, 2}


def call(*argv: str) -> tuple[int, str]:
    """(exit code, stderr) of `envplan ARGV`, as the console script would give them."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return code, err.getvalue()


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)


def profile_commands(path: Path, work: Path, to: str = "2.1") -> list[list[str]]:
    return [
        ["check", str(path)],
        ["upgrade", str(path), "--to", to, "--no-lock", "--out", str(work / "plan"), "--force"],
        ["matrix", str(path), "--report", str(work / "fleet.html")],
    ]


# --- one test per class that used to exit 3 ------------------------------------------------------------

NON_ASCII_DIGITS = [
    ('glibc = "2.31"', 'glibc = "\uff12.31"'),  # fullwidth
    ('glibc = "2.31"', 'glibc = "\u0662.\u0663\u0661"'),  # Arabic-Indic
    ('driver = "535.104.05"', 'driver = "\u0665\u0663\u0665.104.05"'),
    ('torch = "2.0.1"', 'torch = "\u0662.0.1"'),
    ('version = "3.10"', 'version = "3.\u0661\u0660"'),
    ('variant = "cu118"', 'variant = "cu\u0661\u0661\u0668"'),
    ('cuda-toolkit = "11.8"', 'cuda-toolkit = "\uff11\uff11.8"'),
    ('version = "1.0.0"', 'version = "\u0661.0.0"'),
    ('gpus = ["A100"]', 'gpus = ["A100"]\ncompute-capability = ["\u0668.\u0660"]'),
]
HUGE = "1" * 4301
HUGE_NUMBERS = [
    ('torch = "2.0.1"', f'torch = "2.0.{HUGE}"'),
    ('glibc = "2.31"', f'glibc = "2.{HUGE}"'),
    ('cuda-toolkit = "11.8"', f'cuda-toolkit = "11.{HUGE}"'),
    ('version = "1.0.0"', f'version = "1.0.{HUGE}"'),
    ('variant = "cu118"', f'variant = "rocm6.{HUGE}"'),
    ('packages = ["numpy<2"]', f'packages = ["numpy<2.{HUGE}"]'),
]


@pytest.mark.parametrize(("old", "new"), NON_ASCII_DIGITS + HUGE_NUMBERS)
def test_non_ascii_digits_and_huge_numbers_are_bad_input(tmp_path: Path, old: str, new: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(edit(SEED, old, new), encoding="utf-8")
    for argv in profile_commands(path, tmp_path):
        code, err = call(*argv)
        assert code in OK_CODES, (argv[0], err)
        assert "internal error" not in err
    if "packages" not in old:  # a requirement `numpy<2.111\u2026` is valid PEP 508: the resolver will answer it
        assert call("check", str(path))[0] == 2


@pytest.mark.parametrize(
    "junk",
    ["junk = " + "[" * 3000 + "]" * 3000, "junk = " + "{a = " * 3000 + "1" + "}" * 3000, "[" + "a." * 3000 + "a]"],
)
def test_deeply_nested_toml_is_bad_input(tmp_path: Path, junk: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(SEED + junk + "\n")
    code, err = call("check", str(path))
    assert code == 2 and err.startswith(f"envplan: error: {path}"), err


def test_a_nul_in_the_name_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(edit(SEED, 'name = "a100-train"', 'name = "a\\u0000b"'))
    for argv in profile_commands(path, tmp_path):
        code, err = call(*argv)
        assert code == 2 and "name:" in err, (argv[0], err)


@pytest.mark.parametrize(
    ("argv", "where"),
    [
        (["kb", "show", "abc"], "kb show"),
        (["kb", "show", f"1.{HUGE}"], "kb show"),
        (["kb", "update", "--offline", "--since", "abc"], "--since"),
        (["kb", "update", "--offline", "--pytorch-index", "abc"], "--pytorch-index"),
        (["kb", "update", "--offline", "--pypi", "ftp://x/simple"], "--pypi"),
        (["matrix", "--torch", f"1.{HUGE}"], "--torch"),
        (["upgrade", "--to", f"2.{HUGE}"], "--to"),
        (["upgrade", "--to", "\u0662.\u0661"], "--to"),
        (["upgrade", "--to", "2.1", "--python-version", "3.\u0661\u0660"], "--python-version"),
        (["upgrade", "--to", "2.1", "--variant", "cu\u0661\u0661\u0668"], "--variant"),
    ],
)
def test_bad_arguments_are_exit_2_naming_the_argument(tmp_path: Path, argv: list[str], where: str) -> None:
    (tmp_path / "envplan.toml").write_text(SEED)
    code, err = call(*argv)
    assert code == 2 and err.startswith(f"envplan: error: {where}:"), err


# --- hypothesis: profiles --------------------------------------------------------------------------------

NASTY = [
    "\uff12.31",
    "\u0663.\u0661\u0660",
    "3.10",
    "2.1.2",
    "cu118",
    "cu\u0661\u0662\u0661",
    "rocm6.2",
    "1" * 4400,
    "a\0b",
    "x\ny",
    "..",
]
nasty_text = st.one_of(
    st.text(max_size=12),
    st.text(string.digits + ".+-ab", max_size=12),
    st.sampled_from(NASTY),
    st.integers(-(10**30), 10**30).map(str),
)
nested = st.recursive(nasty_text, lambda inner: st.lists(inner, max_size=3), max_leaves=8)
KEYS = {
    "": ["schema", "name"],
    "machine": ["os", "arch", "glibc", "gpus", "compute-capability", "driver", "cuda-toolkit"],
    "python": ["version"],
    "stack": ["torch", "variant", "torchvision", "torchaudio", "packages"],
    "indexes": ["pypi", "pytorch", "conda"],
}
SLOTS = [(table, key) for table, keys in KEYS.items() for key in keys]


@st.composite
def mutated_profiles(draw: st.DrawFn) -> str:
    """The seed profile with a few values replaced by nasty ones (strings, lists, numbers, tables)."""
    doc = tomlkit.parse(SEED)
    for table, key in draw(st.lists(st.sampled_from(SLOTS), min_size=1, max_size=4)):
        value = draw(st.one_of(nested, st.integers(), st.booleans(), st.dictionaries(st.just("x"), nasty_text)))
        target = doc if not table else doc.setdefault(table, tomlkit.table())
        if isinstance(target, dict):
            target[key] = value
    return tomlkit.dumps(doc)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=mutated_profiles(), to=st.sampled_from(["2.1", "latest", "2.5.1", "1.13"]))
def test_fuzzed_profiles_never_exit_3(tmp_path: Path, text: str, to: str) -> None:
    path = tmp_path / "fuzz.toml"
    path.write_text(text, encoding="utf-8")
    for argv in profile_commands(path, tmp_path, to):
        code, err = call(*argv)
        assert code in OK_CODES, (argv, err)
        assert "Traceback" not in err


# --- hypothesis: command-line arguments -----------------------------------------------------------------

ARGUMENT_WORDS = [
    "2.1",
    "2.1.2",
    "latest",
    "abc",
    "\u0662.\u0661",
    "1" * 4400,
    "cu118",
    "cpu",
    "3.11",
    "00-baseline",
    "-",
]
word = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0/"), max_size=10),
    st.sampled_from(ARGUMENT_WORDS),
)
safe_file = word.filter(lambda w: w not in ("", ".", "..") and not w.startswith("-"))


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    w, f = draw(word), draw(safe_file)
    kind = draw(st.sampled_from(range(9)))
    argvs = [
        ["kb", "show", w],
        ["matrix", "--torch", w],
        ["upgrade", "envplan.toml", "--to", w, "--no-lock", "--out", "plan", "--force"],
        ["upgrade", "envplan.toml", "--to", "2.1", "--variant", w, "--python-version", draw(word), "--no-lock"],
        ["kb", "update", "--offline", "--since", w, "--pytorch-index", draw(word)],
        ["export", "docker", "plan", "--step", w, "-o", f"out/{f}"],
        ["export", "ci", "plan", "--github", "-o", f"out/{f}"],
        ["explain", f],
        ["lock", "envplan.toml", "--check", "--out", f],
    ]
    return argvs[kind]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=command_lines())
def test_fuzzed_arguments_never_exit_3(tmp_path: Path, argv: list[str]) -> None:
    (tmp_path / "envplan.toml").write_text(SEED)
    if not (tmp_path / "plan").exists():
        assert call("upgrade", "--to", "2.1", "--no-lock", "--out", "plan")[0] == 0
        pretend_locked(tmp_path / "plan")  # the exports' own checks, past the lock check
    code, err = call(*argv)
    assert code in OK_CODES, (argv, err)
    assert "Traceback" not in err


def test_the_fuzzers_see_every_exit_code(tmp_path: Path) -> None:
    """The properties above would pass on a main() that always returned 2: show that 0, 1 and 2 all occur."""
    (tmp_path / "envplan.toml").write_text(SEED)
    assert call("check", "envplan.toml")[0] == 0
    (tmp_path / "old.toml").write_text(edit(SEED, "535.104.05", "470.82.01"))
    assert call("upgrade", "old.toml", "--to", "2.8", "--no-lock")[0] == 1
    assert call("kb", "show", "abc")[0] == 2
