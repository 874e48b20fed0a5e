"""RDFE (``app:benchmark-rdfe``): the three lemmas and the theorem, their proofs step by step."""

from __future__ import annotations

import math

import sympy

from bounds import power_decay, rdfe_oracle_cost, rdfe_phase_index, rdfe_regret_bound
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._formula import symbols
from proofs_checks._inference import Inference, Premise, domain
from proofs_checks._step import step, steps_of


@step("rdfe-width.stopping", "lem:app-rdfe-phase-width", "l.1439-1446")
def _width():
    m, rad, e, U, L = symbols("mu_hat rad eps UCB LCB")
    return Inference(
        domain(e > 0, rad >= 0) + (
            Premise("stopping rule", rad <= e / 8, "alg:app-rdfe: G(N) + B_k(N) <= eps_r/8 (low) or G(N) <= "
                                                   "eps_r/8 (high)"),
            Premise("interval", sympy.And(sympy.Eq(U, m + rad), sympy.Eq(L, m - rad)),
                    "alg:app-rdfe: UCB, LCB = mu_hat +- rad")),
        U - L <= e / 4)


@step("rdfe-width.consequence", "lem:app-rdfe-phase-width", "l.1429")
def _width_consequence():
    L, U, mu, e = symbols("LCB UCB mu eps")
    return Inference(
        (Premise("lem:ci (coverage)", sympy.And(L <= mu, mu <= U), "lem:ci: mu_k in [LCB, UCB]"),
         Premise("rdfe-width.stopping", U - L <= e / 4, "l.1423")),
        sympy.And(L >= mu - e / 4, U <= mu + e / 4))


@step("rdfe-elim.chain", "lem:app-rdfe-elim", "l.1457-1473")
def _elim():
    Uk, mk, Ls, ms, Lh, e, D = symbols("UCB_k mu_k LCB_star mu_star LCB_hat eps Delta")
    return Inference(
        domain(e > 0) + (
            Premise("width (k)", Uk <= mk + e / 4, "lem:app-rdfe-phase-width for k (l.1457)"),
            Premise("width (k*)", Ls >= ms - e / 4, "lem:app-rdfe-phase-width for k* (l.1461)"),
            Premise("argmax LCB", Lh >= Ls, "hat k_r maximises LCB over S_r, k* in S_r (rdfe-elim.optimal-survives)"),
            Premise("def Delta", sympy.Eq(D, ms - mk), "Delta_k = mu* - mu_k"),
            Premise("Delta >= eps", D >= e, "the lemma's hypothesis")),
        sympy.And(Lh - e / 4 >= ms - e / 2, Uk <= ms - 3 * e / 4, Uk < Lh - e / 4))


@step("rdfe-elim.optimal-survives", "lem:app-rdfe-elim", "l.1465 (LCB_{hat k} >= LCB_{k*} needs k* in S_r)",
      note="used by the proof without being stated: k* passes every survival test, by induction over phases",
      slack=dict.fromkeys(("UCB_star >= LCB_hat - eps/4 made UCB_star > LCB_hat - eps/4",
                           "term -eps/4 dropped from LCB_hat - eps/4", "constant -1/4 -> -1/8 in -eps/4",
                           "constant -1/4 -> -9/40 in -eps/4"),
                          "k* survives without the eps/4 margin: UCB_{k*} >= mu* >= mu_leader >= LCB_leader"),
      toolkit="the RDFE engines keep the paper's survival test UCB_k >= LCB_leader - eps_r/4")
def _optimal_survives():
    Us, ms, mh, Lh, e = symbols("UCB_star mu_star mu_hat_arm LCB_hat eps")
    return Inference(
        domain(e > 0) + (
            Premise("lem:ci (k*)", Us >= ms, "UCB_{k*} >= mu*"),
            Premise("k* optimal", ms >= mh, "mu* >= mu of the LCB leader"),
            Premise("lem:ci (leader)", mh >= Lh, "mu of the leader >= its LCB")),
        Us >= Lh - e / 4)


@step("rdfe-cost.phase", "lem:app-rdfe-phase-cost", "l.1492-1509",
      note="the phase queries from the carried-over count n_0 up to max(n_0, n_r), n_r the from-scratch "
           "stopping count of the cheaper fidelity")
def _phase_cost():
    n0, nL, nH = symbols("n0 n_L n_H", integer=True)
    lL, lH, cost = symbols("lambda_L lambda_H phase_cost")
    cheap_low = lL * nL <= lH * nH
    spent = sympy.Piecewise((lL * sympy.Max(nL - n0, 0), cheap_low), (lH * sympy.Max(nH - n0, 0), True))
    return Inference(
        domain(n0 >= 0, nL >= 1, nH >= 1, lL > 0, lH > 0) + (
            Premise("phase cost", sympy.Eq(cost, spent),
                    "alg:app-rdfe: the cheaper fidelity, queried from n_0 until its stopping count"),),
        cost <= sympy.Min(lL * nL, lH * nH))


def _monotone_consistency(_r) -> str:
    m = power_decay([0.9, 0.5], zeta=0.3, r=0.5, signs=[1, 1])
    r0 = rng(6)
    pts = [(r0.uniform(0.01, 1), r0.uniform(1.0, 2.0)) for _ in range(POINTS // 4)]

    def code(e, f):   # c^*(f e) <= c^*(e) for f >= 1
        return rdfe_oracle_cost(m, 1, e * f, 2.0, 1.0, 10.0) <= rdfe_oracle_cost(m, 1, e, 2.0, 1.0, 10.0)

    return agree("bounds.rdfe_oracle_cost (nonincreasing in eps)", code, lambda e, f: True, pts)


@step("rdfe.oracle-monotone", "ass:app-rdfe-dyadic", "l.1299-1320 (definitions of c^(L), c^(H), c^*)",
      note="c_k^*(eps) is nonincreasing in eps: a count that stops at eps' stops at every eps >= eps'",
      consistency=_monotone_consistency)
def _monotone():
    x, e1, e2 = symbols("G_plus_B eps_small eps_large")
    return Inference(
        domain(e1 > 0) + (
            Premise("eps_large >= eps_small", e2 >= e1, "two resolutions"),
            Premise("stops at eps_small", x <= e1 / 8, "the stopping condition at eps_small")),
        x <= e2 / 8)


@step("rdfe-thm.eliminated-by-rk", "thm:app-rdfe-regret", "l.1552-1556",
      slack={"Delta >= eps_rk made Delta > eps_rk": "r_k = min{r : eps_r <= Delta_k/2} is a factor 2 finer than "
                                                   "lem:app-rdfe-elim needs (eps_r <= Delta_k already eliminates)"},
      toolkit="bounds.rdfe_phase_index keeps the paper's r_k = min{r : eps_r <= Delta_k / 2}")
def _by_rk():
    e, D = symbols("eps_rk Delta")
    return Inference(
        domain(D > 0, e > 0) + (Premise("def r_k", e <= D / 2, "r_k = min{r : eps_r <= Delta_k / 2}"),),
        D >= e)


def _terminal_hyps():
    r = symbols("r_k", integer=True)
    D, e = symbols("Delta eps_rk")
    return r, D, e, domain(D > 0, r >= 1, e > 0) + (
        Premise("r_k in its set", e <= D / 2, "eps_{r_k} <= Delta_k / 2"),
        Premise("r_k least", sympy.Or(sympy.Eq(r, 1), 2 * e > D / 2), "eps_{r_k - 1} = 2 eps_{r_k} > Delta_k / 2"),
        Premise("eps_1", sympy.Implies(sympy.Eq(r, 1), sympy.Eq(e, sympy.Rational(1, 2))), "eps_1 = 2^-1"))


def _terminal_consistency(_r) -> str:
    def code(g):
        b = rdfe_regret_bound(power_decay([g, 0.0], zeta=0.0, r=0.5, signs=[1, 1]), [0.0, g], ell=1.0,
                              cost_low=1.0, cost_high=2.0)
        return b.paper_form_valid[1]

    r0 = rng(7)
    pts = [(r0.uniform(0.01, 6.0),) for _ in range(POINTS // 4)]
    return agree("bounds.rdfe_regret_bound.paper_form_valid", code,
                 lambda g: math.ldexp(1.0, -int(rdfe_phase_index(g))) >= g / 4, pts, extra=[(3.0,), (2.0,)])


def _terminal_corrected():
    r, D, e, hyps = _terminal_hyps()
    return Inference(hyps, e >= sympy.Min(D / 4, sympy.Rational(1, 2)))


@step("rdfe-thm.terminal-vs-quarter", "thm:app-rdfe-regret", "l.1561-1565",
      finding="c_k^*(eps_{r_k}) <= c_k^*(Delta_k/4) needs eps_{r_k} >= Delta_k/4 (c^* nonincreasing, "
              "rdfe.oracle-monotone); for Delta_k > 2, r_k = 1 and eps_1 = 1/2 < Delta_k/4 (means need not lie in "
              "[0, 1]: Set B has N(0, 1) means)",
      corrected=_terminal_corrected,
      corrected_text="c_k^*(eps_{r_k}) <= c_k^*(min(Delta_k/4, 1/2)); as written for Delta_k <= 2",
      toolkit="bounds.rdfe_regret_bound's total uses c_k^*(min(Delta_k/4, 1/2)) and reports paper_form_valid",
      consistency=_terminal_consistency)
def _terminal():
    r, D, e, hyps = _terminal_hyps()
    return Inference(hyps, e >= D / 4)


def _warm_consistency(_r) -> str:
    b = rdfe_regret_bound(power_decay([3.0, 0.0], zeta=0.0, r=0.5, signs=[1, 1]), [0.0, 3.0], ell=1.0,
                          cost_low=1.0, cost_high=2.0)
    return (f"bounds.rdfe_regret_bound reports C_2 = max_k Delta_k = {b.c2:g} on one arm with Delta = 3"
            + ("" if b.c2 == 3.0 else " (DISAGREES: expected 3)"))


def _warm(corrected: bool) -> Inference:
    D, C2, lL, lH, W = symbols("Delta_max C_2 lambda_L lambda_H warm_regret")
    c2 = (Premise("C_2 = max Delta", C2 >= D, "corrected: C_2 = max_k Delta_k") if corrected else
          Premise("an absolute constant", sympy.Eq(C2, 1), "'for some absolute constants': one value, here 1"))
    return Inference(
        domain(lL > 0, lH > 0, D >= 0) + (
            Premise("warm start", sympy.Eq(W, D * (lL + lH)),
                    "one low and one high query of the arm: regret Delta_k (lambda_L + lambda_H)"), c2),
        W <= C2 * (lL + lH))


@step("rdfe-thm.warm-start", "thm:app-rdfe-regret", "l.1578-1581",
      finding="the warm start costs Delta_k (lambda_L + lambda_H) per arm: covered by C_2 (lambda_L + lambda_H) "
              "only when C_2 >= max_k Delta_k, which no absolute constant is when means are unbounded",
      corrected=lambda: _warm(True), corrected_text="C_2 = max_k Delta_k (<= 1 when means lie in [0, 1])",
      toolkit="bounds.rdfe_regret_bound uses C_2 = max_k Delta_k, sufficient: it covers every arm's warm start "
              "Delta_k (lambda_L + lambda_H); no witness that the theorem's total needs as much",
      consistency=_warm_consistency)
def _warm_start():
    return _warm(False)


@step("rdfe-thm.sum", "thm:app-rdfe-regret", "l.1552-1581", note="two suboptimal arms")
def _sum():
    d1, d2, s1, s2, t1, t2, C1, C2, lL, lH, R = symbols("D1 D2 S1 S2 c1 c2 C_1 C_2 lambda_L lambda_H R")
    return Inference(
        domain(d1 >= 0, d2 >= 0, t1 >= 0, t2 >= 0, lL > 0, lH > 0) + (
            Premise("cost to regret", sympy.Eq(R, d1 * (s1 + lL + lH) + d2 * (s2 + lL + lH)),
                    "every unit of cost on arm k adds Delta_k; S_k the phase costs, plus the warm start"),
            Premise("ass:app-rdfe-dyadic", sympy.And(s1 <= C1 * t1, s2 <= C1 * t2),
                    "sum of phase costs <= C_dyad c_k^*(.) (lem:app-rdfe-phase-cost, C_1 >= C_dyad)"),
            Premise("C_2", sympy.And(C2 >= d1, C2 >= d2), "rdfe-thm.warm-start, corrected")),
        R <= C1 * (d1 * t1 + d2 * t2) + C2 * 2 * (lL + lH))


STEPS = steps_of(globals())
