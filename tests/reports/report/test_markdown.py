"""What ``tacc report`` says, rendered from its results (``reports.report._markdown``): the conclusions' sentences,
the regret and counts tables' cells and notes, each on results built for the case, with no run."""


import pytest

from certify import ClaimSummary
from reports.report._results import (ArmRow, CertificateRecord, EventRow, FloatSums, InstanceFacts, Parameters,
                                     ReportResults, TheoremRow)
from reports.stats import Summary
from tests.reports.views.test_bounds import TIES


def _certificate(claims: list) -> CertificateRecord:
    """An ok certificate of these claims' summaries, no violation, no baseline."""
    return CertificateRecord(True, claims, [], False, [])


def _results(**fields) -> ReportResults:
    """A report's results with ``fields`` set and every other one neutral (one policy, no notes), for the views'
    tests."""
    neutral = dict(config="x", source="", seeds=[[0, 1]], n_seeds=1, policies=["tacc"], budgets=[1000.0],
                   budgets_left_out=[], delta=0.05,
                   instance=InstanceFacts(2, 0, [0.5, 0.4], [0.0, 0.1], "frozen", "gaussian"),
                   parameters=Parameters(1000, 1.0, 1.0, 1.0, 1.0, 10, 0.1, 0.01, 10, 1.0, 10.0),
                   assumptions={}, regret={}, bounds_by_budget={}, arms=[], vacuous=[], theorem=None,
                   classes_after_run={}, continuation={}, metamorphic=None, identical_runs=[],
                   non_monotone_bounds=[], seed_free=[], rdfe_no_phase=[], counts_off_event=None, counts_undecided=None,
                   event={}, float_sums=FloatSums(True, ""), runs_at_full_budget=1,
                   certificate=_certificate([]))
    return ReportResults(**{**neutral, **fields})

@pytest.mark.parametrize("failures,expected,absent", [
    ({"tacc": 3, "dnc": 1}, "3 of 10 runs of tacc (the most of any policy)", "tied"),
    ({"tacc": 0, "dnc": 0}, "failed equally often for every policy: 0 of 10 runs each", "the most"),
    ({"tacc": 2, "dnc": 2, "ucb": 1}, "runs of tacc (tied with dnc for the most)", "the most of any"),
    ({"tacc": 2}, "2 of 10 runs of tacc,", "most"),
])
def test_event_sentence_says_the_most_only_when_informative(failures, expected, absent):
    from reports.report._markdown import _event_sentence
    ev = {p: EventRow(p, 10, f, f / 10, 0) for p, f in failures.items()}
    text = _event_sentence(ev, 0.05)
    assert expected in text and absent not in text


def test_event_sentence_does_not_call_an_undecided_lemma_consistent():
    """mu_high = [1e300, 0.9e300, 0.5e300]: the report said "0 of 3 runs each ... consistent with the lemma", and two
    sentences later that lem:ci is not decided HOLDS (the float sums are not faithful). The first now agrees."""
    from reports.report._markdown import _event_sentence
    ev = {p: EventRow(p, 3, 0, 0.0, 0) for p in ("tacc", "dnc")}
    text = _event_sentence(ev, 0.05, undecided=True)
    assert "consistent" not in text and "lem:ci is undecided here (rounding" in text
    assert "consistent with the lemma" in _event_sentence(ev, 0.05)

def test_a_small_positive_share_is_not_written_as_zero_percent():
    from reports.report._markdown import _pct
    assert _pct(1.174e-05) == "0.0012%" and _pct(0.092) == "9.2%" and _pct(1.0, 0) == "100%" and _pct(0.0) == "0.0%"
    # a share just below 1 never reads 100% ("runs reach 100.0%" beside a table's 0.9999)
    assert _pct(0.99998) == "99.998%" and _pct(0.9999) == "99.99%" and _pct(0.999) == "99.9%" and _pct(1.0) == "100.0%"
    assert _pct(1.00004) == "100.004%"

def test_the_regret_table_prints_a_regret_and_its_bound_apart():
    """A budget-1e12 report printed a regret and its bound both as 1.200e+06 in one row."""
    from reports.report._markdown import _regret_row

    def res(tacc_mean):
        return _results(budgets=[1e12], policies=["tacc", "ucb"],
                        regret={"tacc": [Summary(2, tacc_mean, 3.5, 0.0, 0.0)],
                                "ucb": [Summary(2, 18.0, 1.1, 0.0, 0.0)]},
                        bounds_by_budget={"thm:analysis-main-regret (C in H)": [1200000.0], "other": [2240.0]})
    assert _regret_row(res(1199987.2), 0) == ["1.000e+12", "1.19999e+06 +- 3.5", "18 +- 1.1", "1.20000e+06", "2240"]
    # already apart: printed as before
    assert _regret_row(res(80.55), 0) == ["1.000e+12", "80.55 +- 3.5", "18 +- 1.1", "1.200e+06", "2240"]


#: three arms, the second 1e-12 below the best: RDFE's oracle cost of that arm, and its bound, are infinite.
TINYGAP = (TIES.replace('"ties"', '"tinygap"').replace("[0.9, 0.9, 0.7, 0.5]", "[0.9, 0.899999999999, 0.5]")
           .replace("[1, 1, 1, 1]", "[1, 1, 1]").replace("budget = 4000", "budget = 20000"))


def _summary(key, label, holds, max_ratio, reason=None, vacuous=0):
    counts = {"HOLDS": holds, "VIOLATED": 0, "OFF_EVENT": 0, "NOT_APPLICABLE": 0, "UNDECIDED": 0,
              "NOTHING_TO_MEASURE": 0}
    return ClaimSummary(key, label, "", True, counts, max_ratio, max_ratio, reason, reason, vacuous)


def test_an_infinite_bound_is_reported_vacuous_with_its_reason_never_the_loosest_at_0(tmp_path):
    """Gap 1e-12: thm:app-rdfe-regret is inf, and the report said "the loosest is rdfe-theorem at 0.0%". A claim
    that held only against infinite bounds is named vacuous with the reason of ``tacc bounds`` (cause, label,
    arm) and kept out of the tightest / loosest sentence; a finite claim is still ranked."""
    from bounds import analyze, load_config
    from certify import VACUOUS_RATIO
    from reports.views._check import verdict_table
    from reports.report._markdown import conclusions
    from reports.report._report import vacuous_reasons
    p = tmp_path / "tinygap.toml"
    p.write_text(TINYGAP)
    a = analyze(load_config(p))
    sums = [_summary("rdfe-theorem", "thm:app-rdfe-regret", 5, None, VACUOUS_RATIO, 5),
            _summary("rdfe-theorem-phase-sum", "thm:app-rdfe-regret", 5, None, VACUOUS_RATIO, 5),
            _summary("low-count", "prop:analysis-low-query-bound", 5, 0.75),
            _summary("high-count", "prop:analysis-high-selection", 5, 0.25)]
    (vac,) = vacuous_reasons(sums, a)
    assert vac.claims == ["rdfe-theorem", "rdfe-theorem-phase-sum"] and vac.runs == 10
    assert "infinite (thm:app-rdfe-regret)" in vac.reason and "arm 1 (gap 1.000e-12)" in vac.reason
    assert "exceeds 2**53" in vac.reason
    res = _results(certificate=_certificate(sums), runs_at_full_budget=5, vacuous=[vac],
                   event={"tacc": EventRow("tacc", 5, 0, 0.0, 0)})
    text = " ".join(conclusions(res))
    assert "The loosest is high-count (prop:analysis-high-selection) at 25.0%" in text, text
    assert "rdfe-theorem at" not in text and "0.0%" not in text
    assert "rdfe-theorem and rdfe-theorem-phase-sum (thm:app-rdfe-regret) hold only vacuously" in text
    assert "bound infinite: vacuous" in text and "undefined" not in text
    assert text.count("infinite (thm:app-rdfe-regret)") == 1
    table = verdict_table(sums)
    assert "5 (5 vacuous: bound inf)" in table and "vacuous (bound inf)" in table
    assert vacuous_reasons(sums[2:], a) == []


def test_a_tied_arm_is_in_the_counts_table_with_its_class_and_no_high_bound():
    """Ties with the best arm: the counts table left arm 1 (gap 0) out without a word while the classes line
    counted it. Its row now says its class (B, tied with k*), its low-count bound, and "no bound: gap 0, tied
    with k^*" for N_H; a note says what a tied arm is. An arm with a gap keeps its plain row."""
    from dataclasses import replace as dc_replace

    from reports.report._markdown import _count_row, _tied_note
    tied = ArmRow(1, "B", float("inf"), 0.0, 9992, 9990.5, 9992, float("inf"), 2000.0, 2100, tied_with_best=True)
    row = _count_row(tied)
    assert row[1] == "B (tied with k*)" and row[7] == "no bound: gap 0, tied with k^*"
    assert [str(x) for x in row[4:7]] == ["9992", "9990", "9992"] and [str(x) for x in row[8:]] == ["2000", "2100"]
    plain = dc_replace(tied, arm=2, gap=0.2, high_bound=123078457161158599668813613, high_mean=5.0, high_max=7,
                       tied_with_best=False)
    row = _count_row(plain)
    assert row[1] == "B" and str(row[7]) == "1.231e+26"
    note = " ".join(_tied_note(_results(arms=[tied, plain])))
    assert "Tied with k* = 0 (gap 0): arm(s) 1." in note and "its class is B" in note
    assert _tied_note(_results(arms=[plain])) == []


def _theorem_res(holds, off_event, not_applicable=0, violated=0, mean=5591.02, bound=172.0):
    counts = {"HOLDS": holds, "VIOLATED": violated, "OFF_EVENT": off_event, "NOT_APPLICABLE": not_applicable,
              "UNDECIDED": 0, "NOTHING_TO_MEASURE": 0}
    claim = ClaimSummary("theorem", "thm:analysis-main-regret", "", True, counts, None, None)
    runs = holds + off_event + not_applicable + violated
    return _results(certificate=_certificate([claim]), runs_at_full_budget=runs, seeds=[[0, runs]], n_seeds=runs,
                    theorem=TheoremRow(mean, bound, bound),
                    event={"tacc": EventRow("tacc", runs, off_event, off_event / runs, 0)})


def test_a_mean_regret_above_the_bound_says_the_runs_are_off_the_event():
    """rho = 0.01 (rho_small): every TACC run OFF_EVENT; "3250.6% of the theorem's bound" was written as if the
    theorem were contradicted. The sentence says how many runs are outside the theorem and why."""
    from reports.report._markdown import conclusions
    text = " ".join(conclusions(_theorem_res(0, 5)))
    assert "3250.6% of the theorem's bound" in text
    assert ("All 5 of TACC's runs this mean averages are outside thm:analysis-main-regret, which states nothing about "
            "them: 5 OFF_EVENT (the confidence event of lem:ci failed on the run), so the excess over the bound is no "
            "counterexample to the theorem.") in text
    some = " ".join(conclusions(_theorem_res(3, 2)))
    assert "2 of the 5 of TACC's runs" in some and "on the other 3 the theorem HOLDS on 3 and is VIOLATED on 0" in some
    assert "the excess of the mean comes from the runs outside it" in some
    na = " ".join(conclusions(_theorem_res(0, 0, not_applicable=4, mean=10.0)))
    assert "All 4 of TACC's runs" in na and "4 NOT_APPLICABLE" in na and "counterexample" not in na
    # every run on the event: the sentence is as before, nothing added
    plain = [s for s in conclusions(_theorem_res(5, 0, mean=10.0)) if "mean regret" in s]
    assert plain == ["At the full budget TACC's mean regret is 10, 5.8% of the theorem's bound with every C arm in H "
                     "(172) and 5.8% of its smallest form, every C arm in C^d (172)."]
