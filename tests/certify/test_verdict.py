"""Verdicts (docs/design.md section 7): NOT_APPLICABLE before OFF_EVENT before VIOLATED; lem:ci by an exact binomial
test."""

from dataclasses import replace

import pytest

from bounds import load_config
from certify import ClaimContext, Verdict, check_assumptions, claim, claims_for, judge, judge_lem_ci
from certify._assumptions import AssumptionResult
from certify._measurement import Measurement
from simulate import Violation, make_problem, run


@pytest.fixture(autouse=True)
def _event_as_flagged(monkeypatch):
    """The records here are real runs relabelled (``event_held=False`` on a run whose observations never left the
    radius), to test the verdicts' precedence and scans: the context reads the flag as the event's decision.
    Deciding it exactly on the observations is tested in tests/certify/test_event.py."""
    monkeypatch.setattr(ClaimContext, "_failed_exactly", lambda self, r: not r.event_held)


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
    """The binomial test on the count of failed events (the flags read as decided: ``_event_as_flagged``)."""
    p, assumptions, rec = setup
    recs = [replace(rec, seed=i, event_held=i >= failures) for i in range(n)]
    v = judge_lem_ci(ClaimContext(p, assumptions), recs)       # delta = 0.05: P(Bin(20, .05) >= 6) < 0.01
    assert v.verdict is verdict and v.worst.empirical == failures / n and v.worst.bound == p.delta
    if verdict is Verdict.VIOLATED:
        assert v.reason.startswith(f"the confidence event failed on {failures} of {n} runs, more often than "
                                   f"delta = 0.05 allows") and "alpha = 0.01" in v.reason
    else:
        assert v.reason == ""


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
            "ClaimContext._failed_exactly = lambda self, r: not r.event_held; "
            "p = make_problem(load_config('set-a')); ctx = ClaimContext(p, check_assumptions(p)); "
            "held, failed = run(event_held=True, policy='tacc'), run(event_held=False, policy='tacc'); "
            "v = judge_lem_ci(ctx, [held] * 20); print(v.worst.what, 'scipy.stats' in sys.modules); "
            "w = judge_lem_ci(ctx, [failed] + [held] * 19); print(w.worst.what, 'scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    by = "; radius by the sub-Gaussian union bound (the paper's reading)"      # the reading lem:ci:rho held by
    assert out[0] == f"failure frequency (p = 1{by}) False"
    assert out[1] == f"failure frequency (p = {1 - 0.95 ** 20:.3g}{by}) True"     # P(Bin(20, .05) >= 1)


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


def test_a_claim_about_suboptimal_arms_says_why_a_tied_arm_gives_it_nothing_to_measure():
    """Two arms, tied: tacc bounds, simulate and explain call arm 1 class B; tacc check said the high-count claim
    had "no suboptimal arm" and nothing else. The reason now names the tied arm, its class and why the claim does
    not bound it; with a gap there is no such note."""
    from bounds import config_to_dict, parse_config
    d = config_to_dict(load_config("llm-vanishing"))
    d["instance"]["mu_high"] = [0.5, 0.5]
    d["instance"]["low"]["signs"] = [1, 1]
    p = make_problem(parse_config(d))
    ctx = ClaimContext(p, check_assumptions(p))
    rec = run(p, "tacc", 0)
    v = judge(claim("high-count"), ctx, rec)
    assert v.verdict is Verdict.NOTHING_TO_MEASURE and ctx.tied == (1,)
    assert v.reason == ("nothing to measure: no suboptimal arm on this run (arm(s) 1 tied with k^* = 0: class B, "
                        "Delta_k = 0; this claim bounds suboptimal arms only, and their pulls cost no regret)")
    assert judge(claim("class-A"), ctx, rec).reason == "nothing to measure: no suboptimal arm in class A on this run"


# ------------------------------------------------------------------ the scan kept per key (KeyedMeasure, judge)
def _one(t: tuple, k: int, value) -> tuple:
    return t[:k] + (value,) + t[k + 1:]


def _variants(ctx, rec) -> list:
    """``rec`` and records that differ from it in one value a claim reads: every count one above its bound and at
    it, every count of every per-arm field pushed far up, a completed phase's costs tripled and survivors kept,
    the event failed; then each again under another seed (the same keys: the kept scans serve them)."""
    out = [rec]
    low = ctx.low_bound(ctx.problem.s0 if rec.policy == "tacc" else 0)
    for k in ctx.not_best:
        out += [replace(rec, n_low=_one(rec.n_low, k, low + d)) for d in (0, 1)]
    for k in ctx.suboptimal:
        out += [replace(rec, n_high=_one(rec.n_high, k, b + d)) for b in (ctx.high_bounds[k], ctx.ucb_bounds[k], 1)
                for d in (0, 1)]
    for name in ("n_low", "n_high", "high_in_window", "high_before_threshold"):
        t = getattr(rec, name)
        out += [replace(rec, **{name: _one(t, k, t[k] + 10**6)}) for k in range(len(t))]
    for i, ph in enumerate(rec.phases):
        if ph.completed:
            # an interval of width exactly eps_r / 4 (UNDECIDED: inside the error bound of its ends), one far too
            # wide (VIOLATED)
            c = round(ctx.mu_high[ph.active[0]] * 2**10) / 2**10          # within eps_r / 8 of mu_H: covered
            exact = replace(ph, lcb=(c - ph.eps / 8,) + ph.lcb[1:], ucb=(c + ph.eps / 8,) + ph.ucb[1:])
            # every arm's interval of width eps_r / 8 around mu_H: a tie for the worst (the first arm's, HOLDS)
            centres = [round(ctx.mu_high[k] * 2**20) / 2**20 for k in ph.active]
            tied = replace(ph, lcb=tuple(c - ph.eps / 16 for c in centres), ucb=tuple(c + ph.eps / 16 for c in centres))
            out += [replace(rec, phases=_one(rec.phases, i, replace(ph, cost=tuple(3 * c for c in ph.cost)))),
                    replace(rec, phases=_one(rec.phases, i, tied)),
                    replace(rec, phases=_one(rec.phases, i, replace(ph, survivors=ph.active))),
                    replace(rec, phases=_one(rec.phases, i, exact)),
                    replace(rec, phases=_one(rec.phases, i, replace(ph, ucb=(ph.ucb[0] + 1.0,) + ph.ucb[1:])))]
    out.append(replace(rec, event_held=False))
    return out + [replace(r, seed=r.seed + 1000) for r in out]


def _kept_and_measured(claims, problem, assumptions, records) -> tuple:
    """(every claim on every record judged in one context, the scans kept per key and a ScannedMeasure's own
    scan; the same, every run measured (the claims' plain measures)): pickled, the bytes of both."""
    import pickle

    from certify._measurement import KeyedMeasure, ScannedMeasure
    kept_ctx, plain_ctx = ClaimContext(problem, assumptions), ClaimContext(problem, assumptions)
    kept = [judge(c, kept_ctx, r) for r in records for c in claims]
    plain = [judge(replace(c, measure=c.measure.measure) if isinstance(c.measure, (KeyedMeasure, ScannedMeasure))
                   else c, plain_ctx, r) for r in records for c in claims]
    return pickle.dumps(kept), pickle.dumps(plain), kept


@pytest.mark.parametrize("policy", ["tacc", "dnc", "mf-ucb", "ucb", "rdfe"])
def test_kept_scans_give_the_verdicts_of_measuring_every_run(setup, policy):
    """A claim whose measurements depend on the run only through its key (counts, a phase's costs) is scanned once
    per key in a context; every verdict is the one measuring the run gives (pickled: the same bytes, so the same
    verdict, ratio, reason and measurement, and a run's own measurement is its own object), on counts one above
    their bound (VIOLATED), at it (HOLDS) and off the event, each judged twice (the second from the kept scan)."""
    p, assumptions, _ = setup
    ctx = ClaimContext(p, assumptions)
    records = _variants(ctx, run(p, policy, 3))
    kept, plain, verdicts = _kept_and_measured(claims_for(policy), p, assumptions, records)
    assert kept == plain
    seen = {v.verdict for v in verdicts}
    assert Verdict.VIOLATED in seen and Verdict.HOLDS in seen and Verdict.OFF_EVENT in seen
    if policy == "rdfe":                                     # rdfe-width's own scan: every outcome
        width = {v.verdict for v in verdicts if v.claim == "rdfe-width"}
        assert {Verdict.HOLDS, Verdict.VIOLATED, Verdict.UNDECIDED, Verdict.OFF_EVENT} <= width


def test_a_count_one_above_its_bound_is_violated_from_the_kept_scan(setup):
    """The second run with a count one above its bound is judged from the kept scan (not measured again) and is
    still VIOLATED; at the bound it HOLDS at ratio 1; the same counts off the event are OFF_EVENT."""
    from certify._measurement import KeyedMeasure
    p, assumptions, rec = setup
    ctx = ClaimContext(p, assumptions)
    base = claim("high-count")
    calls = []

    def spy(c, r):
        calls.append(r.seed)
        return base.measure.measure(c, r)

    high = replace(base, measure=KeyedMeasure(spy, base.measure.key, shared=True))
    k = ctx.suboptimal[0]
    bound = ctx.high_bounds[k]
    over = replace(rec, n_high=_one(rec.n_high, k, bound + 1))
    at = replace(rec, n_high=_one(rec.n_high, k, bound))
    first, second = judge(high, ctx, over), judge(high, ctx, replace(over, seed=7))
    assert first.verdict is second.verdict is Verdict.VIOLATED and calls == [over.seed]
    assert second.seed == 7 and second.worst is first.worst and second.worst.arm == k
    assert judge(high, ctx, replace(at, seed=8)).verdict is Verdict.HOLDS and calls == [over.seed, 8]
    assert judge(high, ctx, replace(at, seed=9)).ratio == 1.0 and calls == [over.seed, 8]
    off = judge(high, ctx, replace(over, seed=10, event_held=False))
    assert off.verdict is Verdict.OFF_EVENT and calls == [over.seed, 8]         # the event: read every run
    # the VIOLATED verdict says why: the inequality with its amounts and the arm, from the kept scan too
    said = f"N_H at arm {k} = {bound + 1} > {bound} (exceeded by 1; margin -1"
    assert first.reason.startswith(said) and second.reason == first.reason


def test_a_key_that_misses_a_value_the_measure_reads_is_caught(setup):
    """The comparison above has teeth: DNC's theorem keyed on N^(H) alone (it reads N^(L) too) serves a run whose
    low counts were pushed over the bound the verdict of the run before it, and the bytes differ."""
    from certify._measurement import KeyedMeasure
    from certify._measures import high_key
    p, assumptions, _ = setup
    rec = run(p, "dnc", 3)
    base = claim("theorem-dnc")
    wrong = replace(base, measure=KeyedMeasure(base.measure.measure, high_key, shared=False))
    records = [rec, replace(rec, n_low=tuple(x + 10**8 for x in rec.n_low))]
    kept, plain, verdicts = _kept_and_measured((wrong,), p, assumptions, records)
    assert kept != plain and [v.verdict for v in verdicts] == [Verdict.HOLDS, Verdict.HOLDS]
    _, _, right = _kept_and_measured((base,), p, assumptions, records)
    assert [v.verdict for v in right] == [Verdict.HOLDS, Verdict.VIOLATED]


def test_counts_that_are_not_ints_are_measured_as_given(setup):
    """A count stored as a float (1.0) or a bool is not served the scan of the int count: its measurement keeps
    the value it was given."""
    p, assumptions, rec = setup
    ctx = ClaimContext(p, assumptions)
    as_int = judge(claim("high-count"), ctx, rec)
    as_float = judge(claim("high-count"), ctx, replace(rec, n_high=tuple(float(x) for x in rec.n_high)))
    assert type(as_int.worst.empirical) is int and type(as_float.worst.empirical) is float
    assert as_float.worst.empirical == as_int.worst.empirical and as_float.verdict is as_int.verdict
