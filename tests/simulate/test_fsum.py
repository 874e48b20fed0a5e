"""The compiled fsum is CPython's math.fsum bit for bit: exact values, edge cases, adversarial properties (huge and
tiny magnitudes, cancellation, half-way ties), and what it refuses."""

import math
import struct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulate._fsum import fsum, fsum_into


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def compiled_sum(values):
    a = np.array(values, dtype=float)
    total, ok = fsum_into(a, a.size)
    assert ok
    return total


# ------------------------------------------------------------------------------------------------ exact values
@pytest.mark.parametrize("values, expected", [
    ([0.1] * 10, 1.0),                                         # Python docs, math.fsum
    ([1e-16, 1.0, 1e16], 1.0000000000000002e16),               # mathmodule.c: the half-even correction
    ([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50], 1e-100),  # CPython test_math.testFsum
    ([2.0 ** 53, -0.5, -2.0 ** -54], 2.0 ** 53 - 1.0),         # test_math: rounds down past the tie
    ([2.0 ** 53, 1.0, 2.0 ** -100], 2.0 ** 53 + 2.0),          # test_math: a tie broken by a tiny partial
    ([2.0 ** 53 + 10.0, 1.0, 2.0 ** -100], 2.0 ** 53 + 12.0),
    ([2.0 ** 999, -2.0 ** 999, 5e-324], 5e-324),               # the widest exact range: 2^999 down to 2^-1074
    ([2.0 ** 999, 2.0 ** 999, 2.0 ** 999], 3 * 2.0 ** 999),
    ([5e-324] * 7, 3.5e-323),                                  # subnormals add exactly
])
def test_exact_values(values, expected):
    assert bits(compiled_sum(values)) == bits(expected) == bits(math.fsum(values))


# ------------------------------------------------------------------------------------------------- edge cases
def test_empty_and_signed_zeros():
    assert bits(compiled_sum([])) == bits(0.0) == bits(math.fsum([]))
    assert bits(compiled_sum([-0.0])) == bits(math.fsum([-0.0]))
    assert bits(compiled_sum([-0.0, -0.0])) == bits(math.fsum([-0.0, -0.0]))


def test_non_finite_values_are_left_to_math_fsum():
    for values in ([1.0, math.inf], [math.inf, -1e308, math.inf], [math.nan, 1.0], [-math.inf]):
        a = np.array(values)
        assert fsum_into(a, a.size)[1] is False
    assert fsum([1.0, math.inf]) == math.inf
    assert math.isnan(fsum([math.nan, 1.0]))
    with pytest.raises(ValueError):                            # -inf + inf, as math.fsum says
        fsum([math.inf, -math.inf])


def test_intermediate_overflow_is_left_to_math_fsum():
    a = np.array([1.7976931348623157e308, 1.7976931348623157e308, -1.7976931348623157e308])
    assert fsum_into(a, a.size)[1] is False
    with pytest.raises(OverflowError):
        fsum(a)


def test_magnitudes_from_2_to_the_1000_are_left_to_math_fsum():
    a = np.array([1.7976931348623157e308, -1.7976931348623157e308, 5e-324])
    assert fsum_into(a, a.size)[1] is False
    assert fsum_into(a[1:], 2)[1] is False
    assert fsum(a) == 5e-324 == math.fsum(a.tolist())
    b = np.array([2.0 ** 1000 - 2.0 ** 947, 1.0])              # just below the limit: summed here
    assert fsum_into(b, 2) == (math.fsum(b.tolist()), True)


def test_only_the_first_n_values_are_summed():
    a = np.array([1.0, 2.0, 1e300])
    assert fsum_into(a, 2) == (3.0, True)


# -------------------------------------------------------------------------------------------------- properties
finite = st.floats(allow_nan=False, allow_infinity=False)
magnitudes = st.sampled_from([1e-308, 5e-324, 2.0 ** -1074 * 3, 1e-16, 0.5, 1.0, 3.0, 2.0 ** 52, 2.0 ** 53, 1e16,
                              1e100, 1e300, 1.7976931348623157e308 / 4])


@st.composite
def adversarial(draw):
    """Values that defeat naive summation: wide exponent ranges, exact cancellation, sums landing half-way."""
    base = draw(st.lists(st.one_of(finite, magnitudes, magnitudes.map(lambda x: -x)), max_size=40))
    kind = draw(st.sampled_from(["plain", "cancel", "tie"]))
    if kind == "cancel":                                       # x and -x, plus small leftovers, shuffled
        base = base + [-x for x in base] + draw(st.lists(st.floats(-1e-10, 1e-10), max_size=5))
    elif kind == "tie":                                        # a large value and halves of its ulp
        big = draw(st.sampled_from([2.0 ** 53, 2.0 ** 60, 1e16, 1.0]))
        ulp = math.ulp(big)
        base = base[:3] + [big, ulp / 2, draw(st.sampled_from([0.0, ulp / 2 ** 40, -ulp / 2 ** 40, ulp / 2]))]
    return draw(st.permutations(base))


@given(adversarial())
def test_equals_math_fsum_bit_for_bit(values):
    try:
        expected = math.fsum(values)
    except OverflowError:
        with pytest.raises(OverflowError):
            fsum(values)
        return
    assert bits(fsum(values)) == bits(expected)


@given(st.lists(st.one_of(st.floats(-2.0 ** 999, 2.0 ** 999), magnitudes.filter(lambda x: x < 2.0 ** 999),
                          st.floats(-1e-300, 1e-300)), max_size=60))
def test_sums_below_the_limit_are_exact_here(values):
    """Without the fallback: every value below 2^1000 is summed by the accumulator, to math.fsum's float."""
    a = np.array(values, dtype=float)
    total, ok = fsum_into(a, a.size)
    assert ok
    assert bits(total) == bits(math.fsum(values))


@given(st.lists(st.floats(min_value=0.0, max_value=1e6), max_size=50),
       st.lists(st.integers(0, 10 ** 6), max_size=50))
def test_equals_math_fsum_on_regret_shares(gaps, counts):
    """The sums the engine makes: products gap x cost x count, nonnegative."""
    values = [g * 10.0 * n for g, n in zip(gaps, counts, strict=False)]
    assert bits(compiled_sum(values)) == bits(math.fsum(values))


# ----------------------------------------------------------------------------------------------- invalid input
def test_invalid_arguments():
    with pytest.raises((ValueError, TypeError)):
        fsum(["a", "b"])
