"""Verdicts (docs/design.md section 7): NOT_APPLICABLE before OFF_EVENT before VIOLATED; lem:ci by an exact binomial
test."""

from dataclasses import replace

import pytest

from bounds import load_config
from certify import ClaimContext, Verdict, check_assumptions, claim, judge, judge_lem_ci
from certify._assumptions import AssumptionResult
from certify._claims import Measurement
from simulate import Violation, make_problem, run


@pytest.fixture(scope="module")
def setup():
    p = make_problem(load_config("llm-vanishing"))
    return p, check_assumptions(p), run(p, "tacc", 0)


def _always_exceeded(ctx, rec):
    return [Measurement("x", 1, 2)]


def test_precedence(setup):
    p, assumptions, rec = setup
    c = replace(claim("theorem"), measure=_always_exceeded)
    ctx = ClaimContext(p, assumptions)
    assert judge(c, ctx, rec).verdict is Verdict.VIOLATED
    off = replace(rec, event_held=False, violation=Violation(0, "L", 3))
    assert judge(c, ctx, off).verdict is Verdict.OFF_EVENT
    broken = dict(assumptions, **{"ass:mono-cert": AssumptionResult("ass:mono-cert", False, "forced")})
    v = judge(c, ClaimContext(p, broken), off)
    assert v.verdict is Verdict.NOT_APPLICABLE and v.failed_assumptions == ("ass:mono-cert",)
    assert v.worst.empirical == 2 and v.ratio == 2.0                # still recorded
    assert judge(claim("theorem"), ctx, rec).verdict is Verdict.HOLDS


def test_a_run_with_nothing_to_measure_is_not_holds(setup):
    """llm-residual has no class-A arm: class-A has nothing to measure there (NOTHING_TO_MEASURE, saying what is
    missing, not judged); on llm-vanishing, whose arm 2 is in A, the same claim HOLDS, and a bound of 0 on it is
    VIOLATED."""
    p, assumptions, rec = setup
    assert judge(claim("class-A"), ClaimContext(p, assumptions), rec).verdict is Verdict.HOLDS
    zero = replace(claim("class-A"), measure=lambda ctx, r: [Measurement("N_H", 0, r.n_high[2], arm=2)])
    assert judge(zero, ClaimContext(p, assumptions), rec).verdict is Verdict.VIOLATED
    q = make_problem(load_config("llm-residual"))
    v = judge(claim("class-A"), ClaimContext(q, check_assumptions(q)), run(q, "tacc", 0))
    assert v.verdict is Verdict.NOTHING_TO_MEASURE and not v.judged and v.measurements == 0
    assert v.reason == "nothing to measure: no suboptimal arm in class A on this run" and v.ratio is None


def test_claim_without_event_is_asserted_off_event(setup):
    p, assumptions, rec = setup
    off = replace(rec, event_held=False, violation=Violation(0, "L", 3))
    assert judge(claim("fidelity-rule"), ClaimContext(p, assumptions), off).verdict is Verdict.HOLDS


@pytest.mark.parametrize("failures,n,verdict", [(0, 20, Verdict.HOLDS), (2, 20, Verdict.HOLDS),
                                                (6, 20, Verdict.VIOLATED), (20, 20, Verdict.VIOLATED)])
def test_lem_ci_binomial(setup, failures, n, verdict):
    p, assumptions, rec = setup
    recs = [replace(rec, seed=i, event_held=i >= failures) for i in range(n)]
    v = judge_lem_ci(ClaimContext(p, assumptions), recs)       # delta = 0.05: P(Bin(20, .05) >= 6) < 0.01
    assert v.verdict is verdict and v.worst.empirical == failures / n and v.worst.bound == p.delta


def test_undecided_comparison_and_assumption(setup):
    """UNDECIDED, with the margin and the bound, when a comparison lies inside its error bound or an assumption
    of the claim is undecided; never HOLDS or VIOLATED by accident."""
    p, assumptions, rec = setup
    ctx = ClaimContext(p, assumptions)
    tie = replace(claim("theorem"), measure=lambda ctx, rec: [Measurement("x", 1.0, 1.0 + 2**-52, error=1e-15)])
    v = judge(tie, ctx, rec)
    assert v.verdict is Verdict.UNDECIDED and not v.judged
    assert "margin -2.22e-16, error bound 1e-15" in v.reason
    beyond = replace(tie, measure=lambda ctx, rec: [Measurement("x", 1.0, 1.0 + 2**-52, error=2**-53)])
    assert judge(beyond, ctx, rec).verdict is Verdict.VIOLATED
    open_ = dict(assumptions, **{"ass:plugin": AssumptionResult("ass:plugin", False, "inside the bound",
                                                               undecided=True)})
    u = judge(claim("theorem"), ClaimContext(p, open_), rec)
    assert u.verdict is Verdict.UNDECIDED and u.undecided_assumptions == ("ass:plugin",)
    assert "ass:plugin undecided" in u.reason and open_["ass:plugin"].status == "UNDECIDED"
    assert judge(claim("fidelity-rule"), ClaimContext(p, open_), rec).verdict is Verdict.HOLDS   # not needed


def test_importing_certify_does_not_import_scipy_stats():
    """scipy.stats (seconds to import) is imported by judge_lem_ci when it runs, not by ``import certify``."""
    import subprocess
    import sys
    code = "import sys, certify; print('scipy.stats' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_lem_ci_without_failures_does_not_import_scipy_stats():
    """No failed event: the p-value P(Bin(n, delta) >= 0) is exactly 1, and scipy.stats (seconds to import, most of
    a report's judging time) is not imported; one failure imports it and gives the exact tail."""
    import subprocess
    import sys
    code = ("import sys; from types import SimpleNamespace as run; from certify import ClaimContext, "
            "check_assumptions, judge_lem_ci; from simulate import make_problem; from bounds import load_config; "
            "p = make_problem(load_config('set-a')); ctx = ClaimContext(p, check_assumptions(p)); "
            "held, failed = run(event_held=True, policy='tacc'), run(event_held=False, policy='tacc'); "
            "v = judge_lem_ci(ctx, [held] * 20); print(v.worst.what, 'scipy.stats' in sys.modules); "
            "w = judge_lem_ci(ctx, [failed] + [held] * 19); print(w.worst.what, 'scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "failure frequency (p = 1) False"
    assert out[1] == f"failure frequency (p = {1 - 0.95 ** 20:.3g}) True"     # P(Bin(20, .05) >= 1)


def test_a_holds_against_infinite_bounds_only_is_vacuous_and_has_no_max_ratio(setup):
    """rdfe-theorem at a gap of 1e-12 held against an infinite bound and was summarized at ratio 0 ("the loosest
    at 0.0%"): a HOLDS whose every bound is infinite is vacuous, counted apart, and the summary's max ratio leaves
    it out (None with VACUOUS_RATIO). One finite bound among the measurements makes it an ordinary HOLDS with its
    ratio; an infinite bound exceeded by nothing is still no VIOLATED."""
    from certify import VACUOUS_RATIO
    from certify._check import _summaries
    p, assumptions, rec = setup
    ctx = ClaimContext(p, assumptions)
    inf = float("inf")
    vac = replace(claim("rdfe-theorem"), measure=lambda c, r: [Measurement("R", inf, 5.0), Measurement("R", inf, 0)])
    v = judge(vac, ctx, rec)
    assert v.verdict is Verdict.HOLDS and v.vacuous and v.ratio == 0.0
    (s,) = _summaries([v, v])
    assert s.vacuous == 2 and s.counts["HOLDS"] == 2
    assert s.max_ratio is None and s.max_ratio_reason == VACUOUS_RATIO
    assert s.max_ratio_all is None and s.max_ratio_all_reason == VACUOUS_RATIO
    mixed = replace(vac, measure=lambda c, r: [Measurement("R", inf, 5.0), Measurement("R", 10.0, 5.0)])
    w = judge(mixed, ctx, rec)
    assert w.verdict is Verdict.HOLDS and not w.vacuous
    (t,) = _summaries([v, w])
    assert t.vacuous == 1 and t.max_ratio == 0.5 and t.max_ratio_reason is None
    assert not judge(claim("class-A"), ctx, rec).vacuous


def test_the_low_count_claim_judges_an_arm_tied_with_the_best():
    """prop:analysis-low-query-bound bounds N_L of every arm k != k*, a tie with k* included (its bound does not
    depend on the gap): the low-count claim measured only arms with a positive gap, so a tied arm, the one pulled
    most, was left out of its verdict and max ratio. The high-count claim (no bound at gap 0) still leaves it
    out; a bound below the tied arm's count is VIOLATED."""
    from bounds import config_to_dict, parse_config
    d = config_to_dict(load_config("llm-vanishing"))
    mu = list(d["instance"]["mu_high"])
    k_star = max(range(len(mu)), key=mu.__getitem__)
    tied = next(k for k in range(len(mu)) if k != k_star)
    mu[tied] = mu[k_star]
    d["instance"]["mu_high"] = mu
    p = make_problem(parse_config(d))
    ctx = ClaimContext(p, check_assumptions(p))
    rec = run(p, "tacc", 0)
    low = claim("low-count").measure(ctx, rec)
    assert tied in [m.arm for m in low] and k_star not in [m.arm for m in low]
    assert tied not in [m.arm for m in claim("high-count").measure(ctx, rec)]
    own = next(m for m in low if m.arm == tied)
    assert own.empirical == rec.n_low[tied] and own.bound == ctx.low_bound(p.s0)
    cut = replace(claim("low-count"), measure=lambda c, r: [Measurement("N_L", r.n_low[tied] - 1, r.n_low[tied])])
    assert judge(cut, ctx, rec).verdict is Verdict.VIOLATED
