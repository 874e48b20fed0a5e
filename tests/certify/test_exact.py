"""Certified comparisons (certify._exact): exact on floats, three states with an error bound, no tolerance."""

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from certify._exact import UNIT_ROUNDOFF, Decision, compare_le, exact, rounding_error, upper_float

finite = st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False)


@pytest.mark.parametrize("lhs,rhs,error,decision", [
    (1, 2, 0, Decision.HOLDS), (2, 1, 0, Decision.FAILS), (1.0, 1.0, 0, Decision.HOLDS),
    (0.1 + 0.2, 0.3, 0, Decision.FAILS),                     # 0.30000000000000004 > 0.3, exactly
    (0.1 + 0.2, 0.3, 1e-16, Decision.UNDECIDED),             # the excess (5.6e-17) lies inside the bound
    (1.0, 1.0, 1e-16, Decision.UNDECIDED),                   # a tie of computed values with rounding error
    (1.0, 1.0 + 2**-52, 2**-53, Decision.HOLDS),             # margin = 2 * error
    (1.0 + 2**-52, 1.0, 2**-53, Decision.FAILS),
    (5, math.inf, 0, Decision.HOLDS), (math.inf, math.inf, 0, Decision.HOLDS), (math.inf, 5, 0, Decision.FAILS),
    (Fraction(1, 3), Fraction(1, 3), 0, Decision.HOLDS)])
def test_exact_values_and_edges(lhs, rhs, error, decision):
    assert compare_le(lhs, rhs, error).decision is decision


@given(finite, finite)
def test_exact_comparison_agrees_with_fractions(a, b):
    assert (compare_le(a, b).decision is Decision.HOLDS) == (Fraction(a) <= Fraction(b))


@given(finite, finite, st.floats(0, 1e300))
def test_a_decision_is_true_for_every_value_inside_the_error_bound(a, b, e):
    """HOLDS and FAILS hold for every true margin within ``error`` of the computed one; UNDECIDED only when
    both signs are possible."""
    c = compare_le(a, b, e)
    lo, hi = c.margin - Fraction(e), c.margin + Fraction(e)
    assert {Decision.HOLDS: lo >= 0, Decision.FAILS: hi < 0, Decision.UNDECIDED: lo < 0 <= hi}[c.decision]


@given(st.floats(0, 1e300), st.integers(1, 10**6))
def test_rounding_error_is_gamma_n_rounded_up(x, n):
    g = n * UNIT_ROUNDOFF / (1 - n * UNIT_ROUNDOFF)
    assert Fraction(rounding_error(x, n)) >= g * Fraction(x) / (1 - g)


@given(st.fractions(min_value=-10**20, max_value=10**20))
def test_upper_float_is_the_smallest_float_at_least(x):
    f = upper_float(x)
    assert Fraction(f) >= x and Fraction(math.nextafter(f, -math.inf)) < x


def test_exact_rejects_bool():
    with pytest.raises(TypeError):
        exact(True)


# ------------------------------------------------------------------------------------------ integer decisions
# decide_le and decide_scaled decide what compare_le decides, in integers over one power of two instead of
# Fractions. The property draws values on either side of a threshold within one ulp (ties, near-ties), with
# error bounds equal to the margin or one ulp off it, infinities, signed zeros and subnormals.
from certify._exact import decide_le, decide_scaled, scaled  # noqa: E402


def _ulp_neighbours(x: float) -> list:
    return [x, math.nextafter(x, math.inf), math.nextafter(x, -math.inf)]


@st.composite
def _near_ties(draw):
    """(lhs, rhs, error): rhs within one ulp of lhs, or lhs + error within one ulp of rhs."""
    x = draw(st.one_of(finite, st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 2.0**-1022, 1.0, 1e308, -1e308]),
                       st.integers(-2**70, 2**70)))
    y = draw(st.sampled_from(_ulp_neighbours(float(x))))
    margin = Fraction(y) - Fraction(x)
    e = draw(st.one_of(st.just(0.0), st.just(0), st.floats(0, 1e300),
                       st.sampled_from(_ulp_neighbours(abs(float(margin))) if margin else [0.0, 5e-324])))
    lhs, rhs = draw(st.sampled_from([(x, y), (y, x)]))
    return lhs, rhs, abs(e)


values = st.one_of(finite, st.integers(-2**80, 2**80), st.sampled_from([math.inf, -math.inf, 0.0, -0.0, 5e-324]))


@given(st.one_of(_near_ties(), st.tuples(values, values, st.one_of(st.just(0.0), st.floats(0, 1e300)))))
def test_integer_decision_equals_the_fraction_decision(case):
    lhs, rhs, error = case
    assert decide_le(lhs, rhs, error) is compare_le(lhs, rhs, error).decision
    a, b, e = scaled(lhs), scaled(rhs), scaled(error)
    if None not in (a, b, e):                                    # finite: as integers over one power of two
        s = max(a[1], b[1], e[1])
        ints = [n << (s - k) for n, k in (a, b, e)]
        assert decide_scaled(*ints) is compare_le(lhs, rhs, error).decision


@pytest.mark.parametrize("lhs,rhs,error,decision", [
    (1.0, 1.0, 0.0, Decision.HOLDS),                          # a tie holds
    (math.nextafter(1.0, 2), 1.0, 0.0, Decision.FAILS),         # one ulp above fails
    (1.0, math.nextafter(1.0, 2), 2**-52, Decision.HOLDS),      # margin = error: holds (margin - error >= 0)
    (1.0, math.nextafter(1.0, 2), math.nextafter(2**-52, 1), Decision.UNDECIDED),   # error one ulp larger
    (math.nextafter(1.0, 2), 1.0, math.nextafter(2**-52, 0), Decision.FAILS),       # excess one ulp beyond
    (2**60 + 1, float(2**60), 0.0, Decision.FAILS),              # an int is never rounded to a float to compare
    (math.inf, math.inf, 1.0, Decision.HOLDS), (math.inf, 1e308, 0.0, Decision.FAILS),
    (-0.0, 0.0, 0.0, Decision.HOLDS), (5e-324, 0.0, 0.0, Decision.FAILS), (5e-324, 0.0, 5e-324, Decision.UNDECIDED)])
def test_integer_decision_at_ties_and_one_ulp(lhs, rhs, error, decision):
    assert decide_le(lhs, rhs, error) is decision is compare_le(lhs, rhs, error).decision


def test_what_the_integer_decision_does_not_take_goes_to_fractions():
    assert decide_le(Fraction(1, 3), Fraction(1, 3)) is Decision.HOLDS
    with pytest.raises(TypeError):
        decide_le(True, 1)
    with pytest.raises(ValueError):
        decide_le(math.nan, 1.0)                                 # NaN is not a value to compare, as in compare_le


@given(st.one_of(st.floats(0, 1e300), st.floats(0, 2.0**-1000), st.integers(0, 2**80)),
       st.one_of(st.integers(0, 64), st.integers(0, 2**51)))
def test_rounding_error_in_integers_is_the_fraction_definition(x, n):
    """The integer path returns the same float as the definition: the smallest float >= gamma_n / (1 - gamma_n) |x|
    (gamma_n = n u / (1 - n u)), computed in Fractions."""
    g = n * UNIT_ROUNDOFF / (1 - n * UNIT_ROUNDOFF)
    assert rounding_error(x, n) == upper_float(g * Fraction(x) / (1 - g))
