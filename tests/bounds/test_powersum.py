"""power_sum: exact at small counts (fractions), accurate at any count (mpmath Hurwitz zeta)."""

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, strategies as st

from bounds import TaccInputError, power_sum


def test_exact_harmonic():
    # sum 1/tau for tau <= 10 as an exact fraction
    h10 = sum(Fraction(1, t) for t in range(1, 11))
    assert power_sum(10, 1.0) == pytest.approx(float(h10), rel=1e-15)
    assert power_sum(0, 0.5) == 0.0


@pytest.mark.parametrize("r", [0.25, 0.5, 0.75, 1.0, 1.5, 2.0])
@pytest.mark.parametrize("shift", [0.0, 3.0, 10.5])
@pytest.mark.parametrize("n", [65, 1000, 10**6, 10**12])
def test_against_mpmath(r, shift, n):
    if r == 1.0:
        exact = mpmath.digamma(shift + n + 1) - mpmath.digamma(shift + 1)
    else:
        exact = mpmath.zeta(r, shift + 1) - mpmath.zeta(r, shift + n + 1)
    assert power_sum(n, r, shift) == pytest.approx(float(exact), rel=1e-12)


def test_continuous_at_the_switch():
    n = np.arange(1, 500)
    for r in (0.3, 0.75, 1.0):
        direct = np.cumsum((n + 2.0) ** (-r))
        assert np.allclose(power_sum(n, r, 2.0), direct, rtol=1e-13)


@given(st.floats(0.05, 3.0), st.integers(0, 10**13))
def test_nondecreasing(r, n):
    assert power_sum(n + 1, r) >= power_sum(n, r)


@pytest.mark.parametrize("args,field", [((3, 0.0), "r"), ((3, 1.0, -1.0), "shift"), ((-1, 1.0), "n")])
def test_invalid(args, field):
    with pytest.raises(TaccInputError) as info:
        power_sum(*args)
    assert info.value.field == field


@pytest.mark.parametrize("r", [200.0, 1e10, 1e300])
def test_a_huge_exponent_sums_its_first_terms_without_warnings(r):
    """r = 1e300 (accepted) must not make the expansion's coefficients inf and its terms inf x 0 = NaN (numpy's
    warnings in every command, an "undefined" continuation gain). Past 64 every term is below the smallest float,
    so P(n) is the sum of the first terms: 1 + 2^-r + ... = 1 here."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = power_sum(np.array([1, 64, 65, 10**6]), r)
    assert out.tolist() == [1.0, 1.0, 1.0, 1.0]
