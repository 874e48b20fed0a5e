"""Table, checkpoint-profile and frozen models."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from bounds import TaccInputError, TableLowFidelity, checkpoint_profile, frozen, frozen_of, power_decay

Q = [32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]
GAP = [0.1755, 0.1580, 0.0917, 0.0431, 0.0452, 0.0318, 0.0407, 0.0333, 0.0366]   # paper table


def test_checkpoint_map_and_cap():
    m = checkpoint_profile([0.5568, 0.5060], q=Q, gap=GAP, q_max=2048, signs=[1, -1])
    assert m.mean_low(0, 1) == pytest.approx(0.5568 + 0.1755)      # before q_1: the first checkpoint
    assert m.mean_low(0, 64) == pytest.approx(0.5568 + 0.1580)
    assert m.mean_low(1, 2047) == pytest.approx(0.5060 - 0.0318)
    assert m.mean_low(1, 10**9) == pytest.approx(0.5060 - 0.0407)  # capped at q_max = 2048
    assert m.irregular_prefix(0) == 2048
    assert m.certificate(0, 31) == pytest.approx(31 * 0.1755)


def test_frozen_values():
    m = frozen([0.5, 0.4], values=[0.9, 0.1])
    assert m.mean_low(0, 10**6) == 0.9
    assert m.certificate(1, 10) == pytest.approx(3.0)
    assert m.mismatch_bound(1, 7) == pytest.approx(0.3)
    f = frozen_of(power_decay([0.5, 0.4], zeta=0.2, r=0.5, signs=[1, -1]))
    assert f.mean_low(1, 50) == pytest.approx(0.2)


@st.composite
def tables(draw):
    K = draw(st.integers(2, 4))
    L = draw(st.integers(1, 30))
    mu = draw(st.lists(st.floats(0, 1), min_size=K, max_size=K))
    means = [draw(st.lists(st.floats(0, 1), min_size=L, max_size=L)) for _ in range(K)]
    dev = np.abs(np.array(means) - np.array(mu)[:, None])
    slack = np.array([draw(st.lists(st.floats(0, 0.5), min_size=L, max_size=L)) for _ in range(K)])
    cert = np.cumsum(dev + slack, axis=1)
    return TableLowFidelity(mu, mean_low=means, certificate=cert)


@given(tables(), st.data())
def test_bound_is_the_supremum_past_the_table(m, data):
    k = data.draw(st.integers(0, m.n_arms - 1))
    n = np.arange(1, 3000)
    ratios = m.certificate(k, n) / n
    b = m.mismatch_bound(k, n)
    # sup over s >= n; past 3000 U(s)/s is monotone toward |c_k|, so compare with the finite window and the limit
    limit = abs(m.mean_low(k, 10**9) - m.mu_high[k])
    window = np.maximum(np.maximum.accumulate(ratios[::-1])[::-1], max(limit, ratios[-1]))
    assert np.allclose(b, window, atol=1e-12)
    dev = m.mean_low(k, n) - m.mu_high[k]
    assert np.allclose(m.mismatch_sum(k, n), np.cumsum(dev), atol=1e-9)
    assert np.all(np.cumsum(np.abs(dev)) <= m.certificate(k, n) + 1e-9)


@pytest.mark.parametrize("kwargs,field", [
    (dict(mean_low=[[0.1], [0.2, 0.3]], certificate=[[0.1], [0.1]]), "mean_low"),
    (dict(mean_low=[[0.1], [0.2]], certificate=[[0.1, 0.2], [0.1, 0.2]]), "certificate"),
    (dict(mean_low=[[0.1], [float("nan")]], certificate=[[0.1], [0.1]]), "mean_low"),
    (dict(mean_low=[[0.1], [0.2]], certificate=[[0.1], [-0.1]]), "certificate"),
])
def test_invalid_table(kwargs, field):
    with pytest.raises(TaccInputError) as info:
        TableLowFidelity([0.5, 0.4], **kwargs)
    assert info.value.field == field


@pytest.mark.parametrize("kwargs,field", [
    (dict(q=[64, 32], gap=[0.1, 0.1], q_max=64, signs=[1, 1]), "q"),
    (dict(q=[32, 64], gap=[0.1], q_max=64, signs=[1, 1]), "gap"),
    (dict(q=[32, 64], gap=[0.1, 0.1], q_max=16, signs=[1, 1]), "q_max"),
    (dict(q=[32, 64], gap=[0.1, 0.1], q_max=64, signs=[1, 2]), "signs"),
])
def test_invalid_checkpoint(kwargs, field):
    with pytest.raises(TaccInputError) as info:
        checkpoint_profile([0.5, 0.4], **kwargs)
    assert info.value.field == field
