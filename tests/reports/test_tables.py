"""JSON and table encoding: no NaN or infinity reaches JSON (null with a reason), a readable word in tables."""

import json
import math

from hypothesis import given
from hypothesis import strategies as st
import numpy as np
import pytest

from reports.tables import CountMean, Ratio, dumps, fmt, fmt_apart, fmt_apart_all, jsonable, table


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
    from reports.tables import _line

    rng = np.random.default_rng(0)
    cases = [rng.choice([0.5, 1.25, 3e300, -2.0, 12.033526349546898], 5000).tolist(),
             [int(v) for v in rng.choice([1, 2, -7], 3000)] + [10**30] * 100, [1.0] * 2000,
             rng.random(3000).tolist(), [-0.0] * 1500 + [0.0] * 1500, [1] * 1500 + [1.0] * 1500, [True] * 2000,
             [1.0] * 1024 + rng.random(3000).tolist(), [[1, 2]] * 2000, [1.5] * 10]
    cases += [[None, 2.5] * 1000, [None, -0.0] * 1000, [0.0, None] * 1000 + [-0.0], ["A", "B", None] * 700,
              [False, None] * 600, [1, None] * 600 + [1.0], [None] * 2000, [[1, 2], None] * 800,
              {"tau": [1, 5] * 800, "window": [[3, 4]] * 1600, "gain": [0.25] * 1600, "r": {"x": [7] * 2000}},
              {1: [2.5] * 2000}, {"a": [], "b": {}, "c": "\u00e9\n"}]
    for c in cases:
        assert _line(c) == json.dumps(c, allow_nan=False)
    for bad in ([math.nan] * 2000, {"x": [math.inf] * 2000}, [None, math.nan] * 600, {"y": -math.inf}):
        with pytest.raises(ValueError):
            _line(bad)


#: the kinds of entries a column holds, each with few values (so they repeat): numbers of one type, both zeros,
#: text, lists; a column draws from one kind, nulls, and sometimes a value of another kind.
_KINDS = (st.integers(-3, 3), st.integers(), st.sampled_from([0.0, -0.0]), st.sampled_from([0.0, -0.0, 1.0, 2.5]),
          st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(["A", "C^d", "\u00e9", ""]),
          st.booleans(), st.lists(st.integers(0, 3), max_size=2))


@st.composite
def _columns(draw):
    kind = draw(st.sampled_from(_KINDS))
    pool = draw(st.lists(kind, min_size=1, max_size=6)) + draw(st.lists(st.none(), max_size=1))
    pool += draw(st.lists(st.one_of(*_KINDS), max_size=1))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=40))
    length = draw(st.sampled_from([10, 1100, 1100, 3000]))
    return [pool[picks[i % len(picks)]] for i in range(length)]


@given(column=_columns(), wrap=st.booleans())
def test_line_is_json_text_for_any_column(column, wrap):
    """Whatever a long column repeats (numbers of one type or several, both zeros, text, nulls, lists), alone or
    in a mapping of columns, ``_line`` writes json's text."""
    from reports.tables import _line

    x = {"column": column, "n": len(column)} if wrap else column
    assert _line(x) == json.dumps(x, allow_nan=False)


@given(columns=st.lists(_columns(), min_size=1, max_size=4), copies=st.lists(st.integers(0, 3), max_size=4),
       zero=st.sampled_from([0.0, -0.0, 0, False, None]))
def test_a_column_equal_to_one_already_written_takes_its_text_only_when_the_texts_agree(columns, copies, zero):
    """A record's long column equal to one written before takes its text (``tacc bounds`` writes columns equal to
    another), and only when each entry has the same text: 1, 1.0 and True are equal, so are 0.0 and -0.0."""
    from reports.tables import dumps

    columns = columns + [list(columns[i % len(columns)]) for i in copies]
    for i in copies:                             # a copy with one entry changed to an equal value of another text
        c = list(columns[i % len(columns)])
        c[len(c) // 2] = zero if c[len(c) // 2] == zero else c[len(c) // 2]
        columns.append(c)
    x = {f"c{i}": c for i, c in enumerate(columns)}
    assert dumps(x, depth=1, converted=True) == "{\n" + ",\n".join(
        f"  {json.dumps(k)}: {json.dumps(c, allow_nan=False)}" for k, c in x.items()) + "\n}"


def test_equal_columns_with_other_texts_keep_their_own():
    from reports.tables import dumps

    base = [0.5, 0.0, None, 2.0] * 400
    for other in ([0.5, -0.0, None, 2.0] * 400, [0.5, 0, None, 2] * 400, [True, False, None, 2] * 400):
        x = {"a": base, "b": other, "c": list(base)}
        lines = dumps(x, depth=1, converted=True).splitlines()[1:-1]
        assert lines == [f"  {json.dumps(k)}: {json.dumps(c)}" + ("," if k != "c" else "") for k, c in x.items()]


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


def test_a_measured_value_and_its_bound_are_printed_apart():
    # a budget-1e12 report printed a regret and its bound both as 1.200e+06 in one row
    assert [fmt(1199987.2), fmt(1200000.0)] == ["1.200e+06", "1.200e+06"]
    assert fmt_apart_all([1199987.2, 1200000.0]) == ["1.19999e+06", "1.20000e+06"]
    assert fmt_apart_all([1199987.2, 1200000, 1200012.5]) == ["1.19999e+06", "1200000", "1.20001e+06"]  # 1.200e+06
    # is 1200000 to a reader: the digits grow until the numbers read differ, not only the texts
    assert fmt_apart_all([2488.6, 2489, 2489]) == ["2488.6", "2489", "2489"]     # a mean count beside its bound
    assert fmt_apart_all([18.0, 17.5, 1742.0, 138554.0]) == ["18", "17.5", "1742", "138554"]   # apart: as fmt
    assert fmt_apart_all([math.inf, 1.0, None, math.nan, 1.0]) == ["inf", "1", "-", "undefined", "1"]
    assert fmt_apart_all([]) == []
    # a table right-aligns them as numbers
    assert table(["bound", "mean"], [fmt_apart_all([2489, 2488.6])]).splitlines()[-1] == " 2489  2488.6"


@given(st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers(-2**53, 2**53)),
                max_size=6))
def test_different_numbers_never_read_alike(xs):
    texts = fmt_apart_all(xs)
    for x, tx in zip(xs, texts, strict=True):
        for y, ty in zip(xs, texts, strict=True):
            assert (float(tx) == float(ty)) == (x == y)
            if x < y:
                assert float(tx) < float(ty)      # rounding keeps the order
    if len({float(fmt(x)) for x in xs}) == len(set(xs)):
        assert texts == [fmt(x) for x in xs]      # what fmt prints apart is printed as fmt prints it


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


def test_a_ratio_below_one_never_prints_as_one():
    # tacc check printed the theorem's max ratio 0.99998 as "1", like class-A's exact 1
    assert fmt(0.99998) == "1" and fmt(Ratio(0.99998)) == "0.99998" and fmt(Ratio(1.0)) == "1"
    assert fmt(Ratio(0.5)) == "0.5" and fmt(Ratio(math.nan)) == "undefined" and fmt(Ratio(math.inf)) == "inf"
    assert fmt(Ratio(1 + 2**-52)) == "1.0000000000000002"


@given(st.floats(0, 10, allow_nan=False))
def test_a_printed_ratio_is_one_only_when_it_is(x):
    assert (fmt(Ratio(x)) == "1") == (x == 1.0)


def test_a_column_of_shared_objects_encodes_each_object_once_as_json_does():
    """A long column holding a few objects many times (one [first, last] list per window, shared by many arms)
    writes json's text, also when equal objects have different texts ([1, 2] and [1.0, 2.0]); a NaN inside one is
    still refused."""
    from reports.tables import _line

    a, b, c = [3, 4], [3.0, 4.0], {"x": [1, None]}
    for col in ([a] * 3000, [a, None, b] * 700, [c, a, 1, "t"] * 500, [[i, i] for i in range(2000)]):
        assert _line(col) == json.dumps(col, allow_nan=False)
    with pytest.raises(ValueError):
        _line([a, [math.nan]] * 1000)


def test_an_int_beyond_2_53_prints_in_exponent_form_and_apart():
    """The counts table printed the N_H bound 4 ell / Delta^2 at Delta = 1e-12 as 27 digits beside 1.231e+15;
    an int beyond 2**53 now prints as the floats do, with the digits that tell it from its neighbours; up to
    2**53 an int prints whole."""
    from reports.tables import fmt, fmt_apart_all
    big = 123078457161158599668813613
    assert fmt(big) == "1.231e+26" and fmt(-big) == "-1.231e+26"
    assert fmt(2 ** 53) == "9007199254740992" and fmt(2 ** 53 + 1) == "9.007e+15"
    assert fmt_apart_all([big, 7.5, 3]) == ["1.231e+26", "7.5", "3"]
    a, b = fmt_apart_all([big, 1.2308e26])
    assert a != b and float(a) != float(b)


def test_a_seed_prints_whole_at_any_size():
    """Seeds beyond 2**53 (up to 2**63 - 1 are accepted) printed in exponent form, two rows reading 9.223e+18: a seed
    is an identifier, printed whole (``Whole``); other ints keep the floats' form beyond 2**53."""
    from reports.tables import Whole
    for seed in (0, 2**53 + 1, 2**63 - 2, 2**63 - 1):
        assert fmt(Whole(seed)) == str(seed)
    assert fmt(2**63 - 1) == "9.223e+18"
    out = table(["seed"], [(Whole(2**63 - 2),), (Whole(2**63 - 1),)])
    assert "9223372036854775806" in out and "9223372036854775807" in out


def test_tacc_simulate_prints_huge_seeds_whole(capsys):
    from reports.cli import main
    assert main(["simulate", "set-b", "--policy", "ucb", "--seeds", "9223372036854775806:9223372036854775808"]) == 0
    out = capsys.readouterr().out
    assert "9223372036854775806" in out and "9223372036854775807" in out and "9.223e+18" not in out
