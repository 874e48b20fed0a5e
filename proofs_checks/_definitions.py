"""Definitions that carry conventions (the horizon, the arm partition, the continuation block, the hitting
time's last-query convention, the power-decay rate) and the RDFE bookkeeping the theorem's proof sums."""

from __future__ import annotations

import sympy

from proofs_checks._formula import symbols
from proofs_checks._inference import Inference, Premise, domain
from proofs_checks._step import step, steps_of


@step("def.horizon", "sec:problem", "l.120 (T_Lambda = ceil(Lambda / lambda_L) 'upper bounds the total number of "
      "queries')", slack={"ceiling(Lambda/lambda_L) -> floor(Lambda/lambda_L)":
                          "at most floor(Lambda / lambda_L) queries fit in the budget; the ceiling is one more when "
                          "Lambda / lambda_L is not an integer (harmless: T enters only log(2KT/delta))"},
      toolkit="bounds.horizon keeps the paper's ceil(Lambda / lambda_L)")
def _horizon():
    t = symbols("t", integer=True)
    lam, lL, lH, C = symbols("Lambda lambda_L lambda_H C_t")
    return Inference(
        domain(t >= 0, lL > 0, lH > lL, lam > 0) + (
            Premise("each query costs >= lambda_L", C >= t * lL, "C_t = sum of lambda^(m_s) >= t lambda_L"),
            Premise("within budget", C <= lam, "the regret sums over rounds with C_t <= Lambda")),
        t <= sympy.ceiling(lam / lL))


@step("def.partition", "eq:analysis-arm-partition", "l.339-358",
      note="tau_k = infinity is encoded as a count beyond N_gamma + S_0 (class B)")
def _partition():
    tau, Ng, S0 = symbols("tau N_gamma S_0", integer=True)
    a, b, c = tau <= Ng, tau > Ng + S0, sympy.And(Ng < tau, tau <= Ng + S0)
    return Inference(
        domain(tau >= 1, Ng >= 1) + (Premise("S_0 >= 0", S0 >= 0, "alg:adaptive-mf-mab: S_0 is a count"),),
        sympy.And(sympy.Or(a, b, c), sympy.Not(sympy.And(a, b)), sympy.Not(sympy.And(a, c)),
                  sympy.Not(sympy.And(b, c))))


@step("alg.continuation-block", "eq:fidelity-selection", "l.271 ('a full continuation block costs no more than "
      "one high-fidelity query')")
def _block():
    A, S0 = symbols("A S_0", integer=True)
    lL, lH = symbols("lambda_L lambda_H")
    return Inference(
        domain(A >= 0, lL > 0, lH > 0) + (
            Premise("S_0 lambda_L <= lambda_H", S0 * lL <= lH, "l.271"),
            Premise("cap", A <= S0, "eq:fidelity-selection: A_k <= S_0")),
        A * lL <= lH)


@step("def.hit-time", "eq:app-analysis-hit-time", "l.954-965 (a query at round T_Lambda that reaches tau_k has "
      "hitting time T_Lambda + 1)")
def _hit_time():
    T, h, NT, NT1, tau = symbols("T h N_T N_T_plus_1 tau", integer=True)
    return Inference(
        domain(T >= 1, tau >= 1, h >= 1) + (
            Premise("counts before round t", sympy.Eq(NT1, NT + 1),
                    "N_{k,t} counts queries before round t; round T queries k at low fidelity"),
            Premise("not reached before the query", NT < tau, "N_{k,T} < tau_k"),
            Premise("the query reaches tau", NT + 1 >= tau, "the low query at round T is the tau_k-th"),
            Premise("hitting time", sympy.And(sympy.Implies(NT < tau, h > T), sympy.Implies(NT1 >= tau, h <= T + 1)),
                    "T^tau_k = inf{t : N_{k,t} >= tau_k}: not T (N_T < tau), at most T + 1")),
        sympy.Eq(h, T + 1))


@step("rdfe-thm.phase-sum", "thm:app-rdfe-regret", "l.1557-1561 ('Applying Lemma phase by phase')",
      note="three phases; Delta Lambda_{k,r} = 0 for a phase where k is not active (l.1417)")
def _phase_sum():
    d = symbols("dLambda1:4")
    c = symbols("cstar1:4")
    return Inference(
        tuple(Premise(f"lem:app-rdfe-phase-cost (r = {i + 1})", d[i] <= c[i], "l.1492") for i in range(3)),
        sum(d) <= sum(c))


@step("fact.power-rate", "ass:plugin", "l.492, l.1592 (B_k(n) = O(n^-r) for the power-decay model)",
      note="x = n^-r; P(n) = sum_{tau<=n} tau^-r <= n^(1-r)/(1-r) = n x/(1-r) for 0 < r < 1 (integral "
           "comparison, stated as a premise): B_k(n) = zeta P(n)/n <= zeta n^-r/(1-r)")
def _power_rate():
    B, z, P, n, x, r = symbols("B_n zeta P_n n x r")
    return Inference(
        domain(n >= 1, x > 0, z >= 0, r > 0, r < 1) + (
            Premise("fact.power-B-exact", sympy.Eq(B, z * P / n), "B_k(n) = U_k(n)/n = zeta P(n)/n"),
            Premise("integral comparison", P <= n * x / (1 - r), "sum_{tau<=n} tau^-r <= int_0^n t^-r dt")),
        B <= z * x / (1 - r))


STEPS = steps_of(globals())
