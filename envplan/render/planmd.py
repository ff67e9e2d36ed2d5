"""PLAN.md: what each step changes, why, what to read and what to test, for a person reading it alone."""

from __future__ import annotations

from envplan.core.plan import LockState, Plan, Step
from envplan.kb.model import Release
from envplan.kb.variants import parse_variant
from envplan.quoting import shell_join, shell_word

__all__ = ["render_plan_md"]

_TESTS = {
    "baseline": ["your project's test suite, as today: the reference every later step is compared with"],
    "python": ["your project's test suite under the new Python", "`python -c 'import torch'` and the versions"],
    "torch": [
        "`torch.__version__` is {torch} and `torch.version.cuda` is {cuda}",
        "a small matmul on every GPU; `torch.cuda.get_arch_list()` covers each GPU ({archs})",
        "the parts of your project that use torch alone",
    ],
    "companions": [
        '`torchvision.ops.nms` on a tiny input (catches "operator torchvision::nms does not exist")',
        "a torchaudio functional op, if torchaudio is installed",
        "your data pipelines and models",
    ],
    "extensions": [
        "import each extension and call it on a small input (e.g. `causal_conv1d_fn` on a (1, 3, 100) "
        "tensor returns shape (1, 3, 100))",
        "your full test suite: this is the target environment",
    ],
    "packages": ["your full test suite"],
}


_HOW = {
    "source": "built from source by `build.sh`",
    "wheel-url": "a prebuilt wheel, installed by `build.sh`",
    "wheel-index": "a prebuilt wheel from the index, installed by `build.sh`",
    "find-links": "a prebuilt wheel from its find-links page, installed by `build.sh`",
}


def _title(plan: Plan, src: str, dst: str) -> str:
    if plan.status == "current":
        return f"# Locked stack of {plan.profile_name}: torch {src} (already at target)"
    kind = "Downgrade" if plan.target.torch < plan.source.torch else "Upgrade"
    return f"# {kind} plan for {plan.profile_name}: torch {src} -> {dst}"


_INDEX_NAMES = {"pytorch": "the PyTorch index", "pypi": "PyPI"}
_ORDER = {
    "python": "the new Python",
    "torch": "torch",
    "companions": "its companions",
    "extensions": "the compiled extensions",
}


def _summary(plan: Plan) -> str:
    if plan.status == "current":
        return (
            "The profile's stack already is the target, so the plan is one step: today's environment with exact "
            "pins, to install from its folder and verify."
        )
    moves = [text for kind, text in _ORDER.items() if any(s.kind == kind for s in plan.steps)]
    order = (
        f" {moves[0][0].upper()}{moves[0][1:]} moves first, then {', then '.join(moves[1:])}, so a failure "
        "points at exactly one change."
        if len(moves) > 1
        else ""
    )
    return (
        f"{len(plan.steps)} steps. Each step is a complete environment with exact pins: install it from its "
        "folder, run the tests listed for it, and move on only when they pass." + order
    )


def _pythons(plan: Plan) -> str:
    return " and ".join(dict.fromkeys(f"Python {s.python}" for s in plan.steps))


def _how_to_run(plan: Plan, lock: LockState) -> list[str]:
    first = plan.steps[0].python
    out = [
        "## Where to run it",
        "",
        "Run every command below inside this plan folder (`cd` here first: the paths are relative to it), each "
        f"step in a fresh virtual environment of the step's Python ({_pythons(plan)}; e.g. "
        f"`uv venv --python {first}`, or `python{first.removesuffix('t')} -m venv .venv`, then activate it).",
        "",
    ]
    needs = f"it needs {_pythons(plan)} on this machine"
    if lock.locked:
        out.append(
            f"`envplan verify .` does it all for you ({needs}): each step in its own fresh environment, installed "
            "from its lock, built, and checked against its `expect.json`; it stops at the first step that fails."
        )
    else:
        out.append(
            "Once the plan is locked (below), `envplan verify .` does it all for you "
            f"({needs}): each step in its own fresh environment, installed from its lock and checked."
        )
    return out


def _not_locked(lock: LockState) -> list[str]:
    options = [f"backend {lock.backend}"] + ([f"conda ({lock.conda})"] if lock.conda else [])
    return [
        "## Not locked",
        "",
        "This plan was written with `--no-lock`: its steps have no lock files yet (no `requirements.txt` with "
        "hashes, no `pylock.toml`), so there is nothing to install with `--require-hashes`, and `envplan verify` "
        "and `envplan export` refuse its steps until it is locked.",
        "",
        "Lock it later with `envplan lock .` here (from elsewhere: `envplan lock PLAN_DIR`): every step is locked "
        f"with the options the plan was written with ({', '.join(options)}), and this file, plan.json and each "
        "step's ENVIRONMENT.md then say so.",
    ]


def render_plan_md(plan: Plan, lock: LockState | None = None) -> str:
    """PLAN.md; `lock` says whether the steps are locked (a plan is not locked when it is not given)."""
    lock = lock or LockState()
    src = f"{plan.source.torch}+{plan.source_variant}"
    final = plan.final
    dst = f"{final.release.torch}+{final.variant}" if final else str(plan.target.torch)
    out = [_title(plan, src, dst), "", _summary(plan), ""]
    out += _table(plan.steps)
    if plan.steps:
        out += ["", *_how_to_run(plan, lock)]
        if not lock.locked:
            out += ["", *_not_locked(lock)]
    if plan.warnings:
        out += ["", "## Warnings", "", *[f"- {w}" for w in plan.warnings]]
    archs = ", ".join(plan.gpus) or "no GPU in the profile"
    for step in plan.steps:
        out += ["", *_step_section(step, archs, lock.locked)]
    notes = _release_notes(plan)
    if notes:
        out += ["", "## Release notes to read", "", *notes]
    return "\n".join(out) + "\n"


def _table(steps: tuple[Step, ...]) -> list[str]:
    rows = [
        "| step | torch | torchvision | torchaudio | variant | python | extensions |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in steps:
        pk = s.packages
        exts = ", ".join(e.name for e in s.extensions) or "-"
        rows.append(
            f"| {s.name} | {pk.get('torch', '-')} | {pk.get('torchvision', '-')} | "
            f"{pk.get('torchaudio', '-')} | {s.variant} | {s.python} | {exts} |"
        )
    return rows


def _step_section(step: Step, archs: str, locked: bool) -> list[str]:
    out = [f"## {step.name} ({step.kind})", ""]
    if step.reasons:
        out += ["Why:", "", *[f"- {r}" for r in step.reasons], ""]
    out += ["Installs:", ""]
    out += [f"- `{p.requirement}` from {_INDEX_NAMES[p.index]}" for p in step.pins]
    out += [f"- `{r}` from PyPI" for r in step.requirements]
    out += ["", *(_install(step) if locked else _install_unlocked(step))]
    for ext in step.extensions:
        out += ["", f"`{ext.name}`" + (f" {ext.version}" if ext.version else "") + f": {_HOW[ext.method]}"]
        details = [f"- {r}" for r in ext.reasons]
        if ext.method != "source":
            details += [f"- installs `{ext.spec}`" + (f" from {ext.index}" if ext.index else "")]
        if details:
            out += ["", *details]
        if ext.build_env:
            out += [
                "",
                "```sh",
                *[f"export {k}={shell_word(v)}" for k, v in ext.build_env.items()],
                shell_join(["pip", "install", "--no-build-isolation", "--no-deps", "--no-cache-dir", "-v", ext.spec]),
                "```",
            ]
        if not ext.toolkit_ok:
            out += ["", f"**Needs CUDA toolkit {ext.toolkit}** before this step can build."]
        if ext.warning:
            out += ["", f"**Warning:** {ext.warning}"]
    v = parse_variant(step.variant)
    cuda = f"'{v.cuda}'" if v is not None and v.cuda is not None else "None"
    tests = [t.format(torch=step.packages.get("torch", ""), cuda=cuda, archs=archs) for t in _TESTS[step.kind]]
    out += ["", "What to test:", "", *[f"- {t}" for t in tests]]
    return out


def _install(step: Step) -> list[str]:
    extra = ["--extra-index-url", step.pytorch_index] if step.pytorch_index else []
    install = ["pip", "install", "--require-hashes", "--no-deps", "--index-url", step.pypi_index, *extra]
    out = [
        "Install it (in a fresh environment, from this folder; every pin carries its hash, so no index can "
        "substitute a file):",
        "",
        "```sh",
        shell_join([*install, "-r", f"{step.name}/requirements.txt"]),
    ]
    if step.extensions:
        out.append("PYTHON=python " + shell_join(["bash", f"{step.name}/build.sh"]))
    return [*out, "```"]


def _install_unlocked(step: Step) -> list[str]:
    then = f", then `{step.name}/build.sh` builds its extensions" if step.extensions else ""
    return [
        f"Not locked yet: `envplan lock .` writes `{step.name}/requirements.txt` (every pin with its hash), and "
        f"this section then shows the command that installs it{then}. What the step asks for is in "
        f"`{step.name}/requirements.in`."
    ]


def _release_notes(plan: Plan) -> list[str]:
    crossed: dict[str, Release] = {}
    for step in plan.steps[1:]:
        if step.release.torch != plan.source.torch:
            crossed[str(step.release.torch)] = step.release
    if not crossed:
        return []
    out = []
    for r in crossed.values():
        out.append(f"- torch {r.torch}: https://github.com/pytorch/pytorch/releases/tag/v{r.torch}")
        out.append(f"- torchvision {r.torchvision}: https://github.com/pytorch/vision/releases/tag/v{r.torchvision}")
        out.append(f"- torchaudio {r.torchaudio}: https://github.com/pytorch/audio/releases/tag/v{r.torchaudio}")
    return out
