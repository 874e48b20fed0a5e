"""build_instance: seeded means and signs; analyze: every quantity on the presets."""

import math

import numpy as np
import pytest

from bounds import PRESETS, ArmClass, analyze, build_instance, load_config, parse_config
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
    assert a.rdfe.total >= a.rdfe.phase_sum_total * (1 - 1e-12)


def test_budget_smaller_than_first_round():
    import copy
    data = copy.deepcopy(GOOD)
    data["params"]["budget"] = 5       # K (lambda_L + lambda_H) = 33 > 5
    a = analyze(parse_config(data))
    assert a.horizon == 5 and a.theorem.total > 0


def test_bernoulli_low_means_outside_0_1_are_clipped_and_read_clipped_everywhere():
    """A Bernoulli configuration whose proxy would leave [0, 1] (power decay mu + zeta > 1, a frozen 1.25, a table's
    -0.5) is a valid instance: its model clips, and tau, the classes and the bounds read the clipped mean (a README
    user reported it as read unclipped; a refusal was merged and reverted the same day)."""
    from bounds import analyze, parse_config
    base = {"name": "clip", "costs": {"low": 1.0, "high": 10.0},
            "params": {"budget": 20000.0, "delta": 0.05, "rho": "min", "gamma": 0.1, "eta": 1e-4, "s0": 10}}
    lows = [({"model": "power_decay", "zeta": 0.3, "r": 0.5, "signs": [1, 1, -1]}, [0.95, 0.5, 0.1], [1.0, 0.8, 0.0]),
            ({"model": "frozen", "values": [1.25, 0.5, -0.5]}, [0.75, 0.5, 0.25], [1.0, 0.5, 0.0])]
    for low, mu, at_one in lows:
        a = analyze(parse_config({**base, "instance": {"mu_high": mu, "seed": 0, "noise": {"model": "bernoulli"},
                                                       "low": low}}))
        assert [a.instance.low.mean_low(k, 1) for k in range(3)] == at_one
