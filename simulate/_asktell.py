"""Driving TACC by hand with a real judge: thresholds from the instance-free parameters, and the recommendation.

A user with a cheap judge and an expensive verifier knows K, the costs, the budget and the algorithm's parameters
(delta, rho, gamma, eta, S_0) and a certificate, but not the means. :func:`thresholds` computes everything the
policy compares against from those alone, through ``bounds``; :func:`recommend` is the arm the confidence
intervals of ``lem:ci`` single out once the budget is spent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bounds import TaccInputError, horizon, log_factor, min_rho, n_gamma
from bounds import validate as v
from simulate._certificate import bias_length, bound_from_certificate, check_mismatch_bound
from simulate._rules import lower, upper

__all__ = ["Thresholds", "thresholds", "given_bound", "Recommendation", "recommend"]


@dataclass(frozen=True)
class Thresholds:
    """What a TACC-family policy compares against, from the instance-free parameters.

    Attributes:
        horizon: T_Lambda = ceil(Lambda / lambda^(L)) (``sec:problem``).
        rho: the radius constant (``"min"`` resolved by ``bounds.min_rho``, ``lem:ci``).
        ell: ell_Lambda = rho log(2 K T_Lambda / delta) (``bounds.log_factor``).
        n_gamma: N_gamma = min{n >= 1 : G(n) < gamma} (``bounds.n_gamma``).
        bias_length: L = min(N_gamma, T_Lambda) + S_0 + 1, the counts at which B_k is read.
    """

    horizon: int
    rho: float
    ell: float
    n_gamma: int
    bias_length: int


def thresholds(n_arms: int, cost_low: float, budget: float, *, delta: float, rho, gamma: float, s0: int,
               noise_scale: float = 1.0) -> Thresholds:
    """The thresholds of TACC for K arms, a low cost, a budget and the parameters, every one by ``bounds``.

    Args:
        n_arms, cost_low, budget: K, lambda^(L), Lambda.
        delta: confidence level of ``lem:ci``, in (0, 1).
        rho: the radius constant, a number > 0, or ``"min"`` for the least rho for which the union bound of
            ``lem:ci`` gives 1 - delta with ``noise_scale``-sub-Gaussian observations (1/2 for rewards in [0, 1], by
            Hoeffding's lemma).
        gamma, s0: the threshold gamma > 0 and the continuation cap S_0 >= 0.

    >>> t = thresholds(4, 1.0, 1000.0, delta=0.05, rho=1.0, gamma=0.5, s0=2)
    >>> t.horizon, round(t.ell, 4), t.n_gamma, t.bias_length      # ell = log(2 * 4 * 1000 / 0.05)
    (1000, 11.9829, 48, 51)
    """
    K = v.count("n_arms", n_arms)
    T = horizon(budget, cost_low)
    if isinstance(rho, str):
        if rho != "min":
            raise TaccInputError("rho", rho, 'must be a number > 0 or "min"')
        r = min_rho(v.positive_real("noise_scale", noise_scale), K, T, delta)
    else:
        r = v.positive_real("rho", rho)
    ell = log_factor(r, K, T, delta)
    ng = n_gamma(ell, gamma)
    return Thresholds(T, r, ell, ng, bias_length(ng, T, v.count("s0", s0, minimum=0)))


def given_bound(n_arms: int, t: Thresholds, *, certificate=None, mismatch_bound=None, certificate_limit=None):
    """B_k(n) from exactly one of a certificate U_k(n) (B is computed by :func:`simulate.bound_from_certificate`,
    with ``certificate_limit``, lim U_k(s) / s, past the counts it evaluates) or a B_k(n) given directly (checked:
    callable, finite, nonnegative, nonincreasing on the counts a run reads)."""
    if (certificate is None) == (mismatch_bound is None):
        raise TaccInputError("certificate", certificate, "give exactly one of certificate (U_k) and mismatch_bound "
                             "(B_k)")
    if certificate is not None:
        return bound_from_certificate(certificate, n_arms, t.bias_length, t.horizon, certificate_limit)
    if certificate_limit is not None:
        raise TaccInputError("certificate_limit", certificate_limit, "is read only with certificate (U_k), not with "
                             "mismatch_bound (B_k)")
    return check_mismatch_bound(mismatch_bound, n_arms, t.bias_length)


@dataclass(frozen=True)
class Recommendation:
    """The arm the confidence intervals single out, with its interval for mu_k^(H).

    Attributes:
        arm: argmax_k LCB_k, ties to the lowest index.
        lower, upper: LCB_k = max(LCB^(L), LCB^(H)) and UCB_k = min(UCB^(L), UCB^(H)) of that arm
            (``eq:fidelity-confidence-bounds``, ``eq:arm-score``): on the event of ``lem:ci``, which has
            probability at least 1 - delta, mu_k^(H) lies in [lower, upper]. An arm never queried at a fidelity
            has the interval (-inf, inf) there.
        mean_high: the empirical high-fidelity mean of the arm (nan if never queried at high fidelity).
        n_low, n_high: its counts.
        best: lower >= UCB_j for every other arm j: on the event, the arm is a best arm.
        consistent: lower <= upper; False means the two fidelities' intervals do not meet, so the event of
            ``lem:ci`` failed (or the certificate is wrong).
    """

    arm: int
    lower: float
    upper: float
    mean_high: float
    n_low: int
    n_high: int
    best: bool
    consistent: bool


def intervals(policy) -> tuple[np.ndarray, np.ndarray]:
    """(LCB_k, UCB_k) per arm of a TACC-family policy: both fidelities' intervals for mu_k^(H) intersected."""
    lo = np.full(policy.n_arms, -math.inf)
    hi = np.full(policy.n_arms, math.inf)
    for k in range(policy.n_arms):
        nl, nh = int(policy.n_low[k]), int(policy.n_high[k])
        if nl > 0:
            b = policy.mismatch_bound(k, nl)
            lo[k] = max(lo[k], lower(policy.sum_low[k], nl, policy.ell, b))
            hi[k] = min(hi[k], upper(policy.sum_low[k], nl, policy.ell, b))
        if nh > 0:
            lo[k] = max(lo[k], lower(policy.sum_high[k], nh, policy.ell, 0.0))
            hi[k] = min(hi[k], upper(policy.sum_high[k], nh, policy.ell, 0.0))
    return lo, hi


def recommend(policy) -> Recommendation:
    """The recommended arm of a TACC-family policy: the largest lower confidence bound (``lem:ci``).

    The empirical best high mean is not a recommendation: an arm queried once at high fidelity can top it by
    chance. The largest LCB_k is the arm whose mean is certified highest on the event of ``lem:ci``; it can be
    called at any time (before the start is complete, unqueried arms have LCB = -inf).
    """
    lo, hi = intervals(policy)
    k = int(np.argmax(lo))
    others = np.delete(hi, k)
    nh = int(policy.n_high[k])
    return Recommendation(arm=k, lower=float(lo[k]), upper=float(hi[k]),
                          mean_high=float(policy.sum_high[k] / nh) if nh else math.nan, n_low=int(policy.n_low[k]),
                          n_high=nh, best=bool(others.size == 0 or lo[k] >= others.max()),
                          consistent=bool(lo[k] <= hi[k]))
