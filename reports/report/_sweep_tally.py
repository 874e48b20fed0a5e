"""What ``tacc report`` reads of its sweep's runs, accumulated one run at a time as they come back: memory that does
not grow with the number of seeds.

Per (budget, policy): the regret's exact running sums (``reports.stats.RunningSummary``), a digest of the run
records in seed order (two policies made identical runs when their digests are equal at every budget), whether every
seed made the same queries, RDFE's phases. At the full budget: the confidence event of ``lem:ci`` decided exactly per
run and policy, and the lead policy's per-arm counts as exact histograms per (arm, class in the run), the counts
figures' input.
"""

from __future__ import annotations

import hashlib
import marshal
from collections import Counter
from dataclasses import dataclass, fields, is_dataclass
from operator import attrgetter

import numpy as np

from bounds import ArmClass, refine_partition
from certify import Histogram, event_failure
from reports.report._rdfe_phases import RDFE, NoPhaseRuns, completed_a_phase
from reports.stats import IntSums, RunningSummary

__all__ = ["SweepTally", "SeedFree", "RecordStreams", "record_digest", "identical_groups"]


def _unnamed(record) -> tuple:
    """A run record's fields apart from the policy's name, in field order: two records of one type are equal apart
    from the name exactly when these tuples are equal (what the dataclass's own ``==`` compares)."""
    get = _UNNAMED.get(type(record))
    if get is None:
        get = _UNNAMED[type(record)] = _getter(record, skip="policy")
    return get(record)


def _getter(instance, skip: str = ""):
    """The tuple of a dataclass instance's compared fields (but ``skip``), read by one call."""
    names = tuple(f.name for f in fields(instance) if f.compare and f.name != skip)
    return attrgetter(*names) if len(names) > 1 else lambda v: tuple(getattr(v, n) for n in names)


#: per record type, the getter of :func:`_unnamed`'s fields; per other dataclass met in a record (a ``Violation``,
#: RDFE's phases), the getter of its compared fields.
_UNNAMED: dict = {}
_FIELDS: dict = {}
_ATOMS = frozenset((int, float, str, bool, type(None), bytes))


def _is_plain(value) -> bool:
    """Whether ``value`` is a number (or None, a string) or a tuple of them: a record's tuples hold one kind of item,
    so a tuple is judged by its first."""
    kind = type(value)
    return kind in _ATOMS or (kind is tuple and (not value or type(value[0]) in _ATOMS))


def _plain(value):
    """``value`` as ``marshal`` can write it: a dataclass (a record's ``Violation``, RDFE's phases) as its type's
    name and its compared fields, a tuple item by item, a numpy number as the Python number it equals, anything else
    by its type and text."""
    if _is_plain(value):
        return value
    kind = type(value)
    if kind is tuple:
        return tuple(_plain(v) for v in value)
    getter = _FIELDS.get(kind)
    if getter is None:
        if isinstance(value, np.generic):
            return value.item()
        if not is_dataclass(value) or isinstance(value, type):
            return ("<object>", kind.__qualname__, repr(value))
        getter = _FIELDS[kind] = _getter(value)
    return (kind.__qualname__, *(_plain(v) for v in getter(value)))


def record_digest(record) -> bytes:
    """The bytes that stand for a run record apart from its policy's name: its type and its compared fields, written
    by ``marshal`` (version 2: no back-references, so equal values give equal bytes; floats by their bits, so 0.0
    and -0.0 differ, which no run record holds). Equal bytes for equal records; :class:`SweepTally` compares the
    BLAKE2b digests of their sequences, so two different sequences are taken as equal with probability at most
    2^-128."""
    fields_ = _unnamed(record)
    if not all(map(_is_plain, fields_)):            # a dataclass among the fields (RDFE's phases, a violation)
        fields_ = tuple(_plain(v) for v in fields_)
    body = marshal.dumps(fields_, 2)
    head = type(record).__qualname__.encode()
    return len(head).to_bytes(2, "big") + head + len(body).to_bytes(8, "big") + body


def identical_groups(policies, same) -> list[tuple]:
    """Groups of policies (two or more, in ``policies`` order) that ``same(p, q)`` finds to have made identical runs:
    each policy is in at most one group, with the first policy of it."""
    groups, seen = [], set()
    for i, p in enumerate(policies):
        if p in seen:
            continue
        group = [q for q in policies[i + 1:] if q not in seen and same(p, q)]
        if group:
            groups.append((p, *group))
            seen.update(group)
    return groups


class RecordStreams:
    """Per key (a budget and a policy, say), the records added in seed order kept as what does not grow with them:
    their count (``runs``), the exact summary of their regrets (``regret``, ``reports.stats.RunningSummary``)
    and the BLAKE2b digest of their :func:`record_digest` bytes in order (``digests``)."""

    def __init__(self, keys):
        self.regret = {k: RunningSummary() for k in keys}
        self.digests = {k: hashlib.blake2b(digest_size=16) for k in keys}
        self.runs = dict.fromkeys(keys, 0)

    def add(self, key, record) -> bytes:
        """Count ``record`` under ``key``; returns its :func:`record_digest` bytes."""
        self.runs[key] += 1
        self.regret[key].add(record.regret)
        body = record_digest(record)
        self.digests[key].update(body)
        return body

    def identical_runs(self, budgets, policies, key=lambda b, p: (b, p)) -> list[tuple]:
        """Groups of policies (two or more, in ``policies`` order) whose run records are equal apart from the name on
        every seed at every budget: as many runs, with equal digests of their records in seed order, at every
        budget (``key(budget, policy)``: the stream's key), with at least one run; two different sequences of
        records have one digest with probability at most 2^-128."""
        def same(p, q):
            return bool(self.runs[key(budgets[-1], p)]) and all(
                self.runs[key(b, p)] == self.runs[key(b, q)]
                and self.digests[key(b, p)].digest() == self.digests[key(b, q)].digest() for b in budgets)

        return identical_groups(tuple(policies), same)


@dataclass(frozen=True)
class SeedFree:
    """A policy that made the same queries on every seed (equal N_k^(L) and N_k^(H) per arm) at ``budgets`` (its
    regret, a function of those counts, then has standard error 0), over ``seeds`` runs; for RDFE, whether any phase
    was completed and whether the completed phases kept the same arms on every seed."""

    policy: str
    budgets: list[float]
    seeds: int
    phase_completed: bool
    same_survivors: bool


class SweepTally:
    """The report's aggregates of its sweep (``add`` each run in task order: budget, policy, seed).

    ``problem`` and ``analysis`` are the configuration's at the full budget (``budgets[-1]``); ``lead`` is the policy
    whose per-arm counts the counts table and figures show; ``arms`` the arms of the table (every arm but k^*), whose
    sums and maxima are kept; ``drawn`` those of the figures (default ``arms``), whose counts are kept as histograms
    (``low[j]``, ``high[j]``, ... for ``drawn[j]``)."""

    def __init__(self, problem, analysis, budgets, policies, lead: str, arms, drawn=None):
        self.problem, self.analysis = problem, analysis
        self.budgets, self.policies, self.lead = tuple(budgets), tuple(policies), lead
        self.full = self.budgets[-1]
        self.arms = list(arms)
        self.drawn = list(self.arms if drawn is None else drawn)
        self._columns = np.array(self.arms, dtype=np.int64)
        keys = [(b, p) for b in self.budgets for p in self.policies]
        self.streams = RecordStreams(keys)
        self.regret, self.runs = self.streams.regret, self.streams.runs
        self.first_counts: dict = {}                # (b, p) -> (n_low, n_high) of its first run
        self.same_counts = dict.fromkeys(keys, True)
        self.first_survivors: dict = {}
        self.same_survivors = dict.fromkeys(keys, True)
        self.completed = dict.fromkeys(keys, False)
        self.no_phase = dict.fromkeys(self.budgets, 0)
        # at the full budget
        self.failures = dict.fromkeys(self.policies, 0)     # off the event of lem:ci, decided exactly
        self.float_failures = dict.fromkeys(self.policies, 0)
        width = len(self.arms)
        # the sums over runs, exact at any size
        self._low_sums = IntSums(width, _FOLD_AT)
        self._high_sums = IntSums(width, _FOLD_AT)
        self.low_max = np.zeros(width, dtype=np.int64)
        self.high_max = np.zeros(width, dtype=np.int64)
        # per drawn arm: {class in the run: Histogram of N^(L)} (N^(H)), and the same of the runs off the event of
        # lem:ci
        self.low: list[dict[str, Histogram]] = [{} for _ in self.drawn]
        self.high: list[dict[str, Histogram]] = [{} for _ in self.drawn]
        self.low_off: list[dict[str, Histogram]] = [{} for _ in self.drawn]
        self.high_off: list[dict[str, Histogram]] = [{} for _ in self.drawn]
        self.classes_after: Counter = Counter()
        self.lead_off = 0

    def add(self, budget: float, policy: str, r) -> None:
        key = (budget, policy)
        n = self.runs[key]
        self.streams.add(key, r)
        counts = (r.n_low, r.n_high)
        if n == 0:
            self.first_counts[key] = counts
        elif self.same_counts[key] and counts != self.first_counts[key]:
            self.same_counts[key] = False
        if r.phases or policy == RDFE:
            survivors = [ph.survivors for ph in r.phases]
            if n == 0:
                self.first_survivors[key] = survivors
            elif survivors != self.first_survivors.get(key):
                self.same_survivors[key] = False
            completed = completed_a_phase(r)
            self.completed[key] = self.completed[key] or completed
            if policy == RDFE and not completed:
                self.no_phase[budget] += 1
        if budget != self.full:
            return
        off = not r.event_held and event_failure(self.problem, r) is not None
        self.failures[policy] += off
        self.float_failures[policy] += not r.event_held
        if policy == self.lead:
            self._add_counts(r, off)

    def _add_counts(self, r, off: bool) -> None:
        a = self.analysis
        classes = refine_partition(a.classes, a.tau, r.facts())     # C split by the run
        self.classes_after.update(c.value for c in classes if c is not ArmClass.OPTIMAL)
        self.lead_off += off
        low = np.asarray(r.n_low, dtype=np.int64)[self._columns]
        high = np.asarray(r.n_high, dtype=np.int64)[self._columns]
        self._low_sums.add(low)
        self._high_sums.add(high)
        np.maximum(self.low_max, low, out=self.low_max)
        np.maximum(self.high_max, high, out=self.high_max)
        for i, k in enumerate(self.drawn):
            c = classes[k].value
            nl, nh = r.n_low[k], r.n_high[k]
            _count(self.low[i], c, nl)
            _count(self.high[i], c, nh)
            if off:
                _count(self.low_off[i], c, nl)
                _count(self.high_off[i], c, nh)

    # what the report reads
    def sums(self) -> tuple[list[int], list[int]]:
        """Per arm of ``arms``, the sums of the lead policy's N^(L) and N^(H) over its runs at the full budget, as
        Python ints."""
        return self._low_sums.total(), self._high_sums.total()

    def lead_runs(self) -> int:
        return self.runs[self.full, self.lead]

    def identical_runs(self) -> list[tuple]:
        """:meth:`RecordStreams.identical_runs` of the sweep."""
        return self.streams.identical_runs(self.budgets, self.policies)

    def seed_free(self) -> list[SeedFree]:
        """Each policy and the budgets at which every seed made the same queries (equal N_k^(L) and N_k^(H) per arm),
        so that its regret, a function of those counts, has standard error 0; with, for RDFE, whether any phase was
        completed and whether the completed phases kept the same arms on every seed. Only with two runs or more."""
        out = []
        for p in self.policies:
            at = [b for b in self.budgets if self.runs[b, p] >= 2 and self.same_counts[b, p]]
            if at:
                out.append(SeedFree(p, at, self.runs[at[0], p], any(self.completed[b, p] for b in at),
                                    all(self.same_survivors[b, p] for b in at)))
        return out

    def no_phase_runs(self) -> list[NoPhaseRuns]:
        """Per budget, RDFE's runs and how many of them completed no phase of ``alg:app-rdfe``; empty when RDFE is
        not among the policies."""
        if RDFE not in self.policies:
            return []
        return [NoPhaseRuns(b, self.runs[b, RDFE], self.no_phase[b]) for b in self.budgets]


#: how much a sum of counts may grow between two folds into Python ints: far from 2^63.
_FOLD_AT = 1 << 62


def _count(groups: dict, cls: str, value: int) -> None:
    h = groups.get(cls)
    if h is None:
        h = groups[cls] = Histogram()
    h.add(value)
