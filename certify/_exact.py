"""Certified comparisons: ``lhs <= rhs`` decided exactly, or with a stated error bound.

Floats are dyadic rationals, so ``Fraction(x)`` is exact and a comparison of computed values is exact. When a
value stands for a real quantity it only approximates (a floating sum, a logarithm), the caller states an upper
bound on the error of the computed margin; the comparison then has three outcomes: HOLDS when the margin is at
least the bound, FAILS when the excess is larger than the bound (the computed values are a witness), and
UNDECIDED when the margin lies inside the bound. No tolerance is chosen here: an error bound is 0 (exact) or
derived from the computation (:func:`rounding_error`).

:func:`compare_le` is the definition, in :class:`fractions.Fraction`. The verdicts of a sweep decide the same
comparisons with :func:`decide_le` and :func:`decide_scaled`, also exactly but in integer arithmetic: every value
compared is an int, a float or a sum of products of floats and integer counts, i.e. an integer over a power of
two (:func:`scaled`), so a comparison is a comparison of integers over one power of two -- no rounding, hence no
error bound and no fallback, and tens of times cheaper than building Fractions (each Fraction operation reduces
by a gcd). The correctly rounded float of such a value, what a table shows, is ``num / 2**shift``: Python's
int / int true division is correctly rounded, as ``float(Fraction)`` is (it performs that same division).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from fractions import Fraction

from bounds import float_above

__all__ = ["Decision", "Comparison", "compare_le", "decide_le", "decide_scaled", "scaled", "exact",
           "UNIT_ROUNDOFF", "rounding_error", "upper_float"]

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


def scaled(x) -> tuple[int, int] | None:
    """x = num / 2**shift exactly, as (num, shift) with shift >= 0: for an int, a finite float or a Fraction
    whose denominator is a power of two; None for anything else (inf, NaN, a bool, 1/3, a numpy scalar).

    >>> scaled(0.75), scaled(3), scaled(Fraction(5, 8)), scaled(Fraction(1, 3)), scaled(math.inf)
    ((3, 2), (3, 0), (5, 3), None, None)
    """
    t = type(x)
    if t is int:
        return x, 0
    if t is float:
        if not math.isfinite(x):
            return None
        num, den = x.as_integer_ratio()
    elif t is Fraction:
        num, den = x.numerator, x.denominator
    else:
        return None
    shift = den.bit_length() - 1
    return (num, shift) if den == 1 << shift else None


def upper_float(x: Fraction) -> float:
    """The smallest float >= x (an error bound stored as a float never shrinks): ``bounds.float_above``."""
    return float_above(x)


def _ceil_float(num: int, den: int) -> float:
    """The smallest float >= num / den (den > 0): the correctly rounded quotient (int / int), one float up when
    it fell below. ``bounds.float_above(Fraction(num, den))`` without building the Fraction."""
    f = num / den
    a, b = f.as_integer_ratio()
    return math.nextafter(f, math.inf) if a * den < num * b else f


def rounding_error(value, roundings: int) -> float:
    """gamma_n |value| with gamma_n = n u / (1 - n u): the classical bound on the error of a value computed with
    at most ``roundings`` floating operations along each path on nonnegative operands (Higham, Accuracy and
    Stability of Numerical Algorithms, Lemma 3.1 and section 4.2): |computed - exact| <= gamma_n exact, hence
    <= gamma_n / (1 - gamma_n) |computed|, the value returned rounded up to a float (``value`` is the computed
    value).

    With u = 2**-53, gamma_n / (1 - gamma_n) = n / (2**53 - 2 n) exactly, so for an int or float ``value`` the
    result is the smallest float >= n |value| / (2**53 - 2 n), computed in integers.
    """
    n = roundings
    if type(n) is int and 0 <= 2 * n < 2**53 and type(value) in (int, float):
        a, b = abs(value).as_integer_ratio()          # OverflowError for inf, ValueError for NaN, as Fraction's
        return _ceil_float(n * a, b * (2**53 - 2 * n))
    nf = Fraction(roundings)
    g = nf * UNIT_ROUNDOFF / (1 - nf * UNIT_ROUNDOFF)
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


def _decide(margin: int, error: int) -> Decision:
    """The decision of :func:`compare_le` for a margin and an error bound over one power of two."""
    if margin - error >= 0:
        return Decision.HOLDS
    if margin + error < 0:
        return Decision.FAILS
    return Decision.UNDECIDED


_PLAIN = (int, float)


def decide_le(lhs, rhs, error=0.0) -> Decision:
    """``compare_le(lhs, rhs, error).decision``, exactly, without Fractions when lhs, rhs and error are ints or
    floats (anything else -- a Fraction, NaN, a bool, a numpy scalar -- goes to :func:`compare_le`).

    Python compares ints and floats exactly (an int is never rounded to a float to compare), so with error 0 the
    decision is ``lhs <= rhs``; an infinite side is compared as a value, as in :func:`compare_le`; otherwise the
    margin and the error bound are compared as integers over one power of two (:func:`scaled`).
    """
    tl, tr, te = type(lhs), type(rhs), type(error)
    if (tl is int or tl is float) and (tr is int or tr is float) and (te is int or te is float) \
            and lhs == lhs and rhs == rhs:                 # not NaN
        if error == 0:           # an infinite side included: lhs <= rhs is compare_le's rule for infinities
            return Decision.HOLDS if lhs <= rhs else Decision.FAILS
        if lhs in (math.inf, -math.inf) or rhs in (math.inf, -math.inf):
            return Decision.HOLDS if (rhs == math.inf or lhs == -math.inf) else Decision.FAILS
        if error != error or error in (math.inf, -math.inf):
            return compare_le(lhs, rhs, error).decision
        sl, sr, se_ = scaled(lhs), scaled(rhs), scaled(error)
        assert sl is not None and sr is not None and se_ is not None     # finite ints and floats
        (a, sa), (b, sb), (e, se) = sl, sr, se_
        s = max(sa, sb, se)
        return _decide((b << (s - sb)) - (a << (s - sa)), e << (s - se))
    return compare_le(lhs, rhs, error).decision


def decide_scaled(lhs: int, rhs: int, error: int) -> Decision:
    """``compare_le(lhs, rhs, error).decision`` for three values given as integers over one power of two
    (:func:`scaled`): the scale is positive, so the integers' signs decide."""
    return _decide(rhs - lhs, error)
