"""Assumption checks on an instance with its parameters, decided exactly or with a stated error bound.

Each check is tied to its paper label and returns an :class:`AssumptionResult`: held, FAILED with a witness
(the arm and count where it fails, with the margin), or UNDECIDED (the margin lies inside the error bound of
the computation; the detail gives both), and a plain-words detail. A failed assumption never raises: it is an
input to the verdicts, which mark the claims that need it NOT_APPLICABLE (UNDECIDED if it is undecided).

Every comparison is exact: floats are dyadic rationals, so the instance's values (means, tables, gamma) are
compared in ``fractions.Fraction`` arithmetic; the costs and budget (``alg:start``, ``cap:S0``) are read as the
decimals written, as the engines' budget check counts them (``bounds.first_round_paid``,
``bounds.continuation_cap_holds``, ``bounds.cost_units``), and where a quantity is irrational (a power decay's
terms, the logarithm in rho_min) the check either uses a proof valid at every count (the decay models) or
interval arithmetic (``mpmath.iv``) whose error bound is stated. No relative slack is used anywhere.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from mpmath import iv
from mpmath.libmp import to_rational

from bounds import (SUBGAUSSIAN_READING, ResidualDecay, TableLowFidelity, continuation_cap_holds, dyadic_ints,
                    exact_amount, first_round_cost, first_round_paid, min_rho, rdfe_dyadic_constant, rho_readings,
                    toml_value)
from certify._exact import exact

__all__ = ["AssumptionResult", "ASSUMPTIONS", "check_assumptions", "check_plugin", "check_mono_cert",
           "check_dyadic", "check_cap", "check_rho", "check_noise", "check_first_round"]

#: the assumption keys, with the paper label (or the paper's text) each one stands for.
ASSUMPTIONS = {
    "ass:plugin": "certificate U_k nondecreasing and sum_{tau<=n} |mu_k^(L)(tau) - mu_k^(H)| <= U_k(n), n <= T",
    "ass:mono-cert": "Delta_k^(L)(n) >= 2 gamma, once reached at n <= N_gamma + S0, holds up to N_gamma + S0",
    "ass:app-rdfe-dyadic": "sum_{r<=r_k} c_k^*(eps_r) <= C_dyad c_k^*(eps_{r_k}) (smallest C_dyad per arm)",
    "cap:S0": "S0 lambda^(L) <= lambda^(H) (sec:method, thm:analysis-main-regret)",
    "lem:ci:rho": "rho >= the smallest rho for which the union bound of lem:ci holds for this noise (its exact "
                  "tail; the sub-Gaussian reading beside)",
    "sec:problem:noise": "noise 1-sub-Gaussian (sec:problem): sigma <= 1, Bernoulli (1/2) always",
    "alg:start": "the budget covers the first round K (lambda^(L) + lambda^(H)) of alg:adaptive-mf-mab",
}

#: counts checked one by one for a low-fidelity model that is neither a decay nor a table model (beyond, the
#: check is UNDECIDED: the assumption is about every n <= T).
GENERIC_WORK = 2_000_000
#: binary precision of the interval arithmetic of ``lem:ci:rho`` (its error bound is printed).
RHO_PRECISION = 256


@dataclass(frozen=True)
class AssumptionResult:
    """One assumption on one instance: ``held``, a ``witness`` where it fails, and what was checked.

    ``undecided`` is True when the check could not decide (the margin lies inside the error bound); then
    ``held`` is False and the result is neither held nor failed. ``status`` is "held", "FAILED" or
    "UNDECIDED"."""

    key: str
    held: bool
    detail: str
    witness: dict | None = None
    values: dict = field(default_factory=dict)
    undecided: bool = False

    @property
    def statement(self) -> str:
        return ASSUMPTIONS[self.key]

    @property
    def failed(self) -> bool:
        return not self.held and not self.undecided

    @property
    def status(self) -> str:
        return "held" if self.held else "UNDECIDED" if self.undecided else "FAILED"


def _prefix(model, k: int, m: int, *extra) -> tuple:
    """``extra`` floats, then mu^(L)(1..m) and U(1..m) of arm k, as exact integers over one power of two
    (``bounds.dyadic_ints``): (extra ints, mean ints, certificate ints, shift)."""
    n = np.arange(1, m + 1)
    values = [*extra, *np.atleast_1d(model.mean_low(k, n)).tolist(), *np.atleast_1d(model.certificate(k, n)).tolist()]
    ints, shift = dyadic_ints(values)
    e = len(extra)
    return ints[:e], ints[e:e + m], ints[e + m:], shift


@dataclass
class _Scan:
    """One reading of ``ass:plugin`` over the prefix: the first count where U decreases, and the excesses of the
    running sum over U (the first, the largest, the largest relative to U), each (arm, n, sum, U) as Fractions."""

    decrease: tuple | None = None
    first: tuple | None = None
    largest: tuple | None = None
    largest_relative: tuple | None = None

    @property
    def held(self) -> bool:
        return self.decrease is None and self.first is None

    def add(self, k: int, mu, means, certs, scale: int = 1) -> None:
        """Arm ``k``'s prefix: ``mu``, ``means`` and ``certs`` exact (ints over ``scale``, or Fractions). The arm's
        first, largest and largest relative excess are kept in its own numbers and made Fractions once, at its
        end (a failing prefix of millions of counts makes no Fraction per count)."""
        total, prev = 0, None
        first: tuple | None = None       # (n, total, u) in this arm's numbers; big, rel once first is set
        big: tuple = ()
        rel: tuple = ()
        for i, (x, u) in enumerate(zip(means, certs, strict=True), start=1):
            if self.decrease is None and prev is not None and u < prev:
                self.decrease = (k, i, Fraction(prev, scale), Fraction(u, scale))
            total += abs(x - mu)
            if total > u:
                if first is None:
                    first = big = rel = (i, total, u)
                else:
                    if total - u > big[1] - big[2]:
                        big = (i, total, u)
                    # (total - u) / u > (t - v) / v, with U = 0 infinite (the first such count kept)
                    if rel[2] > 0 and (u == 0 or (total - u) * rel[2] > (rel[1] - rel[2]) * u):
                        rel = (i, total, u)
            prev = u
        if first is None:
            return
        first_h, big_h, rel_h = ((k, h[0], Fraction(h[1], scale), Fraction(h[2], scale)) for h in (first, big, rel))
        if self.first is None:
            self.first = first_h
        if self.largest is None or big_h[2] - big_h[3] > self.largest[2] - self.largest[3]:
            self.largest = big_h
        if self.largest_relative is None or _relative(rel_h) > _relative(self.largest_relative):
            self.largest_relative = rel_h


def _relative(hit: tuple) -> Fraction | float:
    """An excess over U(n) relative to U(n) (inf where U(n) = 0)."""
    _, _, total, u = hit
    return (total - u) / u if u > 0 else math.inf


def _excess(hit: tuple) -> dict:
    k, n, total, u = hit
    return {"arm": k, "n": n, "sum |mu_L - mu_H|": float(total), "U(n)": float(u), "margin": float(u - total),
            "relative": float(_relative(hit))}


def _decimal(x) -> Fraction:
    """A stored float as the decimal it was written as: the shortest decimal that gives back the same double."""
    return Fraction(repr(float(x)))


def _plugin_failure(scan: _Scan, reading: str) -> AssumptionResult:
    """The failed ``ass:plugin`` of one reading: U decreasing at the first count it does, else the largest excess
    (absolute, and relative to U(n)) with the first beside it."""
    if scan.decrease is not None:
        k, i, prev, u = scan.decrease
        return AssumptionResult("ass:plugin", False, f"U_k decreases at arm {k}, n = {i} ({reading})",
                                {"arm": k, "n": i, "U(n-1)": float(prev), "U(n)": float(u), "margin": float(u - prev)})
    assert scan.largest is not None and scan.first is not None and scan.largest_relative is not None
    big, first, rel = (_excess(h) for h in (scan.largest, scan.first, scan.largest_relative))

    def where(e: dict) -> str:
        return f"arm {e['arm']}, n = {e['n']}"

    detail = (f"the certificate is exceeded ({reading}), most at {where(big)} by {-big['margin']:.3g} "
              f"({big['relative']:.3g} of U(n))")
    if where(rel) != where(big):
        detail += f", most relative to U(n) at {where(rel)} ({rel['relative']:.3g} of U(n))"
    if where(first) != where(big):
        detail += f"; first at {where(first)} by {-first['margin']:.3g}"
    return AssumptionResult("ass:plugin", False, detail, {**big, "largest_relative": rel, "first": first})


def _rounding_note(floats: _Scan) -> str:
    """What the engine's floats show where the decimals written meet the certificate (nothing if they meet it)."""
    if floats.held:
        return ""
    if floats.decrease is not None:
        k, i, _, _ = floats.decrease
        return f"; the engine's floats, rounded from them, have U_k decreasing at arm {k}, n = {i}: a rounding"
    assert floats.largest is not None
    e = _excess(floats.largest)
    return (f"; the engine's floats, rounded from them, exceed it at arm {e['arm']}, n = {e['n']} by "
            f"{-e['margin']:.3g}: a rounding, not an excess of the instance written")


def check_plugin(problem) -> AssumptionResult:
    """``ass:plugin``: U_k nondecreasing and sum_{tau <= n} |mu_k^(L)(tau) - mu_k^(H)| <= U_k(n), decided
    exactly at every count n (not only n <= T) for the toolkit's models:

    - decay models (power and residual decay): a proof, at every count: the n-th term of the sum is
      |b_k + a_k t_n| <= |b_k| + |a_k| t_n, the n-th increment of U_k (triangle inequality; clipping to [0, 1]
      moves no mean away from mu_k^(H) in [0, 1]), and the increments are >= 0. No floating sum is compared, so
      a large |mu| cannot make it fail by rounding.
    - table models (table, checkpoint, frozen): the prefix is decided in exact rational arithmetic, and past the
      prefix the sum and U_k grow by the same |c_k| per count, so the margin of count m holds for ever. A table
      written in a configuration (model ``table``) is decided on the decimals written (each stored float read as
      the shortest decimal that gives it back, as costs are); the engine's floats are compared too, and where
      they differ the detail says so (an excess of the floats only is a rounding). The checkpoint and frozen
      models compute their means and certificate, so their floats are the instance.
    - any other model: its values (computed floats, not written decimals) compared exactly for
      n <= min(T, ``GENERIC_WORK``); UNDECIDED if T is larger.

    A failure's witness is the largest excess (``margin`` < 0 at ``arm``, ``n``), with the largest relative to
    U(n) (``largest_relative``) and the first (``first``) beside it.
    """
    model, T = problem.instance.low, problem.horizon
    if isinstance(model, ResidualDecay):
        return AssumptionResult("ass:plugin", True, "holds at every count by construction (decay model: "
                                "|b + a t| <= |b| + |a| t termwise, clipping only moves means toward mu^(H))",
                                values={"checked_up_to": math.inf})
    table = isinstance(model, TableLowFidelity)
    limit = model.m if table else min(T, GENERIC_WORK)
    floats = _Scan()
    for k in range(problem.n_arms):
        (mu,), means, certs, shift = _prefix(model, k, limit, float(model.mu_high[k]))
        floats.add(k, mu, means, certs, 1 << shift)
    if table and model.name == "table":        # a table as written (checkpoint and frozen compute theirs)
        decimals = _Scan()
        n = np.arange(1, limit + 1)
        for k in range(problem.n_arms):
            decimals.add(k, _decimal(model.mu_high[k]),
                         [_decimal(x) for x in np.atleast_1d(model.mean_low(k, n)).tolist()],
                         [_decimal(x) for x in np.atleast_1d(model.certificate(k, n)).tolist()])
        if not decimals.held:
            bad = _plugin_failure(decimals, "the decimals written")
            if floats.held:
                bad = dataclasses.replace(bad, detail=bad.detail + "; the engine's floats, rounded from them, meet it")
            return bad
        return AssumptionResult("ass:plugin", True, f"exact on the table's {limit} counts (the decimals written) "
                                "and the constant tail past it: holds at every count" + _rounding_note(floats),
                                values={"checked_up_to": math.inf})
    if not floats.held:
        return _plugin_failure(floats, "exact")
    if table:
        return AssumptionResult("ass:plugin", True, f"exact on the table's {limit} counts and the constant tail "
                                "past it: holds at every count", values={"checked_up_to": math.inf})
    if limit < T:
        return AssumptionResult("ass:plugin", False, f"checked exactly for n <= {limit} only (T = {T}): "
                                "undecided beyond", values={"checked_up_to": limit}, undecided=True)
    return AssumptionResult("ass:plugin", True, f"exact for every n <= T = {T}", values={"checked_up_to": T})


class _TableGap:
    """Delta_k^(L)(n) - 2 gamma of a table model, exactly, at any count: the prefix from the stored floats, past
    the prefix the closed form of ``bounds._table`` (constant tail mean, U_k growing by |c_k|,
    B_k(n) = max(U_k(n)/n, |c_k|)), which has the form L - R/n there: monotone. Integer arithmetic over one
    power of two; B_k(n) is kept as a pair (numerator, count)."""

    def __init__(self, model, k: int, mu_star: float, two_gamma: float):
        m = self.m = model.m
        (star, thr, mu), means, certs, self.shift = _prefix(model, k, m, mu_star, two_gamma,
                                                           float(model.mu_high[k]))
        self.x = star - thr                                 # mu^* - 2 gamma
        self.sums = list(itertools.accumulate(means))
        self.mean_m, self.u_m, self.c = means[-1], certs[-1], abs(means[-1] - mu)
        run = (self.u_m + self.c, m + 1) if self.u_m + self.c >= self.c * (m + 1) else (self.c, 1)
        b = [run] * m
        for i in range(m, 0, -1):
            if certs[i - 1] * run[1] > run[0] * i:
                run = (certs[i - 1], i)
            b[i - 1] = run
        self.b = b

    def __call__(self, n: int) -> Fraction:
        if n <= self.m:
            total, (a, q) = self.sums[n - 1], self.b[n - 1]
        else:
            total = self.sums[-1] + (n - self.m) * self.mean_m
            u = self.u_m + (n - self.m) * self.c
            a, q = (u, n) if u >= self.c * n else (self.c, 1)
        return Fraction(self.x * n * q - total * q - a * n, (n * q) << self.shift)


class _GenericGap:
    """Delta_k^(L)(n) - 2 gamma of any other model from its computed floats (``bounds.low_gap``'s inputs),
    exactly."""

    def __init__(self, model, k: int, mu_star: float, two_gamma: float):
        self.model, self.k, self.m = model, k, math.inf
        self.x = exact(mu_star) - exact(two_gamma)

    def __call__(self, n: int) -> Fraction:
        return self.x - exact(self.model.avg_mean_low(self.k, n)) - exact(self.model.mismatch_bound(self.k, n))


def _first(pred, lo: int, hi: int) -> int | None:
    """The first n in [lo, hi] with pred(n), for a predicate monotone (False then True) on [lo, hi]."""
    if lo > hi or not pred(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _scan(gap, pred, lo: int, hi: int) -> int | None:
    """The first n in [lo, hi] with pred(gap(n)): one by one on the prefix, then on the monotone tail either
    the left end or a bisection (pred of a monotone function changes at most once on the tail)."""
    top = min(hi, gap.m)
    for n in range(lo, top + 1):
        if pred(gap(n)):
            return n
    a = max(lo, top + 1)
    if a > hi:
        return None
    if pred(gap(a)):
        return a
    return _first(lambda n: pred(gap(n)), a, hi)


def check_mono_cert(problem) -> AssumptionResult:
    """``ass:mono-cert``: for each suboptimal arm, once Delta_k^(L)(n) >= 2 gamma at some n <= N_gamma + S0, it
    stays >= 2 gamma up to N_gamma + S0 (Delta_k^(L) as in ``bounds.low_gap``, the expression tau_k uses).

    Decay models: Delta_k^(L) is nondecreasing in n at every count (proved in ``bounds._decay``'s docstring and
    checked by ``proofs_checks``), so the assumption holds. Table models: exact rational values at every count
    of the window (closed form past the prefix). Other models: their computed values, compared exactly.
    """
    model, inst = problem.instance.low, problem.instance
    W = problem.n_gamma + problem.s0
    if isinstance(model, ResidualDecay):
        return AssumptionResult("ass:mono-cert", True, "holds by construction: Delta^(L) is nondecreasing under "
                                "a decay model (bounds._decay)")
    two_gamma = 2.0 * problem.gamma                         # exact: doubling a float does not round
    for k in range(problem.n_arms):
        if inst.gaps[k] == 0:
            continue
        excess = (_TableGap if isinstance(model, TableLowFidelity) else _GenericGap)(model, k, float(inst.mu_star),
                                                                                   two_gamma)
        first = _scan(excess, lambda d: d >= 0, 1, W)
        if first is None:
            continue
        lost = _scan(excess, lambda d: d < 0, first + 1, W)
        if lost is not None:
            d = excess(lost)
            return AssumptionResult("ass:mono-cert", False,
                                    f"arm {k}: Delta^(L) >= 2 gamma at n = {first}, lost at m = {lost} (exact)",
                                    {"arm": k, "n": first, "m": lost, "Delta_L(m)": float(d + exact(two_gamma)),
                                     "2 gamma": two_gamma, "margin": float(d)})
    return AssumptionResult("ass:mono-cert", True,
                            f"exact at every n <= N_gamma + S0 = {W} on every suboptimal arm")


def check_dyadic(problem) -> AssumptionResult:
    """``ass:app-rdfe-dyadic`` with the smallest constant per arm (``bounds.rdfe_dyadic_constant``).

    Some finite C_dyad always exists for one instance; the assumption fails only if a constant is infinite.
    The constants are reported so a reader sees whether they stay bounded (the theorem's C_1 is their max).
    """
    inst = problem.instance
    consts = [rdfe_dyadic_constant(inst.low, k, float(inst.gaps[k]), problem.ell, problem.cost_low,
                                   problem.cost_high) if inst.gaps[k] > 0 else 1.0 for k in range(problem.n_arms)]
    worst = int(np.argmax(consts))
    held = all(math.isfinite(c) for c in consts)
    return AssumptionResult("ass:app-rdfe-dyadic", held, f"smallest C_dyad: max {consts[worst]:.4g} at arm {worst}",
                            None if held else {"arm": worst, "C_dyad": consts[worst]},
                            values={"c_dyad": consts, "c1": max(consts)})


def check_cap(problem) -> AssumptionResult:
    """S0 lambda^(L) <= lambda^(H): a full continuation block costs no more than one high-fidelity query
    (``bounds.continuation_cap_holds``: exact, the costs read as the decimals written, as the engines count)."""
    lhs = problem.s0 * exact_amount("cost_low", problem.cost_low)
    held = continuation_cap_holds(problem.s0, problem.cost_low, problem.cost_high)
    shown = _exactly_apart(lhs, problem.cost_high, held)
    return AssumptionResult("cap:S0", held, f"S0 lambda_L = {shown[0]}, lambda_H = {shown[1]}",
                            None if held else {"S0 lambda_L": float(lhs), "lambda_H": problem.cost_high})


def _rho_min_interval(scale: float, n_arms: int, horizon: int, delta: float) -> tuple:
    """An interval [lo, hi] of rationals holding rho_min = 2 sigma^2 (1 + log 2 / log(2 K T / delta)) (the
    formula of ``bounds.min_rho``), by ``mpmath.iv`` at ``RHO_PRECISION`` bits from the exact float inputs."""
    iv.prec = RHO_PRECISION
    s, d = iv.mpf(scale), iv.mpf(delta)
    x = 2 * s * s * (1 + iv.log(2) / iv.log(2 * n_arms * horizon / d))
    lo, hi = x._mpi_
    return Fraction(*to_rational(lo)), Fraction(*to_rational(hi))


def _apart(a: float, b: float) -> tuple[str, str]:
    """Two different floats of one sentence as text that differs: 4 significant digits, or, where those print both
    alike (rho one ulp below rho_min read "rho = 2.116, least certified 2.116"), each as TOML spells it
    (``bounds.toml_value``: the shortest text that reads back as the float)."""
    short = f"{a:.4g}", f"{b:.4g}"
    return short if short[0] != short[1] or a == b else (toml_value(a), toml_value(b))


def check_rho(problem) -> AssumptionResult:
    """rho at least the least certified rho of ``lem:ci`` on the instance's noise, both readings named.

    Two readings (``bounds.rho_readings``): the sub-Gaussian union bound (the paper's reading, ``bounds.min_rho``,
    what ``rho = "min"`` resolves to) and the noise's exact tail (Gaussian: erfc; Bernoulli: Hoeffding, the same
    value). A rho valid by either holds ``lem:ci`` on the instance, so ``lem:ci`` is judged there; the detail
    names the reading that decided (``values["reading"]``) and gives both least values where they differ.

    The sub-Gaussian rho_min is irrational; it is enclosed by interval arithmetic (``mpmath.iv``) and rho compared
    with both ends: held above, FAILED below (the margin exceeds the interval's width), UNDECIDED inside; the exact
    tail's value is enclosed by bisection (``bounds.min_rho_gaussian_interval``) and compared the same way.
    ``rho = "min"`` resolves to ``bounds.min_rho``'s float, the threshold the algorithm itself uses: that one is
    held as the definition of the smallest rho (to the float); the detail says so and gives its distance to
    rho_min."""
    noise = problem.instance.noise
    scale = noise.subgaussian_scale
    need = min_rho(scale, problem.n_arms, problem.horizon, problem.delta)
    lo, hi = _rho_min_interval(scale, problem.n_arms, problem.horizon, problem.delta)
    readings = rho_readings(noise.model, noise.sigma, problem.n_arms, problem.horizon, problem.delta)
    rho = exact(problem.rho)
    values = {"min_rho": need, "interval_width": float(hi - lo), "min_rho_exact_tail": readings.exact,
              "exact_tail": readings.exact_name}
    by_sub = readings.subgaussian_name
    if problem.rho == need:
        return AssumptionResult("lem:ci:rho", True, f"rho = {problem.rho:.4g} is bounds.min_rho (rho = min), the "
                                f"least by the {by_sub}, {float(rho - (lo + hi) / 2):.2g} from the exact rho_min",
                                values={**values, "reading": by_sub})
    shown, need_shown = _apart(problem.rho, need)
    beside = f"; {readings.exact:.4g} by the {readings.exact_name}" if readings.differ else ""
    if rho >= hi:
        return AssumptionResult("lem:ci:rho", True, f"rho = {shown}, least certified {need_shown} by the "
                                f"{by_sub}{beside}", values={**values, "reading": by_sub})
    if readings.differ and rho >= exact(readings.exact):
        exact_shown = _apart(problem.rho, readings.exact)[1]
        return AssumptionResult("lem:ci:rho", True, f"rho = {shown}, least certified {exact_shown} by the "
                                f"{readings.exact_name} (the reading used: the instance's noise); {need_shown} by "
                                f"the {SUBGAUSSIAN_READING} is not met",
                                values={**values, "reading": readings.exact_name, "exact_tail_only": True})
    if readings.differ and rho >= exact(readings.exact_low):
        return AssumptionResult("lem:ci:rho", False, f"rho = {problem.rho:.17g} lies inside the enclosure of the "
                                f"{readings.exact_name}'s least rho [{readings.exact_low!r}, {readings.exact!r}]",
                                values=values, undecided=True)
    if rho < lo:
        least = (f"{_apart(problem.rho, readings.exact)[1]} by the {readings.exact_name}, {need_shown} by the "
                 f"{SUBGAUSSIAN_READING}" if readings.differ else f"{need_shown} by the {by_sub}")
        # the margin against the least certified rho, the reading that decides (the exact tail's where they differ)
        margin = float(rho - exact(readings.exact)) if readings.differ else float(rho - lo)
        return AssumptionResult("lem:ci:rho", False, f"rho = {shown}, least certified {least}",
                                {"rho": problem.rho, "min_rho_exact_tail": readings.exact, "min_rho": need,
                                 "margin": margin}, values=values)
    return AssumptionResult("lem:ci:rho", False, f"rho = {problem.rho:.17g} lies inside the enclosure of rho_min "
                            f"(width {float(hi - lo):.3g})", values=values, undecided=True)


def check_noise(problem) -> AssumptionResult:
    """The paper's noise is 1-sub-Gaussian (``sec:problem``): Gaussian sigma <= 1; Bernoulli is 1/2-sub-Gaussian.
    (A float compared with 1: exact.)"""
    scale = problem.instance.noise.subgaussian_scale
    held = scale <= 1.0
    return AssumptionResult("sec:problem:noise", held, f"sub-Gaussian scale {scale:g}",
                            None if held else {"sigma": scale})


def check_first_round(problem) -> AssumptionResult:
    """The budget covers the start: K (lambda^(L) + lambda^(H)) <= Lambda (``bounds.first_round_paid``: exact, every
    amount read as the decimal written, as the engines' budget check counts)."""
    need = first_round_cost(problem.n_arms, problem.cost_low, problem.cost_high)
    held = first_round_paid(problem.n_arms, problem.cost_low, problem.cost_high, problem.budget)
    shown = _exactly_apart(need, problem.budget, held)
    return AssumptionResult("alg:start", held, f"first round costs {shown[0]}, budget {shown[1]}",
                            None if held else {"first round": float(need), "budget": problem.budget})


def _exactly_apart(amount: Fraction, bound: float, held: bool) -> tuple[str, str]:
    """An exact cost (``amount``, read in written decimals) and the float it is compared with, as text that shows
    the comparison's outcome: 4 significant digits, unless they print alike while the two differ (a budget of
    0.899999999999999 against a first round of 0.9 must not read "first round costs 0.9, budget 0.9" beside
    FAILED), then each as written (:func:`_apart`), or the exact amount as a fraction where its float is the
    bound's own."""
    a = float(amount)
    texts = _apart(a, bound)
    if texts[0] == texts[1] and not held:        # the amount rounds to the bound, which it exceeds
        return str(amount), toml_value(bound)
    return texts


_CHECKS = (check_plugin, check_mono_cert, check_dyadic, check_cap, check_rho, check_noise, check_first_round)


def check_assumptions(problem) -> dict:
    """Every assumption check on ``problem``: {key: AssumptionResult}, in :data:`ASSUMPTIONS` order."""
    return {r.key: r for r in (c(problem) for c in _CHECKS)}
