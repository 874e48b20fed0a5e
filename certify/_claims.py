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
                    rdfe_oracle_cost, rdfe_regret_bound, refine_partition, tacc_regret_bound)

__all__ = ["Measurement", "Claim", "ClaimContext", "CLAIMS", "LEM_CI", "claim", "claims_for", "ucb_count_bound"]


@dataclass(frozen=True)
class Measurement:
    """One inequality ``empirical <= bound`` a claim asserts on a run (per arm, per phase, or in total)."""

    what: str
    bound: float
    empirical: float
    arm: int | None = None
    phase: int | None = None

    @property
    def ratio(self) -> float:
        """empirical / bound: how tight the bound is (> 1: exceeded)."""
        if self.bound == 0:
            return 0.0 if self.empirical <= 0 else math.inf
        if self.bound == math.inf:
            return 0.0
        return self.empirical / self.bound

    @property
    def exceeded(self) -> bool:
        """empirical > bound, with a 1e-9 relative slack for float sums (counts compare exactly)."""
        if isinstance(self.empirical, int) and isinstance(self.bound, int):
            return self.empirical > self.bound
        return self.empirical > self.bound * (1 + 1e-9) + 1e-12


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
        return tuple(k for k in keys if not self.assumptions[k].held)

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
    event, and ``measure(ctx, record) -> [Measurement]``. ``paper`` is False for the control claim."""

    key: str
    label: str
    statement: str
    policies: tuple
    assumptions: tuple
    needs_event: bool
    measure: Callable
    paper: bool = True


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
    return [Measurement("R", ctx.tacc_bound(ctx.refined(rec), ctx.problem.s0).total, rec.regret)]


def _theorem_arms(ctx, rec):
    b = ctx.tacc_bound(ctx.refined(rec), ctx.problem.s0)
    return [Measurement("R_k", b.terms[k], rec.regret_share[k], arm=k) for k in ctx.suboptimal]


def _dnc_theorem(ctx, rec):
    return [Measurement("R", ctx.tacc_bound(prior_partition(ctx.classes), 0).total, rec.regret)]


def _static_theorem(ctx, rec):
    every_h = tuple(ArmClass.OPTIMAL if g == 0 else ArmClass.B for g in ctx.gaps)
    return [Measurement("R", ctx.tacc_bound(every_h, 0).total, rec.regret)]


def _completed(rec):
    return [ph for ph in rec.phases if ph.completed]


def _rdfe_width(ctx, rec):
    mu = ctx.problem.instance.mu_high
    out = []
    for ph in _completed(rec):
        for k, u, lo in zip(ph.active, ph.ucb, ph.lcb):
            out.append(Measurement("UCB - LCB", ph.eps / 4, u - lo, arm=k, phase=ph.r))
            out.append(Measurement("|mu_H - center|", (u - lo) / 2, abs(float(mu[k]) - (u + lo) / 2), arm=k,
                                   phase=ph.r))
    return out


def _rdfe_elim(ctx, rec):
    out = []
    for ph in _completed(rec):
        kept = [k for k in ph.survivors if ctx.gaps[k] >= ph.eps]
        out.append(Measurement("survivors with Delta_k >= eps_r", 0, len(kept), phase=ph.r))
    return out


def _rdfe_cost(ctx, rec):
    return [Measurement("Delta Lambda_{k,r}", ctx.oracle_cost(k, ph.r), c, arm=k, phase=ph.r)
            for ph in _completed(rec) for k, c in zip(ph.active, ph.cost)]


def _rdfe_total(ctx, rec):
    return [Measurement("R", ctx.rdfe.total, rec.regret)]


def _rdfe_sharp(ctx, rec):
    return [Measurement("R", ctx.rdfe.sharp_total, rec.regret)]


def _rdfe_stated(ctx, rec):
    return [Measurement("R", ctx.rdfe.paper_total, rec.regret)]


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
_PM = ("ass:plugin", "ass:mono-cert")

CLAIMS = (
    Claim("fidelity-rule", "eq:fidelity-selection",
          "no high-fidelity query while G(N^(L)) >= gamma, i.e. N^(L) < N_gamma (line 7 of alg:adaptive-mf-mab)",
          ("tacc", "dnc", "mf-ucb", "lucb"), (), False, _fidelity_rule),
    Claim("low-count", "prop:analysis-low-query-bound",
          "N_k^(L) <= N_gamma + S0 + 1 for every suboptimal arm (S0 = 0 without continuation)",
          ("tacc", "dnc", "mf-ucb"), (), True,
          _low_count(lambda ctx, rec: ctx.problem.s0 if rec.policy == "tacc" else 0)),
    Claim("high-count", "prop:analysis-high-selection",
          "N_k^(H) <= 1 + ceil(4 ell / Delta_k^2) for every suboptimal arm",
          ("tacc", "dnc", "mf-ucb"), _P, True, _high_count),
    Claim("class-A", "prop:analysis-low-selection",
          "an arm of A_gamma is certified by low fidelity: no high-fidelity query beyond the first",
          ("tacc", "dnc"), _PM, True, _class_a),
    Claim("class-Cd", "prop:analysis-low-query-bound",
          "an arm of C^d_gamma is certified by low fidelity: N^(H) <= 1 and N^(L) <= N_gamma + S0 + 1",
          ("tacc",), _PM, True, _class_cd),
    Claim("theorem", "thm:analysis-main-regret", "R(Lambda) <= the bound, with C split into C^d / C^u by the run",
          ("tacc",), _PM + ("cap:S0",), True, _theorem),
    Claim("theorem-arms", "thm:analysis-main-regret",
          "each arm's regret share <= its term of the bound (the proof bounds arm by arm)",
          ("tacc",), _PM + ("cap:S0",), True, _theorem_arms),
    Claim("theorem-dnc", "thm:analysis-main-regret",
          "DNC: the bound with every C arm in H and S0 = 0 (no continuation)", ("dnc",), _PM, True, _dnc_theorem),
    Claim("theorem-static", "rem:analysis-mf-comparison",
          "MF-UCB: the bound with every suboptimal arm in H and S0 = 0 (static bias zeta_k = B_k(1))",
          ("mf-ucb",), _P, True, _static_theorem),
    Claim("rdfe-width", "lem:app-rdfe-phase-width",
          "after a completed phase r every active arm's interval covers mu_k^(H) and has width <= eps_r / 4",
          ("rdfe",), _P, True, _rdfe_width),
    Claim("rdfe-elim", "lem:app-rdfe-elim", "an arm with Delta_k >= eps_r does not survive a completed phase r",
          ("rdfe",), _P, True, _rdfe_elim),
    Claim("rdfe-cost", "lem:app-rdfe-phase-cost", "the cost of arm k in a completed phase r <= c_k^*(eps_r)",
          ("rdfe",), (), False, _rdfe_cost),
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
          ("ucb",), (), True, _control, paper=False),
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
