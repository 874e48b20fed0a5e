"""The LUCB-style static two-fidelity rule of the synthetic comparisons (SPEC section 6), in step form.

Static-bias intervals as in MF-UCB: at low fidelity mu_hat^(L) -+ (G(N^(L)) + zeta_k), at high fidelity
mu_hat^(H) -+ G(N^(H)); an arm's aggregate interval is [max of the LCBs, min of the UCBs]. Each round the leader
is the arm with the largest aggregate LCB, the challenger the other arm with the largest aggregate UCB; the one
of the two with the wider aggregate interval is queried (ties: the lower index); its fidelity follows the static
threshold rule (low while N^(L) < N_gamma, then high). Start and stop as Algorithm 1.
"""

from __future__ import annotations

import math

import numpy as np

from bounds import validate as v
from simulate._policy import HIGH, LOW, Action, Policy
from simulate._rules import lower, upper

__all__ = ["LucbStatic"]


class LucbStatic(Policy):
    """LUCB-style static two-fidelity rule.

    Args:
        n_arms, cost_low, cost_high, budget: K, lambda^(L), lambda^(H), Lambda.
        ell: ell_Lambda; n_gamma: N_gamma; zeta: K fixed bias bounds zeta_k = B_k(1).
    """

    name = "lucb"

    def __init__(self, n_arms, cost_low, cost_high, budget, *, ell, n_gamma, zeta):
        super().__init__(n_arms, cost_low, cost_high, budget)
        self.ell = v.positive_real("ell", ell)
        self.n_gamma = v.count("n_gamma", n_gamma)
        self.zeta = np.array(v.float_array("zeta", zeta), dtype=float)
        self.upper_index = np.full(self.n_arms, -math.inf)
        self.lower_index = np.full(self.n_arms, -math.inf)

    @classmethod
    def from_problem(cls, problem) -> "LucbStatic":
        return cls(problem.n_arms, problem.cost_low, problem.cost_high, problem.budget, ell=problem.ell,
                   n_gamma=problem.n_gamma, zeta=problem.static_bias)

    def choose(self) -> Action:
        leader = int(np.argmax(self.lower_index))
        others = self.upper_index.copy()
        others[leader] = -math.inf
        challenger = int(np.argmax(others))
        w_leader = self.upper_index[leader] - self.lower_index[leader]
        w_challenger = self.upper_index[challenger] - self.lower_index[challenger]
        if w_leader > w_challenger or (w_leader == w_challenger and leader < challenger):
            k = leader
        else:
            k = challenger
        return Action(k, LOW if self.n_low[k] < self.n_gamma else HIGH)

    def observe(self, action: Action, y: float) -> None:
        k = action.arm
        if self.n_low[k] > 0 and self.n_high[k] > 0:
            z = float(self.zeta[k])
            self.upper_index[k] = min(upper(self.sum_low[k], self.n_low[k], self.ell, z),
                                      upper(self.sum_high[k], self.n_high[k], self.ell, 0.0))
            self.lower_index[k] = max(lower(self.sum_low[k], self.n_low[k], self.ell, z),
                                      lower(self.sum_high[k], self.n_high[k], self.ell, 0.0))
