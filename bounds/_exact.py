"""Exact arithmetic over arrays: a product or ceiling computed in floating point is used only where it is
provably the exact (or correctly rounded) value, and recomputed with :class:`fractions.Fraction` elsewhere.

Used by the per-arm terms of ``bounds._tacc`` so that 10^5 arms cost a few vector operations while every value
stays what the one-arm definition in exact rational arithmetic gives.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["scaled_sum", "scaled_total", "nearest"]

_SPLIT = 134217729.0          # 2**27 + 1: Dekker's split of a double into two 26-bit halves
_SAFE = 2.0 ** 900            # |x| below this: the split and the error terms neither overflow nor underflow
_TINY = 2.0 ** -900
_INT_EXACT = 2.0 ** 52        # a float count below this is an exact integer with an exact successor


def _product_parts(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """a * b rounded, its error (Dekker's error-free product: a * b = p + err exactly where safe), and where the
    split neither overflows nor underflows (safe)."""
    with np.errstate(over="ignore", invalid="ignore"):    # an overflowing product is inf, never taken as exact
        p = a * b
        ca, cb = _SPLIT * a, _SPLIT * b
        ah = ca - (ca - a)
        al = a - ah
        bh = cb - (cb - b)
        bl = b - bh
        err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    safe = (np.abs(a) < _SAFE) & (np.abs(b) < _SAFE) & ((np.abs(p) > _TINY) | (a == 0) | (b == 0))
    return p, err, safe


def _product_exact(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """a * b rounded, and whether that float is the exact product (Dekker's error-free product is 0)."""
    p, err, safe = _product_parts(a, b)
    return p, safe & (err == 0)


def _sum_exact(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """a + b rounded, and whether that float is the exact sum (Knuth's error-free sum is 0)."""
    s = a + b
    with np.errstate(over="ignore", invalid="ignore"):
        bb = s - a
        err = (a - (s - bb)) + (b - bb)
    return s, np.isfinite(s) & (err == 0)


def nearest(x: Fraction) -> float:
    """A rational as the nearest float; beyond the float range it is inf (a value, not an error)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf


def _floats(counts: list) -> np.ndarray:
    """Counts as floats; a count beyond the float range becomes 2**60 (finite, so not taken for inf, and past
    2**52, so sent to the exact path, which reads the original int)."""
    try:
        return np.array(counts, dtype=float)
    except OverflowError:
        return np.array([x if x == math.inf or x < 2**60 else 2**60 for x in counts], dtype=float)


def _inner(scale, x: float, m, y: float, n, sign: int = 1) -> tuple:
    """The parts :func:`scaled_sum` and :func:`scaled_total` share: the scales as a float array, the counts as
    lists, s_i = x m_i + sign y n_i rounded, where s_i is that exact value (counts below 2**52, every product and
    the sum exact), and where a count is infinite."""
    g = np.asarray(scale, dtype=float).reshape(-1)
    ms = list(m) if isinstance(m, (list, tuple)) else [m] * g.size
    ns = list(n) if isinstance(n, (list, tuple)) else [n] * g.size
    mm, nn = _floats(ms), _floats(ns)
    a, ok_a = _product_exact(np.full(g.shape, float(x)), mm)
    b, ok_b = _product_exact(np.full(g.shape, float(y)), nn)
    s, ok_s = _sum_exact(a, b if sign > 0 else -b)
    exact = ok_a & ok_b & ok_s & (np.abs(mm) < _INT_EXACT) & (np.abs(nn) < _INT_EXACT)
    return g, ms, ns, s, exact, np.isinf(mm) | np.isinf(nn)


def scaled_sum(scale, x: float, m, y: float, n, sign: int = 1) -> np.ndarray:
    """scale_i (x m_i + sign y n_i) per entry, in exact arithmetic rounded once.

    ``scale`` is a float array; ``m`` and ``n`` are counts, each a list of Python ints (or ``inf``) with one
    entry per scale, or one int; ``x``, ``y`` are floats. A zero scale gives exactly 0 (no 0 * inf); an
    infinite count with a nonzero scale gives inf. Where x m_i, y n_i and their sum are exact floats (checked by
    error-free transformations, counts below 2**52), one float multiplication is the correctly rounded value;
    the other entries are computed with ``Fraction``.
    """
    g, ms, ns, s, exact, inf_count = _inner(scale, x, m, y, n, sign)
    with np.errstate(over="ignore", invalid="ignore"):
        out = g * s
    out = np.where(inf_count, math.inf, out)
    out = np.where(g == 0, 0.0, out)
    for i in np.flatnonzero(~exact & ~inf_count & (g != 0)).tolist():
        out[i] = nearest(Fraction(float(g[i])) * (Fraction(x) * ms[i] + sign * Fraction(y) * ns[i]))
    return out


def scaled_total(scale, x: float, m, y: float, n) -> float:
    """The sum over entries of scale_i (x m_i + y n_i), in exact arithmetic rounded once: the total of
    :func:`scaled_sum`'s entries as the exact values they round, not the float sum of the rounded entries (which
    can be an ulp off, and was: 900.7245 against the exact 900.7245000000001 on costs 0.001 and 1000).

    A zero scale contributes exactly 0; an infinite count with a nonzero scale makes the total inf. Where each
    x m_i + y n_i is an exact float, every product scale_i (x m_i + y n_i) is split error-free into two floats and
    ``math.fsum`` rounds their exact sum once; elsewhere the sum is made with ``Fraction``.

    >>> scaled_total([0.1, 0.2], 1.0, [1, 1], 0.0, 0) == float(Fraction(0.1) + Fraction(0.2))
    True
    """
    g, ms, ns, s, exact, inf_count = _inner(scale, x, m, y, n)
    live = g != 0
    if np.any(live & inf_count):
        return math.inf
    p, err, safe = _product_parts(g, s)
    if np.all((exact & safe & np.isfinite(p)) | ~live):
        try:
            return math.fsum(p[live].tolist() + err[live].tolist())
        except OverflowError:                 # the exact total leaves the floats: inf, as nearest() gives
            return math.inf
    fx, fy = Fraction(x), Fraction(y)
    return nearest(sum((Fraction(float(gi)) * (fx * mi + fy * ni)
                        for gi, mi, ni in zip(g.tolist(), ms, ns, strict=True) if gi != 0), Fraction(0)))
