"""Hypothesis strategies for instances and parameters, public so users can write their own property tests.

``configs()`` draws a complete, valid configuration (the same object ``bounds.load_config`` returns): small K,
either noise model, every low-fidelity model of SPEC section 5, and parameters in the range where thresholds,
continuation, high-fidelity confirmation and RDFE phases all happen within a small budget.

>>> from hypothesis import given
>>> from certify.strategies import configs
>>> @given(configs())
... def test_two_arms_or_more(config):
...     assert len(config.instance.mu_high) >= 2
"""

from __future__ import annotations

from hypothesis import strategies as st

from bounds import Config, parse_config

__all__ = ["LOW_MODELS", "NOISE_MODELS", "means", "low_models", "configs"]

LOW_MODELS = ("power_decay", "residual_decay", "checkpoint", "table", "frozen")
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
        row = [draw(st.floats(-0.3, 0.3).map(lambda x, m=m: round(m + x, 3))) for _ in range(length)]
        if bernoulli:
            row = [min(1.0, max(0.0, x)) for x in row]
        dev, run = [], 0.0
        for x in row:
            run += abs(x - m)
            dev.append(round(run + 1e-9, 6))
        rows.append(row)
        certs.append(dev)
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
