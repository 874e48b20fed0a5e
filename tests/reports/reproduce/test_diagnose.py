"""Explanations computed from the runs (``reports.reproduce._diagnose``): change the numbers and the explanation
changes."""

from dataclasses import replace

import pytest

from bounds import arm_partition
from reports.reproduce._common_seeds import CommonSeeds, MethodSums
from reports.reproduce._diagnose import (continuation_use, equal_pairs, equality_sentence, explain_claim,
                                         regret_sources, sweep_marks)
from reports.reproduce import PaperClaim, experiment
from reports.reproduce import variant_config
from simulate import make_problem, run


@pytest.fixture(scope="module")
def runs():
    exp = experiment("llm-residual")
    problem = make_problem(variant_config(exp, exp.variants[1], budget=32000))   # continuation fires: 55 pulls on arm 0
    prior = arm_partition(problem.tau, problem.n_gamma, problem.s0, problem.instance.best_arm)
    recs = {m: [run(problem, m, seed=s) for s in range(3)] for m in ("tacc", "dnc", "low-improving")}
    return problem, prior, recs


def test_regret_sources_add_up_to_the_regret(runs):
    problem, prior, recs = runs
    s = regret_sources(MethodSums.of(recs["tacc"]), problem.instance.gaps, problem.cost_low, problem.cost_high, prior)
    assert s["low"] + s["high"] == pytest.approx(s["regret"], rel=1e-12)       # float sums of the same terms
    assert sum(a["share"] for a in s["arms"]) == pytest.approx(s["regret"], rel=1e-12)
    li = regret_sources(MethodSums.of(recs["low-improving"]), problem.instance.gaps, problem.cost_low,
                        problem.cost_high, prior)
    assert li["high"] == 0 and li["high_queries"] == 0


def test_continuation_use_follows_the_counts(runs):
    problem, prior, recs = runs
    gaps = problem.instance.gaps
    moved = []
    for r in recs["tacc"]:                       # move every continuation pull to arm 2 (gap 0.07)
        total = sum(r.continuation)
        moved.append(replace(r, continuation=tuple(total if k == 2 else 0 for k in range(len(gaps)))))
    use = continuation_use(MethodSums.of(moved), gaps, problem.cost_low, prior)
    before = continuation_use(MethodSums.of(recs["tacc"]), gaps, problem.cost_low, prior)
    assert [a["arm"] for a in before["arms"]] == [0] and before["regret"] == 0          # the best arm: gap 0
    assert [a["arm"] for a in use["arms"]] == [2] and use["total"] == before["total"] > 0
    assert use["regret"] == pytest.approx(gaps[2] * use["total"] * problem.cost_low, rel=1e-12)
    none = continuation_use(MethodSums.of([replace(r, continuation=(0,) * len(gaps)) for r in recs["tacc"]]), gaps,
                            problem.cost_low, prior)
    assert none["arms"] == [] and none["total"] == 0


def _identical(a, b):
    return CommonSeeds.of({"tacc": a, "dnc": b}).identical("tacc", "dnc")


def test_identical_runs_are_counted(runs):
    _, _, recs = runs
    copy = [replace(r, policy="dnc") for r in recs["tacc"]]
    assert _identical(recs["tacc"], copy) == (3, 3, 3)
    shifted = [replace(r, regret=r.regret + 1.0) for r in copy[:2]] + copy[2:]
    same, equal, n = _identical(recs["tacc"], shifted)
    assert (same, equal, n) == (1, 1, 3)
    other = [replace(copy[0], n_low=(copy[0].n_low[0] + 1,) + copy[0].n_low[1:])] + copy[1:]
    assert _identical(recs["tacc"], other) == (2, 3, 3)          # a count differs, the regret does not
    assert _identical(recs["tacc"], copy[:1] + [replace(copy[1], trace=((0, 0),))] + copy[2:])[0] == 2
    assert equal_pairs(CommonSeeds.of({"tacc": recs["tacc"], "dnc": copy})) == [("tacc", "dnc", 3, 3, 3)]
    # equal on 1 of 3: not a majority
    assert equal_pairs(CommonSeeds.of({"tacc": recs["tacc"], "dnc": shifted})) == []


def test_runs_counted_as_they_come_in_any_order_pair_seed_by_seed(runs):
    """The tally pairs each seed's runs whatever order they come in (TACC's runs after DNC's, seeds interleaved):
    the same paired differences, regret summaries and counts as the runs held whole; a seed left without one
    method's run is an error, not a smaller sample."""
    from reports.stats import paired, summarize
    _, _, recs = runs
    held = CommonSeeds.of(recs)
    streamed = CommonSeeds(recs, per_arm=True, compare=True)
    for seed in (2, 0, 1):
        for m in reversed(list(recs)):
            streamed.add(m, seed, recs[m][seed], False)
    streamed.close()
    assert streamed.summaries() == held.summaries()
    assert held.summaries()[1]["dnc"] == paired([r.regret for r in recs["tacc"]], [r.regret for r in recs["dnc"]])
    assert held.summaries()[0]["tacc"] == summarize([r.regret for r in recs["tacc"]])
    assert streamed.pairs == held.pairs and streamed.sums["tacc"].low.total() == held.sums["tacc"].low.total()
    short = CommonSeeds(recs)
    short.add("tacc", 0, recs["tacc"][0], False)
    with pytest.raises(RuntimeError, match="seed 0: runs of tacc only"):
        short.close()
    with pytest.raises(ValueError, match="two runs of tacc on seed 0"):
        short.add("tacc", 0, recs["tacc"][0], False)


def test_equality_sentence_names_where_continuation_went():
    use = {"total": 43.0, "regret": 0.0, "seeds": 3, "arms": [{"arm": 0, "class": "optimal", "gap": 0.0,
                                                               "pulls": 43.0, "seeds": 3, "regret": 0.0}]}
    text = equality_sentence("tacc", "dnc", 0, 3, 3, use)
    assert "43 on arms with gap 0" in text
    none = equality_sentence("tacc", "dnc", 3, 3, 3, {**use, "arms": [], "total": 0.0})
    assert "no continuation pull" in none and none != text


def test_sweep_marks_follow_the_outcomes():
    claim = PaperClaim("x", "best", ("v", ("tacc", "dnc")))
    a = sweep_marks(claim, [(2.0, True, 0.0, "tacc"), (1.0, False, 0.0, "tacc"), (0.5, False, 0.25, "dnc")])
    assert a.startswith("It would reproduce at rho / rho_min = 2;") and "25% of the runs of dnc" in a
    b = sweep_marks(claim, [(2.0, False, 0.0, "tacc"), (1.0, False, 0.0, "tacc")])
    assert b.startswith("It reproduces at no rho")
    assert sweep_marks(claim, [(1.0, None, 0.0, "")]).startswith("The rho sweep does not cover")


def test_explanation_changes_with_the_numbers(runs):
    problem, prior, recs = runs
    claim = PaperClaim("TACC lowest", "best", ("cost_high = 500", ("tacc", "dnc", "low-improving")))
    kw = dict(gaps=problem.instance.gaps, costs=(problem.cost_low, problem.cost_high), classes=prior,
              window_sentence="W.", marks="M.")
    base = explain_claim(claim, runs=CommonSeeds.of(recs), **kw)
    assert base[-1] == "M." and any(s.startswith("tacc's mean regret") for s in base)
    more = {**recs, "tacc": [replace(r, n_high=tuple(h + 1 for h in r.n_high)) for r in recs["tacc"]]}
    changed = explain_claim(claim, runs=CommonSeeds.of(more), **kw)
    assert changed != base


def test_continuation_is_said_only_where_tacc_is_compared(runs):
    problem, prior, recs = runs
    kw = dict(gaps=problem.instance.gaps, costs=(problem.cost_low, problem.cost_high), classes=prior,
              window_sentence="W.", marks="M.")
    own = explain_claim(PaperClaim("x", "close_to", ("v", "low-improving", 1.0, 0.01)), runs=CommonSeeds.of(recs), **kw)
    assert not any("continuation pulls" in e for e in own)
    with_tacc = explain_claim(PaperClaim("y", "paired_below", ("v", "dnc")), runs=CommonSeeds.of(recs), **kw)
    assert any("continuation pulls (55 per run) went to arm 0 (optimal, gap 0)" in e for e in with_tacc)
