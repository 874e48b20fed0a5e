"""RDFE, Resolution-Dependent Fidelity Elimination (``alg:app-rdfe``), in step form.

Phases r = 1, 2, ... with eps_r = 2^-r over an active set S_r (initially every arm). In phase r each active arm,
in arm order, gets the fidelity with the smaller oracle cost (c_k^(L)(eps_r) <= c^(H)(eps_r): low; ties go to
low) and is queried at it until its stopping count (``bounds.rdfe_low_count`` / ``bounds.rdfe_high_count``:
G(N) + B_k(N) <= eps_r / 8, or G(N) <= eps_r / 8); counts carry over between phases, so an arm already past its
count is not queried. Then UCB/LCB at that fidelity, the leader k_hat_r = argmax LCB, and
S_{r+1} = {k in S_r : UCB_k >= LCB_{k_hat_r} - eps_r / 4}. The run returns when |S_r| = 1 or when the budget
cannot pay for the next query. The warm-start output is the arm with the largest LCB after the start, an arm's
LCB being the larger of its two fidelity LCBs (the paper does not say which LCB; this choice does not affect
any query). Ties everywhere go to the lowest arm index.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bounds import (LowFidelityModel, counts_or_inf, rdfe_high_count, rdfe_high_counts, rdfe_low_count,
                    rdfe_low_counts)
from bounds import validate as v
from simulate._policy import HIGH, LOW, Action, Policy
from simulate._rules import lower, upper

__all__ = ["RdfeOracle", "RdfePhase", "Rdfe"]

#: high-fidelity stopping counts searched together by :meth:`RdfeOracle.last_phase` (phases r..r+3).
_HIGH_AT_ONCE = 4


class RdfeOracle:
    """The deterministic quantities RDFE reads, computed by ``bounds`` and cached: stopping counts, the fidelity
    of each (arm, phase), and B_k at a count. The step form and the fast engine share one oracle."""

    def __init__(self, model: LowFidelityModel, ell: float, cost_low: float, cost_high: float):
        self.model = model
        self.ell = v.positive_real("ell", ell)
        self.cost_low = v.positive_real("cost_low", cost_low)
        self.cost_high = v.positive_real("cost_high", cost_high)
        self._low: dict[tuple[int, int], float] = {}
        self._high: dict[int, float] = {}
        self._bias: dict[tuple[int, int], float] = {}

    @staticmethod
    def eps(r: int) -> float:
        """eps_r = 2^-r."""
        return math.ldexp(1.0, -r)

    def low_count(self, k: int, r: int) -> float:
        """min{n >= 1 : G(n) + B_k(n) <= eps_r / 8}, inf if none."""
        if (k, r) not in self._low:
            self._low[k, r] = rdfe_low_count(self.model, k, self.eps(r), self.ell)
        return self._low[k, r]

    def prefetch(self, n_arms: int, last: int) -> None:
        """Compute :meth:`low_count` for every arm and phase 1..last at once (one vector search of ``bounds``
        instead of one per pair; the same counts)."""
        pairs = [(k, r) for k in range(n_arms) for r in range(1, last + 1) if (k, r) not in self._low]
        if pairs:
            counts = rdfe_low_counts(self.model, [k for k, _ in pairs], [self.eps(r) for _, r in pairs], self.ell)
            for pair, n in zip(pairs, counts.tolist(), strict=True):
                self._low[pair] = math.inf if n == math.inf else int(n)

    def high_count(self, r: int) -> float:
        """min{n >= 1 : G(n) <= eps_r / 8}."""
        if r not in self._high:
            self._high[r] = rdfe_high_count(self.eps(r), self.ell)
        return self._high[r]

    def _prefetch_high(self, first: int, last: int) -> None:
        """:meth:`high_count` of phases first..last at once (one vector search of ``bounds``; the same counts)."""
        rs = [r for r in range(first, last + 1) if r not in self._high]
        if rs:
            counts = counts_or_inf(rdfe_high_counts([self.eps(r) for r in rs], self.ell))
            self._high.update(zip(rs, counts, strict=True))

    def _low_is_cheaper(self, n_low, n_high):
        """c^(L) <= c^(H) (ties to low), c = lambda * stopping count, for counts or arrays of counts (an infinite
        count costs inf: lambda > 0)."""
        return self.cost_low * n_low <= self.cost_high * n_high

    def fidelity(self, k: int, r: int) -> int:
        """m_{k,r} in argmin{c_k^(L)(eps_r), c^(H)(eps_r)}, ties to low; c = lambda * stopping count."""
        return LOW if self._low_is_cheaper(self.low_count(k, r), self.high_count(r)) else HIGH

    def target(self, k: int, r: int) -> float:
        """The stopping count of arm k's block in phase r, at its fidelity."""
        return self.low_count(k, r) if self.fidelity(k, r) == LOW else self.high_count(r)

    def bias(self, k: int, n: int) -> float:
        """B_k(n)."""
        if (k, n) not in self._bias:
            self._bias[k, n] = float(self.model.mismatch_bound(k, n))
        return self._bias[k, n]

    def last_phase(self, horizon: int) -> int:
        """The first phase whose high-fidelity stopping count exceeds T_Lambda: no run completes it (a
        low-fidelity count is never below the high one, as B_k >= 0), so every run ends in it or before."""
        r = 1
        while True:
            if r not in self._high:
                self._prefetch_high(r, r + _HIGH_AT_ONCE - 1)
            if not self._high[r] <= horizon:
                return r
            r += 1

    def plan(self, n_arms: int, last: int) -> tuple:
        """(fidelity, stopping count) of every arm and phase 1..last, as (n_arms, last) arrays (int64, float64):
        :meth:`fidelity` and :meth:`target` from the same counts and the same comparison, vectorised."""
        self.prefetch(n_arms, last)
        self._prefetch_high(1, last)
        low = np.array([[self._low[k, r] for r in range(1, last + 1)] for k in range(n_arms)], dtype=float)
        high = np.array([self._high[r] for r in range(1, last + 1)], dtype=float)
        low = low.reshape(n_arms, last)
        fid = np.where(self._low_is_cheaper(low, high), LOW, HIGH).astype(np.int64)
        return fid, np.where(fid == LOW, low, high)

    def biases(self, arms, counts) -> np.ndarray:
        """:meth:`bias` of every pair (arms[i], counts[i]) in one vector call of the model."""
        return np.asarray(self.model.mismatch_bound_at(np.asarray(arms, dtype=np.int64),
                                                       np.asarray(counts, dtype=np.int64)), dtype=float)


@dataclass(frozen=True)
class RdfePhase:
    """One phase of an RDFE run, as the run record keeps it.

    ``active`` lists S_r; the per-arm tuples are aligned with it. ``ucb``/``lcb``/``width`` are None for arms
    whose block did not finish; ``survivors`` and ``leader`` are None if the phase was not completed.
    """

    r: int
    eps: float
    active: tuple
    fidelity: tuple
    target: tuple
    cost: tuple
    ucb: tuple
    lcb: tuple
    width: tuple
    completed: bool
    leader: int | None
    survivors: tuple | None


class Rdfe(Policy):
    """Resolution-Dependent Fidelity Elimination (``alg:app-rdfe``).

    Args:
        n_arms, cost_low, cost_high, budget: K, lambda^(L), lambda^(H), Lambda.
        ell: ell_Lambda; model: the low-fidelity model whose certificate gives B_k.
        oracle: an existing :class:`RdfeOracle` for the same model, ell and costs (its caches are reused).

    Attributes:
        phases: one :class:`RdfePhase` per phase started.
        output: k_hat_out (the warm-start leader, then the phase leaders' choice, then the survivor).
    """

    name = "rdfe"

    def __init__(self, n_arms, cost_low, cost_high, budget, *, ell, model: LowFidelityModel,
                 oracle: RdfeOracle | None = None):
        super().__init__(n_arms, cost_low, cost_high, budget)
        self.oracle = RdfeOracle(model, ell, cost_low, cost_high) if oracle is None else oracle
        self.ell = self.oracle.ell
        self.r = 1
        self.active = list(range(self.n_arms))
        self.output: int | None = None
        self.phases: list[RdfePhase] = []
        self._pos = 0          # position in `active` of the arm being processed
        self._phase: dict[str, list] | None = None     # per-arm lists of the phase in progress
        self._start_cost = 0.0

    @classmethod
    def from_problem(cls, problem) -> "Rdfe":
        return cls(problem.n_arms, problem.cost_low, problem.cost_high, problem.budget, ell=problem.ell,
                   model=problem.instance.low, oracle=problem.rdfe_oracle)

    def _bounds_at(self, k: int, m: int) -> tuple[float, float]:
        if m == LOW:
            n = int(self.n_low[k])
            b = self.oracle.bias(k, n)
            return upper(self.sum_low[k], n, self.ell, b), lower(self.sum_low[k], n, self.ell, b)
        n = int(self.n_high[k])
        return upper(self.sum_high[k], n, self.ell, 0.0), lower(self.sum_high[k], n, self.ell, 0.0)

    def _warm_start(self) -> None:
        best, best_lcb = 0, -math.inf
        for k in range(self.n_arms):
            lcb = max(self._bounds_at(k, LOW)[1], self._bounds_at(k, HIGH)[1])
            if lcb > best_lcb:
                best, best_lcb = k, lcb
        self.output = best

    def _begin_phase(self) -> dict[str, list]:
        r, S = self.r, self.active
        self._phase = dict(fidelity=[self.oracle.fidelity(k, r) for k in S],
                           target=[self.oracle.target(k, r) for k in S], cost=[0.0] * len(S),
                           ucb=[None] * len(S), lcb=[None] * len(S))
        self._pos = 0
        self._start_cost = self.cost
        return self._phase

    def _record(self, completed: bool, leader=None, survivors=None) -> None:
        p = self._phase
        assert p is not None  # recorded only while a phase is in progress
        width = tuple(None if u is None else u - lo for u, lo in zip(p["ucb"], p["lcb"], strict=True))
        phase = RdfePhase(self.r, self.oracle.eps(self.r), tuple(self.active), tuple(p["fidelity"]),
                          tuple(p["target"]), tuple(p["cost"]), tuple(p["ucb"]), tuple(p["lcb"]), width,
                          completed, leader, survivors)
        if self.phases and self.phases[-1].r == self.r:
            self.phases[-1] = phase
        else:
            self.phases.append(phase)

    def choose(self) -> Action | None:
        if self.output is None:
            self._warm_start()
        while len(self.active) > 1:                                   # while |S_r| > 1
            p = self._phase
            if p is None:
                p = self._begin_phase()
                self._record(completed=False)
            i = self._pos
            if i < len(self.active):                                 # for each arm k in S_r
                k, m = self.active[i], p["fidelity"][i]
                n = self.n_low[k] if m == LOW else self.n_high[k]
                if n < p["target"][i]:                               # query until the stopping condition
                    return Action(k, m)
                p["ucb"][i], p["lcb"][i] = self._bounds_at(k, m)
                self._pos += 1
                self._record(completed=False)
                continue
            S, eps = self.active, self.oracle.eps(self.r)
            leader = S[max(range(len(S)), key=lambda j: (p["lcb"][j], -j))]
            floor = p["lcb"][S.index(leader)] - eps / 4
            survivors = [k for j, k in enumerate(S) if p["ucb"][j] >= floor]
            self._record(completed=True, leader=leader, survivors=tuple(survivors))
            j_out = max(range(len(S)), key=lambda j: (S[j] in survivors, p["lcb"][j], -j))
            self.output = S[j_out]
            self.active, self.r, self._phase = survivors, self.r + 1, None
        if len(self.active) == 1:
            self.output = self.active[0]
        return None

    def observe(self, action: Action, y: float) -> None:
        if self._phase is not None and not self.initialising:
            self._phase["cost"][self._pos] += self.price(action.fidelity)

    def finish(self) -> None:
        """The run stopped: the phase in progress is recorded as not completed, with what it spent."""
        if self._phase is not None:
            self._record(completed=False)
