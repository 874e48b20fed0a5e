"""first_true: the minimum of a monotone predicate, at any count."""

import math

import numpy as np
import pytest
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


# ---- first_true_sorted_rows: rows whose answers are ordered, searched coarse to fine (the RDFE counts)
from bounds._search import counts_or_inf, first_true_sorted_rows  # noqa: E402


def test_sorted_rows_values_and_edges():
    assert first_true_sorted_rows(lambda i, n: n * n >= 50 * (3 - i), np.zeros(3, dtype=np.int64)).tolist() == \
        [13.0, 10.0, 8.0]
    assert first_true_sorted_rows(lambda i, n: n < 0, np.zeros(40, dtype=np.int64)).tolist() == [math.inf] * 40
    assert first_true_sorted_rows(lambda i, n: n >= 5, np.zeros(0, dtype=np.int64)).size == 0
    assert first_true_sorted_rows(lambda i, n: n >= 100, np.zeros(2, dtype=np.int64), limit=50).tolist() == \
        [math.inf] * 2


@st.composite
def _ordered_rows(draw):
    """Groups of rows, each a nonincreasing list of thresholds (some never reached: above the limit), and a
    predicate ``n >= threshold`` per row: within a group a later row's predicate is weaker."""
    groups = draw(st.lists(st.lists(st.one_of(st.integers(1, 2**53), st.integers(1, 300), st.just(2**60)),
                                    min_size=1, max_size=80), min_size=1, max_size=5))
    thresholds, labels = [], []
    for g, ts in enumerate(groups):
        thresholds += sorted(ts, reverse=True)
        labels += [g] * len(ts)
    return np.array(thresholds, dtype=np.int64), np.array(labels, dtype=np.int64)


@given(_ordered_rows(), st.sampled_from([2**53, 2**40, 1000]))
def test_sorted_rows_equal_the_search_from_one(rows, limit):
    """Each row's answer is the one first_true_rows finds from 1 (a wrong bracket, a row searched from a
    neighbour of another group or from the wrong neighbour, gives another count)."""
    t, labels = rows
    calls = []

    def predicate(i, n):
        calls.append(i.size)
        return n >= t[i]

    got = first_true_sorted_rows(predicate, labels, limit=limit)
    assert got.tolist() == first_true_rows(lambda i, n: n >= t[i], t.size, limit=limit).tolist()


def test_sorted_rows_need_the_order():
    # the rows' answers must be ordered within a group: rows out of order (or two groups given one label) get
    # counts that are not their minima, so the order is what makes the bracketing exact
    t = np.array([5, 9] + [1] * 30 + [40], dtype=np.int64)
    got = first_true_sorted_rows(lambda i, n: n >= t[i], np.zeros(t.size, dtype=np.int64))
    assert got.tolist() != t.astype(float).tolist()
    labels = np.array([0, 1] + [2] * 30 + [3], dtype=np.int64)
    assert first_true_sorted_rows(lambda i, n: n >= t[i], labels).tolist() == t.astype(float).tolist()


@given(st.lists(st.one_of(st.integers(-2**53, 2**53).map(float), st.just(math.inf)), max_size=50))
def test_counts_or_inf_is_the_entry_by_entry_conversion(xs):
    want = tuple(math.inf if x == math.inf else int(x) for x in xs)
    got = counts_or_inf(np.array(xs, dtype=float))
    assert got == want and [type(x) for x in got] == [type(x) for x in want]


def test_counts_or_inf_leaves_other_entries_to_int():
    assert counts_or_inf(np.array([2.5, math.inf])) == (2, math.inf)          # int truncates, as before
    for bad in ([math.nan], [-math.inf]):
        with pytest.raises((ValueError, OverflowError)):
            counts_or_inf(np.array(bad))
