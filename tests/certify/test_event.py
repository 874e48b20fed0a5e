"""certify._event: the confidence event of lem:ci decided exactly on a run whose float check reported a failure.

The false counterexample this prevents, found by a user: every arm's mean shifted to 1e15 (an ulp of a running
sum of 577 observations is 64), the engines' float check reported the event failed on every run and lem:ci was
VIOLATED for every policy; the exact sums of the same observations never leave the radius.
"""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import parse_config
from certify import ClaimContext, Verdict, check_assumptions, event_failure, event_failures, judge_lem_ci
from simulate import Violation, make_problem, run, run_reference


def _config(shift: float, rho="min"):
    return parse_config({
        "name": f"shift-{shift:g}",
        "instance": {"mu_high": [shift + 0.5, shift], "noise": {"model": "gaussian", "sigma": 1.0},
                     "low": {"model": "frozen", "values": [shift + 0.5, shift]}},
        "costs": {"low": 1.0, "high": 10.0},
        "params": {"budget": 20000, "gamma": 0.1, "eta": 1e-4, "s0": 10, "rho": rho}})


@pytest.fixture(scope="module")
def shifted():
    return make_problem(_config(1e15))


# exact values: the user's instance. The float check fails on every run; the exact check confirms none.
@pytest.mark.parametrize("policy", ["tacc", "ucb", "weak-fixed"])
def test_rounding_of_large_means_is_not_an_event_failure(shifted, policy):
    rec = run(shifted, policy, 0)
    assert not rec.event_held and rec.violation is not None          # the float check (both engines)
    assert run_reference(shifted, policy, 0).violation == rec.violation
    assert event_failure(shifted, rec) is None


def test_lem_ci_is_not_violated_by_rounding(shifted):
    """VIOLATED on the float check (every run failed: p far below alpha); on the exact one no failure is confirmed,
    and the measurement says how many float failures were rounding. Not HOLDS either: at 1e15 the float sums can
    leave the radius (float_sums_faithful), so a run taken as held may hide a failure: UNDECIDED."""
    recs = [run(shifted, "ucb", s) for s in range(8)]
    assert all(not r.event_held for r in recs)
    v = judge_lem_ci(ClaimContext(shifted, check_assumptions(shifted)), recs)
    assert v.verdict is Verdict.UNDECIDED and v.worst.empirical == 0
    assert "8 float failure(s) not confirmed exactly: rounding" in v.worst.what
    assert event_failures(shifted, recs) == (0, 8)


# edge cases: the same instance near 0 has no rounding to speak of, and the float check agrees with the exact one
def test_small_means_agree():
    p = make_problem(_config(0.0))
    recs = [run(p, "tacc", s) for s in range(5)]
    assert all(r.event_held for r in recs) and event_failures(p, recs) == (0, 0)


# a real failure (rho a tenth of rho_min: the radius too small for the noise) is confirmed where it was flagged
@pytest.fixture(scope="module")
def failing():
    p = make_problem(_config(0.0, rho=0.1 * make_problem(_config(0.0)).rho))
    rec = run(p, "ucb", 2)                       # flagged at arm 0, high fidelity, count 822
    assert not rec.event_held
    return p, rec


def test_a_real_failure_is_confirmed_at_its_count(failing):
    p, rec = failing
    assert event_failure(p, rec) == rec.violation
    assert event_failures(p, [rec, rec]) == (2, 0)


def test_a_wrong_flag_does_not_hide_a_real_failure(failing):
    """A flag at a count where the event held exactly (count 1 of the other arm's high fidelity) is not taken for
    the failure, and the scan of every visited count still finds the real one."""
    p, rec = failing
    assert rec.violation == Violation(0, "H", 822)
    moved = replace(rec, violation=Violation(1, "H", 1))
    assert event_failure(p, moved) == Violation(0, "H", 822)


def test_a_held_run_is_not_rechecked(failing):
    """event_held True is taken as held: the float check's missed failures are bounded, not searched (the
    module's note)."""
    p, rec = failing
    assert event_failure(p, replace(rec, event_held=True, violation=None)) is None


def test_claims_on_a_run_whose_float_arithmetic_is_not_exact_are_undecided(shifted):
    """On the 1e15 instance the float running sums (which the policy's indices use too) are off by more than the
    radius: a claim that needs the event is UNDECIDED there, saying why, neither OFF_EVENT (the event held
    exactly) nor judged against a bound the exact algorithm would meet (TACC's regret there is 2.8 times the
    theorem's bound)."""
    from certify import claim, judge
    rec = run(shifted, "tacc", 0)
    v = judge(claim("theorem"), ClaimContext(shifted, check_assumptions(shifted)), rec)
    assert v.verdict is Verdict.UNDECIDED and v.reason.startswith("rounding:")


def test_a_policy_of_your_own_keeps_the_float_decision(shifted):
    """A record of a policy not in simulate.POLICIES: which source it read is not on record, so the float decision
    stands (the failure as flagged), where the same run under TACC's name is rechecked and found rounding."""
    rec = run(shifted, "tacc", 0)
    mine = replace(rec, policy="my-policy")
    assert event_failure(shifted, mine) == rec.violation and event_failure(shifted, rec) is None



# the instance-level bound: at 1e300 the float running means can be off by far more than the radius, and the
# low-fidelity float check cannot see it (its observation sum and its sum of served means round alike)
def test_an_instance_whose_float_sums_can_leave_the_radius_is_undecided_on_every_run():
    from certify import claim, float_sums_faithful, judge
    huge = make_problem(_config(1e300))
    ok, why = float_sums_faithful(huge)
    assert not ok and "not below the radius" in why
    ctx = ClaimContext(huge, check_assumptions(huge))
    rec = run(huge, "tacc", 0)
    v = judge(claim("theorem"), ctx, rec)
    assert v.verdict is Verdict.UNDECIDED and "not below the radius" in v.reason
    lem = judge_lem_ci(ctx, [rec])
    assert lem.verdict is Verdict.UNDECIDED and "not below the radius" in lem.reason   # it said nothing (a README
    assert "neither reject nor support the lemma" in lem.reason                         # user: an empty reason)


@pytest.mark.parametrize("shift, faithful", [(0.0, True), (1e9, True), (1e15, False)])
def test_the_float_bound_flips_with_the_magnitude(shift, faithful):
    """E(T) = gamma_(T+2) (M + m) against G(T) = sqrt(ell / T): at T = 20,000 rounds, means of 1e9 leave it far
    below the radius (4.4e-3 against 0.039), means of 1e15 far above (4.4e3)."""
    from certify import float_sums_faithful
    assert float_sums_faithful(make_problem(_config(shift)))[0] is faithful


def test_the_float_bound_compiles_nothing():
    """float_sums_faithful reads the schedules' means, not the engines' power tables (made by compiled code): a
    report on a full cache imports no numba (it imported it for this bound, 0.5 s of a 1.2 s report)."""
    import subprocess
    import sys
    code = ("import sys; from certify import float_sums_faithful; from simulate import make_problem; "
            "from reports.report import default_config; from bounds import load_config; "
            "print(float_sums_faithful(make_problem(default_config()))[0], "
            "float_sums_faithful(make_problem(load_config('llm-residual')))[0], 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True", "False"]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_screened_decision_is_the_exact_one(data):
    """The float screen (certify._event._screen: a rigorous error bound, the rest in integers) finds the same first
    failing count as the integer sums alone, on sequences built to sit on the boundary D_n^2 = ell n: ell is the
    float nearest D_k^2 / k for a k of the sequence, so counts near k are undecided in floats."""
    import numpy as np

    from certify._event import _fails_exactly, _first_failure
    size = data.draw(st.integers(1, 60))
    scale = data.draw(st.sampled_from([1.0, 1e-8, 1e8, 1e150]))
    ys = np.array(data.draw(st.lists(st.floats(-3, 3, allow_nan=False), min_size=size, max_size=size))) * scale
    means = np.array(data.draw(st.lists(st.floats(-1, 1, allow_nan=False), min_size=size, max_size=size))) * scale
    k = data.draw(st.integers(1, size))
    d = float(np.sum(ys[:k] - means[:k]))
    ell = data.draw(st.sampled_from([d * d / k, np.nextafter(d * d / k, np.inf), np.nextafter(d * d / k, 0.0),
                                     data.draw(st.floats(1e-300, 1e300))]))
    if not ell > 0:
        ell = 1.0
    assert _first_failure(ell, ys, means) == _fails_exactly(ell, ys.tolist(), means.tolist(), size)


@pytest.mark.parametrize("side", [-1, 1])
def test_the_screen_is_exact_where_the_float_sum_drifts(side):
    """100,000 observations 0.1 with mean 0: every float addition rounds the same way, so the running sum drifts
    (about 1e-11 of it at the end, beyond the screen's clearing factor): only the error bound keeps the screen exact.
    ell is the float just below or above D_N^2 / N = N 0.1^2 (exact), so the first failure is N or none."""
    from fractions import Fraction

    import numpy as np

    from certify._event import _first_failure
    N = 100_000
    ys, means = np.full(N, 0.1), np.zeros(N)
    boundary = N * Fraction(0.1) ** 2
    ell = np.nextafter(float(boundary), 0.0 if side < 0 else np.inf)
    assert (Fraction(float(ell)) < boundary) is (side < 0)
    assert _first_failure(float(ell), ys, means) == (N if side < 0 else None)


def test_the_screen_leaves_to_the_integers_what_the_float_sum_gets_wrong():
    """Ten observations 0.1 (the float 0.1000000000000000055...) with mean 0 and ell = that float: the exact D_10 is
    10 x 0.1 and D_10^2 > 10 ell, a failure at n = 10; the float running sum reads 0.9999999999999999, below the
    radius. Without its error bound the screen called n = 10 held (and the run's event held)."""
    import numpy as np

    from certify._event import _first_failure, _screen
    ys, means = np.full(12, 0.1), np.zeros(12)
    failed, held = _screen(ys, means, 0.1)
    assert not failed[9] and not held[9]                   # undecided in floats: decided in integers
    assert _first_failure(0.1, ys, means) == 10
