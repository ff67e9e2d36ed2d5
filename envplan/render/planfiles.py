"""Every file of a plan directory, as {relative path: text}."""

from __future__ import annotations

import json
from typing import Any

from envplan.core.plan import LockState, Plan
from envplan.kb import KB
from envplan.render.buildsh import render_build_sh
from envplan.render.data import plan_document
from envplan.render.envfiles import render_environment_yml, render_requirements_in
from envplan.render.planmd import render_plan_md
from envplan.render.targetprofile import target_profile_text
from envplan.render.verifyfiles import render_environment_md, render_expect, render_noxfile, verifier_source

__all__ = ["SOURCE_PROFILE", "plan_files"]

SOURCE_PROFILE = "source-profile.toml"  # the profile as planned: `envplan lock PLAN_DIR` plans from it again


def plan_files(
    plan: Plan,
    kb: KB,
    profile_text: str,
    *,
    lock: LockState | None = None,
    planned_with: dict[str, Any] | None = None,
) -> dict[str, str]:
    """The plan's own files (not the lock files). `lock`: whether its steps are locked and how (not locked when
    not given); `planned_with`: the upgrade's options, recorded so `envplan lock PLAN_DIR` can plan it again."""
    lock = lock or LockState()
    files = {
        "PLAN.md": render_plan_md(plan, lock),
        "plan.json": json.dumps(plan_document(plan, lock, planned_with), indent=2) + "\n",
        SOURCE_PROFILE: profile_text,
        "target-profile.toml": target_profile_text(profile_text, plan),
        "noxfile.py": render_noxfile(plan),
        "envplan_verify.py": verifier_source(),
    }
    for step in plan.steps:
        files[f"{step.name}/requirements.in"] = render_requirements_in(step)
        files[f"{step.name}/environment.yml"] = render_environment_yml(step, kb, plan.conda_subdir)
        files[f"{step.name}/expect.json"] = render_expect(step, plan)
        files[f"{step.name}/ENVIRONMENT.md"] = render_environment_md(step, plan, pins=lock.pins.get(step.name, ()))
        if step.extensions:
            files[f"{step.name}/build.sh"] = render_build_sh(step)
    return files
