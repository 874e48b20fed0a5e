"""What ``tacc report`` found, as frozen objects: :class:`ReportResults` and its rows, made once the runs are judged,
rendered by the views of ``reports.report._markdown``, written to ``results.json`` by one function
(:func:`results_json`) and read back from it by one (:func:`results_from_json`). The records other parts of the
toolkit make for it (``certify.ClaimSummary``, bounds' ``Continuation``, the tally's ``SeedFree``, the relations'
``RelationRow``, ...) are held as those parts make them; mappings are keyed by data only (a policy, an assumption, a
bound's name, an arm class).
"""

from __future__ import annotations

import enum
import functools
import math
import types
import typing
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from bounds import Continuation, ContinuationWindow
from certify import ClaimSummary, Reproducer
from reports.figures import OffEventRuns, UndecidedRuns
from reports.report._metamorphic import RelationRow
from reports.report._rdfe_phases import NoPhaseRuns
from reports.report._sweep_tally import SeedFree
from reports.stats import Summary
from reports.views import AcceptedFinding, continuation_record

__all__ = ["TIED_NO_BOUND", "InstanceFacts", "Parameters", "AssumptionRow", "ArmRow", "TheoremRow", "EventRow",
           "VacuousClaims", "NonMonotoneBound", "FloatSums", "CertificateRecord", "ReportResults", "results_json",
           "results_from_json"]

#: the N_H bound cell of an arm tied with k^*: prop:analysis-high-selection's 1 + ceil(4 ell / Delta_k^2) is no
#: bound at Delta_k = 0.
TIED_NO_BOUND = "no bound: gap 0, tied with k^*"


@dataclass(frozen=True)
class InstanceFacts:
    """The instance: K, the best arm k^*, the high-fidelity means and gaps, the low-fidelity model and the noise."""

    n_arms: int
    best_arm: int
    mu_high: list[float]
    gaps: list[float]
    low_model: str
    noise: str


@dataclass(frozen=True)
class Parameters:
    """The quantities of ``bounds.analyze`` at the full budget and the configuration's parameters."""

    horizon: int
    rho: float
    rho_min: float
    rho_min_exact_tail: float
    ell: float
    n_gamma: int
    gamma: float
    eta: float
    s0: int
    cost_low: float
    cost_high: float


@dataclass(frozen=True)
class AssumptionRow:
    """One assumption checked on the instance (``certify.check_assumptions``)."""

    label: str
    statement: str
    held: bool
    detail: str
    witness: object


@dataclass(frozen=True)
class ArmRow:
    """One arm k != k^* of the counts table (the lead policy at the full budget): its prior class, tau_k, gap, and
    its counts' bound, mean and maximum over seeds at each fidelity. An arm tied with k^* (``tied_with_best``) has
    no high-count bound (:data:`TIED_NO_BOUND`)."""

    arm: int
    arm_class: str
    tau: float
    gap: float
    low_bound: int
    low_mean: float
    low_max: int
    high_bound: float
    high_mean: float
    high_max: int
    tied_with_best: bool = False


@dataclass(frozen=True)
class TheoremRow:
    """TACC's mean regret at the full budget against thm:analysis-main-regret's bound in its two forms; ``bound_reason``
    the convention a term took (0 x inf), if any."""

    tacc_mean: float
    bound_prior: float
    bound_all_cd: float
    bound_reason: str | None = None


@dataclass(frozen=True)
class EventRow:
    """The confidence event of lem:ci over one policy's runs at the full budget: failures decided exactly, and the
    float check's reports that were rounding."""

    policy: str
    runs: int
    failures: int
    frequency: float
    rounding: int


@dataclass(frozen=True)
class VacuousClaims:
    """Claims of one label that held only vacuously (every asserted run's bound infinite), on ``runs`` runs, and
    the reason ``tacc bounds`` gives for the infinite bound."""

    claims: list[str]
    label: str
    runs: int
    reason: str


@dataclass(frozen=True)
class NonMonotoneBound:
    """A bound that falls from ``budgets[0]`` to ``budgets[1]`` (``values``), and the sentence saying why."""

    bound: str
    budgets: list[float]
    values: list[float]
    text: str


@dataclass(frozen=True)
class FloatSums:
    """``certify.float_sums_faithful`` of the instance: whether the runs' float running means stay within the radius,
    and the bound that says so."""

    faithful: bool
    bound: str


@dataclass(frozen=True)
class CertificateRecord:
    """The certificate of the runs at the full budget: whether it is ok, each claim's summary, each violation's
    reproducer, whether a baseline was given, and the findings it accepted."""

    ok: bool
    claims: list[ClaimSummary]
    violations: list[Reproducer]
    baseline: bool
    accepted: list[AcceptedFinding]


@dataclass(frozen=True)
class ReportResults:
    """Every number of a report: the configuration and sweep, the instance and parameters, the assumptions, the regret
    per policy and budget (``regret[policy][i]`` at ``budgets[i]``) beside the bounds, the counts per arm, the
    theorem's comparison, the confidence event, the certificate, and the notes; ``conclusions`` are the sentences
    ``reports.report._markdown.conclusions`` says of them."""

    config: str
    source: str
    seeds: list[list[int]]             # [[start, stop]] ranges of the seeds run
    n_seeds: int
    policies: list[str]
    budgets: list[float]
    budgets_left_out: list[float]
    delta: float
    instance: InstanceFacts
    parameters: Parameters
    assumptions: dict[str, AssumptionRow]          # by assumption key
    regret: dict[str, list[Summary]]               # by policy, one per budget
    bounds_by_budget: dict[str, list[float]]       # by bound's name, one per budget
    arms: list[ArmRow]
    vacuous: list[VacuousClaims]
    theorem: TheoremRow | None
    classes_after_run: dict[str, int]              # arm class in the run -> arm-runs of the lead policy
    continuation: Continuation                     # the continuation window (eq:fidelity-selection) at the full budget
    metamorphic: list[RelationRow] | None          # the relations run (None: a report from saved runs runs none)
    identical_runs: list[list[str]]                # policies that made identical runs on every seed
    non_monotone_bounds: list[NonMonotoneBound]
    seed_free: list[SeedFree]
    rdfe_no_phase: list[NoPhaseRuns]               # per budget, when RDFE ran
    counts_off_event: OffEventRuns
    counts_undecided: UndecidedRuns
    event: dict[str, EventRow]                     # by policy
    float_sums: FloatSums
    runs_at_full_budget: int
    certificate: CertificateRecord
    conclusions: tuple[str, ...] = ()


def _regret_json(budgets: list, row: list[Summary]) -> list[dict]:
    return [{"budget": b, **s.__dict__} for b, s in zip(budgets, row, strict=True)]


def _arm_json(x: ArmRow) -> dict:
    """An arm's row: every field in its order (``arm_class`` as ``class``), and for an arm tied with k^* the flag
    and why its N_H bound is none (a row of an arm with a gap has neither key)."""
    out = {("class" if f.name == "arm_class" else f.name): getattr(x, f.name) for f in fields(x)
           if f.name != "tied_with_best"}
    return {**out, "tied_with_best": True, "high_bound_reason": TIED_NO_BOUND} if x.tied_with_best else out


def results_json(r: ReportResults, metamorphic_reason: str) -> dict:
    """``results.json``'s mapping of ``r``, which ``reports.tables.dumps`` writes (its ``jsonable`` writes each row,
    a frozen dataclass, field by field); what differs from that is spelled here: the regret rows carry their budget,
    an arm row its class under ``class``, the theorem's reason and ``metamorphic_reason`` (said when no relation was
    run) only when there is one, and the continuation window as ``tacc bounds`` records it."""
    th = r.theorem
    return {
        "config": r.config, "source": r.source, "seeds": r.seeds, "n_seeds": r.n_seeds, "policies": r.policies,
        "budgets": r.budgets, "budgets_left_out": r.budgets_left_out, "delta": r.delta,
        "instance": r.instance, "parameters": r.parameters, "assumptions": r.assumptions,
        "regret": {p: _regret_json(r.budgets, row) for p, row in r.regret.items()},
        "bounds_by_budget": r.bounds_by_budget,
        "arms": [_arm_json(x) for x in r.arms],
        "vacuous": r.vacuous,
        "theorem": None if th is None else {
            "tacc_mean": th.tacc_mean, "bound_prior": th.bound_prior, "bound_all_cd": th.bound_all_cd,
            **({"bound_reason": th.bound_reason} if th.bound_reason is not None else {})},
        "classes_after_run": r.classes_after_run,
        "continuation": continuation_record(r.continuation),
        "metamorphic": r.metamorphic,
        **({} if r.metamorphic is not None else {"metamorphic_reason": metamorphic_reason}),
        "identical_runs": r.identical_runs,
        "non_monotone_bounds": r.non_monotone_bounds,
        "seed_free": r.seed_free,
        "rdfe_no_phase": r.rdfe_no_phase,
        "counts_off_event": r.counts_off_event,
        "counts_undecided": r.counts_undecided,
        "event": r.event,
        "float_sums": r.float_sums,
        "runs_at_full_budget": r.runs_at_full_budget,
        "certificate": r.certificate,
        "conclusions": list(r.conclusions),
    }


def results_from_json(data: dict) -> ReportResults:
    """The one reader of ``results.json``: the ``ReportResults`` that :func:`results_json` wrote as ``data``
    (the file's mapping, ``json.loads`` of its text), so that ``dumps(results_json(results_from_json(data),
    reason))`` is the file's text again, ``reason`` its ``metamorphic_reason`` when it has one (a report whose
    relations ran has none; this reader leaves the key to the caller).

    Every row is rebuilt as the frozen dataclass it was (``ArmRow``, ``reports.stats.Summary``,
    ``certify.ClaimSummary``, ``certify.Reproducer``, ``RelationRow``, ...), read field by field as the fields'
    annotations say (tuples where a field is a tuple). A ``null`` beside a ``<key>_reason`` is the non-finite
    number it stood for (``reports.tables.jsonable``): NaN when the reason says undefined, -inf when it says
    ``-infinity``, +inf otherwise (an arm's infinite tau_k, a tied arm's high-count bound); in a field that may be
    None (``ClaimSummary.max_ratio``) it is NaN when undefined and None otherwise; the null entries of a list share
    one reason, which names the first of them, and are each read as that number. What ``results_json`` spells
    differently is read back here: a regret row's ``budget`` (the sweep's budget, not kept), an arm's ``class``
    and tied flag, and the continuation window, rebuilt as ``bounds.Continuation`` from its record
    (``_continuation``).

    ``AssumptionRow.witness`` is kept as the JSON holds it."""
    rest = {k: v for k, v in data.items() if k not in ("regret", "arms", "continuation")}
    return _from_mapping(
        ReportResults, rest,
        regret={p: [_from_mapping(Summary, {k: v for k, v in row.items() if k != "budget"}) for row in rows]
                for p, rows in data["regret"].items()},
        arms=[_from_mapping(ArmRow, {("arm_class" if k == "class" else k): v for k, v in row.items()})
              for row in data["arms"]],
        continuation=_continuation(data["continuation"]))


def _continuation(rec: dict) -> Continuation:
    """The ``bounds.Continuation`` whose record (``reports.views.continuation_record``, one mapping per arm) is
    ``rec``. Its stored numbers are read back (an arm's null last count is 0 and its null rho_max 0.0, which the
    record writes as null); the window's ``cut`` is S0 > T, as ``bounds.continuation_window`` sets it. The record
    holds ``rho_least`` as ``rho_least_certified`` (rho_min when it is None), which is read as ``rho_least``: a None
    comes back as rho_min, which every use of it (the record, the sentence, the table) reads alike."""
    arms = rec["arms"]
    if [a["arm"] for a in arms] != list(range(len(arms))):
        raise ValueError("the continuation record's arms are not 0..K-1 in order")

    def column(key: str, null: Any = None) -> tuple:
        return tuple(_decode(float, a[key], a.get(f"{key}_reason")) if null is None or a[key] is not None else null
                     for a in arms)

    window = ContinuationWindow(n_gamma=rec["n_gamma"], s0=rec["s0"], threshold=rec["threshold_2_eta_gamma"],
                                horizon=rec["horizon"], gain=column("gain_at_n_gamma"), pulls=column("pulls"),
                                tau=column("tau"), reaches_tau=column("reaches_tau"), cut=rec["s0"] > rec["horizon"])
    return Continuation(window=window, last_count=column("last_count", 0), rho_max=column("rho_max", 0.0),
                        rho=rec["rho"], rho_min=rec["rho_min"], rho_least=rec["rho_least_certified"])


def _from_mapping(cls: Any, data: dict, **given: Any) -> Any:
    """The dataclass ``cls`` of its mapping ``data`` (as ``reports.tables.jsonable`` writes one): each field read
    by :func:`_decode` with its ``<field>_reason``, a field absent from ``data`` left to its default; ``given``
    fields taken as they are. A key that is neither a field nor a field's reason is an error."""
    names = {f.name for f in fields(cls)}
    unknown = [k for k in data if k not in names and k.removesuffix("_reason") not in names]
    if unknown:
        raise ValueError(f"{cls.__name__} has no field {', '.join(unknown)}")
    hints = _hints(cls)
    read = {n: _decode(hints[n], data[n], data.get(f"{n}_reason")) for n in names if n in data and n not in given}
    return cls(**read, **given)


@functools.cache
def _hints(cls: type) -> dict:
    return typing.get_type_hints(cls)


def _decode(tp: Any, x: Any, reason: str | None = None) -> Any:
    """The value of type ``tp`` written as the JSON value ``x``, ``reason`` the ``<key>_reason`` beside it (for a
    list, the reason of its null entries)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if x is None:
            return math.nan if float in args and reason is not None and reason.startswith("undefined") else None
        (tp,) = [a for a in args if a is not type(None)]
        origin, args = typing.get_origin(tp), typing.get_args(tp)
    if x is None:
        return _nonfinite(reason) if tp is float and reason is not None else None
    if origin is list or origin is tuple:
        each = args[0]
        out = [_decode(each, v, reason) for v in x]
        return tuple(out) if origin is tuple else out
    if origin is dict:
        return {k: _decode(args[1], v, x.get(f"{k}_reason")) for k, v in x.items() if not _is_reason(k, x)}
    if is_dataclass(tp):
        return _from_mapping(tp, x)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(x)
    return x


def _is_reason(key: str, mapping: dict) -> bool:
    """Whether ``key`` of ``mapping`` is the reason beside another key's null (``<key>_reason``)."""
    return key.endswith("_reason") and key.removesuffix("_reason") in mapping


def _nonfinite(reason: str) -> float:
    """The non-finite number a null stood for, by its reason (``reports.tables.reason_of``; for a list's entries
    after ``null entries: ``): NaN when undefined, -inf for ``-infinity``, else +inf."""
    what = reason.removeprefix("null entries: ")
    if what.startswith("undefined"):
        return math.nan
    return -math.inf if what == "-infinity" else math.inf
