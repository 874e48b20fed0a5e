"""The run record (docs/design.md section 7): everything a claim needs from one run, per arm and per run.

Records compare equal field by field (floats exactly), so "the two engines agree" is ``a == b``, and they
round-trip through JSON (``to_dict``) and the runner's cache (``simulate._cache``). The regret numbers are
correctly rounded sums (``math.fsum``'s float, computed exactly in compiled code by ``simulate._fsum``, so the fast
engine computes them in its loop).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import TypeVar

import numpy as np

from bounds import ArmRunFacts
from simulate._compile import compiled
from simulate._fsum import fsum_into
from simulate._rdfe import RdfePhase
from simulate._rewards import HIGH, LOW

__all__ = ["Violation", "RunRecord", "regret_shares", "regret_sums", "regret_summary", "record_from_arrays",
           "default_checkpoints", "FIDELITY_NAMES", "RECORD_FIELDS", "built"]

#: a fidelity code (``LOW``, ``HIGH``) as a run record names it (``Violation.fidelity``).
FIDELITY_NAMES = {LOW: "L", HIGH: "H"}


@dataclass(frozen=True)
class Violation:
    r"""The first count at which the confidence event failed on a run:
    :math:`|\hat\mu - \mu| > G_\Lambda(n, \delta)` at count n."""

    arm: int
    fidelity: str
    count: int


@compiled()
def shares_into(gaps, cost_low, cost_high, n_low, n_high, out):
    """Arm k's share of the cost-weighted pseudo-regret R(Lambda) (``sec:problem``) into ``out[k]``:
    Delta_k (lambda^(L) N_k^(L) + lambda^(H) N_k^(H)); exactly 0 for Delta_k = 0."""
    for k in range(gaps.size):
        if gaps[k] == 0:
            out[k] = 0.0
        else:
            out[k] = gaps[k] * (cost_low * float(n_low[k]) + cost_high * float(n_high[k]))


@compiled()
def regret_sums(gaps, cost_low, cost_high, n_low, n_high, snaps, n_snaps, shares, at, work):
    """The run's regret numbers in one compiled pass: ``shares`` (K) the final shares, ``at`` the regret at each
    checkpoint (the first ``n_snaps`` from the counts in ``snaps[i]`` = (low, high), the rest the final regret),
    each sum correctly rounded (``math.fsum``'s float, ``simulate._fsum``); ``work`` is K floats.
    Returns (regret, ok); ok is False when a sum is not finite (then :func:`regret_summary` asks
    ``math.fsum``)."""
    K = gaps.size
    shares_into(gaps, cost_low, cost_high, n_low, n_high, shares)
    regret, ok = fsum_into(shares, K)
    row = work
    for i in range(n_snaps):
        shares_into(gaps, cost_low, cost_high, snaps[i, 0], snaps[i, 1], row)
        total, fine = fsum_into(row, K)
        at[i] = total
        ok = ok and fine
    for i in range(n_snaps, at.size):
        at[i] = regret
    return regret, ok


def regret_summary(gaps, cost_low, cost_high, n_low, n_high, snaps, n_snaps, shares, at, work) -> float:
    """:func:`regret_sums`, with ``math.fsum`` itself deciding the sums that are not finite (inf, or an
    overflow it reports); fills ``shares`` and ``at`` and returns the regret."""
    regret, ok = regret_sums(gaps, cost_low, cost_high, n_low, n_high, snaps, n_snaps, shares, at, work)
    if not ok:
        regret = math.fsum(shares.tolist())
        row = np.empty(gaps.size)
        for i in range(n_snaps):
            shares_into(gaps, cost_low, cost_high, snaps[i, 0], snaps[i, 1], row)
            at[i] = math.fsum(row.tolist())
        at[n_snaps:] = regret
    return regret


def regret_shares(gaps, n_low, n_high, cost_low: float, cost_high: float) -> tuple:
    """Arm k's share of the cost-weighted pseudo-regret R(Lambda) (``sec:problem``):
    Delta_k (lambda^(L) N_k^(L) + lambda^(H) N_k^(H)); exactly 0 for Delta_k = 0."""
    g = np.ascontiguousarray(gaps, dtype=float)
    out = np.empty(g.size)
    shares_into(g, float(cost_low), float(cost_high), np.ascontiguousarray(n_low, dtype=np.int64),
                np.ascontiguousarray(n_high, dtype=np.int64), out)
    return tuple(out.tolist())


def default_checkpoints(budget: float, n: int = 16) -> tuple:
    """n evenly spaced budgets up to the full budget: budget * i / n, i = 1..n."""
    return tuple(budget * i / n for i in range(1, n + 1))


@dataclass(frozen=True)
class RunRecord:
    """One run of one policy on one seed.

    Per arm (tuples of length K):

    - n_low, n_high: N_k^(L), N_k^(H) at the end (initial queries included).
    - continuation: A_k, the continuation pulls (TACC only; 0 otherwise).
    - threshold_count: N_k^(L) at the first query made after the start with N_k^(L) >= N_gamma, i.e. when the
      arm's low-fidelity radius had fallen below gamma (-1 if never).
    - high_in_window: high-fidelity queries made after the start while N_gamma <= N_k^(L) < tau_k(gamma)
      (what C^d of ``eq:app-analysis-Cdet`` needs).
    - high_before_threshold: high-fidelity queries made after the start while N_k^(L) < N_gamma, i.e. while
      G(N^(L)) >= gamma (0 for TACC, DNC, MF-UCB and LUCB by ``eq:fidelity-selection``).
    - regret_share: Delta_k (lambda^(L) N_k^(L) + lambda^(H) N_k^(H)).

    Per run:

    - rounds, cost: queries made and their total cost (<= budget).
    - regret: R(Lambda), the sum of the shares.
    - checkpoints, regret_at: budgets c and the regret of the queries with C_t <= c (a prefix of this run).
    - event_held, violation: the confidence event checked after every update (docs/design.md section 7), and its
      first failure.
    - phases, output: RDFE's phases and its returned arm (empty / None for other policies).
    - trace: ((arm, fidelity), ...) per round, when asked for.
    """

    policy: str
    seed: int
    n_low: tuple
    n_high: tuple
    continuation: tuple
    threshold_count: tuple
    high_in_window: tuple
    high_before_threshold: tuple
    regret_share: tuple
    rounds: int
    cost: float
    regret: float
    checkpoints: tuple
    regret_at: tuple
    event_held: bool
    violation: Violation | None
    phases: tuple = ()
    output: int | None = None
    trace: tuple | None = None

    @property
    def n_arms(self) -> int:
        return len(self.n_low)

    def facts(self) -> tuple:
        """One ``bounds.ArmRunFacts`` per arm, for ``bounds.refine_partition`` (C into C^d or C^u)."""
        return tuple(built(ArmRunFacts, _FACT_FIELDS, (a, w)) if type(a) is int is type(w) and a >= 0 and w >= 0
                     else ArmRunFacts(low_count=a, high_in_window=w)     # validated (refused with the field)
                     for a, w in zip(self.n_low, self.high_in_window, strict=True))

    def to_dict(self) -> dict:
        """A JSON-ready dict (inf as the string "inf")."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["violation"] = None if self.violation is None else asdict(self.violation)
        d["phases"] = [_jsonable(asdict(p)) for p in self.phases]
        d["trace"] = None if self.trace is None else [list(t) for t in self.trace]
        return _jsonable(d)

    @classmethod
    def from_dict(cls, d: dict) -> "RunRecord":
        d = dict(d)
        for name in ("n_low", "n_high", "continuation", "threshold_count", "high_in_window", "high_before_threshold",
                     "regret_share",
                     "checkpoints", "regret_at"):
            d[name] = tuple(d[name])
        d["violation"] = None if d["violation"] is None else Violation(**d["violation"])
        d["phases"] = tuple(_phase(p) for p in d.get("phases", ()))
        d["trace"] = None if d.get("trace") is None else tuple(tuple(t) for t in d["trace"])
        return cls(**d)


def record_from_arrays(policy: str, seed: int, per_arm, shares, rounds: int, cost: float, regret: float,
                       checkpoints: tuple, at, violation, phases=(), output=None, trace=None) -> RunRecord:
    """A :class:`RunRecord` from a finished run's arrays (both engines): ``per_arm`` is a (6, K) int64 array of
    (n_low, n_high, continuation, threshold_count, high_in_window, high_before_threshold), ``shares`` and ``at``
    float arrays (converted once with ``tolist``, so every field holds Python ints and floats)."""
    n_low, n_high, cont, thr, win, early = per_arm.tolist()
    return built(RunRecord, RECORD_FIELDS, (
        policy, seed, tuple(n_low), tuple(n_high), tuple(cont), tuple(thr), tuple(win), tuple(early),
        tuple(shares.tolist()), rounds, cost, regret, checkpoints, tuple(at.tolist()), violation is None, violation,
        phases, output, trace))


#: the fields of :class:`RunRecord`, in order (the order of :func:`built`'s values).
RECORD_FIELDS = tuple(f.name for f in fields(RunRecord))


#: the fields of ``bounds.ArmRunFacts``, in order (non-negative int counts, all its check asks, make one directly).
_FACT_FIELDS = tuple(f.name for f in fields(ArmRunFacts))

_T = TypeVar("_T")


def built(cls: type[_T], names: tuple, values) -> _T:
    """``cls(**dict(zip(names, values)))`` for a frozen dataclass without ``__post_init__`` (:class:`RunRecord`,
    :class:`simulate.RdfePhase`), or whose ``__post_init__`` only checks values known to pass it
    (``bounds.ArmRunFacts`` of non-negative ints), made without calling ``__init__``, which stores each field
    through ``object.__setattr__`` and costs about as much as the rest of decoding a stored record. The object is
    the same: the same fields holding the same values (``names`` must be every field, in order)."""
    obj = object.__new__(cls)
    obj.__dict__.update(zip(names, values, strict=True))
    return obj


def _phase(p: dict) -> RdfePhase:
    p = {k: (tuple(_unjson(x) for x in v) if isinstance(v, list) else _unjson(v)) for k, v in p.items()}
    return RdfePhase(**p)


def _unjson(x):
    return math.inf if x == "inf" else x


def _jsonable(x):
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, (float, np.floating)):
        return "inf" if x == math.inf else float(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    return x
