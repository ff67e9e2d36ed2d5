"""Property tests: random profiles never break the loader or the checker; every plan is KB-consistent."""

from __future__ import annotations

import string
from dataclasses import replace

import tomlkit
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from envplan.core.check import check_profile, context_of
from envplan.core.compat import assess_variant
from envplan.core.planner import plan_upgrade
from envplan.errors import EnvplanError
from envplan.kb import load_kb
from envplan.profile.model import Profile, parse_profile

scalars = st.one_of(
    st.text(string.printable, max_size=12),
    st.integers(-5, 600),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.sampled_from(
        [
            "2.0.1",
            "2.1.2",
            "2.13.0",
            "cu118",
            "cu121",
            "cpu",
            "auto",
            "rocm6.0",
            "3.10",
            "3.13t",
            "535.104.05",
            "A100",
            "RTX 5090",
            "8.0",
            "12.0",
            "linux",
            "macos",
            "windows",
            "aarch64",
            "numpy<2",
            "2.31",
            "11.8",
            "0.15.2",
            "2.0.2",
            "https://x/simple",
            "file:///tmp/i",
        ]
    ),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3), max_leaves=6)

machine = st.fixed_dictionaries(
    {},
    optional={
        "os": st.sampled_from(["linux", "macos", "windows", "beos"]),
        "arch": st.sampled_from(["x86_64", "aarch64", "mips"]),
        "glibc": st.sampled_from(["2.17", "2.27", "2.31", "2.39", "x"]),
        "gpus": st.lists(st.sampled_from(["A100", "H100", "RTX 5090", "GTX 1080 Ti", "T4", "Mystery"]), max_size=2),
        "compute-capability": st.lists(st.sampled_from(["3.7", "6.1", "8.0", "9.0", "12.0", "x"]), max_size=2),
        "driver": st.sampled_from(["418.87.01", "470.82.01", "535.104.05", "570.124.06", "580.65.06"]),
        "cuda-toolkit": st.sampled_from(["11.8", "12.1", "12.8", "13.0"]),
    },
)
stack = st.fixed_dictionaries(
    {},
    optional={
        "torch": st.sampled_from(["1.12.1", "2.0.0", "2.0.1", "2.1.2", "2.5.1", "2.7.1", "2.13.0", "2.14.1", "9.9.9"]),
        "variant": st.sampled_from(["auto", "cpu", "cu117", "cu118", "cu121", "cu128", "cu130", "rocm6.0", "cu999"]),
        "torchvision": st.sampled_from(["auto", "0.15.2", "0.16.2", "0.28.0", "1.0"]),
        "torchaudio": st.sampled_from(["auto", "2.0.2", "2.11.0"]),
        "packages": st.lists(st.sampled_from(["numpy<2", "einops", "torch", "bad req!"]), max_size=2),
    },
)
profiles = st.fixed_dictionaries(
    {"schema": st.sampled_from([1, 1, 1, 2]), "name": st.sampled_from(["p", ""])},
    optional={
        "machine": machine,
        "python": st.fixed_dictionaries({"version": st.sampled_from(["3.8", "3.10", "3.11", "3.12", "3.13t", "4"])}),
        "stack": stack,
        "extensions": st.lists(
            st.fixed_dictionaries({"name": st.just("causal-conv1d")}, optional={"version": st.just("1.0.0")}),
            max_size=1,
        ),
        "junk": values,
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profiles)
def test_structured_random_profiles_load_or_fail_cleanly(kb, data: dict) -> None:
    text = tomlkit.dumps(data)
    try:
        profile = parse_profile(text, "random.toml")
    except EnvplanError as exc:
        assert exc.exit_code == 2
        assert exc.lines() and all(line.startswith("random.toml") for line in exc.lines())
        return
    findings = check_profile(profile, kb)
    assert all(f.ref and f.message and f.severity in ("error", "warning", "info") for f in findings)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["schema", "name", "machine", "python", "stack", "extensions", "indexes"]), values, max_size=7
    )
)
def test_arbitrary_values_never_raise_anything_else(data: dict) -> None:
    try:
        parse_profile(tomlkit.dumps(data), "random.toml")
    except EnvplanError as exc:
        assert exc.exit_code == 2


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises_anything_else(text: str) -> None:
    try:
        parse_profile(text, "random.toml")
    except EnvplanError as exc:
        assert exc.exit_code == 2


# --- the planner ---------------------------------------------------------------------------------------

KB_ = load_kb()
GPUS = ["A100", "H100", "RTX 4090", "RTX 5090", "GTX 1080 Ti", "T4", "V100", "Tesla K80"]
DRIVERS = ["470.82.01", "525.60.13", "535.104.05", "550.54.14", "570.124.06", "580.65.06", "595.45.04"]


@st.composite
def kb_profiles(draw) -> tuple[str, str]:
    """A profile whose stack is a real KB release, and a target release."""
    release = draw(st.sampled_from(KB_.releases))
    variant = draw(st.sampled_from([v for v in release.variants if not v.startswith("rocm")]))
    gpus = draw(st.lists(st.sampled_from(GPUS), max_size=2)) if variant != "cpu" else []
    lines = ["schema = 1", 'name = "prop"', "[machine]", f'glibc = "{draw(st.sampled_from(["2.27", "2.31", "2.39"]))}"']
    if gpus:
        lines += [f"gpus = {gpus!r}".replace("'", '"'), f'driver = "{draw(st.sampled_from(DRIVERS))}"']
        if draw(st.booleans()):
            lines.append(f'cuda-toolkit = "{draw(st.sampled_from(["11.8", "12.1", "12.8", "13.0"]))}"')
    lines += [
        "[python]",
        f'version = "{draw(st.sampled_from(release.python_versions))}"',
        "[stack]",
        f'torch = "{release.torch}"',
        f'variant = "{variant}"',
    ]
    for name in ("torchvision", "torchaudio"):
        if draw(st.booleans()):
            lines.append(f'{name} = "auto"')
    if draw(st.booleans()):
        lines.append('packages = ["numpy", "timm"]')
    if gpus and draw(st.booleans()):
        lines += ["[[extensions]]", 'name = "causal-conv1d"']
    target = draw(st.sampled_from(KB_.releases))
    return "\n".join(lines) + "\n", str(target.torch)


def _check_step_consistency(profile: Profile, plan) -> None:
    # a plan may need a CUDA toolkit installed (its extension step says so): that is not an inconsistency
    ctx = replace(context_of(profile, KB_), toolkit_installable=True)
    for i, step in enumerate(plan.steps):
        assert step.name.startswith(f"{i:02d}-")
        if step.kind == "baseline":
            continue
        r = step.release
        assert r.publishes(step.variant)
        by_name = {p.name: p for p in step.pins}
        assert by_name["torch"].version == r.torch
        for name in ("torchvision", "torchaudio"):
            if name in by_name:
                assert by_name[name].version == getattr(r, name), (name, step.name)
        assert len({p.label for p in step.pins}) == 1, "one variant per step"
        if step.kind != "python":
            errors = [f.ref for f in assess_variant(ctx, r, step.variant, KB_) if f.severity == "error"]
            assert errors == [], (step.name, errors)


K80_ON_2_10 = (
    'schema = 1\nname = "prop"\n[machine]\nglibc = "2.31"\ngpus = ["Tesla K80"]\ndriver = "525.60.13"\n'
    '[python]\nversion = "3.10"\n[stack]\ntorch = "2.9.0"\nvariant = "cu126"\n'
)


@settings(max_examples=300, deadline=None)
@given(kb_profiles(), st.booleans())
@example((K80_ON_2_10, "2.10.0"), False)  # found by CI: an unadvertised cu129 with no known list was chosen
def test_every_plan_is_kb_consistent_and_reaches_the_target(drawn: tuple[str, str], via: bool) -> None:
    text, target = drawn
    profile = parse_profile(text, "prop.toml")
    plan = plan_upgrade(profile, KB_.release(target), KB_, via_minors=via)
    if plan.status == "blocked":
        assert plan.blockers and not plan.steps
        assert all(b.ref and b.message and b.fix for b in plan.blockers)
        return
    if plan.status == "current":
        assert profile.stack.torch == KB_.release(target).torch
        assert [s.kind for s in plan.steps] == ["baseline"]
        return
    assert plan.steps[0].kind == "baseline"
    assert plan.steps[-1].release.torch == KB_.release(target).torch
    _check_step_consistency(profile, plan)
