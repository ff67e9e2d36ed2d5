"""The pure core: compatibility rules, the planner, blockers, extension matching, build specs, the plan model.

It reads facts (envplan.kb) and profiles (envplan.profile) and does no I/O: no subprocess, network, files or
rendering (tests/test_architecture.py holds it to that)."""
