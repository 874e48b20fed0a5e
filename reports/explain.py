"""``tacc explain``: one run told arm by arm as the theory sees it.

For each arm: its class (``eq:analysis-arm-partition``, C split into C^d / C^u by the run,
``eq:app-analysis-Cdet``), the round at which its low count reached N_gamma, the continuation pulls (rounds, the
mismatch bound they bought, whether they carried it to tau_k), when it was certified and by which fidelity, its
high-fidelity count against ``prop:analysis-high-selection`` and its share of the regret.

Everything is read from the run record and its trace (the engine's decisions); the theory's counts come from
``bounds``. A continuation pull is, by ``eq:fidelity-selection``, a low query made at N^(L) >= N_gamma by TACC;
the count found in the trace is checked against the record's A_k. The explanation is rendered by
``reports.views.render_explanation``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bounds import TaccInputError, analyze, confirmation_count, continuation_window, refine_partition
from certify import event_failure, float_sums_faithful
from reports.estimate import rounds_bound
from simulate import HIGH, LOW, make_problem, run

__all__ = ["ArmStory", "Explanation", "explain"]


@dataclass(frozen=True)
class ArmStory:
    """One arm's run. Rounds count from 1 (the start included); -1 means never."""

    arm: int
    gap: float
    prior_class: str
    run_class: str
    tau: float
    n_low: int
    n_high: int
    threshold_round: int
    continuation: int
    continuation_rounds: tuple
    window_pulls: int
    bound_before: float | None
    bound_after: float | None
    reached_tau_by_continuation: bool
    certified_round: int
    certified_by: str
    last_round: int
    high_bound: float
    high_in_window: int
    regret_share: float
    regret_fraction: float
    tied_with_best: bool = False    # Delta_k = 0 but not k^*: class B, tau_k = inf, no N_H bound (as ``tacc bounds``)


#: the certification cell of an arm tied with k^*: tau_k = inf and no confirmation count at Delta_k = 0.
_TIED_CERTIFIED = "- (tied with k*: gap 0, never certified, tau_k = inf)"


@dataclass(frozen=True)
class Explanation:
    config: str
    policy: str
    seed: int
    rounds: int
    cost: float
    regret: float
    n_gamma: int
    s0: int
    rho: float
    event_held: bool                  # decided exactly (certify.event_failure)
    event_rounding: bool              # the engines' float check reported a failure the exact sums do not confirm
    arms: tuple
    low_rounds: tuple          # per arm, the rounds of its low queries (for the figure)
    high_rounds: tuple
    unfaithful: str = ""       # certify.float_sums_faithful's bound when the float sums can leave the radius unseen
    rho_reading: str | None = None    # the reading of lem:ci's radius that makes rho valid (bounds.rho_readings)


def _rounds_where(mask: np.ndarray) -> np.ndarray:
    return np.flatnonzero(mask) + 1


def explain(config, policy: str = "tacc", seed: int = 0, *, engine: str = "fast") -> Explanation:
    """Run ``policy`` on ``config`` with seed ``seed`` (trace kept) and tell each arm's story."""
    a = analyze(config)
    problem = make_problem(config)
    # the trace allocated from the policy's rounds bound: the run is made once (a run that could pass 2^17 rounds
    # was first made untraced to learn its length)
    rec = run(problem, policy, seed, engine=engine, trace=True, rounds_bound=rounds_bound(config, policy))
    p = config.params
    K = problem.n_arms
    window = continuation_window(a.instance.low, n_gamma=a.n_gamma, s0=p.s0, eta=p.eta, gamma=p.gamma,
                                 horizon=a.horizon, tau=a.tau)
    after = refine_partition(a.classes, a.tau, rec.facts())
    tr = np.asarray(rec.trace, dtype=np.int64).reshape(-1, 2)
    arms_col, fid_col = tr[:, 0], tr[:, 1]
    start = 2 * K if policy not in ("ucb", "weak-fixed", "low-improving") else K
    model = a.instance.low
    stories, lows, highs = [], [], []
    for k in range(K):
        mine = arms_col == k
        low_mask, high_mask = mine & (fid_col == LOW), mine & (fid_col == HIGH)
        low_r, high_r = _rounds_where(low_mask), _rounds_where(high_mask)
        lows.append(tuple(low_r.tolist()))
        highs.append(tuple(high_r.tolist()))
        # the low count before each of the arm's low queries is 0, 1, 2, ...
        thr = int(low_r[a.n_gamma - 1]) if low_r.size >= a.n_gamma else -1
        if policy == "tacc":
            cont = low_r[a.n_gamma:]
            cont = cont[cont > start]
        else:
            cont = low_r[:0]
        if cont.size != rec.continuation[k]:
            raise TaccInputError("trace", policy, f"arm {k}: {cont.size} continuation pulls in the trace, "
                                                  f"{rec.continuation[k]} in the record")
        b_before = b_after = None
        if rec.continuation[k]:
            b_before = float(model.mismatch_bound(k, a.n_gamma))
            b_after = float(model.mismatch_bound(k, a.n_gamma + int(rec.continuation[k])))
        tau = a.tau[k]
        reached_by_cont = bool(rec.continuation[k] and tau != math.inf
                               and a.n_gamma < tau <= a.n_gamma + rec.continuation[k])
        # certification as the theory sees it: at low fidelity once N_L >= max(tau_k, N_gamma) (Delta^(L) >= 2 gamma
        # with G(N_L) < gamma), at high fidelity once N_H >= ceil(4 ell / Delta^2) (2 G(N_H) <= Delta)
        gap = float(a.instance.gaps[k])
        cert_low = cert_high = -1
        if tau != math.inf and low_r.size >= max(tau, a.n_gamma):
            cert_low = int(low_r[max(int(tau), a.n_gamma) - 1])
        conf = confirmation_count(a.ell, gap) if gap > 0 else math.inf
        if conf != math.inf and high_r.size >= conf:
            cert_high = int(high_r[int(conf) - 1])
        tied = gap == 0 and k != a.instance.best_arm
        if tied:
            cert_round, cert_by = -1, _TIED_CERTIFIED
        elif gap == 0:
            cert_round, cert_by = -1, "- (best arm)"
        elif cert_low > 0 and (cert_high < 0 or cert_low <= cert_high):
            cert_round, cert_by = cert_low, "L (N_L >= max(tau_k, N_gamma))"
        elif cert_high > 0:
            cert_round, cert_by = cert_high, "H (N_H >= ceil(4 ell / Delta^2))"
        else:
            cert_round, cert_by = -1, "-"
        stories.append(ArmStory(
            arm=k, gap=gap, prior_class=a.classes[k].value, run_class=after[k].value, tau=tau,
            n_low=rec.n_low[k], n_high=rec.n_high[k], threshold_round=thr, continuation=rec.continuation[k],
            continuation_rounds=tuple(cont.tolist()), window_pulls=window.pulls[k], bound_before=b_before,
            bound_after=b_after, reached_tau_by_continuation=reached_by_cont, certified_round=cert_round,
            certified_by=cert_by, last_round=int(max(low_r.max(initial=0), high_r.max(initial=0))) or -1,
            high_bound=a.high_count_bound[k], high_in_window=rec.high_in_window[k],
            regret_share=rec.regret_share[k],
            regret_fraction=rec.regret_share[k] / rec.regret if rec.regret > 0 else math.nan,   # 0 / 0: undefined
            tied_with_best=tied))
    held = rec.event_held or event_failure(problem, rec) is None    # a float failure decided exactly
    faithful, bound = float_sums_faithful(problem)
    return Explanation(config=config.name, policy=policy, seed=seed, rounds=rec.rounds, cost=rec.cost,
                       regret=rec.regret, n_gamma=a.n_gamma, s0=p.s0, rho=a.rho, event_held=held,
                       event_rounding=held and not rec.event_held,
                       arms=tuple(stories), low_rounds=tuple(lows), high_rounds=tuple(highs),
                       unfaithful="" if faithful else bound, rho_reading=a.rho_readings.reading(a.rho))
