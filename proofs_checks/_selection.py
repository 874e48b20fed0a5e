"""``prop:analysis-low-selection`` and ``prop:analysis-high-selection``: their proofs
(app:proof-prop-low-selection, app:proof-prop-high-selection) step by step."""

from __future__ import annotations

from fractions import Fraction

import sympy

from bounds import high_query_bound
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._formula import symbols
from proofs_checks._inference import Inference, Premise, domain
from proofs_checks._step import step, steps_of


@step("low-selection.necessary", "prop:analysis-low-selection", "l.800-824")
def _necessary():
    uL, uH, sL, sH, mu = symbols("UCB_L_k UCB_H_k UCB_L_star UCB_H_star mu_star")
    return Inference(
        (Premise("I_t = k", sympy.Min(uL, uH) >= sympy.Min(sL, sH),
                 "eq:arm-score: I_t in argmax_j min(UCB^(L)_j, UCB^(H)_j), so UCB_k >= UCB_{k*}"),
         Premise("lem:ci (L) for k*", sL >= mu, "lem:ci: mu* in [LCB^(L)_{k*}, UCB^(L)_{k*}]"),
         Premise("lem:ci (H) for k*", sH >= mu, "lem:ci: mu* in [LCB^(H)_{k*}, UCB^(H)_{k*}]")),
        sympy.And(sympy.Min(sL, sH) >= mu, sympy.Min(uL, uH) >= mu, uL >= mu))


@step("low-selection.chain", "prop:analysis-low-selection", "l.828-858")
def _low_chain():
    mu, uL, mh, mb, G, B, DL = symbols("mu_star UCB_L_k muhat_L barmu_L G B DeltaL")
    return Inference(
        (Premise("low-selection.necessary", mu <= uL, "l.824: UCB^(L)_{k,t} >= mu*"),
         Premise("def UCB^(L)", sympy.Eq(uL, mh + G + B), "eq:fidelity-confidence-bounds (l.828)"),
         Premise("lem:ci (L)", mh <= mb + G, "lem:ci, on E (l.838)"),
         Premise("def Delta^(L)", sympy.Eq(DL, mu - mb - B), "eq:effective-low-gap")),
        sympy.And(mu <= mb + 2 * G + B, 2 * G >= DL))


@step("low-selection.consequence", "prop:analysis-low-selection", "l.866-872")
def _consequence():
    G, DL, g = symbols("G DeltaL gamma")
    sel = symbols("selected", integer=True)
    return Inference(
        domain(sel >= 0, sel <= 1) + (
            Premise("G < gamma", G < g, "the proposition's hypothesis"),
            Premise("certificate", DL >= 2 * g, "the proposition's hypothesis: Delta^(L)(N) >= 2 gamma"),
            Premise("low-selection.chain", sympy.Implies(sympy.Eq(sel, 1), 2 * G >= DL),
                    "selected => 2 G(N) >= Delta^(L)(N) (l.858)")),
        sympy.And(2 * G < 2 * g, 2 * g <= DL, sympy.Eq(sel, 0)))


@step("high-selection.chain", "prop:analysis-high-selection", "l.887-925")
def _high_chain():
    uL, uH, mu, mh, m, G, D = symbols("UCB_L_k UCB_H_k mu_star muhat_H mu_H G Delta")
    return Inference(
        (Premise("low-selection.necessary", sympy.Min(uL, uH) >= mu, "l.887: UCB_{k,t} >= mu* (the same argument)"),
         Premise("def UCB^(H)", sympy.Eq(uH, mh + G), "eq:fidelity-confidence-bounds (l.899)"),
         Premise("lem:ci (H)", mh <= m + G, "lem:ci, on E (l.907)"),
         Premise("def Delta_k", sympy.Eq(D, mu - m), "sec:problem: Delta_k = mu* - mu_k^(H)")),
        sympy.And(uH >= mu, mu <= m + 2 * G, 2 * G >= D))


@step("high-selection.count", "prop:analysis-high-selection", "l.929-933")
def _count():
    n, ell, D, g = symbols("n ell Delta G")
    return Inference(
        domain(n >= 1, ell > 0, D > 0) + (
            Premise("def G", sympy.And(g >= 0, sympy.Eq(g ** 2 * n, ell)), "G(n) = sqrt(ell / n) (sec:theory)"),
            Premise("high-selection.chain", 2 * g >= D, "l.925: 2 G(n) >= Delta_k")),
        n <= 4 * ell / D ** 2)


def _total_consistency(_r) -> str:
    pts = [(r.uniform(0.01, 50), r.uniform(0.01, 2)) for r in [rng(2)] for _ in range(POINTS)]
    return agree("bounds.high_query_bound", lambda e, d: high_query_bound(e, d),
                 lambda e, d: 1 + -((-4 * Fraction(e)) // Fraction(d) ** 2), pts, extra=[(1.0, 0.5)])


@step("high-selection.total", "prop:analysis-high-selection", "l.941, eq:analysis-high-query-bound (l.779)",
      slack={"ceiling(4*ell/Delta**2) -> floor(4*ell/Delta**2)":
             "the argument proves N^(H) <= 1 + floor(4 ell / Delta^2), one query less than the paper whenever "
             "4 ell / Delta^2 is not an integer (the `tacc check` control claim uses the floor form)"},
      toolkit="bounds.high_query_bound keeps the paper's 1 + ceil(4 ell / Delta^2); the argument proves "
              "1 + floor(4 ell / Delta^2) (the slack above)",
      consistency=_total_consistency)
def _total():
    N = symbols("N_H", integer=True)
    ell, D, g = symbols("ell Delta G_last")
    return Inference(
        domain(N >= 1, ell > 0, D > 0) + (
            Premise("the last query", sympy.Implies(N >= 2, sympy.And(g >= 0, sympy.Eq(g ** 2 * (N - 1), ell),
                                                                       2 * g >= D)),
                    "l.937: the first high query is the initialization; every later one, the last at count "
                    "N - 1, is made with 2 G(count) >= Delta_k (high-selection.chain)"),),
        N <= 1 + sympy.ceiling(4 * ell / D ** 2))


STEPS = steps_of(globals())
