"""The two engines: z3 for implications between inequalities over reals and integers, sympy for identities.

``implies(hypotheses, goal)`` asks z3 whether hypotheses AND NOT goal is satisfiable: unsat is PROVED, sat is
REFUTED with the model as a counterexample (exact rationals turned into Fractions, so a reader can plug them
in), unknown (or a timeout) is UNKNOWN with z3's reason.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
import z3

from proofs_checks._step import Outcome, StepResult

__all__ = ["implies", "identity", "value", "ceil", "floor", "TIMEOUT_MS"]

TIMEOUT_MS = 10_000


def value(v):
    """A z3 model value as a Python number (Fraction for rationals, int for integers)."""
    if z3.is_int_value(v):
        return v.as_long()
    if z3.is_rational_value(v):
        return Fraction(v.numerator_as_long(), v.denominator_as_long())
    if z3.is_algebraic_value(v):
        return float(v.approx(20).as_decimal(20).rstrip("?"))
    return str(v)


def floor(x):
    """floor of a z3 real (an integer term)."""
    return z3.ToInt(x)


def ceil(x):
    """ceil of a z3 real (an integer term): -floor(-x)."""
    return -z3.ToInt(-x)


def implies(hypotheses, goal, *, detail: str = "") -> StepResult:
    """PROVED if ``hypotheses`` (a list of z3 booleans) entail ``goal`` over the reals/integers."""
    s = z3.Solver()
    s.set("timeout", TIMEOUT_MS)
    s.add(*hypotheses)
    s.add(z3.Not(goal))
    r = s.check()
    if r == z3.unsat:
        return StepResult(Outcome.PROVED, detail or "z3: hypotheses and not(goal) is unsatisfiable")
    if r == z3.sat:
        m = s.model()
        cex = {str(d.name()): value(m[d]) for d in m.decls() if d.arity() == 0}
        return StepResult(Outcome.REFUTED, detail or "z3 found a counterexample", counterexample=cex)
    return StepResult(Outcome.UNKNOWN, f"z3 returned unknown: {s.reason_unknown()}")


def identity(lhs, rhs, *, detail: str = "") -> StepResult:
    """PROVED if sympy simplifies lhs - rhs to 0; otherwise UNKNOWN (sympy not finding 0 is not a refutation)."""
    diff = sympy.simplify(sympy.expand(lhs - rhs))
    if diff == 0:
        return StepResult(Outcome.PROVED, detail or "sympy: lhs - rhs simplifies to 0")
    return StepResult(Outcome.UNKNOWN, f"sympy left lhs - rhs = {diff}")
