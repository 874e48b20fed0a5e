"""JSON and table encoding: no NaN or infinity reaches JSON (null with a reason), a readable word in tables."""

import json
import math

from reports._tables import dumps, fmt, jsonable


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
