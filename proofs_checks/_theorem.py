"""``thm:analysis-main-regret``: its proof (app:proof-thm-tacc-regret) step by step: the regret decomposition,
the three per-class terms from the counts the cited propositions give, and the sum over the partition."""

from __future__ import annotations

import math

import sympy

from bounds import ArmClass, confirmation_count, tacc_regret_bound
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._formula import symbols
from proofs_checks._inference import Inference, Premise, domain
from proofs_checks._step import step, steps_of

_ROUNDS = 3


@step("theorem.decomposition", "thm:analysis-main-regret", "l.1062 (and the regret definition, l.123)",
      note="a trace of 3 rounds over an optimal and a suboptimal arm: a_t = 1 when the suboptimal arm is "
           "queried, h_t = 1 when the query is high fidelity")
def _decomposition():
    lL, lH, D1, NL, NH = symbols("lambda_L lambda_H Delta_1 N_L_1 N_H_1")
    a = symbols(f"a1:{_ROUNDS + 1}", integer=True)
    h = symbols(f"h1:{_ROUNDS + 1}", integer=True)
    c = symbols(f"cost1:{_ROUNDS + 1}")
    g = symbols(f"gap1:{_ROUNDS + 1}")
    return Inference(
        domain(*[x >= 0 for x in a + h], *[x <= 1 for x in a + h])
        + tuple(Premise(f"cost of round {t + 1}", sympy.Eq(c[t], lL * (1 - h[t]) + lH * h[t]),
                        "lambda^(m_t)") for t in range(_ROUNDS))
        + tuple(Premise(f"gap of round {t + 1}", sympy.Eq(g[t], D1 * a[t]),
                        "mu* - mu_{I_t}: Delta_1 for the suboptimal arm, 0 for k*") for t in range(_ROUNDS))
        + (Premise("def N^(L)", sympy.Eq(NL, sum(a[t] * (1 - h[t]) for t in range(_ROUNDS))),
                   "N^(L)_k counts the rounds with I_t = k, m_t = L"),
           Premise("def N^(H)", sympy.Eq(NH, sum(a[t] * h[t] for t in range(_ROUNDS))),
                   "N^(H)_k counts the rounds with I_t = k, m_t = H")),
        sympy.Eq(sum(c[t] * g[t] for t in range(_ROUNDS)), D1 * (lL * NL + lH * NH)), method="exact")


def _arm(name):
    R, D, lL, lH = symbols(f"R_{name} Delta_{name} lambda_L lambda_H")
    NL, NH = symbols(f"N_L_{name} N_H_{name}", integer=True)
    return R, D, lL, lH, NL, NH, (
        Premise("decomposition", sympy.Eq(R, D * (lL * NL + lH * NH)), "l.1062: R_k = Delta_k [lambda_L N^(L) + "
                                                                        "lambda_H N^(H)]"),)


def _costs(D, lL, lH, NL, NH):
    return domain(D >= 0, lL > 0, lH > lL, NL >= 0, NH >= 0)


def _certified(name: str, certificate: Premise, bound):
    """An arm certified by low fidelity (A or C^d): its counts split at the crossing, the pre-threshold count,
    no high query before the crossing, the continuation cap, and the class's certificate (``certificate``, on
    the symbols ``cont``, ``high_after``); conclusion R_k <= Delta_k ``bound(lambda_L, lambda_H, N_gamma, S_0)``."""
    R, D, lL, lH, NL, NH, dec = _arm(name)
    pre, cont, hb, ha, Ng, S0 = symbols("pre cont high_before high_after N_gamma S_0", integer=True)
    return Inference(
        _costs(D, lL, lH, NL, NH) + domain(pre >= 0, cont >= 0, hb >= 0, ha >= 0, Ng >= 1, S0 >= 0) + dec + (
            Premise("counts", sympy.And(sympy.Eq(NL, pre + cont), sympy.Eq(NH, 1 + hb + ha)),
                    "alg:adaptive-mf-mab: one high initialization query; low queries before and after the crossing"),
            Premise("low-query.pre-count", pre <= Ng + 1, "l.1021: at most N_gamma + 1 pre-threshold pulls"),
            Premise("eq:fidelity-selection", sympy.Eq(hb, 0), "no high query while G(N^(L)) >= gamma"),
            Premise("continuation cap", cont <= S0, "eq:fidelity-selection: A_k <= S_0"),
            certificate),
        R <= D * bound(lL, lH, Ng, S0))


_CONT, _HIGH_AFTER = symbols("cont high_after", integer=True)


@step("theorem.A-term", "thm:analysis-main-regret", "l.1081",
      unneeded={"continuation cap": "encoding: an A arm is never selected after the crossing, so its continuation "
                                    "count is 0 whatever the cap"})
def _a_term():
    return _certified("A", Premise("low-query.class-A", sympy.Eq(_CONT + _HIGH_AFTER, 0),
                                   "prop:analysis-low-query-bound (i): certified at the crossing, never selected "
                                   "again"),
                      lambda lL, lH, Ng, S0: lL * (Ng + 1) + lH)


@step("theorem.Cd-term", "thm:analysis-main-regret", "l.1096")
def _cd_term():
    return _certified("Cd", Premise("eq:app-analysis-Cdet", sympy.Eq(_HIGH_AFTER, 0),
                                    "no high query while N_gamma <= N^(L) < tau_k; certified at tau_k, never "
                                    "selected again (prop:analysis-low-query-bound (ii))"),
                      lambda lL, lH, Ng, S0: lL * (Ng + S0 + 1) + lH)


@step("theorem.H-term", "thm:analysis-main-regret", "l.1110-1120",
      note="the counts are the two cited propositions' conclusions; the step multiplies them by the costs")
def _h_term():
    R, D, lL, lH, NL, NH, dec = _arm("H")
    Ng, S0 = symbols("N_gamma S_0", integer=True)
    ell = symbols("ell")
    return Inference(
        _costs(D, lL, lH, NL, NH) + domain(Ng >= 1, S0 >= 0, ell > 0, D > 0) + dec + (
            Premise("prop:analysis-low-query-bound", NL <= Ng + S0 + 1, "eq:analysis-low-query-bound"),
            Premise("prop:analysis-high-selection", NH <= 1 + sympy.ceiling(4 * ell / D ** 2),
                    "eq:analysis-high-query-bound")),
        R <= D * (lL * (Ng + S0 + 1) + lH * (1 + sympy.ceiling(4 * ell / D ** 2))))


def _bound_a(D, lL, lH, Ng):
    return D * (lL * (Ng + 1) + lH)


def _bound_cd(D, lL, lH, Ng, S0):
    return D * (lL * (Ng + S0 + 1) + lH)


def _bound_h(D, lL, lH, Ng, S0, ell):
    return D * (lL * (Ng + S0 + 1) + lH * (1 + sympy.ceiling(4 * ell / D ** 2)))


def _sum_consistency(_r) -> str:
    def code(g1, g2, g3, ng, s0, e, cl, ch):
        return tacc_regret_bound([0.0, g1, g2, g3], [ArmClass.OPTIMAL, ArmClass.A, ArmClass.C_D, ArmClass.B],
                                 n_gamma=ng, s0=s0, ell=e, cost_low=cl, cost_high=ch).total

    def checked(g1, g2, g3, ng, s0, e, cl, ch):
        return math.fsum([g1 * (cl * (ng + 1) + ch), g2 * (cl * (ng + s0 + 1) + ch),
                          g3 * (cl * (ng + s0 + 1) + ch * (1 + confirmation_count(e, g3)))])

    r0 = rng(3)
    pts = [(r0.uniform(0.01, 1), r0.uniform(0.01, 1), r0.uniform(0.01, 1), r0.randint(1, 10**5), r0.randint(0, 200),
            r0.uniform(0.1, 100), r0.choice([1.0, 2.0]), r0.choice([10.0, 50.0, 500.0])) for _ in range(POINTS)]
    return agree("bounds.tacc_regret_bound", code, checked, pts, rel=1e-9)


@step("theorem.sum", "thm:analysis-main-regret", "l.1135, eq:analysis-main-regret (l.432)",
      note="one arm per class (A, C^d, H) besides the optimal arm", consistency=_sum_consistency)
def _sum():
    R, RA, RC, RH, DA, DC, DH, lL, lH, ell = symbols("R R_A R_Cd R_H Delta_A Delta_Cd Delta_H lambda_L lambda_H ell")
    Ng, S0 = symbols("N_gamma S_0", integer=True)
    bA, bC, bH = _bound_a(DA, lL, lH, Ng), _bound_cd(DC, lL, lH, Ng, S0), _bound_h(DH, lL, lH, Ng, S0, ell)
    return Inference(
        domain(lL > 0, lH > lL, Ng >= 1, S0 >= 0, ell > 0, DA > 0, DC > 0, DH > 0) + (
            Premise("decomposition", sympy.Eq(R, RA + RC + RH), "l.1062: R = sum over k != k* of R_k"),
            Premise("theorem.A-term", RA <= bA, "l.1081"),
            Premise("theorem.Cd-term", RC <= bC, "l.1096"),
            Premise("theorem.H-term", RH <= bH, "l.1120")),
        R <= _bound_a(DA, lL, lH, Ng) + _bound_cd(DC, lL, lH, Ng, S0) + _bound_h(DH, lL, lH, Ng, S0, ell))


STEPS = steps_of(globals())
