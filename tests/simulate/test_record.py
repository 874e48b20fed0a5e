"""Run records: the event check recomputed from the reward table, the C^d window, checkpoints, JSON."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import arm_partition, radius, refine_partition
from certify.strategies import configs
from simulate import HIGH, LOW, RewardTable, RunRecord, make_problem, run


def _replay(p, r, seed):
    """The confidence event and the C^d window recomputed from the trace and the reward table."""
    table = RewardTable(seed, p.noise, p.sigma)
    sched = p.schedule
    n = {LOW: [0] * p.n_arms, HIGH: [0] * p.n_arms}
    s = {LOW: [0.0] * p.n_arms, HIGH: [0.0] * p.n_arms}
    truth_low = [0.0] * p.n_arms
    first, window = None, [0] * p.n_arms
    for t, (k, m) in enumerate(r.trace):
        if t >= 2 * p.n_arms and m == HIGH and p.n_gamma <= n[LOW][k] < p.tau[k]:
            window[k] += 1
        n[m][k] += 1
        mean = sched.mean(k, n[m][k]) if m == LOW else float(p.instance.mu_high[k])
        s[m][k] += table(k, m, n[m][k], mean)
        if m == LOW:
            truth_low[k] += mean
        truth = truth_low[k] / n[m][k] if m == LOW else mean
        if first is None and abs(s[m][k] / n[m][k] - truth) > radius(n[m][k], p.ell):
            first = (k, "L" if m == LOW else "H", n[m][k])
    return first, window


@settings(max_examples=40)
@given(config=configs(), seed=st.integers(0, 2**40))
def test_event_and_window_recomputed(config, seed):
    p = make_problem(config)
    r = run(p, "tacc", seed, trace=True)
    first, window = _replay(p, r, seed)
    assert (None if r.violation is None else (r.violation.arm, r.violation.fidelity, r.violation.count)) == first
    assert list(r.high_in_window) == window


def test_event_fails_with_a_tiny_radius(config):
    p = make_problem(config(**{"params.rho": 0.001, "params.budget": 2000}))
    r = run(p, "ucb", 0)
    assert not r.event_held and r.violation.fidelity == "H"


def test_facts_feed_the_refined_partition(config):
    p = make_problem(config(**{"params.rho": 0.05, "params.gamma": 0.2}))
    r = run(p, "tacc", 0)
    classes = arm_partition(p.tau, p.n_gamma, p.s0, p.instance.best_arm)
    refined = refine_partition(classes, p.tau, r.facts())
    assert len(refined) == p.n_arms


def test_checkpoints_are_prefix_regrets(config):
    p = make_problem(config(**{"params.budget": 3000}))
    cps = (0.5, 100.0, 1500.0, 3000.0, 10**9)
    r = run(p, "tacc", 4, checkpoints=cps, trace=True)
    for c, at in zip(cps, r.regret_at, strict=True):
        spent, total = 0.0, 0.0
        for k, m in r.trace:
            price = p.cost_low if m == LOW else p.cost_high
            if spent + price > c:
                break
            spent += price
            total += price * float(p.instance.gaps[k])
        assert at == pytest.approx(total, rel=1e-12, abs=1e-12)
    assert r.regret_at[0] == 0.0 and r.regret_at[-1] == r.regret


def test_json_round_trip_including_rdfe_phases(config):
    p = make_problem(config())
    for policy in ("tacc", "rdfe"):
        r = run(p, policy, 2, trace=True)
        assert RunRecord.from_dict(r.to_dict()) == r


def test_regret_share_of_a_tied_arm_is_exactly_zero(config):
    p = make_problem(config(**{"instance.mu_high": [0.5, 0.5, 0.2]}))
    r = run(p, "tacc", 0)
    assert r.regret_share[:2] == (0.0, 0.0) and r.regret == r.regret_share[2]
    assert not math.isnan(r.regret)


def test_built_is_the_constructor_and_refuses_a_missing_field(config):
    """``built`` (records made without the frozen dataclass's ``__init__``) gives the same object as the
    constructor; a field left out is an error, not a record without it."""
    from simulate import RdfePhase
    from simulate._record import RECORD_FIELDS, built
    r = run(make_problem(config()), "rdfe", 5)
    values = tuple(getattr(r, f) for f in RECORD_FIELDS)
    b = built(RunRecord, RECORD_FIELDS, values)
    assert type(b) is RunRecord and b == RunRecord(*values) and repr(b) == repr(RunRecord(*values))
    assert hash(b) == hash(RunRecord(*values)) and b != built(RunRecord, RECORD_FIELDS, ("ucb", *values[1:]))
    phase = r.phases[0]
    names = tuple(RdfePhase.__dataclass_fields__)
    assert built(RdfePhase, names, tuple(getattr(phase, n) for n in names)) == phase
    with pytest.raises(ValueError):
        built(RunRecord, RECORD_FIELDS, values[:-1])
