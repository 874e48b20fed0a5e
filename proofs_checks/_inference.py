"""A proof step as the paper's inference: premises (each with where it comes from) and a conclusion, all sympy
formulas; and how it is decided.

``decide`` asks z3 whether the premises and the negated conclusion are satisfiable (unsat: PROVED; sat: REFUTED
with the model, exact rationals, as the counterexample; unknown or timeout: UNKNOWN with z3's reason). An
identity (method ``"exact"``) is first evaluated exactly at rational points (integer points for integer symbols)
that satisfy the premises: a difference at any point is REFUTED with that point; equal everywhere and sympy
reducing the difference to 0 is PROVED; equal at every point but not reduced is UNKNOWN.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

import sympy
import z3

from proofs_checks._formula import Forall, Imp, Z3Env, free_symbols, text, to_z3
from proofs_checks._result import Outcome, StepResult

__all__ = ["Premise", "Inference", "decide", "domain", "model_value", "solver_check", "TIMEOUT_MS",
           "MUTANT_TIMEOUT_MS", "DOMAIN"]

#: z3's time limit for a step's own query, and for each mutant's (a timeout is UNKNOWN, never PROVED).
TIMEOUT_MS = 10_000
MUTANT_TIMEOUT_MS = 2_000
#: the source of a premise that only states a variable's domain (a count is >= 1, a cost is > 0).
DOMAIN = "domain"
#: exact evaluation: points tried and kept.
_TRIES, _POINTS = 200, 16
_INT_VALUES = (0, 1, 2, 3, 4, 5, 7, 16, 17, -1, -3)
_REAL_VALUES = tuple(sympy.Rational(p, q) for p, q in ((1, 3), (1, 2), (2, 1), (7, 5), (3, 1), (5, 7), (10, 1),
                                                      (0, 1), (1, 1), (-1, 2), (-2, 1), (4, 1), (9, 4)))


@dataclass(frozen=True)
class Premise:
    """One premise: a short ``name``, its ``formula`` and its ``source`` (the paper's label, definition or
    assumption it comes from, or ``DOMAIN`` for a variable's range)."""

    name: str
    formula: object
    source: str

    @property
    def text(self) -> str:
        return text(self.formula)


def domain(*formulas) -> tuple:
    """Domain premises (a variable's range), each named by its own text."""
    return tuple(Premise(text(f), f, DOMAIN) for f in formulas)


@dataclass(frozen=True)
class Inference:
    """Premises entail the conclusion; ``method`` is ``"z3"`` or ``"exact"`` (an identity, conclusion ``Eq``)."""

    premises: tuple
    conclusion: object
    method: str = "z3"

    def without(self, i: int) -> "Inference":
        return Inference(self.premises[:i] + self.premises[i + 1:], self.conclusion, self.method)

    def with_conclusion(self, c) -> "Inference":
        return Inference(self.premises, c, self.method)

    @property
    def text(self) -> str:
        return text(self.conclusion)

    @property
    def symbols(self) -> list:
        """The free symbols of the premises and the conclusion, by name."""
        syms = free_symbols(self.conclusion)
        for p in self.premises:
            syms |= free_symbols(p.formula)
        return sorted(syms, key=lambda s: s.name)


def model_value(v):
    """A z3 model value as Python: an int, a Fraction, or a float for an algebraic number (inexact)."""
    if z3.is_int_value(v):
        return v.as_long()
    if z3.is_rational_value(v):
        f = Fraction(v.numerator_as_long(), v.denominator_as_long())
        return int(f) if f.denominator == 1 else f
    if z3.is_algebraic_value(v):
        return float(v.approx(20).as_decimal(20).rstrip("?"))
    return str(v)


def solver_check(s: "z3.Solver"):
    """``s.check()`` with SIGINT left to Python: z3 takes SIGINT itself while it checks (its ``ctrl_c`` parameter)
    and answers unknown ("interrupted from keyboard"), so no Python handler would see it and an interrupted `tacc
    proofs` would run on to exit 0 with a step UNKNOWN and a mutant not refused; re-raising on that answer would
    still lose a Ctrl-C that comes as a check is ending (its answer sat or unsat). With z3 leaving it alone, the
    signal's handler runs when the check returns: at once for the usual query of milliseconds, at the latest at its
    time limit (``TIMEOUT_MS``, ``MUTANT_TIMEOUT_MS``)."""
    s.set("ctrl_c", False)
    return s.check()


def _z3(inf: Inference, timeout_ms: int) -> StepResult:
    env = Z3Env()
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    for p in inf.premises:
        s.add(to_z3(p.formula, env))
    s.add(z3.Not(to_z3(inf.conclusion, env)))
    r = solver_check(s)
    if r == z3.unsat:
        return StepResult(Outcome.PROVED, "z3: the premises and the negated conclusion are unsatisfiable")
    if r == z3.sat:
        m = s.model()
        cex = {name: model_value(m.eval(v, model_completion=True)) for name, v in sorted(env.vars.items())}
        return StepResult(Outcome.REFUTED, "z3 found numbers satisfying every premise and not the conclusion",
                          counterexample=cex)
    return StepResult(Outcome.UNKNOWN, f"z3 returned unknown: {s.reason_unknown()}")


def _bounds(inf: Inference) -> dict:
    """Numeric bounds a premise puts on a single symbol (``x >= 0``, ``x <= 1``), to sample within them."""
    lo: dict = {}
    hi: dict = {}
    for p in inf.premises:
        f = p.formula
        if isinstance(f, (sympy.Le, sympy.Lt, sympy.Ge, sympy.Gt)):
            a, b = f.lhs, f.rhs
            if isinstance(a, sympy.Symbol) and b.is_Number:
                (lo if isinstance(f, (sympy.Ge, sympy.Gt)) else hi).setdefault(a, []).append(b)
    return {s: (max(lo.get(s, [-sympy.oo])), min(hi.get(s, [sympy.oo]))) for s in set(lo) | set(hi)}


def points(inf: Inference, *, seed: int = 0) -> list[dict]:
    """Exact points (rationals; integers for integer symbols) satisfying every premise, seeded. A symbol a
    premise defines (``Eq(symbol, expression)``) takes the expression's value instead of a sampled one."""
    r = random.Random(seed)
    defs = {p.formula.lhs: p.formula.rhs for p in inf.premises
            if isinstance(p.formula, sympy.Eq) and isinstance(p.formula.lhs, sympy.Symbol)}
    syms = [s for s in inf.symbols if s not in defs]
    bnd = _bounds(inf)
    cands = {}
    for s in syms:
        base = [sympy.Integer(v) for v in _INT_VALUES] if s.is_integer else list(_REAL_VALUES)
        lo, hi = bnd.get(s, (-sympy.oo, sympy.oo))
        cands[s] = [v for v in base if lo <= v <= hi] or base
    checks = [p.formula for p in inf.premises if not isinstance(p.formula, (Forall, Imp))]
    out = []
    for _ in range(_TRIES):
        pt = {s: r.choice(cands[s]) for s in syms}
        for _ in range(len(defs)):   # definitions may refer to one another
            pt.update({d: e.xreplace(pt) for d, e in defs.items()})
        if all(f.xreplace(pt) == sympy.true for f in checks):
            out.append(pt)
            if len(out) >= _POINTS:
                break
    return out


def _exact(inf: Inference) -> StepResult:
    c = inf.conclusion
    if not isinstance(c, sympy.Eq):
        raise TypeError(f"an exact identity needs an equation, not {text(c)}")
    pts = points(inf)
    for pt in pts:
        d = sympy.nsimplify(c.lhs.xreplace(pt) - c.rhs.xreplace(pt))
        if d != 0:
            return StepResult(Outcome.REFUTED, f"the two sides differ by {d} at this point",
                              counterexample={s.name: (int(v) if v.is_Integer else Fraction(int(v.p), int(v.q)))
                                              for s, v in pt.items()})
    if not pts:
        return StepResult(Outcome.UNKNOWN, "no exact point satisfies the premises")
    defs = {p.formula.lhs: p.formula.rhs for p in inf.premises
            if isinstance(p.formula, sympy.Eq) and isinstance(p.formula.lhs, sympy.Symbol)}
    diff = sympy.simplify(sympy.expand((c.lhs - c.rhs).subs(defs)))
    if diff == 0:
        return StepResult(Outcome.PROVED, f"equal at {len(pts)} exact points; sympy reduces lhs - rhs to 0")
    return StepResult(Outcome.UNKNOWN, f"equal at {len(pts)} exact points, but sympy left lhs - rhs = {diff}")


def decide(inf: Inference, *, timeout_ms: int = TIMEOUT_MS) -> StepResult:
    """PROVED, REFUTED (with numbers) or UNKNOWN (with the reason) for one inference."""
    if inf.conclusion is sympy.true:
        return StepResult(Outcome.PROVED, "the conclusion is identically true")
    if inf.method == "exact":
        return _exact(inf)
    return _z3(inf, timeout_ms)
