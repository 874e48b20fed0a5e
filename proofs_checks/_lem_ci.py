"""``lem:ci`` (valid confidence intervals), its proof (app:proof-lem-ci) step by step.

What is checked: the decomposition, the triangle inequality, the certificate chain, the combination of the
stochastic and the deterministic bound, the arithmetic of the union bound and the union over the two fidelities.
What is not: that the empirical mean of adaptively collected samples obeys the sub-Gaussian tail at each fixed
count (``lem-ci.concentration``, UNKNOWN with the reason; its empirical evidence is ``tacc check``'s lem:ci row).
"""

from __future__ import annotations

import math

import sympy

from bounds import min_rho
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._formula import symbols
from proofs_checks._inference import Inference, Premise, domain
from proofs_checks._step import step, steps_of


@step("lem-ci.decomposition", "lem:ci", "l.707 (eq. after 'Using')")
def _decomposition():
    m, b, h = symbols("muhat_L barmu_L mu_H")
    return Inference((), sympy.Eq(m - h, sympy.Add(m - b, b - h, evaluate=False), evaluate=False), method="exact")


@step("lem-ci.triangle", "lem:ci", "l.730 (first inequality)",
      note="the average of n = 4 terms; the same triangle inequality for every n")
def _triangle():
    h, bar = symbols("mu_H barmu_L")
    x = symbols("mu_L1:5")
    return Inference(
        (Premise("def bar mu_L(n)", sympy.Eq(bar, sum(x) / 4), "sec:problem: bar mu_L(n) = (1/n) sum mu_L(tau)"),),
        sympy.Abs(bar - h) <= sum(sympy.Abs(xi - h) for xi in x) / 4)


@step("lem-ci.plugin-chain", "lem:ci", "l.730 (second and third inequalities), eq:improvingbound")
def _plugin_chain():
    S, U, B, n = symbols("sum_abs_dev U_n B_n n")
    return Inference(
        domain(n >= 1) + (
            Premise("ass:plugin", S <= U, "ass:plugin: sum_{tau<=n} |mu_L(tau) - mu_H| <= U_k(n)"),
            Premise("def B_k", B >= U / n, "ass:plugin: B_k(n) = sup_{s>=n} U_k(s)/s, so B_k(n) >= U_k(n)/n")),
        sympy.And(S / n <= U / n, U / n <= B))


@step("lem-ci.combine", "lem:ci", "l.746")
def _combine():
    m, b, h, G, B = symbols("muhat_L barmu_L mu_H G B")
    return Inference(
        (Premise("concentration (L)", sympy.Abs(m - b) <= G, "lem:ci proof l.720: |muhat_L - barmu_L(N)| <= G(N)"),
         Premise("certificate", sympy.Abs(b - h) <= B, "l.730: |barmu_L(N) - mu_H| <= B_k(N)")),
        sympy.Abs(m - h) <= G + B)


@step("lem-ci.concentration", "lem:ci", "l.690, l.720",
      unchecked="rests on probability: the mean of the first n samples of an arm, collected adaptively, is "
                "sub-Gaussian around its (count-indexed) mean at each fixed n (the stack-of-rewards argument: the "
                "n-th draw of arm k does not depend on when it is drawn). Neither z3 nor sympy is given this; "
                "the arithmetic around it is checked (lem-ci.union-bound, lem-ci.two-fidelities). Empirical "
                "evidence: `tacc check`, claim lem:ci (failures over seeds against delta, exact binomial test)")
def _concentration():
    m, b, G = symbols("muhat_L barmu_L G")
    return Inference((), sympy.Abs(m - b) <= G)


def _union_total(rho, sigma, K, T, delta):
    """P(E^c) <= 2 fidelities x K arms x T counts x 2 exp(-n G(n)^2 / (2 sigma^2))
    = 4 K T (delta / (2 K T))^(rho / (2 sigma^2))."""
    return 4 * K * T * (delta / (2 * K * T)) ** (rho / (2 * sigma ** 2))


def _union_consistency(_r) -> str:
    """The premise of the corrected step, p <= delta / (2KT) at rho >= rho_min, in closed form: at
    rho = rho_min = 2 sigma^2 (1 + log 2 / log(2KT/delta)) the tail 2 (delta/(2KT))^(rho/(2 sigma^2)) equals
    delta / (2KT) exactly (sympy), it decreases in rho, and ``bounds.min_rho`` computes that rho_min."""
    rho, sigma, K, T, delta = sympy.symbols("rho sigma K T delta", positive=True)
    tail = 2 * (delta / (2 * K * T)) ** (rho / (2 * sigma ** 2))
    rmin = 2 * sigma ** 2 * (1 + sympy.log(2) / sympy.log(2 * K * T / delta))
    at_min = sympy.simplify(sympy.expand_log(sympy.log(tail.subs(rho, rmin)) - sympy.log(delta / (2 * K * T)),
                                             force=True))
    pts = [(r.choice([0.1, 0.5, 1.0]), r.randint(2, 500), r.randint(2, 10**6), r.choice([0.01, 0.05, 0.2]))
           for r in [rng(1)] for _ in range(POINTS)]
    cons = agree("bounds.min_rho", lambda s, K_, T_, d: min_rho(s, K_, T_, d),
                 lambda s, K_, T_, d: 2 * s ** 2 * (1 + math.log(2) / math.log(2 * K_ * T_ / d)), pts)
    closed = "sympy: the tail at rho_min is delta/(2KT) exactly" if at_min == 0 else \
        f"sympy did NOT reduce the tail at rho_min to delta/(2KT) (left {at_min})"
    return f"{closed}; {cons}"


@step("lem-ci.union-bound", "lem:ci", "l.688-695 ('with probability at least 1 - delta/2')",
      finding="with the usual reading of a 1-sub-Gaussian radius, rho = 2, the union over K arms and T counts "
              "gives each fidelity's event failure probability <= delta, not delta/2",
      corrected=lambda: _union(corrected=True),
      corrected_text="with rho >= rho_min = 2 sigma^2 (1 + log 2 / log(2KT/delta)) (bounds.min_rho) the tail at "
                     "each (arm, count) is <= delta/(2KT) and the union is <= delta/2",
      consistency=_union_consistency,
      toolkit="rho = \"min\" is bounds.min_rho with the noise's sub-Gaussian scale; the least rho the union bound "
              "certifies per noise model is the radius table below the steps (proofs_checks._radius)")
def _union_bound():
    return _union(corrected=False)


def _union(corrected: bool) -> Inference:
    K, T = symbols("K T", integer=True)
    delta, p, P = symbols("delta p_tail P_fail")
    tail = (Premise("tail at rho = 2", p <= 2 * delta / (2 * K * T),
                    "1-sub-Gaussian mean of n: P(|mean - mu| > G(n)) <= 2 exp(-n G(n)^2 / 2) "
                    "= 2 (delta/(2KT))^(rho/2), at rho = 2")
            if not corrected else
            Premise("tail at rho_min", p <= delta / (2 * K * T),
                    "2 (delta/(2KT))^(rho/2) <= delta/(2KT) for rho >= rho_min (closed form, consistency column)"))
    return Inference(
        domain(K >= 1, T >= 1, delta > 0, delta < 1) + (
            tail,
            Premise("union over arms and counts", P <= K * T * p, "union bound over k in [K], 1 <= n <= T_Lambda")),
        P <= delta / 2)


@step("lem-ci.two-fidelities", "lem:ci", "l.752-754 ('Taking a union bound over the two events')")
def _two_fidelities():
    PH, PL, PE = symbols("P_fail_H P_fail_L P_fail_E")
    delta = symbols("delta")
    return Inference(
        domain(delta > 0) + (
            Premise("high-fidelity event", PH <= delta / 2, "lem:ci proof l.688"),
            Premise("low-fidelity event", PL <= delta / 2, "lem:ci proof l.718"),
            Premise("union", PE <= PH + PL, "P(A u B) <= P(A) + P(B)")),
        PE <= delta)


STEPS = steps_of(globals())
