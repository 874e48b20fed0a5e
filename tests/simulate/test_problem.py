"""Problem: every threshold comes from bounds; the B_k table is the model's B_k; the RDFE plan is the oracle's."""

import math

import numpy as np
import pytest
from hypothesis import given, settings

from bounds import (TaccInputError, certification_time, horizon, load_config, log_factor, min_rho,
                    n_gamma)
from certify.strategies import configs
from simulate import make_problem


@pytest.mark.parametrize("name", ["set-b", "llm-residual", "checkpoint"])
def test_thresholds_are_the_bounds_values(name):
    cfg = load_config(name)
    p = make_problem(cfg)
    T = horizon(cfg.params.budget, cfg.costs.low)
    rho = min_rho(p.instance.noise.subgaussian_scale, p.n_arms, T, cfg.params.delta)
    assert (p.horizon, p.rho) == (T, rho)
    assert p.ell == log_factor(rho, p.n_arms, T, cfg.params.delta)
    assert p.n_gamma == n_gamma(p.ell, cfg.params.gamma)
    k = 1 if p.instance.best_arm != 1 else 2
    assert p.tau[k] == certification_time(p.instance.low, k, p.instance.mu_star, cfg.params.gamma)
    assert p.tau[p.instance.best_arm] == math.inf


@pytest.mark.parametrize("delta", [1e-308, 5e-324])
def test_a_tiny_deltas_threshold_is_the_bounds(delta):
    """At a delta whose 2 K T / delta overflows a float the runs and the bound still share one ell and N_gamma."""
    from bounds import analyze, config_to_dict, parse_config
    d = config_to_dict(load_config("set-b"))
    d["params"]["delta"] = delta
    cfg = parse_config(d)
    p, a = make_problem(cfg), analyze(cfg)
    assert (p.rho, p.ell, p.n_gamma) == (a.rho, a.ell, a.n_gamma) and math.isfinite(p.ell)


def test_bias_table_is_the_models_bound_with_shared_rows():
    p = make_problem(load_config("checkpoint"))
    rows, row_of = p.bias_table
    n = np.arange(1, p.bias_length + 1)
    for k in range(p.n_arms):
        assert np.array_equal(rows[row_of[k]], p.instance.low.mismatch_bound(k, n))
    assert rows.shape[0] == len({tuple(r) for r in rows}) < p.n_arms   # equal rows are stored once
    assert all(np.all(np.diff(r) <= 0) for r in rows)                  # nonincreasing: the test in s is monotone
    assert p.bias_length == min(p.n_gamma, p.horizon) + p.s0 + 1


@settings(max_examples=25, deadline=None)
@given(configs())
def test_each_arm_reads_its_own_bound_and_one_class_is_tabulated_once(config):
    """Arms of one ``mismatch_bound_classes`` label share the row of the first of them, which is computed once: the
    table is the model's B_k arm by arm, and B_k is evaluated once per label (every arm when the model gives none)."""
    p = make_problem(config)
    model, n = p.instance.low, np.arange(1, p.bias_width + 1)
    calls = []
    own = type(model).mismatch_bound

    def counted(self, k, counts):
        calls.append(k)
        return own(self, k, counts)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(type(model), "mismatch_bound", counted)
        rows, row_of = p.bias_table
    reached = p.n_gamma <= p.units.budget // p.units.low   # a run can make the continuation test
    for k in range(p.n_arms):
        assert np.array_equal(rows[row_of[k]], own(model, k, n))
        if reached:
            assert p.continuation_end[row_of[k]] == own(model, k, np.array([p.n_gamma + p.s0]))[0]
    labels = model.mismatch_bound_classes()
    assert len(calls) == (p.n_arms if labels is None else len(set(labels.tolist())))
    ends = p.continuation_end
    assert rows.shape[0] == len({r.tobytes() + ends[i].tobytes() for i, r in enumerate(rows)})


def test_bias_outside_the_table_is_refused(config):
    p = make_problem(config())
    with pytest.raises(TaccInputError) as e:
        p.bias(0, p.bias_length + 1)
    assert e.value.field == "n"


def test_rdfe_plan_follows_the_oracle(config):
    p = make_problem(config())
    fid, target, bias_end, bias_one = p.rdfe_plan
    o = p.rdfe_oracle
    R = o.last_phase(p.horizon)
    assert fid.shape == (p.n_arms, R)
    assert o.high_count(R) > p.horizon >= o.high_count(R - 1)
    for k in range(p.n_arms):
        for r in range(1, R + 1):
            assert fid[k, r - 1] == o.fidelity(k, r) and target[k, r - 1] == o.target(k, r)
        assert bias_one[k] == o.bias(k, 1)


@pytest.mark.parametrize("name", ["set-a", "checkpoint"])
def test_a_budget_sweeps_shared_values_are_each_problems_own(name):
    # problems of one instance at other budgets reuse tau and zeta_k = B_k(1), and checkpoint units are
    # remembered across problems: each equals what the problem computes alone
    import dataclasses

    from simulate._problem import problem_of
    from simulate._record import default_checkpoints
    cfg = load_config(name)
    first = make_problem(cfg)
    assert first.static_bias.size == first.n_arms
    other = dataclasses.replace(cfg, params=dataclasses.replace(cfg.params, budget=cfg.params.budget * 2))
    shared, alone = problem_of(other, first.instance, first), make_problem(other)
    assert shared.static_bias is first.static_bias
    assert shared.static_bias.tolist() == alone.static_bias.tolist() == [
        float(first.instance.low.mismatch_bound(k, 1)) for k in range(first.n_arms)]
    cps = default_checkpoints(other.params.budget)
    assert shared.checkpoint_units(cps).tolist() == [alone.units.floor(c) for c in cps]
    assert shared.tau == alone.tau


# ------------------------------------------------------------------------------ S0 far beyond the budget
def _with(cfg, **params):
    import dataclasses
    return dataclasses.replace(cfg, params=dataclasses.replace(cfg.params, **params))


@pytest.mark.parametrize("name", ["llm-residual", "checkpoint", "power-decay"])
def test_s0_far_beyond_the_budget_tabulates_only_the_counts_a_run_reaches(name, config):
    """With S0 = 10^6 the counts a policy may read run to L = min(N_gamma, T) + S0 + 1, but no arm's low count
    passes floor(Lambda / lambda_L): the table holds B_k(1..W), W that count, and each row's B_k(N_gamma + S0)
    (the continuation window's far end). Every value is bit for bit the one a model call over 1..L gives (what
    the table held before); :meth:`Problem.bias` answers every count 1..L with it."""
    p = make_problem(_with(config() if name == "power-decay" else load_config(name), s0=10**6))
    rows, row_of = p.bias_table
    reach = int(p.budget // p.cost_low)
    assert p.bias_length == min(p.n_gamma, p.horizon) + 10**6 + 1
    assert rows.shape[1] == p.bias_width == min(reach, p.bias_length) == reach < p.bias_length
    assert p.n_gamma <= reach
    far = p.n_gamma + p.s0
    n = np.arange(1, p.bias_length + 1)
    for k in sorted({int(np.flatnonzero(row_of == r)[0]) for r in range(rows.shape[0])} | {0, p.n_arms - 1}):
        full = p.instance.low.mismatch_bound(k, n)
        assert rows[row_of[k]].tobytes() == full[:reach].tobytes()
        assert p.continuation_end[row_of[k]] == full[far - 1] < full[reach - 1]
        for c in (1, reach, reach + 1, far - 1, far, p.bias_length):
            assert p.bias(k, c) == full[c - 1]


@pytest.mark.slow
def test_without_a_continuation_test_in_reach_the_far_end_is_never_needed(config):
    """N_gamma beyond the low queries the budget pays for: no run makes the continuation test, and the table is
    still the reachable counts (``continuation_end`` holds B_k(W), documented as never read)."""
    p = make_problem(config(**{"params.budget": 30, "params.s0": 10**7}))
    assert p.n_gamma > p.budget // p.cost_low
    rows, row_of = p.bias_table
    assert rows.shape[1] == p.bias_width == 30
    assert p.continuation_end.tolist() == rows[:, -1].tolist()
    assert p.bias(0, p.bias_length) == float(p.instance.low.mismatch_bound(0, p.bias_length))
