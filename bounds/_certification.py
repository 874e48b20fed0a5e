"""Low-fidelity certification time tau_k(gamma) (``eq:analysis-cert-time``)."""

from __future__ import annotations

import math

import numpy as np

from bounds import _validate as v
from bounds._lowfidelity import LowFidelityModel
from bounds._mismatch import low_gap
from bounds._search import counts_or_inf, first_true_rows

__all__ = ["certification_time", "certification_times", "instance_certification_times"]

#: counts x arms evaluated at once while scanning the models' irregular prefixes
_SCAN_CELLS = 1 << 22


def certification_times(model: LowFidelityModel, mu_star: float, gamma: float, arms=None) -> np.ndarray:
    """tau_k(gamma) of ``eq:analysis-cert-time`` for every arm of ``arms`` (default: all), in shared vector calls.

    The definition and the search are those of :func:`certification_time`; returns a float64 array of exact
    integers and ``inf``.
    """
    mu = v.finite_real("mu_star", mu_star)
    threshold = 2.0 * v.positive_real("gamma", gamma)
    ks = np.arange(model.n_arms, dtype=np.int64) if arms is None else np.asarray(arms, dtype=np.int64)
    out = np.full(ks.size, math.inf)

    def certified(arm, n):
        return low_gap(mu, model.avg_mean_low_at(arm, n), model.mismatch_bound_at(arm, n)) >= threshold

    prefix = model.irregular_prefixes()[ks]
    pending = np.ones(ks.size, dtype=bool)
    for m in np.unique(prefix[prefix > 0]):             # counts 1..m one by one, a block of arms at a time
        group = np.flatnonzero(prefix == m)
        n = np.arange(1, m + 1, dtype=np.int64)
        step = max(1, _SCAN_CELLS // int(m))
        for i in range(0, group.size, step):
            g = group[i:i + step]
            hits = certified(ks[g][:, None], n[None, :])
            found = hits.any(axis=1)
            out[g[found]] = np.argmax(hits[found], axis=1) + 1.0
            pending[g[found]] = False
    rest = np.flatnonzero(pending)
    out[rest] = first_true_rows(lambda rows, n: certified(ks[rest[rows]], n), rest.size, start=prefix[rest] + 1)
    return out


def instance_certification_times(instance, gamma: float) -> tuple:
    """tau_k(gamma) of ``eq:analysis-cert-time`` for every arm of ``instance`` (a ``bounds.Instance``): ints and
    ``math.inf``, with inf for the best arm k^* (whose Delta_k^(L) is never positive). One call of
    ``certification_times`` for all arms: what ``analyze`` and ``simulate``'s problems read.

    >>> from bounds import build_instance, load_config
    >>> c = load_config("llm-vanishing")
    >>> instance_certification_times(build_instance(c.instance), c.params.gamma)
    (inf, 58864, 680, inf)
    """
    t = certification_times(instance.low, instance.mu_star, gamma)
    t[instance.best_arm] = math.inf
    return counts_or_inf(t)


def certification_time(model: LowFidelityModel, k: int, mu_star: float, gamma: float) -> int | float:
    r"""Low-fidelity certification time tau_k(gamma) (``eq:analysis-cert-time``).

    .. math::

        \tau_k(\gamma) := \inf\{ n \ge 1 : \Delta_k^{(L)}(n) \ge 2\gamma \},

    with tau_k(gamma) = inf if the set is empty.

    Computed from the definition at every count, not only up to the horizon: counts 1..m (the model's
    irregular prefix) one by one, then a bisection past m, where Delta_k^(L) is monotone; the search stops
    at 2**53 (beyond, float counts are not distinct) and returns ``math.inf`` if no count qualifies.
    :func:`instance_certification_times` gives every arm's at once.

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
    t = certification_times(model, mu_star, gamma, arms=[k])[0]
    return math.inf if t == math.inf else int(t)
