"""Several methods' runs on one configuration over common seeds, counted as they come (``tacc reproduce``'s tables,
paired differences and explanations), in memory that does not grow with the seeds.

The runs of one seed are paired once every method's run of that seed has come (until then each is held as its
regret and a 16-byte digest); everything else is a running sum: exact for the regrets (``RunningSummary``) and for
integer counts (``IntSums``), float for the per-arm regret shares (printed to four digits).
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from reports.stats import IntSums, RunningSummary, Summary, paired_of
from reports.report import record_digest

__all__ = ["MethodSums", "CommonSeeds"]


class MethodSums:
    """One method's runs on one configuration: the exact summary of their regrets, the totals of high-fidelity
    queries and continuation pulls, the largest continuation on one arm, the runs off the confidence event of
    ``lem:ci`` (decided by the caller) and, with ``per_arm``, per arm the sums of N^(L), N^(H), A_k, of the regret
    shares and the number of runs with A_k > 0."""

    __slots__ = ("regret", "high_calls", "continuation", "max_continuation", "failures", "per_arm", "low", "high",
                 "cont", "cont_runs", "share")

    def __init__(self, per_arm: bool = False):
        self.regret = RunningSummary()
        self.high_calls = 0
        self.continuation = 0
        self.max_continuation = 0
        self.failures = 0
        self.per_arm = per_arm
        self.low: Any = None            # IntSums per arm, made at the first run (its number of arms)
        self.high: Any = None
        self.cont: Any = None
        self.cont_runs: Any = None
        self.share: Any = None          # float64 per arm

    @classmethod
    def of(cls, records, failed=lambda r: False) -> "MethodSums":
        """The sums of ``records`` (per arm), ``failed(r)`` deciding each run's event."""
        s = cls(per_arm=True)
        for r in records:
            s.add(r, failed(r))
        return s

    @property
    def n(self) -> int:
        return self.regret.n

    def add(self, r, failed: bool) -> None:
        self.regret.add(r.regret)
        self.high_calls += sum(r.n_high)
        self.continuation += sum(r.continuation)
        self.max_continuation = max(self.max_continuation, max(r.continuation, default=0))
        self.failures += bool(failed)
        if not self.per_arm:
            return
        if self.low is None:
            K = len(r.n_low)
            self.low, self.high, self.cont, self.cont_runs = IntSums(K), IntSums(K), IntSums(K), IntSums(K)
            self.share = np.zeros(K)
        cont = np.asarray(r.continuation, dtype=np.int64)
        self.low.add(r.n_low)
        self.high.add(r.n_high)
        self.cont.add(cont)
        self.cont_runs.add(cont > 0)
        self.share += r.regret_share

    def summary(self) -> Summary:
        return self.regret.summary()

    def diagnostics(self) -> dict:
        """Means per run of the high-fidelity calls and continuation pulls, the largest continuation on one arm and
        the runs off the event."""
        n = self.n
        return {"high_calls": self.high_calls / n, "continuation": self.continuation / n,
                "max_continuation_per_arm": int(self.max_continuation), "event_failures": int(self.failures)}


class CommonSeeds:
    """``methods`` run on one configuration and common seeds (:meth:`add` each run as it comes, any order): per
    method its :class:`MethodSums`; with ``"tacc"`` among the methods, the paired differences TACC minus each other
    method, seed by seed (exact running sums); with ``compare``, per pair of methods the seeds on which they made
    identical runs (records equal apart from the name: equal BLAKE2b digests of :func:`record_digest`, different
    records taken as equal with probability at most 2^-128) and those with exactly equal regret."""

    def __init__(self, methods, *, per_arm: bool = False, compare: bool = False):
        self.methods = tuple(methods)
        self.sums = {m: MethodSums(per_arm) for m in self.methods}
        self.diffs = {m: RunningSummary() for m in self.methods if m != "tacc"} if "tacc" in self.methods else {}
        self.compare = compare
        self.pairs = {(m, q): [0, 0] for i, m in enumerate(self.methods) for q in self.methods[i + 1:]}
        self.seeds = 0
        self._open: dict = {}           # seed -> {method: (regret, digest)} until every method's run has come

    @classmethod
    def of(cls, records_by_method: dict, failed=lambda r: False) -> "CommonSeeds":
        """The tally of runs held whole (``records_by_method[m]``: one record per seed, in one seed order)."""
        out = cls(records_by_method, per_arm=True, compare=True)
        for m, recs in records_by_method.items():
            for seed, r in enumerate(recs):
                out.add(m, seed, r, failed(r))
        out.close()
        return out

    def add(self, method: str, seed: int, record, failed: bool, body: bytes | None = None) -> None:
        """Count ``method``'s run on ``seed``; ``body``: its :func:`record_digest` bytes if already made."""
        self.sums[method].add(record, failed)
        if not self.diffs and not self.compare:
            return
        digest = None
        if self.compare:
            digest = hashlib.blake2b(record_digest(record) if body is None else body, digest_size=16).digest()
        group = self._open.setdefault(seed, {})
        if method in group:
            raise ValueError(f"two runs of {method} on seed {seed}")
        group[method] = (record.regret, digest)
        if len(group) == len(self.methods):
            del self._open[seed]
            self._pair(group)

    def _pair(self, group: dict) -> None:
        self.seeds += 1
        if self.diffs:
            t = group["tacc"][0]
            for m, d in self.diffs.items():
                d.add(t - group[m][0])
        if self.compare:
            for (m, q), c in self.pairs.items():
                (x, dx), (y, dy) = group[m], group[q]
                c[0] += dx == dy
                c[1] += x == y

    def close(self) -> None:
        """Every seed's runs have come: a seed some method has no run of is an error, not a smaller sample."""
        if self._open:
            seed, group = next(iter(self._open.items()))
            raise RuntimeError(f"seed {seed}: runs of {', '.join(group)} only, of {', '.join(self.methods)}")

    def identical(self, m: str, q: str) -> tuple[int, int, int]:
        """(seeds with identical runs apart from the policy's name, seeds with exactly equal regret, seeds)."""
        same, equal = self.pairs[(m, q)] if (m, q) in self.pairs else self.pairs[(q, m)]
        return same, equal, self.seeds

    def summaries(self) -> tuple[dict, dict, dict]:
        """(summary of the regret, paired difference TACC minus the method, diagnostics) per method."""
        return ({m: s.summary() for m, s in self.sums.items()}, {m: paired_of(d) for m, d in self.diffs.items()},
                {m: s.diagnostics() for m, s in self.sums.items()})
