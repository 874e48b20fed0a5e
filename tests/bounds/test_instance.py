"""build_instance: seeded means and signs; analyze: every quantity on the presets."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import PRESETS, ArmClass, TaccInputError, analyze, build_instance, load_config, parse_config
from tests.bounds.test_config import GOOD


def test_means_and_signs_depend_on_the_seed_alone():
    spec = load_config("set-a").instance
    a, b = build_instance(spec), build_instance(spec)
    assert np.array_equal(a.mu_high, b.mu_high)
    assert np.array_equal(a.low.signs, b.low.signs)
    assert a.mu_high.min() >= 0.1 and a.mu_high.max() <= 0.9 and a.n_arms == 200


def test_best_arm_tie_goes_to_lowest_index():
    import copy
    data = copy.deepcopy(GOOD)
    data["instance"]["mu_high"] = [0.5, 0.9, 0.9]
    inst = build_instance(parse_config(data).instance)
    assert inst.best_arm == 1 and inst.gaps.tolist() == [pytest.approx(0.4), 0.0, 0.0]
    a = analyze(parse_config(data))
    assert a.classes[2] is ArmClass.B and a.theorem.terms[2] == 0.0 and a.high_count_bound[2] == math.inf


@pytest.mark.parametrize("name", PRESETS)
def test_analyze_presets(name):
    a = analyze(load_config(name))
    assert a.rho == a.rho_min and a.n_gamma >= 1 and a.horizon >= 1
    assert len(a.tau) == len(a.classes) == a.instance.n_arms
    assert a.theorem.total >= a.theorem_if_all_cd.total >= 0
    assert a.corollary.explicit_total >= a.theorem.total * (1 - 1e-12)
    assert a.rdfe.total >= a.rdfe.sharp_total * (1 - 1e-12)


def test_budget_smaller_than_first_round():
    import copy
    data = copy.deepcopy(GOOD)
    data["params"]["budget"] = 5       # K (lambda_L + lambda_H) = 33 > 5
    a = analyze(parse_config(data))
    assert a.horizon == 5 and a.theorem.total > 0


# ------------------------------------------------------------------ Bernoulli: every low mean in [0, 1]
def _bernoulli(mu_high, low, noise="bernoulli", **instance):
    import copy
    data = copy.deepcopy(GOOD)
    data["instance"].update(mu_high=mu_high, low=low, noise={"model": noise}, **instance)
    return data


@pytest.mark.parametrize("mu, low, field, value", [
    ([0.75, 0.5], {"model": "frozen", "values": [1.25, 0.5]}, "instance.low.values[0]", 1.25),
    ([0.75, 0.5], {"model": "frozen", "values": [0.5, -0.25]}, "instance.low.values[1]", -0.25),
    ([0.75, 0.5], {"model": "table", "mean_low": [[1.5, 0.75], [-0.5, 0.5]], "certificate": [[1, 2], [1, 2]]},
     "instance.low.mean_low[0][0]", 1.5),
    ([0.75, 0.5], {"model": "table", "mean_low": [[0.5, 0.75], [0.5, -0.5]], "certificate": [[1, 2], [1, 2]]},
     "instance.low.mean_low[1][1]", -0.5),
    ([0.95, 0.5], {"model": "power_decay", "zeta": 0.3, "r": 0.5, "signs": [1, 1]}, "instance.low.zeta", 0.3),
    ([0.95, 0.25], {"model": "power_decay", "zeta": 0.3, "r": 0.5, "signs": [-1, -1]}, "instance.low.zeta", 0.3),
    ([0.9, 0.5], {"model": "checkpoint", "q": [4, 8], "gap": [0.05, 0.2], "q_max": 8, "signs": [1, 1]},
     "instance.low.gap[1]", 0.2),
    ([0.9, 0.5], {"model": "checkpoint", "q": [4, 8], "gap": [[0.05, 0.05], [0.05, 0.6]], "q_max": 8,
                  "signs": [1, -1]}, "instance.low.gap[1][1]", 0.6),
])
def test_bernoulli_low_means_outside_the_unit_interval_are_refused(mu, low, field, value):
    with pytest.raises(TaccInputError) as e:
        parse_config(_bernoulli(mu, low))
    assert (e.value.field, e.value.value) == (field, value) and "\n" not in str(e.value)
    # the same model with Gaussian noise is accepted: only Bernoulli rewards need means in [0, 1]
    parse_config(_bernoulli(mu, low, noise="gaussian"))


@pytest.mark.parametrize("mu, low", [
    ([0.95, 0.5], {"model": "power_decay", "zeta": 0.05, "r": 0.5, "signs": [1, 1]}),      # 0.95 + 0.05 = 1 exactly
    ([0.25, 0.5], {"model": "power_decay", "zeta": 0.25, "r": 2.0, "signs": [-1, 1]}),     # 0.25 - 0.25 = 0
    ([0.75, 0.5], {"model": "frozen", "values": [1.0, 0.0]}),
    ([0.9, 0.5], {"model": "checkpoint", "q": [4, 8, 16], "gap": [0.1, 0.05, 0.7], "q_max": 8, "signs": [1, 1]}),
    ([0.95, 0.5], {"model": "residual_decay", "zeta": 0.3, "r": 0.5, "signs": [1, 1], "b": 0.1}),  # clips itself
])
def test_bernoulli_low_means_on_the_edges_or_never_reached_are_accepted(mu, low):
    """The controls: a mean of exactly 0 or 1, a checkpoint past q_max (never reached), and residual decay,
    whose formula is clip01(...)."""
    inst = build_instance(parse_config(_bernoulli(mu, low)).instance)
    n = np.arange(1, 65)
    for k in range(inst.n_arms):
        m = inst.low.mean_low(k, n)
        assert m.min() >= 0.0 and m.max() <= 1.0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 50), st.sampled_from([0.05, 0.1, 0.3]), st.booleans())
def test_the_refusal_is_decided_on_the_instances_own_draws(seed, zeta, drawn):
    """Random signs and drawn means come from the seed: refused exactly when the instance the configuration builds
    (with Gaussian noise, unclipped) has a low mean at n = 1 outside [0, 1] (n = 1 and the limit mu are the
    extremes of a monotone decay)."""
    low = {"model": "power_decay", "zeta": zeta, "r": 0.5, "signs": "random"}
    means = {"means": {"distribution": "uniform", "low": 0.0, "high": 1.0, "n_arms": 4}} if drawn else {}
    mu = None if drawn else [0.97, 0.5, 0.04, 0.6]
    data, twin = _bernoulli(mu, low, seed=seed, **means), _bernoulli(mu, low, "gaussian", seed=seed, **means)
    for d in (data, twin):
        if drawn:
            del d["instance"]["mu_high"]
    inst = build_instance(parse_config(twin).instance)
    first = np.array([inst.low.mean_low(k, 1) for k in range(inst.n_arms)])
    outside = bool(((first < 0) | (first > 1)).any())
    if outside:
        with pytest.raises(TaccInputError, match="instance.low.zeta"):
            parse_config(data)
    else:
        parse_config(data)
