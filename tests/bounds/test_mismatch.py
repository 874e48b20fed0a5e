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
