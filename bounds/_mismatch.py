"""Mismatch bound B_k(n) from a certificate U_k, and the effective low-fidelity gap.

Paper: ``ass:plugin`` (definition of B_k) and ``eq:effective-low-gap``.
"""

from __future__ import annotations

import numpy as np

from bounds import _validate as v
from bounds._errors import TaccInputError

__all__ = ["mismatch_bound", "low_gap"]


def mismatch_bound(certificate_values, tail_sup: float = 0.0) -> np.ndarray:
    r"""Selected-average mismatch bound B_k(n) (``ass:plugin``).

    .. math::

        B_k(n) := \sup_{s \ge n} \frac{U_k(s)}{s}, \qquad
        \text{where } \sum_{\tau=1}^{n} \left|\mu_k^{(L)}(\tau) - \mu_k^{(H)}\right| \le U_k(n).

    Computed exactly as a reverse running maximum of U_k(s)/s over n <= s <= W, combined with the supremum of
    U_k(s)/s over s > W, which the low-fidelity model supplies (docs/design.md section 3).

    Args:
        certificate_values: U_k(1), ..., U_k(W), a 1-d array of nonnegative floats (W >= 1).
        tail_sup: sup_{s > W} U_k(s)/s >= 0 (0 when U_k(s) = 0 beyond W).

    Returns:
        B_k(1), ..., B_k(W), nonincreasing.

    >>> mismatch_bound([1.0, 1.0, 3.0], tail_sup=0.5).tolist()
    [1.0, 1.0, 1.0]
    """
    u = np.asarray(certificate_values, dtype=float)
    if u.ndim != 1 or u.size == 0:
        raise TaccInputError("certificate_values", certificate_values, "must be a non-empty 1-d array")
    if not np.all(np.isfinite(u)) or u.min() < 0:
        raise TaccInputError("certificate_values", certificate_values, "must be finite and >= 0")
    t = v.nonnegative_real("tail_sup", tail_sup)
    ratios = u / np.arange(1, u.size + 1, dtype=float)
    return np.maximum(np.maximum.accumulate(ratios[::-1])[::-1], t)


def low_gap(mu_star: float, avg_low, bound):
    r"""Effective low-fidelity gap Delta_k^(L)(n) (``eq:effective-low-gap``).

    .. math::

        \Delta_k^{(L)}(n) := \mu^\star - \bar\mu_k^{(L)}(n) - B_k(n).

    Args:
        mu_star: mu^*, the largest high-fidelity mean.
        avg_low: bar mu_k^(L)(n), the selected-average low-fidelity mean (float or array over n).
        bound: B_k(n) (same shape as ``avg_low``).

    >>> low_gap(0.9, 0.5, 0.1)
    0.30000000000000004
    """
    return mu_star - avg_low - bound
