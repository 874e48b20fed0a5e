"""``cor:analysis-main-regret-order``: the substitutions in the text before it and the steps of its proof."""

from __future__ import annotations

import math
from fractions import Fraction

import z3

from bounds import ArmClass, corollary_order, n_gamma
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._solvers import ceil, floor, implies
from proofs_checks._step import Outcome, StepResult, step, steps_of


def _n_gamma_def(ell, gam):
    """N_gamma from its definition min{n >= 1 : sqrt(ell / n) < gamma}: n > ell / gamma^2, so floor + 1."""
    return math.floor(Fraction(ell) / Fraction(gam) ** 2) + 1


@step("cor.n-gamma-substitution", "cor:analysis-main-regret-order",
      "N_gamma = ceil(ell / gamma^2)  (the substitution stated before the corollary)",
      "N_gamma = min{n >= 1 : sqrt(ell / n) < gamma}", "z3 (integers, reals)")
def _n_gamma_sub():
    N = z3.Int("N_gamma")
    x = z3.Real("ell_over_gamma2")
    # the definition: N is the least integer n >= 1 with n > x (sqrt(ell/n) < gamma <=> n > ell / gamma^2)
    definition = [x > 0, N >= 1, z3.ToReal(N) > x, z3.Or(N == 1, z3.ToReal(N - 1) <= x)]
    stated = implies(definition, N == ceil(x))
    corrected = implies(definition, N == floor(x) + 1)
    cex = {"ell": 4.0, "gamma": 0.5, "ell / gamma^2": 16, "N_gamma (definition)": 17, "ceil": 16}
    pts = [(r.uniform(0.1, 100), r.uniform(0.01, 1)) for r in [rng(4)] for _ in range(POINTS)]
    cons = agree("bounds.n_gamma", n_gamma, _n_gamma_def, pts, extra=[(4.0, 0.5)])
    if stated.outcome is Outcome.REFUTED:
        return StepResult(Outcome.REFUTED,
                          f"when ell / gamma^2 is an integer m, G(m) = gamma is not < gamma, so N_gamma = m + 1 "
                          f"(z3's counterexample: {stated.counterexample})", counterexample=cex,
                          corrected="N_gamma = floor(ell / gamma^2) + 1", corrected_outcome=corrected.outcome,
                          consistency=cons)
    return stated


@step("cor.n-gamma-upper", "cor:analysis-main-regret-order",
      "N_gamma <= 1 + ell / gamma^2", "N_gamma = floor(ell / gamma^2) + 1 (cor.n-gamma-substitution, corrected)",
      "z3 (integers, reals)")
def _n_gamma_upper():
    x = z3.Real("ell_over_gamma2")
    return implies([x > 0], z3.ToReal(floor(x) + 1) <= 1 + x)


@step("cor.low-term", "cor:analysis-main-regret-order",
      "lambda_L Delta_k (N_gamma + S_0 + 1) = O(lambda_L Delta_k (ell / gamma^2 + S_0 + 1)): explicitly "
      "<= lambda_L Delta_k (ell / gamma^2 + S_0 + 2)", "N_gamma <= 1 + ell / gamma^2", "z3")
def _low_term():
    lL, D, x, S0, Ng = z3.Reals("lambda_L Delta ell_over_gamma2 S0 N_gamma")
    return implies([lL > 0, D >= 0, x > 0, S0 >= 0, Ng <= 1 + x],
                   lL * D * (Ng + S0 + 1) <= lL * D * (x + S0 + 2))


@step("cor.high-term", "cor:analysis-main-regret-order",
      "Delta_k lambda_H (1 + ceil(4 ell / Delta_k^2)) = O(lambda_H ell / Delta_k) + O(lambda_H Delta_k): "
      "explicitly <= lambda_H (4 ell / Delta_k + 2 Delta_k)", "Delta_k > 0, ell > 0", "z3 (nonlinear reals)")
def _high_term():
    lH, D, ell = z3.Reals("lambda_H Delta ell")
    c = ceil(4 * ell / (D * D))
    return implies([lH > 0, D > 0, ell > 0], D * lH * (1 + z3.ToReal(c)) <= lH * (4 * ell / D + 2 * D))


@step("cor.log-factor", "cor:analysis-main-regret-order",
      "ell_Lambda = rho log(2 K T / delta) = O(log T_Lambda) for fixed K, rho, delta",
      "T_Lambda >= 2; explicitly ell <= rho (1 + log(2K/delta) / log 2) log T", "z3 (reals; logs as variables)")
def _log_factor():
    logT, c, rho = z3.Reals("logT log2K_over_delta rho")
    log2 = z3.RealVal(0.6931471805599453)
    return implies([rho > 0, c > 0, logT >= log2], rho * (logT + c) <= rho * (1 + c / log2) * logT)


@step("cor.absorb-start", "cor:analysis-main-regret-order",
      "R(Lambda) = O(lambda_L sum_{k != k*} (Delta_k / gamma^2) log T + lambda_H sum_{k in H} log T / Delta_k) "
      "for fixed K, rho, delta",
      "the proof absorbs 'the initialization or reference cost' lambda_H Delta_k of arms in A u C^d", "z3")
def _absorb():
    # one arm in A: the theorem's term contains lambda_H Delta; the displayed order term for it is
    # lambda_L Delta log T / gamma^2. A constant C with lambda_H Delta <= C lambda_L Delta log T / gamma^2 for
    # every lambda_H would need lambda_H / lambda_L bounded: take C = 1000 and refute.
    lL, lH, D, logT, g2 = z3.Reals("lambda_L lambda_H Delta logT gamma2")
    stated = implies([lL > 0, lH > lL, D > 0, D <= 1, logT >= 1, logT <= 20, g2 > 0, g2 <= 1],
                     lH * D <= 1000 * lL * D * logT / g2)
    lS = z3.Real("lambda_L_S0")
    corrected = implies([lL > 0, lH > 0, D > 0, lS >= 0, lS <= lH],
                        D * (lH + lS) <= 2 * lH * D)
    cex = {"lambda_L": 1, "lambda_H": 10**6, "Delta": 0.5, "gamma": 0.5, "T": 1000, "class": "A"}
    # code: bounds.corollary_order's hidden constant grows with lambda_H / lambda_L on that instance
    ratios = [corollary_order([0.0, 0.5], [ArmClass.OPTIMAL, ArmClass.A], gamma=0.5, horizon=1000, ell=1.0, s0=0,
                              cost_low=1.0, cost_high=ch).ratio for ch in (10.0, 10.0**3, 10.0**6)]
    cons = (f"bounds.corollary_order's hidden constant (explicit / order) on the counterexample grows with "
            f"lambda_H: {', '.join(f'{x:.3g}' for x in ratios)} at lambda_H = 10, 1e3, 1e6")
    if stated.outcome is Outcome.REFUTED and ratios[0] < ratios[1] < ratios[2]:
        return StepResult(Outcome.REFUTED,
                          "the start query lambda_H Delta_k of an arm in A u C^d is not dominated by the displayed "
                          "terms unless lambda_H / lambda_L is bounded (the O() constant then depends on the costs)",
                          counterexample={**cex, "z3": stated.counterexample},
                          corrected="add lambda_H sum_{k != k*} Delta_k inside O(.) (the start queries; the "
                                    "continuation term lambda_L S_0 Delta_k <= lambda_H Delta_k when S_0 lambda_L <= "
                                    "lambda_H joins it)", corrected_outcome=corrected.outcome, consistency=cons)
    return StepResult(Outcome.UNKNOWN, f"{stated.detail}; {cons}")


STEPS = steps_of(globals())
