"""``tacc bench``'s end-to-end rows: runs per second of ``tacc report``'s sweep against the engine alone.

The sweep is what ``tacc report`` runs (every default policy on every seed at the five budgets of the built-in
instance) through ``simulate.run_tasks`` with a run cache, on one process (``serial``), so its wall time is
compared with the same runs made by the engine alone, ``simulate.run`` in a loop over prebuilt problems, measured
in the same call: the engine's share of the sweep's wall time is engine seconds / sweep seconds. The sweep is
then repeated on the full cache. Each of the three is the least of ``SWEEP_REPEATS`` interleaved passes. Finally
``tacc report`` itself is timed as a user runs it (a fresh process, the default executor), on an empty and on a
full cache, after compilation (the compiled code is on disk by then).

``tacc reproduce all`` is timed the same way (a fresh process, an empty cache, the paper's seed counts), beside its
floor measured in the same call: the same distinct runs made by the runner alone (``simulate.iter_runs`` with as
many worker processes, no cache, no analysis, no figure), the wall time no change outside the engine can go below.
"""

from __future__ import annotations

import gc
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from reports.bench._results import ReportTiming, ReproduceTiming, SweepTiming

__all__ = ["sweep_bench", "render_sweep"]

#: what ``tacc reproduce`` is timed on, by size: the experiments and the seeds per experiment (None: the paper's);
#: a quick bench skips it (it takes the longest), the test suite's smoke bench runs one
#: experiment on two seeds (its least) to show the rows are made.
REPRODUCE_RUN: dict[str, tuple[tuple[str, ...], int | None] | None] = {
    "full": (("all",), None), "quick": None, "smoke": (("llm-vanishing",), 2)}


#: seeds of the timed sweep, and of the timed ``tacc report`` (its default), by size. The sweep is timed at the
#: default report's 1,000 seeds in a full bench and 200 in a quick one: per-configuration work (problems, plans)
#: is paid once per sweep, so a sweep much smaller than the report's understates the engine's share.
SWEEP_SEEDS = {"full": 1000, "quick": 200, "smoke": 2}
#: passes of the timed sweep, its full-cache repeat and the engine alone, interleaved; each is the least of its passes
#: (as the per-round rows, ``reports.bench._bench.REPEATS``): on a shared virtual machine one pass's wall time varied
#: by 40%.
SWEEP_REPEATS = 3
REPORT_SEEDS = {"full": 1000, "quick": 50, "smoke": 2}


def sweep_bench(*, size: str = "full", progress=print, workers: int | None = None) -> SweepTiming:
    """Measure the sweep, the engine alone, the sweep on a full cache, and ``tacc report`` end to end."""
    from certify import DEFAULT_POLICIES
    from reports.report import at_budget, budget_sweep, default_config
    from simulate import make_problem, run, run_tasks, tasks_for

    progress("bench: end-to-end sweep")
    config = default_config()
    configs = [at_budget(config, b) for b in budget_sweep(config.params.budget)]
    seeds = range(SWEEP_SEEDS[size])
    tasks = tasks_for(configs, DEFAULT_POLICIES, seeds)
    problems = {id(c): make_problem(c) for c in configs}
    for c in configs:                                     # compile (or load) every loop before timing
        for p in DEFAULT_POLICIES:
            run(problems[id(c)], p, 10**6)
    sweep_s = cached_s = engine_s = math.inf
    for _ in range(SWEEP_REPEATS):       # interleaved, the least of each: a shared machine's slow second hits one pass
        with tempfile.TemporaryDirectory() as tmp:
            gc.collect()     # each timed part starts with the collector's generations empty (a full collection, ~0.1 s
            # at 5,000 runs, otherwise falls in one part or the other by the allocation counts left by the previous one)
            t = time.perf_counter()
            records = run_tasks(tasks, cache=Path(tmp) / "runs")
            sweep_s = min(sweep_s, time.perf_counter() - t)
            gc.collect()
            t = time.perf_counter()
            cached = run_tasks(tasks, cache=Path(tmp) / "runs")
            cached_s = min(cached_s, time.perf_counter() - t)
        gc.collect()
        t = time.perf_counter()
        alone = [run(problems[id(x.config)], x.policy, x.seed) for x in tasks]
        engine_s = min(engine_s, time.perf_counter() - t)
    report = _time_report(size)
    if REPRODUCE_RUN[size] is not None:
        progress("bench: tacc reproduce")
    reproduce = _time_reproduce(size, workers)
    return SweepTiming(len(tasks), sweep_s, cached_s, engine_s, records == alone == cached, report, reproduce)


def _time_report(size: str) -> ReportTiming:
    """Wall time of ``tacc report`` in a fresh process, on an empty and then a full cache."""
    args = ["--seeds", str(REPORT_SEEDS[size])] if size != "full" else []
    walls = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in ("empty cache", "full cache"):
            t = time.perf_counter()
            res = subprocess.run([sys.executable, "-m", "reports.cli", "report", "--out", str(Path(tmp) / "r"),
                                  *args], capture_output=True, text=True, timeout=3600)
            walls.append(time.perf_counter() - t)
            if res.returncode not in (0, 1):
                raise RuntimeError(f"tacc report failed: {res.stderr.strip().splitlines()[-1:]}")
    return ReportTiming(REPORT_SEEDS[size], *walls)


def _time_reproduce(size: str, workers: int | None) -> ReproduceTiming | None:
    """Wall time of ``tacc reproduce`` in a fresh process on an empty cache (the default executor, ``workers``
    processes), then of the same distinct runs made by the runner alone with as many processes; None when the size
    skips it."""
    from reports.reproduce import distinct_runs
    from simulate import iter_runs

    reproduced = REPRODUCE_RUN[size]
    if reproduced is None:
        return None
    keys, seeds = reproduced
    n_workers = workers or os.cpu_count() or 1
    args = [*keys, "--no-progress", "--workers", str(n_workers), *(["--seeds", str(seeds)] if seeds else [])]
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        res = subprocess.run([sys.executable, "-m", "reports.cli", "reproduce", "--out", str(Path(tmp) / "r"), *args],
                             capture_output=True, text=True, timeout=4 * 3600)
        wall = time.perf_counter() - t
    if res.returncode != 0:
        raise RuntimeError(f"tacc reproduce failed: {res.stderr.strip().splitlines()[-1:]}")
    tasks = distinct_runs(keys, seeds=seeds)
    t = time.perf_counter()
    made = sum(1 for _ in iter_runs(tasks, executor="processes", workers=n_workers))
    runs_s = time.perf_counter() - t
    return ReproduceTiming(tuple(keys), seeds, n_workers, made, wall, runs_s)


def render_sweep(res: SweepTiming) -> str:
    from reports.tables import table

    def rate(s):
        return f"{res.runs / s:.4g}"
    rows = [("sweep (run_tasks, serial, empty cache)", res.runs, f"{res.sweep_s:.3g}", rate(res.sweep_s)),
            ("sweep (run_tasks, serial, full cache)", res.runs, f"{res.cached_s:.3g}", rate(res.cached_s)),
            ("engine alone (simulate.run in a loop)", res.runs, f"{res.engine_s:.3g}", rate(res.engine_s))]
    rep = res.report
    return "\n".join([
        f"end to end (tacc report's sweep; engine share {res.engine_share:.0%}; "
        f"{'same records' if res.same else 'DIFFERENT records'}):",
        table(["what", "runs", "seconds", "runs/s"], rows),
        f"tacc report, {rep.seeds} seeds, fresh process: {rep.empty_cache_s:.3g} s on an empty cache, "
        f"{rep.full_cache_s:.3g} s on a full cache", *_render_reproduce(res.reproduce)])


def _render_reproduce(rp: ReproduceTiming | None) -> list[str]:
    if rp is None:
        return []
    seeds = "the paper's seed counts" if rp.seeds is None else f"{rp.seeds} seed(s)"
    return [f"tacc reproduce {' '.join(rp.experiments)}, {seeds}, fresh process, empty cache, {rp.workers} "
            f"workers: {rp.wall_s:.3g} s; its {rp.runs:,} distinct runs made by the runner alone: "
            f"{rp.runs_alone_s:.3g} s ({rp.runs_alone_s / rp.wall_s:.0%} of it)"]
