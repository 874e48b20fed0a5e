"""bounds._dyadic: floats as integers over one power of two, rounded up exactly."""

import math
from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bounds import cumulative_deviation, float_above, float_at_least


# exact values, by hand: 2**53 + 1 lies between the floats 2**53 and 2**53 + 2, and the nearest float (ties to
# even) is 2**53, below it; 1/3's nearest float is below it too
def test_exact_values():
    assert float_at_least(1, 0) == 1.0 and float_at_least(3, 1) == 1.5 and float_at_least(1, 2) == 0.25
    assert float_at_least((1 << 53) + 1, 0) == float((1 << 53) + 2)
    assert float_at_least(-((1 << 53) + 1), 0) == -float(1 << 53)
    assert Fraction(float_above(Fraction(1, 3))) > Fraction(1, 3)
    assert cumulative_deviation(0.0, [0.1, 0.2]) == [0.1, 0.30000000000000004]


# edge cases: zero, negative, a value exactly a float, one unit past a float, subnormal and huge magnitudes
@pytest.mark.parametrize("num, shift", [(0, 0), (0, 50), (-1, 0), (-3, 2), (1, 1074), (1, 1075), (3, 1076),
                                        ((1 << 53) + 1, 0), (-((1 << 53) + 1), 0), ((1 << 1023) * 3 // 2, 0)])
def test_edge_cases_equal_the_fraction_rounding(num, shift):
    assert float_at_least(num, shift) == float_above(Fraction(num, 1 << shift))


# property: the integer form is the Fraction form, and the smallest float >= the rational
@given(st.integers(-(1 << 200), 1 << 200), st.integers(0, 1200))
@example((1 << 53) + 1, 0)
@example(1, 1075)
def test_float_at_least_is_the_smallest_float_at_least(num, shift):
    x = Fraction(num, 1 << shift)
    try:
        f = float_at_least(num, shift)
    except OverflowError:
        with pytest.raises(OverflowError):
            float_above(x)
        return
    assert f == float_above(x)
    assert Fraction(f) >= x and (f == -math.inf or Fraction(math.nextafter(f, -math.inf)) < x)


# invalid: a value beyond the largest float overflows, as the float of the fraction does
def test_beyond_the_largest_float_overflows():
    with pytest.raises(OverflowError):
        float_at_least(1 << 1100, 0)
