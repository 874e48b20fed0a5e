"""Floats as exact integers over one power of two: fast exact sums and comparisons of stored floats."""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = ["dyadic_ints", "float_at_least", "float_above", "cumulative_deviation"]


def dyadic_ints(values) -> tuple[list, int]:
    """Finite floats x_i as integers over one power of two: x_i = ints[i] / 2**shift exactly.

    Every float is a dyadic rational p / 2**e (``float.as_integer_ratio``), so exact sums and comparisons of
    floats reduce to integer arithmetic, much faster than ``fractions.Fraction``.

    >>> dyadic_ints([0.5, 0.75, 3.0])
    ([2, 3, 12], 2)
    """
    ratios = [float(x).as_integer_ratio() for x in values]
    shift = max((d.bit_length() - 1 for _, d in ratios), default=0)
    return [p << (shift - (d.bit_length() - 1)) for p, d in ratios], shift


def float_at_least(num: int, shift: int) -> float:
    """The smallest float >= num / 2**shift (a bound rounded up, never down).

    In integers, not ``fractions.Fraction`` (a certificate's running sum calls it once per count): ``num / 2**shift``
    is Python's true division of two ints, correctly rounded (what ``float(Fraction(num, 2**shift))`` computes),
    and it fell below when ``p / q < num / 2**shift`` for its ratio p / q, that is ``p 2**shift < num q``; the same
    float as :func:`float_above` of the fraction (``tests/bounds/test_dyadic.py``).

    >>> float_at_least(1, 0), float_at_least(1, 1) == 0.5, float_at_least(10**17 + 1, 0) > 1e17
    (1.0, True, True)
    """
    f = num / (1 << shift)
    p, q = f.as_integer_ratio()
    return math.nextafter(f, math.inf) if p << shift < num * q else f


def float_above(x: Fraction) -> float:
    """The smallest float >= the rational x (float(Fraction) is correctly rounded; one step up if it fell below).

    >>> float_above(Fraction(1, 3)) >= 1 / 3 and Fraction(float_above(Fraction(1, 3))) > Fraction(1, 3)
    True
    """
    f = float(x)
    return math.nextafter(f, math.inf) if Fraction(f) < x else f


def cumulative_deviation(mu: float, values, start: float = 0.0) -> list:
    r""":math:`s + \sum_{\tau \le n} |v_\tau - \mu|` for n = 1..len(values) (s = ``start``, v = ``values``),
    summed exactly over the floats and each
    rounded up to a float: a certificate U(n) that is valid for these stored means (a float running sum can
    fall short by an ulp) and, with start = 0, the tightest valid one.

    >>> cumulative_deviation(0.0, [0.1, 0.2]) == [0.1, 0.30000000000000004]
    True
    """
    ints, shift = dyadic_ints([mu, start, *values])
    run, out = ints[1], []
    for x in ints[2:]:
        run += abs(x - ints[0])
        out.append(float_at_least(run, shift))
    return out
