"""Verification: the checks that run inside a step's environment (inenv) and the runner that drives nox over a plan."""
