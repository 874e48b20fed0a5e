"""``tacc simulate``: run records as a per-run table, a per-arm table over seeds, and JSON.

The records stream through a :class:`SimulateSummary` (running sums, maxima and counts per arm), so memory does
not grow with the number of seeds: 10^8 seeds need time, not memory. The per-run table shows the first
``MAX_ROWS`` runs; JSON with every run's record is refused above ``MAX_JSON_RUNS`` runs.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from bounds import TaccInputError, arm_partition, refine_partition
from reports.views._arm_class import class_label
from reports.stats import RunningSummary
from reports.tables import CountMean, Whole, fmt, fmt_apart_all, table

__all__ = ["MAX_ROWS", "MAX_JSON_RUNS", "SimulateSummary", "check_json_size", "per_arm_regret_mean", "to_json",
           "render"]

#: runs shown one per line in the per-run table (the rest are in the per-arm table and the totals).
MAX_ROWS = 1000
#: runs whose full records ``--json`` writes at most.
MAX_JSON_RUNS = 100_000


def _written(x: float) -> str:
    """A configured amount (the budget) at 4 digits when they read back as it, else as written (its shortest repr):
    a budget of 0.899999999999999 must not print as "budget 0.9" beside a first round of 0.9 it cannot pay."""
    short = fmt(x)
    try:
        return short if float(short) == x else repr(float(x))
    except ValueError:
        return short


def check_json_size(n_runs: int, dest: str) -> None:
    """Refuse per-run JSON above :data:`MAX_JSON_RUNS` runs (naming the field ``json``)."""
    if n_runs > MAX_JSON_RUNS:
        raise TaccInputError("json", dest, f"would hold {n_runs} per-run records; at most {MAX_JSON_RUNS} "
                                           f"(run fewer seeds, or drop --json: the tables aggregate any number)")


class SimulateSummary:
    """What ``tacc simulate`` prints, accumulated one record at a time in memory independent of the count."""

    def __init__(self, problem):
        self.problem = problem
        inst = problem.instance
        self.classes = arm_partition(problem.tau, problem.n_gamma, problem.s0, inst.best_arm)
        K = problem.n_arms
        self.n = 0
        self.policy = None
        self.rows: list = []
        self.sums = {name: np.zeros(K) for name in ("n_low", "n_high", "continuation", "regret_share")}
        self.maxes = {name: np.zeros(K, dtype=np.int64) for name in ("n_low", "n_high", "high_in_window")}
        self.after = [Counter() for _ in range(K)]
        self.regret = RunningSummary()     # R(Lambda)'s mean and standard error (reports.stats.mean_and_se)
        self.held = 0

    def add(self, r) -> None:
        self.n += 1
        self.policy = r.policy
        event, held = _event(self.problem, r)
        if len(self.rows) < MAX_ROWS:
            self.rows.append((Whole(r.seed), r.rounds, r.cost, r.regret, sum(r.n_low), sum(r.n_high),
                              sum(r.continuation), event))
        for name, acc in self.sums.items():
            acc += getattr(r, name)
        for name, acc in self.maxes.items():
            np.maximum(acc, getattr(r, name), out=acc)
        for k, c in enumerate(refine_partition(self.classes, self.problem.tau, r.facts())):
            self.after[k][c.value] += 1
        self.regret.add(r.regret)
        self.held += held

    def mean_of(self, name: str) -> np.ndarray:
        """Per arm, the mean over the runs (seeds) of a per-arm record field (``n_low``, ``regret_share``, ...)."""
        return self.sums[name] / self.n

    @property
    def mean(self) -> float:
        return self.regret.mean_and_se()[0]

    @property
    def regret_se(self) -> float:
        return self.regret.mean_and_se()[1]     # one run: undefined (NaN)


def per_arm_regret_mean(summary: SimulateSummary) -> np.ndarray:
    """Arm k's regret share Delta_k (lambda_L N_k^(L) + lambda_H N_k^(H)), averaged over the runs (seeds): one value
    per arm (the "regret mean" column of ``tacc simulate``)."""
    return summary.mean_of("regret_share")


def to_json(problem, records, engine: str) -> dict:
    """The records with the problem's thresholds (the JSON of ``tacc simulate``)."""
    return {
        "name": problem.config.name, "source": problem.config.source, "engine": engine,
        "problem": {"n_arms": problem.n_arms, "budget": problem.budget, "horizon": problem.horizon,
                    "rho": problem.rho, "ell": problem.ell, "n_gamma": problem.n_gamma, "s0": problem.s0,
                    "tau": list(problem.tau), "best_arm": problem.instance.best_arm},
        "runs": [r.to_dict() for r in records],
    }


def _after(counts: Counter) -> str:
    """An arm's class after the run (``eq:app-analysis-Cdet``) over the runs: the class when every run gave the same
    one, else each class with its runs ("C^d 3, C^u 2")."""
    if len(counts) == 1:
        return next(iter(counts))
    return ", ".join(f"{c} {n}" for c, n in sorted(counts.items()))


def render(summary: SimulateSummary, engine: str, max_arms: int = 40) -> str:
    """What ``tacc simulate`` prints: a row per seed, the per-arm table over the seeds (at most ``max_arms`` rows),
    and the regret's mean and standard error."""
    problem, s = summary.problem, summary
    inst = problem.instance
    out = [f"{problem.config.name}: {s.policy}, {s.n} seed(s), engine {engine}; "
           f"K = {problem.n_arms}, budget {_written(problem.budget)}, T = {problem.horizon}, rho = {fmt(problem.rho)}, "
           f"ell = {fmt(problem.ell)}, N_gamma = {problem.n_gamma}, S0 = {problem.s0}"]
    shown_runs = "" if len(s.rows) == s.n else f"first {len(s.rows)} of {s.n} runs"
    out += ["", table(["seed", "rounds", "cost", "regret R", "low queries", "high queries", "continuation",
                       "event (lem:ci)"], s.rows)] + ([shown_runs] if shown_runs else [])
    mean = {name: s.mean_of(name) for name in s.sums}
    share = per_arm_regret_mean(s)
    arms = sorted(range(problem.n_arms), key=lambda k: (-share[k], k))[:max_arms]
    arm_rows = []
    # means with the digits that tell them apart (as tacc bounds prints them: at mu_high = [1e12, 0.999999e12] both
    # read 1.000e+12 beside a gap of 1.000e+06)
    means = dict(zip(sorted(arms), fmt_apart_all([float(inst.mu_high[k]) for k in sorted(arms)]), strict=True))
    for k in sorted(arms):
        arm_rows.append((k, means[k], float(inst.gaps[k]),
                         class_label(s.classes[k], inst.gaps[k] == 0 and k != inst.best_arm),
                         problem.tau[k], _after(s.after[k]) if k != inst.best_arm else "-",
                         CountMean(mean["n_low"][k]), int(s.maxes["n_low"][k]), CountMean(mean["n_high"][k]),
                         int(s.maxes["n_high"][k]), CountMean(mean["continuation"][k]),
                         int(s.maxes["high_in_window"][k]), float(share[k])))
    shown = "" if len(arms) == problem.n_arms else f" ({len(arms)} of {problem.n_arms} arms: largest mean regret)"
    out += ["", "per arm, over seeds" + shown,
            table(["arm", "mu_high", "gap", "class", "tau", "after run", "N_L mean", "N_L max", "N_H mean",
                   "N_H max", "A mean", "H in window max", "regret mean"], arm_rows)]
    out += ["", f"regret R(Lambda): mean {fmt(s.mean)} +- {fmt(s.regret_se)} (standard error); "
                f"event held on {s.held} of {s.n} runs"]
    from certify import float_sums_faithful          # fractions and the schedule's maxima: no simulation

    faithful, bound = float_sums_faithful(problem)
    if not faithful:
        out.append(f"at these magnitudes {bound}: the runs' float sums, which the policy's indices use, are not the "
                   f"exact algorithm's, and an event failure may go unseen (tacc check calls the claims that need "
                   f"the event UNDECIDED here)")
    return "\n".join(out)


def _event(problem, r) -> tuple[str, bool]:
    """The confidence event of ``lem:ci`` on run ``r`` as the table shows it, and whether it held: a failure the
    engines' float check reported is decided again exactly (``certify.event_failure``; imported only then), and one
    the exact sums do not confirm is shown as rounding (held: the observations stayed within the radius)."""
    if r.event_held:
        return "held", True
    from certify import event_failure

    v, exact = r.violation, event_failure(problem, r)
    if exact is None:
        return f"held (float check failed at arm {v.arm} {v.fidelity} n={v.count}: rounding)", True
    return f"failed at arm {exact.arm} {exact.fidelity} n={exact.count}", False
