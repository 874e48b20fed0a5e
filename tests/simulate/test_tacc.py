"""TACC, DNC and MF-UCB in step form: driven by hand, with the paper's rules checked on hand-made states."""

import math

import pytest

from bounds import TaccInputError, n_gamma, power_decay
from simulate import HIGH, LOW, Dnc, MfUcb, Tacc, TaccStateError, make_problem


def _tacc(**kw):
    args = dict(n_arms=2, cost_low=1.0, cost_high=10.0, budget=1000.0, ell=1.0, n_gamma=n_gamma(1.0, 0.5),
                gamma=0.5, eta=0.1, s0=3, mismatch_bound=lambda k, n: 1.0 / n)
    args.update(kw)
    return Tacc(**args)


def test_driven_by_hand_with_two_feedback_functions():
    judge = {0: 0.8, 1: 0.2}            # a cheap judge and an expensive verifier, as a user would plug in
    verifier = {0: 0.7, 1: 0.3}
    pol = _tacc()
    seen = []
    while (a := pol.select()) is not None:
        y = judge[a.arm] if a.fidelity == LOW else verifier[a.arm]
        pol.update(a.arm, a.fidelity, y)
        seen.append((a.arm, a.fidelity))
    assert seen[:4] == [(0, LOW), (0, HIGH), (1, LOW), (1, HIGH)]     # Algorithm 1, line 2
    assert pol.cost <= 1000.0 and pol.budget - pol.cost < 10.0
    assert pol.n_low.sum() + pol.n_high.sum() == len(seen) == pol.rounds


def test_low_fidelity_while_below_the_threshold():
    pol = _tacc()
    for k in range(2):
        for m in (LOW, HIGH):
            pol.select()
            pol.update(k, m, 0.5 if k == 0 else 0.0)
    a = pol.select()
    assert a.arm == 0 and a.fidelity == LOW and not a.continuation   # N_L = 1 < N_gamma = 5


def test_continuation_test_follows_eq_fidelity_selection():
    # B(n) = 1/n: V(s) = 1/n - 1/(n + s) >= 2 eta gamma = 0.1 at n = 5 needs s >= 5/(0.5) - 5 = 5 > S0 - A.
    pol = _tacc(s0=3)
    pol.n_low[0] = 5
    assert not pol.continuation_test(0)
    pol = _tacc(s0=6)
    pol.n_low[0] = 5
    assert pol.continuation_test(0)          # s = 5 <= 6 passes
    pol.continuation_pulls[0] = 2
    assert not pol.continuation_test(0)      # s <= 4 now
    pol.continuation_pulls[0] = 6
    assert not pol.continuation_test(0)      # A = S0: the cap


def test_exists_s_is_the_test_at_the_largest_s():
    """B nonincreasing makes V(s) nondecreasing in s, so the fast engine tests s = S0 - A only."""
    m = power_decay([0.5, 0.4], zeta=0.3, r=0.7, signs=[1, -1])
    for s0 in (1, 5, 20):
        for n in (1, 3, 40, 400):
            for a in range(s0 + 1):
                pol = _tacc(s0=s0, eta=0.01, gamma=0.05, mismatch_bound=m.mismatch_bound)
                pol.n_low[1], pol.continuation_pulls[1] = n, a
                last = a < s0 and m.mismatch_bound(1, n) - m.mismatch_bound(1, n + s0 - a) >= 2 * 0.01 * 0.05
                assert pol.continuation_test(1) == last


def test_dnc_and_mf_ucb_have_no_continuation(config):
    p = make_problem(config())
    assert Dnc.from_problem(p).continuation is False
    mf = MfUcb.from_problem(p)
    assert mf.mismatch_bound(3, 1) == mf.mismatch_bound(3, 10**6) == p.instance.low.static_bias(3)


def test_update_must_match_the_selected_action():
    pol = _tacc()
    a = pol.select()
    with pytest.raises(TaccInputError) as e:
        pol.update(a.arm, HIGH, 0.0)
    assert e.value.field == "update"
    with pytest.raises(TaccStateError) as s:        # a call out of order is a state error, not a bad value
        pol.select()
    assert s.value.call == "select"
    with pytest.raises(TaccInputError) as e:
        pol.update(a.arm, a.fidelity, math.nan)
    assert e.value.field == "y"
    pol.update(a.arm, a.fidelity, 0.0)
    with pytest.raises(TaccStateError) as s:        # update without select
        pol.update(a.arm, a.fidelity, 0.0)
    assert s.value.call == "update" and not isinstance(s.value, TaccInputError)


@pytest.mark.parametrize("field,value", [("n_arms", 0), ("cost_low", 0.0), ("budget", -1.0), ("ell", 0.0),
                                         ("n_gamma", 0), ("gamma", -0.1), ("eta", 1.0), ("s0", -1)])
def test_invalid_arguments_name_the_field(field, value):
    with pytest.raises(TaccInputError) as e:
        _tacc(**{field: value})
    assert e.value.field == field



@pytest.mark.parametrize("cls", [Tacc, Dnc, MfUcb])
@pytest.mark.parametrize("cost_low,cost_high", [(10.0, 10.0), (12.0, 10.0)])
def test_the_constructor_refuses_costs_as_from_parameters_does(cls, cost_low, cost_high):
    """lambda_L < lambda_H (``bounds.check_costs``, the check of ``from_parameters`` and of a configuration):
    the constructor did not refuse it, and ran a policy whose low query costs as much as a high one or more."""
    bound = {"zeta": [0.1, 0.1]} if cls is MfUcb else {"mismatch_bound": lambda k, n: 1.0 / n}
    with pytest.raises(TaccInputError) as direct:
        cls(2, cost_low, cost_high, 1000.0, ell=1.0, n_gamma=n_gamma(1.0, 0.5), gamma=0.5, eta=0.1, s0=3, **bound)
    with pytest.raises(TaccInputError) as by_parameters:
        cls.from_parameters(2, cost_low, cost_high, 1000.0, delta=0.05, rho=1.0, gamma=0.5, eta=0.1, s0=3,
                            mismatch_bound=lambda k, n: 1.0 / n)
    assert direct.value.field == "cost_low" and str(direct.value) == str(by_parameters.value)
    assert str(direct.value) == f"cost_low = {cost_low!r}: must be < cost_high = {cost_high!r} (lambda_L < lambda_H)"
