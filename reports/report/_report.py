"""``tacc report``: a bound-versus-empirical report for one configuration, its words written by
``reports.report._markdown``.

Everything in it is measured in the same call: runs of every policy on every seed at every budget of the sweep
(separate runs per budget: the radius depends on the budget, so a prefix of one long run is not R(budget)), the
certificate of ``certify`` at the full budget, and the bounds of ``bounds`` at each budget.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any


from bounds import TIED_TERM, analyze, continuation_of
from certify import (ASSUMPTIONS, DEFAULT_POLICIES, Histogram, check_assumptions,
                     float_sums_faithful)
from reports.report import _metamorphic
from reports.figures import FIGURE_MEMO, FigureWriter, OffEventRuns, UndecidedRuns, arms_shown, count_note
from reports.paths import partial
from reports.report._markdown import METAMORPHIC_NOT_RUN, conclusions, markdown
from reports.report._results import (ArmRow, AssumptionRow, CertificateRecord, EventRow, FloatSums, InstanceFacts,
                                     NonMonotoneBound, Parameters, ReportResults, TheoremRow, VacuousClaims,
                                     results_json)
from reports.report._judge import tally_and_judge
from reports.report._budgets import at_budget, default_config, report_budgets
from reports.views import (accepted_findings, rdfe_infinite_arms, sum_reason,
                           verdict_table)
from reports.tables import dumps, fmt
from reports.report._saved_runs import runs_by_budget
from reports.report._sweep_tally import SweepTally
from simulate import iter_runs, iter_tasks, make_problem

__all__ = ["ReportResult", "ReportOptions", "make_report"]

@dataclass(frozen=True)
class ReportResult:
    out_dir: Path
    files: tuple
    summary: str
    results: ReportResults


def tightness_ratios(cert) -> dict:
    """Per claim (``key (label)``), the ratios empirical / bound of the runs on which it was asserted (HOLDS or
    VIOLATED), as one ``certify.Histogram`` over the certificate's cells (``Certificate.tally``: counted as the runs
    were judged); an undefined ratio (0 / 0) is counted as NaN, which the figure counts beside the claim's name; a
    vacuous run (every bound infinite: ratio 0 that says nothing) is not counted."""
    out = {f"{s.key} ({s.label})": Histogram() for s in cert.summaries}
    names = {s.key: f"{s.key} ({s.label})" for s in cert.summaries}
    for cell in cert.tally.cells.values():
        if cell.claim in names:
            out[names[cell.claim]].update(cell.ratios)
    return out


def seed_ranges(seeds) -> list[list[int]]:
    """``seeds`` as half-open ranges [start, stop) of consecutive seeds, in their order (``results.json``'s
    ``seeds``: a range of 10^8 seeds is one pair)."""
    if isinstance(seeds, range) and seeds.step == 1:
        return [[seeds.start, seeds.stop]] if len(seeds) else []
    out: list[list[int]] = []
    for s in seeds:
        s = int(s)
        if out and out[-1][1] == s:
            out[-1][1] = s + 1
        else:
            out.append([s, s + 1])
    return out


def _mean(total: int, n: int) -> float:
    """total / n correctly rounded (Python's integer division), NaN with no run."""
    return total / n if n else math.nan


#: the quantity of ``tacc bounds`` (its key, whose reason says why it is infinite) behind each claim whose bound
#: can be infinite on a finite instance.
_BOUND_OF_CLAIM = {"rdfe-theorem": "rdfe_bound", "rdfe-theorem-phase-sum": "rdfe_bound_phase_sum",
                   "rdfe-theorem-as-stated": "rdfe_bound_paper_form"}


def vacuous_reasons(summaries, analysis) -> list[VacuousClaims]:
    """The claims that held only vacuously (every asserted run's bound infinite), grouped by label, each group
    with the reason ``tacc bounds`` gives for the infinite bound and the arms that make it infinite."""
    groups: dict[str, dict] = {}
    for s in summaries:
        if not s.vacuous:
            continue
        g = groups.setdefault(s.label, {"claims": [], "label": s.label, "runs": 0, "reasons": []})
        g["claims"].append(s.key)
        g["runs"] += s.vacuous
        key = _BOUND_OF_CLAIM.get(s.key)
        why = rdfe_infinite_arms(analysis, key) if key else "the bound is infinite on every asserted run"
        if not g["reasons"]:                     # the group's first reason: the others say the same of a variant
            g["reasons"].append(why)
    out = []
    for g in groups.values():
        reason = "; ".join(g["reasons"])
        out.append(VacuousClaims(g["claims"], g["label"], g["runs"], reason if reason.endswith(".") else reason + "."))
    return out


def non_monotone_bounds(budgets, bound_lines: dict, analyses: dict) -> list[NonMonotoneBound]:
    """Each bound that falls somewhere as the budget grows, with the reason found in the analyses at the two
    budgets: an arm whose class (eq:analysis-arm-partition) or RDFE oracle cost changes with ell_Lambda."""
    out = []
    for name, values in bound_lines.items():
        for i in range(1, len(budgets)):
            if not values[i] < values[i - 1]:
                continue
            b0, b1 = budgets[i - 1], budgets[i]
            a0, a1 = analyses[b0], analyses[b1]
            moved = [f"arm {k} from {c0.value} to {c1.value}"
                     for k, (c0, c1) in enumerate(zip(a0.classes, a1.classes, strict=True))
                     if c0 is not c1]
            if moved:
                why = (f"the arm classes change with the budget (ell_Lambda {fmt(a0.ell)} -> {fmt(a1.ell)}, N_gamma "
                       f"{a0.n_gamma} -> {a1.n_gamma}): {', '.join(moved)}, and a class's term is smaller")
            else:
                why = (f"its terms depend on ell_Lambda ({fmt(a0.ell)} -> {fmt(a1.ell)}) and N_gamma ({a0.n_gamma} -> "
                       f"{a1.n_gamma}) through the arms' thresholds, not on Lambda alone")
            out.append(NonMonotoneBound(name, [b0, b1], [values[i - 1], values[i]],
                                        f"The bound {name} is not monotone in the budget: it falls from "
                                        f"{fmt(values[i - 1])} at Lambda = {fmt(b0)} to {fmt(values[i])} at Lambda = "
                                        f"{fmt(b1)}, because {why}."))
    return out


@dataclass(frozen=True)
class ReportOptions:
    """How a report is made: :func:`make_report`'s keywords (each documented there) as one object, passed whole
    to the stages that read it."""

    seeds: Any = range(1000)
    out_dir: Any = "tacc-report"
    policies: Any = DEFAULT_POLICIES
    budgets: Any = None
    executor: str = "serial"
    workers: int | None = None
    progress: bool = False
    cache: Any = None
    runs: Any = None
    scheduler: str | None = None
    baseline: Any = None


#: the report's figures, in the order its file list names them.
_FIGURES = ("regret_vs_budget", "low_counts", "high_counts", "continuation_window", "tightness")


def make_report(config=None, *, seeds=range(1000), out_dir="tacc-report", policies=DEFAULT_POLICIES,
                budgets=None, executor: str = "serial", workers: int | None = None, progress: bool = False,
                cache=None, runs=None, figures: FigureWriter | None = None, scheduler: str | None = None,
                baseline=None) -> ReportResult:
    """Run everything the report needs and write ``report.md``, figures (PNG and PDF) and ``results.json``.

    With ``runs`` (``simulate.RunFrames``: saved runs, ``simulate.load_runs``) nothing is run: the records of
    ``config`` at each budget are read from the tables (policies and seeds: those saved for every budget, unless
    given) and analysed as if just made. ``executor``, ``workers``, ``scheduler`` (a Dask scheduler address, with
    the dask executor), ``cache`` (default ``out_dir/runs``): passed to ``simulate.run_tasks``. ``baseline``: accepted
    findings (``certify.load_baseline``, ``tacc report --baseline``), as ``tacc check`` takes them: a VIOLATED verdict
    it accepts leaves the certificate ok, and the report says which were accepted and the baseline's reason.

    The figures are drawn by ``figures`` (a ``FigureWriter`` into ``out_dir/figures``, which a caller starts early
    so that its imports overlap its own), by default one made here: a helper process that draws them while this
    one judges the claims and runs the relations, or with the serial executor this process; a figure drawn before
    from the same input is copied from the memo in the run cache's folder (``reports.figures.FigureMemo``).
    """
    options = ReportOptions(seeds=seeds, out_dir=out_dir, policies=policies, budgets=budgets, executor=executor,
                            workers=workers, progress=progress, cache=cache, runs=runs, scheduler=scheduler,
                            baseline=baseline)
    return _report_with_writer(config, options, figures)


def _report_with_writer(config, options: ReportOptions, figures: FigureWriter | None) -> ReportResult:
    config = default_config() if config is None else config
    out = Path(options.out_dir)
    if figures is not None:
        return _make_report(config, out, figures, options)
    # speed: the figures are drawn by a helper process while this one judges (not with the serial executor), and
    # a figure drawn before from the same input is copied from the memo beside the run cache
    memo = None
    if options.runs is None:
        folder = options.cache if options.cache is not None else out / "runs"
        memo = Path(folder) / FIGURE_MEMO if isinstance(folder, (str, os.PathLike)) else None
    with FigureWriter(out / "figures", process=options.executor != "serial", memo=memo) as figures:
        return _make_report(config, out, figures, options)


@dataclass(frozen=True)
class SweepPlan:
    """The plan stage: the configuration at each budget of the sweep (``budgets``, those left out below the first
    round: ``left_out``) with its analysis, the policies and seeds run (for saved runs: those saved), the lead
    policy whose counts the tables and figures show, and the arms they show (every arm but k^*: an arm tied with
    k^* is in the partition too, eq:analysis-arm-partition quantifying over k != k^*)."""

    config: Any
    budgets: tuple
    left_out: list
    configs: list
    analyses: dict
    policies: tuple
    seeds: Any
    lead: str
    arms: list

    @property
    def full(self) -> float:
        return self.budgets[-1]

    @property
    def analysis(self):
        """``bounds.analyze`` of the configuration at the full budget."""
        return self.analyses[self.full]


def plan_sweep(config, options: ReportOptions) -> tuple[SweepPlan, dict | None]:
    """The plan of a report, and with saved runs (``options.runs``) their records by (budget, policy), read first:
    saved runs that are missing or damaged exit 2 before anything is written."""
    budgets, left_out = (options.budgets, []) if options.budgets else report_budgets(config)
    budgets = tuple(float(b) for b in budgets)
    configs = [at_budget(config, b) for b in budgets]
    analyses = {b: analyze(c) for b, c in zip(budgets, configs, strict=True)}
    policies, seeds, by = options.policies, options.seeds, None
    if options.runs is not None:
        by, policies, seeds = runs_by_budget(options.runs, configs, policies=policies, seeds=seeds)
    else:
        seeds = seeds if isinstance(seeds, range) else tuple(int(s) for s in seeds)
        policies = tuple(policies)
    inst = analyses[budgets[-1]].instance
    arms = [k for k in range(inst.n_arms) if k != inst.best_arm]
    lead = "tacc" if "tacc" in policies else policies[0]
    return SweepPlan(config, budgets, list(left_out), configs, analyses, policies, seeds, lead, arms), by


def sweep_runs(plan: SweepPlan, options: ReportOptions, by: dict | None, figures: FigureWriter,
               out: Path) -> tuple[Iterator, Any]:
    """The runs stage: the records of the sweep in its order (budgets, policies, seeds), read from the saved runs
    ``by`` or made by the engine (resumed from the run cache), and the metamorphic relations' pending result (None
    for saved runs: the relations need fresh paired runs)."""
    if by is not None:
        return (r for b in plan.budgets for p in plan.policies for r in by[b, p]), None
    cache = options.cache if options.cache is not None else out / "runs"
    # the relations on the first seeds run in the figures' helper process, handed to it before the sweep (which runs
    # here): it saves their time on a full cache and keeps the helper's core busy on an empty one
    relations = figures.call("reports.report._metamorphic:run_relations", plan.configs[-1], plan.seeds[:3],
                             plan.policies)
    records = iter_runs(iter_tasks(plan.configs, plan.policies, plan.seeds), executor=options.executor,
                        workers=options.workers, cache=cache, progress=options.progress, scheduler=options.scheduler,
                        total=len(plan.configs) * len(plan.policies) * len(plan.seeds))
    return records, relations


def report_results(plan: SweepPlan, tally: SweepTally, cert, problem, assumptions: dict, continuation, metamorphic,
                   baseline) -> ReportResults:
    """The results stage: every number of the report from the plan, the tally of the runs and the certificate
    (``continuation``: ``bounds.continuation_of`` of the plan's analysis, made once for its figure too)."""
    config, a, budgets, policies, seeds = plan.config, plan.analysis, plan.budgets, plan.policies, plan.seeds
    inst, full, lead, sub = a.instance, plan.full, plan.lead, plan.arms
    regret = {k: s.summary() for k, s in tally.regret.items()}
    bound_lines = {"thm:analysis-main-regret (C in H)": [plan.analyses[b].theorem.total for b in budgets],
                   "thm:analysis-main-regret (C in C^d)": [plan.analyses[b].theorem_if_all_cd.total for b in budgets]}
    if "rdfe" in policies:
        bound_lines["thm:app-rdfe-regret (corrected)"] = [plan.analyses[b].rdfe.total for b in budgets]
    n_lead = tally.lead_runs()
    low_sums, high_sums = tally.sums()
    high_bound = [a.high_count_bound[k] for k in sub]
    event = {}
    for p in policies:              # failures decided exactly (off_event): a float one may be rounding
        failed, n = tally.failures[p], tally.runs[full, p]
        event[p] = EventRow(p, n, failed, failed / n if n else math.nan, tally.float_failures[p] - failed)
    cells = cert.tally.cells.values() if cert.tally is not None else ()     # check() always counts its verdicts
    results = ReportResults(
        config=config.name, source=config.source, seeds=seed_ranges(seeds), n_seeds=len(seeds),
        policies=list(policies), budgets=list(budgets), budgets_left_out=plan.left_out, delta=config.params.delta,
        instance=InstanceFacts(inst.n_arms, inst.best_arm, inst.mu_high.tolist(), inst.gaps.tolist(), inst.low.name,
                               inst.noise.model),
        parameters=Parameters(a.horizon, a.rho, a.rho_min, a.rho_readings.exact, a.ell, a.n_gamma,
                              config.params.gamma, config.params.eta, config.params.s0, config.costs.low,
                              config.costs.high),
        assumptions={k: AssumptionRow(k, ASSUMPTIONS[k], r.held, r.detail, r.witness)
                     for k, r in assumptions.items()},
        regret={p: [regret[b, p] for b in budgets] for p in policies},
        bounds_by_budget={name: list(v) for name, v in bound_lines.items()},
        arms=[ArmRow(k, a.classes[k].value, a.tau[k], float(inst.gaps[k]), a.low_count_bound,
                     _mean(low_sums[i], n_lead), int(tally.low_max[i]), high_bound[i], _mean(high_sums[i], n_lead),
                     int(tally.high_max[i]), tied_with_best=bool(inst.gaps[k] == 0))
              for i, k in enumerate(sub)],
        vacuous=vacuous_reasons(cert.summaries, a),
        theorem=TheoremRow(regret[full, lead].mean, a.theorem.total, a.theorem_if_all_cd.total,
                           sum_reason(a.theorem.conventions, TIED_TERM) if a.theorem.conventions else None),
        classes_after_run=dict(tally.classes_after),
        continuation=continuation,
        metamorphic=metamorphic,
        identical_runs=[list(g) for g in (tally.identical_runs() if len(seeds) else [])],
        non_monotone_bounds=non_monotone_bounds(budgets, bound_lines, plan.analyses),
        seed_free=tally.seed_free(),
        rdfe_no_phase=tally.no_phase_runs(),
        counts_off_event=OffEventRuns(lead, n_lead, tally.lead_off),
        counts_undecided=UndecidedRuns(lead, n_lead, {key: sum(c.counts["UNDECIDED"] for c in cells
                                                               if c.claim == key and c.policy == lead)
                                                      for key in ("low-count", "high-count")}),
        event=event,
        float_sums=FloatSums(*float_sums_faithful(problem)),
        runs_at_full_budget=len(seeds) * len(policies),
        certificate=CertificateRecord(cert.ok, list(cert.summaries), list(cert.reproducers), baseline is not None,
                                      accepted_findings(cert.reproducers)),
    )
    return replace(results, conclusions=tuple(conclusions(results)))


def _make_report(config, out: Path, figures: FigureWriter, options: ReportOptions) -> ReportResult:
    plan, by = plan_sweep(config, options)
    a, inst, lead, sub = plan.analysis, plan.analysis.instance, plan.lead, plan.arms
    # the continuation window against N_gamma per arm: it needs no run, so the helper draws it during the sweep
    continuation = continuation_of(a)
    figures.draw("reports.views:window_figure", "continuation_window", continuation, a.classes,
                 gaps=[float(g) for g in inst.gaps])
    problem = make_problem(plan.configs[-1])
    assumptions = check_assumptions(problem)
    records, relations = sweep_runs(plan, options, by, figures, out)
    from tqdm import tqdm
    steps = tqdm(total=7, disable=not options.progress, unit="step", desc="report", leave=False)  # 5 figures, 2 here
    steps.set_postfix_str("runs, judged at the full budget")
    # the runs are read once, as they come (memory independent of the seeds): each is counted in the sweep's
    # tally, and those at the full budget are judged by the certificate as they pass through to it; the counts
    # figures are drawn as soon as the lead policy's runs at the full budget are counted, while the rest is judged
    shown = arms_shown(inst.gaps, among=sub)                           # at most MAX_ARMS arms drawn
    tally = SweepTally(problem, a, plan.budgets, plan.policies, lead, sub, drawn=shown)

    def draw_counts():
        labels = [f"{k} ({a.classes[k].value})" for k in shown]
        note = {f: count_note(inst.gaps, len(shown), len(sub), f) for f in ("low", "high")}
        runs_drawn = tally.lead_runs()
        figures.draw("reports.figures:count_distribution", "low_counts", labels, tally.low,
                     [float(a.low_count_bound)] * len(shown), ylabel="N^(L)_k", note=note["low"],
                     bound_label="bound N_gamma + S0 + 1 (prop:analysis-low-query-bound)",
                     off_event=tally.low_off,
                     title=f"low-fidelity counts of {lead.upper()} over {runs_drawn} seeds against their bound, by "
                           f"the arm's class in the run")
        figures.draw("reports.figures:count_distribution", "high_counts", labels, tally.high,
                     [float(a.high_count_bound[k]) for k in shown], ylabel="N^(H)_k", note=note["high"],
                     bound_label="bound 1 + ceil(4 ell / Delta^2) (prop:analysis-high-selection)",
                     off_event=tally.high_off,
                     title=f"high-fidelity counts of {lead.upper()} over {runs_drawn} seeds against their bound, by "
                           f"the arm's class in the run")

    cert = tally_and_judge(tally, plan.configs[-1], records, budgets=plan.budgets, policies=plan.policies,
                           seeds=plan.seeds, reproducer_dir=out / "reproducers", confirm=options.runs is None,
                           baseline=options.baseline, lead_counted=draw_counts)
    steps.update()
    steps.set_postfix_str("metamorphic relations")
    metamorphic = None if relations is None else _metamorphic.summarize(relations.result())
    steps.update()
    results = report_results(plan, tally, cert, problem, assumptions, continuation, metamorphic, options.baseline)
    n_seeds, n_policies = len(plan.seeds), len(plan.policies)
    figures.draw("reports.figures:regret_curves", "regret_vs_budget", plan.budgets,
                 {p: ([s.mean for s in row], [s.se for s in row]) for p, row in results.regret.items()},
                 title=f"{config.name}: regret against budget ({n_seeds} seeds, separate runs per budget)",
                 bounds=results.bounds_by_budget, logy=True, identical=[tuple(g) for g in results.identical_runs],
                 ticks_at_budgets=True)
    # tightness: empirical / bound per run, per claim (asserted runs)
    figures.draw("reports.figures:tightness", "tightness", tightness_ratios(cert),
                 vacuous={f"{s.key} ({s.label})": s.vacuous for s in cert.summaries if getattr(s, "vacuous", 0)},
                 title=f"tightness at the full budget: empirical / bound per run ({n_seeds} seeds x "
                       f"{n_policies} policies)")
    steps.set_postfix_str("figures")
    drawn = figures.files(progress=steps.update)
    files = [f for name in _FIGURES for f in drawn[name]]
    steps.close()
    md = markdown(results, files, cert)
    out.mkdir(parents=True, exist_ok=True)
    # the report last: it names the files above
    _write_whole(out / "results.json", dumps(results_json(results, METAMORPHIC_NOT_RUN)))
    _write_whole(out / "report.md", md)
    summary = verdict_table(cert.summaries, all_runs=False)
    return ReportResult(out, tuple(["report.md", "results.json"] + [f"figures/{f}" for f in files]), summary, results)


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file beside it, renamed over it): an interrupt
    never leaves a truncated report that a reader would take for a finished one."""
    temporary = partial(path)
    temporary.write_text(text)
    os.replace(temporary, path)
