"""``prop:analysis-regret-improvement`` (static versus adaptive arm-level bounds)."""

from __future__ import annotations

import sympy
import z3

from bounds import ArmClass, static_vs_adaptive
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._solvers import identity, implies
from proofs_checks._step import StepResult, step, steps_of


@step("improvement.difference", "prop:analysis-regret-improvement",
      "R_static - R_adapt >= Delta_k [lambda_H ceil(4 ell / Delta_k^2) - lambda_L S_0]  (eq:regret_compare)",
      "R_static = Delta [lambda_L (N_gamma + 1) + lambda_H (1 + c)], R_adapt = Delta [lambda_L (N_gamma + S_0 + 1) "
      "+ lambda_H], c = ceil(4 ell / Delta^2)", "sympy identity")
def _difference():
    D, lL, lH, Ng, S0, c = sympy.symbols("Delta lambda_L lambda_H N_gamma S0 c", positive=True)
    static = D * (lL * (Ng + 1) + lH * (1 + c))
    adapt = D * (lL * (Ng + S0 + 1) + lH)
    r = identity(static - adapt, D * (lH * c - lL * S0))

    def code(g, ng, s0, e, cl, ch):
        return static_vs_adaptive([0.0, g], [ArmClass.OPTIMAL, ArmClass.C], n_gamma=ng, s0=s0, ell=e, cost_low=cl,
                                  cost_high=ch).difference[1]

    def checked(g, ng, s0, e, cl, ch):
        from bounds import confirmation_count
        return g * (ch * confirmation_count(e, g) - cl * s0)

    r0 = rng(5)
    pts = [(r0.uniform(0.01, 1), r0.randint(1, 10**4), r0.randint(0, 100), r0.uniform(0.1, 50), 1.0,
            r0.choice([10.0, 500.0])) for _ in range(POINTS)]
    return StepResult(r.outcome, r.detail + "; the inequality is an equality",
                      consistency=agree("bounds.static_vs_adaptive", code, checked, pts, rel=1e-9))


@step("improvement.strict", "prop:analysis-regret-improvement",
      "S_0 lambda_L <= lambda_H and ceil(4 ell / Delta_k^2) >= 2  =>  the right-hand side is > 0",
      "Delta_k > 0, lambda_L, lambda_H > 0, S_0 >= 0", "z3 (integers, reals)")
def _strict():
    D, lL, lH = z3.Reals("Delta lambda_L lambda_H")
    S0, c = z3.Ints("S0 c")
    return implies([D > 0, lL > 0, lH > 0, S0 >= 0, S0 * lL <= lH, c >= 2],
                   D * (lH * c - lL * S0) > 0)


STEPS = steps_of(globals())
