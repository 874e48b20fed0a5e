"""bounds.toml_value: a value as TOML spells it (dump_config's writing, a refused configuration value's message)."""

import datetime
import math

import numpy as np
import pytest
import tomllib
from hypothesis import given
from hypothesis import strategies as st

from bounds import toml_value


@pytest.mark.parametrize("value,text", [
    (True, "true"), (False, "false"), (np.bool_(True), "true"), (3, "3"), (np.int64(-2), "-2"), (0.5, "0.5"),
    (np.float64(1e-05), "1e-05"), (math.inf, "inf"), (-math.inf, "-inf"), (1e300, "1e+300"),
    ("uniform", '"uniform"'), ("it's", '"it\'s"'), ('a"b\\c', '"a\\"b\\\\c"'), ("x\ny\x7f", '"x\\ny\\u007f"'),
    (datetime.date(2020, 1, 1), "2020-01-01"), (datetime.time(7, 32), "07:32:00"),
    ([], "[]"), ((1, [2.0, "x"]), '[1, [2.0, "x"]]'), ({}, "{}"),
    ({"distribution": "uniform", "a b": {"c": True}}, '{ distribution = "uniform", "a b" = { c = true } }'),
    (None, "None"),                                          # no TOML value: Python's repr
])
def test_exact_spellings(value, text):
    assert toml_value(value) == text


_scalars = (st.booleans() | st.integers(-2**63, 2**63 - 1) | st.floats(allow_nan=False) | st.text()
            | st.dates() | st.datetimes() | st.times())
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(min_size=1), inner, max_size=3), max_leaves=8)


@given(_values)
def test_what_it_writes_tomllib_reads_back_on_one_line(value):
    text = toml_value(value)
    assert "\n" not in text
    assert tomllib.loads(f"v = {text}")["v"] == value
