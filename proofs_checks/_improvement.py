"""``prop:analysis-regret-improvement`` (static versus adaptive arm-level bounds), its proof (l.1230-1280)."""

from __future__ import annotations

import sympy

from bounds import ArmClass, confirmation_count, static_vs_adaptive
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._formula import symbols
from proofs_checks._inference import Inference, Premise, domain
from proofs_checks._step import step, steps_of


def _bounds():
    D, lL, lH, ell = symbols("Delta lambda_L lambda_H ell")
    Ng, S0 = symbols("N_gamma S_0", integer=True)
    c = sympy.ceiling(4 * ell / D ** 2)
    static = D * (lL * (Ng + 1) + lH * (1 + c))
    adapt = D * (lL * (Ng + S0 + 1) + lH)
    return D, lL, lH, ell, Ng, S0, c, static, adapt, domain(D > 0, lL > 0, lH > lL, ell > 0, Ng >= 1, S0 >= 0)


@step("improvement.static-bound", "prop:analysis-regret-improvement", "l.1238",
      note="the static rule's counts: low only while G >= gamma (at most N_gamma + 1, low-query.pre-count), high "
           "as prop:analysis-high-selection")
def _static():
    D, lL, lH, ell, Ng, S0, c, static, _, dom = _bounds()
    R = symbols("R_static")
    NL, NH = symbols("N_L N_H", integer=True)
    return Inference(
        dom + domain(NL >= 0, NH >= 0) + (
            Premise("decomposition", sympy.Eq(R, D * (lL * NL + lH * NH)), "l.1062"),
            Premise("static low count", NL <= Ng + 1, "static rule: low fidelity only until G < gamma"),
            Premise("prop:analysis-high-selection", NH <= 1 + c, "eq:analysis-high-query-bound")),
        R <= static)


def _difference_consistency(_r) -> str:
    def code(g, ng, s0, e, cl, ch):
        return static_vs_adaptive([0.0, g], [ArmClass.OPTIMAL, ArmClass.C], n_gamma=ng, s0=s0, ell=e, cost_low=cl,
                                  cost_high=ch).difference[1]

    def checked(g, ng, s0, e, cl, ch):
        return g * (ch * confirmation_count(e, g) - cl * s0)

    r0 = rng(5)
    pts = [(r0.uniform(0.01, 1), r0.randint(1, 10**4), r0.randint(0, 100), r0.uniform(0.1, 50), 1.0,
            r0.choice([10.0, 500.0])) for _ in range(POINTS)]
    return agree("bounds.static_vs_adaptive", code, checked, pts, rel=1e-9)


def _difference_corrected():
    D, lL, lH, ell, Ng, S0, c, static, adapt, dom = _bounds()
    return Inference(dom, sympy.Eq(static - adapt, D * (lH * c - lL * S0)), method="exact")


@step("improvement.difference", "prop:analysis-regret-improvement", "l.1266, eq:regret_compare (l.1221)",
      finding="'subtracting the two upper bounds': R_static <= S and R_adapt <= A do not give "
              "R_static - R_adapt >= S - A (a regret below its bound makes the difference anything)",
      corrected=_difference_corrected,
      corrected_text="the difference of the two upper bounds themselves equals Delta_k [lambda_H ceil(4 ell / "
                     "Delta_k^2) - lambda_L S_0] (an identity: the inequality is an equality)",
      consistency=_difference_consistency)
def _difference():
    D, lL, lH, ell, Ng, S0, c, static, adapt, dom = _bounds()
    Rs, Ra = symbols("R_static R_adapt")
    return Inference(
        dom + domain(Rs >= 0, Ra >= 0) + (
            Premise("static bound", Rs <= static, "l.1238 (improvement.static-bound)"),
            Premise("adaptive bound", Ra <= adapt, "l.1257 (theorem.Cd-term)")),
        Rs - Ra >= D * (lH * c - lL * S0))


@step("improvement.strict", "prop:analysis-regret-improvement", "l.1224-1226, l.1276-1279")
def _strict():
    D, lL, lH = symbols("Delta lambda_L lambda_H")
    S0, c = symbols("S_0 c", integer=True)
    return Inference(
        domain(D > 0, lL > 0, lH > 0, S0 >= 0) + (
            Premise("S_0 lambda_L <= lambda_H", S0 * lL <= lH, "the proposition's hypothesis"),
            Premise("ceil >= 2", c >= 2, "the proposition's hypothesis: ceil(4 ell / Delta_k^2) >= 2")),
        D * (lH * c - lL * S0) > 0)


STEPS = steps_of(globals())
