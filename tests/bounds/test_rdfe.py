"""RDFE oracle costs, r_k, ass:app-rdfe-dyadic and thm:app-rdfe-regret."""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from bounds import (TaccInputError, power_decay, radius, rdfe_dyadic_constant, rdfe_high_cost, rdfe_high_count,
                    rdfe_low_cost, rdfe_low_count, rdfe_oracle_cost, rdfe_phase_index, rdfe_regret_bound,
                    residual_decay)
from tests.bounds._relabel import relabelled


def test_values():
    # ell = 1, eps = 0.5: sqrt(1/n) <= 1/16 first at n = 256
    assert rdfe_high_count(0.5, 1.0) == 256
    assert rdfe_high_cost(0.5, 1.0, 10.0) == 2560.0
    flat = power_decay([0.9, 0.5], zeta=0.0, r=0.5, signs=[1, 1])
    assert rdfe_low_cost(flat, 1, 0.5, 1.0, 2.0) == 512.0
    assert rdfe_oracle_cost(flat, 1, 0.5, 1.0, 2.0, 3.0) == 512.0
    assert [rdfe_phase_index(g) for g in (0.3, 1.0, 2.0, 5.0)] == [3, 1, 1, 1]
    assert rdfe_phase_index(0.0) == math.inf
    # the smallest subnormal gap 2^-1074: Delta / 2 underflows to 0, r_k = 1075 (Delta / 2 = 2^-1075 exactly)
    assert rdfe_phase_index(5e-324) == 1075 and rdfe_phase_index(2.0 ** -1073) == 1074
    b = rdfe_regret_bound(flat, [0.0, 5e-324], ell=1.0, cost_low=1.0, cost_high=2.0)
    assert b.phase_index == (math.inf, 1075) and b.total >= b.phase_sum_total >= 0


def test_residual_mismatch_makes_low_cost_infinite():
    m = residual_decay([0.6, 0.5], zeta=0.4, r=0.75, signs=[1, 1], b=0.05)
    assert rdfe_low_cost(m, 1, 0.4, 1.0, 1.0) == math.inf       # lim B = 0.05 = eps / 8
    assert rdfe_low_cost(m, 1, 0.41, 1.0, 1.0) < math.inf
    assert rdfe_oracle_cost(m, 1, 0.4, 1.0, 1.0, 5.0) == rdfe_high_cost(0.4, 1.0, 5.0)


@given(st.floats(0.01, 3.0), st.floats(0.05, 1.0), st.floats(0.5, 30.0))
def test_low_count_is_the_minimum(zeta, eps, ell):
    m = power_decay([0.9, 0.5], zeta=zeta, r=0.5, signs=[1, -1])
    n = rdfe_low_count(m, 1, eps, ell)
    def ok(c):
        return radius(c, ell) + m.mismatch_bound(1, c) <= eps / 8
    assert ok(n) and (n == 1 or not ok(n - 1))


def test_dyadic_constant_definition():
    m = power_decay([0.9, 0.5, 0.8], zeta=0.3, r=0.5, signs=[1, 1, -1])
    for k, g in ((1, 0.4), (2, 0.1)):
        r_k = rdfe_phase_index(g)
        costs = [rdfe_oracle_cost(m, k, 2.0**-r, 2.0, 1.0, 10.0) for r in range(1, r_k + 1)]
        assert rdfe_dyadic_constant(m, k, g, 2.0, 1.0, 10.0) == pytest.approx(sum(costs) / costs[-1])
        assert rdfe_dyadic_constant(m, k, g, 2.0, 1.0, 10.0) >= 1


@given(st.lists(st.floats(0.0, 1.0), min_size=2, max_size=6), st.floats(0.0, 1.0), st.floats(0.5, 20.0))
def test_bound_properties(mu, zeta, ell):
    m = power_decay(mu, zeta=zeta, r=0.5, signs=[1] * len(mu))
    gaps = list(max(mu) - np.array(mu))
    b = rdfe_regret_bound(m, gaps, ell=ell, cost_low=1.0, cost_high=20.0)
    assert b.total >= b.phase_sum_total * (1 - 1e-12) >= 0
    assert all(c >= 1 for c in b.dyadic_constant)
    for g, t, pc in zip(gaps, b.terminal_cost, b.corrected_cost, strict=True):
        assert pc >= t                     # c*(min(Delta/4, 1/2)) >= c*(eps_{r_k})
        if 0 < g <= 2:
            assert b.paper_form_valid


def test_paper_form_holds_at_delta_two_exactly():
    # Delta = 2: r_k = 1 and eps_1 = 1/2 = Delta / 4, so c*(eps_{r_k}) = c*(Delta / 4) (found by proofs_checks)
    m = power_decay([2.0, 0.0], zeta=0.0, r=0.5, signs=[1, 1])
    b = rdfe_regret_bound(m, [0.0, 2.0], ell=1.0, cost_low=1.0, cost_high=2.0)
    assert b.paper_form_valid[1] and b.terminal_cost[1] == b.paper_cost[1]


def test_paper_form_fails_for_large_gaps():
    # Delta = 3 (Set B scale): r_k = 1, eps_1 = 1/2 < Delta/4 = 0.75, so c*(eps_1) > c*(Delta/4)
    m = power_decay([3.0, 0.0], zeta=0.0, r=0.5, signs=[1, 1])
    b = rdfe_regret_bound(m, [0.0, 3.0], ell=1.0, cost_low=1.0, cost_high=2.0)
    assert not b.paper_form_valid[1]
    assert b.terminal_cost[1] > b.paper_cost[1]
    assert b.c2 == 3.0


@pytest.mark.parametrize("fn,args,field", [
    (rdfe_high_count, (0.0, 1.0), "eps"),
    (rdfe_high_count, (0.5, -1.0), "ell"),
    (rdfe_high_cost, (0.5, 1.0, 0.0), "cost_high"),
    (rdfe_phase_index, (-0.1,), "gap"),
])
def test_invalid(fn, args, field):
    with pytest.raises(TaccInputError) as info:
        fn(*args)
    assert info.value.field == field


def test_invalid_gap_list():
    m = power_decay([0.9, 0.5], zeta=0.1, r=0.5, signs=[1, 1])
    with pytest.raises(TaccInputError) as info:
        rdfe_regret_bound(m, [0.0], ell=1.0, cost_low=1.0, cost_high=2.0)
    assert info.value.field == "gaps"


def test_low_counts_searched_once_per_label_and_accuracy_equal_one_by_one():
    """rdfe_low_counts searches once per distinct (B_k label, eps) pair, repeated pairs and arms sharing B_k
    included; the counts equal a model that gives no labels and one search per pair; a wrong labelling is seen.
    rdfe_regret_bound's low and high costs at Delta_k / 4 are rdfe_low_cost and rdfe_high_cost."""
    from bounds._rdfe import rdfe_low_counts

    m = residual_decay([0.9, 0.5, 0.6, 0.4, 0.7], zeta=0.3, r=0.5, signs=[1, -1, 1, 1, -1],
                       b=[0.0, 0.001, 0.0, 0.001, 0.004], n0=1)
    unlabelled = relabelled(m, None)
    arms = [0, 2, 1, 3, 4, 0, 2, 4, 1, 0]
    eps = [0.2, 0.2, 0.2, 0.2, 0.2, 0.05, 0.05, 0.05, 0.1, 0.2]
    one_by_one = [rdfe_low_count(unlabelled, k, e, 2.0) for k, e in zip(arms, eps, strict=True)]
    assert rdfe_low_counts(m, arms, eps, 2.0).tolist() == rdfe_low_counts(unlabelled, arms, eps, 2.0).tolist() \
        == one_by_one
    assert rdfe_low_counts(relabelled(m, [0] * 5), arms, eps, 2.0).tolist() != one_by_one
    assert rdfe_low_counts(m, [], [], 2.0).tolist() == []
    gaps = [0.0, 0.4, 0.3, 0.5, 0.2]
    r = rdfe_regret_bound(m, gaps, ell=2.0, cost_low=1.5, cost_high=20.0)
    assert r.low_cost == (0.0,) + tuple(rdfe_low_cost(m, k, gaps[k] / 4, 2.0, 1.5) for k in range(1, 5))
    assert r.high_cost == (0.0,) + tuple(rdfe_high_cost(gaps[k] / 4, 2.0, 20.0) for k in range(1, 5))
    assert r.paper_cost == tuple(min(lo, hi) for lo, hi in zip(r.low_cost, r.high_cost, strict=True)) != r.low_cost


@pytest.mark.parametrize("n_pairs", [10, 300])
def test_low_and_high_counts_equal_by_either_search(monkeypatch, n_pairs):
    """Few rows are searched together from 1, many by their order (bounds._rdfe._ONE_PASS_ROWS): the counts are
    the same minima either way, on both sides of the switch (300 pairs: more distinct rows than it)."""
    import bounds._rdfe as rdfe_module
    from bounds._rdfe import rdfe_high_counts, rdfe_low_counts

    m = residual_decay([0.9, 0.5, 0.6, 0.4, 0.7], zeta=0.3, r=0.5, signs=[1, -1, 1, 1, -1],
                       b=[0.0, 0.001, 0.0, 0.001, 0.004], n0=1)
    rng = np.random.default_rng(n_pairs)
    arms = rng.integers(0, 5, n_pairs).tolist()
    eps = (10 ** rng.uniform(-3.0, -0.3, n_pairs)).tolist()
    got = {}
    for at_once in (0, 10**9):
        monkeypatch.setattr(rdfe_module, "_ONE_PASS_ROWS", at_once)
        got[at_once] = (rdfe_low_counts(m, arms, eps, 2.0).tolist(), rdfe_high_counts(eps, 2.0).tolist())
    assert got[0] == got[10**9]
    assert got[0][0][:5] == [rdfe_low_count(m, k, e, 2.0) for k, e in zip(arms[:5], eps[:5], strict=True)]
    assert math.inf in got[0][0] and len(set(got[0][1])) > 5      # residual arms never finish; counts vary
