"""``prop:analysis-low-query-bound`` and the definition of N_gamma, step by step."""

from __future__ import annotations

import z3

from proofs_checks._solvers import implies
from proofs_checks._step import Outcome, StepResult, step, steps_of


@step("low-query.pre-threshold", "prop:analysis-low-query-bound",
      "G(N) >= gamma  =>  N < N_gamma  (low fidelity before the crossing only while G >= gamma)",
      "N_gamma = min{n >= 1 : G(n) < gamma}; G(n) = sqrt(ell / n) decreasing; N, N_gamma integers >= 1",
      "z3 (integers, nonlinear reals)")
def _pre():
    N, Ng = z3.Ints("N N_gamma")
    ell, gam, gN, gNg = z3.Reals("ell gamma G_N G_Ngamma")
    hyps = [N >= 1, Ng >= 1, ell > 0, gam > 0, gN >= 0, gNg >= 0, gN * gN * N == ell, gNg * gNg * Ng == ell,
            gNg < gam, gN >= gam]
    return implies(hyps, N < Ng)


@step("low-query.total", "prop:analysis-low-query-bound",
      "N^(L)_{k,T} <= N_gamma + S_0 + 1  (eq:analysis-low-query-bound)",
      "low queries before the crossing are made at counts 0 .. N_gamma - 1 (the start included): at most "
      "N_gamma of them; after it only continuation pulls, A_k <= S_0", "z3 (integers)")
def _total():
    pre, A, Ng, S0 = z3.Ints("pre A N_gamma S0")
    hyps = [Ng >= 1, S0 >= 0, pre >= 0, pre <= Ng, A >= 0, A <= S0]
    paper = implies(hyps, pre + A <= Ng + S0 + 1)
    tight = implies(hyps, pre + A <= Ng + S0)
    if paper.outcome is Outcome.PROVED and tight.outcome is Outcome.PROVED:
        return StepResult(Outcome.PROVED, "z3; the count is at most N_gamma + S_0 (the '+1' is slack; runs reach "
                                          "N_gamma + S_0 exactly)")
    return paper


@step("low-query.class-A", "prop:analysis-low-query-bound",
      "k in A_gamma (tau_k <= N_gamma)  =>  at N^(L) = N_gamma: G < gamma and Delta^(L) >= 2 gamma (certified)",
      "ass:mono-cert: Delta^(L)(m) >= 2 gamma for m in [tau_k, N_gamma + S_0]; G(N_gamma) < gamma",
      "z3 (integers, uninterpreted Delta^(L))")
def _class_a():
    D = z3.Function("DeltaL", z3.IntSort(), z3.RealSort())
    tau, Ng, S0, m = z3.Ints("tau N_gamma S0 m")
    gam, G = z3.Reals("gamma G_Ngamma")
    mono = z3.ForAll([m], z3.Implies(z3.And(m >= tau, m <= Ng + S0), D(m) >= 2 * gam))
    return implies([tau >= 1, tau <= Ng, S0 >= 0, gam > 0, G < gam, mono],
                   z3.And(G < gam, D(Ng) >= 2 * gam))


@step("low-query.class-Cd", "prop:analysis-low-query-bound",
      "k in C^d_gamma reaches tau_k <= N_gamma + S_0, and the certificate holds at every later count in the "
      "window, so prop:analysis-low-selection rules it out",
      "ass:mono-cert on [tau_k, N_gamma + S_0]; N^(L) <= N_gamma + S_0 afterwards (low-query.total)",
      "z3 (integers, uninterpreted Delta^(L))")
def _class_cd():
    D = z3.Function("DeltaL", z3.IntSort(), z3.RealSort())
    tau, Ng, S0, m, n = z3.Ints("tau N_gamma S0 m n")
    gam = z3.Real("gamma")
    mono = z3.ForAll([m], z3.Implies(z3.And(m >= tau, m <= Ng + S0), D(m) >= 2 * gam))
    return implies([Ng >= 1, tau > Ng, tau <= Ng + S0, gam > 0, mono, n >= tau, n <= Ng + S0],
                   D(n) >= 2 * gam)


STEPS = steps_of(globals())
