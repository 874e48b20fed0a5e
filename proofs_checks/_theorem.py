"""``thm:analysis-main-regret``: the regret decomposition, the three per-class terms, the sum."""

from __future__ import annotations

import itertools
import math

import sympy
import z3

from bounds import ArmClass, confirmation_count, tacc_regret_bound
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._solvers import identity, implies
from proofs_checks._step import Outcome, StepResult, step, steps_of


@step("theorem.decomposition", "thm:analysis-main-regret",
      "R(Lambda) = sum_t lambda^(m_t) (mu* - mu_{I_t}) = sum_{k != k*} Delta_k [lambda_L N^(L)_k + lambda_H N^(H)_k]",
      "the sum over rounds regrouped by (arm, fidelity); Delta_{k*} = 0", "sympy (every trace of length 4, K = 2)")
def _decomposition():
    lL, lH, d0, d1 = sympy.symbols("lambda_L lambda_H Delta_0 Delta_1", nonnegative=True)
    gaps, cost = (0, d1), (lL, lH)
    for trace in itertools.product(range(2), range(2), repeat=4):
        pairs = list(zip(trace[0::2], trace[1::2]))
        per_round = sum(cost[m] * gaps[k] for k, m in pairs)
        counts = {(k, m): sum(1 for p in pairs if p == (k, m)) for k in range(2) for m in range(2)}
        per_arm = sum(gaps[k] * (lL * counts[k, 0] + lH * counts[k, 1]) for k in range(2))
        r = identity(per_round, per_arm)
        if r.outcome is not Outcome.PROVED:
            return StepResult(Outcome.UNKNOWN, f"trace {pairs}: {r.detail}")
    return StepResult(Outcome.PROVED,
                      "sympy: equal on each of the 256 traces of 4 queries over 2 arms and 2 fidelities")


def _term(nl, nh):
    D, lL, lH, NL, NH = z3.Reals("Delta lambda_L lambda_H N_L N_H")
    return implies([D >= 0, lL > 0, lH > 0, NL >= 0, NH >= 0, NL <= nl, NH <= nh],
                   D * (lL * NL + lH * NH) <= D * (lL * nl + lH * nh))


@step("theorem.A-term", "thm:analysis-main-regret",
      "k in A: R_k <= Delta_k [lambda_L (N_gamma + 1) + lambda_H]",
      "N^(L) <= N_gamma + 1 (prop:analysis-low-query-bound), N^(H) <= 1 (certified by low fidelity)", "z3")
def _a_term():
    Ng = z3.Real("N_gamma")
    return _term(Ng + 1, 1)


@step("theorem.Cd-term", "thm:analysis-main-regret",
      "k in C^d: R_k <= Delta_k [lambda_L (N_gamma + S_0 + 1) + lambda_H]",
      "N^(L) <= N_gamma + S_0 + 1, N^(H) <= 1", "z3")
def _cd_term():
    Ng, S0 = z3.Reals("N_gamma S0")
    return _term(Ng + S0 + 1, 1)


@step("theorem.H-term", "thm:analysis-main-regret",
      "k in H: R_k <= Delta_k [lambda_L (N_gamma + S_0 + 1) + lambda_H (1 + ceil(4 ell / Delta_k^2))]",
      "N^(L) <= N_gamma + S_0 + 1, N^(H) <= 1 + ceil(4 ell / Delta_k^2)", "z3")
def _h_term():
    Ng, S0, c = z3.Reals("N_gamma S0 ceil_4ell_over_Delta2")
    return _term(Ng + S0 + 1, 1 + c)


@step("theorem.sum", "thm:analysis-main-regret",
      "R(Lambda) <= sum_A ... + sum_{C^d} ... + sum_{B u C^u} ... (eq:analysis-main-regret)",
      "the per-arm bounds, summed over the partition", "sympy identity + bounds.tacc_regret_bound")
def _sum():
    lL, lH, Ng, S0, ell = sympy.symbols("lambda_L lambda_H N_gamma S0 ell", positive=True)
    d = sympy.symbols("Delta_1:4", positive=True)
    c3 = sympy.ceiling(4 * ell / d[2] ** 2)
    terms = [d[0] * (lL * (Ng + 1) + lH), d[1] * (lL * (Ng + S0 + 1) + lH), d[2] * (lL * (Ng + S0 + 1) + lH * (1 + c3))]
    stated = (d[0] * (lL * (Ng + 1) + lH) + d[1] * (lL * (Ng + S0 + 1) + lH)
              + d[2] * (lL * (Ng + S0 + 1) + lH * (1 + c3)))
    r = identity(sum(terms), stated)

    def code(g1, g2, g3, ng, s0, e, cl, ch):
        return tacc_regret_bound([0.0, g1, g2, g3], [ArmClass.OPTIMAL, ArmClass.A, ArmClass.C_D, ArmClass.B],
                                 n_gamma=ng, s0=s0, ell=e, cost_low=cl, cost_high=ch).total

    def checked(g1, g2, g3, ng, s0, e, cl, ch):
        return math.fsum([g1 * (cl * (ng + 1) + ch), g2 * (cl * (ng + s0 + 1) + ch),
                          g3 * (cl * (ng + s0 + 1) + ch * (1 + confirmation_count(e, g3)))])

    r0 = rng(3)
    pts = [(r0.uniform(0.01, 1), r0.uniform(0.01, 1), r0.uniform(0.01, 1), r0.randint(1, 10**5), r0.randint(0, 200),
            r0.uniform(0.1, 100), r0.choice([1.0, 2.0]), r0.choice([10.0, 50.0, 500.0])) for _ in range(POINTS)]
    return StepResult(r.outcome, r.detail, consistency=agree("bounds.tacc_regret_bound", code, checked, pts,
                                                             rel=1e-9))


STEPS = steps_of(globals())
