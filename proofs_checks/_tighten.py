"""The least valid constant: where a constant of a PROVED conclusion is only shown to suffice (its mutant scaled
toward 0 still PROVES and is stronger), the smallest value in [0, c] that keeps the step PROVED.

Bisection on the value (z3 decides each candidate), then the simplest value (denominator <= 8, or 0) in the
final interval that z3 proves. Reported with the interval's lower end, which z3 refuted: the least valid value
lies in (refuted, reported]; equal to the reported one when it is 0 or the refuted end is within 2^-10 c of it
and every simpler value below was refuted.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from proofs_checks._inference import MUTANT_TIMEOUT_MS, Inference, decide
from proofs_checks._mutate import parent_of, positions, replaced
from proofs_checks._result import Outcome

__all__ = ["Least", "least_constants"]

_STEPS = 10


@dataclass(frozen=True)
class Least:
    where: str           # the constant and the expression it is in
    stated: Fraction
    least: Fraction      # the least value z3 proves
    refuted_below: Fraction | None   # a value z3 refutes (None: 0 itself is valid)


def _proved(inf: Inference, path, value) -> bool:
    c = replaced(inf.conclusion, path, sympy.Rational(value.numerator, value.denominator))
    return decide(inf.with_conclusion(c), timeout_ms=MUTANT_TIMEOUT_MS).outcome is Outcome.PROVED


def least_constants(inf: Inference, slack: tuple) -> list[Least]:
    """For each constant whose scaled mutant is in ``slack`` (descriptions from ``mutate``), its least value."""
    out = []
    done = set()
    for path, node in positions(inf.conclusion):
        if not (isinstance(node, sympy.Number) and node != 0) or path in done:
            continue
        parent = parent_of(inf.conclusion, path)
        where = f"constant {node} in {parent}"
        if not any(d.startswith(f"constant {node} -> ") and d.endswith(f" in {parent}") for d in slack):
            continue
        done.add(path)
        c = Fraction(int(node.p), int(node.q))
        sign = 1 if c > 0 else -1
        if _proved(inf, path, Fraction(0)):
            out.append(Least(where, c, Fraction(0), None))
            continue
        lo, hi = Fraction(0), abs(c)     # magnitudes: lo refuted, hi proved
        for _ in range(_STEPS):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if _proved(inf, path, sign * mid) else (mid, hi)
        best = hi
        for q in range(1, 9):            # the simplest magnitude in (lo, hi] that z3 proves
            cand = Fraction((lo * q).__floor__() + 1, q)
            if cand < best and _proved(inf, path, sign * cand):
                best = cand
        out.append(Least(where, c, sign * best, sign * lo))
    return out
