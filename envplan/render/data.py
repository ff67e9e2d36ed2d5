"""The --json documents (each with a `schema` field)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envplan.core.findings import Finding
from envplan.core.plan import LockState, Plan, Step
from envplan.kb.model import Release
from envplan.kb.variants import parse_variant

if TYPE_CHECKING:
    from envplan.live.abicheck import ExtReport

__all__ = [
    "SCHEMA",
    "abi_row",
    "check_document",
    "lock_row",
    "matrix_document",
    "plan_document",
    "release_row",
    "split_variants",
]

SCHEMA = 1


def split_variants(release: Release) -> tuple[list[str], list[str]]:
    """(cpu + CUDA variants, cpu first then by CUDA version; ROCm variants)."""
    parsed = [p for p in (parse_variant(v) for v in release.variants) if p is not None]
    nv = sorted((p for p in parsed if p.kind != "rocm"), key=lambda p: (p.kind != "cpu", p.version or 0))
    return [p.name for p in nv], [p.name for p in parsed if p.kind == "rocm"]


def release_row(r: Release) -> dict[str, Any]:
    variants, rocm = split_variants(r)
    return {
        "torch": str(r.torch),
        "torchvision": str(r.torchvision),
        "torchaudio": str(r.torchaudio),
        "python": list(r.python_versions),
        "python-experimental": list(r.python_experimental),
        "variants": variants,
        "rocm": rocm,
        "unadvertised-variants": list(r.unadvertised_variants),
        "pypi-default": r.pypi_default,
        "cxx11-abi": r.cxx11_abi,
        "cxx11-abi-by-variant": dict(r.cxx11_abi_by_variant),
        "glibc": str(r.glibc),
        "glibc-by-variant": {k: str(v) for k, v in r.glibc_by_variant.items()},
        "conda-pytorch-channel": r.conda_pytorch_channel,
        "cpp-standard": r.cpp_standard,
        "release-md": {
            "cuda-stable": list(r.release_md_cuda_stable),
            "cuda-experimental": list(r.release_md_cuda_experimental),
            "rocm": r.release_md_rocm,
        },
        "verified": r.verified,
        "learned": r.source.startswith("learned by envplan kb update"),
        "unverified-fields": list(r.unverified_fields),
        "source": r.source,
    }


def matrix_document(releases: tuple[Release, ...] | list[Release]) -> dict[str, Any]:
    return {"schema": SCHEMA, "releases": [release_row(r) for r in releases]}


def check_document(results: list[tuple[str, list[Finding]]]) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "profiles": [
            {
                "path": path,
                "ok": not any(f.severity == "error" for f in findings),
                "findings": [f.to_dict() for f in findings],
            }
            for path, findings in results
        ],
    }


def _step_row(step: Step, locked: bool) -> dict[str, Any]:
    return {
        "name": step.name,
        "locked": locked,
        "kind": step.kind,
        "variant": step.variant,
        "python": step.python,
        "packages": step.packages,
        "requirements": list(step.requirements),
        "indexes": {"pytorch": step.pytorch_index or None, "pypi": step.pypi_index},
        "extensions": [
            {
                "name": e.name,
                "version": str(e.version) if e.version else None,
                "method": e.method,
                "spec": e.spec,
                "index": e.index or None,
                "warning": e.warning or None,
                "toolkit": e.toolkit or None,
                "toolkit-ok": e.toolkit_ok,
                "reasons": list(e.reasons),
            }
            for e in step.extensions
        ],
        "build-env": step.build_env,
        "reasons": list(step.reasons),
    }


def _direction(plan: Plan) -> str:
    if plan.status == "current":
        return "none"
    return "downgrade" if plan.target.torch < plan.source.torch else "upgrade"


def lock_row(lock: LockState) -> dict[str, Any]:
    """What plan.json records about locking: whether the steps are locked, and the options to lock them with."""
    return {
        "locked": lock.locked,
        "backend": lock.backend,
        "conda": lock.conda or None,
        "python": lock.python or None,
    }


def plan_document(
    plan: Plan, lock: LockState | None = None, planned_with: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The plan as data. `lock`: whether its steps are locked (not locked when not given); `planned_with`: the
    upgrade's own options, so `envplan lock PLAN_DIR` can plan it again and lock exactly these steps."""
    lock = lock or LockState()
    return {
        "schema": SCHEMA,
        "profile": plan.profile_name,
        "status": plan.status,
        "from": f"{plan.source.torch}+{plan.source_variant}",
        "to": str(plan.target.torch),
        "direction": _direction(plan),
        "blockers": [{"ref": b.ref, "message": b.message, "fix": b.fix, "needs": dict(b.needs)} for b in plan.blockers],
        "warnings": list(plan.warnings),
        "gpus": list(plan.gpus),
        "lock": lock_row(lock),
        **({"planned-with": planned_with} if planned_with is not None else {}),
        "steps": [_step_row(s, lock.locked) for s in plan.steps],
    }


def abi_row(r: ExtReport) -> dict[str, Any]:
    from envplan.live.abicheck import VERDICTS

    return {
        "name": r.name,
        "version": r.version,
        "path": r.path,
        "ok": r.ok,
        "built-against": r.built_against or None,
        "cuda-problem": r.cuda_problem or None,
        "missing-libraries": list(r.missing_libs),
        "missing": [
            {"symbol": m.symbol, "demangled": m.demangled, "verdict": m.verdict, "meaning": VERDICTS[m.verdict]}
            for m in r.missing
        ],
    }
