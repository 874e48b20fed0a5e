"""The reference engine: drives a step-form policy against the reward table, one query at a time, in Python.

It is the readable definition of a run; the fast engine (``simulate._fast``) must produce the same
:class:`RunRecord`. The bookkeeping that is not the policy's (the event check, the C^d window, checkpoints)
is done here by an observer, so the policy classes stay as the paper's pseudocode.
"""

from __future__ import annotations

import numpy as np

from simulate._errors import RunStopped
from simulate._policy import HIGH, LOW, Action, Policy
from simulate._record import (FIDELITY_NAMES, RunRecord, Violation, default_checkpoints, record_from_arrays,
                              regret_summary)
from simulate._registry import make_policy
from simulate._rewards import RewardTable
from simulate._rules import deviation_exceeds

__all__ = ["run_reference"]


class _Observer:
    """Run bookkeeping that is not part of the policy (docs/design.md section 7)."""

    def __init__(self, problem, checkpoints, trace: bool):
        K = problem.n_arms
        self.p = problem
        self.truth_low = np.zeros(K)
        self.threshold = np.full(K, -1, dtype=np.int64)
        self.window = np.zeros(K, dtype=np.int64)
        self.early = np.zeros(K, dtype=np.int64)
        self.cps = tuple(float(c) for c in checkpoints)
        self.cps_units: tuple[int, ...] | None = None
        self.snaps: list[tuple] = []
        self.violation: Violation | None = None
        self.trace: list[tuple[int, int]] | None = [] if trace else None

    def before(self, policy: Policy, a: Action) -> None:
        k, m = a.arm, a.fidelity
        if self.cps_units is None:                     # C_t > checkpoint, decided exactly as the budget check
            self.cps_units = tuple(policy.units.floor(c) for c in self.cps)
        new_cost = policy.cost_units + policy.units.price(m)
        while len(self.snaps) < len(self.cps) and new_cost > self.cps_units[len(self.snaps)]:
            self.snaps.append((policy.n_low.copy(), policy.n_high.copy()))
        n_low = int(policy.n_low[k])
        if not policy.initialising:
            if self.threshold[k] < 0 and n_low >= self.p.n_gamma:
                self.threshold[k] = n_low
            if m == HIGH and self.p.n_gamma <= n_low < self.p.tau[k]:
                self.window[k] += 1
            if m == HIGH and n_low < self.p.n_gamma:
                self.early[k] += 1
        if self.trace is not None:
            self.trace.append((k, m))

    def after(self, policy: Policy, a: Action, mean: float) -> None:
        k, m = a.arm, a.fidelity
        if m == LOW:
            self.truth_low[k] += mean
            n, total, truth = int(policy.n_low[k]), policy.sum_low[k], self.truth_low[k] / policy.n_low[k]
        else:
            n, total, truth = int(policy.n_high[k]), policy.sum_high[k], mean
        if self.violation is None and deviation_exceeds(total, n, truth, self.p.ell):
            self.violation = Violation(k, FIDELITY_NAMES[m], n)


def build_record(problem, name: str, seed: int, *, n_low, n_high, continuation, threshold, window, early, cost,
                 rounds, checkpoints, snaps, violation, phases=(), output=None, trace=None) -> RunRecord:
    """Assemble a :class:`RunRecord` from a finished run's arrays and its checkpoint snapshots (the counts
    (low, high) before the first query past each checkpoint; the later checkpoints are the final counts)."""
    gaps = np.ascontiguousarray(problem.instance.gaps, dtype=float)
    K, cps = gaps.size, tuple(float(c) for c in checkpoints)
    per_arm = np.array([n_low, n_high, continuation, threshold, window, early], dtype=np.int64).reshape(6, K)
    snap_counts = np.zeros((len(cps), 2, K), dtype=np.int64)
    for i, (a, b) in enumerate(snaps):
        snap_counts[i, 0], snap_counts[i, 1] = a, b
    shares, at = np.empty(K), np.empty(len(cps))
    regret = regret_summary(gaps, float(problem.cost_low), float(problem.cost_high), per_arm[0], per_arm[1],
                            snap_counts, len(snaps), shares, at, np.empty(K))
    return record_from_arrays(name, int(seed), per_arm, shares, int(rounds), float(cost), regret, cps, at,
                              violation, tuple(phases), output,
                              None if trace is None else tuple((int(k), int(m)) for k, m in trace))


def run_reference(problem, policy: str | Policy, seed: int, *, checkpoints=None, trace: bool = False,
                  stop=None) -> RunRecord:
    """Run ``policy`` on ``problem`` with the reward table of ``seed``, one step-form query at a time.

    ``policy`` is a name of :data:`simulate.POLICIES`, or a fresh step-form :class:`Policy` instance (your own
    policy, or a deliberately broken one for the mutant tests of ``certify``); the record's ``policy`` is its
    ``name``. ``stop``: as :func:`simulate.run_fast`'s (read before every query).
    """
    pol = make_policy(policy, problem) if isinstance(policy, str) else policy
    policy = pol.name
    sched = problem.frozen_schedule if pol.source == "frozen" else problem.schedule
    table = RewardTable(seed, problem.noise, problem.sigma)
    mu = problem.instance.mu_high
    cps = default_checkpoints(problem.budget) if checkpoints is None else tuple(checkpoints)
    obs = _Observer(problem, cps, trace)
    while not (stop is not None and stop[0]) and (a := pol.select()) is not None:
        k, m = a.arm, a.fidelity
        n = int((pol.n_low if m == LOW else pol.n_high)[k]) + 1
        mean = sched.mean(k, n) if m == LOW else float(mu[k])
        y = table(k, m, n, mean)
        obs.before(pol, a)
        pol.update(k, m, y)
        obs.after(pol, a, mean)
    if stop is not None and stop[0]:                 # ended by its stop flag: unfinished, no record
        raise RunStopped(policy, int(seed), int(pol.rounds))
    cont = getattr(pol, "continuation_pulls", np.zeros(problem.n_arms, dtype=np.int64))
    return build_record(problem, policy, seed, n_low=pol.n_low, n_high=pol.n_high, continuation=cont,
                        threshold=obs.threshold, window=obs.window, early=obs.early, cost=pol.cost, rounds=pol.rounds,
                        checkpoints=cps, snaps=obs.snaps, violation=obs.violation,
                        phases=getattr(pol, "phases", ()), output=getattr(pol, "output", None), trace=obs.trace)
