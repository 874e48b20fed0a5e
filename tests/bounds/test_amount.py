"""exact_amount and cost_units: the decimals of a configuration read exactly, and the integer units of the
budget check (exact values, edge cases, properties, invalid arguments)."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from bounds import TaccInputError, cost_units, exact_amount, horizon

# --- exact values ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value,expected", [
    (0.1, Fraction(1, 10)),            # not the binary 3602879701896397 / 2**55
    (0.3, Fraction(3, 10)),
    (0.333, Fraction(333, 1000)),
    (128000, Fraction(128000)),
    (1e20, Fraction(10**20)),
    (Fraction(1, 3), Fraction(1, 3)),  # a Fraction is taken as it is
])
def test_exact_amount_values(value, expected):
    assert exact_amount("costs.low", value) == expected


def test_cost_units_value():
    # hand: lcm of denominators 10, 10, 1 is 10; 0.1 -> 1, 0.3 -> 3, 1 -> 10
    u = cost_units(0.1, 0.3, 1)
    assert (u.low, u.high, u.budget, u.denominator) == (1, 3, 10, 10)
    assert u.price(0) == 1 and u.price(1) == 3
    assert u.floor(0.25) == 2 and u.value(7) == 0.7


def test_horizon_reads_the_written_decimals():
    # 0.9 / 0.3 is 3.0000000000000004 in floating point and the binary 0.9 exceeds 3 x binary 0.3: ceil would be 4
    assert horizon(0.9, 0.3) == 3
    assert horizon(1, 0.1) == 10 and horizon(2.3, 0.1) == 23

# --- edge cases -----------------------------------------------------------------------------------------------


def test_overflow_is_refused_naming_the_field_with_the_digits():
    with pytest.raises(TaccInputError) as e:
        cost_units(1 / 3, 10.0, 10**6)          # 0.3333333333333333: denominator 10**16
    assert e.value.field == "costs.low"
    with pytest.raises(TaccInputError) as e:
        cost_units(1.0, 10.0, 2.0**62)          # integers, but the budget itself is too large
    assert e.value.field == "params.budget"
    assert "the budget is too large" in e.value.reason and "decimal digits" not in e.value.reason
    assert cost_units(1 / 3, 10.0, 100).denominator == 10**16     # fits: accepted
    with pytest.raises(TaccInputError) as e:
        cost_units(1.0, 10.0, 5e-324)           # the smallest subnormal: a denominator of 324 digits
    assert e.value.field == "params.budget" and len(str(e.value)) < 300, str(e.value)
    assert "324 digits" in e.value.reason


def test_analyze_refuses_what_the_engines_cannot_account_for():
    """tacc bounds crashed (OverflowError, exit 3) on a budget of 1e19 that tacc simulate refused naming it."""
    from dataclasses import replace

    from bounds import analyze, load_config
    config = load_config("llm-residual")
    with pytest.raises(TaccInputError) as e:
        analyze(replace(config, params=replace(config.params, budget=1e19)))
    assert e.value.field == "params.budget"

# --- properties -----------------------------------------------------------------------------------------------


@given(st.decimals(Decimal("0.001"), Decimal("1000"), places=3, allow_nan=False, allow_infinity=False)
       .filter(lambda d: d > 0))
def test_every_short_decimal_is_read_as_written(d):
    assert exact_amount("costs.low", float(str(d))) == Fraction(d)


@given(st.integers(1, 9999), st.integers(1, 9999), st.integers(1, 10**6))
def test_units_are_exact_multiples(lo, hi, b):
    low, high, budget = lo / 1000, hi / 100, b / 10
    u = cost_units(low, high, budget)
    assert Fraction(u.low, u.denominator) == Fraction(lo, 1000)
    assert Fraction(u.high, u.denominator) == Fraction(hi, 100)
    assert Fraction(u.budget, u.denominator) == Fraction(b, 10)

# --- invalid arguments ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("args,field", [
    ((0.0, 1.0, 1.0), "costs.low"), ((1.0, -1.0, 1.0), "costs.high"), ((1.0, 2.0, float("inf")), "params.budget"),
    ((1.0, 2.0, float("nan")), "params.budget"), ((True, 2.0, 1.0), "costs.low"),
    ((Fraction(0), 1.0, 1.0), "costs.low"),
])
def test_invalid_arguments(args, field):
    with pytest.raises(TaccInputError) as e:
        cost_units(*args)
    assert e.value.field == field
