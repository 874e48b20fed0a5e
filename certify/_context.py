"""What the claims of one problem share (:class:`ClaimContext`): the prior arm classes, each bound computed once,
the exact regret shares of the run being judged, and memos bounded by :data:`MEMO_ENTRIES`."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from bounds import (arm_partition, dyadic_ints, high_query_bound, low_query_bound, rdfe_high_count, rdfe_low_count,
                    rdfe_oracle_cost, rdfe_regret_bound, refine_partition, tacc_regret_bound)
from certify._event import event_failure, float_sums_faithful
from certify._exact import exact, scaled
from certify._measurement import Measurement, float_scaled

__all__ = ["ClaimContext", "MEMO_ENTRIES", "memo_room", "ucb_count_bound"]


#: the most entries a memo of :class:`ClaimContext` (measurements by value, scans by key, event failures by run)
#: holds: a full memo is emptied, so a check's memory does not grow with its runs (a memo serves the repeats among
#: the runs of a sweep: a few hundred distinct count vectors in the default report's 1,000 seeds).
MEMO_ENTRIES = 1 << 10


def memo_room(memo: dict) -> dict:
    """``memo``, emptied first when it holds :data:`MEMO_ENTRIES` entries (call before adding one)."""
    if len(memo) >= MEMO_ENTRIES:
        memo.clear()
    return memo


class ClaimContext:
    """What the claims of one problem share: the prior classes and cached bound computations."""

    def __init__(self, problem, assumptions: dict):
        self.problem = problem
        self.assumptions = assumptions
        inst = problem.instance
        self.gaps = [float(g) for g in inst.gaps]
        self.suboptimal = [k for k, g in enumerate(self.gaps) if g > 0]
        # every arm k != k^*, an arm tied with k^* (Delta_k = 0) included: the quantifier of
        # prop:analysis-low-query-bound, whose count bound does not depend on the gap
        self.not_best = [k for k in range(len(self.gaps)) if k != inst.best_arm]
        self.classes = arm_partition(problem.tau, problem.n_gamma, problem.s0, inst.best_arm)
        self._oracle: dict = {}
        self._counts: dict = {}             # count(): the measurements made, by value
        self._status: dict = {}             # assumption keys -> (failed, undecided)
        self._bounds: dict = {}             # (classes, s0) -> (TaccBound, scaled terms, scaled total)
        self._low_bounds: dict = {}         # s0 -> low_query_bound(n_gamma, s0)
        self._run: tuple = (None, None, None)   # the last record judged: (record, refined classes, regret shares)
        self._scans: dict = {}              # id(claim) -> (claim, {value key: scan}) (certify.judge, KeyedMeasure)
        self._keys: tuple = (None, {})      # (the last record judged, {key function: its key})
        self._event: dict = {}              # (policy, seed, violation, counts) -> a float failure confirmed
        # Delta_k lambda_L and Delta_k lambda_H exactly, as integers over 2**shift (Delta_k and the costs are
        # floats: integers over powers of two, so their products are too)
        g, sg = dyadic_ints(self.gaps)
        (cl, ch), sc = dyadic_ints([problem.cost_low, problem.cost_high])
        self.shift = sg + sc
        self._w_low = [x * cl for x in g]
        self._w_high = [x * ch for x in g]

    def event_status(self, record) -> str:
        """The confidence event of ``lem:ci`` on ``record``'s run: ``"held"``, ``"failed"`` (decided exactly: the
        engines' float check reported it and the exact sums of the observations confirm it,
        ``certify._event.event_failure``) or ``"rounding"`` (the float check reported a failure the exact sums do
        not confirm: the float running sums are off by more than the radius, so the run's own float arithmetic,
        which the policy's indices share, is not the exact algorithm's at this scale; every run of an instance whose
        float running means can be off by the radius, ``float_sums_faithful``)."""
        if not self.float_faithful[0]:
            return "rounding"
        if record.event_held:
            return "held"
        return "failed" if self._failed_exactly(record) else "rounding"

    def _failed_exactly(self, record) -> bool:
        """The engines' float check reported a failure and the exact sums confirm it (memoized per run)."""
        if record.event_held:
            return False
        key = (record.policy, record.seed, record.violation, record.n_low, record.n_high)
        if key not in self._event:
            memo_room(self._event)[key] = event_failure(self.problem, record) is not None
        return self._event[key]

    @functools.cached_property
    def float_faithful(self) -> tuple[bool, str]:
        """``certify.float_sums_faithful`` of the problem: whether its float running means stay within the radius."""
        return float_sums_faithful(self.problem)

    def event_held(self, record) -> bool:
        """Whether the confidence event of ``lem:ci`` held on ``record``'s run as far as it is decided exactly: no
        failure the exact sums confirm (a float failure that was rounding counts as held)."""
        return not self._failed_exactly(record)

    def count(self, what: str, bound, empirical, arm: int | None = None, phase: int | None = None) -> Measurement:
        """``Measurement(what, bound, empirical, arm=arm, phase=phase)`` of an exact comparison (error 0), one
        object per distinct measurement (the values with their types: 1 and 1.0 are two): a measurement is
        immutable, and a sweep measures the same few counts against the same bounds on every run."""
        key = (what, type(bound), bound, type(empirical), empirical, arm, phase)
        m = self._counts.get(key)
        if m is None:
            m = memo_room(self._counts)[key] = Measurement(what, bound, empirical, arm=arm, phase=phase)
        return m

    def failed(self, keys) -> tuple:
        """The assumptions among ``keys`` that fail on this instance (with a witness)."""
        return tuple(k for k in keys if self.assumptions[k].failed)

    def undecided(self, keys) -> tuple:
        """The assumptions among ``keys`` whose check lies inside its error bound."""
        return tuple(k for k in keys if self.assumptions[k].undecided)

    def status(self, keys: tuple) -> tuple:
        """(:meth:`failed`, :meth:`undecided`) of ``keys``, computed once per tuple of keys."""
        out = self._status.get(keys)
        if out is None:
            out = self._status[keys] = (self.failed(keys), self.undecided(keys))
        return out

    def _of_run(self, record) -> tuple:
        """(refined classes, regret shares scaled by 2**shift) of ``record``, computed once while the claims of
        one record are judged (the last record is kept)."""
        if self._run[0] is not record:
            self._run = (record, None, None)
        return self._run

    def refined(self, record) -> tuple:
        """The arm classes with C split into C^d / C^u by this run (``eq:app-analysis-Cdet``)."""
        rec, refined, shares = self._of_run(record)
        if refined is None:
            refined = refine_partition(self.classes, self.problem.tau, record.facts())
            self._run = (rec, refined, shares)
        return refined

    def low_bound(self, s0: int):
        """``bounds.low_query_bound(N_gamma, s0)``, once per s0."""
        if s0 not in self._low_bounds:
            self._low_bounds[s0] = low_query_bound(self.problem.n_gamma, s0)
        return self._low_bounds[s0]

    def tacc_bound(self, classes, s0: int):
        """``bounds.tacc_regret_bound`` for these classes and S0, computed once per (classes, s0): a bound depends
        on the run only through its refined classes."""
        return self._tacc(tuple(classes), s0)[0]

    def _tacc(self, classes: tuple, s0: int) -> tuple:
        key = (classes, s0)
        if key not in self._bounds:
            p = self.problem
            b = tacc_regret_bound(self.gaps, classes, n_gamma=p.n_gamma, s0=s0, ell=p.ell, cost_low=p.cost_low,
                                  cost_high=p.cost_high)
            terms = [self._weighted(k, b.low_count_bound[k], b.high_count_bound[k]) for k in range(len(b.terms))]
            self._bounds[key] = (b, terms, math.inf if math.inf in terms else sum(terms))
        return self._bounds[key]

    def bound_scaled(self, classes, s0: int) -> tuple:
        """(per-arm terms, total) of the theorem's bound for these classes, exactly, as integers over
        2**:attr:`shift` (``inf`` for a term with an infinite count)."""
        _, terms, total = self._tacc(tuple(classes), s0)
        return terms, total

    def regret_scaled(self, record) -> list:
        """Each arm's regret share Delta_k (lambda_L N_k^(L) + lambda_H N_k^(H)) exactly, as integers over
        2**:attr:`shift` (R(Lambda) is their sum)."""
        rec, refined, shares = self._of_run(record)
        if shares is None:
            shares = [self._weighted(k, a, b) for k, (a, b) in enumerate(zip(record.n_low, record.n_high,
                                                                              strict=True))]
            self._run = (rec, refined, shares)
        return shares

    def _weighted(self, k: int, n_low, n_high):
        """Delta_k (lambda_L n_low + lambda_H n_high) * 2**shift: an int, or inf for an infinite count
        (:meth:`cost_weighted` is this value as a Fraction)."""
        if self.gaps[k] == 0:
            return 0
        if type(n_low) is not int or type(n_high) is not int:
            if math.inf in (n_low, n_high):
                return math.inf
            n_low, n_high = int(n_low), int(n_high)          # numpy integers
        return self._w_low[k] * n_low + self._w_high[k] * n_high

    @functools.cached_property
    def tied(self) -> tuple:
        """The arms tied with k^* (Delta_k = 0, k != k^*): class B as every command reports them, but no suboptimal
        arm (a claim about suboptimal arms has nothing to measure on them)."""
        best = self.problem.instance.best_arm
        return tuple(k for k, g in enumerate(self.gaps) if g == 0 and k != best)

    @functools.cached_property
    def high_bounds(self) -> list:
        return [high_query_bound(self.problem.ell, g) if g > 0 else math.inf for g in self.gaps]

    @functools.cached_property
    def mu_high(self) -> list:
        """mu_k^(H) per arm, as floats."""
        return [float(m) for m in self.problem.instance.mu_high]

    @functools.cached_property
    def mu_high_scaled(self) -> list:
        """mu_k^(H) per arm as (num, shift), mu = num / 2**shift exactly."""
        return [float_scaled(m) for m in self.mu_high]

    @functools.cached_property
    def ucb_bounds(self) -> list:
        """:func:`ucb_count_bound` per arm (inf for Delta_k = 0)."""
        return [ucb_count_bound(self.problem.ell, g) for g in self.gaps]

    @functools.cached_property
    def rdfe(self):
        p = self.problem
        return rdfe_regret_bound(p.instance.low, self.gaps, ell=p.ell, cost_low=p.cost_low, cost_high=p.cost_high)

    def _fraction(self, x) -> Fraction | float:
        return x if x == math.inf else Fraction(x, 1 << self.shift)

    def cost_weighted(self, k: int, n_low, n_high) -> Fraction | float:
        """Delta_k (lambda_L n_low + lambda_H n_high) in exact arithmetic (0 for Delta_k = 0): a regret share or
        a term of the theorem, from integer counts and the instance's floats (inf for an infinite count)."""
        return self._fraction(self._weighted(k, n_low, n_high))

    def regret(self, record, arms=None) -> Fraction:
        """R(Lambda) of a run (or the shares of ``arms``), exactly, from its counts."""
        shares = self.regret_scaled(record)
        arms = range(self.problem.n_arms) if arms is None else arms
        return Fraction(sum(shares[k] for k in arms), 1 << self.shift)

    def bound_terms(self, b) -> list:
        """The terms of a ``bounds.TaccBound``, exactly, from its integer count bounds."""
        return [self.cost_weighted(k, b.low_count_bound[k], b.high_count_bound[k]) for k in range(len(b.terms))]

    def price(self, fidelity: int) -> tuple:
        """(lambda, num, shift) of a fidelity's price, lambda = num / 2**shift (0: low, else high)."""
        key = ("price", fidelity == 0)
        if key not in self._oracle:
            price = self.problem.cost_low if fidelity == 0 else self.problem.cost_high
            self._oracle[key] = (price, *float_scaled(price))
        return self._oracle[key]

    def oracle_cost_scaled(self, k: int, r: int) -> tuple:
        """(:meth:`oracle_cost_exact`, the same as (num, shift), or None when it is not an integer over a power
        of two), cached."""
        key = ("scaled", k, r)
        if key not in self._oracle:
            c = self.oracle_cost_exact(k, r)
            self._oracle[key] = (c, scaled(c))
        return self._oracle[key]

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


def ucb_count_bound(ell: float, gap: float) -> int | float:
    """The textbook UCB count bound on the good event: N_k <= 1 + floor(4 ell / Delta_k^2) for an index
    mu_hat + sqrt(ell / N) (a pull at count n needs 2 sqrt(ell / n) >= Delta_k). Exact rational floor."""
    if gap == 0:
        return math.inf
    return 1 + math.floor(4 * Fraction(ell) / Fraction(gap) ** 2)
