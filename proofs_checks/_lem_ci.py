"""``lem:ci`` (valid confidence intervals), its proof step by step."""

from __future__ import annotations

import math

import sympy
import z3

from bounds import min_rho
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._solvers import identity, implies
from proofs_checks._step import Outcome, StepResult, step, steps_of


@step("lem-ci.decomposition", "lem:ci",
      "mu_hat_L - mu_H = (mu_hat_L - bar mu_L(N)) + (bar mu_L(N) - mu_H)", "none", "sympy identity")
def _decomposition():
    m, b, h = sympy.symbols("muhatL barmuL muH", real=True)
    return identity(m - h, (m - b) + (b - h))


@step("lem-ci.triangle", "lem:ci",
      "|bar mu_L(n) - mu_H| <= (1/n) sum_{tau<=n} |mu_L(tau) - mu_H|",
      "n >= 1; proved as |a + b| <= |a| + |b| over the reals (the induction step over n) and for n = 5 directly",
      "z3 (reals)")
def _triangle():
    a, b = z3.Reals("a b")
    step_ = implies([], z3.Abs(a + b) <= z3.Abs(a) + z3.Abs(b))
    xs = z3.Reals("x1 x2 x3 x4 x5")
    direct = implies([], z3.Abs(sum(xs)) / 5 <= sum(z3.Abs(x) for x in xs) / 5)
    if step_.outcome is Outcome.PROVED and direct.outcome is Outcome.PROVED:
        return StepResult(Outcome.PROVED, "z3: the triangle inequality (induction step) and the n = 5 instance")
    return step_ if step_.outcome is not Outcome.PROVED else direct


@step("lem-ci.plugin-chain", "lem:ci",
      "(1/n) sum |mu_L(tau) - mu_H| <= U_k(n) / n <= B_k(n)",
      "ass:plugin: sum |mu_L(tau) - mu_H| <= U_k(n); B_k(n) = sup_{s>=n} U_k(s)/s >= U_k(n)/n; n >= 1",
      "z3 (reals)")
def _plugin_chain():
    S, U, B, n = z3.Reals("S U B n")
    return implies([n >= 1, S <= U, B * n >= U], z3.And(S / n <= U / n, U / n <= B))


@step("lem-ci.combine", "lem:ci",
      "|mu_hat_L - mu_H| <= G(N) + B_k(N)",
      "|mu_hat_L - bar mu_L(N)| <= G(N) (concentration) and |bar mu_L(N) - mu_H| <= B_k(N)", "z3 (reals)")
def _combine():
    m, b, h, G, B = z3.Reals("muhatL barmuL muH G B")
    return implies([z3.Abs(m - b) <= G, z3.Abs(b - h) <= B], z3.Abs(m - h) <= G + B)


def _union_total(rho, sigma, K, T, delta):
    """P(E^c) <= 2 fidelities x K arms x T counts x 2 exp(-n G(n)^2 / (2 sigma^2))
    = 4 K T (delta / (2 K T))^(rho / (2 sigma^2))."""
    return 4 * K * T * (delta / (2 * K * T)) ** (rho / (2 * sigma ** 2))


@step("lem-ci.union-bound", "lem:ci",
      "each fidelity's event fails with probability <= delta/2, uniformly over k and n <= T_Lambda, with "
      "G(n) = sqrt(rho log(2 K T / delta) / n)",
      "noise sigma-sub-Gaussian (sigma = 1 in the paper): P(|mean of n| > t) <= 2 exp(-n t^2 / (2 sigma^2)); "
      "union over K arms, T counts, 2 fidelities", "sympy (closed form, monotonicity in rho)")
def _union_bound():
    rho, sigma, K, T, delta = sympy.symbols("rho sigma K T delta", positive=True)
    total = _union_total(rho, sigma, K, T, delta)
    # the smallest rho with total <= delta solves total = delta
    rho_min = 2 * sigma ** 2 * (1 + sympy.log(2) / sympy.log(2 * K * T / delta))
    at_min = sympy.simplify(sympy.expand_log(sympy.log(total.subs(rho, rho_min)) - sympy.log(delta), force=True))
    # total is decreasing in rho because delta / (2KT) < 1
    slope = sympy.simplify(sympy.expand_log(sympy.diff(sympy.log(total), rho), force=True))
    textbook = {"rho": 2, "sigma": 1, "K": 2, "T": 10, "delta": 0.05}
    p_textbook = _union_total(2.0, 1.0, 2, 10, 0.05)
    pts = [(r.choice([0.1, 0.5, 1.0]), r.randint(2, 500), r.randint(2, 10**6), r.choice([0.01, 0.05, 0.2]))
           for r in [rng(1)] for _ in range(POINTS)]
    cons = agree("bounds.min_rho", lambda s, K_, T_, d: min_rho(s, K_, T_, d),
                 lambda s, K_, T_, d: 2 * s ** 2 * (1 + math.log(2) / math.log(2 * K_ * T_ / d)), pts)
    expected = sympy.expand_log(sympy.log(delta / (2 * K * T)) / (2 * sigma ** 2), force=True)
    proved = at_min == 0 and sympy.simplify(slope - expected) == 0   # d log(total) / d rho < 0 as delta < 2KT
    return StepResult(
        Outcome.REFUTED,
        f"the paper leaves rho unstated (a 'problem-dependent constant'); with the usual rho = 2 sigma^2 the union "
        f"bound gives P(E^c) <= 2 delta, not delta (here {p_textbook:.4g} > 0.05)",
        counterexample={**textbook, "P(E^c) bound": p_textbook},
        corrected="the step holds for rho >= 2 sigma^2 (1 + log 2 / log(2 K T / delta)) (bounds.min_rho): at that "
                  "value the union bound equals delta exactly, and it decreases in rho",
        corrected_outcome=Outcome.PROVED if proved else Outcome.UNKNOWN,
        consistency=cons)


STEPS = steps_of(globals())
