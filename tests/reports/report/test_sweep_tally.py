"""``reports.report._sweep_tally``: the report's aggregates counted one run at a time equal those of the runs held
whole, and the report streams its sweep in memory independent of the seeds."""

import gc
import json
import tracemalloc
from dataclasses import fields, replace

import pytest

from bounds import analyze, refine_partition
from certify import Histogram
from reports.report import _report as report_module
from reports.report import budget_sweep, default_config, make_report
from reports.report._markdown import _seed_free_note
from tests.reports.report.test_markdown import _results
from reports.report import SweepTally, record_digest
from simulate import make_problem, run_tasks, tasks_for

BUDGETS = (500.0, 1000.0)


def _config(budget=1000.0):
    cfg = default_config()
    return replace(cfg, params=replace(cfg.params, budget=budget))


def _runs(policies, seeds):
    """{(budget, policy): records in seed order} of the default instance at :data:`BUDGETS`."""
    recs = run_tasks(tasks_for([_config(b) for b in BUDGETS], policies, seeds))
    n = len(seeds)
    return {(b, p): recs[(i * len(policies) + j) * n:(i * len(policies) + j + 1) * n]
            for i, b in enumerate(BUDGETS) for j, p in enumerate(policies)}


def _tally(by, policies, lead="tacc"):
    cfg = _config(BUDGETS[-1])
    a = analyze(cfg)
    t = SweepTally(make_problem(cfg), a, BUDGETS, policies, lead, [k for k in range(a.instance.n_arms)
                                                                     if k != a.instance.best_arm])
    for b in BUDGETS:
        for p in policies:
            for r in by[b, p]:
                t.add(b, p, r)
    return t


@pytest.fixture(scope="module")
def by():
    return _runs(("dnc", "mf-ucb", "tacc", "rdfe"), range(3))


def test_identical_runs_are_found_only_when_every_record_agrees(by):
    """dnc and mf-ucb coincide on the default instance; one seed with another record, or any compared field changed
    (the name excepted), parts them, counted as the runs come (digests) and on the runs held whole (record by
    record) alike."""
    policies = ("dnc", "mf-ucb", "tacc")
    assert all(replace(x, policy="mf-ucb") == y for b in BUDGETS
               for x, y in zip(by[b, "dnc"], by[b, "mf-ucb"], strict=True))
    assert _tally(by, policies).identical_runs() == [("dnc", "mf-ucb")]
    changed = dict(by)
    recs = by[1000.0, "mf-ucb"]
    changed[1000.0, "mf-ucb"] = [recs[0], replace(recs[1], rounds=recs[1].rounds + 1), recs[2]]
    assert _tally(changed, policies).identical_runs() == []
    changed[1000.0, "mf-ucb"] = [recs[0], recs[2], recs[1]]          # the same runs in another seed order
    assert _tally(changed, policies).identical_runs() == []
    for f in fields(recs[1]):                        # every compared field but the name counts, the name does not
        other = replace(recs[1], **{f.name: object()})
        # the tally digests these bytes (its other sums need numbers, which object() is not)
        assert (record_digest(other) != record_digest(recs[1])) is (f.name != "policy"), f.name


def test_a_record_digest_stands_for_the_record_apart_from_its_name(by):
    """Equal bytes for records equal apart from the name (RDFE's phases and a violation among their fields
    included), other bytes for any change of a phase."""
    r = by[1000.0, "rdfe"][0]
    assert r.phases and record_digest(r) == record_digest(replace(r, policy="other"))
    phase = replace(r.phases[0], eps=r.phases[0].eps * 2)
    assert record_digest(replace(r, phases=(phase, *r.phases[1:]))) != record_digest(r)
    t = by[1000.0, "tacc"][0]
    from simulate import Violation
    v = replace(t, violation=Violation(1, "low", 3))
    assert record_digest(v) == record_digest(replace(v, violation=Violation(1, "low", 3)))
    assert record_digest(v) != record_digest(replace(v, violation=Violation(1, "high", 3)))


def test_counts_are_grouped_by_the_arms_class_in_each_run(by):
    """Per arm but k^*, the lead policy's counts at the full budget grouped by the arm's class in the run, the runs
    off the event of lem:ci apart, sums and maxima: those of the records held whole."""
    t = _tally(by, ("tacc", "rdfe"))
    a = analyze(_config(BUDGETS[-1]))
    recs = by[BUDGETS[-1], "tacc"]
    for i, k in enumerate(t.arms):
        expect_low, expect_high = {}, {}
        for r in recs:
            c = refine_partition(a.classes, a.tau, r.facts())[k].value
            expect_low.setdefault(c, Histogram()).add(r.n_low[k])
            expect_high.setdefault(c, Histogram()).add(r.n_high[k])
        assert t.low[i] == expect_low and t.high[i] == expect_high
        assert t.sums()[0][i] == sum(r.n_low[k] for r in recs) and t.high_max[i] == max(r.n_high[k] for r in recs)
    assert t.low_off == [{} for _ in t.arms] and t.lead_off == 0 and t.lead_runs() == 3
    off = replace(recs[0], event_held=False)
    t.add(BUDGETS[-1], "tacc", off)           # the float check failed, the exact one does not: rounding, not off
    assert t.lead_off == 0 and t.float_failures["tacc"] == 1 and t.failures["tacc"] == 0


def test_the_sums_of_counts_are_exact_past_the_int64_range(by, monkeypatch):
    """The per-arm sums are folded into Python ints before an int64 part could overflow: with the fold at 100, the
    sums of 40 runs (each count below 100) equal those of the records, as with no fold."""
    from reports.report import _sweep_tally
    monkeypatch.setattr(_sweep_tally, "_FOLD_AT", 100)
    recs = by[BUDGETS[-1], "tacc"] * 13
    t = _tally({**by, (BUDGETS[-1], "tacc"): recs}, ("tacc", "rdfe"))
    assert t.sums() == ([sum(r.n_low[k] for r in recs) for k in t.arms], [sum(r.n_high[k] for r in recs)
                                                                          for k in t.arms])
    assert any(t._low_sums._whole)                         # folded at least once


def test_a_policy_with_the_same_counts_on_every_seed_gets_the_footnote(by):
    """RDFE's regret read 59.83 +- 0 over 1000 seeds with no word: the footnote says the policy made the same
    queries on every seed (equal counts) and, for RDFE, why; one seed with another count takes it out."""
    t = _tally(by, ("tacc", "rdfe"))
    rdfe = [x for x in t.seed_free() if x.policy == "rdfe"]
    recs = by[BUDGETS[0], "rdfe"]
    assert all(r.n_low == recs[0].n_low for r in recs)      # RDFE's plan: the same queries on every seed
    (x,) = rdfe
    assert x.budgets[0] == BUDGETS[0] and x.seeds == 3
    (line,) = [s for s in _seed_free_note(_results(seed_free=[x])) if s]
    assert line.startswith(f"+- 0: rdfe made the same queries on all 3 seeds at budget(s) {BUDGETS[0]:g}")
    other = dict(by)
    other[BUDGETS[0], "rdfe"] = [*recs[:2], replace(recs[2], n_low=(recs[2].n_low[0] + 1, *recs[2].n_low[1:]))]
    assert BUDGETS[0] not in sum((x.budgets for x in _tally(other, ("tacc", "rdfe")).seed_free()
                                  if x.policy == "rdfe"), [])
    one = {k: v[:1] for k, v in by.items()}
    assert _tally(one, ("tacc", "rdfe")).seed_free() == []     # one run: nothing to say


@pytest.mark.slow
def test_a_report_streams_its_sweep_in_memory_independent_of_the_seeds(tmp_path, monkeypatch):
    """The memory a report holds when its last run has been counted (tracemalloc's current size then: what the
    tally, the certificate and everything else kept of the runs) over 800 seeds (20,000 runs) is within a small
    margin of that over 200 (5,000 runs), while holding even a pointer to each run's regret would grow by 120 KB (a
    list of them kept by the tally fails this test: the margin is half that). The runs come from a pool of real
    records (the runner is replaced: the cache and the engine are not what is measured here, and they stream
    anyway); the claim context's memos hold at most 8 entries and a figure draws at most 50 points per box (both
    filled by the first runs: the points a figure draws grow with the runs up to certify.MAX_POINTS, and a memo's
    size goes up and down)."""
    from certify import _context as context_module
    from certify import _histogram as histogram_module
    monkeypatch.setattr(context_module, "MEMO_ENTRIES", 8)
    monkeypatch.setattr(histogram_module, "MAX_POINTS", 50)
    policies = report_module.DEFAULT_POLICIES
    budgets = budget_sweep(2000.0)
    pool = {}
    for b in budgets:
        for p, r in zip([p for p in policies for _ in range(4)],
                        run_tasks(tasks_for([_config(b)], policies, range(4))), strict=True):
            pool.setdefault((b, p), []).append(r)
    held = {}

    def fake_iter_runs(tasks, **_):
        n = 0
        for task in tasks:
            r = pool[task.config.params.budget, task.policy][task.seed % 4]
            n += 1
            yield replace(r, seed=task.seed)
        gc.collect()                   # what is held, not cyclic garbage the collector has yet to reach
        held[n] = tracemalloc.get_traced_memory()[0]

    monkeypatch.setattr(report_module, "iter_runs", fake_iter_runs)

    def held_after(seeds: int) -> int:
        tracemalloc.start()
        try:
            make_report(_config(2000.0), seeds=range(seeds), out_dir=tmp_path / f"r{seeds}", executor="serial")
        finally:
            tracemalloc.stop()
        return held[25 * seeds]

    held_after(8)                                                                # imports, first figures
    small, large = held_after(200), held_after(800)
    assert large - small < 0.5 * 15000 * 8, (small, large)
    res = json.loads((tmp_path / "r800" / "results.json").read_text())
    assert res["n_seeds"] == 800 and res["seeds"] == [[0, 800]] and res["runs_at_full_budget"] == 4000


def test_the_report_of_a_stream_equals_the_report_of_its_runs(by):
    """The regret summaries counted as the runs come equal those of the regrets held whole (one exact formula)."""
    from reports.stats import summarize
    t = _tally(by, ("dnc", "mf-ucb", "tacc", "rdfe"))
    for key, s in t.regret.items():
        assert s.summary() == summarize([r.regret for r in by[key]])
