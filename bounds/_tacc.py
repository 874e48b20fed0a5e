"""The TACC regret bound and its parts: ``prop:analysis-low-query-bound``, ``prop:analysis-high-selection``,
``thm:analysis-main-regret``, ``cor:analysis-main-regret-order``, ``prop:analysis-regret-improvement``."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from bounds import _validate as v
from bounds._errors import TaccInputError
from bounds._exact import scaled_sum, scaled_total
from bounds._partition import ArmClass, replace_classes

__all__ = ["confirmation_counts", "confirmation_count", "low_query_bound", "high_query_bound", "TaccBound",
           "tacc_regret_bound", "CorollaryTerms", "corollary_order", "Comparison", "static_vs_adaptive", "TIED_TERM",
           "TIED_LEFT_OUT"]


def confirmation_count(ell: float, gap: float) -> int | float:
    r"""ceil(4 ell_Lambda / Delta_k^2), the high-fidelity confirmation count of ``prop:analysis-high-selection``.

    Computed exactly from the definition
    :math:`\min\{n \in \mathbb{Z} : n \ge 4 \ell_\Lambda / \Delta_k^2\}` on the exact rational values
    of the two floats. ``inf`` when Delta_k = 0 (a tie for the best arm).

    >>> confirmation_count(1.0, 0.5)
    16
    """
    return confirmation_counts(ell, np.array([v.nonnegative_real("gap", gap)]))[0]


def confirmation_counts(ell: float, gaps) -> list:
    """:func:`confirmation_count` for every gap: a list of Python ints (``inf`` for a zero gap).

    The float quotient q = 4 ell / Delta^2 has relative error below 5e-16 (two roundings of normal numbers), so
    where q < 2**52 lies more than 1e-12 q from every integer, ceil(q) is the exact ceiling; the other gaps are
    decided with ``Fraction``.
    """
    e = v.positive_real("ell", ell)
    gs = v.nonnegative_reals("gaps", gaps)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        q = (4 * e) / (gs * gs)
        safe = ((gs > 2.0 ** -400) & np.isfinite(q) & (q < 2.0 ** 52)
                & (np.abs(q - np.rint(q)) > 1e-12 * np.maximum(q, 1.0)))
    out = np.ceil(np.where(safe, q, 0.0)).astype(np.int64).tolist()
    for i in np.flatnonzero(~safe).tolist():
        g = float(gs[i])
        out[i] = math.inf if g == 0 else math.ceil(4 * Fraction(e) / Fraction(g) ** 2)
    return out


def low_query_bound(n_gamma: int, s0: int) -> int:
    r"""Low-fidelity query bound (``prop:analysis-low-query-bound``, ``eq:analysis-low-query-bound``).

    .. math::

        N_{k,T_\Lambda}^{(L)} \le N_\gamma + S_0 + 1

    for every suboptimal arm, on the event E_Lambda of ``lem:ci``.

    >>> low_query_bound(100, 10)
    111
    """
    return v.count("n_gamma", n_gamma) + v.count("s0", s0, minimum=0) + 1


def high_query_bound(ell: float, gap: float) -> int | float:
    r"""High-fidelity query bound (``prop:analysis-high-selection``, ``eq:analysis-high-query-bound``).

    .. math::

        N_{k,T_\Lambda}^{(H)} \le 1 + \left\lceil \frac{4 \ell_\Lambda}{\Delta_k^2} \right\rceil

    on the event E_Lambda of ``lem:ci``; inf for Delta_k = 0.

    >>> high_query_bound(1.0, 0.5)
    17
    """
    return 1 + confirmation_count(ell, gap)


#: the class codes the vectorized terms use, by the class's value: k^*, A, C^d, H (B or C^u); C has none
_CODE = {ArmClass.OPTIMAL.value: 0, ArmClass.A.value: 1, ArmClass.C_D.value: 2, ArmClass.B.value: 3,
         ArmClass.C_U.value: 3}
#: the same codes by the member's identity (a tuple of 10^5 classes is coded in C loops: a member hashes in Python)
_CODE_BY_ID = {id(c): _CODE[c.value] for c in ArmClass if c.value in _CODE}


def _check_common(gaps, classes, n_gamma, s0, ell, cost_low, cost_high):
    """The validated arguments, and one class code per arm (:data:`_CODE`)."""
    classes = tuple(classes)
    if len(gaps) != len(classes):
        raise TaccInputError("classes", len(classes), f"must hold one class per arm ({len(gaps)})")
    gs = v.nonnegative_reals("gaps", gaps)
    codes = list(map(_CODE_BY_ID.get, map(id, classes), itertools.repeat(-1)))
    for k in ([codes.index(-1)] if -1 in codes else []):
        c = classes[k]
        if not isinstance(c, ArmClass):
            raise TaccInputError(f"classes[{k}]", c, "must be an ArmClass")
        raise TaccInputError(f"classes[{k}]", c, "C must be refined into C^d / C^u first "
                             "(refine_partition after a run, prior_partition before)")
    code = np.array(codes, dtype=np.int64)
    wrong = np.flatnonzero((code == 0) & (gs != 0))
    if wrong.size:
        k = int(wrong[0])
        raise TaccInputError(f"gaps[{k}]", float(gs[k]), "the optimal arm must have gap 0")
    return (gs, v.count("n_gamma", n_gamma), v.count("s0", s0, minimum=0), v.positive_real("ell", ell),
            v.positive_real("cost_low", cost_low), v.positive_real("cost_high", cost_high), code)


def _terms(gaps: np.ndarray, cost_low: float, n_low, cost_high: float, n_high) -> tuple:
    """Delta (lambda_L n_L + lambda_H n_H) per arm, in exact arithmetic rounded once; Delta = 0 gives exactly 0
    (no 0 * inf), an infinite count with Delta > 0 gives inf."""
    return tuple(scaled_sum(gaps, cost_low, n_low, cost_high, n_high).tolist())


#: the convention for the term of an arm tied with k^* in H: Delta_k = 0 times its high-count bound, infinite at
#: Delta_k = 0, is 0 x inf; taken as 0 (:attr:`TaccBound.conventions` names the arms).
TIED_TERM = ("0 x inf taken as 0: Delta_k = 0 (tied with k^*) times its high-count bound 1 + ceil(4 ell / "
             "Delta_k^2), infinite at Delta_k = 0; an arm with Delta_k = 0 costs no regret whatever its counts")
#: the convention for the corollary's sums (:attr:`CorollaryTerms.left_out` names the arms).
TIED_LEFT_OUT = ("left out of the sums (taken as 0): Delta_k = 0 (tied with k^*) in H, where lambda_H log T / Delta_k "
                 "and the explicit lambda_H (2 Delta_k + 4 ell / Delta_k) are infinite; an arm with Delta_k = 0 costs "
                 "no regret whatever its counts")


def _tied(gs: np.ndarray, in_h: np.ndarray) -> tuple:
    """The arms tied with k^* in H (Delta_k = 0; k^* is never in H): those whose terms are indeterminate."""
    return tuple(np.flatnonzero((gs == 0) & in_h).tolist())


@dataclass(frozen=True)
class TaccBound:
    """Per-arm terms of ``thm:analysis-main-regret`` (``eq:analysis-main-regret``).

    Attributes (tuples, one entry per arm):
        classes: the class used for each arm (OPTIMAL, A, C^d, or H = B / C^u).
        low_count_bound: the low-fidelity count charged: N_gamma + 1 (A), N_gamma + S_0 + 1 (C^d, H), 0 (k^*).
        high_count_bound: the high-fidelity count charged: 1 (A, C^d), 1 + ceil(4 ell / Delta^2) (H), 0 (k^*).
        terms: Delta_k (lambda_L low_count_bound + lambda_H high_count_bound), in cost x reward units.
        total: the bound on R(Lambda), the terms' exact values summed and rounded once (as tacc check has it).
        conventions: the arms whose term is 0 x inf taken as 0 (:data:`TIED_TERM`): tied with k^*, in H.
    """

    classes: tuple
    low_count_bound: tuple
    high_count_bound: tuple
    terms: tuple
    total: float
    conventions: tuple = ()


def tacc_regret_bound(gaps, classes: Sequence[ArmClass], *, n_gamma: int, s0: int, ell: float,
                      cost_low: float, cost_high: float) -> TaccBound:
    r"""Regret bound for TACC (``thm:analysis-main-regret``).

    .. math::

        R(\Lambda) \le\; & \sum_{k \in \mathcal{A}_\gamma} \Delta_k
        \left[\lambda^{(L)} (N_\gamma + 1) + \lambda^{(H)}\right]
        + \sum_{k \in \mathcal{C}^{d}_\gamma} \Delta_k \left[\lambda^{(L)} (N_\gamma + S_0 + 1)
        + \lambda^{(H)}\right] \\
        & + \sum_{k \in \mathcal{H}_\gamma} \Delta_k \left[\lambda^{(L)} (N_\gamma + S_0 + 1)
        + \lambda^{(H)} \left(1 + \left\lceil \frac{4 \ell_\Lambda}{\Delta_k^2} \right\rceil\right)\right].

    Args:
        gaps: Delta_k per arm (0 for k^* and for arms tied with it).
        classes: per arm, OPTIMAL, A, B, C_D or C_U (refine C first: :func:`refine_partition` after a run,
            :func:`prior_partition` for the bound that holds before any run).
        n_gamma, s0, ell: N_gamma, S_0, ell_Lambda.
        cost_low, cost_high: lambda^(L), lambda^(H).

    Returns:
        A :class:`TaccBound`. An arm with Delta_k = 0 contributes 0, its count bounds are still reported
        (inf for the high count of a tied arm in H, whose term 0 x inf is taken as 0: ``conventions`` names it).

    >>> b = tacc_regret_bound([0.0, 0.5], [ArmClass.OPTIMAL, ArmClass.B], n_gamma=10, s0=2, ell=1.0,
    ...                       cost_low=1.0, cost_high=10.0)
    >>> b.terms, b.total   # 0.5 * (13 + 10 * 17)
    ((0.0, 91.5), 91.5)
    """
    gs, ng, s, e, cl, ch, code = _check_common(gaps, classes, n_gamma, s0, ell, cost_low, cost_high)
    classes = tuple(classes)
    low = np.choose(code, [0, ng + 1, ng + s + 1, ng + s + 1]).tolist()
    high = np.choose(code, [0, 1, 1, 0]).tolist()
    in_high = np.flatnonzero(code == 3)
    for k, cc in zip(in_high.tolist(), confirmation_counts(e, gs[in_high]), strict=True):
        high[k] = 1 + cc
    terms = _terms(gs, cl, low, ch, high)
    return TaccBound(tuple(classes), tuple(low), tuple(high), tuple(terms), scaled_total(gs, cl, low, ch, high),
                     _tied(gs, code == 3))


@dataclass(frozen=True)
class CorollaryTerms:
    """``cor:analysis-main-regret-order``: the order-form terms and the explicit bound the proof yields.

    Tuples per arm, and totals.

    Attributes:
        low_order: lambda_L Delta_k log(T_Lambda) / gamma^2 (every suboptimal arm).
        high_order: lambda_H log(T_Lambda) / Delta_k for arms in H, else 0.
        order_total: the sum of both: the quantity inside O(.).
        explicit: per-arm upper bounds on the theorem's terms after the proof's substitutions
            N_gamma <= 1 + ell / gamma^2 and ceil(x) <= x + 1:
            A: Delta lambda_L (ell/gamma^2 + 2) + Delta lambda_H; C^d: Delta lambda_L (ell/gamma^2 + S_0 + 2) +
            Delta lambda_H; H: Delta lambda_L (ell/gamma^2 + S_0 + 2) + lambda_H (2 Delta + 4 ell / Delta).
        explicit_total: their sum (>= the theorem's total).
        ratio: explicit_total / order_total: the constant hidden in O(.) for this instance (inf if the order
            total is 0 while the explicit total is not; NaN, undefined, if both are 0: 0 / 0, no suboptimal arm).
        left_out: the arms tied with k^* in H, whose infinite high_order and explicit terms are left out of the
            sums, taken as 0 (:data:`TIED_LEFT_OUT`).
    """

    low_order: tuple
    high_order: tuple
    order_total: float
    explicit: tuple
    explicit_total: float
    ratio: float
    left_out: tuple = ()


def _square(x: float) -> float:
    """x^2, inf when it overflows (float ``**`` raises OverflowError): a huge gamma makes the 1 / gamma^2 terms 0."""
    try:
        return x ** 2
    except OverflowError:
        return math.inf


def corollary_order(gaps: Sequence[float] | np.ndarray, classes: Sequence[ArmClass], *, gamma: float, horizon: int,
                    ell: float, s0: int, cost_low: float, cost_high: float) -> CorollaryTerms:
    r"""Order-wise regret bound (``cor:analysis-main-regret-order``).

    .. math::

        R(\Lambda) = O\left(\lambda^{(L)} \sum_{k \ne k^\star} \frac{\Delta_k}{\gamma^2} \log T_\Lambda
        + \lambda^{(H)} \sum_{k \in \mathcal{H}_\gamma} \frac{\log T_\Lambda}{\Delta_k}\right).

    The text before the corollary substitutes N_gamma = ceil(ell / gamma^2); that is off by one when
    ell / gamma^2 is an integer (then N_gamma = ell / gamma^2 + 1). The proof's own inequality
    N_gamma <= 1 + ell / gamma^2 is true and is the one used for ``explicit`` here.

    Args:
        gaps, classes: as for :func:`tacc_regret_bound` (C refined).
        gamma, horizon, ell, s0, cost_low, cost_high: gamma, T_Lambda, ell_Lambda, S_0, lambda^(L), lambda^(H).

    >>> c = corollary_order([0.0, 0.5], [ArmClass.OPTIMAL, ArmClass.A], gamma=0.5, horizon=100, ell=1.0,
    ...                     s0=2, cost_low=1.0, cost_high=10.0)
    >>> c.explicit   # 0.5 * (4 + 2) + 0.5 * 10
    (0.0, 8.0)
    """
    gs, _, s, e, cl, ch, kind = _check_common(gaps, classes, 1, s0, ell, cost_low, cost_high)
    g2 = _square(v.positive_real("gamma", gamma))
    logt = math.log(v.count("horizon", horizon))
    h = kind == 3
    skip = (kind == 0) | (gs == 0)
    g = np.where(skip, 1.0, gs)                        # placeholder for skipped arms (their entries are 0)
    with np.errstate(over="ignore", invalid="ignore"):   # overflow gives inf, as in Python float arithmetic
        low = np.where(skip, 0.0, cl * g * logt / g2)
        high = np.where(skip | ~h, 0.0, ch * logt / g)
        expl = np.select([kind == 1, kind == 2],
                         [g * cl * (e / g2 + 2) + g * ch, g * cl * (e / g2 + s + 2) + g * ch],
                         g * cl * (e / g2 + s + 2) + ch * (2 * g + 4 * e / g))
    low, high, expl = low.tolist(), high.tolist(), np.where(skip, 0.0, expl).tolist()
    ot, et = math.fsum(low) + math.fsum(high), math.fsum(expl)
    ratio = et / ot if ot > 0 else (math.nan if et == 0 else math.inf)
    return CorollaryTerms(tuple(low), tuple(high), ot, tuple(expl), et, ratio, _tied(gs, h))


@dataclass(frozen=True)
class Comparison:
    """``prop:analysis-regret-improvement`` per arm (entries for arms outside C are 0 / False).

    Attributes:
        static: Delta_k [lambda_L (N_gamma + 1) + lambda_H (1 + ceil(4 ell / Delta_k^2))], the static rule's
            arm-level bound.
        adaptive: Delta_k [lambda_L (N_gamma + S_0 + 1) + lambda_H], TACC's bound for a C^d arm.
        difference: static - adaptive = Delta_k [lambda_H ceil(4 ell / Delta_k^2) - lambda_L S_0] (the paper
            writes ">=", and the two bounds differ by exactly this).
        strict: the paper's sufficient condition S_0 lambda_L <= lambda_H and ceil(4 ell / Delta^2) >= 2.
        applies: the arm is in C_gamma (C, C^d or C^u), where the comparison is stated.
    """

    static: tuple
    adaptive: tuple
    difference: tuple
    strict: tuple
    applies: tuple


def static_vs_adaptive(gaps: Sequence[float] | np.ndarray, classes: Sequence[ArmClass], *, n_gamma: int, s0: int,
                       ell: float, cost_low: float, cost_high: float) -> Comparison:
    r"""Arm-level comparison with the static threshold rule (``prop:analysis-regret-improvement``).

    .. math::

        R_{k,\mathrm{static}}(\Lambda) - R_{k,\mathrm{adapt}}(\Lambda) \ge \Delta_k \left[\lambda^{(H)}
        \left\lceil \frac{4 \ell_\Lambda}{\Delta_k^2} \right\rceil - \lambda^{(L)} S_0\right],
        \qquad k \in \mathcal{C}^{d}_\gamma.

    Computed for every arm of C_gamma (before a run, C^d is unknown; the comparison is what a C arm would gain
    if it turned out to be in C^d).

    >>> c = static_vs_adaptive([0.0, 0.5], [ArmClass.OPTIMAL, ArmClass.C], n_gamma=10, s0=2, ell=1.0,
    ...                        cost_low=1.0, cost_high=10.0)
    >>> c.difference[1], c.strict[1]   # 0.5 * (10 * 16 - 2)
    (79.0, True)
    """
    classes = tuple(classes)
    c_ids = {id(ArmClass.C), id(ArmClass.C_D), id(ArmClass.C_U)}
    in_c = np.fromiter(map(c_ids.__contains__, map(id, classes)), dtype=bool, count=len(classes))
    prior = replace_classes(classes, {ArmClass.C: ArmClass.B, ArmClass.C_D: ArmClass.B, ArmClass.C_U: ArmClass.B})
    gs, ng, s, e, cl, ch, _ = _check_common(gaps, prior, n_gamma, s0, ell, cost_low, cost_high)
    ok = in_c & (gs > 0)
    where = np.flatnonzero(ok)
    K = len(classes)
    st, ad, diff, strict = np.zeros(K), np.zeros(K), np.zeros(K), np.zeros(K, dtype=bool)
    if where.size:
        g = gs[where]
        cc = confirmation_counts(e, g)
        st[where] = scaled_sum(g, cl, ng + 1, ch, [1 + x for x in cc])
        ad[where] = scaled_sum(g, cl, ng + s + 1, ch, 1)
        diff[where] = scaled_sum(g, ch, cc, cl, s, sign=-1)
        strict[where] = [s * cl <= ch and x >= 2 for x in cc]
    return Comparison(tuple(st.tolist()), tuple(ad.tolist()), tuple(diff.tolist()), tuple(strict.tolist()),
                      tuple(ok.tolist()))
