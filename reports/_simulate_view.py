"""``tacc simulate``: run records as a per-run table, a per-arm table over seeds, and JSON."""

from __future__ import annotations

from collections import Counter

import numpy as np

from bounds import arm_partition, refine_partition
from reports._stats import summarize
from reports._tables import fmt, table


def to_json(problem, records, engine: str) -> dict:
    """The records with the problem's thresholds (the JSON of ``tacc simulate``)."""
    return {
        "name": problem.config.name, "source": problem.config.source, "engine": engine,
        "problem": {"n_arms": problem.n_arms, "budget": problem.budget, "horizon": problem.horizon,
                    "rho": problem.rho, "ell": problem.ell, "n_gamma": problem.n_gamma, "s0": problem.s0,
                    "tau": list(problem.tau), "best_arm": problem.instance.best_arm},
        "runs": [r.to_dict() for r in records],
    }


def per_arm_regret_mean(records) -> np.ndarray:
    """Arm k's regret share Delta_k (lambda_L N_k^(L) + lambda_H N_k^(H)), averaged over the runs (seeds): one value
    per arm."""
    return np.array([r.regret_share for r in records], dtype=float).mean(axis=0)


def render(problem, records, engine: str, max_arms: int = 40) -> str:
    inst = problem.instance
    out = [f"{problem.config.name}: {records[0].policy}, {len(records)} seed(s), engine {engine}; "
           f"K = {problem.n_arms}, budget {fmt(problem.budget)}, T = {problem.horizon}, rho = {fmt(problem.rho)}, "
           f"ell = {fmt(problem.ell)}, N_gamma = {problem.n_gamma}, S0 = {problem.s0}"]
    rows = [(r.seed, r.rounds, r.cost, r.regret, sum(r.n_low), sum(r.n_high), sum(r.continuation),
             "held" if r.event_held else f"failed at arm {r.violation.arm} {r.violation.fidelity} "
                                         f"n={r.violation.count}") for r in records]
    out += ["", table(["seed", "rounds", "cost", "regret R", "low queries", "high queries", "continuation",
                       "event (lem:ci)"], rows)]
    classes = arm_partition(problem.tau, problem.n_gamma, problem.s0, inst.best_arm)
    nl = np.array([r.n_low for r in records])
    nh = np.array([r.n_high for r in records])
    ca = np.array([r.continuation for r in records])
    win = np.array([r.high_in_window for r in records])
    share = per_arm_regret_mean(records)
    refined = [refine_partition(classes, problem.tau, r.facts()) for r in records]
    arms = sorted(range(problem.n_arms), key=lambda k: (-share[k], k))[:max_arms]
    arm_rows = []
    for k in sorted(arms):
        seen = Counter(c[k].value for c in refined)
        arm_rows.append((k, float(inst.mu_high[k]), float(inst.gaps[k]),
                         "k*" if k == inst.best_arm else classes[k].value, problem.tau[k],
                         " ".join(f"{c}:{n}" for c, n in sorted(seen.items())) if k != inst.best_arm else "-",
                         float(nl[:, k].mean()), int(nl[:, k].max()), float(nh[:, k].mean()), int(nh[:, k].max()),
                         float(ca[:, k].mean()), int(win[:, k].max()), float(share[k])))
    shown = "" if len(arms) == problem.n_arms else f" ({len(arms)} of {problem.n_arms} arms: largest mean regret)"
    out += ["", "per arm, over seeds" + shown,
            table(["arm", "mu_high", "gap", "class", "tau", "after run", "N_L mean", "N_L max", "N_H mean",
                   "N_H max", "A mean", "H in window max", "regret mean"], arm_rows)]
    reg = summarize([r.regret for r in records])
    out += ["", f"regret R(Lambda): mean {fmt(reg.mean)} +- {fmt(reg.se)} (standard error); "
                f"event held on {sum(r.event_held for r in records)} of {len(records)} runs"]
    return "\n".join(out)
