"""``certify.Histogram``: exact values, edge cases, properties against matplotlib's own box statistics, rounding past
``MAX_DISTINCT``."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.cbook import boxplot_stats

from certify import _histogram as histogram_module
from certify._histogram import Histogram

BOX = ("med", "q1", "q3", "iqr", "whislo", "whishi")


def _of(values) -> Histogram:
    h = Histogram()
    for x in values:
        h.add(x)
    return h


# exact values (by hand: the linear-interpolation quartiles of 1, 2, 3, 3 are 1.75, 2.5, 3)
def test_quartiles_and_whiskers_by_hand():
    box = _of([3, 1, 3, 2]).box()
    assert (box["q1"], box["med"], box["q3"], box["whislo"], box["whishi"]) == (1.75, 2.5, 3.0, 1.0, 3.0)
    far = _of([1, 2, 3, 4, 100]).box()                 # 100 beyond q3 + 1.5 iqr = 4 + 3: the whisker stops at 4
    assert far["whishi"] == 4.0 and far["whislo"] == 1.0


# edge cases
def test_nan_and_infinite_values_are_counted_apart_from_the_box():
    h = _of([math.nan, math.inf, 2.0, math.nan, -math.inf])
    assert h.total == 5 and h.count("nan") == 2 and h.count("inf") == 2
    assert h.box()["med"] == 2.0 and h.points().tolist() == [2.0]


def test_an_empty_histogram_has_a_box_of_nan_and_no_point():
    h = Histogram()
    assert h.total == 0 and all(math.isnan(h.box()[k]) for k in BOX) and h.points().size == 0


def test_points_are_every_run_up_to_the_limit_then_evenly_spaced_quantiles():
    h = _of(range(10))
    assert sorted(h.points(limit=10).tolist()) == list(range(10))
    assert sorted(h.points(limit=5).tolist()) == [0.0, 3.0, 5.0, 7.0, 9.0]     # at (i + 1/2) / 5 of 10 runs,
    assert sorted(h.points(limit=4).tolist()) == [0.0, 3.0, 6.0, 9.0]          # the ends at the smallest, largest
    assert h.points(limit=5).tolist() == h.points(limit=5).tolist()            # the same on every call


def test_without_and_update_are_inverse():
    every, part = _of([1, 1, 2, 5, math.nan]), _of([1, 5])
    rest = every.without(part)
    assert rest == _of([1, 2, math.nan])
    rest.update(part)
    assert rest == every


def test_values_are_rounded_past_max_distinct_within_the_stated_error(monkeypatch):
    monkeypatch.setattr(histogram_module, "MAX_DISTINCT", 50)
    values = [1 + i / 997 for i in range(400)]
    h = _of(values)
    assert h.digits is not None and len(h.counts) <= 50 and h.total == 400
    assert h.relative_error == 0.5 * 10.0 ** (1 - h.digits)
    exact = boxplot_stats(np.asarray(values))[0]
    for k in ("med", "q1", "q3"):
        assert abs(h.box()[k] - exact[k]) <= h.relative_error * abs(exact[k]) * 1.000001, k
    merged = Histogram()
    merged.update(h)                               # a merge takes the coarser rounding
    assert merged.digits == h.digits and merged.total == 400


# properties: the box is matplotlib's on the values written out one per run
@given(st.lists(st.one_of(st.integers(0, 30), st.sampled_from([0.1, 1 / 3, 2.5e-7, 7.0]),
                          st.floats(-1e6, 1e6, allow_nan=False)), min_size=1, max_size=60))
def test_the_box_is_matplotlibs_box_of_the_values(values):
    h = _of(values)
    ref = boxplot_stats(np.asarray([float(x) for x in values]))[0]
    assert {k: h.box()[k] for k in BOX} == {k: float(ref[k]) for k in BOX}
    assert h.total == len(values) and sorted(h.points(limit=len(values)).tolist()) == sorted(map(float, values))


# invalid arguments
def test_a_count_of_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="which"):
        Histogram().count("zero")
