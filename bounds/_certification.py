"""Low-fidelity certification time tau_k(gamma) (``eq:analysis-cert-time``)."""

from __future__ import annotations


import numpy as np

from bounds import _validate as v
from bounds._lowfidelity import LowFidelityModel
from bounds._mismatch import low_gap
from bounds._search import first_true

__all__ = ["certification_time"]


def certification_time(model: LowFidelityModel, k: int, mu_star: float, gamma: float) -> int | float:
    """Low-fidelity certification time tau_k(gamma) (``eq:analysis-cert-time``).

    tau_k(gamma) := inf{ n >= 1 : Delta_k^(L)(n) >= 2 gamma },  tau_k(gamma) = inf if the set is empty.

    Computed from the definition at every count, not only up to the horizon: counts 1..m (the model's
    irregular prefix) one by one, then a bisection past m, where Delta_k^(L) is monotone; the search stops
    at 2**53 (beyond, float counts are not distinct) and returns ``math.inf`` if no count qualifies.

    Args:
        model: the low-fidelity model (it carries mu^(H), bar mu^(L) and B_k).
        k: arm index (a suboptimal arm; for the best arm the value is inf since Delta_k^(L) <= 0).
        mu_star: mu^*, the largest high-fidelity mean.
        gamma: threshold gamma > 0.

    Returns:
        An int, or ``math.inf``.

    >>> from bounds import power_decay
    >>> m = power_decay([0.9, 0.5], zeta=0.2, r=0.5, signs=[1, 1])
    >>> certification_time(m, 1, 0.9, 0.1)   # 0.4 - 0.4 P(n)/n >= 0.2, P(n) = sum tau^(-1/2): first at n = 11
    11
    """
    k = model._arm(k)
    mu = v.finite_real("mu_star", mu_star)
    g = v.positive_real("gamma", gamma)
    threshold = 2.0 * g

    def gaps(n):
        n = np.asarray(n)
        return low_gap(mu, model.avg_mean_low(k, n), model.mismatch_bound(k, n))

    m = model.irregular_prefix(k)
    if m > 0:
        hits = np.flatnonzero(gaps(np.arange(1, m + 1)) >= threshold)
        if hits.size:
            return int(hits[0]) + 1
    return first_true(lambda n: gaps(n) >= threshold, start=m + 1)
