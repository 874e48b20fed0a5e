"""``tacc bench``: engine speed as ratios against references measured in the same run (the reference engine, a
per-round numpy TACC, a minimal compiled kernel, SMPyBandits), the cost per round as K and the budget grow, and the
report's and reproduction's sweeps; every comparison first checks that the implementations make the same decisions.
"""

from reports.bench._bench import INSTANCES, render, run_bench, work
from reports.bench._results import (BenchResults, BoundsTiming, DrawCosts, Machine, MemoryRow, Reported,
                                    ReportTiming, ReproduceTiming, SameDecisions, ScalingRow, SweepTiming, Target,
                                    TimingRow)

__all__ = ["run_bench", "work", "render", "INSTANCES", "BenchResults", "TimingRow", "SameDecisions", "ScalingRow",
           "MemoryRow", "BoundsTiming", "DrawCosts", "Target", "Reported", "ReportTiming", "ReproduceTiming",
           "SweepTiming", "Machine"]
