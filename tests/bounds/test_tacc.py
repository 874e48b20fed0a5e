"""thm:analysis-main-regret, prop:analysis-low-query-bound, prop:analysis-high-selection,
cor:analysis-main-regret-order, prop:analysis-regret-improvement."""

import math
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from bounds import (ArmClass, TaccInputError, confirmation_count, corollary_order, high_query_bound,
                    low_query_bound, static_vs_adaptive, tacc_regret_bound)

A, B, CD, CU, OPT, C = ArmClass.A, ArmClass.B, ArmClass.C_D, ArmClass.C_U, ArmClass.OPTIMAL, ArmClass.C
KW = dict(n_gamma=10, s0=2, ell=1.0, cost_low=1.0, cost_high=10.0)


def test_theorem_exact_by_class():
    # hand derivation with fractions: ceil(4 * 1 / 0.5^2) = 16
    gaps = [0.0, 0.5, 0.5, 0.5, 0.5]
    b = tacc_regret_bound(gaps, [OPT, A, CD, CU, B], **KW)
    expect = [0, Fraction(1, 2) * (11 + 10), Fraction(1, 2) * (13 + 10), Fraction(1, 2) * (13 + 10 * 17),
              Fraction(1, 2) * (13 + 10 * 17)]
    assert b.terms == tuple(float(x) for x in expect)
    assert b.total == float(sum(expect))
    assert b.low_count_bound == (0, 11, 13, 13, 13)
    assert b.high_count_bound == (0, 1, 1, 17, 17)


def test_counts():
    assert low_query_bound(100, 10) == 111
    assert confirmation_count(1.0, 0.5) == 16        # 4 ell / Delta^2 = 16 exactly: ceil is 16, not 17
    assert high_query_bound(1.0, 0.5) == 17
    assert confirmation_count(1.0, 0.3) == math.ceil(Fraction(4) / Fraction(0.3) ** 2)


def test_tie_contributes_zero_and_infinite_count():
    b = tacc_regret_bound([0.0, 0.0, 0.4], [OPT, B, B], **KW)
    assert b.terms[1] == 0.0 and b.high_count_bound[1] == math.inf
    assert not math.isnan(b.total)
    assert confirmation_count(1.0, 0.0) == math.inf


def test_the_indeterminate_terms_of_a_tie_are_named():
    """The tied arm's term is 0 x inf, taken as 0: the bound names that arm (``conventions``) and the corollary
    the arm whose infinite log T / Delta_k it leaves out of its sums (``left_out``); k^* and the arms with a gap
    are in neither, nor is a tied arm outside H (its counts are finite: 0 x a number is 0, no convention)."""
    from bounds import TIED_LEFT_OUT, TIED_TERM
    b = tacc_regret_bound([0.0, 0.0, 0.4], [OPT, B, B], **KW)
    assert b.conventions == (1,) and "0 x inf taken as 0" in TIED_TERM
    assert tacc_regret_bound([0.0, 0.4, 0.3], [OPT, B, B], **KW).conventions == ()
    assert tacc_regret_bound([0.0, 0.0, 0.4], [OPT, A, B], **KW).conventions == ()
    c = corollary_order([0.0, 0.0, 0.4], [OPT, B, B], gamma=0.5, horizon=100, ell=1.0, s0=2, cost_low=1.0,
                        cost_high=10.0)
    assert c.left_out == (1,) and c.high_order[1] == 0.0 and c.explicit[1] == 0.0 and "left out" in TIED_LEFT_OUT
    assert corollary_order([0.0, 0.5], [OPT, B], gamma=0.5, horizon=100, ell=1.0, s0=2, cost_low=1.0,
                           cost_high=10.0).left_out == ()


def test_corollary_values():
    c = corollary_order([0.0, 0.5], [OPT, A], gamma=0.5, horizon=100, ell=1.0, s0=2, cost_low=1.0,
                        cost_high=10.0)
    assert c.explicit == (0.0, 8.0)
    assert c.low_order[1] == pytest.approx(0.5 * math.log(100) / 0.25)
    assert c.high_order == (0.0, 0.0)
    # no suboptimal arm: both totals are 0 and the hidden constant 0 / 0 is undefined (NaN), not 0
    e = corollary_order([0.0, 0.0], [OPT, ArmClass.B], gamma=0.5, horizon=100, ell=1.0, s0=2, cost_low=1.0,
                        cost_high=10.0)
    assert e.order_total == e.explicit_total == 0 and math.isnan(e.ratio)


def test_comparison_values():
    c = static_vs_adaptive([0.0, 0.5, 0.5], [OPT, C, A], **KW)
    assert c.difference[1] == 0.5 * (10 * 16 - 2)
    assert c.static[1] - c.adaptive[1] == pytest.approx(c.difference[1])
    assert c.strict[1] and c.applies[1] and not c.applies[2]


@st.composite
def problems(draw):
    K = draw(st.integers(2, 12))
    gaps = [0.0] + draw(st.lists(st.floats(0.0, 2.0), min_size=K - 1, max_size=K - 1))
    classes = [OPT] + draw(st.lists(st.sampled_from([A, B, CD, CU]), min_size=K - 1, max_size=K - 1))
    kw = dict(n_gamma=draw(st.integers(1, 10**5)), s0=draw(st.integers(0, 200)), ell=draw(st.floats(0.01, 100)),
              cost_low=draw(st.floats(0.1, 10)), cost_high=draw(st.floats(10.5, 2000)))
    return gaps, classes, kw


@given(problems())
def test_theorem_properties(p):
    gaps, classes, kw = p
    b = tacc_regret_bound(gaps, classes, **kw)
    assert all(t >= 0 for t in b.terms) and b.total >= 0
    # each arm's term is monotone in its class: A <= C^d <= H
    for k in range(1, len(gaps)):
        terms = [tacc_regret_bound(gaps, classes[:k] + [c] + classes[k + 1:], **kw).terms[k] for c in (A, CD, B)]
        assert terms[0] <= terms[1] <= terms[2]
    # the corollary's explicit form is an upper bound of the theorem
    c = corollary_order(gaps, classes, gamma=math.sqrt(kw["ell"] / max(kw["n_gamma"] - 1, 1e-9)) if kw["n_gamma"] > 1
                        else 10.0 * math.sqrt(kw["ell"]), horizon=10**6, ell=kw["ell"], s0=kw["s0"],
                        cost_low=kw["cost_low"], cost_high=kw["cost_high"])
    assert c.explicit_total >= 0


@given(problems(), st.floats(0.001, 1.0))
def test_corollary_explicit_dominates_theorem(p, gamma):
    from bounds import n_gamma
    gaps, classes, kw = p
    kw = dict(kw, n_gamma=n_gamma(kw["ell"], gamma))
    b = tacc_regret_bound(gaps, classes, **kw)
    c = corollary_order(gaps, classes, gamma=gamma, horizon=1000, ell=kw["ell"], s0=kw["s0"],
                        cost_low=kw["cost_low"], cost_high=kw["cost_high"])
    for t, e in zip(b.terms, c.explicit, strict=True):
        assert t <= e * (1 + 1e-12) + 1e-12


@given(problems())
def test_comparison_matches_theorem_terms(p):
    gaps, classes, kw = p
    cls = [C if c in (CD, CU) else c for c in classes]
    cmp = static_vs_adaptive(gaps, cls, **kw)
    adapt = tacc_regret_bound(gaps, [CD if c is C else c for c in cls], **kw)
    for k in range(len(cls)):
        if cmp.applies[k]:
            assert cmp.adaptive[k] == adapt.terms[k]
            assert cmp.static[k] - cmp.adaptive[k] == pytest.approx(cmp.difference[k], rel=1e-9, abs=1e-9)
            if kw["s0"] * kw["cost_low"] <= kw["cost_high"] and confirmation_count(kw["ell"], gaps[k]) >= 2:
                assert cmp.difference[k] > 0


@pytest.mark.parametrize("gaps,classes,kw,field", [
    ([0.0, 0.5], [OPT, C], KW, "classes[1]"),
    ([0.0, -0.5], [OPT, A], KW, "gaps[1]"),
    ([0.1, 0.5], [OPT, A], KW, "gaps[0]"),
    ([0.0, 0.5], [OPT], KW, "classes"),
    ([0.0, 0.5], [OPT, A], dict(KW, n_gamma=0), "n_gamma"),
    ([0.0, 0.5], [OPT, A], dict(KW, s0=-1), "s0"),
    ([0.0, 0.5], [OPT, A], dict(KW, ell=0.0), "ell"),
    ([0.0, 0.5], [OPT, A], dict(KW, cost_low=0.0), "cost_low"),
    ([0.0, 0.5], [OPT, "A"], KW, "classes[1]"),
])
def test_invalid(gaps, classes, kw, field):
    with pytest.raises(TaccInputError) as info:
        tacc_regret_bound(gaps, classes, **kw)
    assert info.value.field == field


@given(problems(), st.integers(0, 1000), st.integers(0, 20), st.floats(0.0, 50.0))
def test_theorem_total_nondecreasing_in_its_parameters(p, dn, ds, de):
    """Every term of eq:analysis-main-regret grows with N_gamma, S_0 and ell (so with the budget)."""
    gaps, classes, kw = p
    base = tacc_regret_bound(gaps, classes, **kw).total
    bigger = dict(kw, n_gamma=kw["n_gamma"] + dn, s0=kw["s0"] + ds, ell=kw["ell"] + de)
    assert tacc_regret_bound(gaps, classes, **bigger).total >= base


# ---- the vectorized exact arithmetic behind the per-arm terms: equal to Fraction, including the fallbacks
import numpy as np  # noqa: E402

from bounds._exact import _product_exact, scaled_sum  # noqa: E402
from bounds._tacc import confirmation_counts  # noqa: E402


def test_confirmation_counts_exact_at_integer_ratios_and_extremes():
    gaps = [0.0, 0.5, 0.1, 2.0**-30, 1e-300, 3.0, 0.3]           # 4 * 1 / 0.25 = 16 exactly; 0.1 is not 1/10
    want = [math.inf] + [math.ceil(4 * Fraction(1.0) / Fraction(g) ** 2) for g in gaps[1:]]
    assert confirmation_counts(1.0, np.array(gaps)) == want
    assert confirmation_counts(1.0, np.array(gaps))[1] == 16 and confirmation_count(1.0, 0.5) == 16


@given(st.lists(st.floats(0.0, 10.0), min_size=1, max_size=20), st.floats(1e-3, 1e3),
       st.floats(0.1, 100.0), st.floats(0.1, 1000.0),
       st.lists(st.integers(0, 2**70), min_size=20, max_size=20), st.integers(-1, 1).filter(bool))
def test_scaled_sum_is_the_correctly_rounded_rational(g, ell, x, y, counts, sign):
    m = counts[:len(g)]
    n = [c // 3 + 1 for c in counts[:len(g)]]
    got = scaled_sum(np.array(g), x, m, y, n, sign=sign).tolist()
    for gi, mi, ni, v in zip(g, m, n, got, strict=True):
        exact = Fraction(gi) * (Fraction(x) * mi + sign * Fraction(y) * ni)
        want = 0.0 if gi == 0 else (float(exact) if abs(exact) < 2**1023 else math.copysign(math.inf, exact))
        assert v == want
    q = confirmation_counts(ell, np.array(g))
    assert q == [math.inf if gi == 0 else math.ceil(4 * Fraction(ell) / Fraction(gi) ** 2) for gi in g]


def test_an_overflowing_error_free_product_is_inf_and_not_exact_without_a_warning():
    # the error-free product's a * b overflowed outside np.errstate: a RuntimeWarning in the suite's output
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p, exact = _product_exact(np.array([2.0 ** 600, 3.0]), np.array([2.0 ** 600, 0.5]))
    assert p.tolist() == [math.inf, 1.5] and exact.tolist() == [False, True]


def test_corollary_of_a_huge_gamma_has_zero_gamma_terms():
    """gamma = 1e300: gamma^2 overflows; it raised OverflowError (exit 3 in ``tacc bounds``), now 1 / gamma^2 = 0."""
    c = corollary_order([0.0, 0.5], [ArmClass.OPTIMAL, ArmClass.A], gamma=1e300, horizon=100, ell=1.0, s0=2,
                        cost_low=1.0, cost_high=10.0)
    assert c.low_order == (0.0, 0.0)
    assert c.explicit[1] == 0.5 * 1.0 * (0 + 2) + 0.5 * 10.0     # A: Delta lambda_L (ell/gamma^2 + 2) + Delta lambda_H
