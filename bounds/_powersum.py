"""Partial power sums P(n) = sum_{tau=1}^{n} (tau + shift)^(-r) at any count n, in closed form.

The power-decay and residual-decay certificates (docs/design.md section 5) are U_k(n) = c n + zeta P(n); the RDFE
costs and tau_k need them far past the horizon, so P is evaluated without a length-n array: exact summation
for n <= 64, and beyond that the Euler-Maclaurin expansion of the Hurwitz zeta difference
sum_{j=a1}^{a2-1} j^(-r) = zeta(r, a1) - zeta(r, a2), whose truncation error at a >= 65 is below 1e-18
relative (tested against mpmath).
"""

from __future__ import annotations

import numpy as np

from bounds import _validate as v

__all__ = ["power_sum"]

_DIRECT = 64


def _em_tail(a: np.ndarray, s: float) -> np.ndarray:
    """The terms of the Hurwitz-zeta asymptotic expansion after the leading one, at a (array)."""
    x = a ** (-s)
    inv = 1.0 / a
    inv2 = inv * inv
    out = x / 2.0
    out += s / 12.0 * x * inv
    out -= s * (s + 1) * (s + 2) / 720.0 * x * inv * inv2
    out += s * (s + 1) * (s + 2) * (s + 3) * (s + 4) / 30240.0 * x * inv * inv2 * inv2
    out -= s * (s + 1) * (s + 2) * (s + 3) * (s + 4) * (s + 5) * (s + 6) / 1209600.0 * x * inv * inv2 * inv2 * inv2
    return out


def _block(a1: float, a2: np.ndarray, s: float) -> np.ndarray:
    """sum_{j=a1}^{a2-1} j^(-s) for a1 >= 65 (scalar) and a2 >= a1 (array)."""
    if float(a1) ** (-s) == 0.0:
        # a1^-s below half the smallest float: the whole block is below a1^-s (1 + a1 / (s - 1)) < 2 a1^-s, which
        # rounds to 0 (r = 1e300 made the expansion's coefficients inf and its terms inf x 0 = NaN, with warnings)
        return np.zeros(np.shape(a2))
    l1, l2 = np.log(a1), np.log(a2)
    if s == 1.0:
        lead = l2 - l1
    else:
        u = 1.0 - s
        lead = (np.expm1(u * l2) - np.expm1(u * l1)) / u
    return lead + _em_tail(np.asarray(a1, dtype=float), s) - _em_tail(a2, s)


def power_sum(n, r: float, shift: float = 0.0):
    """Partial power sum P(n) = sum_{tau=1}^{n} (tau + shift)^(-r), P(0) = 0.

    Args:
        n: count n >= 0, an int or an integer array (any size, values up to 2**53).
        r: exponent r > 0 (the decay rate of docs/design.md section 5).
        shift: n0 >= 0 (residual decay's offset; 0 for power decay).

    Returns:
        A float for an int ``n``, an array for an array. Nondecreasing in n.

    >>> round(power_sum(3, 1.0), 12)   # 1 + 1/2 + 1/3
    1.833333333333
    """
    rr = v.positive_real("r", r)
    c = v.nonnegative_real("shift", shift)
    scalar = np.ndim(n) == 0
    arr = np.atleast_1d(np.asarray(n, dtype=np.int64))
    if arr.size and arr.min() < 0:
        raise v.TaccInputError("n", n, "counts must be >= 0")
    direct = np.concatenate([[0.0], np.cumsum((np.arange(1, _DIRECT + 1) + c) ** (-rr))])
    out = np.empty(arr.shape, dtype=float)
    small = arr <= _DIRECT
    out[small] = direct[arr[small]]
    big = ~small
    if big.any():
        a2 = arr[big].astype(float) + c + 1.0
        out[big] = direct[_DIRECT] + _block(_DIRECT + c + 1.0, a2, rr)
    return float(out[0]) if scalar else out
