"""``cor:analysis-main-regret-order``: the substitutions in the text before it and the steps of its proof
(app:proof-regret-Corollary). O(.) statements are checked with explicit constants."""

from __future__ import annotations

import math
from fractions import Fraction

import sympy

from bounds import ArmClass, corollary_order, n_gamma
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._formula import symbols
from proofs_checks._inference import Inference, Premise, domain
from proofs_checks._step import step, steps_of


def _n_gamma_def(ell, gam):
    """N_gamma from its definition min{n >= 1 : sqrt(ell / n) < gamma}: n > ell / gamma^2, so floor + 1."""
    return math.floor(Fraction(ell) / Fraction(gam) ** 2) + 1


def _definition():
    N = symbols("N_gamma", integer=True)
    x = symbols("ell_over_gamma2")
    return N, x, domain(x > 0, N >= 1) + (
        Premise("N_gamma in the set", N > x, "sqrt(ell / N) < gamma <=> N > ell / gamma^2"),
        Premise("N_gamma least", sympy.Or(sympy.Eq(N, 1), N - 1 <= x),
                "N_gamma = min{n >= 1 : G(n) < gamma}: N - 1 is not in the set (or N = 1)"))


def _n_gamma_consistency(_r) -> str:
    pts = [(r.uniform(0.1, 100), r.uniform(0.01, 1)) for r in [rng(4)] for _ in range(POINTS)]
    return agree("bounds.n_gamma", n_gamma, _n_gamma_def, pts, extra=[(4.0, 0.5)])


def _n_gamma_corrected():
    N, x, prem = _definition()
    return Inference(prem, sympy.Eq(N, sympy.floor(x) + 1))


@step("cor.n-gamma-substitution", "cor:analysis-main-regret-order", "l.438 ('substituting N_gamma = ceil(...)')",
      finding="when ell / gamma^2 is an integer m, G(m) = gamma is not < gamma, so N_gamma = m + 1 (e.g. ell = 4, "
              "gamma = 1/2: N_gamma = 17, not 16)",
      corrected=_n_gamma_corrected, corrected_text="N_gamma = floor(ell / gamma^2) + 1",
      consistency=_n_gamma_consistency)
def _n_gamma_sub():
    N, x, prem = _definition()
    return Inference(prem, sympy.Eq(N, sympy.ceiling(x)))


@step("cor.n-gamma-upper", "cor:analysis-main-regret-order", "l.1175 ('Since N_gamma <= 1 + ell/gamma^2')",
      unneeded={"N_gamma in the set": "over-assumption: the upper bound uses only that N_gamma - 1 is not in "
                                      "the set"})
def _n_gamma_upper():
    N, x, prem = _definition()
    return Inference(prem, N <= 1 + x)


@step("cor.low-term", "cor:analysis-main-regret-order", "l.1178",
      note="O(lambda_L Delta_k (ell/gamma^2 + S_0 + 1)) with the explicit constant: <= lambda_L Delta_k "
           "(ell/gamma^2 + S_0 + 2)")
def _low_term():
    lL, D, x, S0, N = symbols("lambda_L Delta ell_over_gamma2 S_0 N_gamma")
    return Inference(
        domain(lL > 0, D >= 0, x > 0, S0 >= 0) + (
            Premise("cor.n-gamma-upper", N <= 1 + x, "l.1175"),),
        lL * D * (N + S0 + 1) <= lL * D * (x + S0 + 2))


@step("cor.high-term", "cor:analysis-main-regret-order", "l.1190",
      note="O(lambda_H ell / Delta_k) + O(lambda_H Delta_k) with explicit constants: <= lambda_H (4 ell / Delta_k "
           "+ 2 Delta_k)")
def _high_term():
    lH, D, ell = symbols("lambda_H Delta ell")
    return Inference(domain(lH > 0, D > 0, ell > 0),
                     D * lH * (1 + sympy.ceiling(4 * ell / D ** 2)) <= lH * (4 * ell / D + 2 * D))


@step("cor.log-factor", "cor:analysis-main-regret-order", "l.1196 ('Using ell = rho log(2KT/delta)')",
      note="ell = O(log T) for fixed K, rho, delta with the explicit constant rho (1 + log(2K/delta) / log 2), "
           "for T >= 2; logarithms are variables, log 2 bounded by 0.69 <= log 2 <= 0.7")
def _log_factor():
    ell, logT, c, rho, L2 = symbols("ell logT log_2K_over_delta rho log2")
    return Inference(
        domain(rho > 0, c > 0, L2 >= sympy.Rational(69, 100), L2 <= sympy.Rational(7, 10)) + (
            Premise("def ell", sympy.Eq(ell, rho * (logT + c)), "ell = rho log(2 K T / delta)"),
            Premise("T >= 2", logT >= L2, "log T >= log 2")),
        ell <= rho * (1 + c / L2) * logT)


def _absorb_consistency(_r) -> str:
    ratios = [corollary_order([0.0, 0.5], [ArmClass.OPTIMAL, ArmClass.A], gamma=0.5, horizon=1000, ell=1.0, s0=0,
                              cost_low=1.0, cost_high=ch).ratio for ch in (10.0, 10.0**3, 10.0**6)]
    grows = ratios[0] < ratios[1] < ratios[2]
    return (f"bounds.corollary_order's hidden constant (explicit / order) on one A arm (Delta = gamma = 0.5, "
            f"T = 1000, lambda_L = 1) {'grows' if grows else 'DISAGREES: does not grow'} with lambda_H: "
            f"{', '.join(f'{x:.3g}' for x in ratios)} at lambda_H = 10, 1e3, 1e6")


def _absorb_corrected():
    lL, lH, D, lS = symbols("lambda_L lambda_H Delta lambda_L_S0")
    return Inference(domain(lL > 0, lH > 0, D > 0, lS >= 0) + (
        Premise("S_0 lambda_L <= lambda_H", lS <= lH, "thm:analysis-main-regret's condition"),),
        D * (lH + lS) <= 2 * lH * D)


@step("cor.absorb-start", "cor:analysis-main-regret-order", "l.1184-1186 ('only the initialization or reference "
      "cost'), eq:analysis-main-regret-order",
      finding="the start query lambda_H Delta_k of an arm in A u C^d is not dominated by its displayed term "
              "lambda_L Delta_k log T / gamma^2 unless lambda_H / lambda_L is bounded: the O() constant depends on "
              "the costs (any fixed constant, here 1000, is exceeded)",
      corrected=_absorb_corrected,
      corrected_text="add lambda_H sum_{k != k*} Delta_k inside O(.) (the start queries; the continuation term "
                     "lambda_L S_0 Delta_k <= lambda_H Delta_k when S_0 lambda_L <= lambda_H joins it)",
      consistency=_absorb_consistency)
def _absorb():
    lL, lH, D, logT, g2, C = symbols("lambda_L lambda_H Delta logT gamma2 C")
    return Inference(
        domain(lL > 0, lH > lL, D > 0, D <= 1, logT >= 1, logT <= 20, g2 > 0, g2 <= 1) + (
            Premise("a fixed constant", sympy.Eq(C, 1000), "O(.) for fixed K, rho, delta: one constant C"),),
        lH * D <= C * lL * D * logT / g2)


STEPS = steps_of(globals())
