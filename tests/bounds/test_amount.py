"""exact_amount and cost_units: the decimals of a configuration read exactly, and the integer units of the
budget check (exact values, edge cases, properties, invalid arguments)."""

import math
import re
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
    assert "accepted: a budget of at most" in e.value.reason and "decimal digits" not in e.value.reason
    assert cost_units(1 / 3, 10.0, 100).denominator == 10**16     # fits: accepted
    with pytest.raises(TaccInputError) as e:
        cost_units(1.0, 10.0, 5e-324)           # the smallest subnormal: a denominator of 324 digits
    assert e.value.field == "params.budget" and len(str(e.value)) < 300, str(e.value)
    assert "324 digits" in e.value.reason


def test_analyze_refuses_what_the_engines_cannot_account_for():
    """A budget of 1e19, which the engines cannot account for, is refused by analyze (tacc bounds) naming it, as
    tacc simulate refuses it, not an OverflowError."""
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


# --- what a refusal says would be accepted ----------------------------------------------------------------------


def _advice(reason: str, what: str = r"([0-9.e+]+) with these costs") -> tuple:
    """The largest budget and the decimal places a refusal of cost_units says are accepted (None: not said); the
    budget as the exact decimal written (a whole number, or above 2**53 a float as TOML spells it)."""
    import re

    budget = re.search(r"a budget of at most " + what, reason)
    places = re.search(r"at this budget's size, at most (\d+) decimal places", reason)
    return (None if budget is None else Fraction(budget[1])), (None if places is None else int(places[1]))


def _next_refused(low, high, said: Fraction) -> bool:
    """The amount next above a budget said to be the largest accepted is refused: one more whole unit, or above 2**53
    (where it is spelled as a float) the next float."""
    up = said + 1 if said <= 2**53 else math.nextafter(float(said), math.inf)
    return _refused(low, high, up)


def _refused(*args) -> bool:
    try:
        cost_units(*args)
    except TaccInputError:
        return True
    return False


def test_a_cost_below_the_resolution_is_told_a_larger_cost_or_a_smaller_budget():
    """costs.low = 1e-9 at budget 1e12 (10**21 units): the refusal said "write the costs and budget with fewer
    decimal digits", which 1e-9 cannot follow. It now gives the largest whole budget accepted with these costs
    (hand: (2**62 - 1 - 10 x 10**9) // 10**9 = 4611686008) and the decimal places that fit at this budget's size
    (hand: (10**12 + 10) x 10**6 < 2**62 <= (10**12 + 10) x 10**7: 6), below which 1e-9 lies."""
    with pytest.raises(TaccInputError) as e:
        cost_units(1e-9, 10.0, 1e12)
    reason = e.value.reason
    assert e.value.field == "costs.low" and "fewer digits" not in reason and "costs.low must be at least 1e-6" in reason
    assert _advice(reason) == (4611686008, 6)
    assert cost_units(1e-9, 10.0, 4611686008).budget == 4611686008 * 10**9 and _refused(1e-9, 10.0, 4611686009)
    assert not _refused(1e-6, 10.0, 1e12) and _refused(1e-7, 10.0, 1e12)


def test_a_cost_with_many_digits_is_told_how_many_fit():
    """Where fewer digits do help (0.123456789012345 at budget 10**6), the refusal says how many: 12 decimal places
    fit, 13 do not; and the largest whole budget with the 15-digit cost (hand: (2**62 - 1 - 10 x 2 x 10**14) //
    (2 x 10**14) = 23048)."""
    with pytest.raises(TaccInputError) as e:
        cost_units(0.123456789012345, 10.0, 1e6)
    assert "write costs.low with fewer digits" in e.value.reason and "at least" not in e.value.reason
    assert _advice(e.value.reason) == (23048, 12)
    assert not _refused(0.123456789012, 10.0, 1e6) and _refused(0.1234567890123, 10.0, 1e6)
    assert not _refused(0.123456789012345, 10.0, 23048) and _refused(0.123456789012345, 10.0, 23049)


@pytest.mark.parametrize("written", ["1e300", "4611686018427387893"])
def test_the_largest_budget_said_is_accepted_when_written_back(written):
    """budget = 1e300 was told "at most 4611686018427387893", an integer a configuration reads as a float (2**62),
    refused in turn and echoed as 4.611686018427388e+18. The value said now is the largest float accepted, spelled
    so that it reads back; the refused integer is echoed as written, with the float it is read as."""
    import copy
    import tomllib

    from bounds import config_to_dict, load_config, parse_config

    data = config_to_dict(load_config("set-a"))
    data["params"]["budget"] = tomllib.loads(f"b = {written}")["b"]
    with pytest.raises(TaccInputError) as e:
        parse_config(data)
    assert str(e.value).startswith(f"params.budget = {'1e+300' if written == '1e300' else written}: ")
    said = re.search(r"a budget of at most (\S+) with these costs$", e.value.reason)[1]
    back = copy.deepcopy(data)
    back["params"]["budget"] = tomllib.loads(f"b = {said}")["b"]
    assert parse_config(back).params.budget == float(said)
    back["params"]["budget"] = math.nextafter(float(said), math.inf)
    with pytest.raises(TaccInputError):
        parse_config(back)


def test_a_budget_with_too_many_digits_is_not_told_to_be_smaller():
    """A tiny budget written with many digits: a smaller budget would not help, so it is not advised."""
    with pytest.raises(TaccInputError) as e:
        cost_units(1.0, 10.0, 1e-20)
    assert e.value.field == "params.budget" and "too large" not in e.value.reason
    assert _advice(e.value.reason) == (None, 17) and "params.budget must be at least 1e-17" in e.value.reason
    assert not _refused(1.0, 10.0, 1e-17) and _refused(1.0, 10.0, 1e-18)


@given(st.integers(0, 25), st.integers(1, 10**6), st.integers(0, 25), st.integers(1, 10**6), st.integers(0, 20),
       st.integers(1, 10**6))
def test_what_a_refusal_accepts_is_accepted(e_low, m_low, e_high, m_high, e_budget, m_budget):
    """On every refusal the advice is right: the largest whole budget said is accepted with these costs and one more
    is not; each amount rounded up to the decimal places said is accepted at this budget; when neither fits (costs too
    fine for any budget, the budget beyond 2**62 whole units), the largest budget with whole-number costs. Every refusal
    says at least one of them."""
    low, high = Fraction(m_low, 10**e_low), Fraction(m_high, 10**e_high)
    budget = Fraction(m_budget) * 10**e_budget
    if not _refused(low, high, budget):
        return
    with pytest.raises(TaccInputError) as e:
        cost_units(low, high, budget)
    largest, places = _advice(e.value.reason)
    whole, _ = _advice(e.value.reason, r"([0-9.e+]+) with costs written as whole numbers")
    assert largest is not None or places is not None or whole is not None, e.value.reason
    if whole is not None:
        c = (-(-low // 1), -(-high // 1))
        assert not _refused(*c, whole) and _next_refused(*c, whole)
    if largest is not None:
        assert largest < budget and not _refused(low, high, largest) and _next_refused(low, high, largest)
    if places is not None:
        def up(a):
            return Fraction(-((-a * 10**places) // 1), 10**places)
        assert not _refused(up(low), up(high), up(budget))


@pytest.mark.parametrize("low, high", [(1.0, 1e300), (1e300, 10.0), (1.0, 2.0**62)])
def test_a_cost_no_budget_can_pay_is_blamed_on_the_cost(low, high):
    """A cost no budget can pay (costs.high = 1e300) is refused as the cost, naming it, with the largest cost
    accepted; it is never blamed on params.budget ("accepted: ... a budget of at most about -.99e+300")."""
    with pytest.raises(TaccInputError) as e:
        cost_units(low, high, 20000)
    assert e.value.field == ("costs.high" if high > low else "costs.low")
    assert "accepted: a cost of at most 4.6116860184273874e+18" in e.value.reason and "-" not in e.value.reason
