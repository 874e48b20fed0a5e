"""``prop:analysis-low-query-bound`` and the definition of N_gamma: the proof (l.1017-1051) step by step."""

from __future__ import annotations

import sympy

from proofs_checks._formula import Forall, symbols
from proofs_checks._inference import Inference, Premise, domain
from proofs_checks._step import step, steps_of


def _def_g(g, n, ell):
    return sympy.And(g >= 0, sympy.Eq(g ** 2 * n, ell))


@step("low-query.pre-threshold", "prop:analysis-low-query-bound", "l.1019-1021",
      note="N < N_gamma written N <= N_gamma - 1 (integers)")
def _pre():
    N, Ng = symbols("N N_gamma", integer=True)
    ell, gam, gN, gNg = symbols("ell gamma G_N G_Ngamma")
    return Inference(
        domain(N >= 1, Ng >= 1, ell > 0, gam > 0) + (
            Premise("G(N) def", _def_g(gN, N, ell), "G(n) = sqrt(ell / n)"),
            Premise("G(N_gamma) def", _def_g(gNg, Ng, ell), "G(n) = sqrt(ell / n)"),
            Premise("N_gamma in the set", gNg < gam, "N_gamma = min{n >= 1 : G(n) < gamma}"),
            Premise("pre-threshold", gN >= gam, "eq:fidelity-selection: low before the crossing while G(N) >= gamma")),
        N <= Ng - 1)


@step("low-query.pre-count", "prop:analysis-low-query-bound", "l.1021-1023 ('at most N_gamma + 1')",
      slack=dict.fromkeys(("term 1 dropped from N_gamma + 1", "constant 1 -> 1/2 in N_gamma + 1",
                           "constant 1 -> 9/10 in N_gamma + 1", "pre <= N_gamma + 1 made pre < N_gamma + 1"),
                          "the pre-threshold queries are made at counts 0 .. N_gamma - 1 (the initialization at "
                          "count 0): at most N_gamma, the '+1' is slack (TACC's runs reach N_gamma + S_0 exactly)"),
      toolkit="bounds.low_query_bound keeps the paper's N_gamma + S_0 + 1 (the claim `tacc check` judges)")
def _pre_count():
    pre, Ng = symbols("pre N_gamma", integer=True)
    return Inference(
        domain(pre >= 1, Ng >= 1) + (
            Premise("low-query.pre-threshold", sympy.Implies(pre >= 2, pre - 1 < Ng),
                    "the last pre-threshold query is made at count pre - 1 with G(pre - 1) >= gamma, so "
                    "pre - 1 < N_gamma"),),
        pre <= Ng + 1)


@step("low-query.total", "prop:analysis-low-query-bound", "l.1025, eq:analysis-low-query-bound (l.1000)")
def _total():
    NL, pre, A, Ng, S0 = symbols("N_L pre A N_gamma S_0", integer=True)
    return Inference(
        domain(Ng >= 1, S0 >= 0, pre >= 0, A >= 0) + (
            Premise("split at the crossing", sympy.Eq(NL, pre + A),
                    "after the crossing low fidelity is queried only by continuation (eq:fidelity-selection)"),
            Premise("low-query.pre-count", pre <= Ng + 1, "l.1022: at most N_gamma + 1 pre-threshold pulls"),
            Premise("continuation cap", A <= S0, "eq:fidelity-selection: continuation only while A_k < S_0")),
        NL <= Ng + S0 + 1)


def _mono_cert(D, Ng, S0, gam):
    n, m = symbols("n m", integer=True)
    return Premise("ass:mono-cert", Forall((n, m), sympy.Implies(
        sympy.And(n >= 1, n <= Ng + S0, D(n) >= 2 * gam, m >= n, m <= Ng + S0), D(m) >= 2 * gam)),
        "ass:mono-cert: Delta^(L)(n) >= 2 gamma for some n <= N_gamma + S_0 => for all m in [n, N_gamma + S_0]")


def _selection(D, G, gam, count, sel):
    """prop:analysis-low-selection at ``count``: G < gamma and Delta^(L) >= 2 gamma there => not selected."""
    return Premise("prop:analysis-low-selection",
                   sympy.Implies(sympy.And(G < gam, D(count) >= 2 * gam), sympy.Eq(sel, 0)),
                   "G < gamma and Delta^(L) >= 2 gamma at the current count => not selected")


def _certificate_premises(name: str):
    D = sympy.Function("DeltaL")
    tau, Ng, S0, sel = symbols("tau N_gamma S_0 selected", integer=True)
    gam, G = symbols(f"gamma {name}")
    return D, tau, Ng, S0, sel, gam, G, (
        Premise("tau in its set", D(tau) >= 2 * gam, "eq:analysis-cert-time: Delta^(L)(tau_k) >= 2 gamma"),
        _mono_cert(D, Ng, S0, gam))


@step("low-query.class-A", "prop:analysis-low-query-bound", "l.1029-1036 (item (i))")
def _class_a():
    D, tau, Ng, S0, sel, gam, G, cert = _certificate_premises("G_Ngamma")
    return Inference(
        domain(tau >= 1, Ng >= 1, gam > 0, sel >= 0, sel <= 1) + cert + (
            Premise("S_0 >= 0", S0 >= 0, "alg:adaptive-mf-mab: S_0 is a count"),
            Premise("k in A", tau <= Ng, "eq:analysis-arm-partition: tau_k(gamma) <= N_gamma"),
            Premise("crossing", G < gam, "at N^(L) = N_gamma, G(N_gamma) < gamma (definition of N_gamma)"),
            _selection(D, G, gam, Ng, sel)),
        sympy.And(D(Ng) >= 2 * gam, sympy.Eq(sel, 0)))


@step("low-query.class-Cd", "prop:analysis-low-query-bound", "l.1038-1050 (item (ii))",
      unneeded={"ass:mono-cert": "over-assumption: at tau_k the arm is certified and never selected again, so its "
                                 "count stays tau_k; the window part of ass:mono-cert, which class A needs, is not "
                                 "used for C^d"})
def _class_cd():
    D, tau, Ng, S0, sel, gam, G, cert = _certificate_premises("G_tau")
    return Inference(
        domain(Ng >= 1, gam > 0, sel >= 0, sel <= 1, S0 >= 0) + cert + (
            Premise("k in C", sympy.And(tau > Ng, tau <= Ng + S0),
                    "eq:analysis-arm-partition: N_gamma < tau_k <= N_gamma + S_0"),
            Premise("past the crossing", G < gam, "tau > N_gamma, so G(tau) < gamma (G decreasing)"),
            _selection(D, G, gam, tau, sel)),
        sympy.And(tau <= Ng + S0, D(tau) >= 2 * gam, sympy.Eq(sel, 0)))


STEPS = steps_of(globals())
