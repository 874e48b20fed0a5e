"""``tacc bench``: speed of the engines against references measured in the same run.

Every number is a ratio against the fast engine measured in the same process and the same call: the reference
engine (the readable step form), a per-round numpy TACC (``reports.bench._numpy``, research-code style) and,
when a second interpreter with SMPyBandits is given, SMPyBandits' UCB on the same arms and horizon. Compile time
(the first call of each compiled loop in this process) is reported apart from the per-round cost. The floor is
measured too (``reports.bench._kernel``): a minimal compiled TACC with the same observation generator and no
bookkeeping (target: the fast engine within 1.5 times it per round), and the generator's cost per draw
(target: at most 10 ns). The numpy and SMPyBandits ratios are reported figures, not targets.

Targets are only what does not depend on the host: the kernel ratio, the draw cost, the per-round cost at K = 5000
against K = 50, and a run's memory independent of its budget. Times that do (``tacc bounds``' CPU seconds, the
end-to-end sweep, ``tacc report`` and ``tacc reproduce`` in a fresh process) are printed as measured, not judged.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from multiprocessing import get_context
from pathlib import Path

from bounds import config_to_dict, horizon, load_config, parse_config
from reports import figures as figs
from reports.bench._kernel import draw_cost, interleaved_cpu, least_cpu, previous_draw_cost, tacc_kernel
from reports.bench._numpy import numpy_tacc
from reports.bench._results import (BenchResults, BoundsTiming, DrawCosts, Machine, MemoryRow, Reported,
                                    SameDecisions, ScalingRow, Target, TimingRow, timing_row)
from reports.bench._sweep import render_sweep, sweep_bench
from reports.tables import fmt_apart_all, table
from simulate import POLICIES, make_problem, run

__all__ = ["run_bench", "work", "render", "INSTANCES"]

#: the two instances timed: LLM-sized (K = 4, cost_high = 500, budget 128000), Set-B-sized (K = 500).
INSTANCES = {"llm (K=4)": "llm-residual", "set-b (K=500)": "set-b"}

_SMPY = r"""
import json, sys, time
import numpy as np
from SMPyBandits.Arms import Bernoulli, Gaussian
from SMPyBandits.Policies import UCB
means, horizon, bern, sigma = json.loads(sys.argv[1])
arms = [Bernoulli(m) if bern else Gaussian(m, sigma) for m in means]
policy = UCB(len(arms))
policy.startGame()
t = time.perf_counter()
for step in range(horizon):
    k = policy.choice()
    policy.getReward(k, arms[k].draw(step))
print(json.dumps([time.perf_counter() - t, horizon]))
"""


def _budget(config, budget):
    return replace(config, params=replace(config.params, budget=float(budget)))


#: times each short measurement is repeated; the least CPU time is kept (a run of a millisecond measured once
#: varied by a factor of two between benches on the shared machine: another process's slices, caches, frequency).
REPEATS = 5


def _time_runs(problem, policy, seeds, engine="fast"):
    """CPU seconds of this process (the engines run on one thread, without I/O: on a shared machine, wall time
    would count the other processes' time slices, more in a long run than in a short one, so a ratio of wall
    times between a 10 ms run and a 1 ms kernel says more about the load than about the code), the least over
    :data:`REPEATS` passes over the seeds, and rounds."""
    return least_cpu(lambda: sum(run(problem, policy, s, engine=engine).rounds for s in seeds), REPEATS)


def _smpy(python, means, horizon, bern, sigma) -> tuple[float, int]:
    """Seconds and rounds of SMPyBandits' UCB on these arms for ``horizon`` rounds, in ``python``."""
    out = subprocess.run([python, "-c", _SMPY, json.dumps([list(map(float, means)), int(horizon), bern, sigma])],
                         capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "SMPyBandits failed")
    seconds, rounds = json.loads(out.stdout.strip().splitlines()[-1])
    return float(seconds), int(rounds)


def _scaling_config(name, k, budget):
    d = config_to_dict(load_config(name))
    d["instance"].pop("mu_high", None)
    d["instance"]["means"] = {"distribution": "normal", "mean": 0.0, "sd": 1.0, "n_arms": k}
    d["params"]["budget"] = float(budget)
    return parse_config(d)


def _scaling_worker(args):
    name, k, budget, seeds = args
    problem = make_problem(_scaling_config(name, k, budget))
    run(problem, "tacc", 10**6)
    seconds, rounds = _time_runs(problem, "tacc", seeds)
    return k, budget, seconds, rounds


def _memory_worker(budget):
    problem = make_problem(_budget(load_config("llm-residual"), budget))
    run(problem, "tacc", 0)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rec = run(problem, "low-improving", 1)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return budget, rec.rounds, before, after


def _bounds_worker(n_arms):
    """CPU seconds of ``tacc bounds`` (the table) and of ``tacc bounds --json`` on a Set-B-like instance of n_arms,
    each in a fresh process (imports included), and of ``analyze`` alone in this process."""
    import tempfile

    from bounds import analyze, dump_config

    d = config_to_dict(load_config("set-b"))
    d["instance"]["means"]["n_arms"] = n_arms
    d["params"]["budget"] = 4000.0 * n_arms                     # Set B's budget per arm
    config = parse_config(d)
    cpu = {}
    with tempfile.TemporaryDirectory(prefix="tacc-bench-bounds-") as tmp:
        path = Path(tmp) / "set-b-like.toml"
        path.write_text(dump_config(config))
        for what, extra in (("table", []), ("json", ["--json", str(Path(tmp) / "bounds.json")])):
            proc = subprocess.Popen([sys.executable, "-m", "reports.cli", "bounds", str(path), *extra],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(proc.pid, 0)            # this child's own CPU time
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode:
                raise RuntimeError(f"tacc bounds on {n_arms} arms exited {proc.returncode}: {proc.stderr.read()}")
            proc.stderr.close()
            cpu[what] = usage.ru_utime + usage.ru_stime
    c = time.process_time()
    analyze(config)
    return n_arms, cpu["table"], cpu["json"], time.process_time() - c


#: seeds timed per (instance, policy), by ``quick``; the scaling sweep's K, budgets and seeds.
BENCH_SEEDS = {"full": 5, "quick": 2, "smoke": 1}
#: budgets divided by this, by size (``smoke``: the test suite's size, whose numbers measure nothing).
BENCH_SHRINK = {"full": 1, "quick": 8, "smoke": 64}
SCALING_SHRINK = {"full": 1, "quick": 4, "smoke": 40}
SCALING_SEEDS = {"full": 4, "quick": 2, "smoke": 1}
SCALING_KS = (4, 50, 500, 5000)
SCALING_BUDGETS = (250_000, 500_000, 1_000_000, 2_000_000)


def _size(quick: bool, smoke: bool = False) -> str:
    return "smoke" if smoke else "quick" if quick else "full"


def _scaling_jobs(size: str) -> list:
    seeds, shrink = tuple(range(SCALING_SEEDS[size])), SCALING_SHRINK[size]
    jobs = [("set-b", k, SCALING_BUDGETS[-1] / shrink, seeds) for k in SCALING_KS]
    return jobs + [("set-b", 500, b / shrink, seeds) for b in SCALING_BUDGETS]


def work(quick: bool = False) -> list[tuple]:
    """The runs the benchmark makes, as (configurations, policies, seeds per configuration, engine) groups, for
    ``reports.estimate``: per instance every policy on its seeds plus two first runs (fast), one reference run
    per policy and the numpy implementation's two (at the reference engine's cost), UCB at the horizon; the
    scaling sweep; the end-to-end sweep (three passes: cached runner, engine alone, full cache, counted as two),
    ``tacc report`` on an empty cache (five budgets), and ``tacc reproduce`` with its runs made again alone."""
    from certify import DEFAULT_POLICIES
    from reports.bench._sweep import REPORT_SEEDS, REPRODUCE_RUN, SWEEP_SEEDS
    from reports.reproduce import work as reproduce_work
    from reports.report import at_budget, budget_sweep, default_config

    size = _size(quick)
    n = BENCH_SEEDS[size]
    out = []
    for preset in INSTANCES.values():
        config = load_config(preset)
        config = _budget(config, config.params.budget / BENCH_SHRINK[size])
        out += [([config], POLICIES, n + 2, "fast"), ([config], POLICIES + ("tacc", "tacc"), 1, "reference"),
                ([_budget(config, horizon(config.params.budget, config.costs.low) * config.costs.high)], ("ucb",),
                 n + 1, "fast")]
    for preset, k, budget, seeds in _scaling_jobs(size):
        out.append(([_scaling_config(preset, k, budget)], ("tacc",), len(seeds), "fast"))
    d = default_config()
    sweep = [at_budget(d, b) for b in budget_sweep(d.params.budget)]
    out += [(sweep, DEFAULT_POLICIES, 2 * SWEEP_SEEDS[size], "fast"),
            (sweep, DEFAULT_POLICIES, REPORT_SEEDS[size], "fast")]
    reproduced = REPRODUCE_RUN[size]
    if reproduced is not None:                       # tacc reproduce, then its runs alone: counted twice
        keys, seeds = reproduced
        out += [(configs, methods, n, "fast") for configs, methods, n in 2 * reproduce_work(keys, seeds=seeds)]
    return out


def run_bench(*, quick: bool = False, smpy_python: str | None = None, out_dir="tacc-bench",
              workers: int | None = None, progress=print, smoke: bool = False) -> BenchResults:
    """Measure everything: the rows, the checks, the scaling, the targets.

    ``smoke=True`` (the test suite's size, implies ``quick``) makes every row, check and target with tiny budgets
    and seed counts: it shows the bench runs and compares what it should; its numbers measure nothing."""
    out = Path(out_dir)
    size = _size(quick, smoke)
    quick = quick or smoke
    workers = workers or os.cpu_count() or 1
    seeds = range(BENCH_SEEDS[size])
    rows: list[TimingRow] = []
    checks: list[SameDecisions] = []
    for label, preset in INSTANCES.items():
        config = load_config(preset)
        config = _budget(config, config.params.budget / BENCH_SHRINK[size])
        problem = make_problem(config)
        progress(f"bench: {label}")
        for policy in POLICIES:
            t = time.perf_counter()
            first = run(problem, policy, 999)
            first_s = time.perf_counter() - t
            seconds, rounds = _time_runs(problem, policy, seeds)
            steady = seconds / len(seeds)
            rows.append(timing_row(label, policy, "fast", seconds, rounds, len(seeds), max(0.0, first_s - steady)))
            # the reference engine timed on its second run: its first on a problem pays once for what the problem
            # builds on first use (timed on its first run, the first policy's row read 949x against 162 to 523x for
            # the others)
            ref = run(problem, policy, 999, engine="reference")
            t = time.process_time()
            again = run(problem, policy, 999, engine="reference")
            rows.append(timing_row(label, policy, "reference", time.process_time() - t, again.rounds, 1))
            checks.append(SameDecisions(label, f"{policy}: reference engine == fast engine (whole record)",
                                        ref == first))
        kernel = tacc_kernel(problem, 999)                 # compile (or load numba's cache)
        fast_tacc = run(problem, "tacc", 999)
        checks.append(SameDecisions(label, "tacc: minimal kernel == fast engine (counts, continuation, rounds)",
                                    (list(kernel[0]), list(kernel[1]), list(kernel[2]), kernel[3])
                                    == (list(fast_tacc.n_low), list(fast_tacc.n_high), list(fast_tacc.continuation),
                                        fast_tacc.rounds)))
        # the ratio's two sides timed in turn (interleaved_cpu), so both see the same stretches of the machine's speed
        (f_seconds, f_rounds), (k_seconds, k_rounds) = interleaved_cpu(
            [lambda p=problem: sum(run(p, "tacc", s).rounds for s in seeds),
             lambda p=problem: sum(tacc_kernel(p, s)[3] for s in seeds)], 2 * REPEATS)
        rows.append(timing_row(label, "tacc", "minimal kernel", k_seconds, k_rounds, len(seeds)))
        rows.append(timing_row(label, "tacc", "fast, timed in turn with the kernel", f_seconds, f_rounds, len(seeds)))
        t = time.process_time()
        nl, nh, _, _ = numpy_tacc(problem, 7)
        rows.append(timing_row(label, "tacc", "numpy per round", time.process_time() - t, int(nl.sum() + nh.sum()), 1))
        _, _, _, trace = numpy_tacc(problem, 7, draws="table", trace=True)
        checks.append(SameDecisions(label, "tacc: numpy per-round implementation == fast engine (every decision)",
                                    list(trace) == list(run(problem, "tacc", 7, trace=True).trace or ())))
        T = problem.horizon
        ucb_problem = make_problem(_budget(config, T * config.costs.high))
        run(ucb_problem, "ucb", 0)
        seconds, rounds = _time_runs(ucb_problem, "ucb", seeds)
        rows.append(timing_row(label, "ucb", f"fast, horizon {T}", seconds, rounds, len(seeds)))
        if smpy_python:
            inst = problem.instance
            seconds, rounds = _smpy(smpy_python, inst.mu_high, T, inst.noise.model == "bernoulli", inst.noise.sigma)
            rows.append(timing_row(label, "ucb", f"SMPyBandits 0.9.7, horizon {T}", seconds, rounds, 1))
    progress("bench: observation generator")
    n_draws = 10**5 if smoke else 2 * 10**6 if quick else 2 * 10**7
    draws = DrawCosts(draw_cost("gaussian", n_draws), draw_cost("bernoulli", n_draws), previous_draw_cost(n_draws))
    # scaling
    progress("bench: scaling")
    ks, jobs = SCALING_KS, _scaling_jobs(size)
    scale_seeds = jobs[0][3]
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        scaling = [ScalingRow(k, b, 1e9 * s / r, r / len(scale_seeds))
                   for k, b, s, r in pool.map(_scaling_worker, jobs)]
        bound_sizes = (1_000,) if smoke else (1_000, 100_000)
        bounds_rows = [BoundsTiming(k, t, j, a, 1e6 * a / k) for k, t, j, a in map(_bounds_worker, bound_sizes)]
        mem_budgets = (16_000, 128_000, 1_024_000) if not quick else (16_000, 128_000)
        memory = [MemoryRow(b, r, x / 1024, y / 1024) for b, r, x, y in pool.map(_memory_worker, mem_budgets)]
    by_k = scaling[:len(ks)]
    fig = figs.regret_curves([s.n_arms for s in by_k], {"tacc (fast engine)": ([s.ns_per_round for s in by_k],
                                                                              [0.0] * len(by_k))},
                             title="cost per round against the number of arms (Set-B-like, budget fixed)")
    fig.axes[0].set_xscale("log")
    fig.axes[0].set_xlabel("number of arms K (log scale)")
    fig.axes[0].set_ylabel("nanoseconds per round")
    files = figs.save(fig, out, "scaling_arms", formats=("png",))
    by_b = scaling[len(ks):]
    fig = figs.regret_curves([s.budget for s in by_b], {"tacc (fast engine)": ([s.ns_per_round for s in by_b],
                                                                              [0.0] * len(by_b))},
                             title="cost per round against the budget (K = 500)")
    fig.axes[0].set_ylabel("nanoseconds per round")
    files += figs.save(fig, out, "scaling_budget", formats=("png",))
    # targets
    rows = _with_ratios(rows)
    targets: list[Target] = []
    reported: list[Reported] = []
    for label in INSTANCES:
        mine = {r.implementation: r for r in rows if r.instance == label and r.policy == "tacc"}
        ratio = mine["fast, timed in turn with the kernel"].ns_per_round / mine["minimal kernel"].ns_per_round
        targets.append(Target(f"fast TACC <= 1.5x the minimal kernel per round ({label})", ratio, ratio <= 1.5, 1.5))
        reported.append(Reported(f"numpy per-round TACC / fast TACC ({label})",
                                 mine["numpy per round"].ratio_vs_fast))
        smpy = [r for r in rows if r.instance == label and r.implementation.startswith("SMPy")]
        reported.append(Reported(f"SMPyBandits UCB / fast UCB ({label})", smpy[0].ratio_vs_fast if smpy else None,
                                 None if smpy else "skipped: no --smpy-python given"))
    targets.append(Target("observation draw <= 10 ns (Gaussian)", draws.gaussian, draws.gaussian <= 10, 10.0))
    reported.append(Reported("ns per Bernoulli draw", draws.bernoulli))
    reported.append(Reported("previous generator (hash + Box-Muller) / this one, per Gaussian draw",
                             draws.previous / draws.gaussian))
    k50 = next(s for s in by_k if s.n_arms == 50).ns_per_round
    k5000 = next(s for s in by_k if s.n_arms == 5000).ns_per_round
    targets.append(Target("per-round cost at K = 5000 <= 3x K = 50", k5000 / k50, k5000 / k50 <= 3, 3.0))
    extra = memory[-1].growth_mb - memory[0].growth_mb
    targets.append(Target("peak memory of a run independent of the budget (extra MB at the largest vs the smallest "
                          "budget)", extra, abs(extra) < 5))
    sweep = sweep_bench(size=size, progress=progress, workers=workers)
    return BenchResults(Machine(os.cpu_count(), sys.version.split()[0], sys.platform), quick, tuple(rows),
                        tuple(checks), tuple(scaling), tuple(memory), draws, tuple(bounds_rows), tuple(targets),
                        tuple(reported), tuple(files), sweep)


def _with_ratios(rows: list[TimingRow]) -> list[TimingRow]:
    """Each row with its cost per round over the fast engine's for the same instance and policy (SMPyBandits and
    UCB at the horizon: over the fast UCB at that horizon)."""
    fast = {(r.instance, r.policy): r for r in rows if r.implementation == "fast"}
    out = []
    for r in rows:
        base = fast.get((r.instance, r.policy))
        if r.implementation.startswith("SMPy") or r.implementation.startswith("fast, horizon"):
            base = next(x for x in rows if x.instance == r.instance and x.implementation.startswith("fast, h"))
        out.append(replace(r, ratio_vs_fast=r.ns_per_round / base.ns_per_round if base else None))
    return out


def _against(target: Target, f) -> str:
    """A target's value as ``f`` prints it, or with the digits it takes to print it apart from the target's
    ``limit`` (3.004 against "<= 3" printed as 3, NOT met)."""
    value, limit = target.value, target.limit
    if isinstance(value, float) and limit is not None and value != limit and f(value) == f(float(limit)):
        return fmt_apart_all([value, float(limit)], 3)[0]
    return f(value)


def render(res: BenchResults) -> str:
    def f(x, d=3):
        return "-" if x is None else (f"{x:.{d}g}" if isinstance(x, float) else str(x))
    rows = [(r.instance, r.policy, r.implementation, r.rounds // r.runs, f(r.wall_per_run), f(r.ns_per_round, 4),
             f(r.rounds_per_s), f(r.compile_s), f(r.ratio_vs_fast)) for r in res.rows]
    out = [table(["instance", "policy", "implementation", "rounds/run", "CPU/run (s)", "ns/round", "rounds/s",
                  "compile (s)", "x fast"], rows), "",
           "same decisions:"] + [f"  [{'ok' if c.same else 'DIFFERENT'}] {c.instance}: {c.what}" for c in res.checks]
    out += ["", "scaling (TACC, fast engine, seeds spread over the cores):",
            table(["K", "budget", "rounds/run", "ns/round"],
                  [(s.n_arms, f(s.budget), f(s.rounds_per_run), f(s.ns_per_round, 4)) for s in res.scaling]),
            "", "memory (peak RSS of a process before and after one low-fidelity-only run):",
            table(["budget", "rounds", "before (MB)", "after (MB)"],
                  [(m.budget, m.rounds, f(m.peak_rss_before_mb, 4), f(m.peak_rss_after_mb, 4)) for m in res.memory]),
            "", render_sweep(res.sweep),
            "", "tacc bounds (Set-B-like instance; CPU seconds of the command in a fresh process, imports "
                "included, and of analyze alone):",
            table(["K", "table (s)", "--json (s)", "analyze (s)", "analyze us/arm"],
                  [(b.n_arms, f(b.table_cpu_s), f(b.json_cpu_s), f(b.analyze_cpu_s), f(b.analyze_us_per_arm))
                   for b in res.bounds]),
            "", "observation generator (CPU ns per draw, best of 3): " + ", ".join(
                f"{k} {f(v, 3)}" for k, v in res.draw_ns.items()),
            "", "reported figures (ratios measured in this run; not targets):"]
    out += [f"  {r.figure}: {f(r.value)}{' (' + r.note + ')' if r.note else ''}" for r in res.reported]
    out += ["", "targets:"]
    out += [f"  [{'met' if t.met else 'NOT met' if t.met is False else 'skipped'}] {t.target}: "
            f"{_against(t, f)}{' (' + t.note + ')' if t.note else ''}" for t in res.targets]
    return "\n".join(out)
