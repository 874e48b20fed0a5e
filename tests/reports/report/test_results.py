"""``results.json`` read back (``reports.report.results_from_json``): the three files pinned in
``tests/reports/data/cli_record.json`` (the default instance, one with an arm tied with k^*, a report rebuilt from
saved runs) are written again to the same text by ``results_json``, from rows of their own types, with the
non-finite numbers the nulls stood for."""

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from bounds import Continuation, ContinuationWindow
from certify import ClaimSummary
from reports.figures import OffEventRuns, UndecidedRuns
from reports.report import results_from_json, results_json
from reports.report._markdown import METAMORPHIC_NOT_RUN
from reports.report._metamorphic import RelationRow
from reports.report._rdfe_phases import NoPhaseRuns
from reports.report._results import (TIED_NO_BOUND, ArmRow, AssumptionRow, CertificateRecord, EventRow, FloatSums,
                                     InstanceFacts, NonMonotoneBound, Parameters, ReportResults, TheoremRow)
from reports.report._sweep_tally import SeedFree
from reports.stats import Summary
from reports.tables import dumps

_RECORD = Path(__file__).parents[1] / "data" / "cli_record.json"
CASES = ("report-default", "report-tied", "report-from")
NEVER_CERTIFIED = "tau_k(gamma) is infinite: the arm is never certified (eq:analysis-cert-time)"


@pytest.fixture(scope="module")
def pinned() -> dict:
    """Each case's results.json text, as ``tacc report`` wrote it (``<repo>`` in its source path)."""
    recorded = json.loads(_RECORD.read_text())
    out = {}
    for name in CASES:
        (text,) = [t for f, t in recorded[name]["files"].items() if f.endswith("results.json")]
        out[name] = text
    return out


def _written(r: ReportResults, data: dict) -> str:
    return dumps(results_json(r, data.get("metamorphic_reason", METAMORPHIC_NOT_RUN)))


@pytest.mark.parametrize("name", CASES)
def test_the_pinned_results_json_is_written_again_as_it_was(pinned, name):
    text = pinned[name]
    assert text.startswith("{\n  \"config\": ")
    data = json.loads(text)
    assert _written(results_from_json(data), data) == text


@pytest.mark.parametrize("name", CASES)
def test_the_rows_are_of_their_types(pinned, name):
    data = json.loads(pinned[name])
    r = results_from_json(data)
    assert isinstance(r, ReportResults)
    assert isinstance(r.instance, InstanceFacts) and isinstance(r.parameters, Parameters)
    assert all(isinstance(x, AssumptionRow) for x in r.assumptions.values())
    assert r.assumptions and set(r.assumptions) == set(data["assumptions"])
    assert all(isinstance(s, Summary) for row in r.regret.values() for s in row)
    assert [len(row) for row in r.regret.values()] == [len(r.budgets)] * len(r.policies)
    assert r.arms and all(isinstance(x, ArmRow) for x in r.arms)
    assert isinstance(r.theorem, TheoremRow)
    assert all(isinstance(x, NonMonotoneBound) for x in r.non_monotone_bounds)
    assert all(isinstance(x, SeedFree) for x in r.seed_free)
    assert all(isinstance(x, NoPhaseRuns) for x in r.rdfe_no_phase)
    assert isinstance(r.counts_off_event, OffEventRuns) and isinstance(r.counts_undecided, UndecidedRuns)
    assert all(isinstance(x, EventRow) for x in r.event.values())
    assert isinstance(r.float_sums, FloatSums)
    assert isinstance(r.certificate, CertificateRecord)
    assert r.certificate.claims and all(isinstance(c, ClaimSummary) for c in r.certificate.claims)
    assert isinstance(r.conclusions, tuple) and r.conclusions
    if "metamorphic_reason" in data:
        assert r.metamorphic is None
    else:
        assert r.metamorphic and all(isinstance(x, RelationRow) for x in r.metamorphic)


@pytest.mark.parametrize("name", CASES)
def test_a_null_with_its_reason_is_the_number_it_stood_for(pinned, name):
    data = json.loads(pinned[name])
    r = results_from_json(data)
    for row, x in zip(data["arms"], r.arms, strict=True):
        assert x.arm_class == row["class"]
        if row["tau"] is None:
            assert row["tau_reason"] == NEVER_CERTIFIED
            assert x.tau == math.inf                        # not NaN, not None
        else:
            assert x.tau == row["tau"]
    for row, c in zip(data["certificate"]["claims"], r.certificate.claims, strict=True):
        if row["max_ratio"] is not None:
            assert c.max_ratio == row["max_ratio"]
        elif row["max_ratio_reason"].startswith("undefined"):
            assert math.isnan(c.max_ratio)                 # every ratio 0 / 0
        else:
            assert c.max_ratio is None                     # judged on no run
    assert any(c.max_ratio is None or math.isnan(c.max_ratio) for c in r.certificate.claims)


def test_the_tied_arm_has_no_high_count_bound(pinned):
    data = json.loads(pinned["report-tied"])
    r = results_from_json(data)
    tied = [x for x in r.arms if x.tied_with_best]
    assert [x.arm for x in tied] == [1]
    assert tied[0].high_bound == math.inf and tied[0].gap == 0.0
    assert all(x.high_bound != math.inf for x in r.arms if not x.tied_with_best)
    assert data["arms"][0]["high_bound_reason"] == TIED_NO_BOUND
    assert r.theorem is not None and r.theorem.bound_reason == data["theorem"]["bound_reason"]


@pytest.mark.parametrize("name", CASES)
def test_the_continuation_window_is_rebuilt(pinned, name):
    data = json.loads(pinned[name])
    c = results_from_json(data).continuation
    rec = data["continuation"]
    assert isinstance(c, Continuation) and isinstance(c.window, ContinuationWindow)
    w = c.window
    assert (w.n_gamma, w.s0, w.threshold, w.horizon) == (rec["n_gamma"], rec["s0"], rec["threshold_2_eta_gamma"],
                                                       rec["horizon"])
    assert all(isinstance(col, tuple) for col in (w.gain, w.pulls, w.tau, w.reaches_tau, c.last_count, c.rho_max))
    for k, arm in enumerate(rec["arms"]):
        assert w.tau[k] == (math.inf if arm["tau"] is None else arm["tau"])
        assert c.last_count[k] == (arm["last_count"] or 0) and c.rho_max[k] == (arm["rho_max"] or 0.0)
        assert w.window(k) == (None if arm["window"] is None else tuple(arm["window"]))
    assert (w.reachable, w.can_fire, c.fires_only_below_rho_min) == (rec["reachable"], rec["can_fire"],
                                                                   rec["fires_only_below_rho_min"])


def test_a_null_without_its_reason_is_no_number_and_is_not_written_again(pinned):
    """An arm's tau without its ``tau_reason`` is read as None, no infinity: the text written from it differs."""
    text = pinned["report-tied"]
    data = json.loads(text)
    del data["arms"][0]["tau_reason"]
    r = results_from_json(data)
    assert r.arms[0].tau is None
    assert _written(r, data) != text


def test_a_key_that_is_no_field_is_an_error(pinned):
    data = json.loads(pinned["report-default"])
    data["arms"][0]["taus"] = 1
    with pytest.raises(ValueError, match="ArmRow has no field taus"):
        results_from_json(data)


def test_every_non_finite_number_comes_back(pinned):
    """Infinities and NaNs planted where the pinned files have none (a regret mean, an event's frequency, a bound
    per budget, a bound that falls) are written as nulls with reasons and read back as they were."""
    data = json.loads(pinned["report-default"])
    r = results_from_json(data)
    p = r.policies[0]
    nan_row = [replace(r.regret[p][0], mean=math.nan), *r.regret[p][1:]]
    name = next(iter(r.bounds_by_budget))
    bounds = [math.inf, -math.inf, *r.bounds_by_budget[name][2:]]
    planted = replace(r, regret={**r.regret, p: nan_row}, bounds_by_budget={**r.bounds_by_budget, name: bounds},
                      event={**r.event, p: replace(r.event[p], frequency=math.nan)},
                      non_monotone_bounds=[NonMonotoneBound("b", [1.0, 2.0], [math.inf, 1.0], "falls")],
                      theorem=replace(r.theorem, bound_all_cd=math.inf))
    text = _written(planted, data)
    back = results_from_json(json.loads(text))
    assert _written(back, data) == text
    assert math.isnan(back.regret[p][0].mean) and math.isnan(back.event[p].frequency)
    assert back.bounds_by_budget[name][0] == math.inf
    assert back.non_monotone_bounds[0].values == [math.inf, 1.0]
    assert back.theorem is not None and back.theorem.bound_all_cd == math.inf
