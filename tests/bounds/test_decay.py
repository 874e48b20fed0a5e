"""Power-decay and residual-decay models (docs/design.md section 5): closed forms against direct sums."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from bounds import TaccInputError, power_decay, residual_decay


def test_power_decay_values():
    m = power_decay([0.5, 0.4], zeta=0.2, r=0.5, signs=[1, -1])
    assert m.mean_low(0, 1) == pytest.approx(0.7)
    assert m.mean_low(1, 4) == pytest.approx(0.3)          # 0.4 - 0.2 / 2
    assert m.certificate(0, 4) == pytest.approx(0.2 * (1 + 2**-0.5 + 3**-0.5 + 0.5))
    assert m.mismatch_bound(0, 4) == pytest.approx(m.certificate(0, 4) / 4)
    assert m.static_bias(0) == pytest.approx(0.2)           # zeta_k = B_k(1)


def test_residual_decay_values_and_clipping():
    m = residual_decay([0.98, 0.5], zeta=0.4, r=0.75, signs=[1, -1], b=0.05, n0=0)
    assert m.mean_low(0, 1) == 1.0                          # 0.98 + 0.05 + 0.4 clipped
    assert m.mean_low(1, 1) == pytest.approx(0.15)
    assert m.certificate(1, 1) == pytest.approx(0.45)       # |b| + |a|
    assert m.mismatch_bound(1, 10**12) > 0.05               # B -> |b| > 0: residual mismatch


@st.composite
def decay_models(draw):
    K = draw(st.integers(2, 5))
    clip = draw(st.booleans())
    lo, hi = (0.0, 1.0) if clip else (-2.0, 2.0)
    mu = draw(st.lists(st.floats(lo, hi), min_size=K, max_size=K))
    signs = draw(st.lists(st.sampled_from([-1, 1]), min_size=K, max_size=K))
    zeta = draw(st.floats(0.0, 1.5))
    r = draw(st.floats(0.1, 2.0))
    b = draw(st.floats(-0.3, 0.3)) if clip else 0.0
    n0 = draw(st.floats(0.0, 20.0)) if clip else 0.0
    if clip:
        return residual_decay(mu, zeta=zeta, r=r, signs=signs, b=b, n0=n0)
    return power_decay(mu, zeta=zeta, r=r, signs=signs)


@given(decay_models(), st.data())
def test_closed_forms_match_direct_sums(m, data):
    k = data.draw(st.integers(0, m.n_arms - 1))
    n = np.arange(1, 400)
    dev = m.mean_low(k, n) - m.mu_high[k]
    assert np.allclose(m.mismatch_sum(k, n), np.cumsum(dev), atol=1e-9)
    # ass:plugin holds by construction: sum |mu_L - mu_H| <= U_k(n), U nondecreasing
    u = m.certificate(k, n)
    assert np.all(np.cumsum(np.abs(dev)) <= u + 1e-9)
    assert np.all(np.diff(u) >= -1e-12)
    b = m.mismatch_bound(k, n)
    assert np.all(np.diff(b) <= 1e-12)                      # B nonincreasing
    assert np.all(np.abs(m.avg_mean_low(k, n) - m.mu_high[k]) <= b + 1e-9)   # eq:improvingbound


@given(decay_models(), st.data())
def test_low_gap_nondecreasing(m, data):
    """irregular_prefix = 0 relies on Delta_L(n) being nondecreasing (module docstring)."""
    k = data.draw(st.integers(0, m.n_arms - 1))
    n = np.unique(np.geomspace(1, 10**9, 300).astype(np.int64))
    gap = m.mu_high.max() - m.avg_mean_low(k, n) - m.mismatch_bound(k, n)
    assert np.all(np.diff(gap) >= -1e-9)


@pytest.mark.parametrize("kwargs,field", [
    (dict(zeta=-0.1, r=0.5, signs=[1, 1]), "zeta"),
    (dict(zeta=0.1, r=0.0, signs=[1, 1]), "r"),
    (dict(zeta=0.1, r=0.5, signs=[1, 0]), "signs"),
    (dict(zeta=0.1, r=0.5, signs=[1]), "signs"),
])
def test_invalid(kwargs, field):
    with pytest.raises(TaccInputError) as info:
        power_decay([0.5, 0.4], **kwargs)
    assert info.value.field == field


def test_invalid_clipped_means():
    with pytest.raises(TaccInputError) as info:
        residual_decay([1.5, 0.4], zeta=0.1, r=0.5, signs=[1, 1], b=0.0)
    assert info.value.field == "mu_high"


def test_invalid_arm_and_count():
    m = power_decay([0.5, 0.4], zeta=0.2, r=0.5, signs=[1, -1])
    with pytest.raises(TaccInputError):
        m.mean_low(2, 1)
    with pytest.raises(TaccInputError):
        m.mean_low(0, 0)


def test_an_overflowing_mismatch_is_inf_without_a_warning():
    """zeta = 1e300 (accepted): U_k(n) overflows to inf at large counts, a value, without numpy's RuntimeWarning
    (it would reach every command's output). Warnings are errors here."""
    import warnings
    m = power_decay([0.9, 0.5], zeta=1e300, r=0.5, signs=[1, -1])
    n = 10**16                                       # P(n) ~ 2 sqrt(n) = 2e8: a_k P(n) past the largest float
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert m.mismatch_sum_at([0, 1], [n, n]).tolist() == [np.inf, -np.inf]
        big = power_decay([0.9, 0.5], zeta=1.7e308, r=0.5, signs=[1, -1])
        assert np.isinf(big.mismatch_bound_at([0, 1], [3, 3])).all()   # |a_k| P(3) / 3 > the largest float
