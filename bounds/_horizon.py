"""Horizon, log factor, radius, nominal threshold and the least radius constant the union bound of lem:ci certifies.

Paper: Section "Theoretical Result" (display before ``eq:analysis-cert-time``) and the proof of ``lem:ci``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from bounds import _validate as v
from bounds._amount import exact_amount
from bounds._errors import TaccInputError
from bounds._search import first_true

__all__ = ["horizon", "first_round_cost", "first_round_paid", "continuation_cap_holds", "log_factor", "radius",
           "radius_scalar", "n_gamma", "min_rho"]


def horizon(budget: float, cost_low: float) -> int:
    r"""Query horizon T_Lambda (``sec:problem``).

    .. math::

        T_\Lambda := \left\lceil \Lambda / \lambda^{(L)} \right\rceil

    Args:
        budget: Lambda > 0, in cost units.
        cost_low: lambda^(L) > 0, in the same cost units.

    Returns:
        The integer T_Lambda, computed exactly, with both numbers read as the decimals written
        (``bounds.exact_amount``: 0.1 is 1/10), the reading the engines' budget check uses: ``horizon(0.3, 0.1)``
        is 3 and ``horizon(0.9, 0.3)`` is 3 (0.9 / 0.3 is 3.0000000000000004 in floating point).

    >>> horizon(128000, 1.0)
    128000
    """
    return math.ceil(exact_amount("budget", budget) / exact_amount("cost_low", cost_low))


def first_round_cost(n_arms: int, cost_low: float, cost_high: float) -> Fraction:
    r"""Cost of the start of Algorithm 1 (``alg:adaptive-mf-mab``, line 2: one query of every arm at each fidelity).

    .. math::

        K \left(\lambda^{(L)} + \lambda^{(H)}\right)

    Args:
        n_arms: K.
        cost_low, cost_high: lambda^(L), lambda^(H), read as the decimals written (``bounds.exact_amount``), as the
            engines' budget check reads them.

    Returns:
        The exact cost, a :class:`fractions.Fraction`.

    >>> first_round_cost(3, 0.1, 0.2)
    Fraction(9, 10)
    """
    return n_arms * (exact_amount("cost_low", cost_low) + exact_amount("cost_high", cost_high))


def first_round_paid(n_arms: int, cost_low: float, cost_high: float, budget: float) -> bool:
    r"""Whether the budget pays for the start (``alg:start``): K (lambda^(L) + lambda^(H)) <= Lambda, exactly.

    Every amount is read as the decimal written, as the engines' budget check counts (``bounds.cost_units``), so the
    answer is what a run does: three arms of costs 0.1 and 0.2 on a budget of 0.9 make their six start queries
    (in binary floating point 3 (0.1 + 0.2) is 0.9000000000000001, and the assumption was reported FAILED on a run
    that made them).

    >>> first_round_paid(3, 0.1, 0.2, 0.9), first_round_paid(3, 0.1, 0.2, 0.89)
    (True, False)
    """
    return first_round_cost(n_arms, cost_low, cost_high) <= exact_amount("budget", budget)


def continuation_cap_holds(s0: int, cost_low: float, cost_high: float) -> bool:
    r"""Whether a full continuation block costs at most one high-fidelity query (``cap:S0``, an assumption of
    ``thm:analysis-main-regret``): S_0 lambda^(L) <= lambda^(H), exactly, the costs read as the decimals written
    (as :func:`first_round_paid`): S_0 = 3 with costs 0.1 and 0.3 holds (3 x 0.1 is 0.30000000000000004 in floats).

    >>> continuation_cap_holds(3, 0.1, 0.3), continuation_cap_holds(4, 0.1, 0.3)
    (True, False)
    """
    return s0 * exact_amount("cost_low", cost_low) <= exact_amount("cost_high", cost_high)


def log_factor(rho: float, n_arms: int, horizon_: int, delta: float) -> float:
    r"""Log factor ell_Lambda (``sec:theory``, used by ``lem:ci``).

    .. math::

        \ell_\Lambda := \rho \log\left(\frac{2 K T_\Lambda}{\delta}\right)

    Args:
        rho: radius constant rho > 0.
        n_arms: K >= 1.
        horizon_: T_Lambda >= 1 (see :func:`horizon`).
        delta: confidence level in (0, 1).

    >>> round(log_factor(1.0, 2, 10, 0.5), 6)  # log(80)
    4.382027
    """
    r = v.positive_real("rho", rho)
    k = v.count("n_arms", n_arms)
    t = v.count("horizon", horizon_)
    d = v.open_unit("delta", delta)
    return r * _log_ratio(k, t, d)


def _log_ratio(k: int, t: int, d: float) -> float:
    """log(2 K T_Lambda / delta), the logarithm of ell_Lambda (``sec:theory``) and of rho_min (``lem:ci``), for
    checked arguments, without overflow: the float quotient 2 K T / delta when it is finite (every delta above about
    2 K T / 1.8e308), else log(2 K T) - log(delta), since 2 K T / delta itself leaves the floats (delta = 1e-308,
    or a subnormal delta) though its logarithm is about 710 to 760.

    >>> round(_log_ratio(3, 20000, 1e-308), 3)   # 2 K T / delta = 1.2e313 overflows; its logarithm does not
    720.891
    """
    q = 2 * k * t / d
    return math.log(q) if math.isfinite(q) else math.log(2 * k * t) - math.log(d)


def radius_scalar(n, ell):
    r""":math:`G_\Lambda(n, \delta) = \sqrt{\ell_\Lambda / n}` for one count, unchecked: the formula itself.

    Plain Python on purpose: :func:`radius` calls it for an int, and ``simulate`` compiles this same function
    with numba for its fast engine, so the radius is written once.
    """
    return math.sqrt(ell / n)


def radius(n, ell: float):
    r"""Statistical radius G_Lambda(n, delta) (``subsec:confidence-bounds``).

    .. math::

        G_\Lambda(n, \delta) := \sqrt{\frac{\ell_\Lambda}{n}}, \qquad n \ge 1.

    This is the one radius of the toolkit: the policies call it, the bounds call it.

    Args:
        n: a count n >= 1 (int) or an integer array of counts.
        ell: ell_Lambda > 0 (see :func:`log_factor`).

    Returns:
        A float for an int ``n``, an array of floats for an array.

    >>> radius(4, 1.0)
    0.5
    """
    if isinstance(n, (int, np.integer)) and not isinstance(n, bool):
        if n < 1:
            raise TaccInputError("n", n, "must be >= 1")
        return radius_scalar(n, ell)
    arr = np.asarray(n)
    if arr.size and arr.min() < 1:
        raise TaccInputError("n", n, "every count must be >= 1")
    return np.sqrt(ell / arr.astype(float))


def n_gamma(ell: float, gamma: float) -> int:
    r"""Nominal threshold count N_gamma (``sec:theory``, ``ass:mono-cert``).

    .. math::

        N_\gamma := \min\{ n \ge 1 : G_\Lambda(n, \delta) < \gamma \}.

    Computed from the definition (the first ``n`` at which :func:`radius` is below ``gamma``), so an
    engine that tests ``N < n_gamma`` makes exactly the decision "G(N) >= gamma". When ell / gamma^2 is an
    integer m, G(m) = gamma exactly and N_gamma = m + 1, not ceil(ell / gamma^2) = m.

    Args:
        ell: ell_Lambda > 0.
        gamma: threshold gamma > 0.

    >>> n_gamma(4.0, 0.5)   # ell / gamma^2 = 16 is an integer: G(16) = 0.5 is not < 0.5
    17
    """
    e = v.positive_real("ell", ell)
    g = v.positive_real("gamma", gamma)
    found = first_true(lambda n: radius(n, e) < g, start=1)
    if found == math.inf:
        raise TaccInputError("gamma", gamma, f"is too small: N_gamma would exceed 2**53 for ell = {e}")
    return int(found)


def min_rho(subgaussian_scale: float, n_arms: int, horizon_: int, delta: float) -> float:
    r"""Smallest rho for which the union bound in the proof of ``lem:ci`` gives probability >= 1 - delta.

    .. math::

        \rho_{\min} = 2 \sigma^2 \left(1 + \frac{\log 2}{\log(2 K T_\Lambda / \delta)}\right).

    Derivation. For a sigma-sub-Gaussian sample mean of n draws (Gaussian noise of scale sigma; Bernoulli
    rewards are 1/2-sub-Gaussian by Hoeffding's lemma),
    :math:`P(|\hat\mu_n - \mu| > x) \le 2 \exp(-n x^2 / (2 \sigma^2))`.
    At x = G(n) = sqrt(ell / n) this is 2 exp(-ell / (2 sigma^2)), the same for every n. The proof of
    ``lem:ci`` takes a union over K arms, counts 1 <= n <= T_Lambda and the two fidelities:
    2 K T * 2 exp(-ell / (2 sigma^2)) <= delta  <=>  ell >= 2 sigma^2 log(4 K T / delta)
    <=>  rho log(2KT/delta) >= 2 sigma^2 (log 2 + log(2KT/delta)), which is the formula above.
    At rho = rho_min the failure probability bound equals delta exactly.

    Args:
        subgaussian_scale: sigma > 0 (1 for the paper's 1-sub-Gaussian noise, 1/2 for Bernoulli).
        n_arms: K >= 1.
        horizon_: T_Lambda >= 1.
        delta: confidence level in (0, 1).

    >>> round(min_rho(1.0, 2, 1000, 0.05), 6)
    2.122792
    """
    s = v.positive_real("subgaussian_scale", subgaussian_scale)
    k = v.count("n_arms", n_arms)
    t = v.count("horizon", horizon_)
    d = v.open_unit("delta", delta)
    return 2.0 * s * s * (1.0 + math.log(2.0) / _log_ratio(k, t, d))
