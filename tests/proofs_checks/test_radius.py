"""The least radius constant the union bound certifies, per noise model (proofs_checks._radius): exact values,
edge cases, properties, invalid arguments."""

import math

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bounds import TaccInputError, min_rho
from proofs_checks import least_rho_gaussian, least_rho_subgaussian, radius_rows


def _union_gaussian(rho, sigma, K, T, d):
    with mpmath.workdps(50):
        L = mpmath.log(2 * K * T / mpmath.mpf(d))
        return 2 * K * T * mpmath.erfc(mpmath.sqrt(rho * L / 2) / sigma)


def test_exact_value_subgaussian():
    # 2 (1 + log 2 / log 40) at K = T = 1, delta = 0.05 (the closed form)
    assert least_rho_subgaussian(1.0, 1, 1, 0.05) == pytest.approx(2 * (1 + math.log(2) / math.log(40)), rel=1e-15)


@given(st.floats(0.1, 3.0), st.integers(1, 1000), st.integers(1, 10**7), st.sampled_from([0.01, 0.05, 0.2]))
def test_gaussian_is_the_least_rho_whose_union_is_delta(sigma, K, T, d):
    rho = least_rho_gaussian(sigma, K, T, d)
    assert _union_gaussian(rho, sigma, K, T, d) <= d                      # valid
    assert _union_gaussian(rho * (1 - 1e-9), sigma, K, T, d) > d          # and least (to 1e-9 relative)
    assert rho < least_rho_subgaussian(sigma, K, T, d)                    # exact tails are sharper


def test_bernoulli_is_the_subgaussian_value_at_one_half():
    assert least_rho_subgaussian(0.5, 4, 128000, 0.05) == min_rho(0.5, 4, 128000, 0.05)


def test_rows_name_the_toolkits_choice():
    rows = {r[0]: r for r in radius_rows()}
    assert rows["llm-residual"][7] == rows["llm-residual"][10]           # Bernoulli: rho = min is Hoeffding's
    assert rows["set-a"][7] == rows["set-a"][8]                          # Gaussian: the sub-Gaussian value
    # the paper's rho = 2: valid on the Gaussian presets by the exact tail only (1.81 < 2 < 2.06), on the
    # Bernoulli ones by Hoeffding
    assert rows["set-a"][5:7] == (2.0, "Gaussian exact tail") and rows["set-a"][9] < 2.0 < rows["set-a"][8]
    assert rows["llm-residual"][6] == "Hoeffding bound for rewards in [0, 1]"


def test_invalid_arguments():
    for f in (least_rho_subgaussian, least_rho_gaussian):
        with pytest.raises(TaccInputError):
            f(0.0, 2, 10, 0.05)
        with pytest.raises(TaccInputError):
            f(1.0, 2, 10, 1.5)
