"""What ``tacc report`` found, as frozen objects: :class:`ReportResults` and its rows, made once the runs are judged,
rendered by the views of ``reports.report._markdown`` and written to ``results.json`` by one function
(:func:`results_json`). The records other parts of the toolkit make for it (``certify.ClaimSummary``, bounds'
``Continuation``, the tally's ``SeedFree``, the relations' ``RelationRow``, ...) are held as those parts make them;
mappings are keyed by data only (a policy, an assumption, a bound's name, an arm class).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from bounds import Continuation
from reports.figures import OffEventRuns, UndecidedRuns
from reports.stats import Summary
from reports.views import continuation_record

__all__ = ["TIED_NO_BOUND", "InstanceFacts", "Parameters", "AssumptionRow", "ArmRow", "TheoremRow", "EventRow",
           "VacuousClaims", "NonMonotoneBound", "FloatSums", "CertificateRecord", "ReportResults", "results_json"]

#: the N_H bound cell of an arm tied with k^*: prop:analysis-high-selection's 1 + ceil(4 ell / Delta_k^2) is no
#: bound at Delta_k = 0.
TIED_NO_BOUND = "no bound: gap 0, tied with k^*"


@dataclass(frozen=True)
class InstanceFacts:
    """The instance: K, the best arm k^*, the high-fidelity means and gaps, the low-fidelity model and the noise."""

    n_arms: int
    best_arm: int
    mu_high: list
    gaps: list
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

    claims: list
    label: str
    runs: int
    reason: str


@dataclass(frozen=True)
class NonMonotoneBound:
    """A bound that falls from ``budgets[0]`` to ``budgets[1]`` (``values``), and the sentence saying why."""

    bound: str
    budgets: list
    values: list
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
    claims: list                       # [certify.ClaimSummary]
    violations: list                   # [certify.Reproducer]
    baseline: bool
    accepted: list


@dataclass(frozen=True)
class ReportResults:
    """Every number of a report: the configuration and sweep, the instance and parameters, the assumptions, the regret
    per policy and budget (``regret[policy][i]`` at ``budgets[i]``) beside the bounds, the counts per arm, the
    theorem's comparison, the confidence event, the certificate, and the notes; ``conclusions`` are the sentences
    ``reports.report._markdown.conclusions`` says of them."""

    config: str
    source: str
    seeds: list                        # [[start, stop]] ranges of the seeds run
    n_seeds: int
    policies: list
    budgets: list
    budgets_left_out: list
    delta: float
    instance: InstanceFacts
    parameters: Parameters
    assumptions: dict                  # assumption key -> AssumptionRow
    regret: dict                       # policy -> [Summary per budget]
    bounds_by_budget: dict             # bound's name -> [value per budget]
    arms: list                         # [ArmRow]
    vacuous: list                      # [VacuousClaims]
    theorem: TheoremRow | None
    classes_after_run: dict            # arm class in the run -> arm-runs of the lead policy
    continuation: Continuation         # the continuation window (eq:fidelity-selection) at the full budget
    metamorphic: list | None          # [RelationRow] of the relations run (None: a report from saved runs runs none)
    identical_runs: list               # [[policy, ...]] that made identical runs on every seed
    non_monotone_bounds: list          # [NonMonotoneBound]
    seed_free: list                    # [reports.report._sweep_tally.SeedFree]
    rdfe_no_phase: list                # [reports.report._rdfe_phases.NoPhaseRuns] per budget, when RDFE ran
    counts_off_event: OffEventRuns
    counts_undecided: UndecidedRuns
    event: dict                        # policy -> EventRow
    float_sums: FloatSums
    runs_at_full_budget: int
    certificate: CertificateRecord
    conclusions: tuple = ()


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
