"""``tacc bench``: engine speed as ratios against references measured in the same run (the reference engine, a
per-round numpy TACC, a minimal compiled kernel, SMPyBandits), the cost per round as K and the budget grow, and the
report's and reproduction's sweeps; every comparison first checks that the implementations make the same decisions.
"""

from reports.bench._bench import INSTANCES, render, run_bench, work

__all__ = ["run_bench", "work", "render", "INSTANCES"]
