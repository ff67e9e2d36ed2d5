"""The target profile: the user's profile text with the plan's final stack, comments and layout kept."""

from __future__ import annotations

from typing import Any

import tomlkit

from envplan.core.plan import Plan

__all__ = ["target_profile_text"]


def target_profile_text(original: str, plan: Plan) -> str:
    """The profile as it should read once the plan's last step is in place."""
    final = plan.final
    if final is None:
        return original
    doc = tomlkit.parse(original)
    stack: Any = doc["stack"]
    labelled = "+" in str(stack.get("torch", ""))
    stack["torch"] = f"{final.release.torch}+{final.variant}" if labelled else str(final.release.torch)
    if stack.get("variant", "auto") != "auto":
        stack["variant"] = final.variant
    for pin in final.pins:
        if pin.name != "torch" and pin.name in stack and stack[pin.name] != "auto":
            stack[pin.name] = str(pin.version)
    python: Any = doc["python"]
    if not str(python.get("version", "")).startswith(final.python):
        python["version"] = final.python
    return tomlkit.dumps(doc)
