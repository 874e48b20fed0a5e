"""Claims: one object per statement of the paper, tied to its label, with the assumptions it needs and the
function that computes (bound, empirical value) from an instance and a run record (issue 4, item 2).

Every bound is computed by ``bounds``; every empirical value is read from a ``simulate.RunRecord``. The
statistical claim ``lem:ci`` is judged over many runs (see ``certify._certificate``); the others run by run.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from bounds import (ArmClass, arm_partition, high_query_bound, low_query_bound, prior_partition,
                    rdfe_high_count, rdfe_low_count, rdfe_oracle_cost, rdfe_regret_bound, refine_partition,
                    tacc_regret_bound)
from certify._exact import Comparison, Decision, compare_le, exact, rounding_error

__all__ = ["UNDEFINED_RATIO", "Measurement", "Claim", "ClaimContext", "CLAIMS", "LEM_CI", "claim", "claims_for",
           "ucb_count_bound"]


#: why a ratio empirical / bound has no value: both are 0 (for example a count bounded by 0 that is 0, or a regret
#: of 0 against a bound of 0 when every mean is equal).
UNDEFINED_RATIO = "undefined: empirical / bound is 0 / 0 (both are 0)"


@dataclass(frozen=True)
class Measurement:
    """One inequality ``empirical <= bound`` a claim asserts on a run (per arm, per phase, or in total).

    ``error`` bounds the error of the computed margin bound - empirical against the quantities the claim is
    about (0: the values compared are exact). Values made exactly in rational arithmetic are built with
    :meth:`exact`: they are compared exactly, and shown (and written to JSON) as their nearest floats.
    """

    what: str
    bound: float
    empirical: float
    arm: int | None = None
    phase: int | None = None
    error: float = 0.0

    @classmethod
    def exact(cls, what: str, bound: Fraction, empirical: Fraction, **kw) -> "Measurement":
        """A measurement whose bound and empirical value are exact rationals (compared exactly)."""
        return _with_exact(cls(what, float(bound), float(empirical), **kw), bound, empirical)

    @property
    def ratio(self) -> float:
        """empirical / bound: how tight the bound is (> 1: exceeded). A positive value against a bound of 0 is
        ``inf``; anything finite against an infinite bound is 0; 0 / 0 is undefined: NaN, with the reason
        :data:`UNDEFINED_RATIO` (shown as ``undefined`` in tables, ``null`` and ``ratio_reason`` in JSON)."""
        if self.bound == 0:
            if self.empirical == 0:
                return math.nan
            return 0.0 if self.empirical < 0 else math.inf
        if self.bound == math.inf:
            return 0.0
        return self.empirical / self.bound

    @functools.cached_property
    def comparison(self) -> Comparison:
        """empirical <= bound, decided exactly or with :attr:`error` (``certify._exact.compare_le``)."""
        bound, empirical = getattr(self, "_exact", (self.bound, self.empirical))
        return compare_le(empirical, bound, self.error)

    @property
    def exceeded(self) -> bool:
        """empirical > bound by more than the error bound: a witness."""
        return self.comparison.decision is Decision.FAILS

    @property
    def undecided(self) -> bool:
        """The margin lies inside the error bound: neither held nor exceeded."""
        return self.comparison.decision is Decision.UNDECIDED


class ClaimContext:
    """What the claims of one problem share: the prior classes and cached bound computations."""

    def __init__(self, problem, assumptions: dict):
        self.problem = problem
        self.assumptions = assumptions
        inst = problem.instance
        self.gaps = [float(g) for g in inst.gaps]
        self.suboptimal = [k for k, g in enumerate(self.gaps) if g > 0]
        self.classes = arm_partition(problem.tau, problem.n_gamma, problem.s0, inst.best_arm)
        self._oracle: dict = {}

    def failed(self, keys) -> tuple:
        """The assumptions among ``keys`` that fail on this instance (with a witness)."""
        return tuple(k for k in keys if self.assumptions[k].failed)

    def undecided(self, keys) -> tuple:
        """The assumptions among ``keys`` whose check lies inside its error bound."""
        return tuple(k for k in keys if self.assumptions[k].undecided)

    def refined(self, record) -> tuple:
        """The arm classes with C split into C^d / C^u by this run (``eq:app-analysis-Cdet``)."""
        return refine_partition(self.classes, self.problem.tau, record.facts())

    def tacc_bound(self, classes, s0: int):
        p = self.problem
        return tacc_regret_bound(self.gaps, classes, n_gamma=p.n_gamma, s0=s0, ell=p.ell, cost_low=p.cost_low,
                                 cost_high=p.cost_high)

    @functools.cached_property
    def high_bounds(self) -> list:
        return [high_query_bound(self.problem.ell, g) if g > 0 else math.inf for g in self.gaps]

    @functools.cached_property
    def rdfe(self):
        p = self.problem
        return rdfe_regret_bound(p.instance.low, self.gaps, ell=p.ell, cost_low=p.cost_low, cost_high=p.cost_high)

    def cost_weighted(self, k: int, n_low, n_high) -> Fraction:
        """Delta_k (lambda_L n_low + lambda_H n_high) in exact arithmetic (0 for Delta_k = 0): a regret share or
        a term of the theorem, from integer counts and the instance's floats."""
        if self.gaps[k] == 0:
            return Fraction(0)
        p = self.problem
        return exact(self.gaps[k]) * (exact(p.cost_low) * n_low + exact(p.cost_high) * n_high)

    def regret(self, record, arms=None) -> Fraction:
        """R(Lambda) of a run (or the shares of ``arms``), exactly, from its counts."""
        arms = range(self.problem.n_arms) if arms is None else arms
        return sum((self.cost_weighted(k, record.n_low[k], record.n_high[k]) for k in arms), Fraction(0))

    def bound_terms(self, b) -> list:
        """The terms of a ``bounds.TaccBound``, exactly, from its integer count bounds."""
        return [self.cost_weighted(k, b.low_count_bound[k], b.high_count_bound[k]) for k in range(len(b.terms))]

    def oracle_cost_exact(self, k: int, r: int) -> Fraction:
        """c_k^*(eps_r) = min(lambda_L n_L(eps_r), lambda_H n_H(eps_r)) exactly, from ``bounds``' stopping
        counts (the float ``rdfe_oracle_cost`` is its rounding)."""
        key = ("exact", k, r)
        if key not in self._oracle:
            p = self.problem
            eps = math.ldexp(1.0, -r)
            n_low = rdfe_low_count(p.instance.low, k, eps, p.ell)
            n_high = rdfe_high_count(eps, p.ell)
            costs = [exact(c) * n for c, n in ((p.cost_low, n_low), (p.cost_high, n_high)) if n != math.inf]
            self._oracle[key] = min(costs)
        return self._oracle[key]

    def oracle_cost(self, k: int, r: int) -> float:
        """c_k^*(eps_r) (``bounds.rdfe_oracle_cost``), cached."""
        if (k, r) not in self._oracle:
            p = self.problem
            self._oracle[k, r] = rdfe_oracle_cost(p.instance.low, k, math.ldexp(1.0, -r), p.ell, p.cost_low,
                                                  p.cost_high)
        return self._oracle[k, r]


@dataclass(frozen=True)
class Claim:
    """One statement: ``key`` (unique), paper ``label``, the ``statement`` in words, the ``policies`` it is about,
    the ``assumptions`` it needs (keys of ``certify.ASSUMPTIONS``), whether it is asserted only on the confidence
    event, and ``measure(ctx, record) -> [Measurement]``. ``paper`` is False for the control claim. ``measures``
    names what a run must have for the claim to measure anything ("suboptimal arm"): a run without one gets the
    verdict NOTHING_TO_MEASURE, never HOLDS."""

    key: str
    label: str
    statement: str
    policies: tuple
    assumptions: tuple
    needs_event: bool
    measure: Callable | None  # None for LEM_CI, judged over the seeds of a sweep (judge_lem_ci), not per run
    paper: bool = True
    measures: str = "arm"


# ------------------------------------------------------------------------------------------------ measures
def _low_count(s0_of: Callable):
    def measure(ctx, rec):
        bound = low_query_bound(ctx.problem.n_gamma, s0_of(ctx, rec))
        return [Measurement("N_L", bound, rec.n_low[k], arm=k) for k in ctx.suboptimal]
    return measure


def _fidelity_rule(ctx, rec):
    return [Measurement("H queries while G(N_L) >= gamma", 0, rec.high_before_threshold[k], arm=k)
            for k in range(ctx.problem.n_arms)]


def _high_count(ctx, rec):
    return [Measurement("N_H", ctx.high_bounds[k], rec.n_high[k], arm=k) for k in ctx.suboptimal]


def _class_a(ctx, rec):
    return [Measurement("N_H", 1, rec.n_high[k], arm=k) for k in ctx.suboptimal if ctx.classes[k] is ArmClass.A]


def _class_cd(ctx, rec):
    refined = ctx.refined(rec)
    cap = low_query_bound(ctx.problem.n_gamma, ctx.problem.s0)
    out = []
    for k in ctx.suboptimal:
        if refined[k] is ArmClass.C_D:
            out += [Measurement("N_H", 1, rec.n_high[k], arm=k), Measurement("N_L", cap, rec.n_low[k], arm=k)]
    return out


def _theorem(ctx, rec):
    b = ctx.tacc_bound(ctx.refined(rec), ctx.problem.s0)
    return [Measurement.exact("R", sum(ctx.bound_terms(b), Fraction(0)), ctx.regret(rec))]


def _theorem_arms(ctx, rec):
    b = ctx.tacc_bound(ctx.refined(rec), ctx.problem.s0)
    terms = ctx.bound_terms(b)
    return [Measurement.exact("R_k", terms[k], ctx.regret(rec, (k,)), arm=k) for k in ctx.suboptimal]


def _dnc_theorem(ctx, rec):
    b = ctx.tacc_bound(prior_partition(ctx.classes), 0)
    return [Measurement.exact("R", sum(ctx.bound_terms(b), Fraction(0)), ctx.regret(rec))]


def _static_theorem(ctx, rec):
    every_h = tuple(ArmClass.OPTIMAL if g == 0 else ArmClass.B for g in ctx.gaps)
    b = ctx.tacc_bound(every_h, 0)
    return [Measurement.exact("R", sum(ctx.bound_terms(b), Fraction(0)), ctx.regret(rec))]


def _completed(rec):
    return [ph for ph in rec.phases if ph.completed]


#: roundings behind a stored RDFE interval end mu_hat +- (sqrt(ell / n) + B_k(n)): the quotient, the square
#: root, the sum with B_k(n), the sum with mu_hat (``simulate``'s upper / lower).
_INTERVAL_ROUNDINGS = 4
#: roundings behind ``bounds.rdfe_regret_bound``'s totals, counted on its longest path: an oracle cost (1),
#: the phase sum and the ratio that make C_1 (2), the product with Delta_k and the sum over arms (2), the
#: product with C_1 (1), the warm-start term and its sum (2).
_RDFE_BOUND_ROUNDINGS = 8


def _rdfe_width(ctx, rec):
    """Each end of a stored interval is a float rounding of mu_hat +- (G(n) + B_k(n)) with at most
    ``_INTERVAL_ROUNDINGS`` roundings, so width and centre are compared with the error bound
    gamma_4 (|UCB| + |LCB|) (``certify._exact.rounding_error``)."""
    mu = ctx.problem.instance.mu_high
    out = []
    for ph in _completed(rec):
        for k, u, lo in zip(ph.active, ph.ucb, ph.lcb, strict=True):
            err = rounding_error(abs(u) + abs(lo), _INTERVAL_ROUNDINGS)
            eu, el = exact(u), exact(lo)
            width, centre = eu - el, (eu + el) / 2
            out.append(_with_exact(Measurement("UCB - LCB", ph.eps / 4, float(width), arm=k, phase=ph.r,
                                               error=err), exact(ph.eps) / 4, width))
            dev = abs(exact(float(mu[k])) - centre)
            out.append(_with_exact(Measurement("|mu_H - center|", float(width / 2), float(dev), arm=k,
                                               phase=ph.r, error=err), width / 2, dev))
    return out


def _with_exact(m: Measurement, bound: Fraction, empirical: Fraction) -> Measurement:
    object.__setattr__(m, "_exact", (bound, empirical))
    return m


def _rdfe_elim(ctx, rec):
    out = []
    for ph in _completed(rec):
        kept = [k for k in ph.survivors if ctx.gaps[k] >= ph.eps]
        out.append(Measurement("survivors with Delta_k >= eps_r", 0, len(kept), phase=ph.r))
    return out


def _phase_cost(ctx, cost: float, fidelity: int) -> tuple:
    """A completed block's cost, a running float sum of n equal prices: exactly n lambda, with n recovered as
    round(cost / lambda) (the sum's error, at most gamma_n n lambda, is far below lambda / 2). If the stored cost
    is not such a sum (a tampered record), it is compared with the summation bound gamma_T cost instead."""
    p = ctx.problem
    price = p.cost_low if fidelity == 0 else p.cost_high
    n = round(cost / price)
    value = exact(price) * n
    if abs(exact(cost) - value) <= exact(rounding_error(cost, max(n, 1))):
        return value, 0.0
    return exact(cost), rounding_error(cost, p.horizon)


def _rdfe_cost(ctx, rec):
    out = []
    for ph in _completed(rec):
        for k, f, c in zip(ph.active, ph.fidelity, ph.cost, strict=True):
            value, err = _phase_cost(ctx, c, f)
            bound = ctx.oracle_cost_exact(k, ph.r)
            out.append(_with_exact(Measurement("Delta Lambda_{k,r}", float(bound), c, arm=k, phase=ph.r,
                                               error=err), bound, value))
    return out


def _rdfe_regret(ctx, rec, bound: float) -> list:
    """R (exact, from the counts) against a float RDFE bound with its rounding error (an infinite bound, for
    example when c_k^*(Delta_k / 4) overflows at gaps near 0, is compared as a value: it holds)."""
    r = ctx.regret(rec)
    if math.isinf(bound):
        return [Measurement("R", bound, float(r))]
    m = Measurement("R", bound, float(r), error=rounding_error(bound, _RDFE_BOUND_ROUNDINGS))
    return [_with_exact(m, exact(bound), r)]


def _rdfe_total(ctx, rec):
    return _rdfe_regret(ctx, rec, ctx.rdfe.total)


def _rdfe_sharp(ctx, rec):
    return _rdfe_regret(ctx, rec, ctx.rdfe.sharp_total)


def _rdfe_stated(ctx, rec):
    return _rdfe_regret(ctx, rec, ctx.rdfe.paper_total)


def ucb_count_bound(ell: float, gap: float) -> int | float:
    """The textbook UCB count bound on the good event: N_k <= 1 + floor(4 ell / Delta_k^2) for an index
    mu_hat + sqrt(ell / N) (a pull at count n needs 2 sqrt(ell / n) >= Delta_k). Exact rational floor."""
    if gap == 0:
        return math.inf
    return 1 + math.floor(4 * Fraction(ell) / Fraction(gap) ** 2)


def _control(ctx, rec):
    return [Measurement("N_H", ucb_count_bound(ctx.problem.ell, ctx.gaps[k]), rec.n_high[k], arm=k)
            for k in ctx.suboptimal]


_P = ("ass:plugin",)
_SUBOPTIMAL = "suboptimal arm"
_PHASE = "completed RDFE phase"
_PM = ("ass:plugin", "ass:mono-cert")

#: every run-level claim: one per statement of the paper, tied to its label (and one control claim).
CLAIMS = (
    Claim("fidelity-rule", "eq:fidelity-selection",
          "no high-fidelity query while G(N^(L)) >= gamma, i.e. N^(L) < N_gamma (line 7 of alg:adaptive-mf-mab)",
          ("tacc", "dnc", "mf-ucb", "lucb"), (), False, _fidelity_rule),
    Claim("low-count", "prop:analysis-low-query-bound",
          "N_k^(L) <= N_gamma + S0 + 1 for every suboptimal arm (S0 = 0 without continuation)",
          ("tacc", "dnc", "mf-ucb"), (), True,
          _low_count(lambda ctx, rec: ctx.problem.s0 if rec.policy == "tacc" else 0), measures=_SUBOPTIMAL),
    Claim("high-count", "prop:analysis-high-selection",
          "N_k^(H) <= 1 + ceil(4 ell / Delta_k^2) for every suboptimal arm",
          ("tacc", "dnc", "mf-ucb"), _P, True, _high_count, measures=_SUBOPTIMAL),
    Claim("class-A", "prop:analysis-low-selection",
          "an arm of A_gamma is certified by low fidelity: no high-fidelity query beyond the first",
          ("tacc", "dnc"), _PM, True, _class_a, measures="suboptimal arm in class A"),
    Claim("class-Cd", "prop:analysis-low-query-bound",
          "an arm of C^d_gamma is certified by low fidelity: N^(H) <= 1 and N^(L) <= N_gamma + S0 + 1",
          ("tacc",), _PM, True, _class_cd, measures="suboptimal arm that ends in C^d"),
    Claim("theorem", "thm:analysis-main-regret", "R(Lambda) <= the bound, with C split into C^d / C^u by the run",
          ("tacc",), _PM + ("cap:S0",), True, _theorem),
    Claim("theorem-arms", "thm:analysis-main-regret",
          "each arm's regret share <= its term of the bound (the proof bounds arm by arm)",
          ("tacc",), _PM + ("cap:S0",), True, _theorem_arms, measures=_SUBOPTIMAL),
    Claim("theorem-dnc", "thm:analysis-main-regret",
          "DNC: the bound with every C arm in H and S0 = 0 (no continuation)", ("dnc",), _PM, True, _dnc_theorem),
    Claim("theorem-static", "rem:analysis-mf-comparison",
          "MF-UCB: the bound with every suboptimal arm in H and S0 = 0 (static bias zeta_k = B_k(1))",
          ("mf-ucb",), _P, True, _static_theorem),
    Claim("rdfe-width", "lem:app-rdfe-phase-width",
          "after a completed phase r every active arm's interval covers mu_k^(H) and has width <= eps_r / 4",
          ("rdfe",), _P, True, _rdfe_width, measures=_PHASE),
    Claim("rdfe-elim", "lem:app-rdfe-elim", "an arm with Delta_k >= eps_r does not survive a completed phase r",
          ("rdfe",), _P, True, _rdfe_elim, measures=_PHASE),
    Claim("rdfe-cost", "lem:app-rdfe-phase-cost", "the cost of arm k in a completed phase r <= c_k^*(eps_r)",
          ("rdfe",), (), False, _rdfe_cost, measures=_PHASE),
    Claim("rdfe-theorem", "thm:app-rdfe-regret",
          "R <= C_1 sum Delta_k c_k^*(min(Delta_k/4, 1/2)) + C_2 K (lambda_L + lambda_H), this instance's C_1, C_2",
          ("rdfe",), _P + ("ass:app-rdfe-dyadic",), True, _rdfe_total),
    Claim("rdfe-theorem-sharp", "thm:app-rdfe-regret",
          "R <= sum Delta_k [sum_{r<=r_k} c_k^*(eps_r) + lambda_L + lambda_H] (the proof before the dyadic step)",
          ("rdfe",), _P, True, _rdfe_sharp),
    Claim("rdfe-theorem-as-stated", "thm:app-rdfe-regret",
          "R <= C_1 sum Delta_k c_k^*(Delta_k/4) + C_2 K (lambda_L + lambda_H), as stated, same C_1, C_2",
          ("rdfe",), _P + ("ass:app-rdfe-dyadic",), True, _rdfe_stated),
    Claim("control-ucb", "control (not from the paper)",
          "textbook UCB on the good event: N_k <= 1 + floor(4 ell / Delta_k^2) for every suboptimal arm",
          ("ucb",), (), True, _control, paper=False, measures=_SUBOPTIMAL),
)

#: the statistical claim, judged over the seeds of one (configuration, policy).
LEM_CI = Claim("lem-ci", "lem:ci",
               "P(the confidence event fails) <= delta: failures over seeds vs delta, exact binomial test",
               ("tacc", "dnc", "mf-ucb", "ucb", "lucb", "weak-fixed", "low-improving", "rdfe"),
               ("lem:ci:rho", "sec:problem:noise", "ass:plugin"), False, None)


def claim(key: str) -> Claim:
    """The claim with this key."""
    for c in CLAIMS + (LEM_CI,):
        if c.key == key:
            return c
    raise KeyError(key)


def claims_for(policy: str) -> tuple:
    """The run-level claims about ``policy``."""
    return tuple(c for c in CLAIMS if policy in c.policies)
