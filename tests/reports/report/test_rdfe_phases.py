"""RDFE's runs without a completed phase (``alg:app-rdfe``), as the report counts and words them."""

from dataclasses import replace
from types import SimpleNamespace as R

from reports.report._rdfe_phases import (NoPhaseRuns, completed_a_phase, no_phase_footnote, no_phase_runs,
                                         no_phase_sentence, regret_cell_note)


def _run(*completed):
    return R(phases=tuple(R(completed=c) for c in completed))


def test_a_run_completed_a_phase_when_any_of_its_phases_completed():
    assert completed_a_phase(_run(True, False)) and not completed_a_phase(_run(False)) and not completed_a_phase(_run())


def test_runs_are_counted_per_budget_and_only_for_rdfe():
    by = {(1.0, "rdfe"): [_run(False), _run(True, False), _run()], (2.0, "rdfe"): [_run(True)] * 3}
    rows = no_phase_runs(by, [1.0, 2.0], ("tacc", "rdfe"))
    assert rows == [NoPhaseRuns(1.0, 3, 2), NoPhaseRuns(2.0, 3, 0)]
    assert no_phase_runs(by, [1.0, 2.0], ("tacc",)) == []
    assert regret_cell_note(rows[0]) == " (no phase: 2 of 3 runs)" and regret_cell_note(rows[1]) == ""
    assert "(2 of 3 at 1)" in no_phase_footnote(rows) and no_phase_footnote(rows[1:]) is None


def test_the_conclusion_speaks_of_the_full_budget_and_of_a_lowest_mean():
    some = [NoPhaseRuns(1.0, 4, 4), NoPhaseRuns(2.0, 4, 1)]
    text = no_phase_sentence(some, {"tacc": 2.0, "rdfe": 1.0})
    assert "in 1 of 4 runs at the full budget" in text and "only 3 of its runs there completed a phase" in text
    assert "is the lowest" not in no_phase_sentence(some, {"tacc": 0.5, "rdfe": 1.0})
    assert no_phase_sentence(some[:1] + [replace(some[1], no_phase=0)], {"rdfe": 1.0, "tacc": 2.0}) is None
    assert no_phase_sentence([], {"tacc": 1.0}) is None
