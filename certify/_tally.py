"""The certificate's aggregates, accumulated one verdict at a time: what ``tacc check`` prints and writes (the
summaries, the judged pairs, the claims judged on no run and why, the JUnit cases) in memory independent of the
number of runs (one cell per claim, configuration and policy), whether or not the verdicts themselves are kept."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from certify._claims import LEM_CI
from certify._histogram import Histogram
from certify._verdict import RunVerdict, Verdict

__all__ = ["Cell", "Tally", "MAX_REASONS", "merged_reasons", "reason_lines", "reason_of"]

_ASSERTING = (Verdict.HOLDS, Verdict.VIOLATED)
#: distinct reasons a cell lists; the runs of any other reason are counted together (see :meth:`Cell.add`).
MAX_REASONS = 20


def reason_of(v: RunVerdict, assumptions: dict) -> tuple | None:
    """Why ``v`` (neither HOLDS nor VIOLATED on something measured) was not judged, in words, with whether it is a
    run's verdict (``lem:ci``'s is one per configuration and policy): the failed assumption with its detail and
    witness (``assumptions``: {configuration name: {key: AssumptionResult}}), the failed confidence event, the
    undecided comparison, or nothing to measure. None for a judged verdict."""
    per = v.seed is not None
    if v.verdict is Verdict.NOT_APPLICABLE:
        # one reason per failed assumption: the caller counts each (a verdict with two failed assumptions is two)
        return tuple((f"NOT_APPLICABLE on {v.config}: {k} failed{_detail(assumptions.get(v.config, {}).get(k))}",
                      per) for k in v.failed_assumptions)
    if v.verdict is Verdict.UNDECIDED:
        return ((f"UNDECIDED on {v.config}: {v.reason}", per),)
    if v.verdict is Verdict.OFF_EVENT:
        return ((f"OFF_EVENT on {v.config} ({v.policy}): the confidence event of lem:ci failed", per),)
    if not v.judged:
        return ((f"{v.verdict.value} on {v.config} ({v.policy}): {v.reason}", per),)
    return None


def _detail(result) -> str:
    """`` (detail; witness w)`` of an assumption's result ("" when the configuration's assumptions are not given)."""
    return "" if result is None else f" ({result.detail}; witness {result.witness})"


def reason_lines(reasons: Counter) -> tuple:
    """Each reason once with its number of runs (or of (configuration, policy) verdicts for ``lem:ci``)."""
    return tuple(f"{text} [{n} {'run(s)' if per else '(configuration, policy) verdict(s)'}]"
                 for (text, per), n in reasons.items())


@dataclass
class Cell:
    """One (claim, configuration, policy): its verdicts counted, and what the summaries and the JUnit case read.

    ``top`` / ``top_all``: the largest defined ratio over asserted runs that are not vacuous / every run that
    measured something and is not vacuous (-inf: none defined); ``asserted`` / ``every``: whether there was such a
    run at all (a NaN ratio, 0 / 0, counts as one); ``judged``: the verdicts HOLDS or VIOLATED on something
    measured; ``measurable``: some verdict had a measurement; ``measured``: some verdict had a worst measurement."""

    claim: str
    label: str
    config: str
    policy: str
    n: int = 0
    counts: Counter = field(default_factory=Counter)
    vacuous: int = 0
    measured: bool = False
    measurable: bool = False
    judged: int = 0
    asserted: bool = False
    every: bool = False
    top: float = -math.inf
    top_all: float = -math.inf
    reasons: Counter = field(default_factory=Counter)
    ratios: Histogram = field(default_factory=Histogram)

    def why(self) -> tuple:
        """Why the cell's verdicts were not judged: each reason once with its number of runs."""
        return reason_lines(self.reasons)

    def add(self, v: RunVerdict, assumptions: dict) -> None:
        verdict = v.verdict
        self.n += 1
        self.counts[verdict.value] += 1
        ratio = v.ratio
        if v.worst is not None:
            self.measured = True
            if not v.vacuous:
                self.every = True
                if ratio is not None and not math.isnan(ratio) and ratio > self.top_all:
                    self.top_all = ratio
        if v.measurements > 0:
            self.measurable = True
            if verdict in _ASSERTING:       # judged (RunVerdict.judged): no reason to give
                self.judged += 1
                if v.vacuous:
                    self.vacuous += 1
                else:
                    self.asserted = True
                    self.ratios.add(float("nan") if ratio is None else float(ratio))
                    if ratio is not None and not math.isnan(ratio) and ratio > self.top:
                        self.top = ratio
                return
        for r in reason_of(v, assumptions) or ():
            if r not in self.reasons and len(self.reasons) >= MAX_REASONS:
                # an undecided comparison's reason names the run's values: distinct on every run, so without a cap
                # the reasons would grow with the runs (and list one line per run)
                r = (f"{verdict.value} on {v.config} ({v.policy}): other reasons (the first {MAX_REASONS} distinct "
                     f"ones are listed)", r[1])
            self.reasons[r] += 1


class Tally:
    """Every verdict of a check, counted per (claim, configuration, policy) :class:`Cell` in the order they first
    come (``add``); the cells hold no verdict, so the memory does not grow with the runs."""

    def __init__(self, assumptions: dict):
        self.assumptions = assumptions
        self.cells: dict = {}

    @classmethod
    def of(cls, verdicts, assumptions: dict) -> "Tally":
        """The tally of ``verdicts`` (an iterable, read once)."""
        t = cls(assumptions)
        for v in verdicts:
            t.add(v)
        return t

    def cell(self, v: RunVerdict) -> Cell:
        """The cell of ``v``'s claim, configuration and policy, made at its first verdict (the cells keep the order
        of the verdicts: a verdict counted later, a VIOLATED one after its confirmation, does not move its cell)."""
        key = (v.claim, v.config, v.policy)
        cell = self.cells.get(key)
        if cell is None:
            cell = self.cells[key] = Cell(v.claim, v.label, v.config, v.policy)
        return cell

    def add(self, v: RunVerdict) -> None:
        self.cell(v).add(v, self.assumptions)

    def of_claim(self, claim: str) -> list:
        return [c for c in self.cells.values() if c.claim == claim]

    @property
    def run_pairs(self) -> int:
        """(claim, run) verdicts counted (``lem:ci``'s, one per configuration and policy, left out)."""
        return sum(c.n for c in self.cells.values() if c.claim != LEM_CI.key)

    @property
    def judged_pairs(self) -> int:
        """(claim, run) pairs asserted on something: HOLDS or VIOLATED with at least one measurement."""
        return sum(c.judged for c in self.cells.values() if c.claim != LEM_CI.key)


def merged_reasons(cells) -> Counter:
    """The reasons of ``cells`` together, each counted over all of them, in the order they first came."""
    out: Counter = Counter()
    for c in cells:
        for r, n in c.reasons.items():
            out[r] += n
    return out
