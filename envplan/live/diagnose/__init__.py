"""The failure catalogue: from an error text (a traceback, a pip log, a pasted issue) to its cause and fix. Pure.

Each rule weighs several signals (the message, the context it sits in, library names, versions) and proposes a
Candidate with a score; a cause is reported only when its evidence reaches THRESHOLD, the strongest first.
Nothing is guessed: when no rule is sure enough, the answer is an empty list.
"""

from __future__ import annotations

from collections.abc import Callable

from envplan.kb import KB

from .banners import built_for_banner
from .build import isolation_missing_torch, toolkit_mismatch
from .companions import companion_mismatch
from .cpu import cpu_only
from .cudalibs import cuda_runtime_missing
from .gpu import arch_not_compiled, driver_too_old
from .install import python_unsupported
from .libs import glibc_too_old
from .model import THRESHOLD, Candidate, Demangle, Diagnosis, TorchExports
from .pertorch import per_torch_library_missing
from .prose import said_in_words
from .symbols import undefined_symbols
from .text import Text, plain, unquoted

__all__ = ["Diagnosis", "TorchExports", "explain_text"]

Rule = Callable[[Text, KB], list[Candidate]]

RULES: tuple[Rule, ...] = (
    companion_mismatch,
    built_for_banner,
    per_torch_library_missing,
    arch_not_compiled,
    cuda_runtime_missing,
    driver_too_old,
    toolkit_mismatch,
    cpu_only,
    isolation_missing_torch,
    glibc_too_old,
    python_unsupported,
    said_in_words,
)


def explain_text(
    text: str, kb: KB, demangle: Demangle = lambda s: s, installed: TorchExports | None = None
) -> list[Diagnosis]:
    """Every cause the text shows well enough, most likely first; [] when none does. `installed`, the torch of the
    environment the log came from, decides what the text alone cannot: which C++ ABI a missing symbol lacks."""
    pasted = Text(unquoted(plain(text)))
    found = undefined_symbols(pasted, kb, demangle, installed)
    for rule in RULES:
        found += rule(pasted, kb)
    best: dict[str, Candidate] = {}
    for c in found:
        if c.score >= THRESHOLD and (c.ref not in best or c.score > best[c.ref].score):
            best[c.ref] = c
    return [c.diagnosis() for c in sorted(best.values(), key=lambda c: (-c.score, c.at))]
