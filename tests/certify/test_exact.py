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
