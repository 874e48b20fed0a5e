"""Tightened constants: where a constant of a PROVED conclusion is only shown to suffice (its mutant scaled toward 0
still PROVES and is stronger), the value nearest 0 in [0, c] found to keep the step PROVED, and whether it is the
tightest (no stronger value valid).

Bisection on the value (z3 decides each candidate), then the simplest value (denominator <= 8, or 0) in the
final interval that z3 proves; the interval's lower end is a value z3 refuted. The value found is called the
tightest only with a witness (:func:`witness`): a point satisfying every premise at which the conclusion holds
with that value and fails with every stronger one (every value on the side of 0, and beyond it), found by z3 and
checked again exactly by sympy. Without a witness the value is only sufficient (the search stops at 0, so a
tighter value past 0 is not looked for).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy
import z3

from proofs_checks._formula import Forall, Imp, Z3Env, to_z3
from proofs_checks._inference import MUTANT_TIMEOUT_MS, Inference, decide, model_value, solver_check
from proofs_checks._mutate import parent_of, positions, replaced
from proofs_checks._result import Outcome

__all__ = ["Tightened", "tightened_constants", "witness"]

_STEPS = 10


@dataclass(frozen=True)
class Tightened:
    """A constant of a conclusion, the paper's value and one nearer 0 that z3 proves valid (``value``); ``witness``
    (a point, see :func:`witness`) when ``value`` is the tightest valid one, else None (sufficient only)."""

    where: str           # the constant and the expression it is in
    stated: Fraction
    value: Fraction      # a valid value, the smallest the search found
    refuted_below: Fraction | None   # a value z3 refutes (None: 0 itself is valid)
    witness: dict | None = None

    @property
    def tightest(self) -> bool:
        return self.witness is not None


def _proved(inf: Inference, path, value) -> bool:
    c = replaced(inf.conclusion, path, sympy.Rational(value.numerator, value.denominator))
    return decide(inf.with_conclusion(c), timeout_ms=MUTANT_TIMEOUT_MS).outcome is Outcome.PROVED


def _rational(v) -> sympy.Rational | None:
    if isinstance(v, int):
        return sympy.Integer(v)
    if isinstance(v, Fraction):
        return sympy.Rational(v.numerator, v.denominator)
    return None                         # an algebraic number's decimal: not exact


def witness(inf: Inference, path, value: Fraction, sign: int) -> dict | None:
    """A point at which the conclusion holds with the constant at ``path`` set to ``value`` and fails with every
    value c on the stronger side (``sign * c < sign * value``, ``sign`` the paper's constant's: toward 0 and
    beyond): the proof that no stronger constant is valid, so that ``value``, proved valid (as
    :func:`tightened_constants` does before it asks), is the tightest. z3 finds it (the premises, the conclusion at
    ``value``, and "for all stronger c, the conclusion fails"); sympy then checks it exactly (every premise but a
    quantified one holds at the point, and the values of c for which the conclusion holds there include
    ``value`` and none on the stronger side). None when either finds none."""
    c = sympy.Symbol("c_tightened", real=True)
    general = replaced(inf.conclusion, path, c)
    at = replaced(inf.conclusion, path, sympy.Rational(value.numerator, value.denominator))
    env = Z3Env()
    s = z3.Solver()
    s.set("timeout", MUTANT_TIMEOUT_MS)
    for p in inf.premises:
        s.add(to_z3(p.formula, env))
    s.add(to_z3(at, env))
    zc = env.var(c)
    v = z3.RealVal(f"{value.numerator}/{value.denominator}")
    stronger = zc < v if sign > 0 else zc > v
    s.add(z3.ForAll([zc], z3.Implies(stronger, z3.Not(to_z3(general, env)))))
    if solver_check(s) != z3.sat:
        return None
    m = s.model()
    point = {name: model_value(m.eval(x, model_completion=True)) for name, x in sorted(env.vars.items())
             if name != c.name}
    exact = {}
    for name, x in point.items():
        r = _rational(x)
        if r is None:
            return None
        exact[name] = r
    sub = {sym: exact[sym.name] for sym in inf.symbols if sym.name in exact}
    for p in inf.premises:
        if isinstance(p.formula, (Forall, Imp)):
            continue                    # a quantified premise: z3's model is its witness
        if p.formula.xreplace(sub) != sympy.true:
            return None
    holds = general.xreplace(sub)
    try:
        where = sympy.solveset(holds, c, sympy.S.Reals)
    except (NotImplementedError, TypeError, ValueError):
        return None
    val = sympy.Rational(value.numerator, value.denominator)
    side = sympy.Interval.open(-sympy.oo, val) if sign > 0 else sympy.Interval.open(val, sympy.oo)
    if val not in where or where.intersect(side) != sympy.S.EmptySet:
        return None
    return point


def tightened_constants(inf: Inference, slack: tuple) -> list[Tightened]:
    """For each constant whose scaled mutant is in ``slack`` (descriptions from ``mutate``), the value nearest 0
    found valid, the tightest when a witness shows it."""
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
            out.append(Tightened(where, c, Fraction(0), None, witness(inf, path, Fraction(0), sign)))
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
        out.append(Tightened(where, c, sign * best, sign * lo, witness(inf, path, sign * best, sign)))
    return out
