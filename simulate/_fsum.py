"""Correctly rounded sums in compiled code: CPython's ``math.fsum`` ported exactly, so a sum computed in the fast
engine is the same float ``math.fsum`` returns.

The algorithm is CPython's (``Modules/mathmodule.c``, ``math_fsum``): Shewchuk's exact partials (each new value is
added to every partial with a two-sum, keeping the nonzero low parts), then the partials summed from the top
until the sum becomes inexact, and the final half-even correction (a last partial of the same sign as the
rounding error doubles it, and the sum moves by one ulp when that is exact). Non-finite values (inf, nan) and an
intermediate overflow are left to ``math.fsum`` itself: :func:`fsum_into` reports them and the caller falls back,
so the special cases (inf + -inf is a ValueError, ...) stay CPython's.
"""

from __future__ import annotations

import math

import numpy as np

from simulate._compile import compiled

__all__ = ["fsum_into", "fsum"]


@compiled()
def fsum_into(values, n, partials):
    """(sum, ok): the correctly rounded sum of ``values[:n]`` as ``math.fsum`` computes it, with ``partials`` a
    work array of at least n + 1 floats; ok is False (and the sum meaningless) when a value is not finite or a
    partial overflows, the cases ``math.fsum`` handles apart."""
    m = 0                                              # partials[:m]: nonoverlapping, increasing magnitude
    for idx in range(n):
        x = values[idx]
        if not math.isfinite(x):
            return 0.0, False
        i = 0
        for j in range(m):                             # for y in partials
            y = partials[j]
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                partials[i] = lo
                i += 1
            x = hi
        m = i
        if x != 0.0:
            if not math.isfinite(x):                   # intermediate overflow: math.fsum raises
                return 0.0, False
            partials[m] = x
            m += 1
    hi = 0.0
    if m > 0:
        m -= 1
        hi = partials[m]
        lo = 0.0
        while m > 0:                                   # sum_exact(partials, hi) from the top, stop when inexact
            x = hi
            m -= 1
            y = partials[m]
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                break
        if m > 0 and ((lo < 0.0 and partials[m - 1] < 0.0) or (lo > 0.0 and partials[m - 1] > 0.0)):
            y = lo * 2.0                               # half-even rounding across several partials
            x = hi + y
            yr = x - hi
            if y == yr:
                hi = x
    return hi, True


def fsum(values) -> float:
    """``math.fsum(values)`` through the compiled port (falling back to ``math.fsum`` for non-finite values)."""
    a = np.ascontiguousarray(values, dtype=float).reshape(-1)
    total, ok = fsum_into(a, a.size, np.empty(a.size + 1))
    return total if ok else math.fsum(a.tolist())
