"""first_true: the minimum of a monotone predicate, at any count."""

import math

import numpy as np
from hypothesis import given, strategies as st

from bounds import first_true


def test_values():
    assert first_true(lambda n: n * n >= 50) == 8
    assert first_true(lambda n: n >= 1) == 1
    assert first_true(lambda n: n >= 5, start=7) == 7
    assert first_true(lambda n: n < 0) == math.inf
    assert first_true(lambda n: n >= 2**52 + 3) == 2**52 + 3
    assert first_true(lambda n: n >= 100, limit=50) == math.inf


@given(st.integers(1, 10**15), st.integers(1, 1000))
def test_finds_any_threshold(t, start):
    got = first_true(lambda n: np.asarray(n) >= t, start=start)
    assert got == max(t, start)
