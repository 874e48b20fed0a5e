"""Hypothesis strategies for instances and parameters, public so users can write their own property tests.

``configs()`` draws a complete, valid configuration (the same object ``bounds.load_config`` returns): small K,
either noise model, every low-fidelity model of docs/design.md section 5, and parameters in the range where thresholds,
continuation, high-fidelity confirmation and RDFE phases all happen within a small budget.

>>> from hypothesis import given
>>> from certify.strategies import configs
>>> @given(configs())
... def test_two_arms_or_more(config):
...     assert len(config.instance.mu_high) >= 2
"""

from __future__ import annotations

import math
from dataclasses import replace

from hypothesis import strategies as st

from bounds import Config, cumulative_deviation, parse_config

__all__ = ["LOW_MODELS", "NOISE_MODELS", "BREAKABLE", "means", "low_models", "configs", "targeted_configs",
           "broken_configs", "deterministic_configs"]

#: the low-fidelity models of docs/design.md section 5 (``[instance.low] model``), every one drawn by ``configs()``.
LOW_MODELS = ("power_decay", "residual_decay", "checkpoint", "table", "frozen")
#: the noise models of ``[instance] noise``, both drawn by ``configs()``.
NOISE_MODELS = ("gaussian", "bernoulli")

_unit = st.floats(0.0, 1.0, allow_nan=False)


@st.composite
def means(draw, n_arms: int, bernoulli: bool):
    """K high-fidelity means; ties for the best arm and (Bernoulli) means at 0 and 1 are drawn on purpose."""
    lo, hi = (0.0, 1.0) if bernoulli else (-1.0, 1.0)
    base = st.floats(lo, hi, allow_nan=False).map(lambda x: round(x, 3))
    pool = draw(st.lists(base, min_size=1, max_size=n_arms))
    edge = st.sampled_from([0.0, 1.0]) if bernoulli else base
    return [draw(st.one_of(st.sampled_from(pool), base, edge)) for _ in range(n_arms)]


def _signs(n_arms):
    return st.lists(st.sampled_from([-1, 1]), min_size=n_arms, max_size=n_arms)


@st.composite
def low_models(draw, n_arms: int, mu_high, bernoulli: bool, models=LOW_MODELS):
    """The ``[instance.low]`` table of one of ``models`` for these means."""
    model = draw(st.sampled_from(models))
    zeta = st.floats(0.0, 1.0).map(lambda x: round(x, 3))
    r = st.floats(0.2, 1.5).map(lambda x: round(x, 3))
    if model == "power_decay":
        return {"model": model, "zeta": draw(zeta), "r": draw(r), "signs": draw(_signs(n_arms))}
    if model == "residual_decay":
        return {"model": model, "zeta": draw(zeta), "r": draw(r), "signs": draw(_signs(n_arms)),
                "b": draw(st.floats(-0.1, 0.1).map(lambda x: round(x, 3))), "n0": draw(st.sampled_from([0, 1, 5]))}
    if model == "checkpoint":
        q = sorted(draw(st.sets(st.integers(1, 60), min_size=1, max_size=4)))
        gap = [draw(st.floats(0.0, 0.3).map(lambda x: round(x, 3))) for _ in q]
        return {"model": model, "q": q, "gap": gap, "q_max": draw(st.integers(q[0], q[-1] + 10)),
                "signs": draw(_signs(n_arms))}
    if model == "frozen":
        return {"model": model, "values": [draw(_unit if bernoulli else st.floats(-1.5, 1.5).map(
            lambda x: round(x, 3))) for _ in range(n_arms)]}
    length = draw(st.integers(1, 6))
    rows, certs = [], []
    for m in mu_high:
        row = [round(m + draw(st.floats(-0.3, 0.3)), 3) for _ in range(length)]
        if bernoulli:
            row = [min(1.0, max(0.0, x)) for x in row]
        rows.append(row)
        certs.append(cumulative_deviation(m, row, draw(st.sampled_from([0.0, 1e-9]))))   # valid, tight or not
    return {"model": "table", "mean_low": rows, "certificate": certs}


@st.composite
def configs(draw, n_arms=st.integers(2, 6), noise=st.sampled_from(NOISE_MODELS), models=LOW_MODELS,
            budget=st.integers(40, 4000)) -> Config:
    """A valid configuration (see the module docstring)."""
    k = draw(n_arms)
    nz = draw(noise)
    bern = nz == "bernoulli"
    mu = draw(means(k, bern or "residual_decay" in models and len(models) == 1))
    low = draw(low_models(k, mu, bern, models))
    if low["model"] == "residual_decay" and not all(0 <= m <= 1 for m in mu):
        mu = [min(1.0, max(0.0, m)) for m in mu]
    cost_high = draw(st.sampled_from([2.0, 5.0, 10.0, 25.0]))
    data = {
        "name": "generated",
        "instance": {"mu_high": mu, "seed": draw(st.integers(0, 3)),
                     "noise": {"model": "bernoulli"} if bern else
                     {"model": "gaussian", "sigma": draw(st.sampled_from([0.1, 0.5, 1.0]))},
                     "low": low},
        "costs": {"low": 1.0, "high": cost_high},
        "params": {"budget": draw(budget), "delta": draw(st.sampled_from([0.05, 0.1, 0.3])),
                   "rho": draw(st.sampled_from([0.01, 0.05, 0.2, 1.0])),
                   "gamma": draw(st.sampled_from([0.05, 0.1, 0.2, 0.4])),
                   "eta": draw(st.sampled_from([1e-4, 0.01, 0.2])),
                   "s0": draw(st.integers(0, int(cost_high)))},
    }
    return parse_config(data)


@st.composite
def targeted_configs(draw, n_arms=st.integers(2, 6), classes=("A", "B", "C"),
                     regimes=("decay", "outlier", "confirm")) -> Config:
    """Instances built so that every arm class of ``eq:analysis-arm-partition`` occurs, C^d included.

    Each suboptimal arm gets a target class (A, B or C); ``bounds`` then computes the actual classes, whatever
    the target. Gaussian noise with a small sigma keeps N_gamma small (tens of counts). Two regimes:

    - ``decay``: power decay with signs +1, rho = "min" or a fraction of it. With s_k = +1,
      Delta_k^(L)(n) = Delta_k - 2 zeta P(n) / n (P(n) = sum_{tau <= n} tau^-r), so
      Delta_k = 2 gamma + zeta (P(t)/t + P(t-1)/(t-1)) puts tau_k(gamma) at t. A: t <= N_gamma; C: N_gamma < t
      <= N_gamma + S0; B: Delta_k < 2 gamma. C arms here end in C^u: they stop being selected before their low
      count reaches N_gamma (selection needs Delta^(L)(n) <= 2 G(n), certification 2 gamma > 2 G(n)).
    - ``outlier``: a table model whose low means are exact except one query t of a C arm, far below
      (mu - D), with the certificate U = D from t on. Then B_k(n) = D / t up to t and D / n after, tau_k = t, the
      arm stays plausible until t, and the continuation test passes: the arm reaches tau_k by continuation with
      no high query (C^d). rho = "min".
    - ``confirm``: a frozen low source biased upward (B arms only): every suboptimal arm needs high-fidelity
      confirmation, with gaps that put 1 + ceil(4 ell / Delta^2) between 5 and 60, and rho = "min" or a fraction
      of it, so the high-fidelity counts come close to their bound.
    """
    from bounds import horizon, log_factor, min_rho, n_gamma, power_sum

    regime = draw(st.sampled_from(regimes))
    if regime == "confirm":
        return draw(_confirm_configs(n_arms))
    k = draw(n_arms)
    sigma = draw(st.sampled_from([0.05, 0.1, 0.2]))
    cost_high = draw(st.sampled_from([5.0, 10.0, 25.0]))
    s0 = draw(st.integers(1, int(cost_high)))
    budget = draw(st.integers(300, 6000))
    delta = draw(st.sampled_from([0.05, 0.1]))
    T = horizon(budget, 1.0)
    rho_min = min_rho(sigma, k, T, delta)
    rho_scale = draw(st.sampled_from([1.0, 0.25, 0.1])) if regime == "decay" else 1.0
    rho = "min" if rho_scale == 1.0 else round(rho_scale * rho_min, 8)
    ell = log_factor(rho_min if isinstance(rho, str) else rho, k, T, delta)
    if regime == "decay":
        gamma = draw(st.sampled_from([0.05, 0.1, 0.2]))
    else:
        gamma = round(math.sqrt(ell / (draw(st.integers(10, 40)) + 0.5)), 6)
    ng = n_gamma(ell, gamma)
    mu_star = 0.5
    targets = [draw(st.sampled_from(classes)) for _ in range(k - 1)]
    eta = draw(st.sampled_from([1e-4, 1e-3, 1e-2]))
    if regime == "decay":
        zeta = draw(st.sampled_from([0.1, 0.25, 0.5, 1.0]))
        r = draw(st.sampled_from([0.5, 0.75, 1.0]))

        def avg(t):
            return float(power_sum(t, r, 0.0)) / t

        gaps = []
        for target in targets:
            if target == "B":
                gaps.append(draw(st.floats(0.0, 2 * gamma, exclude_max=True).map(lambda x: round(x, 4))))
            else:
                lo, hi = (1, ng) if target == "A" else (ng + 1, ng + s0)
                t = draw(st.integers(lo, hi))
                gaps.append(2 * gamma + zeta * (avg(t) + (avg(t - 1) if t > 1 else 2 * avg(1))))
        mu = [mu_star] + [mu_star - g for g in gaps]
        low = {"model": "power_decay", "zeta": zeta, "r": r, "signs": [1] * k}
    else:
        spots: list[tuple[int, float] | None] = [None]
        mu = [mu_star]
        for target in targets:
            if target == "B":
                mu.append(mu_star - draw(st.floats(0.0, 2 * gamma, exclude_max=True).map(lambda x: round(x, 4))))
                spots.append(None)
            elif target == "A":
                mu.append(mu_star - round(2 * gamma * draw(st.sampled_from([1.05, 1.5, 3.0])), 6))
                spots.append(None)
            else:
                gap = round(2 * gamma * draw(st.sampled_from([1.02, 1.1, 1.25])), 6)
                t = draw(st.integers(ng + 1, ng + s0))
                mu.append(mu_star - gap)
                spots.append((t, t * (gap + draw(st.sampled_from([0.1, 0.5, 1.0])))))
        length = max([t for t, _ in filter(None, spots)], default=1) + 1
        rows, certs = [], []
        for m, spot in zip(mu, spots, strict=True):
            row, cert = [m] * length, [1e-9] * length
            if spot is not None:
                t, D = spot
                row[t - 1] = m - D
                cert = [1e-9] * (t - 1) + [D + 1e-9] * (length - t + 1)
            rows.append(row)
            certs.append(cert)
        low = {"model": "table", "mean_low": rows, "certificate": certs}
    order = draw(st.permutations(range(k)))

    def perm(xs):
        return [xs[i] for i in order]

    if low["model"] == "power_decay":
        low["signs"] = perm(low["signs"])
    else:
        low["mean_low"], low["certificate"] = perm(low["mean_low"]), perm(low["certificate"])
    data = {
        "name": f"targeted-{regime}",
        "instance": {"mu_high": perm(mu), "seed": 0, "noise": {"model": "gaussian", "sigma": sigma}, "low": low},
        "costs": {"low": 1.0, "high": cost_high},
        "params": {"budget": budget, "delta": delta, "rho": rho, "gamma": gamma, "eta": eta, "s0": s0},
    }
    return parse_config(data)


@st.composite
def _confirm_configs(draw, n_arms):
    from bounds import horizon, log_factor, min_rho

    k = draw(n_arms)
    sigma = draw(st.sampled_from([0.05, 0.1, 0.2]))
    cost_high = draw(st.sampled_from([2.0, 5.0]))
    budget = draw(st.integers(2000, 20000))
    delta = draw(st.sampled_from([0.05, 0.1]))
    T = horizon(budget, 1.0)
    rho_min = min_rho(sigma, k, T, delta)
    rho = draw(st.sampled_from([1.0, 0.25, 0.1])) * rho_min
    ell = log_factor(rho, k, T, delta)
    mu = [0.5] + [0.5 - math.sqrt(4 * ell / draw(st.integers(4, 60))) for _ in range(k - 1)]
    values = [m + draw(st.sampled_from([0.3, 0.6, 1.0])) for m in mu]
    data = {
        "name": "targeted-confirm",
        "instance": {"mu_high": mu, "seed": 0, "noise": {"model": "gaussian", "sigma": sigma},
                     "low": {"model": "frozen", "values": values}},
        "costs": {"low": 1.0, "high": cost_high},
        "params": {"budget": budget, "delta": delta, "rho": rho, "gamma": draw(st.sampled_from([0.1, 0.2, 0.4])),
                   "eta": draw(st.sampled_from([1e-4, 1e-2, 0.2])), "s0": draw(st.integers(0, int(cost_high)))},
    }
    return parse_config(data)


#: assumption keys :func:`broken_configs` can break.
BREAKABLE = ("ass:mono-cert", "ass:plugin", "cap:S0")


def _table_rows(mu, rows_dev, slack=1e-9):
    """Table low means mu + dev and the certificate: the cumulative |dev| (+ slack)."""
    means, certs = [], []
    for m, dev in zip(mu, rows_dev, strict=True):
        means.append([m + d for d in dev])
        run, cert = 0.0, []
        for d in dev:
            run += abs(d)
            cert.append(round(run + slack, 12))
        certs.append(cert)
    return means, certs


@st.composite
def broken_configs(draw, assumption: str) -> Config:
    """Instances that deliberately break one assumption (a key of :data:`BREAKABLE`), the others intact.

    - ``ass:mono-cert``: an arm whose low means first look worse (mu - d for m queries) and then better
      (mu + e, e < d): Delta^(L) starts at Delta >= 2 gamma and falls below 2 gamma before N_gamma + S0.
    - ``ass:plugin``: the best arm's low source is biased down by D over every count it can reach
      (N_gamma + S0 + 1), and its certificate covers only a fraction f < 1 of the bias, so its low-fidelity
      interval misses mu^*. (A certificate that is too small only early is healed by B_k = sup_{s >= n} U(s)/s
      when it is valid later: the bias must last.)
    - ``cap:S0``: a targeted instance with S0 lambda_L > lambda_H.

    The check functions of ``certify`` decide whether the assumption really fails.
    """
    from bounds import horizon, log_factor, min_rho, n_gamma

    if assumption not in BREAKABLE:
        raise ValueError(f"assumption must be one of {BREAKABLE}")
    if assumption == "cap:S0":
        c = draw(targeted_configs())
        high = c.costs.high
        s0 = draw(st.integers(int(high) + 1, 4 * int(high)))
        return replace(c, name="broken-cap", params=replace(c.params, s0=s0))
    k = draw(st.integers(2, 4))
    sigma = draw(st.sampled_from([0.05, 0.1, 0.2]))
    cost_high = draw(st.sampled_from([5.0, 10.0, 25.0]))
    s0 = draw(st.integers(1, int(cost_high)))
    budget = draw(st.integers(500, 6000))
    delta = 0.05
    T = horizon(budget, 1.0)
    ell = log_factor(min_rho(sigma, k, T, delta), k, T, delta)
    gamma = round(math.sqrt(ell / (draw(st.integers(5, 30)) + 0.5)), 6)
    ng = n_gamma(ell, gamma)
    mu_star = 0.5
    gaps = [0.0] + [round(2 * gamma * draw(st.sampled_from([0.5, 1.05, 1.5, 3.0])), 6) for _ in range(k - 1)]
    mu = [mu_star - g for g in gaps]
    length = ng + s0 + 2
    devs = [[0.0] * length for _ in range(k)]
    scale = 1.0
    if assumption == "ass:mono-cert":
        j = draw(st.integers(1, k - 1))
        mu[j] = mu_star - round(2 * gamma * draw(st.sampled_from([1.02, 1.1, 1.3])), 6)
        m = draw(st.integers(1, max(1, ng // 2)))
        d = draw(st.sampled_from([0.5, 1.0, 2.0]))
        e = round(d * draw(st.sampled_from([0.3, 0.6, 0.9])), 6)
        devs[j] = [-d] * m + [e] * (length - m)
    else:
        D = draw(st.sampled_from([0.2, 0.5, 1.0]))
        scale = draw(st.sampled_from([0.0, 0.2, 0.5]))
        devs[0] = [-D] * (length - 1) + [0.0]   # exact past N_gamma + S0 + 1: no tail slope to heal B
    means, certs = _table_rows(mu, devs)
    if assumption == "ass:plugin":
        certs[0] = [round(scale * c, 12) for c in certs[0]]
    data = {
        "name": f"broken-{assumption.split(':')[-1]}",
        "instance": {"mu_high": mu, "seed": 0, "noise": {"model": "gaussian", "sigma": sigma},
                     "low": {"model": "table", "mean_low": means, "certificate": certs}},
        "costs": {"low": 1.0, "high": cost_high},
        "params": {"budget": budget, "delta": delta, "rho": "min", "gamma": gamma,
                   "eta": draw(st.sampled_from([1e-4, 1e-2])), "s0": s0},
    }
    return parse_config(data)


@st.composite
def deterministic_configs(draw, n_arms=st.integers(2, 5), budget=st.integers(40, 600)) -> Config:
    """Instances whose observations do not depend on the reward table: Bernoulli rewards with every high mean and
    every low mean (a table model) in {0, 1}, so relabelling the arms relabels every observation (the relation
    ``relabel`` of ``certify``). Each arm's certificate carries its own slack, so arms differ in B_k and exact
    ties of the index between different arms are rare (the relation detects and skips the runs that have one).
    """
    k = draw(n_arms)
    length = draw(st.integers(1, 6))
    mu = [draw(st.sampled_from([0.0, 1.0])) for _ in range(k)]
    rows = [[draw(st.sampled_from([0.0, 1.0])) for _ in range(length)] for _ in range(k)]
    certs = []
    for m, row in zip(mu, rows, strict=True):
        slack, run, cert = draw(st.integers(1, 999)) / 1013, 0.0, []
        for x in row:
            run += abs(x - m)
            cert.append(run + slack)
        certs.append(cert)
    cost_high = draw(st.sampled_from([2.0, 5.0]))
    data = {
        "name": "deterministic",
        "instance": {"mu_high": mu, "seed": 0, "noise": {"model": "bernoulli"},
                     "low": {"model": "table", "mean_low": rows, "certificate": certs}},
        "costs": {"low": 1.0, "high": cost_high},
        "params": {"budget": draw(budget), "delta": draw(st.sampled_from([0.05, 0.1])),
                   "rho": draw(st.sampled_from([0.0371, 0.113, 0.29])),
                   "gamma": draw(st.sampled_from([0.1, 0.2, 0.4])), "eta": draw(st.sampled_from([1e-3, 0.05])),
                   "s0": draw(st.integers(0, int(cost_high)))},
    }
    return parse_config(data)
