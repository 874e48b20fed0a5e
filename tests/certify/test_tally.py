"""The certificate's aggregates counted one verdict at a time (certify/_tally.py): ``check(keep="violated")``
keeps only the VIOLATED verdicts and lem:ci's, with everything else it reports the same, in memory that does not
grow with the seeds."""

import json
import math
import tracemalloc
from dataclasses import replace

import pytest

import certify._check as check_module
import certify._context as context_module
from bounds import TaccInputError, load_config, parse_config
from certify import ClaimContext, Tally, Verdict, check, claim
from certify._check import summaries_of
from certify._measurement import Measurement
from reports.views._check import junit, to_json
from simulate import make_problem, run

#: means near 1e12: lem:ci UNDECIDED by rounding, claims NOT_APPLICABLE or UNDECIDED on their assumptions
HUGE = parse_config({"name": "huge12", "instance": {"mu_high": [1e12, 999999999999.5, 999999999999.0],
                                                    "low": {"model": "power_decay", "zeta": 0.1, "r": 0.5}},
                     "costs": {"low": 1.0, "high": 10.0},
                     "params": {"budget": 4000.0, "delta": 0.05, "rho": "min", "gamma": 0.1, "eta": 1e-4, "s0": 5}})


def _low_count_violated_on_odd_seeds(monkeypatch):
    """low-count exceeded on every odd seed (a bound of 0 there), so VIOLATED and HOLDS verdicts mix in one cell."""
    real_claim = claim("low-count")
    bad = replace(real_claim, measure=lambda ctx, rec: (
        [Measurement("N_L", 0, 1, arm=1)] if rec.seed % 2 else real_claim.measure(ctx, rec)))
    real = check_module.claims_for
    monkeypatch.setattr(check_module, "claims_for",
                        lambda p: tuple(bad if c.key == "low-count" else c for c in real(p)))


def _same(a, b):
    """Equal, NaN equal to NaN (a summary's undefined ratio)."""
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def test_keeping_only_the_violated_verdicts_changes_nothing_else(monkeypatch):
    """Both ways on instances with every kind of verdict (VIOLATED beside HOLDS, NOT_APPLICABLE, UNDECIDED,
    NOTHING_TO_MEASURE): the same summaries, judged pairs, claims judged on no run with their reasons, reproducers,
    JUnit XML and JSON but for the verdicts; and a tally counted while the runs stream equals one made from the
    whole list of verdicts afterwards."""
    _low_count_violated_on_odd_seeds(monkeypatch)
    configs = [load_config("llm-vanishing"), HUGE]
    every = check(configs, seeds=range(4))
    few = check(configs, seeds=range(4), keep="violated")
    kinds = {v.verdict for v in every.verdicts}
    assert {Verdict.VIOLATED, Verdict.HOLDS, Verdict.NOTHING_TO_MEASURE} <= kinds
    assert kinds & {Verdict.NOT_APPLICABLE, Verdict.UNDECIDED}
    assert every.verdicts_kept == "all" and few.verdicts_kept == "violated"
    assert len(few.verdicts) < len(every.verdicts)
    assert few.verdicts == tuple(v for v in every.verdicts if v.verdict is Verdict.VIOLATED or v.seed is None)
    assert _same(few.summaries, every.summaries) and few.not_judged == every.not_judged and every.not_judged
    assert (few.judged_pairs, few.run_pairs) == (every.judged_pairs, every.run_pairs) == \
        (every.judged_pairs, len(every.run_verdicts))
    assert few.reproducers == every.reproducers and len(every.reproducers) == 6     # TACC, DNC, MF-UCB on seeds 1, 3
    assert junit(few) == junit(every) and "<failure" in junit(every) and "<skipped" in junit(every)
    a, b = to_json(every), to_json(few)
    assert a.pop("verdicts_kept") == "all" and b.pop("verdicts_kept") == "violated"
    assert len(a.pop("verdicts")) > len(b.pop("verdicts")) and _same(a, b)
    after = Tally.of(every.verdicts, every.assumptions)
    assert _same(summaries_of(after), every.summaries)
    assert list(after.cells) == list(every.tally.cells)
    assert [(c.n, c.counts, c.judged, c.reasons) for c in after.cells.values()] == \
        [(c.n, c.counts, c.judged, c.reasons) for c in every.tally.cells.values()]


def test_keep_is_checked():
    with pytest.raises(TaccInputError, match="keep"):
        check([load_config("llm-vanishing")], seeds=range(1), keep="some")


def test_a_tampered_event_flag_is_an_integrity_error_of_lem_ci(monkeypatch):
    """lem:ci is judged from counts (no record kept): a VIOLATED lem:ci verdict is confirmed on reruns of every
    seed, and stored runs whose event facts differ from the reruns' are an integrity error, not a finding."""
    cfg = load_config("llm-vanishing")
    p = make_problem(cfg)
    fresh = [run(p, "ucb", s) for s in range(12)]
    monkeypatch.setattr(ClaimContext, "_failed_exactly", lambda self, r: not r.event_held)
    assert not check([cfg], policies=("ucb",), seeds=range(12), records=fresh).integrity_errors
    stored = [replace(r, event_held=False) for r in fresh]     # every run said to be off the event
    cert = check([cfg], policies=("ucb",), seeds=range(12), records=stored, keep="violated")
    (error,) = [e for e in cert.integrity_errors if e.claim == "lem-ci"]
    assert (error.seed, error.stored, error.rerun, error.records_differ) == (None, "VIOLATED", "HOLDS", True)
    lem = next(s for s in cert.summaries if s.key == "lem-ci")
    assert lem.counts["HOLDS"] == 1 and lem.counts["VIOLATED"] == 0                    # counted as confirmed
    unconfirmed = check([cfg], policies=("ucb",), seeds=range(12), records=stored, confirm_violations=False)
    assert next(s for s in unconfirmed.summaries if s.key == "lem-ci").counts["VIOLATED"] == 1


def _peak(configs, policies, n, keep) -> int:
    tracemalloc.start()
    check(configs, policies=policies, seeds=range(n), keep=keep)
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top


@pytest.mark.slow
def test_a_check_keeping_only_violated_verdicts_runs_in_memory_independent_of_the_seeds(monkeypatch):
    """The peak memory of a check over 2,400 seeds is within a small margin of one over 600, while keeping every
    verdict grows by about 2 KB a run. The claim context's memos hold at most 64 entries here (MEMO_ENTRIES, 1,024
    by default, whose filling would otherwise be measured): full after the first runs, so a memo that skipped the
    bound (or any other per-run state kept) would grow between the two."""
    monkeypatch.setattr(context_module, "MEMO_ENTRIES", 64)
    configs, policies = [load_config("llm-vanishing")], ("tacc",)
    check(configs, policies=policies, seeds=range(3))                              # compile, import
    small, large = _peak(configs, policies, 600, "violated"), _peak(configs, policies, 2400, "violated")
    grows = _peak(configs, policies, 2400, "all") - _peak(configs, policies, 600, "all")
    assert grows > 1800 * 1000                                                      # about 2 KB a run
    assert large - small < 0.1 * grows, (small, large, grows)


def test_memos_are_bounded(monkeypatch):
    """A full memo is emptied before it takes one more entry: the count measurements of 2,000 distinct values
    leave at most MEMO_ENTRIES."""
    monkeypatch.setattr(context_module, "MEMO_ENTRIES", 50)
    ctx = ClaimContext(make_problem(load_config("llm-vanishing")), {})
    for n in range(2000):
        ctx.count("N_L", 10, n)
    assert 0 < len(ctx._counts) <= 50
    assert ctx.count("N_L", 10, 7) == Measurement("N_L", 10, 7)
    assert not math.isnan(ctx.count("N_L", 10, 7).ratio)


def test_a_cell_lists_at_most_max_reasons_and_counts_the_rest_together():
    """An undecided comparison's reason names the run's values, so it differs on every run: a cell keeps the first
    MAX_REASONS distinct ones and counts every other run under one line, so the reasons do not grow with the runs."""
    from certify import RunVerdict
    from certify._tally import MAX_REASONS, Cell
    cell = Cell("rdfe-width", "lem:app-rdfe-phase-width", "c", "rdfe")
    for i in range(MAX_REASONS + 30):
        cell.add(RunVerdict("rdfe-width", "lem", "c", "rdfe", i, Verdict.UNDECIDED, 1.0, Measurement("w", 1, 1), 1,
                            reason=f"w = {i} against 1: inside the error bound"), {})
    assert len(cell.reasons) == MAX_REASONS + 1 and cell.n == MAX_REASONS + 30 and not cell.judged
    lines = cell.why()
    assert lines[0] == "UNDECIDED on c: w = 0 against 1: inside the error bound [1 run(s)]"
    assert lines[-1] == (f"UNDECIDED on c (rdfe): other reasons (the first {MAX_REASONS} distinct ones are listed) "
                         f"[30 run(s)]")


def test_a_cell_counts_the_ratio_of_every_judged_run_that_is_not_vacuous():
    """The tightness figure's points: a judged run's ratio (0 / 0 as NaN), none for a vacuous run (bound infinite:
    its 0 says nothing) or a run not judged; a cell's ratios change with any of those."""
    from certify import Histogram, RunVerdict
    from certify._tally import Cell
    cell = Cell("x", "lem:x", "c", "tacc")
    m = Measurement("w", 1, 2)
    for ratio, verdict, vacuous in ((0.5, Verdict.HOLDS, False), (0.25, Verdict.VIOLATED, False),
                                    (math.nan, Verdict.HOLDS, False), (0.0, Verdict.HOLDS, True),
                                    (0.9, Verdict.UNDECIDED, False), (0.5, Verdict.HOLDS, False)):
        cell.add(RunVerdict("x", "lem:x", "c", "tacc", 0, verdict, ratio, m, 1, vacuous=vacuous), {})
    expected = Histogram()
    for x in (0.5, 0.25, math.nan, 0.5):
        expected.add(x)
    assert cell.ratios == expected and cell.ratios.total == 4 and cell.ratios.count("nan") == 1
    expected.add(0.9)
    assert cell.ratios != expected
