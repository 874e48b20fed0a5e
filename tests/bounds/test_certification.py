"""certification_time tau_k(gamma) (eq:analysis-cert-time): brute force on a window, inf as a value."""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from bounds import (TaccInputError, TableLowFidelity, certification_time, checkpoint_profile, power_decay,
                    residual_decay)


def brute(model, k, mu_star, gamma, limit):
    n = np.arange(1, limit + 1)
    gap = mu_star - model.avg_mean_low(k, n) - model.mismatch_bound(k, n)
    hits = np.flatnonzero(gap >= 2 * gamma)
    return int(hits[0]) + 1 if hits.size else None


def test_hand_value():
    # Delta = 0.4, s = +1: Delta_L(n) = 0.4 - 2 * 0.2 * P(n)/n, P(n)/n <= 0.5 first at n = 11
    m = power_decay([0.9, 0.5], zeta=0.2, r=0.5, signs=[1, 1])
    assert certification_time(m, 1, 0.9, 0.1) == 11
    def p(n):
        return sum(t**-0.5 for t in range(1, n + 1)) / n
    assert p(11) <= 0.5 < p(10)


def test_negative_sign_is_certified_at_once():
    # s = -1: mean_low + B = mu exactly, Delta_L(n) = Delta for every n
    m = power_decay([0.9, 0.5], zeta=0.2, r=0.5, signs=[1, -1])
    assert certification_time(m, 1, 0.9, 0.1) == 1


def test_infinite_when_gap_too_small():
    m = power_decay([0.9, 0.75], zeta=0.2, r=0.5, signs=[1, 1])
    assert certification_time(m, 1, 0.9, 0.1) == math.inf      # Delta = 0.15 < 2 gamma
    # residual mismatch b + |b| = 0.1 eats a gap of 0.0508 (llm-residual): never certified
    r = residual_decay([0.5568, 0.5060], zeta=0.4, r=0.75, signs=[-1, 1], b=0.05)
    assert certification_time(r, 1, 0.5568, 0.025) == math.inf


@pytest.mark.parametrize("prefix", [2, 8])
def test_exact_tie_at_two_gamma_is_certified(prefix):
    """Delta^(L)(n) = 2 gamma exactly counts (eq:analysis-cert-time has >=). Dyadic table: means 0.5 then 0.25
    for arm 1 (mu^(H) = 0.25), U = 0.25 from n = 1, so Delta^(L)(n) = 0.25 - 0.5 / n = 0.125 = 2 gamma at
    n = 4 exactly; > would give 5. The tie lies past the table (bisection) for prefix 2, inside it for 8."""
    means = [[0.5] * prefix, [0.5] + [0.25] * (prefix - 1)]
    certs = [[0.0] * prefix, [0.25] * prefix]
    m = TableLowFidelity([0.5, 0.25], mean_low=means, certificate=certs)
    assert float(m.avg_mean_low(1, 4)) + float(m.mismatch_bound(1, 4)) == 0.375          # exact in floats
    assert certification_time(m, 1, 0.5, 0.0625) == 4


def test_tie_for_best_arm_is_never_certified():
    m = power_decay([0.9, 0.9], zeta=0.2, r=0.5, signs=[1, -1])
    assert certification_time(m, 1, 0.9, 0.01) == math.inf


def test_far_past_the_horizon():
    # certification needs ~10^8 low queries: found by search, not by an array of that length
    m = power_decay([0.9, 0.5], zeta=1.0, r=0.5, signs=[1, 1])
    t = certification_time(m, 1, 0.9, 0.1999)
    assert 10**6 < t < 10**12
    def gap(n):
        return 0.4 - 2.0 * m.mismatch_bound(1, n)
    assert gap(t) >= 0.3998 > gap(t - 1)


@st.composite
def instances(draw):
    kind = draw(st.sampled_from(["power", "residual", "table", "checkpoint"]))
    K = draw(st.integers(2, 4))
    mu = draw(st.lists(st.floats(0.0, 1.0), min_size=K, max_size=K))
    signs = draw(st.lists(st.sampled_from([-1, 1]), min_size=K, max_size=K))
    if kind == "power":
        return power_decay(mu, zeta=draw(st.floats(0, 1)), r=draw(st.floats(0.2, 1.5)), signs=signs)
    if kind == "residual":
        return residual_decay(mu, zeta=draw(st.floats(0, 1)), r=draw(st.floats(0.2, 1.5)), signs=signs,
                              b=draw(st.floats(-0.1, 0.1)), n0=draw(st.integers(0, 5)))
    if kind == "checkpoint":
        q = [4, 8, 16, 32]
        return checkpoint_profile(mu, q=q, gap=draw(st.lists(st.floats(0, 0.3), min_size=4, max_size=4)),
                                  q_max=draw(st.sampled_from(q)), signs=signs)
    L = draw(st.integers(1, 20))
    means = [draw(st.lists(st.floats(0, 1), min_size=L, max_size=L)) for _ in range(K)]
    cert = np.cumsum(np.abs(np.array(means) - np.array(mu)[:, None]), axis=1)
    return TableLowFidelity(mu, mean_low=means, certificate=cert)


@given(instances(), st.floats(0.005, 0.3), st.data())
def test_matches_brute_force(model, gamma, data):
    k = data.draw(st.integers(0, model.n_arms - 1))
    mu_star = float(model.mu_high.max())
    t = certification_time(model, k, mu_star, gamma)
    b = brute(model, k, mu_star, gamma, 5000)
    if b is not None:
        assert t == b
    else:
        assert t > 5000


@pytest.mark.parametrize("args,field", [((5, 0.9, 0.1), "k"), ((1, 0.9, 0.0), "gamma"),
                                        ((1, float("nan"), 0.1), "mu_star")])
def test_invalid(args, field):
    m = power_decay([0.9, 0.5], zeta=0.2, r=0.5, signs=[1, 1])
    with pytest.raises(TaccInputError) as info:
        certification_time(m, *args)
    assert info.value.field == field


# ---- many arms at once: certification_times, every arm in shared vector calls, against the brute force
from bounds._certification import certification_times  # noqa: E402


@given(instances(), st.floats(0.005, 0.3))
def test_certification_times_match_brute_force_for_every_arm(model, gamma):
    mu_star = float(model.mu_high.max())
    got = certification_times(model, mu_star, gamma).tolist()
    for k in range(model.n_arms):
        b = brute(model, k, mu_star, gamma, 5000)
        assert got[k] == (b if b is not None else got[k]) and (b is not None or got[k] > 5000)


def test_instance_certification_times_is_certification_time_per_arm():
    from bounds import build_instance, instance_certification_times, load_config

    for name in ("set-a", "llm-vanishing", "checkpoint"):
        c = load_config(name)
        inst = build_instance(c.instance)
        got = instance_certification_times(inst, c.params.gamma)
        assert got[inst.best_arm] == math.inf
        assert got == tuple(math.inf if k == inst.best_arm else certification_time(inst.low, k, inst.mu_star,
                                                                                  c.params.gamma)
                            for k in range(inst.n_arms))
