"""Work and memory of a command, estimated from the configurations before anything is built or run.

Everything here is an upper bound computed from the configuration alone (no instance is built, so an input of
10^9 arms costs nothing to estimate):

- arms K, and the rounds a run of each policy can make (:func:`rounds_bound`): the most queries the budget pays
  for when each policy's low and high counts are capped by what its algorithm allows (TACC: at most
  N_gamma + S0 low queries per arm, lines 7 and 9 of Algorithm 1), at most the horizon T = ceil(Lambda / lambda_L);
- the largest arrays: the table of B_k(n) every two-fidelity policy reads, for n = 1..L with
  L = min(N_gamma, T) + S0 + 1 (one row shared by all arms under power and residual decay, one row per arm for
  table and checkpoint models; ``simulate.Problem.bias_table``), the low means tabulated over the same counts,
  at most 2^16 columns (``simulate.Problem.schedule``: one row shared by all arms under power and residual decay,
  one row per arm otherwise), and the per-arm state (instance,
  thresholds, run record, analysis);
- a run's trace (``tacc explain``): ``TRACE_BYTES_PER_ROUND`` per round of that bound;
- what a command keeps of its runs for its analysis: ``KEPT_BYTES_PER_RUN`` plus ``KEPT_BYTES_PER_ARM_RUN`` per
  arm for a run held whole (``simulate.run_tasks``); ``tacc check`` keeps a verdict per claim and run instead, about
  2.1 KB a run measured with tracemalloc on the default policies, counted as ``KEPT_BYTES_PER_RUN``, none with
  ``--verdicts violated`` (``tacc simulate``, ``tacc report`` and ``tacc reproduce`` stream their runs and keep
  none);
- the time: the sum over runs of the rounds bound x the slowest per-round cost of the engine, spread over the
  workers, plus the continuation window's scan (``bounds.continuation_window``: min(S_0, T) states per distinct
  B_k x ``NS_PER_WINDOW_STATE``, in the command's own process).

An input whose estimate exceeds the machine's memory is refused (exit 2) with the estimate; work whose time bound
exceeds ``LONG_SECONDS`` is announced on standard error with the bound, and progress is shown. See
``docs/design.md``, "Work estimates".
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Sequence

from bounds import Config, CostUnits, TaccInputError, cost_units, horizon, log_factor, min_rho, n_gamma

__all__ = ["size_text", "duration_text", "Estimate", "estimate", "window_length", "combined", "announce",
           "machine_memory", "rounds_bound",
           "LONG_SECONDS", "PER_ARM_BYTES", "NS_PER_ROUND", "NS_PER_WINDOW_STATE", "BASE_BYTES",
           "TRACE_BYTES_PER_ROUND", "KEPT_BYTES_PER_RUN", "KEPT_BYTES_PER_ARM_RUN", "JSON_BYTES_PER_RUN"]

#: bytes of state per arm (instance arrays, thresholds, run-record arrays, the per-arm rows of an analysis),
#: bounded by tracemalloc measurements (tests/reports/test_estimate.py).
PER_ARM_BYTES = 4096
#: bytes per round of a traced run as ``tacc explain`` holds it (the engine's int32 rows, the record's tuple of
#: (arm, fidelity) tuples with the list they are made from, explain's int64 copy and per-arm round lists), bounded
#: by tracemalloc measurements (tests/reports/test_estimate.py).
TRACE_BYTES_PER_ROUND = 320
#: bytes a command that keeps its runs for its analysis (``tacc check``; not ``simulate``, ``report`` or ``reproduce``,
#: which stream them) holds per run and per arm of a run: its task, record and per-run rows. Measured 2026-11-27
#: as the peak resident memory of ``tacc report --executor serial``, which kept its runs then, at two seed counts
#: (2 arms: 2.4 KB per run; 100 arms: 9.2 KB; so about 2.3 KB + 69 B per arm), rounded up to about 1.7 times (the
#: runs ``simulate.run_tasks`` keeps are tested against it: tests/reports/test_estimate.py). Without it, a command
#: that keeps its runs would be estimated at a few tens of MiB whatever its seed count.
KEPT_BYTES_PER_RUN = 4096
KEPT_BYTES_PER_ARM_RUN = 128
#: bytes ``tacc check --json`` adds per run when it keeps every verdict (their JSON objects and text are built whole
#: before the file is written). Measured 2026-11-27: 100,000 TACC runs (ten claims each) peaked at 2.0 GB with
#: --json against 517 MB without, about 15 KB a run; rounded up. Without it, a check with --json would be estimated
#: at about a quarter of the memory it needs.
JSON_BYTES_PER_RUN = 16 << 10
#: fixed allocations of a command (compiled code, the tables of one configuration), rounded up.
BASE_BYTES = 32 << 20
#: columns of the tabulated low means (``simulate.Problem.schedule``).
SCHEDULE_COLUMNS = 1 << 16
#: the slowest cost per round measured by ``tacc bench`` (fast engine, every policy; reference engine), rounded up.
NS_PER_ROUND = {"fast": 500.0, "reference": 30_000.0}
#: the slowest cost per (distinct B_k, state) of the continuation window's scan (``bounds.continuation_window``, in
#: this process, not spread over the workers: about 47 ns measured at S_0 = 10^7 under power decay with a test that
#: passes at every state), rounded up. The scan reads min(S_0, T) states; with S_0 = 10^11 it takes about an hour,
#: so it is counted and announced before it starts.
NS_PER_WINDOW_STATE = 100.0
#: work whose time bound exceeds this is announced before it starts.
LONG_SECONDS = 600.0
_SHARED_ROW_MODELS = ("power_decay", "residual_decay", "frozen")
#: models whose low means are read through one row shared by every arm (the power (n + n0)^(-r) of the decay
#: models, ``simulate.MeanSchedule``); the others tabulate one row per arm.
_SHARED_SCHEDULE_MODELS = ("power_decay", "residual_decay")


#: bytes each worker process holds at least: the toolkit, numpy and numba imported and the engines' machine code
#: loaded. Measured 2026-11-27 on the README's machine: 171 MB peak resident memory of each of two workers after Set B
#: and LLM runs; rounded down (a lower bound: what it refuses could not run).
WORKER_BYTES = 160 << 20


def refuse_too_many_workers(workers: int, limit: int | None = None) -> None:
    """Raise :class:`bounds.TaccInputError` naming ``--workers`` (exit 2) if ``workers`` processes of at least
    ``WORKER_BYTES`` each exceed ``limit`` (default: this machine's physical memory): `--workers 99999` started that
    many processes and stalled the machine."""
    limit = machine_memory() if limit is None else limit
    if workers * WORKER_BYTES > limit:
        raise TaccInputError("--workers", workers,
                             f"each worker process holds at least {size_text(WORKER_BYTES)} (the engines and numba, "
                             f"measured), so {workers} need {size_text(workers * WORKER_BYTES)}, more than this "
                             f"machine's {size_text(limit)} (at most {limit // WORKER_BYTES} workers)")


def machine_memory() -> int:
    """Physical memory of this machine in bytes."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not POSIX: assume 8 GiB
        return 8 << 30


def size_text(n: float) -> str:
    """A number of bytes as text, in binary units to 3 significant digits (``1.5 GiB``)."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.3g} {unit}"
        n /= 1024
    return f"{n:.3g}"


def duration_text(s: float) -> str:
    """A number of seconds as text in the unit that reads best (``90 s``, ``12 min``, ``1.5 hours``)."""
    if not math.isfinite(s):
        return "forever"
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    if s < 2 * 86400:
        return f"{s / 3600:.1f} hours"
    if s < 2 * 365 * 86400:
        return f"{s / 86400:.1f} days"
    return f"{s / (365 * 86400):.3g} years"


@dataclass(frozen=True)
class Estimate:
    """Upper bounds on the work and memory of a command (see the module docstring)."""

    arms: int
    rounds_per_run: int
    runs: int
    table_entries: int
    memory_bytes: float
    seconds: float
    workers: int
    config: str

    @property
    def long(self) -> bool:
        return self.seconds > LONG_SECONDS

    def describe(self) -> str:
        if not self.runs:                # tacc bounds: no run, no table ("up to 0 runs, ... about 0 s" said nothing)
            return (f"{self.arms:,} arms; memory about {size_text(self.memory_bytes)}"
                    + (f", time at most about {duration_text(self.seconds)}" if self.seconds >= 1 else ""))
        return (f"{self.arms:,} arms, up to {self.rounds_per_run:,} rounds per run, up to {self.runs:,} runs, largest "
                f"tables {self.table_entries:,} values; memory about {size_text(self.memory_bytes)}, time at most "
                f"about {duration_text(self.seconds)} on {self.workers} worker(s)")

    def refuse_if_too_large(self, limit: int | None = None, hint: str | None = None) -> None:
        """Raise :class:`bounds.TaccInputError` (exit 2) if the memory estimate exceeds ``limit`` (default: this
        machine's physical memory), with ``hint`` (how to run it in less) when given."""
        limit = machine_memory() if limit is None else limit
        if self.memory_bytes > limit:
            raise TaccInputError("config", self.config,
                                 f"needs about {size_text(self.memory_bytes)} of memory, more than this machine's "
                                 f"{size_text(limit)} ({self.describe()})" + (f"; {hint}" if hint else ""))


def _n_gamma(config: Config, arms: int, T: int) -> int | None:
    """N_gamma of the configuration, as the engines compute it (``simulate.thresholds``: the same calls of
    ``bounds``), or None when it is not representable."""
    p = config.params
    try:
        rho = min_rho(config.instance.noise.subgaussian_scale, arms, T, p.delta) if p.rho == "min" else float(p.rho)
        return n_gamma(log_factor(rho, arms, T, p.delta), p.gamma)
    except (TaccInputError, OverflowError, ValueError):
        return None


#: the most low queries per arm each policy's algorithm allows, from N_gamma and S0 (None: no cap but the budget):
#: TACC makes a low query only while N^(L) < N_gamma (line 7 of Algorithm 1; the start's one low query is among
#: them, N_gamma >= 1) or as a continuation pull, at most S0 per arm (line 9: A_k < S0); DNC and MF-UCB have no
#: continuation branch, LUCB queries low only while N^(L) < N_gamma (``simulate.LucbStatic``); UCB makes no low
#: query; Weak-Fixed, Low-Improving and RDFE have no cap but the budget.
_LOW_PER_ARM = {"tacc": lambda ng, s0: ng + s0, "dnc": lambda ng, s0: ng, "mf-ucb": lambda ng, s0: ng,
                "lucb": lambda ng, s0: ng, "ucb": lambda ng, s0: 0}
#: policies that make no high query (single-fidelity UCB on the low source).
_LOW_ONLY = ("weak-fixed", "low-improving")


def _most_queries(units: CostUnits, low_cap: int | None, high_cap: int | None) -> int:
    """The most queries L + H with L <= low_cap, H <= high_cap and L lambda_L + H lambda_H <= Lambda (exact, in
    integer cost units): the cheaper fidelity first (exchanging a query for a cheaper one never lowers the count)."""
    caps = {"low": low_cap, "high": high_cap}
    left, total = units.budget, 0
    for name in sorted(caps, key=lambda f: getattr(units, f)):
        price, cap = getattr(units, name), caps[name]
        n = left // price if cap is None else min(cap, left // price)
        total, left = total + n, left - n * price
    return total


def rounds_bound(config: Config, policy: str) -> int:
    """The most rounds a run of ``policy`` on ``config`` can make, from its algorithm and the budget (every run
    stops before a query that would take the cost past Lambda, ``alg:adaptive-mf-mab``): the most queries the
    budget pays for with at most :data:`_LOW_PER_ARM` low queries per arm (no high query for Weak-Fixed and
    Low-Improving), never more than the horizon T = ceil(Lambda / lambda_L). An unknown policy gets the horizon."""
    c, K = config.costs, config.instance.n_arms
    units = cost_units(c.low, c.high, config.params.budget)
    T = horizon(config.params.budget, c.low)
    low_cap: int | None = None
    if policy in _LOW_PER_ARM:
        ng = _n_gamma(config, K, T)
        low_cap = None if ng is None else K * _LOW_PER_ARM[policy](ng, int(config.params.s0))
    elif policy not in _LOW_ONLY and policy != "rdfe":
        return T
    return min(T, _most_queries(units, low_cap, 0 if policy in _LOW_ONLY else None))


def _table_entries(config: Config, arms: int, T: int) -> int:
    """Entries tabulated over the counts n = 1..L, L = min(N_gamma, T) + S0 + 1: B_k(n) (distinct rows x L) and
    the low means (K x min(L, 2^16))."""
    p = config.params
    ng = _n_gamma(config, arms, T)
    ng = T if ng is None else ng  # the threshold count is not representable: bound it by the horizon
    rows = 1 if config.instance.low.model in _SHARED_ROW_MODELS else arms
    length = min(ng, T) + int(p.s0) + 1
    means = 1 if config.instance.low.model in _SHARED_SCHEDULE_MODELS else arms
    return rows * length + means * min(length, SCHEDULE_COLUMNS)


def window_length(config: Config) -> int:
    """The states of the continuation window ``bounds.continuation_window`` reads per distinct B_k, at most:
    min(S_0, T_Lambda) (a state A_k = a >= T is never met)."""
    return min(int(config.params.s0), horizon(config.params.budget, config.costs.low))


def estimate(configs: Sequence[Config], policies: Sequence[str], n_seeds: int, *, budgets_per_config: int = 1,
             workers: int = 1, engine: str = "fast", tables: bool = True, trace: bool = False,
             kept: bool = False, kept_json: bool = False, kept_per_arm: bool = True) -> Estimate:
    """Upper bounds for running every policy on ``n_seeds`` seeds of every configuration (``budgets_per_config``
    budgets each, as ``tacc report`` does); ``tables=False`` leaves out the B_k(n) table the runs read (what
    ``tacc bounds`` needs: the per-arm state only); ``trace=True`` adds a run's trace (what ``tacc explain``
    records), ``TRACE_BYTES_PER_ROUND`` per round of the largest :func:`rounds_bound` of the policies;
    ``kept=True`` adds what a command that keeps every run for its analysis holds (``KEPT_BYTES_PER_RUN`` and
    ``KEPT_BYTES_PER_ARM_RUN``, every configuration's runs together), and ``kept_json=True`` what writing
    them as JSON adds (``JSON_BYTES_PER_RUN``: ``tacc check --json`` with every verdict kept);
    ``kept_per_arm=False`` leaves out the per-arm part (``tacc check`` keeps a verdict per claim and run, whose size
    does not depend on the arms)."""
    arms = rounds = entries = 0
    memory, round_total, worst, held, window = 0.0, 0.0, "", 0.0, 0.0
    for c in configs:
        cost_units(c.costs.low, c.costs.high, c.params.budget)   # refuse what exact accounting cannot hold, first
        K = c.instance.n_arms
        T = horizon(c.params.budget, c.costs.low)
        e = _table_entries(c, K, T) if tables else 0
        most = [rounds_bound(c, policy) for policy in policies]
        longest = max(most, default=T)
        m = BASE_BYTES + K * PER_ARM_BYTES + 8.0 * e + (TRACE_BYTES_PER_ROUND * (longest + 1.0) if trace else 0.0)
        if m >= memory:
            memory, worst = m, c.source or c.name
        arms, rounds, entries = max(arms, K), max(rounds, longest), max(entries, e)
        round_total += float(sum(most)) * n_seeds * budgets_per_config
        # the continuation window of the configuration (``bounds.continuation_of``): min(S_0, T) states per distinct
        # B_k (one under the decay models)
        distinct = 1 if c.instance.low.model in _SHARED_ROW_MODELS else K
        window += float(window_length(c)) * distinct * budgets_per_config
        if kept:
            held += float(len(policies)) * n_seeds * budgets_per_config * (KEPT_BYTES_PER_RUN
                                                                           + K * KEPT_BYTES_PER_ARM_RUN * kept_per_arm
                                                                           + (JSON_BYTES_PER_RUN if kept_json else 0))
    memory += held
    runs = len(configs) * len(policies) * n_seeds * budgets_per_config
    per_round = NS_PER_ROUND.get(engine, NS_PER_ROUND["reference"]) * 1e-9
    seconds = round_total * per_round / max(1, min(workers, max(runs, 1))) + window * NS_PER_WINDOW_STATE * 1e-9
    return Estimate(arms, rounds, runs, entries, memory, seconds, max(1, workers), worst)


def combined(estimates: Sequence[Estimate], *, at_once: int = 1) -> Estimate:
    """The estimate of several groups of runs made one after the other (``tacc reproduce``, ``tacc bench``):
    runs and time add up; arms, rounds and tables are the largest of any group, and memory the largest total of
    ``at_once`` consecutive groups (held together: ``tacc reproduce`` analyses one experiment, two groups, while the
    next one's runs are made)."""
    big = max(estimates, key=lambda e: e.memory_bytes)
    at_once = max(1, min(at_once, len(estimates)))
    memory = max(sum(e.memory_bytes for e in estimates[i:i + at_once]) for i in range(len(estimates) - at_once + 1))
    return Estimate(max(e.arms for e in estimates), max(e.rounds_per_run for e in estimates),
                    sum(e.runs for e in estimates), max(e.table_entries for e in estimates), memory,
                    sum(e.seconds for e in estimates), big.workers, big.config)


def announce(est: Estimate, what: str, resume: str) -> str:
    """The line printed before long work starts (``resume``: how an interrupted run resumes)."""
    return (f"{what}: {est.describe()}. Progress below counts finished runs (a single run shows none); "
            f"Ctrl-C stops it, and {resume}.")
