"""Every statistic the toolkit prints, against values computed by hand: the mean, the standard error (n - 1
degrees of freedom), the paired 95% interval (Student t with n - 1 degrees of freedom), an exact zero, and the
per-arm regret mean of ``tacc simulate`` (over seeds, one value per arm)."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bounds import TaccInputError, parse_config
from reports.views._simulate import SimulateSummary, per_arm_regret_mean, render
from reports.stats import Summary, paired, summarize
from reports.tables import fmt
from simulate import make_problem, run


def test_mean_and_standard_error_by_hand():
    # [1, 2, 3, 4]: mean 5/2; sample variance ((3/2)^2 + (1/2)^2) * 2 / 3 = 5/3; se = sqrt(5/3) / 2
    s = summarize([1, 2, 3, 4])
    assert (s.n, s.mean, s.min, s.max) == (4, 2.5, 1.0, 4.0)
    assert s.se == pytest.approx(math.sqrt(5 / 3) / 2, rel=1e-15)
    assert s.se != pytest.approx(math.sqrt(5 / 4) / 2, rel=1e-3)      # n degrees of freedom would be wrong
    # one seed measures no spread: undefined, never 0 ("+- 0" would read as a spread measured to be none)
    assert math.isnan(summarize([7.5]).se) and summarize([7.5]).mean == 7.5


def test_identical_values_have_a_standard_error_of_exactly_zero():
    values = [36.62] * 1000
    x = np.asarray(values)
    assert x.std(ddof=1) / math.sqrt(x.size) != 0      # the floating-point residue the old formula printed
    s = summarize(values)
    assert s.se == 0.0 and s.mean == 36.62 and fmt(s.se) == "0"
    p = paired(values, [30.0] * 1000)
    assert (p.low, p.mean, p.high) == (36.62 - 30.0,) * 3


def test_paired_interval_by_hand():
    # d = a - b = [2, 3, 2, 4]: mean 11/4; sample variance 2.75 / 3; se = sqrt(2.75 / 3) / 2;
    # t_{0.975, 3} = 3.182446 (Student t table, 3 degrees of freedom)
    p = paired([3, 5, 4, 8], [1, 2, 2, 4])
    half = 3.182446 * math.sqrt(2.75 / 3) / 2
    assert p.n == 4 and p.mean == 2.75
    assert p.high - p.mean == pytest.approx(half, rel=1e-6)
    assert p.mean - p.low == pytest.approx(half, rel=1e-6)
    assert not p.high - p.mean == pytest.approx(2.776445 * math.sqrt(2.75 / 3) / 2, rel=1e-3)  # 4 d.o.f.: wrong
    assert p.excludes_zero
    assert paired([1.0], [0.5]) == type(p)(1, 0.5, 0.5, 0.5)


@pytest.mark.parametrize("n", [2, 3, 4, 10, 50, 120, 200, 1000, 12345])
def test_paired_interval_is_the_one_scipy_stats_computes(n):
    """The t quantile comes from scipy.special (scipy.stats costs seconds to import): the same interval, to the
    bit, as scipy.stats.t.ppf's."""
    from scipy import stats
    rng = np.random.default_rng(n)
    a, b = rng.normal(size=n), rng.normal(size=n)
    p = paired(a, b)
    d = a - b
    half = float(stats.t.ppf(0.975, n - 1)) * summarize(d).se
    assert (p.low, p.high) == (p.mean - half, p.mean + half)


def test_empty_values_are_refused():
    with pytest.raises(TaccInputError):
        summarize([])


def test_per_arm_regret_mean_is_over_seeds_for_each_arm():
    cfg = parse_config({
        "name": "three", "instance": {"mu_high": [0.9, 0.8, 0.7], "low": {"model": "power_decay", "zeta": 0.1,
                                                                            "r": 0.5}},
        "costs": {"low": 1.0, "high": 10.0},
        "params": {"budget": 200, "rho": 0.5, "gamma": 0.3, "eta": 0.01, "s0": 2}})
    p = make_problem(cfg)
    recs = [dataclasses.replace(run(p, "tacc", s), regret_share=share, regret=sum(share))
            for s, share in ((0, (0.0, 2.0, 4.0)), (1, (0.0, 4.0, 8.0)))]
    summary = SimulateSummary(p)
    for r in recs:
        summary.add(r)
    assert per_arm_regret_mean(summary).tolist() == [0.0, 3.0, 6.0]     # by hand: (2 + 4) / 2, (4 + 8) / 2
    rows = render(summary, "fast").split("per arm, over seeds")[1].splitlines()[3:6]
    assert [r.split()[-1] for r in rows] == ["0", "3", "6"]
    last = render(summary, "fast").splitlines()[-1]
    # regret 6 and 12: mean 9, se = sample sd 3 sqrt(2) / sqrt(2) = 3
    assert "mean 9 +- 3 (standard error)" in last


# --- RunningSummary: the same numbers one value at a time, from exact sums --------------------------------------
finite = st.floats(-1e12, 1e12, allow_nan=False, allow_infinity=False)


@given(st.lists(finite, min_size=2, max_size=40))
def test_a_running_summary_is_exact_and_independent_of_the_order(values):
    """The mean is the exact mean rounded once; the squared standard error is the exact sample variance over n
    (Fractions), rounded once, then its square root; reversing the values changes nothing."""
    from fractions import Fraction

    from reports.stats import RunningSummary
    s = RunningSummary()
    for x in values:
        s.add(x)
    n = len(values)
    mean, se = s.mean_and_se()
    exact = [Fraction(x) for x in values]
    m = sum(exact) / n
    assert mean == float(m)
    assert se == math.sqrt(float(sum((x - m) ** 2 for x in exact) / (n - 1) / n))
    back = RunningSummary()
    for x in reversed(values):
        back.add(x)
    assert back.summary() == s.summary() == summarize(values)


def test_a_running_summary_of_values_that_are_not_finite():
    from reports.stats import RunningSummary
    for values, mean in (([1.0, math.inf], math.inf), ([1.0, -math.inf], -math.inf),
                         ([math.inf, -math.inf], math.nan), ([1.0, math.nan], math.nan)):
        s = RunningSummary()
        for x in values:
            s.add(x)
        got = s.summary()
        assert (got.mean == mean or (math.isnan(got.mean) and math.isnan(mean))) and math.isnan(got.se), values
    with pytest.raises(TaccInputError, match="values"):
        RunningSummary().summary()
    big = RunningSummary()
    for x in (1e308, 1e308):
        big.add(x)
    assert big.summary() == Summary(2, 1e308, 0.0, 1e308, 1e308)      # the exact sum is no float: no matter
