"""What a claim measures on a run: a :class:`Measurement` (one inequality ``empirical <= bound``, decided exactly
where its values are exact), the measures that scan or key their measurements (:class:`ScannedMeasure`,
:class:`KeyedMeasure`), and the builders of measurements of exact values given as integers over a power of two."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from certify._exact import Comparison, Decision, compare_le, decide_le, decide_scaled, scaled

_PLAIN = (int, float)

__all__ = ["UNDEFINED_RATIO", "Measurement", "ratio_of", "rank", "ScannedMeasure", "KeyedMeasure", "decided", "made",
           "float_scaled", "with_exact", "attach", "scaled_measurement"]


#: why a ratio empirical / bound has no value: both are 0 (for example a count bounded by 0 that is 0, or a regret
#: of 0 against a bound of 0 when every mean is equal).
UNDEFINED_RATIO = "undefined: empirical / bound is 0 / 0 (both are 0)"


@dataclass(frozen=True)
class Measurement:
    """One inequality ``empirical <= bound`` a claim asserts on a run (per arm, per phase, or in total).

    ``error`` bounds the error of the computed margin bound - empirical against the quantities the claim is
    about (0: the values compared are exact). Values made exactly in rational arithmetic are built with
    :meth:`exact` (or, as integers over a power of two, ``scaled_measurement``): they are compared exactly,
    and shown (and written to JSON) as their nearest floats.

    :attr:`decision` is what a verdict reads (exact, in integers);
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
        return with_exact(cls(what, float(bound), float(empirical), **kw), bound, empirical)

    @property
    def ratio(self) -> float:
        """empirical / bound: how tight the bound is (> 1: exceeded). A positive value against a bound of 0 is
        ``inf``; anything finite against an infinite bound is 0; 0 / 0 is undefined: NaN, with the reason
        :data:`UNDEFINED_RATIO` (shown as ``undefined`` in tables, ``null`` and ``ratio_reason`` in JSON)."""
        return ratio_of(self.bound, self.empirical)

    @functools.cached_property
    def comparison(self) -> Comparison:
        """empirical <= bound, decided exactly or with :attr:`error`, with the exact margin; its decision is
        :attr:`decision`."""
        s = self.__dict__.get("_scaled")
        if s is not None:
            bound, empirical = Fraction(s[0], 1 << s[3]), Fraction(s[1], 1 << s[3])
        else:
            bound, empirical = self.__dict__.get("_exact", (self.bound, self.empirical))
        return compare_le(empirical, bound, self.error)

    @property
    def decision(self) -> Decision:
        """``comparison.decision``, decided in integers (without building the fractions)."""
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


def ratio_of(bound, empirical) -> float:
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


def decided(args: tuple, decision: Decision) -> Measurement:
    m = made(*args)
    m.__dict__["_decision"] = decision                      # as reading its decision stores it
    return m


def made(what: str, bound: int, empirical: int, shift: int, arm, phase, error: float, en: int, es: int):
    """``scaled_measurement(what, bound, empirical, shift, arm=arm, phase=phase, error=error)`` for a finite
    ``bound`` and a finite float ``error`` = en / 2**es, without its calls: the same fields, in the same order."""
    m = object.__new__(Measurement)
    d = 1 << shift
    shown_bound, shown_empirical = bound / d, empirical / d
    if es > shift:
        bound, empirical, shift = bound << (es - shift), empirical << (es - shift), es
    m.__dict__.update(what=what, bound=shown_bound, empirical=shown_empirical, arm=arm, phase=phase, error=error,
                      _scaled=(bound, empirical, en << (shift - es), shift))
    return m


def float_scaled(x: float) -> tuple:
    """A finite float as (num, shift), x = num / 2**shift (``certify._exact.scaled`` for a float known finite)."""
    num, den = x.as_integer_ratio()
    return num, den.bit_length() - 1


def with_exact(m: Measurement, bound, empirical) -> Measurement:
    """``m`` compared exactly on ``bound`` and ``empirical`` (ints, floats or Fractions): as integers over one
    power of two when both are such (:func:`certify._exact.scaled`), else as Fractions."""
    b, e = scaled(bound), scaled(empirical)
    if b is None or e is None:
        m.__dict__.pop("_decision", None)             # decided on these values, not on the floats shown
        m.__dict__["_exact"] = (bound, empirical)
        return m
    s = max(b[1], e[1])
    return attach(m, b[0] << (s - b[1]), e[0] << (s - e[1]), s)


def attach(m: Measurement, bound: int, empirical: int, shift: int) -> Measurement:
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


def scaled_measurement(what: str, bound, empirical: int, shift: int, **kw) -> Measurement:
    """A measurement of exact values given as integers over 2**shift (``bound`` may be inf): shown as their
    correctly rounded floats (int / int true division is correctly rounded, as ``float(Fraction)`` is) and
    compared in integers (:func:`attach`). A float given this way is shown as itself (its num / 2**shift is
    exact)."""
    d = 1 << shift
    if bound == math.inf:
        return Measurement(what, math.inf, empirical / d, **kw)
    return attach(Measurement(what, bound / d, empirical / d, **kw), bound, empirical, shift)
