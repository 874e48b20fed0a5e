"""Invariants every run must satisfy: budget, counts, the start of docs/design.md section 6, TACC's fidelity
rule replayed from the trace, the continuation cap, and the record's own arithmetic."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from certify.strategies import configs
from simulate import HIGH, LOW, POLICIES, SingleFidelityUcb, make_problem, policy_class, run
from simulate._rules import continuation_gain_passes

TWO_FIDELITY = [p for p in POLICIES if not issubclass(policy_class(p), SingleFidelityUcb)]


def _expected_start(policy, p):
    cls = policy_class(policy)
    if issubclass(cls, SingleFidelityUcb):
        return [(k, cls.fidelity) for k in range(p.n_arms)]
    return [(k, m) for k in range(p.n_arms) for m in (LOW, HIGH)]


@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=40)
@given(config=configs(), seed=st.integers(0, 2**40))
def test_budget_counts_and_start(policy, config, seed):
    p = make_problem(config)
    r = run(p, policy, seed, trace=True)
    assert r.cost <= p.budget
    assert r.rounds == sum(r.n_low) + sum(r.n_high) == len(r.trace)
    assert r.cost == sum(r.n_low) * p.cost_low + sum(r.n_high) * p.cost_high
    start = _expected_start(policy, p)
    assert list(r.trace[:len(start)]) == start[:r.rounds]
    if policy != "rdfe":                       # only RDFE may stop before the budget runs out
        assert p.budget - r.cost < (p.cost_high if policy in TWO_FIDELITY else
                                    p.cost_low if policy_class(policy).fidelity == LOW else p.cost_high)
    assert r.regret == math.fsum(r.regret_share)
    assert list(r.regret_at) == sorted(r.regret_at) and r.regret_at[-1] == r.regret
    assert r.event_held == (r.violation is None)


def _replay_fidelity_rule(p, r, continuation: bool):
    """Replay the trace: low while N_L < N_gamma; after it, low only as a continuation pull that passes
    eq:fidelity-selection (A_k < S0 and some s <= S0 - A_k with V(s) >= 2 eta gamma), high otherwise."""
    n_low, a = [0] * p.n_arms, [0] * p.n_arms
    start = 2 * p.n_arms
    for t, (k, m) in enumerate(r.trace):
        if t >= start:
            n = n_low[k]
            if n < p.n_gamma:
                assert m == LOW
            else:
                passes = a[k] < p.s0 and any(
                    continuation_gain_passes(p.bias(k, n), p.bias(k, n + s), p.eta, p.gamma)
                    for s in range(1, p.s0 - a[k] + 1))
                assert (m == LOW) == (continuation and passes)
                if m == LOW:
                    a[k] += 1
                    assert a[k] <= p.s0
        if m == LOW:
            n_low[k] += 1
    return a


@settings(max_examples=60)
@given(config=configs(), seed=st.integers(0, 2**40))
def test_tacc_fidelity_rule_and_continuation_cap(config, seed):
    p = make_problem(config)
    r = run(p, "tacc", seed, trace=True)
    assert _replay_fidelity_rule(p, r, continuation=True) == list(r.continuation)
    assert all(a <= p.s0 for a in r.continuation)
    assert all(n <= min(p.n_gamma, p.horizon) + p.s0 for n in r.n_low)
    for c in r.threshold_count:
        assert c in (-1, p.n_gamma) or (c == 1 and p.n_gamma == 1)


@pytest.mark.parametrize("policy", ["dnc", "mf-ucb"])
@settings(max_examples=30)
@given(config=configs(), seed=st.integers(0, 2**40))
def test_static_rules_never_continue(policy, config, seed):
    p = make_problem(config)
    r = run(p, policy, seed, trace=True)
    if policy == "dnc":
        assert _replay_fidelity_rule(p, r, continuation=False) == [0] * p.n_arms
    assert all(n <= max(p.n_gamma, 1) for n in r.n_low)
    assert sum(r.continuation) == 0


@settings(max_examples=40)
@given(config=configs(), seed=st.integers(0, 2**40))
def test_rdfe_phases_are_consistent(config, seed):
    p = make_problem(config)
    r = run(p, "rdfe", seed)
    active = tuple(range(p.n_arms))
    for ph in r.phases:
        assert ph.active == active and ph.eps == 2.0 ** -ph.r
        assert sum(ph.cost) <= r.cost
        if ph.completed:
            assert all(w is not None and w <= ph.eps / 4 * (1 + 1e-12) for w in ph.width)  # lem:app-rdfe-phase-width
            assert ph.leader in ph.survivors
            active = ph.survivors
    if r.phases and r.phases[-1].completed:
        assert len(r.phases[-1].survivors) == 1 or r.cost + min(p.cost_low, p.cost_high) > p.budget
    if r.output is not None:
        assert 0 <= r.output < p.n_arms
