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

from bounds import (ArmClass, arm_partition, dyadic_ints, high_query_bound, low_query_bound, prior_partition,
                    rdfe_high_count, rdfe_low_count, rdfe_oracle_cost, rdfe_regret_bound, refine_partition,
                    tacc_regret_bound)
from certify._event import event_failure, float_sums_faithful
from certify._exact import (Comparison, Decision, compare_le, decide_le, decide_scaled, exact, rounding_error,
                            scaled)

_PLAIN = (int, float)

__all__ = ["UNDEFINED_RATIO", "Measurement", "Claim", "Refutation", "ClaimContext", "CLAIMS", "LEM_CI", "claim",
           "claims_for", "ucb_count_bound", "SUBOPTIMAL"]


#: why a ratio empirical / bound has no value: both are 0 (for example a count bounded by 0 that is 0, or a regret
#: of 0 against a bound of 0 when every mean is equal).
UNDEFINED_RATIO = "undefined: empirical / bound is 0 / 0 (both are 0)"


@dataclass(frozen=True)
class Measurement:
    """One inequality ``empirical <= bound`` a claim asserts on a run (per arm, per phase, or in total).

    ``error`` bounds the error of the computed margin bound - empirical against the quantities the claim is
    about (0: the values compared are exact). Values made exactly in rational arithmetic are built with
    :meth:`exact` (or, as integers over a power of two, ``_scaled_measurement``): they are compared exactly,
    and shown (and written to JSON) as their nearest floats.

    :attr:`decision` is what a verdict reads (exact, in integers: ``certify._exact.decide_le``);
    :attr:`comparison` is the same comparison in ``Fraction`` with its margin, built only when asked for.
    """

    what: str
    bound: float
    empirical: float
    arm: int | None = None
    phase: int | None = None
    error: float = 0.0

    def __init__(self, what: str, bound: float, empirical: float, arm: int | None = None,
                 phase: int | None = None, error: float = 0.0):
        # the fields stored directly: a frozen dataclass's own __init__ pays a call per field, and a sweep
        # builds a measurement per arm, claim and run
        d = self.__dict__
        d["what"], d["bound"], d["empirical"], d["arm"], d["phase"], d["error"] = \
            what, bound, empirical, arm, phase, error
        if error == 0 and type(bound) in _PLAIN and type(empirical) in _PLAIN:
            d["_decision"] = decide_le(empirical, bound)                    # exact on ints and floats

    @classmethod
    def exact(cls, what: str, bound: Fraction, empirical: Fraction, **kw) -> "Measurement":
        """A measurement whose bound and empirical value are exact rationals (compared exactly)."""
        return _with_exact(cls(what, float(bound), float(empirical), **kw), bound, empirical)

    @property
    def ratio(self) -> float:
        """empirical / bound: how tight the bound is (> 1: exceeded). A positive value against a bound of 0 is
        ``inf``; anything finite against an infinite bound is 0; 0 / 0 is undefined: NaN, with the reason
        :data:`UNDEFINED_RATIO` (shown as ``undefined`` in tables, ``null`` and ``ratio_reason`` in JSON)."""
        return _ratio(self.bound, self.empirical)

    @functools.cached_property
    def comparison(self) -> Comparison:
        """empirical <= bound, decided exactly or with :attr:`error` (``certify._exact.compare_le``), with the
        exact margin; its decision is :attr:`decision`."""
        s = self.__dict__.get("_scaled")
        if s is not None:
            bound, empirical = Fraction(s[0], 1 << s[3]), Fraction(s[1], 1 << s[3])
        else:
            bound, empirical = self.__dict__.get("_exact", (self.bound, self.empirical))
        return compare_le(empirical, bound, self.error)

    @property
    def decision(self) -> Decision:
        """``comparison.decision``, decided in integers (``certify._exact.decide_le``, ``decide_scaled``)."""
        d = self.__dict__
        out = d.get("_decision")
        if out is None:
            s = d.get("_scaled")
            if s is not None:
                out = decide_scaled(s[1], s[0], s[2])
            elif "_exact" in d:
                bound, empirical = d["_exact"]
                out = compare_le(empirical, bound, d["error"]).decision
            else:
                out = decide_le(d["empirical"], d["bound"], d["error"])
            d["_decision"] = out
        return out

    @property
    def exceeded(self) -> bool:
        """empirical > bound by more than the error bound: a witness."""
        return self.decision is Decision.FAILS

    @property
    def undecided(self) -> bool:
        """The margin lies inside the error bound: neither held nor exceeded."""
        return self.decision is Decision.UNDECIDED


def _ratio(bound, empirical) -> float:
    """:attr:`Measurement.ratio` of these values."""
    if bound == 0:
        if empirical == 0:
            return math.nan
        return 0.0 if empirical < 0 else math.inf
    if bound == math.inf:
        return 0.0
    return empirical / bound


def rank(decision: Decision, ratio: float) -> tuple:
    """A measurement's rank for the worst of a claim's measurements (the first maximum): exceeded first, then the
    largest defined ratio (an undefined 0 / 0, NaN, ranks below every number)."""
    return decision is Decision.FAILS, ratio == ratio, ratio if ratio == ratio else 0.0


class ScannedMeasure:
    """A claim's measure with a scan of its own: ``scan(ctx, rec)`` is what :func:`certify.judge` reads of
    ``measure(ctx, rec)`` (the number of measurements, the worst, whether one is exceeded, the first undecided,
    whether a bound is finite), found without making a :class:`Measurement` per value: only the worst and the first
    undecided are made (the same objects ``measure`` makes). Called, it is the measure."""

    __slots__ = ("measure", "scan", "__wrapped__")

    def __init__(self, measure: Callable, scan: Callable):
        self.measure, self.scan, self.__wrapped__ = measure, scan, measure

    def __call__(self, ctx, rec) -> list:
        return self.measure(ctx, rec)


class KeyedMeasure:
    """A claim's measure whose measurements depend on the run only through a value of its record: ``key(ctx,
    rec)`` is that value (hashable; records with equal keys are measured alike) or None (no key: the record is
    measured). :func:`certify.judge` scans the measurements of a key once per :class:`ClaimContext`, so a sweep
    whose runs repeat the same counts (a few hundred distinct count vectors in the default report's 1,000 seeds)
    measures each once. ``shared`` says the measurements are the context's own objects (:meth:`ClaimContext.count`,
    the same object for every run), else each run gets its own (an equal copy).

    Called, it is the measure: ``measure(ctx, rec) -> [Measurement]``."""

    __slots__ = ("measure", "key", "shared", "__wrapped__")

    def __init__(self, measure: Callable, key: Callable, shared: bool):
        self.measure, self.key, self.shared, self.__wrapped__ = measure, key, shared, measure

    def __call__(self, ctx, rec) -> list:
        return self.measure(ctx, rec)


_INT = frozenset((int,))


def _ints(*tuples) -> tuple | None:
    """``tuples`` as a key when each is a tuple of ints (what the engines store), else None: a count 1.0 or True
    is measured as given (a measurement keeps the type of its value), never served as the count 1."""
    for t in tuples:
        if type(t) is not tuple or not set(map(type, t)) <= _INT:
            return None
    return tuples


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
        return [_float_scaled(m) for m in self.mu_high]

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
            self._oracle[key] = (price, *_float_scaled(price))
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
    refuted_by: tuple = ()    # the steps of tacc proofs that refute the statement as written (Refutation)


@dataclass(frozen=True)
class Refutation:
    """A step of ``tacc proofs`` (``proofs_checks``) that refutes a claim's statement as written: ``step`` is its
    id, ``condition`` says in words when the statement then fails, and ``witness(ctx)`` is the instance's value
    that meets the condition, in words, or None when the instance does not meet it. A VIOLATED verdict's reason
    names the step and the condition (``certify.judge``); a test holds each step REFUTED in ``tacc proofs``."""

    step: str
    condition: str
    witness: Callable

    def explain(self, ctx) -> str:
        """The step and its condition, and whether this instance meets it."""
        w = self.witness(ctx)
        said = f"tacc proofs refutes the statement as written (step {self.step}) when {self.condition}"
        return f"{said}: here {w}" if w is not None else f"{said}, which this instance does not meet"


# ------------------------------------------------------------------------------------------------ measures
def _low_count(s0_of: Callable) -> KeyedMeasure:
    def measure(ctx, rec):
        bound = ctx.low_bound(s0_of(ctx, rec))
        return [ctx.count("N_L", bound, rec.n_low[k], arm=k) for k in ctx.not_best]

    def key(ctx, rec):
        n = _ints(rec.n_low)
        return None if n is None else (s0_of(ctx, rec), n)
    return KeyedMeasure(measure, key, shared=True)


# the value keys of the measures (KeyedMeasure): what of a record each measure reads
def _high_key(ctx, rec):
    return _ints(rec.n_high)


def _early_key(ctx, rec):
    return _ints(rec.high_before_threshold)


def _counts_key(ctx, rec):
    """N^(L), N^(H): the regret (R and its shares)."""
    return _ints(rec.n_low, rec.n_high)


def _refined_key(ctx, rec):
    """N^(L), the window's H queries (the refined classes, ``ArmRunFacts``) and N^(H)."""
    return _ints(rec.n_low, rec.high_in_window, rec.n_high)


_FLOAT = frozenset((float,))


def _elim_key(ctx, rec):
    """(r, eps_r, survivors) of every completed phase."""
    out = []
    for ph in rec.phases:
        if ph.completed:
            if type(ph.r) is not int or type(ph.eps) is not float or _ints(ph.survivors) is None:
                return None
            out.append((ph.r, ph.eps, ph.survivors))
    return tuple(out)


def _cost_key(ctx, rec):
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


def _fidelity_rule(ctx, rec):
    return [ctx.count("H queries while G(N_L) >= gamma", 0, rec.high_before_threshold[k], arm=k)
            for k in range(ctx.problem.n_arms)]


def _high_count(ctx, rec):
    return [ctx.count("N_H", ctx.high_bounds[k], rec.n_high[k], arm=k) for k in ctx.suboptimal]


def _class_a(ctx, rec):
    return [ctx.count("N_H", 1, rec.n_high[k], arm=k) for k in ctx.suboptimal if ctx.classes[k] is ArmClass.A]


def _class_cd(ctx, rec):
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
    return [_scaled_measurement("R", total, sum(ctx.regret_scaled(rec)), ctx.shift)]


def _theorem(ctx, rec):
    return _total_regret(ctx, rec, ctx.refined(rec), ctx.problem.s0)


def _theorem_arms(ctx, rec):
    terms, _ = ctx.bound_scaled(ctx.refined(rec), ctx.problem.s0)
    shares = ctx.regret_scaled(rec)
    return [_scaled_measurement("R_k", terms[k], shares[k], ctx.shift, arm=k) for k in ctx.suboptimal]


def _dnc_theorem(ctx, rec):
    return _total_regret(ctx, rec, prior_partition(ctx.classes), 0)


def _static_theorem(ctx, rec):
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


def _rdfe_width(ctx, rec):
    """Each end of a stored interval is a float rounding of mu_hat +- (G(n) + B_k(n)) with at most
    ``_INTERVAL_ROUNDINGS`` roundings, so width and centre are compared with the error bound
    gamma_4 (|UCB| + |LCB|) (``certify._exact.rounding_error``). Width UCB - LCB, half-width and
    |mu_H - (UCB + LCB) / 2| are exact: integers over 2**(shift + 2).

    Each measurement is :func:`_scaled_measurement`'s, made in one step (:func:`_made`): a run has one per active
    arm and completed phase, each with its own interval ends, so none is shared between runs."""
    return [_made(*args) for args in _width_values(ctx, rec)]


def _width_values(ctx, rec):
    """The arguments of :func:`_made` of each measurement of :func:`_rdfe_width`, in order."""
    mu = ctx.mu_high_scaled
    for ph in rec.phases:
        if not ph.completed:
            continue
        r = ph.r
        ee, se = _float_scaled(ph.eps)
        for k, u, lo in zip(ph.active, ph.ucb, ph.lcb, strict=True):
            err = rounding_error(abs(u) + abs(lo), _INTERVAL_ROUNDINGS)
            (eu, su), (el, sl), (em, sm) = _float_scaled(u), _float_scaled(lo), mu[k]
            s = max(su, sl, sm, se)
            eu, el, em, e_r = eu << (s - su), el << (s - sl), em << (s - sm), ee << (s - se)
            half = (eu - el) << 1                           # (UCB - LCB) / 2, over 2**(s + 2)
            dev = abs((em << 2) - ((eu + el) << 1))         # |mu_H - (UCB + LCB) / 2|
            en, es = _float_scaled(err) if err != 0 else (0, 0)
            yield "UCB - LCB", e_r, half << 1, s + 2, k, r, err, en, es
            yield "|mu_H - center|", half, dev, s + 2, k, r, err, en, es


def _rdfe_width_scan(ctx, rec) -> tuple:
    """``certify._verdict``'s scan of :func:`_rdfe_width`'s measurements (:class:`ScannedMeasure`): each decided and
    ranked on its integers and shown floats, the worst and the first undecided made (with their decisions)."""
    n, top, worst, inside, exceeded = 0, None, None, None, False
    fails, undecided = Decision.FAILS, Decision.UNDECIDED
    for args in _width_values(ctx, rec):
        _, bound, empirical, shift, _, _, _, en, es = args
        n += 1
        if es > shift:                                      # over the error's power of two (as _attach does)
            bound, empirical, shift = bound << (es - shift), empirical << (es - shift), es
        d = decide_scaled(empirical, bound, en << (shift - es))
        one = 1 << args[3]
        key = rank(d, _ratio(args[1] / one, args[2] / one))
        if top is None or key > top:
            top, worst = key, (args, d)
        if d is fails:
            exceeded = True
        elif d is undecided and inside is None:
            inside = (args, d)
    made = {id(c): _decided(*c) for c in (worst, inside) if c is not None}
    return (n, None if worst is None else made[id(worst)], exceeded, None if inside is None else made[id(inside)],
            n > 0)


def _decided(args: tuple, decision: Decision) -> Measurement:
    m = _made(*args)
    m.__dict__["_decision"] = decision                      # as reading its decision stores it
    return m


def _made(what: str, bound: int, empirical: int, shift: int, arm, phase, error: float, en: int, es: int):
    """``_scaled_measurement(what, bound, empirical, shift, arm=arm, phase=phase, error=error)`` for a finite
    ``bound`` and a finite float ``error`` = en / 2**es, without its calls: the same fields, in the same order."""
    m = object.__new__(Measurement)
    d = 1 << shift
    shown_bound, shown_empirical = bound / d, empirical / d
    if es > shift:
        bound, empirical, shift = bound << (es - shift), empirical << (es - shift), es
    m.__dict__.update(what=what, bound=shown_bound, empirical=shown_empirical, arm=arm, phase=phase, error=error,
                      _scaled=(bound, empirical, en << (shift - es), shift))
    return m


def _float_scaled(x: float) -> tuple:
    """A finite float as (num, shift), x = num / 2**shift (``certify._exact.scaled`` for a float known finite)."""
    num, den = x.as_integer_ratio()
    return num, den.bit_length() - 1


def _with_exact(m: Measurement, bound, empirical) -> Measurement:
    """``m`` compared exactly on ``bound`` and ``empirical`` (ints, floats or Fractions): as integers over one
    power of two when both are such (:func:`certify._exact.scaled`), else as Fractions."""
    b, e = scaled(bound), scaled(empirical)
    if b is None or e is None:
        m.__dict__.pop("_decision", None)             # decided on these values, not on the floats shown
        m.__dict__["_exact"] = (bound, empirical)
        return m
    s = max(b[1], e[1])
    return _attach(m, b[0] << (s - b[1]), e[0] << (s - e[1]), s)


def _attach(m: Measurement, bound: int, empirical: int, shift: int) -> Measurement:
    """``m`` compared on the exact values bound / 2**shift and empirical / 2**shift: kept with its error bound
    as three integers over one power of two (``certify._exact.decide_scaled``)."""
    m.__dict__.pop("_decision", None)                 # decided on these values, not on the floats shown
    err = m.error
    e = scaled(err) if err != 0 else (0, 0)
    if e is None:                                     # an error bound that is not a finite float: Fractions
        m.__dict__["_exact"] = (Fraction(bound, 1 << shift), Fraction(empirical, 1 << shift))
        return m
    num, se = e
    if se > shift:
        bound, empirical, shift = bound << (se - shift), empirical << (se - shift), se
    m.__dict__["_scaled"] = (bound, empirical, num << (shift - se), shift)
    return m


def _scaled_measurement(what: str, bound, empirical: int, shift: int, **kw) -> Measurement:
    """A measurement of exact values given as integers over 2**shift (``bound`` may be inf): shown as their
    correctly rounded floats (int / int true division is correctly rounded, as ``float(Fraction)`` is) and
    compared in integers (:func:`_attach`). A float given this way is shown as itself (its num / 2**shift is
    exact)."""
    d = 1 << shift
    if bound == math.inf:
        return Measurement(what, math.inf, empirical / d, **kw)
    return _attach(Measurement(what, bound / d, empirical / d, **kw), bound, empirical, shift)


def _rdfe_elim(ctx, rec):
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
    c, sc = _float_scaled(cost)
    tol, st = _float_scaled(rounding_error(cost, max(n, 1)))
    s = max(sp, sc, st)
    if abs((c << (s - sc)) - ((pr * n) << (s - sp))) <= tol << (s - st):     # |cost - n lambda| <= gamma_n cost
        return (pr * n, sp), 0.0
    return (c, sc), rounding_error(cost, ctx.problem.horizon)


def _rdfe_cost(ctx, rec):
    out = []
    for ph in _completed(rec):
        for k, f, c in zip(ph.active, ph.fidelity, ph.cost, strict=True):
            (value, shift), err = _phase_cost(ctx, c, f)
            bound, b = ctx.oracle_cost_scaled(k, ph.r)
            m = Measurement("Delta Lambda_{k,r}", float(bound), c, arm=k, phase=ph.r, error=err)
            if b is None:                                   # not an integer over a power of two: Fractions
                out.append(_with_exact(m, bound, Fraction(value, 1 << shift)))
                continue
            s = max(shift, b[1])
            out.append(_attach(m, b[0] << (s - b[1]), value << (s - shift), s))
    return out


def _rdfe_regret(ctx, rec, bound: float) -> list:
    """R (exact, from the counts) against a float RDFE bound with its rounding error (an infinite bound, for
    example when c_k^*(Delta_k / 4) overflows at gaps near 0, is compared as a value: it holds)."""
    r = sum(ctx.regret_scaled(rec))
    if math.isinf(bound):
        return [Measurement("R", bound, r / (1 << ctx.shift))]
    err = rounding_error(bound, _RDFE_BOUND_ROUNDINGS)
    b, shift = _float_scaled(bound)
    s = max(shift, ctx.shift)
    return [_scaled_measurement("R", b << (s - shift), r << (s - ctx.shift), s, error=err)]


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
    bounds = ctx.ucb_bounds
    return [ctx.count("N_H", bounds[k], rec.n_high[k], arm=k) for k in ctx.suboptimal]


def _gap_above_two(ctx) -> str | None:
    """The largest gap outside ``bounds.RdfeBound.paper_form_valid`` (Delta_k > 2: ``rdfe-thm.terminal-vs-quarter``'s
    condition), in words, or None when every gap is at most 2."""
    above = [k for k, ok in enumerate(ctx.rdfe.paper_form_valid) if not ok]
    k = max(above, key=ctx.gaps.__getitem__, default=None)
    return None if k is None else f"Delta_{k} = {float(ctx.gaps[k]):.6g} > 2"


_P = ("ass:plugin",)
#: what a claim about suboptimal arms (Delta_k > 0) measures: a run without one is NOTHING_TO_MEASURE.
SUBOPTIMAL = "suboptimal arm"
_PHASE = "completed RDFE phase"
_PM = ("ass:plugin", "ass:mono-cert")

#: every run-level claim: one per statement of the paper, tied to its label (and one control claim).
CLAIMS = (
    Claim("fidelity-rule", "eq:fidelity-selection",
          "no high-fidelity query while G(N^(L)) >= gamma, i.e. N^(L) < N_gamma (line 7 of alg:adaptive-mf-mab)",
          ("tacc", "dnc", "mf-ucb", "lucb"), (), False, KeyedMeasure(_fidelity_rule, _early_key, True)),
    Claim("low-count", "prop:analysis-low-query-bound",
          "N_k^(L) <= N_gamma + S0 + 1 for every arm k != k^* (S0 = 0 without continuation), an arm tied with k^* "
          "included",
          ("tacc", "dnc", "mf-ucb"), (), True,
          _low_count(lambda ctx, rec: ctx.problem.s0 if rec.policy == "tacc" else 0), measures="arm other than k^*"),
    Claim("high-count", "prop:analysis-high-selection",
          "N_k^(H) <= 1 + ceil(4 ell / Delta_k^2) for every suboptimal arm",
          ("tacc", "dnc", "mf-ucb"), _P, True, KeyedMeasure(_high_count, _high_key, True), measures=SUBOPTIMAL),
    Claim("class-A", "prop:analysis-low-selection",
          "an arm of A_gamma is certified by low fidelity: no high-fidelity query beyond the first",
          ("tacc", "dnc"), _PM, True, KeyedMeasure(_class_a, _high_key, True), measures="suboptimal arm in class A"),
    Claim("class-Cd", "prop:analysis-low-query-bound",
          "an arm of C^d_gamma is certified by low fidelity: N^(H) <= 1 and N^(L) <= N_gamma + S0 + 1",
          ("tacc",), _PM, True, KeyedMeasure(_class_cd, _refined_key, True),
          measures="suboptimal arm that ends in C^d"),
    Claim("theorem", "thm:analysis-main-regret", "R(Lambda) <= the bound, with C split into C^d / C^u by the run",
          ("tacc",), _PM + ("cap:S0",), True, KeyedMeasure(_theorem, _refined_key, False)),
    Claim("theorem-arms", "thm:analysis-main-regret",
          "each arm's regret share <= its term of the bound (the proof bounds arm by arm)",
          ("tacc",), _PM + ("cap:S0",), True, KeyedMeasure(_theorem_arms, _refined_key, False), measures=SUBOPTIMAL),
    Claim("theorem-dnc", "thm:analysis-main-regret",
          "DNC: the bound with every C arm in H and S0 = 0 (no continuation)", ("dnc",), _PM, True,
          KeyedMeasure(_dnc_theorem, _counts_key, False)),
    Claim("theorem-static", "rem:analysis-mf-comparison",
          "MF-UCB: the bound with every suboptimal arm in H and S0 = 0 (static bias zeta_k = B_k(1))",
          ("mf-ucb",), _P, True, KeyedMeasure(_static_theorem, _counts_key, False)),
    Claim("rdfe-width", "lem:app-rdfe-phase-width",
          "after a completed phase r every active arm's interval covers mu_k^(H) and has width <= eps_r / 4",
          ("rdfe",), _P, True, ScannedMeasure(_rdfe_width, _rdfe_width_scan), measures=_PHASE),
    Claim("rdfe-elim", "lem:app-rdfe-elim", "an arm with Delta_k >= eps_r does not survive a completed phase r",
          ("rdfe",), _P, True, KeyedMeasure(_rdfe_elim, _elim_key, True), measures=_PHASE),
    Claim("rdfe-cost", "lem:app-rdfe-phase-cost", "the cost of arm k in a completed phase r <= c_k^*(eps_r)",
          ("rdfe",), (), False, KeyedMeasure(_rdfe_cost, _cost_key, False), measures=_PHASE),
    Claim("rdfe-theorem", "thm:app-rdfe-regret",
          "R <= C_1 sum Delta_k c_k^*(min(Delta_k/4, 1/2)) + C_2 K (lambda_L + lambda_H), this instance's C_1, C_2",
          ("rdfe",), _P + ("ass:app-rdfe-dyadic",), True, KeyedMeasure(_rdfe_total, _counts_key, False)),
    Claim("rdfe-theorem-sharp", "thm:app-rdfe-regret",
          "R <= sum Delta_k [sum_{r<=r_k} c_k^*(eps_r) + lambda_L + lambda_H] (the proof before the dyadic step)",
          ("rdfe",), _P, True, KeyedMeasure(_rdfe_sharp, _counts_key, False)),
    Claim("rdfe-theorem-as-stated", "thm:app-rdfe-regret",
          "R <= C_1 sum Delta_k c_k^*(Delta_k/4) + C_2 K (lambda_L + lambda_H), as stated, same C_1, C_2",
          ("rdfe",), _P + ("ass:app-rdfe-dyadic",), True, KeyedMeasure(_rdfe_stated, _counts_key, False),
          refuted_by=(Refutation("rdfe-thm.terminal-vs-quarter",
                                 "a gap Delta_k > 2: then r_k = 1 and eps_1 = 1/2 < Delta_k/4, so the statement's "
                                 "c_k^*(Delta_k/4) is below the c_k^*(eps_{r_k}) the proof charges", _gap_above_two),)),
    Claim("control-ucb", "control (not from the paper)",
          "textbook UCB on the good event: N_k <= 1 + floor(4 ell / Delta_k^2) for every suboptimal arm",
          ("ucb",), (), True, KeyedMeasure(_control, _high_key, True), paper=False, measures=SUBOPTIMAL),
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
