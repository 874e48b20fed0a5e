"""Verdicts of claims on runs (docs/design.md section 7) and of ``lem:ci`` over seeds."""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from certify._claims import LEM_CI, SUBOPTIMAL, Claim
from certify._context import ClaimContext, memo_room
from certify._measurement import KeyedMeasure, Measurement, ScannedMeasure, rank
from certify._exact import Decision

__all__ = ["Verdict", "RunVerdict", "judge", "judge_lem_ci", "judge_lem_ci_counts", "violation_reason",
           "LEM_CI_ALPHA"]

_FAILS, _UNDECIDED = Decision.FAILS, Decision.UNDECIDED

#: significance level of the exact binomial test of lem:ci (one-sided: failures more frequent than delta).
LEM_CI_ALPHA = 0.01


class Verdict(enum.Enum):
    """HOLDS; VIOLATED (event held, every assumption held, the bound exceeded by more than the error bound of the
    comparison); OFF_EVENT (the event failed on this run: not asserted); NOT_APPLICABLE (an assumption of the
    claim fails on this instance: not asserted, bound and empirical value still recorded); UNDECIDED (an
    assumption of the claim, or the comparison itself, lies inside its error bound, or the run's float arithmetic
    is not the exact algorithm's: its float check of the event failed where the exact sums do not, neither held
    nor violated);
    NOTHING_TO_MEASURE (assumptions and event held, but the run has nothing the claim bounds, for example no arm
    of its class: neither evidence for the claim nor against it)."""

    HOLDS = "HOLDS"
    VIOLATED = "VIOLATED"
    OFF_EVENT = "OFF_EVENT"
    NOT_APPLICABLE = "NOT_APPLICABLE"
    UNDECIDED = "UNDECIDED"
    NOTHING_TO_MEASURE = "NOTHING_TO_MEASURE"


@dataclass(frozen=True)
class RunVerdict:
    """One claim on one run (or, for ``lem:ci``, on the seeds of one configuration and policy).

    ``ratio`` is the largest empirical / bound over the claim's measurements (NaN when every one is 0 / 0:
    undefined, see ``certify.UNDEFINED_RATIO``; None when there is no measurement); ``worst`` the measurement
    where it is reached; ``failed_assumptions`` the keys that made it NOT_APPLICABLE; ``undecided_assumptions``
    those that made it UNDECIDED; ``reason`` says in words why a run was not asserted, or why it is VIOLATED (the
    inequality, the amounts, a refuting proof step: :func:`violation_reason`); empty when it HOLDS;
    ``vacuous`` is True when every measurement's bound is infinite (a HOLDS that says nothing: docs/design.md
    section 7)."""

    claim: str
    label: str
    config: str
    policy: str
    seed: int | None
    verdict: Verdict
    ratio: float | None
    worst: Measurement | None
    measurements: int
    failed_assumptions: tuple = ()
    undecided_assumptions: tuple = ()
    reason: str = ""
    vacuous: bool = False

    def __init__(self, claim: str, label: str, config: str, policy: str, seed: int | None, verdict: Verdict,
                 ratio: float | None, worst: Measurement | None, measurements: int, failed_assumptions: tuple = (),
                 undecided_assumptions: tuple = (), reason: str = "", vacuous: bool = False):
        # the fields stored directly: a frozen dataclass's own __init__ pays a call per field (a sweep makes a
        # verdict per claim and run)
        d = self.__dict__
        d["claim"], d["label"], d["config"], d["policy"], d["seed"], d["verdict"] = \
            claim, label, config, policy, seed, verdict
        d["ratio"], d["worst"], d["measurements"], d["failed_assumptions"], d["undecided_assumptions"], \
            d["reason"] = ratio, worst, measurements, failed_assumptions, undecided_assumptions, reason
        d["vacuous"] = vacuous

    @property
    def judged(self) -> bool:
        """Asserted on something: HOLDS or VIOLATED, always with at least one measurement (a run with nothing the
        claim bounds is NOTHING_TO_MEASURE, not a judgment)."""
        return self.verdict in (Verdict.HOLDS, Verdict.VIOLATED) and self.measurements > 0


def judge(claim: Claim, ctx: ClaimContext, record) -> RunVerdict:
    """The verdict of ``claim`` on one run record.

    Precedence: NOT_APPLICABLE (an assumption failed), UNDECIDED (an assumption undecided), OFF_EVENT (the event
    failed, decided exactly: ``ClaimContext.event_status``), UNDECIDED (rounding: a float failure of the event the
    exact sums do not confirm), VIOLATED (a measurement exceeded beyond its error bound), UNDECIDED (a measurement
    inside its error bound), NOTHING_TO_MEASURE (no measurement: the run has nothing the claim bounds), HOLDS.

    The worst measurement, whose ratio the verdict reports, is the first maximum of (exceeded, ratio defined,
    ratio): exceeded first, then the largest defined ratio (an undefined 0 / 0 ranks below every number).

    A claim whose measure is a ``KeyedMeasure`` (the record's counts determine its measurements) is measured and
    scanned once per value of its key in ``ctx``; a record with the same key gets the same scan (the same shared
    measurements, or equal copies of its own), so its verdict is the one measuring it would give; one whose measure
    is a ``ScannedMeasure`` (rdfe-width) is scanned without making every measurement. Either way the verdict, down
    to its pickled bytes, is that of scanning ``claim.measure(ctx, record)`` (tests/certify/test_verdict.py)."""
    measure = claim.measure
    if measure is None:
        raise TypeError(f"claim {claim.key} is judged over seeds (judge_lem_ci), not on one run")
    scan = None
    if type(measure) is KeyedMeasure:
        keys = ctx._keys
        if keys[0] is not record:                  # the keys of the record judged last (claims share keys)
            keys = ctx._keys = (record, {})
        key_of = measure.key
        key = keys[1].get(key_of, _NO_KEY)
        if key is _NO_KEY:
            key = keys[1][key_of] = key_of(ctx, record)
        if key is not None:
            held = ctx._scans.get(id(claim))       # (claim, memo): the claim held, so its id stays its own
            if held is None or held[0] is not claim:
                held = ctx._scans[id(claim)] = (claim, {})
            memo: dict = held[1]
            kept = memo.get(key)
            if kept is None:
                scan = _scan(measure(ctx, record))
                memo_room(memo)[key] = scan if measure.shared else _kept(scan)
            else:
                scan = kept if measure.shared else _copied(kept)
    elif type(measure) is ScannedMeasure:
        scan = measure.scan(ctx, record)
    if scan is None:
        scan = _scan(measure(ctx, record))
    n, worst, exceeded, inside, finite_bound = scan
    failed, undecided = ctx.status(claim.assumptions)
    reason = _assumptions_reason(ctx, failed, undecided)
    if failed:
        v = Verdict.NOT_APPLICABLE
    elif undecided:
        v = Verdict.UNDECIDED
    elif claim.needs_event and (event := ctx.event_status(record)) != "held":
        if event == "failed":
            v = Verdict.OFF_EVENT
            reason = "the confidence event of lem:ci failed on this run"
        else:
            v = Verdict.UNDECIDED
            faithful, bound = ctx.float_faithful
            reason = ("rounding: the float check of lem:ci's event failed where the exact sums do not: the run's "
                      "float sums (the policy's too) are off by more than the radius" if faithful else
                      f"rounding: {bound}: the runs' float sums (the policy's too) are not the exact algorithm's")
    elif exceeded:
        v = Verdict.VIOLATED
        reason = violation_reason(claim, ctx, worst)
    elif inside is not None:
        v = Verdict.UNDECIDED
        m = worst = inside
        reason = f"{m.what} = {m.empirical:.17g} against {m.bound:.17g}: {m.comparison.describe()}"
    elif not n:
        v = Verdict.NOTHING_TO_MEASURE
        reason = f"nothing to measure: no {claim.measures} on this run" + _tied_note(ctx, claim)
    else:
        v = Verdict.HOLDS
    return RunVerdict(claim.key, claim.label, ctx.problem.config.name, record.policy, record.seed, v,
                      None if worst is None else worst.ratio, worst, n, failed, undecided, reason,
                      n > 0 and not finite_bound)


def _tied_note(ctx: ClaimContext, claim: Claim) -> str:
    """For a claim about suboptimal arms on a run whose other arms are tied with k^*: what those arms are (class B,
    as ``tacc bounds``, ``tacc simulate`` and ``tacc explain`` report them) and why the claim bounds nothing there."""
    if claim.measures != SUBOPTIMAL or not ctx.tied:
        return ""
    return (f" (arm(s) {', '.join(map(str, ctx.tied))} tied with k^* = {ctx.problem.instance.best_arm}: class B, "
            f"Delta_k = 0; this claim bounds suboptimal arms only, and their pulls cost no regret)")


def violation_reason(claim: Claim, ctx: ClaimContext, m: Measurement) -> str:
    """Why a run is VIOLATED, in words: the inequality exceeded with its amounts and where, the comparison's margin
    and error bound, and each step of ``tacc proofs`` that refutes the statement as written, with its condition
    and whether this instance meets it (:class:`certify.Refutation`)."""
    where = "".join(f" {name} {x}" for name, x in (("at arm", m.arm), ("in phase", m.phase)) if x is not None)
    said = (f"{m.what}{where} = {m.empirical:.17g} > {m.bound:.17g} (exceeded by {m.empirical - m.bound:.3g}; "
            f"{m.comparison.describe()})")
    return "; ".join([said, *(r.explain(ctx) for r in claim.refuted_by)])


def _scan(ms) -> tuple:
    """(number of measurements, the worst, whether one is exceeded, the first undecided or None, whether a bound is
    finite): all a verdict reads of a claim's measurements."""
    worst, top, exceeded, inside, finite_bound = None, None, False, None, False
    for m in ms:
        if not finite_bound and m.bound != math.inf:
            finite_bound = True
        d = m.decision
        key = rank(d, m.ratio)
        if top is None or key > top:
            worst, top = m, key
        if d is _FAILS:
            exceeded = True
        elif d is _UNDECIDED and inside is None:
            inside = m
    return len(ms), worst, exceeded, inside, finite_bound


#: the types a kept measurement's fields may hold (each pickled by value, so an equal copy is the same bytes as a
#: measurement made for the run), besides ``_scaled`` (a tuple of ints, copied).
_ATOMS = frozenset((str, int, float, type(None), Decision))


def _kept(scan: tuple) -> tuple | None:
    """A scan of measurements made for one run, kept for the runs with the same key as the fields of its worst
    and undecided measurements (each run gets its own copy: :func:`_copied`); None (measure every run) when a
    field is not a plain value."""
    n, worst, exceeded, inside, finite_bound = scan
    fields: list[dict | None] = []
    for m in (worst, inside):
        if m is None:
            fields.append(None)
            continue
        d = m.__dict__
        if type(m) is not Measurement or not all(type(x) in _ATOMS or k == "_scaled" for k, x in d.items()):
            return None
        fields.append(dict(d))
    return n, fields[0], exceeded, fields[1] if inside is not worst else _SAME, finite_bound


_SAME = object()          # a kept scan's undecided measurement is its worst
_NO_KEY = object()        # a key not computed yet for the record


def _copy(fields: dict) -> Measurement:
    m = object.__new__(Measurement)
    d = m.__dict__
    d.update(fields)
    s = fields.get("_scaled")
    if s is not None:
        d["_scaled"] = (*s,)                       # a tuple of its own, as a measurement made for the run has
    return m


def _copied(kept: tuple) -> tuple:
    n, worst, exceeded, inside, finite_bound = kept
    w = None if worst is None else _copy(worst)
    return n, w, exceeded, w if inside is _SAME else None if inside is None else _copy(inside), finite_bound


def _binomial_tail(f: int, n: int, p: float) -> float:
    """P(Bin(n, p) >= f), the p-value of the exact one-sided binomial test (scipy's ``binomtest``, alternative
    'greater'); exactly 1 when f = 0 (every outcome is at least 0 failures), without importing scipy.stats (seconds
    to import), which the usual case (no failed event) does not need."""
    if f == 0:
        return 1.0
    from scipy import stats                  # imported here: scipy costs seconds, and only a failed event needs it

    return float(stats.binomtest(f, n, p, alternative="greater").pvalue)


def _assumptions_reason(ctx: ClaimContext, failed: tuple, undecided: tuple) -> str:
    """Why a claim was not asserted for its assumptions: the failed ones (NOT_APPLICABLE), else the undecided ones
    (UNDECIDED), each with its detail; empty when every one held."""
    if failed:
        return "; ".join(f"{k} failed: {ctx.assumptions[k].detail}" for k in failed)
    return "; ".join(f"{k} undecided: {ctx.assumptions[k].detail}" for k in undecided)


def judge_lem_ci(ctx: ClaimContext, records, alpha: float = LEM_CI_ALPHA) -> RunVerdict:
    """``lem:ci`` as a statistical claim over the seeds of one (configuration, policy): with f runs whose event
    failed out of n, VIOLATED when the exact one-sided binomial test rejects P(fail) <= delta at level alpha.

    The event is checked path by path (the visited counts), a subset of the lemma's event, so its failure
    frequency can only be lower than the lemma's failure probability: a rejection is evidence against the lemma.
    A failure counts only when it is decided exactly (``certify._event.event_failure``: the engines' float check
    reported it, and the exact sums of the observations confirm it); one the exact check does not confirm is the
    float running sum's rounding (large means), not a deviation, and the measurement names how many there were.
    """
    n = len(records)
    f = sum(not ctx.event_held(r) for r in records)
    return judge_lem_ci_counts(ctx, records[0].policy if n else "", n, f,
                               sum(not r.event_held for r in records) - f, alpha)


def judge_lem_ci_counts(ctx: ClaimContext, policy: str, n: int, f: int, rounding: int,
                        alpha: float = LEM_CI_ALPHA) -> RunVerdict:
    """:func:`judge_lem_ci` from the counts of the seeds of one (configuration, ``policy``): ``n`` runs, ``f`` whose
    event failed exactly (``ctx.event_held``), ``rounding`` more that only the float check saw failing (what a
    check streaming its runs keeps of them)."""
    delta = ctx.problem.delta
    p = _binomial_tail(f, n, delta)
    failed, undecided = ctx.status(LEM_CI.assumptions)
    reason = _assumptions_reason(ctx, failed, undecided)
    if failed:
        v = Verdict.NOT_APPLICABLE
    elif undecided:
        v = Verdict.UNDECIDED
    elif p < alpha:
        v = Verdict.VIOLATED
        reason = (f"the confidence event failed on {f} of {n} runs, more often than delta = {delta:g} allows: the "
                  f"exact one-sided binomial test rejects P(fail) <= delta (p = {p:.3g} < alpha = {alpha:g})")
    elif not ctx.float_faithful[0]:       # a run taken as held may hide a failure the float check cannot see
        v = Verdict.UNDECIDED
        reason = (f"rounding: {ctx.float_faithful[1]}: a run whose float check saw no failure may hide one, so "
                  f"{f} confirmed failure(s) in {n} run(s) neither reject nor support the lemma")
    else:
        v = Verdict.HOLDS
    rho = ctx.assumptions.get("lem:ci:rho")
    reading = getattr(rho, "values", {}).get("reading") if rho is not None and rho.held else None
    what = (f"failure frequency (p = {p:.3g}" + (f"; radius by the {reading}" if reading else "")
            + (f"; {rounding} float failure(s) not confirmed exactly: rounding)" if rounding else ")"))
    m = Measurement(what, delta, f / n if n else 0.0)
    return RunVerdict(LEM_CI.key, LEM_CI.label, ctx.problem.config.name, policy, None, v,
                      m.ratio if math.isfinite(m.ratio) else math.inf, m, n, failed, undecided, reason)
