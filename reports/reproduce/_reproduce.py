"""``tacc reproduce``: the paper's experiments (``reports.reproduce._paper``) run as planned
(``reports.reproduce._plan``), each judged and written beside the paper's numbers."""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any


from bounds import analyze, continuation_of
from reports import views
from reports.reproduce import _diagnose
from reports.reproduce._consistency import consistency, problems_of
from reports.figures import FIGURE_MEMO, FigureWriter
from reports.reproduce._variant import preset
from reports.reproduce._plan import (SEED_BLOCK, Plan, Shared, claim_variants, plan_of, routed, seed_count, selected,
                                      sweep_seeds)
from reports.reproduce._paper import EXPERIMENTS, Experiment, at_paper_seed_counts, experiment
from reports.reproduce._experiment_tally import ExperimentTally
from reports.tables import fmt, jsonable, table
from simulate import iter_runs, make_problem

__all__ = ["ExperimentResult", "ExperimentResults", "ClaimOutcome", "Choice", "reproduce"]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


@dataclass(frozen=True)
class ClaimOutcome:
    """One of the paper's claims about an experiment: whether the runs reproduce it, what they show, and where the
    regret comes from when they do not (``explanation``, sentences; None when there is nothing to explain)."""

    claim: str
    reproduced: bool
    ours: str
    explanation: list | None


@dataclass(frozen=True)
class Choice:
    """A parameter the paper does not state: the value run and why."""

    parameter: str
    value: str
    why: str


@dataclass(frozen=True)
class ExperimentResults:
    """Every number of one reproduced experiment, written to ``<key>.json`` field by field: the final regret per
    variant and method (``reports.stats.Summary``), the paired differences TACC minus each method
    (``reports.stats.Paired``), the diagnostics and arm classes per variant, the rho sweep's rows, the claims, the
    equal-regret pairs, the paper's numbers checked against each other (``Check``), the choices, and the seconds."""

    key: str
    title: str
    labels: str
    seeds: int
    budgets: list
    quick: bool
    final: dict                        # variant -> method -> Summary
    paired: dict                       # variant -> method -> Paired
    diagnostics: dict                  # variant -> method -> diagnostics
    classes: dict                      # variant -> arm class -> count per seed
    rho_sensitivity: list
    claims: list                       # [ClaimOutcome]
    equalities: list
    consistency: list                  # [Check]
    choices: list                      # [Choice]
    seconds: float


@dataclass(frozen=True)
class ExperimentResult:
    key: str
    markdown: str
    results: ExperimentResults
    claims: tuple
    seconds: float


def _claim(c, final, pairs, diag, exp, s0) -> tuple[bool, str]:
    kind, args = c.kind, c.args
    if kind == "best":
        v, methods = args
        means = {m: final[v][m].mean for m in methods}
        lowest = _lowest(means)
        if len(lowest) > 1:          # an exact tie (TACC and DNC often make identical runs): TACC tied lowest counts
            return "tacc" in lowest, f"lowest: {' = '.join(lowest)}, tied ({fmt(means[lowest[0]])})"
        return lowest == ["tacc"], f"lowest: {lowest[0]} ({fmt(means[lowest[0]])}); TACC {fmt(means['tacc'])}"
    if kind in ("paired_below", "paired_mean_below", "paired_above"):
        v, b = args
        p = pairs[v][b]
        text = f"TACC - {b} = {fmt(p.mean)} [{fmt(p.low)}, {fmt(p.high)}]"
        ok = (p.high < 0 if kind == "paired_below" else p.mean < 0 if kind == "paired_mean_below" else p.low > 0)
        return ok, text
    if kind == "continuation_bounded":
        v, = args
        mx = diag[v]["tacc"]["max_continuation_per_arm"]
        return mx <= s0, f"max continuation pulls on one arm {mx} (S0 = {s0}); mean total " \
                         f"{fmt(diag[v]['tacc']['continuation'])}"
    if kind == "decreasing":
        m, = args
        vals = [final[v.name][m].mean for v in exp.variants]
        ok = all(b <= a for a, b in zip(vals, vals[1:], strict=False))
        return ok, ", ".join(f"{v.name}: {fmt(x)}" for v, x in zip(exp.variants, vals, strict=True))
    if kind == "close_to":
        v, m, value, rel = args
        s = final[v][m]
        return abs(s.mean - value) <= rel * value and s.se <= 0.01 * value, f"{fmt(s.mean)} +- {fmt(s.se)}"
    if kind == "below":
        v, m, other = args
        a, b = final[v][m].mean, final[v][other].mean
        return a < b, f"{m} {fmt(a)}, {other} {fmt(b)}"
    raise ValueError(kind)


def _lowest(means: dict) -> list:
    """The methods with the lowest mean, in the order given (more than one: an exact tie)."""
    low = min(means.values())
    return [m for m, x in means.items() if x == low]


def _summaries(runs: dict) -> tuple[dict, dict, dict]:
    """Per variant (``runs[v]``: its ``CommonSeeds``), the final means, the paired differences (TACC minus each
    method) and the diagnostics per method."""
    out: tuple[dict, dict, dict] = ({}, {}, {})
    for v, tally in runs.items():
        for part, values in zip(out, tally.summaries(), strict=True):
            part[v] = values
    return out


def _choices_run(exp: Experiment, budgets) -> tuple:
    """The parameters the paper does not state, with the budget sequence as run: under --quick (fewer budgets than
    the experiment's sequence) the budgets run, then the sequence they are the last of."""
    if len(budgets) == len(exp.budget_fractions):
        return exp.choices
    return tuple((p, f"{', '.join(fmt(b) for b in budgets)} (--quick: the last {len(budgets)} of "
                     f"{v.removesuffix(' (separate runs per budget)')}; separate runs per budget)", w)
                 if p == "budget sequence" else (p, v, w) for p, v, w in exp.choices)


def _run_experiment(plan: Plan, tally: ExperimentTally, *, out: Path, figures: FigureWriter, problems=None,
                    t0: float) -> ExperimentResult:
    """The analysis of one experiment's runs (``tally``: every run counted); ``t0`` is when its work began. Its
    figures are given to ``figures`` (a helper process draws them while the runs of the next experiments are
    collected)."""
    exp, seeds, budgets, configs = plan.exp, plan.seeds, plan.budgets, plan.configs
    final, pairs, diag = _summaries(tally.final)
    classes, priors = {}, tally.priors
    for v in exp.variants:
        counts = {"A": 0, "B": 0, "C": 0}
        for c in priors[v.name][1]:
            if c.value in counts:
                counts[c.value] += 1
        refined = tally.refined[v.name]
        classes[v.name] = {**counts, **{k: refined[k] / len(seeds) for k in ("C^d", "C^u")}}
    sv, swept, scales = plan.sv, plan.swept, plan.scales
    sens, sweep_by = [], {}
    for j, ((s, v), c) in enumerate(zip(plan.sweep_keys, plan.sens_cfgs, strict=True)):
        rho = make_problem(c).rho if c.params.rho == "min" else c.params.rho          # "min": the variant's rho_min
        sweep_by[s, v] = runs = tally.sweep[j]
        for m in exp.methods:
            sums = runs.sums[m]
            sens.append({"rho_scale": s, "rho": rho, "variant": v, "method": m, "regret": sums.summary().mean,
                         **{k: x for k, x in sums.diagnostics().items() if k in ("high_calls", "continuation")},
                         "event_failure_frequency": sums.failures / sums.n})
    s0 = preset(exp.preset).params.s0
    claims = tuple((c.text, *_claim(c, final, pairs, diag, exp, s0)) for c in exp.claims)
    analyses: dict = {}

    def analysis(v):           # bounds.analyze of a variant at the full budget, once (figures and explanations)
        if v not in analyses:
            analyses[v] = analyze(configs[(v, budgets[-1])])
        return analyses[v]

    explanations = _explanations(exp, claims, tally, priors, scales, swept, sweep_by, s0, analysis)
    checks = consistency(exp, problems=problems)
    # figures
    fig_names = []
    for v in exp.variants:
        at = [[tally.curves.regret[v.name, b, m].summary() for b in budgets] for m in exp.methods]
        curves = {m: ([x.mean for x in row], [x.se for x in row]) for m, row in zip(exp.methods, at, strict=True)}
        name = f"{exp.key}_{_slug(v.name)}_regret"
        # methods with identical runs drawn as one labelled line (as the report's figure), ticks on the budgets run
        same = tally.curves.identical_runs(budgets, exp.methods, key=lambda b, m, v=v.name: (v, b, m))
        figures.draw("reports.figures:regret_curves", name, budgets, curves,
                     title=f"{exp.title}, {v.name} ({len(seeds)} seeds)", identical=same, ticks_at_budgets=True)
        fig_names.append((v.name, f"figures/{name}.png"))
    for v in exp.variants:
        a = analysis(v.name)
        name = f"{exp.key}_{_slug(v.name)}_continuation"
        figures.draw("reports.views:window_figure", name, continuation_of(a), a.classes,
                     gaps=[float(g) for g in a.instance.gaps])        # the smallest gaps, k* among them
        fig_names.append((f"{v.name}: continuation window", f"figures/{name}.png"))
    figures.draw("reports.figures:regret_curves", f"{exp.key}_rho", list(scales),
                 {m: ([x["regret"] for x in sens if x["method"] == m and x["variant"] == sv.name],
                      [0.0] * len(scales)) for m in exp.methods},
                 title=f"{exp.title}: final regret against rho / rho_min ({sv.name})",
                 xlabel="rho / rho_min (log scale)")
    seconds = time.perf_counter() - t0
    results = ExperimentResults(exp.key, exp.title, exp.labels, len(seeds), budgets, plan.quick, final, pairs, diag,
                                classes, sens, [ClaimOutcome(t, ok, ours, explanations["claims"].get(t))
                                                for t, ok, ours in claims],
                                explanations["equalities"], list(checks),
                                [Choice(p, v, w) for p, v, w in _choices_run(exp, budgets)], seconds)
    md = _markdown(exp, results, final, pairs, claims, fig_names, scales)
    return ExperimentResult(exp.key, md, results, claims, seconds)


def _sweep_outcomes(c, exp, scales, swept, sweep_by, s0) -> list:
    """Per rho scale: (scale, reproduced or None if the claim's setting is not swept, largest event-failure
    frequency among the claim's methods, the method it belongs to)."""
    out: list[tuple] = []
    need = claim_variants(c, exp)
    methods = tuple(dict.fromkeys(m for m in exp.methods if m in _diagnose.claim_methods(c) or c.kind == "best"))
    for s in scales:
        if not all(v in swept for v in need):
            out.append((s, None, 0.0, ""))
            continue
        final, pairs, diag = _summaries({v: sweep_by[s, v] for v in need})
        ok, _ = _claim(c, final, pairs, diag, exp, s0)
        freq = {m: max(sweep_by[s, v].sums[m].failures / sweep_by[s, v].sums[m].n for v in need) for m in methods}
        worst = max(freq, key=lambda m: (freq[m], m == "tacc"))
        out.append((s, ok, freq[worst], worst))
    return out


def _explanations(exp, claims, tally, priors, scales, swept, sweep_by, s0, analysis) -> dict:
    """The computed explanation of every claim not reproduced, and every equal-regret pair
    (``reports.reproduce._diagnose``);
    ``analysis(v)`` is ``bounds.analyze`` of variant ``v`` at the full budget."""
    windows = {}

    def window(v):
        if v not in windows:
            windows[v] = views.continuation_summary(continuation_of(analysis(v)))
        return windows[v]

    out: dict = {"claims": {}, "equalities": []}
    for c, (text, ok, _) in zip(exp.claims, claims, strict=True):
        v = claim_variants(c, exp)[-1]
        marks = _diagnose.sweep_marks(c, _sweep_outcomes(c, exp, scales, swept, sweep_by, s0))
        if ok:
            out["claims"][text] = [marks]
            continue
        problem, prior = priors[v]
        out["claims"][text] = _diagnose.explain_claim(
            c, runs=tally.final[v], gaps=problem.instance.gaps, costs=(problem.cost_low, problem.cost_high),
            classes=prior, window_sentence=f"Continuation window at {v}: {window(v)}", marks=marks)
    for v in exp.variants:
        problem, prior = priors[v.name]
        runs = tally.final[v.name]
        use = (_diagnose.continuation_use(runs.sums["tacc"], problem.instance.gaps, problem.cost_low, prior)
               if "tacc" in runs.sums else None)
        for m, q, same, equal, n in _diagnose.equal_pairs(runs):
            text = f"{v.name}: " + _diagnose.equality_sentence(m, q, same, equal, n, use)
            if {m, q} == {"tacc", "dnc"}:
                text += f" Continuation window: {window(v.name)}"
            out["equalities"].append({"variant": v.name, "methods": [m, q], "identical_runs": same,
                                      "equal_regret": equal, "seeds": n, "text": text})
    return out


def _observations(exp, res, final, pairs, claims) -> list[str]:
    """Plain sentences generated from the numbers (no hand-written conclusions)."""
    out = [f"{sum(ok for _, ok, _ in claims)} of {len(claims)} of the paper's claims about this experiment are "
           f"reproduced with {res.seeds} seeds."]
    for v in exp.variants:
        f = final[v.name]
        lowest = _lowest({m: f[m].mean for m in f})
        best = lowest[0]
        line = (f"{v.name}: lowest final regret {' = '.join(lowest)}{', tied' if len(lowest) > 1 else ''} "
                f"({fmt(f[best].mean)} +- {fmt(f[best].se)})")
        if "dnc" in pairs[v.name]:
            p = pairs[v.name]["dnc"]
            effect = ("continuation lowers the regret" if p.high < 0 else "continuation raises the regret"
                      if p.low > 0 else "the continuation's effect is not distinguishable from zero")
            line += (f"; TACC minus DNC (the continuation ablation) = {fmt(p.mean)} [{fmt(p.low)}, {fmt(p.high)}]: "
                     f"{effect}")
        d = res.diagnostics[v.name]["tacc"]
        line += f"; TACC made {fmt(d['continuation'])} continuation and {fmt(d['high_calls'])} high-fidelity calls"
        out.append(line + ".")
    paper = [(v, m) for v, t in exp.paper_table.items() for m in t]
    if paper:
        ratios = [final[v][m].mean / exp.paper_table[v][m][0] for v, m in paper if exp.paper_table[v][m][0] > 0]
        out.append(f"Our final regrets are {min(ratios):.2g} to {max(ratios):.2g} times the paper's: the paper does "
                   f"not state rho, delta or the budget sequence, and the sensitivity table shows how strongly rho "
                   f"moves every method.")
    sens = res.rho_sensitivity
    worst = max(sens, key=lambda x: x["event_failure_frequency"])
    if worst["event_failure_frequency"] > 0:
        out.append(f"Below rho_min the confidence event fails: up to {worst['event_failure_frequency']:.0%} of "
                   f"{worst['method']}'s runs at rho = {worst['rho_scale']} rho_min, outside the theory.")
    return out


def _markdown(exp, res, final, pairs, claims, fig_names, scales) -> str:
    L = [f"# {exp.title}", "", f"Paper: `{exp.labels}`. {res.seeds} seeds"
         + (" (--quick)" if res.quick else "") + f"; budgets {', '.join(fmt(b) for b in res.budgets)}, "
         f"separate runs per budget; every method on common seeds. Took {res.seconds:.0f} s.", "",
         "## What the numbers say", ""] + [f"- {x}" for x in _observations(exp, res, final, pairs, claims)] + [
         "", "## The paper's claims", "",
         table(["claim", "reproduced", "our numbers"], [(t, "yes" if ok else "NO", ours) for t, ok, ours in claims]),
         "", "## Why (computed from the runs' diagnostics)", "",
         "For each claim not reproduced: where the regret of the methods it compares comes from (by fidelity and by "
         "arm, classes of `eq:analysis-arm-partition`), where TACC's continuation pulls went, the continuation window "
         "at the rho used, identical runs; for every claim, the rho values of the sweep at which it would "
         "reproduce and whether the confidence event of `lem:ci` holds there.", ""]
    for x in res.claims:
        L += [f"- **{x.claim}** ({'reproduced' if x.reproduced else 'NOT reproduced'})"]
        L += [f"  - {e}" for e in x.explanation or []]
    L += ["", "## Equal regret (surprising equalities)", "",
          "Pairs of methods whose final regret is exactly equal on more than half of the seeds.", ""]
    L += [f"- {e['text']}" for e in res.equalities] or ["- none"]
    L += ["", "## Consistency of the paper's numbers", "",
          "The paper's reported values checked against each other, not against our runs "
          "(`reports/reproduce/_consistency.py`: exact arithmetic on the printed numbers with half a unit of their "
          "last digit; statistical relations at a stated family-wise level).", "",
          table(["relation", "the paper's numbers", "consistent", "why"],
                [(c.relation, c.numbers, {True: "yes", False: "NO", None: "undecided"}[c.consistent], c.why)
                 for c in res.consistency])]
    L += ["", "## Final-budget regret (mean +- standard error)", ""]
    for v in exp.variants:
        paper = exp.paper_table.get(v.name, {})
        rows = [(m, f"{fmt(final[v.name][m].mean)} +- {fmt(final[v.name][m].se)}",
                 f"{paper[m][0]} +- {paper[m][1]}" if m in paper else "-") for m in exp.methods]
        L += [f"### {v.name}", "", table(["method", "ours", "paper"], rows), ""]
    L += ["## Paired differences at the final budget (TACC minus baseline, 95% t-interval)", ""]
    for v in exp.variants:
        paper = exp.paper_paired.get(v.name, {})
        paired = [(m, fmt(p.mean), f"[{fmt(p.low)}, {fmt(p.high)}]", "yes" if p.excludes_zero else "no",
                   f"{paper[m][0]} [{paper[m][1]}, {paper[m][2]}]" if m in paper else "-")
                  for m, p in pairs[v.name].items()]
        L += [f"### {v.name}", "", table(["baseline", "mean", "95% CI", "excludes 0", "paper"], paired), ""]
    L += ["## Regret curves and continuation windows", ""] + [f"![{v}]({f})" for v, f in fig_names] + [""]
    L += ["## Diagnostics at the final budget", "",
          "High-fidelity calls and continuation calls are totals per run (mean over seeds); classes are those of "
          "`bounds` (C split into C^d / C^u by TACC's runs, mean per run).", ""]
    for v in exp.variants:
        d = res.diagnostics[v.name]
        cls = ", ".join(f"{k} {fmt(x)}" for k, x in res.classes[v.name].items())
        L += [f"### {v.name}", "", f"arm classes: {cls}", "",
              table(["method", "high-fidelity calls", "continuation calls", "max continuation on one arm",
                         "runs with the event failed"],
                        [(m, d[m]["high_calls"], d[m]["continuation"], d[m]["max_continuation_per_arm"],
                          d[m]["event_failures"]) for m in exp.methods]), ""]
    sens = res.rho_sensitivity
    n_sweep = min(res.seeds, sweep_seeds(res.seeds))
    same = ("its rows are the tables' own runs" if n_sweep == res.seeds else
            f"its rows are the variants' own runs on seeds 0 to {n_sweep - 1}, so their means differ from the tables "
            f"above, which are over {res.seeds} seeds")
    L += [f"## Sensitivity to rho (final budget, {n_sweep} seeds; the figure: "
          f"{exp.sensitivity_variant or exp.variants[0].name})", "",
          f"rho / rho_min = 1 is the least rho for which the union bound of `lem:ci` gives 1 - delta and the rho of "
          f"the tables above "
          f"({same}); below it the confidence event may fail (last column) and the theory no longer covers the run.",
          "",
          table(["rho / rho_min", "variant", "method", "regret", "high-fidelity calls", "continuation calls",
                 "event failure frequency"],
                [(x["rho_scale"], x["variant"], x["method"], x["regret"], x["high_calls"], x["continuation"],
                  x["event_failure_frequency"]) for x in sens]),
          "", f"![rho sensitivity](figures/{exp.key}_rho.png)", "",
          "## Parameters the paper does not state", "",
          table(["parameter", "value chosen", "why"], [(x.parameter, x.value, x.why) for x in res.choices]), ""]
    return "\n".join(L)


def _how_run(executor: str, workers: int | None, scheduler: str | None) -> str:
    """Where the runs were made, for the index: ``serial`` has no workers (it said "serial, all workers")."""
    if executor == "serial":
        return "serial, in this process"
    if scheduler is not None:
        return f"dask, the workers of the cluster at {scheduler}"
    return f"{executor}, {workers or 'all'} workers"


def reproduce(keys=("all",), *, seeds: int | None = None, quick: bool = False, out_dir="tacc-reproduce",
              executor: str = "processes", workers: int | None = None, scheduler: str | None = None, cache=None,
              progress: bool = False) -> list[ExperimentResult]:
    """Run the named experiments (or all) and write ``<key>.md``, figures and ``<key>.json`` to ``out_dir``, with an
    index ``README.md``."""
    return _reproduce(keys, seeds=seeds, quick=quick, out_dir=out_dir, executor=executor, workers=workers,
                      scheduler=scheduler, cache=cache, progress=progress)


def _reproduce(keys, *, seeds, quick, out_dir, executor, workers, scheduler, cache, progress) -> list:
    exps = selected(keys, seeds)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    run_kw: dict[str, Any] = dict(executor=executor, workers=workers, scheduler=scheduler,
                  cache=cache if cache is not None else out / "runs", progress=progress)
    t0 = time.perf_counter()
    tabled = [e for e in EXPERIMENTS if e.paper_table]      # the consistency checks compare every printed table
    problems = problems_of(tabled) if any(e.paper_table for e in exps) else {}
    plans = [plan_of(exp, seeds=range(seed_count(exp, seeds, quick)), quick=quick) for exp in exps]
    tallies = [ExperimentTally(p) for p in plans]
    shared = Shared()
    readers: deque = deque()            # (key, readers) of each task taken by the runner, in task order

    n_runs, planned = routed(plans, shared, SEED_BLOCK)

    def tasks():
        for t, key, who in planned:
            readers.append((key, who))
            yield t

    results = []
    # at the paper's seed counts the work is known to be long (about a minute of CPU on 2 cores): the workers start
    # with the first run, not after the batches the start rule times in this process first
    start_pool = "always" if at_paper_seed_counts(seeds, quick) else "auto"
    runs: Any = iter_runs(tasks(), **run_kw, total=n_runs, start_pool=start_pool)  # closed at the end
    # the figures in a helper process (PNG only), so collecting the next experiment's runs does not wait for them;
    # one drawn before from the same input is copied from the memo in the run cache's folder
    memo = Path(run_kw["cache"]) / FIGURE_MEMO if isinstance(run_kw["cache"], (str, os.PathLike)) else None
    figures = FigureWriter(out / "figures", process=executor != "serial", memo=memo, formats=("png",))
    started = [t0] * len(plans)         # when each experiment's work began: the end of the one before

    def finished(i: int) -> None:
        """Experiment ``i``'s analysis, once its last run is counted, and its files."""
        r = _run_experiment(plans[i], tallies[i], out=out, figures=figures, problems=problems, t0=started[i])
        (out / f"{r.key}.md").write_text(r.markdown)
        (out / f"{r.key}.json").write_text(json.dumps(jsonable(r.results), indent=2, allow_nan=False))
        results.append(r)
        if i + 1 < len(started):
            started[i + 1] = time.perf_counter()

    with figures, contextlib.closing(runs):
        guard_runs: dict = {}       # the records of the guards' runs, until their guard is checked
        for record in runs:
            key, who = readers.popleft()
            if key in shared.watched:
                guard_runs[key] = record
                shared.check(guard_runs)
                for k in set(guard_runs) - shared.watched:
                    del guard_runs[k]
            for i, task in who:
                if tallies[i].add(task, record):
                    finished(i)
        if any(t.remaining for t in tallies):
            raise RuntimeError("runs missing: " + ", ".join(p.exp.key for p, t in zip(plans, tallies, strict=True)
                                                             if t.remaining))
        figures.files()             # every figure drawn (an error in the helper is raised here)
    if shared.guards:                   # every guard's two runs belong to one experiment, so none is left
        raise RuntimeError(f"{len(shared.guards)} shared runs were not checked")
    # written as each was analysed (an experiment whose runs are all another's could finish first); listed in order
    order = {e.key: i for i, e in enumerate(exps)}
    results.sort(key=lambda r: order[r.key])
    total = time.perf_counter() - t0
    rows = [(f"[{r.key}]({r.key}.md)", experiment(r.key).title, r.results.seeds,
             f"{sum(ok for _, ok, _ in r.claims)} of {len(r.claims)}", f"{r.seconds:.0f} s") for r in results]
    index = ["# The paper's experiments, reproduced", "",
             f"`tacc reproduce {' '.join(keys)}`{' --quick' if quick else ''}: {len(results)} experiment(s) in "
             f"{total:.0f} s on this machine ({_how_run(executor, workers, scheduler)}).", "",
             table(["experiment", "title", "seeds", "paper claims reproduced", "time"], rows), ""]
    for r in results:
        index += [f"## {experiment(r.key).title}", ""]
        index += [f"- {'reproduced' if ok else 'NOT reproduced'}: {t} ({ours})" for t, ok, ours in r.claims] + [""]
        bad = [c for c in r.results.consistency if c.consistent is False]
        index += [f"Inconsistencies in the paper's numbers ({len(bad)} of {len(r.results.consistency)} checks):", ""]
        index += [f"- {c.relation}: {c.numbers} ({c.why})" for c in bad] or ["- none"]
        index += [""]
    (out / "README.md").write_text("\n".join(index))
    return results

