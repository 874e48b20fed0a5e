"""Claims: bounds come from ``bounds``, empirical values from the run record; the control claim; Measurement."""

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bounds import (high_query_bound, load_config, low_query_bound, prior_partition, rdfe_regret_bound,
                    tacc_regret_bound)
from certify import (CLAIMS, LEM_CI, UNDEFINED_RATIO, ClaimContext, Measurement, check_assumptions, claim, claims_for,
                     ucb_count_bound)
from certify._exact import rounding_error
from simulate import POLICIES, make_problem, run


@pytest.fixture(scope="module")
def llm():
    p = make_problem(load_config("llm-residual"))
    return p, ClaimContext(p, check_assumptions(p))


def test_every_claim_names_a_label_and_known_policies():
    assert len({c.key for c in CLAIMS + (LEM_CI,)}) == len(CLAIMS) + 1
    for c in CLAIMS + (LEM_CI,):
        assert c.label and set(c.policies) <= set(POLICIES)
    assert [c.key for c in CLAIMS if not c.paper] == ["control-ucb"]
    assert claim("theorem").label == "thm:analysis-main-regret"
    with pytest.raises(KeyError):
        claim("no-such-claim")


def test_count_claims_use_the_bounds_functions(llm):
    p, ctx = llm
    rec = run(p, "tacc", 0)
    low = claim("low-count").measure(ctx, rec)
    assert {m.bound for m in low} == {low_query_bound(p.n_gamma, p.s0)}
    assert [m.empirical for m in low] == [rec.n_low[k] for k in ctx.suboptimal]
    dnc = claim("low-count").measure(ctx, run(p, "dnc", 0))
    assert {m.bound for m in dnc} == {low_query_bound(p.n_gamma, 0)}
    high = claim("high-count").measure(ctx, rec)
    assert [m.bound for m in high] == [high_query_bound(p.ell, ctx.gaps[k]) for k in ctx.suboptimal]


def test_theorem_claims_use_the_bounds_functions(llm):
    p, ctx = llm
    rec = run(p, "tacc", 0)
    kw = dict(n_gamma=p.n_gamma, ell=p.ell, cost_low=p.cost_low, cost_high=p.cost_high)
    total, = claim("theorem").measure(ctx, rec)
    b = tacc_regret_bound(ctx.gaps, ctx.refined(rec), s0=p.s0, **kw)
    # compared exactly: the bound from its integer counts, R from the run's counts; the floats of bounds and
    # of the record are their roundings (terms rounded once then summed; shares 4 roundings deep, fsum)
    assert abs(Fraction(total.bound) - Fraction(b.total)) <= Fraction(rounding_error(b.total, 2))
    assert abs(Fraction(total.empirical) - Fraction(rec.regret)) <= Fraction(rounding_error(rec.regret, 5))
    assert total.error == 0 and total.comparison.margin == sum(ctx.bound_terms(b)) - ctx.regret(rec)
    dnc, = claim("theorem-dnc").measure(ctx, run(p, "dnc", 0))
    assert dnc.bound == tacc_regret_bound(ctx.gaps, prior_partition(ctx.classes), s0=0, **kw).total
    rd, = claim("rdfe-theorem").measure(ctx, run(p, "rdfe", 0))
    assert rd.bound == rdfe_regret_bound(p.instance.low, ctx.gaps, ell=p.ell, cost_low=p.cost_low,
                                         cost_high=p.cost_high).total


def test_rdfe_phase_claims_read_completed_phases():
    p = make_problem(load_config("llm-vanishing"))     # the residual regime's budget ends inside phase 1
    ctx = ClaimContext(p, check_assumptions(p))
    rec = run(p, "rdfe", 1)
    done = [ph for ph in rec.phases if ph.completed]
    assert done
    cost = claim("rdfe-cost").measure(ctx, rec)
    assert len(cost) == sum(len(ph.active) for ph in done)
    assert all(m.bound == ctx.oracle_cost(m.arm, m.phase) for m in cost)
    assert len(claim("rdfe-width").measure(ctx, rec)) == 2 * len(cost)


@pytest.mark.parametrize("ell,gap,expected", [(1.0, 0.5, 17), (1.0, 0.3, 45), (2.0, 1.0, 9), (0.5, 0.0, math.inf)])
def test_ucb_count_bound_exact_values(ell, gap, expected):
    # 4 ell / Delta^2 = 16 (an integer: floor = ceil), 44.44..., 8
    assert ucb_count_bound(ell, gap) == expected


@given(st.floats(0.01, 100), st.floats(0.01, 2))
def test_ucb_count_bound_is_the_paper_bound_or_one_less(ell, gap):
    """1 + floor(4 ell / Delta^2) vs the paper's 1 + ceil(...): equal exactly when 4 ell / Delta^2 is an integer."""
    x = 4 * Fraction(ell) / Fraction(gap) ** 2
    assert high_query_bound(ell, gap) - ucb_count_bound(ell, gap) == (0 if x.denominator == 1 else 1)


def test_claims_for_each_policy():
    assert {c.key for c in claims_for("ucb")} == {"control-ucb"}
    assert "theorem" in {c.key for c in claims_for("tacc")} and not claims_for("weak-fixed")


@pytest.mark.parametrize("bound,emp,error,ratio,exceeded,undecided", [
    (10, 5, 0, 0.5, False, False), (10, 11, 0, 1.1, True, False), (0, 0, 0, math.nan, False, False),
    (0, -1, 0, 0.0, False, False), (5, 0, 0, 0.0, False, False),     # 0 / 0 is undefined, 0 / 5 is 0
    (0, 1, 0, math.inf, True, False), (math.inf, 5, 0, 0.0, False, False),
    (1.0, 1.0 + 1e-12, 0, 1.0 + 1e-12, True, False),          # exact: exceeded (the old 1e-9 slack said no)
    (1.0, 1.0 + 1e-12, 2e-12, 1.0 + 1e-12, False, True),      # inside its error bound: UNDECIDED
    (1.0, 1.0 + 1e-12, 5e-13, 1.0 + 1e-12, True, False),      # excess beyond the bound: a witness
    (1.0, 1.0, 1e-15, 1.0, False, True),                      # a tie with rounding error: UNDECIDED
    (1.0, 1.0 - 2e-15, 1e-15, 1.0 - 2e-15, False, False)])
def test_measurement_ratio_and_exceeded(bound, emp, error, ratio, exceeded, undecided):
    m = Measurement("x", bound, emp, error=error)
    assert m.ratio == pytest.approx(ratio, nan_ok=True) and m.exceeded is exceeded and m.undecided is undecided


def test_zero_over_zero_is_undefined_with_a_reason_in_the_summary():
    """A claim whose every ratio is 0 / 0 (bound 0, empirical 0) has no max ratio: NaN with the reason, never 0;
    one measurement with a number among the 0 / 0 gives that number."""
    from certify import RunVerdict, Verdict
    from certify._check import _summaries
    undefined = Measurement("x", 0, 0)
    assert undefined.ratio != undefined.ratio          # NaN

    def held(ratio, m=undefined):
        return RunVerdict("theorem", "thm", "c", "tacc", 0, Verdict.HOLDS, ratio, m, 1)

    (s,) = _summaries([held(math.nan), held(math.nan)])
    assert math.isnan(s.max_ratio) and s.max_ratio_reason.startswith(UNDEFINED_RATIO)
    assert math.isnan(s.max_ratio_all) and s.max_ratio_all_reason.startswith(UNDEFINED_RATIO)
    (s,) = _summaries([held(math.nan), held(0.0, Measurement("x", 1, 0)), held(math.nan)])
    assert (s.max_ratio, s.max_ratio_reason) == (0.0, None)
    off = RunVerdict("theorem", "thm", "c", "tacc", 0, Verdict.OFF_EVENT, 2.0, Measurement("x", 1, 2), 1)
    (s,) = _summaries([off])                          # measured, never asserted: no max ratio, a ratio over all runs
    assert s.max_ratio is None and s.max_ratio_reason == "judged on no run: 1 OFF_EVENT"
    assert s.max_ratio_all == 2.0


def test_an_infinite_rdfe_bound_is_compared_as_a_value(llm):
    """Gaps near 0 (means 1e-9 apart) make RDFE's bound infinite: the claim holds against it (an infinity is
    compared as a value, never converted to a fraction); a finite bound below the regret is still exceeded."""
    from certify._measures import _rdfe_regret
    p, ctx = llm
    rec = run(p, "rdfe", 0)
    (m,) = _rdfe_regret(ctx, rec, math.inf)
    assert not m.exceeded and m.ratio == 0.0
    (low,) = _rdfe_regret(ctx, rec, float(ctx.regret(rec)) / 2)
    assert low.exceeded


# ------------------------------------------------------------------- exact values, decided in integers
from certify._measurement import scaled_measurement, with_exact  # noqa: E402
from certify._exact import Decision, compare_le, exact  # noqa: E402


def test_exact_values_decide_not_the_floats_shown():
    """R = 2^60 + 1 against a bound of 2^60: both are shown as the float 2^60 (ratio 1.0), yet R exceeds the bound
    exactly. Deciding on the floats shown (the mutant) would say it holds."""
    m = scaled_measurement("R", 2**60, 2**60 + 1, 0)
    assert m.bound == m.empirical == 2.0**60 and m.ratio == 1.0
    assert m.exceeded and m.comparison.decision is Decision.FAILS and m.comparison.margin == -1
    assert Measurement("R", m.bound, m.empirical).decision is Decision.HOLDS        # the mutant's answer
    tie = scaled_measurement("R", 2**60, 2**60, 0)
    assert tie.decision is Decision.HOLDS and not tie.exceeded


def test_a_near_tie_inside_the_error_bound_is_undecided_and_decided_without_it():
    """An exceedance of one unit over 2**shift with an error bound of two units is UNDECIDED; the same values with
    the error bound set to 0 (the mutant) are decided FAILS, and beyond the bound they are FAILS."""
    shift = 70
    inside = scaled_measurement("x", 2**70, 2**70 + 1, shift, error=2 * 2.0**-70)
    assert inside.undecided and inside.comparison.decision is Decision.UNDECIDED
    assert scaled_measurement("x", 2**70, 2**70 + 1, shift).exceeded                 # error bound 0
    assert scaled_measurement("x", 2**70, 2**70 + 3, shift, error=2 * 2.0**-70).exceeded


@given(st.integers(0, 2**70), st.integers(-2, 2), st.integers(0, 80),
       st.sampled_from([0.0, 2.0**-80, 3 * 2.0**-80, 1e-300, 1.0, 0.1]))
def test_scaled_measurement_decides_as_fractions(bound, delta, shift, error):
    """Near ties (empirical within 2 units over 2**shift of the bound), any error bound: the integer decision is
    the Fraction decision of compare_le on the same exact values."""
    m = scaled_measurement("x", bound, bound + delta, shift, error=error)
    expected = compare_le(Fraction(bound + delta, 2**shift), Fraction(bound, 2**shift), error).decision
    assert m.decision is expected is m.comparison.decision
    w = with_exact(Measurement("x", 0.0, 0.0, error=error), Fraction(bound, 2**shift),
                    Fraction(bound + delta, 2**shift))
    assert w.decision is expected


def _old_fraction_regret(ctx, rec):
    """R(Lambda) by its definition in Fractions: sum_k Delta_k (lambda_L N_L + lambda_H N_H)."""
    p = ctx.problem
    return sum((exact(g) * (exact(p.cost_low) * a + exact(p.cost_high) * b)
                for g, a, b in zip(ctx.gaps, rec.n_low, rec.n_high, strict=True) if g != 0), Fraction(0))


@pytest.mark.parametrize("name", ["llm-vanishing", "llm-residual"])
def test_integer_measurements_equal_their_fraction_definitions(name):
    """Every exact measurement of a real run (theorem, RDFE width, centre, cost, regret): the float shown is the
    rounding of the value defined in Fractions, and the decision is compare_le's on those Fractions."""
    p = make_problem(load_config(name))
    ctx = ClaimContext(p, check_assumptions(p))
    tacc, rdfe = run(p, "tacc", 0), run(p, "rdfe", 1)
    r = _old_fraction_regret(ctx, tacc)
    assert ctx.regret(tacc) == r
    (total,) = claim("theorem").measure(ctx, tacc)
    bound = sum(ctx.bound_terms(ctx.tacc_bound(ctx.refined(tacc), p.s0)), Fraction(0))
    assert (total.bound, total.empirical) == (float(bound), float(r))
    assert total.decision is compare_le(r, bound).decision
    mu = p.instance.mu_high
    width = claim("rdfe-width").measure(ctx, rdfe)
    done = [ph for ph in rdfe.phases if ph.completed]
    expected = []
    for ph in done:
        for k, u, lo in zip(ph.active, ph.ucb, ph.lcb, strict=True):
            w, c = exact(u) - exact(lo), (exact(u) + exact(lo)) / 2
            err = rounding_error(abs(u) + abs(lo), 4)
            dev = abs(exact(float(mu[k])) - c)
            expected += [(ph.eps / 4, float(w), compare_le(w, exact(ph.eps) / 4, err).decision),
                         (float(w / 2), float(dev), compare_le(dev, w / 2, err).decision)]
    assert [(m.bound, m.empirical, m.decision) for m in width] == expected
    for m in claim("rdfe-cost").measure(ctx, rdfe):             # a block's cost: n lambda exactly
        bound = ctx.oracle_cost_exact(m.arm, m.phase)
        assert m.error == 0 and m.bound == float(bound) and m.comparison.margin == bound - exact(m.empirical)
        assert m.decision is compare_le(exact(m.empirical), bound).decision
    (reg,) = claim("rdfe-theorem").measure(ctx, rdfe)
    rr = _old_fraction_regret(ctx, rdfe)
    assert reg.empirical == float(rr) and reg.decision is compare_le(rr, exact(reg.bound), reg.error).decision


def test_a_count_measurement_is_made_once_per_value_with_its_types():
    """ClaimContext.count shares one measurement per distinct (what, bound, empirical, arm, phase), the values'
    types included: equal to a fresh one, decided alike; 1 and 1.0 (equal, with one hash) are two measurements."""
    p = make_problem(load_config("set-a"))
    ctx = ClaimContext(p, check_assumptions(p))
    m = ctx.count("N_H", 1, 2, arm=0)
    assert m is ctx.count("N_H", 1, 2, arm=0)
    assert m == Measurement("N_H", 1, 2, arm=0) and m.exceeded
    for other in (ctx.count("N_H", 1.0, 2, arm=0), ctx.count("N_H", 1, 2.0, arm=0), ctx.count("N_H", 1, 2, arm=1),
                  ctx.count("N_H", 1, 2, arm=0, phase=0), ctx.count("N_L", 1, 2, arm=0), ctx.count("N_H", 1, 1, arm=0)):
        assert other is not m
    assert type(ctx.count("N_H", 1.0, 2, arm=0).bound) is float and type(ctx.count("N_H", 1, 2.0).empirical) is float
    assert not ctx.count("N_H", 1, 1, arm=0).exceeded
