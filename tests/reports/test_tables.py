"""JSON and table encoding: no NaN or infinity reaches JSON (null with a reason), a readable word in tables."""

import json
import math

from hypothesis import given
from hypothesis import strategies as st
import numpy as np
import pytest

from reports._tables import CountMean, dumps, fmt, fmt_apart, jsonable, table


def _strict(text):
    return json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))


def test_non_finite_numbers_become_null_with_a_reason():
    out = _strict(dumps({"tau": [3, math.inf], "max_ratio": math.nan, "bound": -math.inf, "ok": 1.5}))
    assert out["tau"] == [3, None] and "never certified" in out["tau_reason"]
    assert out["max_ratio"] is None and "undefined" in out["max_ratio_reason"]
    assert out["bound"] is None and out["bound_reason"] == "-infinity"
    assert out["ok"] == 1.5 and "ok_reason" not in out
    assert jsonable([math.nan]) == [None]


def test_an_existing_reason_is_kept():
    out = _strict(dumps({"max_ratio": math.nan, "max_ratio_reason": "judged on no run"}))
    assert out == {"max_ratio": None, "max_ratio_reason": "judged on no run"}


def test_table_words():
    assert fmt(math.nan) == "undefined" and fmt(math.inf) == "inf" and fmt(-math.inf) == "-inf"
    assert fmt(None) == "-" and fmt(0.0) == "0" and fmt(4.496e-16) == "4.496e-16"


def test_dumps_indents_the_top_levels_and_keeps_every_value():
    x = {"arms": [{"tau": {"value": math.inf}, "n": 3}], "empty": {}, "q": {"a": {"b": [1, 2.5]}}}
    out = dumps(x)
    assert json.loads(out) == jsonable(x)
    assert out.splitlines()[:3] == ['{', '  "arms": [',
                                    '    {"tau": {"value": null, "value_reason": "+infinity"}, "n": 3}']
    assert '"empty": {}' in out


def test_lists_checked_in_vector_calls_keep_every_null_and_reason():
    """A list of plain values passes through as it is; a list with an infinity, a NaN, an int beyond the float
    range or a numpy number takes the path that converts entry by entry (a null and its reason)."""
    assert jsonable({"n": [1, 2, 3], "s": ["a", None, True], "x": [0.5, 2]}) == \
        {"n": [1, 2, 3], "s": ["a", None, True], "x": [0.5, 2]}
    assert jsonable({"tau": [3, math.inf, 5.0]}) == {"tau": [3, None, 5.0], "tau_reason": "null entries: tau_k(gamma) "
                     "is infinite: the arm is never certified (eq:analysis-cert-time)"}
    assert jsonable({"r": (1.0, math.nan)}) == {"r": [1.0, None], "r_reason": "null entries: undefined (not a "
                                                                           "number): no value exists for this quantity"}
    assert jsonable([10**400, 1.5]) == [10**400, 1.5]
    assert jsonable([np.float64(1.5), 2.0]) == [1.5, 2.0] and type(jsonable([np.float64(1.5)])[0]) is float
    with pytest.raises(ValueError):
        dumps({"x": [math.inf]}, converted=True)       # a record said to be converted is still checked


def test_long_lists_with_repeated_numbers_encode_as_json_does():
    """A long column repeating a few numbers encodes each distinct number once: the text is json's, including the
    cases where equal numbers have different texts (1 and 1.0, 0.0 and -0.0) and a NaN is still refused."""
    from reports._tables import _line

    rng = np.random.default_rng(0)
    cases = [rng.choice([0.5, 1.25, 3e300, -2.0, 12.033526349546898], 5000).tolist(),
             [int(v) for v in rng.choice([1, 2, -7], 3000)] + [10**30] * 100, [1.0] * 2000,
             rng.random(3000).tolist(), [-0.0] * 1500 + [0.0] * 1500, [1] * 1500 + [1.0] * 1500, [True] * 2000,
             [1.0] * 1024 + rng.random(3000).tolist(), [[1, 2]] * 2000, [1.5] * 10]
    for c in cases:
        assert _line(c) == json.dumps(c, allow_nan=False)
    with pytest.raises(ValueError):
        _line([math.nan] * 2000)


def test_a_column_of_numbers_stays_right_aligned_with_entries_not_stated():
    """'-' (not stated) among numbers keeps the column right-aligned (tacc check's max-ratio columns went left);
    a column of text stays left-aligned."""
    out = table(["n", "ratio", "name"], [(1, 0.9999, "a"), (10, "-", "bb"), (100, None, "c")]).splitlines()
    assert out[2] == "  1  0.9999  a"
    assert out[3] == " 10       -  bb"
    assert out[4] == "100       -  c"


def test_two_close_values_are_printed_apart():
    # the case `tacc explain` printed as "B_k from 0.05114 to 0.05114 (-2.548e-06)"
    before, after = fmt_apart(0.0511427, 0.0511427 - 2.548e-06)
    assert before != after and (before, after) == ("0.051143", "0.05114")
    assert fmt_apart(0.0511427, 0.0511427) == ("0.05114", "0.05114")      # equal values print alike
    assert fmt_apart(12345.4, 12345.45) == ("12345.4", "12345.5")           # fmt prints 12345 for both
    assert fmt_apart(1.0, math.nextafter(1.0, 2.0)) == ("1", "1.0000000000000002")
    assert fmt_apart(math.inf, 1.0) == ("inf", "1")


@given(st.floats(allow_nan=False, allow_infinity=False), st.floats(allow_nan=False, allow_infinity=False))
def test_different_values_never_print_alike(a, b):
    sa, sb = fmt_apart(a, b)
    assert (sa == sb) == (a == b)


def test_a_mean_count_never_prints_above_its_maximum():
    # `tacc simulate` printed "N_H mean 1.000e+08" beside "N_H max 99998677"
    assert fmt(99998012.3) == "1.000e+08"
    assert fmt(CountMean(99998012.3)) == "99998012.3"
    assert fmt(CountMean(12.25)) == fmt(12.25) == "12.25"
    assert fmt(CountMean(14066.0)) == "14066"
    assert table(["N mean", "N max"], [(CountMean(99998012.3), 99998677)]).splitlines()[-1] == "99998012.3  99998677"


@given(st.lists(st.integers(0, 10**12), min_size=1, max_size=20))
def test_a_printed_mean_count_lies_between_the_smallest_and_largest_count(counts):
    shown = float(fmt(CountMean(sum(counts) / len(counts))))
    assert min(counts) <= shown <= max(counts)
