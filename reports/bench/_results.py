"""What ``tacc bench`` measured, as frozen dataclasses: the timed rows, the same-decision checks, the scaling, memory
and ``tacc bounds`` rows, the observation generator's cost, the end-to-end sweep, the targets and the reported
figures. ``--json`` writes a :class:`BenchResults` field by field (``reports.tables.jsonable``); ``render`` and
``render_sweep`` print one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["TimingRow", "SameDecisions", "ScalingRow", "MemoryRow", "BoundsTiming", "DrawCosts", "Target",
           "Reported", "ReportTiming", "ReproduceTiming", "SweepTiming", "Machine", "BenchResults", "timing_row"]


@dataclass(frozen=True)
class TimingRow:
    """One implementation of one policy timed on one instance: CPU seconds over ``runs`` runs of ``rounds`` rounds in
    all; ``compile_s`` is the first call's extra time (None where not measured); ``ratio_vs_fast`` is this row's
    cost per round over the fast engine's for the same policy and instance (UCB at the horizon: over the fast UCB
    at that horizon; None when there is none)."""

    instance: str
    policy: str
    implementation: str
    rounds: int
    runs: int
    seconds: float
    ns_per_round: float
    rounds_per_s: float
    wall_per_run: float
    compile_s: float | None = None
    ratio_vs_fast: float | None = None


def timing_row(instance: str, policy: str, impl: str, seconds: float, rounds: int, runs: int,
               compile_s: float | None = None) -> TimingRow:
    """The row of ``runs`` runs making ``rounds`` rounds in ``seconds`` (its ratio to the fast engine set later)."""
    return TimingRow(instance, policy, impl, rounds, runs, seconds, 1e9 * seconds / max(rounds, 1),
                     rounds / seconds if seconds > 0 else float("inf"), seconds / runs, compile_s)


@dataclass(frozen=True)
class SameDecisions:
    """Whether two implementations made the same decisions (``what`` says which and how compared)."""

    instance: str
    what: str
    same: bool


@dataclass(frozen=True)
class ScalingRow:
    """TACC's cost per round on a Set-B-like instance of ``n_arms`` arms at ``budget``."""

    n_arms: int
    budget: float
    ns_per_round: float
    rounds_per_run: float


@dataclass(frozen=True)
class MemoryRow:
    """Peak resident memory of a fresh process before and after one low-fidelity-only run at ``budget``."""

    budget: int
    rounds: int
    peak_rss_before_mb: float
    peak_rss_after_mb: float

    @property
    def growth_mb(self) -> float:
        return self.peak_rss_after_mb - self.peak_rss_before_mb


@dataclass(frozen=True)
class BoundsTiming:
    """CPU seconds of ``tacc bounds`` (table and ``--json``, each a fresh process, imports included) and of
    ``analyze`` alone, on a Set-B-like instance of ``n_arms`` arms."""

    n_arms: int
    table_cpu_s: float
    json_cpu_s: float
    analyze_cpu_s: float
    analyze_us_per_arm: float


@dataclass(frozen=True)
class DrawCosts:
    """CPU nanoseconds per draw of the observation generator, and of the previous one (hash + Box-Muller)."""

    gaussian: float
    bernoulli: float
    previous: float

    def items(self) -> tuple[tuple[str, float], ...]:
        """(name as printed, ns per draw) in the order printed."""
        return (("gaussian", self.gaussian), ("bernoulli", self.bernoulli),
                ("previous (hash + Box-Muller)", self.previous))


@dataclass(frozen=True)
class Target:
    """A target: ``met`` is True / False, or None when skipped (``note`` says why); ``limit`` is the value it is
    judged against (None where the target is not a bound on ``value``)."""

    target: str
    value: float | None
    met: bool | None
    limit: float | None = None
    note: str | None = None


@dataclass(frozen=True)
class Reported:
    """A ratio measured in this run and reported, not judged (None with a ``note`` when not measured)."""

    figure: str
    value: float | None
    note: str | None = None


@dataclass(frozen=True)
class ReportTiming:
    """Wall seconds of ``tacc report`` on ``seeds`` seeds in a fresh process, on an empty and then a full cache."""

    seeds: int
    empty_cache_s: float
    full_cache_s: float


@dataclass(frozen=True)
class ReproduceTiming:
    """Wall seconds of ``tacc reproduce`` (``seeds`` None: the paper's counts) in a fresh process on an empty cache,
    and of its ``runs`` distinct runs made by the runner alone with as many ``workers``."""

    experiments: tuple[str, ...]
    seeds: int | None
    workers: int
    runs: int
    wall_s: float
    runs_alone_s: float


@dataclass(frozen=True)
class SweepTiming:
    """The end-to-end sweep: ``runs`` runs through ``run_tasks`` on an empty and a full cache and by the engine alone
    (wall seconds, each the least of its passes), whether all three gave the same records, and the timed commands."""

    runs: int
    sweep_s: float
    cached_s: float
    engine_s: float
    same: bool
    report: ReportTiming
    reproduce: ReproduceTiming | None
    #: the engine's share of the sweep's wall time: engine alone / sweep
    engine_share: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "engine_share", self.engine_s / self.sweep_s)


@dataclass(frozen=True)
class Machine:
    cpus: int | None
    python: str
    platform: str


@dataclass(frozen=True)
class BenchResults:
    """Everything one ``tacc bench`` measured; ``files`` are the scaling figures written."""

    machine: Machine
    quick: bool
    rows: tuple[TimingRow, ...]
    checks: tuple[SameDecisions, ...]
    scaling: tuple[ScalingRow, ...]
    memory: tuple[MemoryRow, ...]
    draw_ns: DrawCosts
    bounds: tuple[BoundsTiming, ...]
    targets: tuple[Target, ...]
    reported: tuple[Reported, ...]
    files: tuple[str, ...]
    sweep: SweepTiming
