"""Many runs: seeds x policies x configurations, serially, on local processes, or on a Dask cluster.

Every run is a pure function of (configuration, policy, seed, checkpoints), so the records are identical
whatever the executor or the number of workers, and they come back in task order. With a cache directory each
finished run is stored as soon as it returns; a sweep started again skips every run already stored, so an
interrupted sweep loses nothing it finished.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Sequence

from bounds import Config, TaccInputError
from simulate._cache import RunCache, run_key
from simulate._engine import ENGINES, run
from simulate._frame import save_configs
from simulate._problem import config_key, make_problem
from simulate._record import RunRecord
from simulate._registry import policy_class

__all__ = ["Task", "EXECUTORS", "parse_seeds", "tasks_for", "run_tasks"]

#: executor names.
EXECUTORS = ("serial", "processes", "dask")


@dataclass(frozen=True)
class Task:
    """One run to make: a configuration, a policy name, a seed, and the regret checkpoints (None: default)."""

    config: Config
    policy: str
    seed: int
    checkpoints: tuple | None = None

    def key(self) -> str:
        return run_key(config_key(self.config), self.policy, self.seed, self.checkpoints)


def parse_seeds(text: str) -> range:
    """``A:B`` (seeds A..B-1) or ``N`` (seeds 0..N-1); anything else names the field ``seeds``."""
    try:
        if ":" in text:
            a, b = (int(x) for x in text.split(":"))
        else:
            a, b = 0, int(text)
    except ValueError:
        raise TaccInputError("seeds", text, "must be A:B (seeds A to B-1) or a count N") from None
    if a < 0 or b <= a:
        raise TaccInputError("seeds", text, "needs 0 <= A < B")
    return range(a, b)


def tasks_for(configs: Sequence[Config], policies: Sequence[str], seeds, checkpoints=None) -> list[Task]:
    """Every (configuration, policy, seed) combination, in that nesting order."""
    for p in policies:
        policy_class(p)
    cps = None if checkpoints is None else tuple(float(c) for c in checkpoints)
    return [Task(c, p, int(s), cps) for c in configs for p in policies for s in seeds]


_PROBLEMS: dict = {}


def _problem(config: Config):
    key = config_key(config)
    if key not in _PROBLEMS:
        if len(_PROBLEMS) >= 8:
            _PROBLEMS.pop(next(iter(_PROBLEMS)))
        _PROBLEMS[key] = make_problem(config)
    return _PROBLEMS[key]


def _run_batch(tasks: list[Task], engine: str) -> list[RunRecord]:
    """Run a batch of tasks that share a configuration, building its Problem once per worker."""
    return [run(_problem(t.config), t.policy, t.seed, engine=engine, checkpoints=t.checkpoints) for t in tasks]


def _batches(indices: list[int], tasks: list[Task], n_workers: int) -> list[list[int]]:
    groups: dict = {}
    for i in indices:
        groups.setdefault((config_key(tasks[i].config), tasks[i].policy), []).append(i)
    size = max(1, math.ceil(len(indices) / (4 * max(1, n_workers))))
    return [g[j:j + size] for g in groups.values() for j in range(0, len(g), size)]


def run_tasks(tasks: Sequence[Task], *, executor: str = "serial", workers: int | None = None,
              scheduler: str | None = None, cache: str | os.PathLike | None = None, engine: str = "fast",
              progress: bool = False) -> list[RunRecord]:
    """Run every task and return the records in task order.

    Args:
        tasks: from :func:`tasks_for` or built by hand.
        executor: ``serial``, ``processes`` (a local process pool) or ``dask`` (``distributed``).
        workers: processes, or Dask workers of a local cluster (default: the machine's cores).
        scheduler: a Dask scheduler address (``tcp://host:8786``); without it a local cluster is started.
        cache: a directory of finished runs; runs found there are not redone, new ones are stored at once.
        engine: ``fast`` or ``reference``.
        progress: show a progress bar on standard error.
    """
    if executor not in EXECUTORS:
        raise TaccInputError("executor", executor, f"must be one of {', '.join(EXECUTORS)}")
    if engine not in ENGINES:
        raise TaccInputError("engine", engine, f"must be one of {', '.join(ENGINES)}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise TaccInputError("workers", workers, "must be a positive int")
    tasks = list(tasks)
    store = RunCache(cache) if cache is not None else None
    if store is not None:       # the configurations beside their runs, so the folder can be tabulated (load_runs)
        save_configs(cache, {id(t.config): t.config for t in tasks}.values())
    keys = [t.key() for t in tasks] if store is not None else [None] * len(tasks)
    results: list[RunRecord | None] = [store.get(k) if store is not None else None for k in keys]
    todo = [i for i, r in enumerate(results) if r is None]
    n_workers = workers or os.cpu_count() or 1

    from tqdm import tqdm
    bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), disable=not progress, unit="run",
               desc="runs", leave=False)

    def done(batch: list[int], records: list[RunRecord]) -> None:
        for i, rec in zip(batch, records):
            results[i] = rec
            if store is not None:
                store.put(keys[i], rec)
        bar.update(len(batch))

    try:
        if not todo:
            pass
        elif executor == "serial":
            for i in todo:
                done([i], _run_batch([tasks[i]], engine))
        elif executor == "processes":
            batches = _batches(todo, tasks, n_workers)
            with ProcessPoolExecutor(max_workers=n_workers, mp_context=get_context("spawn")) as pool:
                futures = {pool.submit(_run_batch, [tasks[i] for i in b], engine): b for b in batches}
                for f in as_completed(futures):
                    done(futures[f], f.result())
        else:
            _run_dask(tasks, todo, n_workers, scheduler, engine, done)
    finally:
        bar.close()
    return results


def _run_dask(tasks, todo, n_workers, scheduler, engine, done) -> None:
    import distributed

    batches = _batches(todo, tasks, n_workers)
    cluster = None
    if scheduler is None:
        cluster = distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
    client = distributed.Client(cluster if cluster is not None else scheduler)
    try:
        futures = {client.submit(_run_batch, [tasks[i] for i in b], engine, pure=False): tuple(b) for b in batches}
        by_future = {f.key: b for f, b in futures.items()}
        for f in distributed.as_completed(list(futures)):
            done(list(by_future[f.key]), f.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
