"""Single-fidelity UCB policies (SPEC section 6): UCB on high fidelity, Weak-Fixed and Low-Improving on low.

Index mu_hat + G(N) on one fidelity, one query per arm to start, argmax with ties to the lowest index.
Weak-Fixed and Low-Improving are the same rule on low fidelity; they differ in the source the environment serves
(the frozen mean_low(k, 1), or the improving source), and neither corrects for the mismatch.
"""

from __future__ import annotations

import math

import numpy as np

from bounds import validate as v
from simulate._policy import HIGH, LOW, Action, Policy
from simulate._rules import upper

__all__ = ["SingleFidelityUcb", "Ucb", "WeakFixed", "LowImproving"]


class SingleFidelityUcb(Policy):
    """UCB on one fidelity: I_t in argmax_k mu_hat_k + G(N_k).

    Args:
        n_arms, cost_low, cost_high, budget: K, lambda^(L), lambda^(H), Lambda.
        ell: ell_Lambda (``bounds.log_factor``).
    """

    #: the fidelity every query uses.
    fidelity = HIGH

    def __init__(self, n_arms: int, cost_low: float, cost_high: float, budget: float, *, ell: float):
        super().__init__(n_arms, cost_low, cost_high, budget)
        self.ell = v.positive_real("ell", ell)
        self.index = np.full(self.n_arms, -math.inf)

    @classmethod
    def from_problem(cls, problem) -> "SingleFidelityUcb":
        return cls(problem.n_arms, problem.cost_low, problem.cost_high, problem.budget, ell=problem.ell)

    def initial_queries(self):
        """One query per arm at the policy's fidelity, in arm order."""
        for k in range(self.n_arms):
            yield Action(k, self.fidelity)

    def choose(self) -> Action:
        return Action(int(np.argmax(self.index)), self.fidelity)

    def observe(self, action: Action, y: float) -> None:
        k = action.arm
        if self.fidelity == LOW:
            self.index[k] = upper(self.sum_low[k], self.n_low[k], self.ell, 0.0)
        else:
            self.index[k] = upper(self.sum_high[k], self.n_high[k], self.ell, 0.0)


class Ucb(SingleFidelityUcb):
    """UCB: high fidelity only; index mu_hat^(H) + G(N^(H))."""

    name = "ucb"
    fidelity = HIGH


class WeakFixed(SingleFidelityUcb):
    """Weak-Fixed: low fidelity only, on the frozen source mean_low(k, 1); index mu_hat^(L) + G(N^(L))."""

    name = "weak-fixed"
    fidelity = LOW
    source = "frozen"


class LowImproving(SingleFidelityUcb):
    """Low-Improving: low fidelity only, on the improving source; same index, no mismatch correction."""

    name = "low-improving"
    fidelity = LOW
    source = "improving"
