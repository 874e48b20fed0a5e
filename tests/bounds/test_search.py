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


# ---- first_true_rows: one search per row in shared vector calls (what analyze runs over 10^5 arms)
from bounds._search import first_true_rows  # noqa: E402


def test_rows_values_and_edges():
    assert first_true_rows(lambda i, n: n * n >= 50 * (i + 1), 3).tolist() == [8.0, 10.0, 13.0]
    assert first_true_rows(lambda i, n: n < 0, 2).tolist() == [math.inf, math.inf]      # never true
    assert first_true_rows(lambda i, n: n >= 5, 2, start=[7, 9], limit=8).tolist() == [7.0, math.inf]
    assert first_true_rows(lambda i, n: n >= 1, 0).size == 0


@given(st.lists(st.tuples(st.integers(1, 2**53), st.integers(1, 10**6)), min_size=1, max_size=30),
       st.sampled_from([2**53, 2**40, 10**6]))
def test_rows_equal_the_one_row_search(rows, limit):
    thresholds = np.array([t for t, _ in rows], dtype=np.int64)
    starts = np.array([s for _, s in rows], dtype=np.int64)
    got = first_true_rows(lambda i, n: n >= thresholds[i], len(rows), start=starts, limit=limit)
    want = [first_true(lambda n, t=t: n >= t, start=s, limit=limit) for t, s in rows]
    assert got.tolist() == [float(w) for w in want]
    assert want == [max(t, s) if max(t, s) <= limit else math.inf for t, s in rows]


def test_rows_never_true_stop_after_one_look_at_the_limit():
    # a row false at the first call's grid points is looked at once at the limit in the second call: false
    # there, it stops (2 calls, not one per level up to 2**53); a row true at the limit walks on and is found
    import bounds._search as search
    never = []
    old, search._POINTS = search._POINTS, 8
    try:
        assert first_true_rows(lambda i, n: never.append(n.size) or n < 0, 1).tolist() == [math.inf]
    finally:
        search._POINTS = old
    assert never == [8, 9]                     # levels 0..7, then the limit and levels 8..15
    assert first_true_rows(lambda i, n: np.where(i == 0, n < 0, n >= 10**12), 2).tolist() == [math.inf, 1e12]


@given(st.lists(st.integers(1, 2**53), min_size=1, max_size=40), st.integers(1, 2**53))
def test_rows_equal_a_plain_bisection_at_every_width(thresholds, limit):
    # the minimum does not depend on how many points a call looks at: 64 per row (few rows) down to 2
    # (many rows) give the thresholds themselves, and the calls stay few
    import bounds._search as search
    t = np.array(thresholds, dtype=np.int64)
    want = [float(x) if x <= limit else math.inf for x in thresholds]
    for points in (64, 16, 5, 2):
        old = search._POINTS
        search._POINTS = points
        calls = []
        try:
            got = first_true_rows(lambda i, n, calls=calls: calls.append(1) or n >= t[i], t.size, limit=limit)
        finally:
            search._POINTS = old
        assert got.tolist() == want
        assert len(calls) <= 2 * 54


@given(st.integers(1, 2**53), st.integers(1, 2**53))
def test_high_count_search_start_is_below_the_minimum(a, b):
    # the start of the RDFE high-fidelity search is never past the minimum (the count equals the scan's)
    from bounds._horizon import radius
    from bounds._rdfe import _high_start
    eps, ell = 2.0 ** -(a % 40) * (1 + (b % 997) / 1000), 0.05 + (b % 300) / 10
    s = int(_high_start(np.array([eps / 8]), ell)[0])
    assert s == 1 or radius(s - 1, ell) > eps / 8
