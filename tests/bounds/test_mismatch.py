"""mismatch_bound (ass:plugin) and low_gap (eq:effective-low-gap)."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from bounds import TaccInputError, low_gap, mismatch_bound


def test_values_by_hand():
    # U = (1, 1, 3): U/s = (1, 0.5, 1); sup over s >= n with tail 0.5 -> (1, 1, 1)
    assert mismatch_bound([1.0, 1.0, 3.0], 0.5).tolist() == [1.0, 1.0, 1.0]
    # U = (2, 2, 2): U/s = (2, 1, 2/3); tail 0.1 -> (2, 1, 2/3)
    assert mismatch_bound([2.0, 2.0, 2.0], 0.1).tolist() == pytest.approx([2.0, 1.0, 2 / 3])
    # the tail dominates
    assert mismatch_bound([0.0, 0.0], 0.25).tolist() == [0.25, 0.25]


def test_low_gap_value():
    assert low_gap(0.9, 0.5, 0.1) == pytest.approx(0.3)
    assert np.allclose(low_gap(1.0, np.array([0.2, 0.4]), np.array([0.1, 0.0])), [0.7, 0.6])


@given(st.lists(st.floats(0, 100), min_size=1, max_size=60), st.floats(0, 10))
def test_is_the_supremum(us, tail):
    u = np.maximum.accumulate(np.array(us))        # a nondecreasing certificate
    b = mismatch_bound(u, tail)
    ratios = u / np.arange(1, u.size + 1)
    for n in range(u.size):
        assert b[n] == max(ratios[n:].max(), tail)
    assert np.all(np.diff(b) <= 0)                 # B nonincreasing
    assert np.all(b >= ratios)                     # U(n)/n <= B(n), eq:improvingbound


@pytest.mark.parametrize("args,field", [
    (([],), "certificate_values"),
    (([1.0, -1.0],), "certificate_values"),
    (([1.0, float("nan")],), "certificate_values"),
    (([[1.0]],), "certificate_values"),
    (([1.0], -0.1), "tail_sup"),
])
def test_invalid(args, field):
    with pytest.raises(TaccInputError) as info:
        mismatch_bound(*args)
    assert info.value.field == field


# ------------------------------------------------------------------ the models' B_k is exactly nonincreasing
_CONSTANT_TAILS = [0.3, 0.7669900000000001, 0.151, 0.18, 0.006, 0.001]


def test_a_constant_tail_no_longer_rises_by_an_ulp():
    """A frozen model's B_k past its prefix is |c_k| + excess / n: exactly nonincreasing. The former quotient
    (|c| + (n - 1) |c|) / n of the rounded extension rose by an ulp on some of these values (checked here, so the
    test fails on it)."""
    from bounds import frozen
    n = np.arange(1, 3001)
    old_rose = False
    for c in _CONSTANT_TAILS:
        model = frozen([0.0, 1.0], values=[c, 1.0])
        b = model.mismatch_bound(0, n)
        assert np.all(np.diff(b) <= 0) and b[0] == c
        old = (c + (n - 1) * c) / n
        old_rose |= bool(np.any(np.diff(old) > 0))
    assert old_rose


def test_residual_decay_with_a_dominant_b_does_not_rise():
    """|b_k| + |a_k| P(n)/n, summed last: the form (|b_k| n + |a_k| P(n))/n rose by an ulp where |b_k| dominates."""
    from bounds import residual_decay
    n = np.arange(1, 5001)
    for zeta in (0.0, 1e-20):
        model = residual_decay([0.5, 0.9], zeta=zeta, r=0.5, signs=[1, 1], b=[0.003, 0.0])
        assert np.all(np.diff(model.mismatch_bound(0, n)) <= 0) and model.mismatch_bound(0, 1) == 0.003 + zeta
    assert np.any(np.diff((0.003 * n) / n) > 0)                     # the former form with zeta = 0 rose


def test_every_generated_model_has_an_exactly_nonincreasing_bound():
    """On generated configurations of every low-fidelity model: B_k(n + 1) <= B_k(n) exactly on the counts a run
    reads (the table the engines read, and the exact check of the policies refuses anything else)."""
    from hypothesis import HealthCheck, settings

    from certify.strategies import configs, targeted_configs
    from simulate import make_problem

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(targeted_configs(), configs(budget=st.integers(200, 3000))))
    def check(config):
        p = make_problem(config)
        model, n = p.instance.low, np.arange(1, p.bias_length + 1)
        for k in range(p.n_arms):
            b = np.asarray(model.mismatch_bound(k, n), dtype=float)
            assert np.all(np.diff(b) <= 0), (config.instance.low.model, k)

    check()
