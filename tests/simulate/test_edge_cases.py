"""Edge cases: K = 2, ties for the best arm, a budget below the first round, Bernoulli means at 0 and
1, a low-fidelity model whose certificate is violated."""

import pytest

from bounds import TaccInputError
from simulate import POLICIES, make_problem, run


@pytest.mark.parametrize("policy", POLICIES)
def test_two_arms(policy, config):
    p = make_problem(config(**{"instance.mu_high": [0.6, 0.4]}))
    r = run(p, policy, 0)
    assert r.n_arms == 2 and r.cost <= p.budget and r.rounds > 0


@pytest.mark.parametrize("policy", POLICIES)
def test_tie_for_the_best_arm(policy, config):
    p = make_problem(config(**{"instance.mu_high": [0.7, 0.7, 0.3], "params.budget": 5000}))
    r = run(p, policy, 1)
    assert p.instance.best_arm == 0
    assert r.regret_share[0] == r.regret_share[1] == 0.0
    assert r.regret == r.regret_share[2]


@pytest.mark.parametrize("policy,rounds", [("tacc", 1), ("dnc", 1), ("mf-ucb", 1), ("lucb", 1), ("rdfe", 1),
                                           ("ucb", 0), ("weak-fixed", 5), ("low-improving", 5)])
def test_budget_below_the_first_round(policy, rounds, config):
    p = make_problem(config(**{"params.budget": 5}))      # costs 1 and 10: arm 0 L fits, arm 0 H does not
    r = run(p, policy, 0, trace=True)
    assert r.rounds == rounds and r.cost <= 5
    if rounds:
        assert r.trace[0] == (0, 0)


@pytest.mark.parametrize("policy", POLICIES)
def test_bernoulli_means_at_zero_and_one(policy, config):
    p = make_problem(config(**{"instance.mu_high": [1.0, 0.0, 0.5], "instance.noise": {"model": "bernoulli"},
                               "params.budget": 3000}))
    r = run(p, policy, 0)
    assert r.cost <= p.budget and r.regret >= 0


def test_violated_certificate_still_runs(config):
    low = {"model": "table", "mean_low": [[0.2, 0.3], [0.9, 0.9], [0.1, 0.1], [0.6, 0.6], [0.5, 0.5], [0.4, 0.4]],
           "certificate": [[0.0, 0.0]] * 6}                # claims no mismatch; the means are far off
    p = make_problem(config(**{"instance.low": low}))
    for policy in POLICIES:
        r = run(p, policy, 0)
        assert r.cost <= p.budget


def test_bad_seed_and_engine_name_the_field(config):
    p = make_problem(config())
    for kwargs, field in (({"seed": -1}, "seed"), ({"seed": 1.5}, "seed"),
                          ({"seed": 0, "engine": "gpu"}, "engine")):
        seed = kwargs.pop("seed")
        with pytest.raises(TaccInputError) as e:
            run(p, "tacc", seed, **kwargs)
        assert e.value.field == field
    with pytest.raises(TaccInputError) as e:
        run(p, "thompson", 0)
    assert e.value.field == "policy"
