"""Child process of the planning benchmark: plan N generated profiles in one process, print one JSON line.

Usage: python planworker.py N. Times parse + resolve_target + plan_upgrade of each profile (the KB is loaded
once, before, and timed apart); peak RSS is the whole process's (resource.getrusage).
"""

from __future__ import annotations

import json
import resource
import statistics
import sys
import time
from collections import Counter

from profilegen import GeneratedProfile, generate_profiles

from envplan.core.planner import plan_upgrade, resolve_target
from envplan.errors import EnvplanError
from envplan.kb import KB, load_kb
from envplan.profile.model import parse_profile


def plan_one(gen: GeneratedProfile, kb: KB) -> tuple[str, float]:
    """(the plan's status, seconds)."""
    start = time.perf_counter()
    status: str
    try:
        status = plan_upgrade(parse_profile(gen.text, gen.name), resolve_target(gen.target, kb), kb).status
    except EnvplanError as exc:
        status = f"error:{exc.ref}"
    return status, time.perf_counter() - start


def main() -> None:
    n = int(sys.argv[1])
    start = time.perf_counter()
    kb = load_kb()
    kb_load = time.perf_counter() - start
    timed = [plan_one(gen, kb) for gen in generate_profiles(kb, n)]
    seconds = [s for _, s in timed]
    by_status: dict[str, list[float]] = {}
    for status, s in timed:
        by_status.setdefault(status, []).append(s)
    result = {
        "n": n,
        "kb_load_s": kb_load,
        "planning_s": sum(seconds),
        "per_plan_ms": sum(seconds) / n * 1000,
        "p50_ms": statistics.median(seconds) * 1000,
        "max_ms": max(seconds) * 1000,
        "mean_ms_by_status": {k: sum(v) / len(v) * 1000 for k, v in by_status.items()},
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,  # KiB on Linux
        "statuses": dict(Counter(status for status, _ in timed)),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
