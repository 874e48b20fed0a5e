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
    model, n = p.instance.low, np.arange(1, p.bias_length + 1)
    calls = []
    own = type(model).mismatch_bound

    def counted(self, k, counts):
        calls.append(k)
        return own(self, k, counts)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(type(model), "mismatch_bound", counted)
        rows, row_of = p.bias_table
    for k in range(p.n_arms):
        assert np.array_equal(rows[row_of[k]], own(model, k, n))
    labels = model.mismatch_bound_classes()
    assert len(calls) == (p.n_arms if labels is None else len(set(labels.tolist())))
    assert rows.shape[0] == len({r.tobytes() for r in rows})


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
