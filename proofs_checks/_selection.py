"""``prop:analysis-low-selection`` and ``prop:analysis-high-selection``, step by step."""

from __future__ import annotations

from fractions import Fraction

import z3

from bounds import high_query_bound
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._solvers import ceil, floor, implies
from proofs_checks._step import Outcome, StepResult, step, steps_of


@step("low-selection.necessary", "prop:analysis-low-selection",
      "UCB_{k,t} >= UCB_{k*,t} >= mu*  =>  UCB^(L)_{k,t} >= mu*",
      "I_t = k (argmax of UCB_j = min(UCB^(L)_j, UCB^(H)_j)); on E both intervals of k* cover mu*", "z3 (reals)")
def _necessary():
    uL, uH, sL, sH, mu = z3.Reals("UCBL_k UCBH_k UCBL_star UCBH_star mu_star")
    sel = z3.If(uL < uH, uL, uH) >= z3.If(sL < sH, sL, sH)
    return implies([sel, sL >= mu, sH >= mu], uL >= mu)


@step("low-selection.chain", "prop:analysis-low-selection",
      "mu* <= UCB^(L) = mu_hat_L + G + B  and  mu_hat_L <= bar mu_L + G  =>  2 G(n) >= Delta^(L)(n)",
      "Delta^(L)(n) = mu* - bar mu_L(n) - B_k(n) (eq:effective-low-gap)", "z3 (reals)")
def _low_chain():
    mu, mh, mb, G, B = z3.Reals("mu_star muhatL barmuL G B")
    return implies([mu <= mh + G + B, mh <= mb + G], 2 * G >= mu - mb - B)


@step("low-selection.consequence", "prop:analysis-low-selection",
      "G(N) < gamma and Delta^(L)(N) >= 2 gamma  =>  not (2 G(N) >= Delta^(L)(N)): arm k is not selected",
      "gamma > 0", "z3 (reals)")
def _consequence():
    G, D, g = z3.Reals("G DeltaL gamma")
    return implies([g > 0, G < g, D >= 2 * g], z3.Not(2 * G >= D))


@step("high-selection.chain", "prop:analysis-high-selection",
      "mu* <= UCB^(H) = mu_hat_H + G  and  mu_hat_H <= mu_H + G  =>  2 G(n) >= Delta_k",
      "k selected and queried at H on E (the argument of low-selection.necessary gives UCB^(H) >= mu*)",
      "z3 (reals)")
def _high_chain():
    mu, mh, m, G = z3.Reals("mu_star muhatH muH G")
    return implies([mu <= mh + G, mh <= m + G], 2 * G >= mu - m)


@step("high-selection.count", "prop:analysis-high-selection",
      "2 G(n) >= Delta_k  with  G(n) = sqrt(ell / n)  =>  n <= 4 ell / Delta_k^2",
      "n >= 1, ell > 0, Delta_k > 0 (G encoded as g >= 0 with g^2 n = ell)", "z3 (nonlinear reals)")
def _count():
    n, ell, d, g = z3.Reals("n ell Delta g")
    return implies([n >= 1, ell > 0, d > 0, g >= 0, g * g * n == ell, 2 * g >= d], n * d * d <= 4 * ell)


@step("high-selection.total", "prop:analysis-high-selection",
      "N^(H)_{k,T} <= 1 + ceil(4 ell / Delta_k^2)  (eq:analysis-high-query-bound)",
      "each high query of k is made at a count n (previous queries) with n <= 4 ell / Delta_k^2; the last one at "
      "n = N - 1", "z3 (integers and reals)")
def _total():
    N = z3.Int("N")
    x = z3.Real("x")  # 4 ell / Delta^2
    paper = implies([N >= 1, x > 0, z3.ToReal(N - 1) <= x], N <= 1 + ceil(x))
    tight = implies([N >= 1, x > 0, z3.ToReal(N - 1) <= x], N <= 1 + floor(x))
    pts = [(r.uniform(0.01, 50), r.uniform(0.01, 2)) for r in [rng(2)] for _ in range(POINTS)]
    cons = agree("bounds.high_query_bound", lambda e, d: high_query_bound(e, d),
                 lambda e, d: 1 + -((-4 * Fraction(e)) // Fraction(d) ** 2), pts, extra=[(1.0, 0.5)])
    if paper.outcome is Outcome.PROVED and tight.outcome is Outcome.PROVED:
        return StepResult(Outcome.PROVED, "z3; the same argument proves the tighter N^(H) <= 1 + floor(4 ell / "
                                          "Delta^2), one query less whenever 4 ell / Delta^2 is not an integer",
                          consistency=cons)
    return paper


STEPS = steps_of(globals())
