"""RDFE in step form: phases, fidelity by oracle cost, elimination, return when one arm is left."""

import math

from bounds import frozen, rdfe_high_count, rdfe_low_count
from simulate import HIGH, LOW, Rdfe, RdfeOracle


def _drive(pol, mu):
    while (a := pol.select()) is not None:
        pol.update(a.arm, a.fidelity, mu[a.arm])      # noiseless feedback
    return pol


def test_oracle_counts_are_the_bounds_counts():
    m = frozen([0.9, 0.5], values=[0.9, 0.2])       # arm 1: B = 0.3 forever, so c^(L) is infinite below 2.4
    o = RdfeOracle(m, ell=1.0, cost_low=1.0, cost_high=10.0)
    assert o.low_count(0, 2) == rdfe_low_count(m, 0, 0.25, 1.0) and o.high_count(2) == rdfe_high_count(0.25, 1.0)
    assert o.low_count(1, 2) == math.inf and o.fidelity(1, 2) == HIGH
    assert o.fidelity(0, 2) == LOW                   # B_0 = 0: same count, cheaper fidelity


def test_noiseless_run_eliminates_and_returns_the_best_arm():
    mu = [0.9, 0.1, 0.5]
    m = frozen(mu, values=mu)
    pol = _drive(Rdfe(3, 1.0, 10.0, 10**6, ell=0.01, model=m), mu)
    assert pol.output == 0 and pol.active == [0]
    first = pol.phases[0]
    assert first.completed and first.fidelity == (LOW, LOW, LOW) and first.leader == 0
    assert 1 not in pol.phases[-1].survivors


def test_budget_stops_mid_phase_and_keeps_what_it_spent():
    mu = [0.5, 0.5]
    m = frozen(mu, values=mu)
    pol = _drive(Rdfe(2, 1.0, 10.0, 200.0, ell=1.0, model=m), mu)
    assert pol.cost <= 200.0 and not pol.phases[-1].completed
    assert sum(pol.phases[-1].cost) == pol.cost - 22.0    # everything after the start is in the phase
