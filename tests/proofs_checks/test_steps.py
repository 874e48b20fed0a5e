"""Every proof step runs and keeps its expected result; refuted steps carry a counterexample and a proved
correction; every comparison with ``bounds`` agrees; perturbed steps are refuted by the same machinery."""

import time

import pytest

from proofs_checks import PERTURBED, STEPS, Outcome, load_baseline, run_steps
from proofs_checks._run import BASELINE

#: the paper's current findings (proofs_checks/README.md); every other step is PROVED.
REFUTED = {"lem-ci.union-bound", "cor.n-gamma-substitution", "cor.absorb-start", "rdfe-thm.terminal-vs-quarter",
           "rdfe-thm.warm-start"}
LABELS = ("lem:ci", "prop:analysis-low-selection", "prop:analysis-high-selection", "prop:analysis-low-query-bound",
          "thm:analysis-main-regret", "cor:analysis-main-regret-order", "prop:analysis-regret-improvement",
          "lem:app-rdfe-phase-width", "lem:app-rdfe-elim", "lem:app-rdfe-phase-cost", "thm:app-rdfe-regret")


@pytest.fixture(scope="module")
def reports():
    t = time.perf_counter()
    out = {r.step.sid: r for r in run_steps(STEPS)}
    return out, time.perf_counter() - t


def test_every_step_keeps_its_expected_result(reports):
    out, _ = reports
    for sid, r in out.items():
        expected = Outcome.REFUTED if sid in REFUTED else Outcome.PROVED
        assert r.result.outcome is expected, (sid, r.result.detail)


def test_refuted_steps_have_counterexample_and_proved_correction(reports):
    out, _ = reports
    for sid in REFUTED:
        res = out[sid].result
        assert res.counterexample and res.corrected and res.corrected_outcome is Outcome.PROVED, sid


def test_code_agrees_with_every_checked_expression(reports):
    out, _ = reports
    compared = [r for r in out.values() if r.result.consistency]
    assert len(compared) >= 10
    assert not [r.step.sid for r in compared if "DISAGREES" in r.result.consistency]


def test_every_label_has_a_row():
    assert set(LABELS) <= {s.label for s in STEPS}


def test_the_repository_baseline_is_the_current_findings():
    assert load_baseline(BASELINE) == REFUTED


def test_runs_within_a_minute(reports):
    assert reports[1] < 60


@pytest.mark.parametrize("perturbed", PERTURBED, ids=lambda s: s.sid)
def test_perturbed_steps_are_refuted(perturbed):
    r, = run_steps([perturbed])
    assert r.result.outcome is Outcome.REFUTED and r.result.counterexample
