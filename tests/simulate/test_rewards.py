"""The reward table (docs/design.md section 4): a pure function of (seed, k, m, n) with the right distribution."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from simulate import HIGH, LOW, RewardTable
from simulate._rewards import uniform_pair


@given(st.integers(0, 2**63 - 1), st.integers(0, 10**6), st.sampled_from([LOW, HIGH]), st.integers(1, 2**40))
def test_pure_function_of_its_key(seed, k, m, n):
    a = RewardTable(seed)(k, m, n, 0.3)
    assert a == RewardTable(seed)(k, m, n, 0.3)          # no state: a fresh table gives the same draw
    u1, u2 = uniform_pair(seed, k, m, n)
    assert 0.0 < u1 < 1.0 and 0.0 < u2 < 1.0


def test_draws_differ_across_every_coordinate():
    t = RewardTable(5)
    base = t(3, LOW, 10, 0.0)
    assert len({base, t(4, LOW, 10, 0.0), t(3, HIGH, 10, 0.0), t(3, LOW, 11, 0.0),
                RewardTable(6)(3, LOW, 10, 0.0)}) == 5


def test_gaussian_is_standard_normal_scaled():
    t = RewardTable(11, "gaussian", sigma=2.0)
    z = np.array([t(k, m, n, 1.0) for k in range(4) for m in (LOW, HIGH) for n in range(1, 2501)])
    assert stats.kstest((z - 1.0) / 2.0, "norm").pvalue > 1e-3


def test_uniforms_are_uniform_and_independent():
    u = np.array([uniform_pair(3, k, 0, n) for k in range(3) for n in range(1, 5001)])
    assert stats.kstest(u[:, 0], "uniform").pvalue > 1e-3
    assert stats.kstest(u[:, 1], "uniform").pvalue > 1e-3
    assert abs(np.corrcoef(u[:, 0], u[:, 1])[0, 1]) < 0.03


@pytest.mark.parametrize("p", [0.0, 0.25, 0.5, 1.0])
def test_bernoulli_frequency(p):
    t = RewardTable(2, "bernoulli")
    y = np.array([t(0, HIGH, n, p) for n in range(1, 20001)])
    assert set(np.unique(y)) <= {0.0, 1.0}
    if p in (0.0, 1.0):
        assert np.all(y == p)                             # means at 0 and 1 are exact
    else:
        assert stats.binomtest(int(y.sum()), y.size, p).pvalue > 1e-3
