"""TACC (``alg:adaptive-mf-mab``) and its two ablations, DNC and MF-UCB, in step form.

- TACC: Algorithm 1 exactly.
- DNC: TACC without the continuation branch (after the threshold, go straight to high fidelity).
- MF-UCB (static rule): DNC with B_k(n) replaced by the constant zeta_k = B_k(1) (``rem:evolving_vs_static``).

The three are one algorithm with two switches, so they share this file.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from bounds import CONFIG_NAMES, check_costs, check_parameters, cost_units, horizon
from bounds import validate as v
from simulate._asktell import Recommendation, given_bound, recommend, thresholds
from simulate._certificate import bias_length, check_mismatch_bound
from simulate._policy import HIGH, LOW, Action, Policy
from simulate._rules import continuation_gain_passes, upper

__all__ = ["Tacc", "Dnc", "MfUcb"]

#: the checks of a configuration (``bounds.check_parameters``, ``bounds.check_costs``) refuse a value naming the
#: argument of the constructor or of ``from_parameters``, not the configuration's key.
_ARGUMENT_NAMES = {name: name for name in CONFIG_NAMES}


class Tacc(Policy):
    """Threshold-Based Adaptive Continuation Companion (``alg:adaptive-mf-mab``).

    Args:
        n_arms, cost_low, cost_high, budget: K, lambda^(L), lambda^(H), Lambda; lambda^(L) >= lambda^(H) is refused
            naming ``cost_low``, as :meth:`from_parameters` and a configuration refuse it (``bounds.check_costs``).
        ell: ell_Lambda = rho log(2 K T_Lambda / delta) (``bounds.log_factor``).
        n_gamma: N_gamma (``bounds.n_gamma``); "G(N) >= gamma" is decided as N < n_gamma (docs/design.md section 3).
        gamma, eta, s0: threshold, continuation parameter, continuation cap S_0.
        mismatch_bound: B_k(n) as a function ``(k, n) -> float``, nonincreasing in n
            (``Problem.bias``, or a low-fidelity model's ``mismatch_bound``). Checked at construction on the
            counts a run reads, n = 1..min(N_gamma, T_Lambda) + S_0 + 1: not callable, negative, not finite or
            increasing is refused (``TaccInputError`` naming ``mismatch_bound``).

    :meth:`from_parameters` computes ``ell`` and ``n_gamma`` from the instance-free parameters and takes U_k or B_k;
    :meth:`recommend` is the arm to output with its confidence interval. Calls out of order (``select`` twice)
    raise :class:`simulate.TaccStateError`.

    Attributes:
        continuation_pulls: A_k, the continuation pulls spent on each arm.
    """

    name = "tacc"
    #: whether the continuation branch (line 9 of Algorithm 1) exists.
    continuation = True

    def __init__(self, n_arms: int, cost_low: float, cost_high: float, budget: float, *, ell: float,
                 n_gamma: int, gamma: float, eta: float, s0: int, mismatch_bound: Callable[[int, int], float]):
        super().__init__(n_arms, cost_low, cost_high, budget)
        check_costs(cost_low, cost_high, names=_ARGUMENT_NAMES)      # lambda_L < lambda_H, as from_parameters
        self.ell = v.positive_real("ell", ell)
        self.n_gamma = v.count("n_gamma", n_gamma)
        self.gamma = v.positive_real("gamma", gamma)
        self.eta = v.open_unit("eta", eta)
        self.s0 = v.count("s0", s0, minimum=0)
        self.mismatch_bound = check_mismatch_bound(mismatch_bound, self.n_arms,
                                                   bias_length(self.n_gamma, horizon(self.budget, self.cost_low),
                                                               self.s0))
        self.continuation_pulls = np.zeros(self.n_arms, dtype=np.int64)
        self.index = np.full(self.n_arms, -math.inf)

    @classmethod
    def from_problem(cls, problem) -> "Tacc":
        """The policy with every threshold of a :class:`simulate.Problem`."""
        return cls(problem.n_arms, problem.cost_low, problem.cost_high, problem.budget, ell=problem.ell,
                   n_gamma=problem.n_gamma, gamma=problem.gamma, eta=problem.eta, s0=problem.s0,
                   mismatch_bound=problem.bias)

    @classmethod
    def from_parameters(cls, n_arms: int, cost_low: float, cost_high: float, budget: float, *, delta: float, rho,
                        gamma: float, eta: float, s0: int, certificate=None, mismatch_bound=None,
                        certificate_limit=None, noise_scale: float = 1.0):
        """The policy from the instance-free parameters: every threshold computed by ``bounds``.

        Args:
            n_arms, cost_low, cost_high, budget: K, lambda^(L), lambda^(H), Lambda.
            delta, rho, gamma, eta, s0: as in a configuration's ``[params]`` (``rho = "min"`` uses
                ``noise_scale``, the observations' sub-Gaussian scale: 1/2 for rewards in [0, 1]).
            certificate: U_k(n) as ``(k, n) -> float`` (``ass:plugin``); B_k(n) = sup_{s >= n} U_k(s)/s is then
                computed by :func:`simulate.bound_from_certificate` over s = 1..max(L, T_Lambda) + 1, L the counts
                a run reads B_k at.
            certificate_limit: lim_{s -> inf} U_k(s)/s (one number or one per arm), the supremum's value past the
                counts evaluated; needed only when U_k(s)/s still rises there (refused otherwise).
            mismatch_bound: B_k(n) directly, instead of ``certificate``.

        The arguments get the checks of a configuration (``bounds.check_parameters``), each refusal naming the
        argument: ``cost_low >= cost_high``, delta or eta outside (0, 1), a ``noise_scale`` whose rho_min
        leaves the floats (with ``rho = "min"``)... raise ``TaccInputError``.

        >>> pol = Tacc.from_parameters(2, 1.0, 10.0, 500.0, delta=0.05, rho=1.0, gamma=0.5, eta=0.1, s0=3,
        ...                            certificate=lambda k, n: 0.2 * n ** 0.5)
        >>> pol.n_gamma, round(pol.mismatch_bound(0, 4), 3)   # ceil(log(40000) / 0.25); B(4) = 0.2 * 4^0.5 / 4
        (43, 0.1)
        """
        K = v.count("n_arms", n_arms)
        check_parameters(K, cost_low, cost_high, budget, delta, rho, gamma, eta, s0, noise_scale=noise_scale,
                         names=_ARGUMENT_NAMES)
        cost_units(cost_low, cost_high, budget, names={CONFIG_NAMES[n]: n for n in ("cost_low", "cost_high", "budget")})
        t = thresholds(n_arms, cost_low, budget, delta=delta, rho=rho, gamma=gamma, s0=s0, noise_scale=noise_scale)
        b = given_bound(n_arms, t, certificate=certificate, mismatch_bound=mismatch_bound,
                        certificate_limit=certificate_limit)
        return cls(n_arms, cost_low, cost_high, budget, ell=t.ell, n_gamma=t.n_gamma, gamma=gamma, eta=eta, s0=s0,
                   **cls._bound_argument(n_arms, b))

    @classmethod
    def _bound_argument(cls, n_arms: int, b) -> dict:
        return {"mismatch_bound": b}

    def recommend(self) -> Recommendation:
        """The arm to output: the largest lower confidence bound, with its interval (``lem:ci``); see
        :func:`simulate.recommend`."""
        return recommend(self)

    def ucb(self, k: int) -> float:
        """UCB_k = min(UCB^(L)_k, UCB^(H)_k) (``eq:arm-score``)."""
        ucb_low = upper(self.sum_low[k], self.n_low[k], self.ell, self.mismatch_bound(k, int(self.n_low[k])))
        ucb_high = upper(self.sum_high[k], self.n_high[k], self.ell, 0.0)
        return min(ucb_low, ucb_high)

    def continuation_test(self, k: int) -> bool:
        """A_k < S_0 and there is 1 <= s <= S_0 - A_k with V_k(s) = B_k(N) - B_k(N + s) >= 2 eta gamma
        (``eq:continuation-gain``, ``eq:fidelity-selection``)."""
        a, n = int(self.continuation_pulls[k]), int(self.n_low[k])
        if not a < self.s0:
            return False
        b_now = self.mismatch_bound(k, n)
        return any(continuation_gain_passes(b_now, self.mismatch_bound(k, n + s), self.eta, self.gamma)
                   for s in range(1, self.s0 - a + 1))

    def choose(self) -> Action:
        # Lines 5-6: I_t in argmax_k UCB_k (ties to the lowest index). Only the last-updated arm's UCB_k
        # changed since the previous round (ell is fixed for the run), so `index` is kept current in observe().
        k = int(np.argmax(self.index))
        # Line 7: G(N^(L)) >= gamma, decided as N^(L) < N_gamma.
        if self.n_low[k] < self.n_gamma:
            return Action(k, LOW)
        # Line 9: the continuation branch (A_k is incremented when the pull is made, in observe()).
        if self.continuation and self.continuation_test(k):
            return Action(k, LOW, continuation=True)
        # Line 12.
        return Action(k, HIGH)

    def observe(self, action: Action, y: float) -> None:
        k = action.arm
        if action.continuation:
            self.continuation_pulls[k] += 1
        if self.n_low[k] > 0 and self.n_high[k] > 0:
            self.index[k] = self.ucb(k)


class Dnc(Tacc):
    """DNC: TACC without the continuation branch (docs/design.md section 6)."""

    name = "dnc"
    continuation = False


class MfUcb(Tacc):
    """MF-UCB, the static rule: DNC with B_k(n) replaced by zeta_k = B_k(1) (docs/design.md section 6).

    Args: as :class:`Tacc`, with ``zeta`` (K fixed bias bounds) instead of ``mismatch_bound``.
    """

    name = "mf-ucb"
    continuation = False

    def __init__(self, n_arms, cost_low, cost_high, budget, *, ell, n_gamma, gamma, eta, s0, zeta):
        z = np.array(v.float_array("zeta", zeta), dtype=float)
        self.zeta = z
        super().__init__(n_arms, cost_low, cost_high, budget, ell=ell, n_gamma=n_gamma, gamma=gamma, eta=eta,
                         s0=s0,
                         mismatch_bound=lambda k, n: float(z[k]) if np.ndim(n) == 0 else np.full(np.shape(n), z[k]))

    @classmethod
    def _bound_argument(cls, n_arms: int, b) -> dict:
        return {"zeta": [b(k, 1) for k in range(n_arms)]}

    @classmethod
    def from_problem(cls, problem) -> "MfUcb":
        return cls(problem.n_arms, problem.cost_low, problem.cost_high, problem.budget, ell=problem.ell,
                   n_gamma=problem.n_gamma, gamma=problem.gamma, eta=problem.eta, s0=problem.s0,
                   zeta=problem.static_bias)
