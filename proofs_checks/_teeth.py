"""Perturbed versions of proved steps (a constant halved, a strict inequality made weak at the boundary, a floor
replaced by a ceiling): the same machinery must refute each one. They are not paper steps; tests run them."""

from __future__ import annotations

import z3

from proofs_checks._solvers import ceil, floor, implies
from proofs_checks._step import Step

__all__ = ["PERTURBED"]


def _count_halved():
    n, ell, d, g = z3.Reals("n ell Delta g")
    return implies([n >= 1, ell > 0, d > 0, g >= 0, g * g * n == ell, 2 * g >= d], n * d * d <= 2 * ell)


def _consequence_weak():
    G, D, g = z3.Reals("G DeltaL gamma")
    return implies([g > 0, G <= g, D >= 2 * g], z3.Not(2 * G >= D))


def _n_gamma_ceiling():
    x = z3.Real("ell_over_gamma2")
    return implies([x > 0], z3.ToReal(ceil(x) + 1) <= 1 + x)


def _total_floor_without_one():
    N = z3.Int("N")
    x = z3.Real("x")
    return implies([N >= 1, x > 0, z3.ToReal(N - 1) <= x], N <= floor(x))


def _combine_half_b():
    m, b, h, G, B = z3.Reals("muhatL barmuL muH G B")
    return implies([z3.Abs(m - b) <= G, z3.Abs(b - h) <= B], z3.Abs(m - h) <= G + B / 2)


def _elim_margin_doubled():
    Uk, mk, Ls, ms, Lh, e = z3.Reals("UCB_k mu_k LCB_star mu_star LCB_hat eps")
    return implies([e > 0, Uk <= mk + e / 4, Ls >= ms - e / 4, Lh >= Ls, ms - mk >= e], Uk < Lh - e / 2)


def _p(sid, statement, fn):
    return Step(sid, "perturbed", statement, "as the original step", "z3", fn)


PERTURBED = (
    _p("high-selection.count[4->2]", "2 G(n) >= Delta  =>  n <= 2 ell / Delta^2 (constant halved)", _count_halved),
    _p("low-selection.consequence[<->=]", "G <= gamma and Delta^(L) >= 2 gamma => not selected (strict made weak)",
       _consequence_weak),
    _p("cor.n-gamma-upper[floor->ceil]", "ceil(ell / gamma^2) + 1 <= 1 + ell / gamma^2 (floor made ceiling)",
       _n_gamma_ceiling),
    _p("high-selection.total[ceil->floor, no +1]", "N^(H) <= floor(4 ell / Delta^2)", _total_floor_without_one),
    _p("lem-ci.combine[B/2]", "|mu_hat_L - mu_H| <= G + B / 2 (constant halved)", _combine_half_b),
    _p("rdfe-elim.chain[eps/2]", "Delta >= eps => UCB_k < LCB_hat - eps / 2 (margin doubled)", _elim_margin_doubled),
)
