"""The measures of the claims (``certify.CLAIMS``): for each statement of the paper, the measurements
``measure(ctx, record)`` makes of a run against the bounds of ``bounds``, and the value keys by which records that
would be measured alike share their measurements (:class:`certify._measurement.KeyedMeasure`)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

from bounds import ArmClass, prior_partition
from certify._exact import Decision, decide_scaled, rounding_error
from certify._measurement import (KeyedMeasure, Measurement, attach, decided, float_scaled, made, rank, ratio_of,
                                  scaled_measurement, with_exact)

__all__ = ["fidelity_rule", "early_key", "low_count", "high_count", "high_key", "class_a", "class_cd", "counts_key",
           "theorem", "theorem_arms", "dnc_theorem", "static_theorem", "refined_key", "rdfe_width",
           "rdfe_width_scan", "rdfe_elim", "elim_key", "rdfe_cost", "cost_key", "rdfe_total", "rdfe_phase_sum",
           "rdfe_stated", "control", "gap_above_two"]


_INT = frozenset((int,))


def _ints(*tuples) -> tuple | None:
    """``tuples`` as a key when each is a tuple of ints (what the engines store), else None: a count 1.0 or True
    is measured as given (a measurement keeps the type of its value), never served as the count 1."""
    for t in tuples:
        if type(t) is not tuple or not set(map(type, t)) <= _INT:
            return None
    return tuples



def low_count(s0_of: Callable) -> KeyedMeasure:
    def measure(ctx, rec):
        bound = ctx.low_bound(s0_of(ctx, rec))
        return [ctx.count("N_L", bound, rec.n_low[k], arm=k) for k in ctx.not_best]

    def key(ctx, rec):
        n = _ints(rec.n_low)
        return None if n is None else (s0_of(ctx, rec), n)
    return KeyedMeasure(measure, key, shared=True)


# the value keys of the measures (KeyedMeasure): what of a record each measure reads
def high_key(ctx, rec):
    return _ints(rec.n_high)


def early_key(ctx, rec):
    return _ints(rec.high_before_threshold)


def counts_key(ctx, rec):
    """N^(L), N^(H): the regret (R and its shares)."""
    return _ints(rec.n_low, rec.n_high)


def refined_key(ctx, rec):
    """N^(L), the window's H queries (the refined classes, ``ArmRunFacts``) and N^(H)."""
    return _ints(rec.n_low, rec.high_in_window, rec.n_high)


_FLOAT = frozenset((float,))


def elim_key(ctx, rec):
    """(r, eps_r, survivors) of every completed phase."""
    out = []
    for ph in rec.phases:
        if ph.completed:
            if type(ph.r) is not int or type(ph.eps) is not float or _ints(ph.survivors) is None:
                return None
            out.append((ph.r, ph.eps, ph.survivors))
    return tuple(out)


def cost_key(ctx, rec):
    """(r, active arms, fidelities, costs) of every completed phase (the costs floats, as the engines store them)."""
    out = []
    for ph in rec.phases:
        if ph.completed:
            c = ph.cost
            if (type(ph.r) is not int or _ints(ph.active, ph.fidelity) is None or type(c) is not tuple
                    or not set(map(type, c)) <= _FLOAT):
                return None
            out.append((ph.r, ph.active, ph.fidelity, c))
    return tuple(out)


def fidelity_rule(ctx, rec):
    return [ctx.count("H queries while G(N_L) >= gamma", 0, rec.high_before_threshold[k], arm=k)
            for k in range(ctx.problem.n_arms)]


def high_count(ctx, rec):
    return [ctx.count("N_H", ctx.high_bounds[k], rec.n_high[k], arm=k) for k in ctx.suboptimal]


def class_a(ctx, rec):
    return [ctx.count("N_H", 1, rec.n_high[k], arm=k) for k in ctx.suboptimal if ctx.classes[k] is ArmClass.A]


def class_cd(ctx, rec):
    refined = ctx.refined(rec)
    cap = ctx.low_bound(ctx.problem.s0)
    out = []
    for k in ctx.suboptimal:
        if refined[k] is ArmClass.C_D:
            out += [ctx.count("N_H", 1, rec.n_high[k], arm=k), ctx.count("N_L", cap, rec.n_low[k], arm=k)]
    return out


def _total_regret(ctx, rec, classes, s0: int) -> list:
    """R(Lambda) against the theorem's bound for ``classes`` and ``s0``, both exact (integers over 2**shift)."""
    _, total = ctx.bound_scaled(classes, s0)
    return [scaled_measurement("R", total, sum(ctx.regret_scaled(rec)), ctx.shift)]


def theorem(ctx, rec):
    return _total_regret(ctx, rec, ctx.refined(rec), ctx.problem.s0)


def theorem_arms(ctx, rec):
    terms, _ = ctx.bound_scaled(ctx.refined(rec), ctx.problem.s0)
    shares = ctx.regret_scaled(rec)
    return [scaled_measurement("R_k", terms[k], shares[k], ctx.shift, arm=k) for k in ctx.suboptimal]


def dnc_theorem(ctx, rec):
    return _total_regret(ctx, rec, prior_partition(ctx.classes), 0)


def static_theorem(ctx, rec):
    every_h = tuple(ArmClass.OPTIMAL if g == 0 else ArmClass.B for g in ctx.gaps)
    return _total_regret(ctx, rec, every_h, 0)


def _completed(rec):
    return [ph for ph in rec.phases if ph.completed]


#: roundings behind a stored RDFE interval end mu_hat +- (sqrt(ell / n) + B_k(n)): the quotient, the square
#: root, the sum with B_k(n), the sum with mu_hat (``simulate``'s upper / lower).
_INTERVAL_ROUNDINGS = 4
#: roundings behind ``bounds.rdfe_regret_bound``'s totals, counted on its longest path: an oracle cost (1),
#: the phase sum and the ratio that make C_1 (2), the product with Delta_k and the sum over arms (2), the
#: product with C_1 (1), the warm-start term and its sum (2).
_RDFE_BOUND_ROUNDINGS = 8


def rdfe_width(ctx, rec):
    """Each end of a stored interval is a float rounding of mu_hat +- (G(n) + B_k(n)) with at most
    ``_INTERVAL_ROUNDINGS`` roundings, so width and centre are compared with the error bound
    gamma_4 (|UCB| + |LCB|) (``certify._exact.rounding_error``). Width UCB - LCB, half-width and
    |mu_H - (UCB + LCB) / 2| are exact: integers over 2**(shift + 2).

    Each measurement is :func:`scaled_measurement`'s, made in one step (:func:`made`): a run has one per active
    arm and completed phase, each with its own interval ends, so none is shared between runs."""
    return [made(*args) for args in _width_values(ctx, rec)]


def _width_values(ctx, rec):
    """The arguments of :func:`made` of each measurement of :func:`rdfe_width`, in order."""
    mu = ctx.mu_high_scaled
    for ph in rec.phases:
        if not ph.completed:
            continue
        r = ph.r
        ee, se = float_scaled(ph.eps)
        for k, u, lo in zip(ph.active, ph.ucb, ph.lcb, strict=True):
            err = rounding_error(abs(u) + abs(lo), _INTERVAL_ROUNDINGS)
            (eu, su), (el, sl), (em, sm) = float_scaled(u), float_scaled(lo), mu[k]
            s = max(su, sl, sm, se)
            eu, el, em, e_r = eu << (s - su), el << (s - sl), em << (s - sm), ee << (s - se)
            half = (eu - el) << 1                           # (UCB - LCB) / 2, over 2**(s + 2)
            dev = abs((em << 2) - ((eu + el) << 1))         # |mu_H - (UCB + LCB) / 2|
            en, es = float_scaled(err) if err != 0 else (0, 0)
            yield "UCB - LCB", e_r, half << 1, s + 2, k, r, err, en, es
            yield "|mu_H - center|", half, dev, s + 2, k, r, err, en, es


def rdfe_width_scan(ctx, rec) -> tuple:
    """``certify._verdict``'s scan of :func:`rdfe_width`'s measurements (:class:`ScannedMeasure`): each decided and
    ranked on its integers and shown floats, the worst and the first undecided made (with their decisions)."""
    n, top, worst, inside, exceeded = 0, None, None, None, False
    fails, undecided = Decision.FAILS, Decision.UNDECIDED
    for args in _width_values(ctx, rec):
        _, bound, empirical, shift, _, _, _, en, es = args
        n += 1
        if es > shift:                                      # over the error's power of two (as attach does)
            bound, empirical, shift = bound << (es - shift), empirical << (es - shift), es
        d = decide_scaled(empirical, bound, en << (shift - es))
        one = 1 << args[3]
        key = rank(d, ratio_of(args[1] / one, args[2] / one))
        if top is None or key > top:
            top, worst = key, (args, d)
        if d is fails:
            exceeded = True
        elif d is undecided and inside is None:
            inside = (args, d)
    made = {id(c): decided(*c) for c in (worst, inside) if c is not None}
    return (n, None if worst is None else made[id(worst)], exceeded, None if inside is None else made[id(inside)],
            n > 0)



def rdfe_elim(ctx, rec):
    out = []
    for ph in _completed(rec):
        kept = [k for k in ph.survivors if ctx.gaps[k] >= ph.eps]
        out.append(ctx.count("survivors with Delta_k >= eps_r", 0, len(kept), phase=ph.r))
    return out


def _phase_cost(ctx, cost: float, fidelity: int) -> tuple:
    """A completed block's cost, a running float sum of n equal prices: exactly n lambda, with n recovered as
    round(cost / lambda) (the sum's error, at most gamma_n n lambda, is far below lambda / 2). If the stored cost
    is not such a sum (a tampered record), it is compared with the summation bound gamma_T cost instead.

    Returns ((num, shift), error): the value num / 2**shift exactly, and the error bound of the comparison."""
    price, pr, sp = ctx.price(fidelity)
    n = round(cost / price)
    c, sc = float_scaled(cost)
    tol, st = float_scaled(rounding_error(cost, max(n, 1)))
    s = max(sp, sc, st)
    if abs((c << (s - sc)) - ((pr * n) << (s - sp))) <= tol << (s - st):     # |cost - n lambda| <= gamma_n cost
        return (pr * n, sp), 0.0
    return (c, sc), rounding_error(cost, ctx.problem.horizon)


def rdfe_cost(ctx, rec):
    out = []
    for ph in _completed(rec):
        for k, f, c in zip(ph.active, ph.fidelity, ph.cost, strict=True):
            (value, shift), err = _phase_cost(ctx, c, f)
            bound, b = ctx.oracle_cost_scaled(k, ph.r)
            m = Measurement("Delta Lambda_{k,r}", float(bound), c, arm=k, phase=ph.r, error=err)
            if b is None:                                   # not an integer over a power of two: Fractions
                out.append(with_exact(m, bound, Fraction(value, 1 << shift)))
                continue
            s = max(shift, b[1])
            out.append(attach(m, b[0] << (s - b[1]), value << (s - shift), s))
    return out


def _rdfe_regret(ctx, rec, bound: float) -> list:
    """R (exact, from the counts) against a float RDFE bound with its rounding error (an infinite bound, for
    example when c_k^*(Delta_k / 4) overflows at gaps near 0, is compared as a value: it holds)."""
    r = sum(ctx.regret_scaled(rec))
    if math.isinf(bound):
        return [Measurement("R", bound, r / (1 << ctx.shift))]
    err = rounding_error(bound, _RDFE_BOUND_ROUNDINGS)
    b, shift = float_scaled(bound)
    s = max(shift, ctx.shift)
    return [scaled_measurement("R", b << (s - shift), r << (s - ctx.shift), s, error=err)]


def rdfe_total(ctx, rec):
    return _rdfe_regret(ctx, rec, ctx.rdfe.total)


def rdfe_phase_sum(ctx, rec):
    return _rdfe_regret(ctx, rec, ctx.rdfe.phase_sum_total)


def rdfe_stated(ctx, rec):
    return _rdfe_regret(ctx, rec, ctx.rdfe.paper_total)



def control(ctx, rec):
    bounds = ctx.ucb_bounds
    return [ctx.count("N_H", bounds[k], rec.n_high[k], arm=k) for k in ctx.suboptimal]


def gap_above_two(ctx) -> str | None:
    """The largest gap outside ``bounds.RdfeBound.paper_form_valid`` (Delta_k > 2: ``rdfe-thm.terminal-vs-quarter``'s
    condition), in words, or None when every gap is at most 2."""
    above = [k for k, ok in enumerate(ctx.rdfe.paper_form_valid) if not ok]
    k = max(above, key=ctx.gaps.__getitem__, default=None)
    return None if k is None else f"Delta_{k} = {float(ctx.gaps[k]):.6g} > 2"
