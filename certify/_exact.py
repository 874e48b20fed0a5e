"""Certified comparisons (issue 11, item 1): ``lhs <= rhs`` decided exactly, or with a stated error bound.

Floats are dyadic rationals, so ``Fraction(x)`` is exact and a comparison of computed values is exact. When a
value stands for a real quantity it only approximates (a floating sum, a logarithm), the caller states an upper
bound on the error of the computed margin; the comparison then has three outcomes: HOLDS when the margin is at
least the bound, FAILS when the excess is larger than the bound (the computed values are a witness), and
UNDECIDED when the margin lies inside the bound. No tolerance is chosen here: an error bound is 0 (exact) or
derived from the computation (:func:`rounding_error`).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from fractions import Fraction

from bounds import float_above

__all__ = ["Decision", "Comparison", "compare_le", "exact", "UNIT_ROUNDOFF", "rounding_error", "upper_float"]

#: the unit roundoff of IEEE double precision (round to nearest): |fl(x op y) - x op y| <= u |x op y|.
UNIT_ROUNDOFF = Fraction(1, 2**53)


class Decision(enum.Enum):
    """The three outcomes of a certified comparison: true for every value inside the error bound, false for
    every such value, or either."""

    HOLDS = "holds"
    FAILS = "fails"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class Comparison:
    """``lhs <= rhs``: the decision, the computed margin rhs - lhs (exact for the values given) and the bound on
    the error of that margin. FAILS means the true margin is negative (margin + error < 0)."""

    decision: Decision
    margin: Fraction | float
    error: Fraction

    def describe(self) -> str:
        return f"margin {float(self.margin):.3g}, error bound {float(self.error):.3g}"


def exact(x) -> Fraction:
    """The exact rational value of an int, a Fraction or a finite float (numpy scalars included)."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, bool):
        raise TypeError("a bool is not a number")
    if hasattr(x, "item"):                     # numpy scalar
        x = x.item()
    if isinstance(x, int):
        return Fraction(x)
    return Fraction(float(x))


def upper_float(x: Fraction) -> float:
    """The smallest float >= x (an error bound stored as a float never shrinks): ``bounds.float_above``."""
    return float_above(x)


def rounding_error(value, roundings: int) -> float:
    """gamma_n |value| with gamma_n = n u / (1 - n u): the classical bound on the error of a value computed with
    at most ``roundings`` floating operations along each path on nonnegative operands (Higham, Accuracy and
    Stability of Numerical Algorithms, Lemma 3.1 and section 4.2): |computed - exact| <= gamma_n exact, hence
    <= gamma_n / (1 - gamma_n) |computed|, the value returned (``value`` is the computed value)."""
    n = Fraction(roundings)
    g = n * UNIT_ROUNDOFF / (1 - n * UNIT_ROUNDOFF)
    return upper_float(g * abs(exact(value)) / (1 - g))


def compare_le(lhs, rhs, error=0) -> Comparison:
    """Decide lhs <= rhs. ``error`` bounds |computed margin - true margin| (0: the values are exact).

    Infinite values compare as values: inf <= inf holds, a finite value is <= inf, inf <= a finite value fails.
    """
    err = exact(error)
    lf, rf = isinstance(lhs, float) and math.isinf(lhs), isinstance(rhs, float) and math.isinf(rhs)
    if lf or rf:
        ok = (rhs == math.inf) or (lhs == -math.inf)
        return Comparison(Decision.HOLDS if ok else Decision.FAILS, rhs - lhs if not (lf and rf) else 0.0, err)
    margin = exact(rhs) - exact(lhs)
    if margin - err >= 0:
        d = Decision.HOLDS
    elif margin + err < 0:
        d = Decision.FAILS
    else:
        d = Decision.UNDECIDED
    return Comparison(d, margin, err)
