"""The budget check of Algorithm 1 is exact: a run makes exactly the queries t with C_t <= Lambda (the paper's
R(Lambda)), with costs read as the decimals written, in both engines and for every policy.

The oracle is independent of the engines' accounting: the same policy run with a larger budget makes the same
decisions (no threshold depends on the budget field), and the exact count is the longest prefix of that trace
whose cost, summed in fractions of the written decimals, is at most Lambda.
"""

import dataclasses
from fractions import Fraction

import pytest

from bounds import TaccInputError, horizon
from simulate import HIGH, LOW, POLICIES, make_problem, run

#: (costs.low, costs.high, budgets): non-dyadic costs, and budgets where a running float sum goes wrong.
CASES = [
    ("0.1", "0.3", ["2.3", "4.9", "7.7", "12.1"]),
    ("0.3", "0.7", ["6.3", "9.9", "14.7"]),
    ("0.333", "1.1", ["10.989", "24.3", "33.33"]),
]


def _exact_count(trace, cost_low: Fraction, cost_high: Fraction, budget: Fraction) -> int:
    spent = Fraction(0)
    for t, (_, m) in enumerate(trace):
        spent += cost_low if m == LOW else cost_high
        if spent > budget:
            return t
    return len(trace)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("low,high,budgets", CASES)
def test_query_count_is_the_exact_count(config, policy, low, high, budgets):
    cl, ch = Fraction(low), Fraction(high)
    for b in budgets:
        cfg = config(**{"costs.low": float(low), "costs.high": float(high), "params.budget": float(b),
                        "instance.mu_high": [0.9, 0.8, 0.7], "instance.low.zeta": 0.05, "params.gamma": 1.0,
                        "params.s0": 2})
        p = make_problem(cfg)
        assert p.n_gamma < p.horizon          # the B_k table does not depend on the budget field below
        longer = dataclasses.replace(p, budget=float(Fraction(b) + ch))   # reaches the first query past Lambda
        trace = run(longer, policy, 1, engine="reference", trace=True).trace
        expected = _exact_count(trace, cl, ch, Fraction(b))
        ref = run(p, policy, 1, engine="reference", trace=True)
        fast = run(p, policy, 1, engine="fast", trace=True)
        assert ref.rounds == expected, (policy, b)
        assert ref == fast
        spent = sum((cl if m == LOW else ch) for _, m in ref.trace)
        assert spent <= Fraction(b) and ref.cost == float(spent)
        assert ref.rounds <= horizon(float(b), float(low))


@pytest.mark.parametrize("policy", ["low-improving", "weak-fixed", "ucb"])
def test_single_fidelity_count_is_floor_of_budget_over_cost(config, policy):
    # one fidelity: the run makes floor(Lambda / lambda) queries exactly; 2.3 / 0.1 = 23 (a float sum of 23
    # costs of 0.1 is 2.3000000000000007 > 2.3, so the float check stopped at 22); 0.9 / 0.3 = 3 per arm-round
    for low, high, b in [("0.1", "0.3", "2.3"), ("0.1", "0.3", "0.9"), ("0.3", "0.7", "6.3")]:
        cfg = config(**{"costs.low": float(low), "costs.high": float(high), "params.budget": float(b),
                        "instance.mu_high": [0.9, 0.8]})
        p = make_problem(cfg)
        price = Fraction(high) if policy == "ucb" else Fraction(low)
        for engine in ("reference", "fast"):
            assert run(p, policy, 0, engine=engine).rounds == Fraction(b) // price, (policy, b, engine)
        if policy != "ucb":
            assert Fraction(b) // price == horizon(float(b), float(low))  # T_Lambda is the exact count here


def test_fidelity_order_is_low_then_high():
    assert (LOW, HIGH) == (0, 1)       # the oracle above prices a trace entry by this encoding


def test_accounting_that_would_overflow_is_refused_naming_the_field(config):
    """Refused when the configuration is read (bounds.parse_config), and by both engines for a configuration made
    otherwise (here by replacing its costs)."""
    with pytest.raises(TaccInputError) as e:
        config(**{"costs.low": 1 / 3, "costs.high": 10.0, "params.budget": 10**6})
    assert e.value.field == "costs.low"
    cfg = config(**{"costs.high": 10.0, "params.budget": 10**6})
    cfg = dataclasses.replace(cfg, costs=dataclasses.replace(cfg.costs, low=1 / 3))
    p = make_problem(cfg)
    for engine in ("reference", "fast"):
        with pytest.raises(TaccInputError) as e:
            run(p, "tacc", 0, engine=engine)
        assert e.value.field == "costs.low"


def test_a_trace_is_sized_by_the_run_not_by_the_budget(config):
    # budget / cheapest cost allows 10^10 rounds (an 80 GB trace up front); TACC's high queries at cost 10^6 end
    # every run within a few thousand rounds: the trace is the run's own, equal to the reference engine's
    cfg = config(**{"costs.low": 1.0, "costs.high": 1e6, "params.budget": 1e10,
                    "instance.mu_high": [0.9, 0.8, 0.7]})
    p = make_problem(cfg)
    fast = run(p, "tacc", 3, trace=True)
    assert fast.rounds < 10**6 < p.horizon
    assert len(fast.trace) == fast.rounds
    assert fast == run(p, "tacc", 3, engine="reference", trace=True)
    assert dataclasses.replace(fast, trace=None) == run(p, "tacc", 3)
