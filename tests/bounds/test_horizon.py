"""horizon, log_factor, radius, n_gamma, min_rho: exact values, edge cases, properties, invalid arguments."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from bounds import (TaccInputError, continuation_cap_holds, first_round_cost, first_round_paid, horizon, log_factor,
                    min_rho, n_gamma, radius)

# --- exact values ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("budget,cost,expected", [
    (128000, 1.0, 128000),      # LLM experiments
    (100, 3.0, 34),             # ceil(33.33...)
    (0.3, 0.1, 3),              # the written decimals: 3/10 / 1/10 = 3 (0.3 / 0.1 is 2.9999999999999996 in floats)
    (0.9, 0.3, 3),              # 0.9 / 0.3 is 3.0000000000000004 in floats, and the binary ratio exceeds 3
    (10, 10.0, 1),
])
def test_horizon_values(budget, cost, expected):
    assert horizon(budget, cost) == expected
    assert horizon(budget, cost) == math.ceil(Fraction(repr(float(budget))) / Fraction(repr(float(cost))))


@pytest.mark.parametrize("n_arms, low, high, budget, paid", [
    (6, 1.0, 10.0, 66.0, True),                         # equal: paid (the start is K queries at each fidelity)
    (6, 1.0, 10.0, math.nextafter(66.0, 0), False),     # a float below
    (3, 0.1, 0.2, 0.9, True),     # the written decimals: 3 (1/10 + 2/10) = 9/10 (3 (0.1 + 0.2) > 0.9 in floats)
    (3, 0.1, 0.2, 0.89, False),
    (6, 1e9, 1e10, 6.25e10, False),                     # a sweep point below the start's 6.6e10
])
def test_first_round_paid_values(n_arms, low, high, budget, paid):
    """K (lambda_L + lambda_H) <= Lambda (alg:start), exact, in the written decimals as the engines count."""
    assert first_round_paid(n_arms, low, high, budget) is paid
    assert first_round_cost(n_arms, low, high) == n_arms * (Fraction(repr(low)) + Fraction(repr(high)))


@pytest.mark.parametrize("s0, low, high, holds", [
    (3, 0.1, 0.3, True),          # 3 x 1/10 = 3/10 (3 x 0.1 is 0.30000000000000004 in floats)
    (4, 0.1, 0.3, False),
    (0, 1.0, 1.0, True),          # no continuation
    (128, 1.0, 128.0, True), (129, 1.0, 128.0, False),
])
def test_continuation_cap_values(s0, low, high, holds):
    """S0 lambda_L <= lambda_H (cap:S0), exact, in the written decimals as the engines count."""
    assert continuation_cap_holds(s0, low, high) is holds


def test_log_factor_value():
    # ell = rho log(2 K T / delta) with K=2, T=10, delta=0.5: log(80)
    assert log_factor(1.0, 2, 10, 0.5) == pytest.approx(math.log(80), rel=1e-15)
    assert log_factor(2.0, 4, 128000, 0.05) == pytest.approx(2 * math.log(2 * 4 * 128000 / 0.05))


@pytest.mark.parametrize("delta", [1e-300, 1e-308, 1e-320, 5e-324])
def test_log_factor_and_min_rho_at_a_delta_whose_2KT_over_delta_overflows(delta):
    """delta = 1e-308 makes the quotient 2 K T / delta overflow (1.2e313) though its logarithm is about 721: ell was
    inf and the configuration refused. ell and rho_min are now finite and within a few ulps of mpmath's value."""
    mpmath = pytest.importorskip("mpmath")
    with mpmath.workprec(200):
        L = mpmath.log(2 * 6 * 20000 / mpmath.mpf(delta))
        assert log_factor(2.0, 6, 20000, delta) == pytest.approx(float(2 * L), rel=4e-16)
        assert min_rho(1.0, 6, 20000, delta) == pytest.approx(float(2 * (1 + mpmath.log(2) / L)), rel=4e-16)


def test_radius_scalar_and_array_agree():
    n = np.arange(1, 2000)
    arr = radius(n, 7.3)
    assert all(arr[i] == radius(int(n[i]), 7.3) for i in range(0, 1999, 97))
    assert radius(4, 1.0) == 0.5


@pytest.mark.parametrize("ell,gamma,expected", [
    (4.0, 0.5, 17),     # ell/gamma^2 = 16 integer: G(16) = gamma, so N_gamma = 17 (not ceil = 16)
    (1.0, 0.25, 17),    # 16 again, exactly representable
    (1.0, 2.0, 1),      # G(1) = 1 < 2: the first count qualifies
    (3.0, 1.0, 4),      # G(3) = 1 not < 1
    (10.0, 1.0, 11),
])
def test_n_gamma_values(ell, gamma, expected):
    assert n_gamma(ell, gamma) == expected


def test_min_rho_formula_and_union_bound():
    K, T, d, s = 4, 128000, 0.05, 0.5
    rho = min_rho(s, K, T, d)
    assert rho == pytest.approx(2 * s * s * (1 + math.log(2) / math.log(2 * K * T / d)))
    ell = log_factor(rho, K, T, d)
    # the union bound of lem:ci's proof at rho_min equals delta: 2 fidelities x K x T x 2 exp(-ell / (2 s^2))
    assert 2 * K * T * 2 * math.exp(-ell / (2 * s * s)) == pytest.approx(d, rel=1e-9)
    assert min_rho(1.0, 2, 1000, 0.05) == pytest.approx(2.122792, abs=1e-6)


# --- properties -----------------------------------------------------------------------------------------------


@given(st.floats(0.01, 1e3), st.integers(1, 10**6))
def test_radius_nonincreasing(ell, n):
    assert radius(n + 1, ell) <= radius(n, ell)


@given(st.floats(0.01, 200.0), st.floats(0.01, 3.0))
def test_n_gamma_is_the_minimum(ell, gamma):
    ng = n_gamma(ell, gamma)
    assert radius(ng, ell) < gamma
    assert ng == 1 or radius(ng - 1, ell) >= gamma
    assert ng <= 1 + ell / gamma**2 + 1e-9   # the inequality the corollary's proof uses


@given(st.floats(0.1, 4.0), st.integers(2, 1000), st.integers(1, 10**7), st.floats(1e-6, 0.99))
def test_min_rho_above_two_sigma_squared(s, K, T, d):
    r = min_rho(s, K, T, d)
    assert 2 * s * s < r <= 2 * s * s * (1 + math.log(2) / math.log(2 * K * T / d)) * (1 + 1e-12)


@given(st.integers(2, 50), st.integers(1, 1000))
def test_horizon_monotone_in_budget(K, b):
    assert horizon(b + 1, 1.5) >= horizon(b, 1.5)


# --- invalid arguments ----------------------------------------------------------------------------------------

INVALID = [
    (horizon, (0, 1.0), "budget"),
    (horizon, (-5, 1.0), "budget"),
    (horizon, (10, 0.0), "cost_low"),
    (horizon, (float("nan"), 1.0), "budget"),
    (horizon, (float("inf"), 1.0), "budget"),
    (log_factor, (0.0, 2, 10, 0.1), "rho"),
    (log_factor, (1.0, 0, 10, 0.1), "n_arms"),
    (log_factor, (1.0, 2, 0, 0.1), "horizon"),
    (log_factor, (1.0, 2, 10, 1.0), "delta"),
    (log_factor, (1.0, 2, 10, 0.0), "delta"),
    (log_factor, (1.0, 2.5, 10, 0.1), "n_arms"),
    (n_gamma, (0.0, 0.1), "ell"),
    (n_gamma, (1.0, 0.0), "gamma"),
    (n_gamma, (1.0, -0.1), "gamma"),
    (n_gamma, (1.0, 1e-9), "gamma"),       # N_gamma past 2**53: refused, not int(inf)
    (min_rho, (0.0, 2, 10, 0.1), "subgaussian_scale"),
    (min_rho, (1.0, 2, 10, 1.5), "delta"),
    (radius, (0, 1.0), "n"),
    (radius, (np.array([1, 0]), 1.0), "n"),
]


@pytest.mark.parametrize("fn,args,field", INVALID)
def test_invalid_arguments_name_the_field(fn, args, field):
    with pytest.raises(TaccInputError) as info:
        fn(*args)
    assert info.value.field == field
    assert field in str(info.value)
