"""Many runs: seeds x policies x configurations, serially, on local processes, or on a Dask cluster.

Every run is a pure function of (configuration, policy, seed, checkpoints), so the records are identical
whatever the executor or the number of workers, and they come back in task order. The sweep is streamed:
:func:`iter_runs` takes tasks from an iterator and yields records as they finish, with at most a fixed window of
tasks in flight, so memory does not grow with the number of seeds. Work goes to the workers in batches sized to
take about a quarter of a second each, and with a cache directory each finished run is stored as soon as it
comes back and committed within about half a second (:class:`simulate.RunCache`; the runner waits for its workers
no longer than that), so a kill loses at most the runs in flight and the last half second's, and a sweep started
again skips every run already stored. Worker processes die with their parent, even under ``kill -9``.

A local pool is started only when it pays: the parent runs the first batches itself, measuring its seconds per
run, and starts the workers when the work still to do, projected from that measure, exceeds what
starting them costs (:class:`_StartRule`); a short sweep (``tacc check``, ``tacc report``) never waits for
workers to import the toolkit, and a long one (``tacc reproduce``) uses every core within its first batches.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import signal
import sys
import threading
import time
from collections import deque
from typing import Any, Iterable, Iterator, Sequence, Sized

from bounds import Config, TaccInputError, horizon
from simulate._cache import RunCache, run_key_prefix
from simulate._engine import ENGINES, run
from simulate._errors import stop_flag
from simulate._fingerprint import code_fingerprint
from simulate._frame import save_configs
from simulate._pool import Pool, check_scheduler, worker_count
from simulate._model_problem import make_problem
from simulate._problem import config_key, problem_of
from simulate._record import RunRecord
from simulate._tasks import Task

__all__ = ["EXECUTORS", "iter_runs", "run_tasks"]

#: executor names.
EXECUTORS = ("serial", "processes", "dask")
#: when a local pool's workers start: ``auto`` (when the work ahead pays for their start), ``always`` (with the
#: first run not cached).
START_POOL = ("auto", "always")


_PROBLEMS: dict = {}

#: a batch should take about this long on a worker (so a kill loses little and the pool stays busy).
_BATCH_SECONDS = 0.25
#: tasks taken from the iterator but not yet yielded, per worker (the memory bound of a sweep).
_WINDOW_PER_WORKER = 256


def _problem(config: Config):
    """The problem of ``config``, built once; configurations that differ only in their costs and parameters
    (a sweep over budgets: the same instance object) share the built instance and, at the same gamma, tau_k."""
    hit = _BY_OBJECT.get(id(config))
    if hit is not None and hit[0] is config:         # the same configuration object again: no key to compute
        return hit[1]
    key = config_key(config)
    if key not in _PROBLEMS:
        if len(_PROBLEMS) >= 8:
            _PROBLEMS.pop(next(iter(_PROBLEMS)))
        like = next((p for p in reversed(_PROBLEMS.values()) if p.config.instance is config.instance), None)
        _PROBLEMS[key] = make_problem(config) if like is None else problem_of(config, like.instance, like)
    if len(_BY_OBJECT) >= 8:
        _BY_OBJECT.pop(next(iter(_BY_OBJECT)))
    _BY_OBJECT[id(config)] = (config, _PROBLEMS[key])   # the entry holds the object: its id is not reused meanwhile
    return _PROBLEMS[key]


#: id(configuration) -> (the configuration, its problem): the last few configuration objects met.
_BY_OBJECT: dict = {}


def _run_batch(tasks: list[Task], engine: str, fingerprint: str | None = None,
               stop=None) -> tuple[list[RunRecord], float]:
    """Run a batch of tasks that share a configuration and a policy; the records and the seconds it took.

    ``fingerprint`` is the parent's code fingerprint (the one in the runs' keys): a worker whose code differs
    (the sources were edited during the sweep) refuses, so no record is stored under a key of other code.
    ``stop``: the runs' stop flag (:func:`simulate.run`); once it is set the batch ends with
    :class:`simulate.RunStopped` and no record."""
    if fingerprint is not None and fingerprint != code_fingerprint():
        raise RuntimeError("the toolkit's code changed during the sweep (a worker's code fingerprint differs from "
                           "the parent's); start the sweep again")
    t = time.perf_counter()
    records = [run(_problem(x.config), x.policy, x.seed, engine=engine, checkpoints=x.checkpoints, stop=stop)
               for x in tasks]
    return records, time.perf_counter() - t


#: a run whose horizon (``Problem.horizon``, the most rounds any policy can make) exceeds this is made, in the main
#: thread, in a daemon thread while the main thread waits interruptibly (:func:`_run_here`); shorter runs keep the
#: direct call, and take at most 1 s at the slowest policy's rounded-up 500 ns per round of the fast engine
#: (``reports.estimate.NS_PER_ROUND``; 0.5 s at the 250 ns measured), the longest Ctrl-C or SIGTERM then waits.
#: The handoff (a thread started, its end waited for) cost 130 to 350 microseconds of CPU per run, measured
#: 2026-11-27 on the 2-core machine of the README under load: under 1 % of a run that makes its 2 x 10^6 rounds
#: (40 to 250 ns per round measured), but as much as the run itself for one that stops early (UCB on a horizon of
#: 10^14 took 0.43 ms), and 10 % of Set B's 3 ms TACC runs; so no run of the default report (horizon 4,000) or of a
#: preset (at most 2 x 10^6, Set B) is handed off (docs/design.md section 10).
_DIRECT_ROUNDS = 2_000_000
#: a batch whose horizon exceeds this is never made in the parent under the start rule when workers are available:
#: the pool starts for it (one run could take longer than starting the workers, 2 s at 500 ns per round).
_POOL_ROUNDS = 4_000_000


def _horizon(tasks: list[Task]) -> int:
    """The horizon of a batch's problem (an upper bound on the rounds of each of its runs): a batch's tasks share
    their configuration (:func:`_run_batch`), so the first one's is read."""
    return _problem(tasks[0].config).horizon if tasks else 0


def _run_here(tasks: list[Task], engine: str) -> tuple[list[RunRecord], float]:
    """:func:`_run_batch` in this process, interruptible: in the main thread, a batch whose runs could take long
    (a horizon above ``_DIRECT_ROUNDS``) runs in a daemon thread while the main thread waits on a lock, which a
    signal interrupts (the compiled loop releases the interpreter, ``nogil``; a Python signal handler runs only
    between bytecodes, so a run of hours in the main thread ignored Ctrl-C and SIGTERM). After an interrupt the
    runs' stop flag is set: the thread's run ends within 65,536 rounds, with no record (every run finished
    before is already handed on), and the thread with it (a library caller that catches KeyboardInterrupt kept
    a core busy until the process exited)."""
    if _horizon(tasks) <= _DIRECT_ROUNDS or threading.current_thread() is not threading.main_thread():
        return _run_batch(tasks, engine)
    stop = stop_flag()
    return _in_daemon_thread(functools.partial(_run_batch, stop=stop), tasks, engine, stop=stop)


#: after an interrupt, the seconds the main thread waits for the daemon thread to end (its run reads its stop flag
#: every 65,536 rounds: 33 ms at the slowest rounded-up 500 ns per round); a thread still building its problem's
#: tables or compiling is not waited for, and ends when its run starts.
_STOP_SECONDS = 1.0


def _in_daemon_thread(fn, *args, stop=None):
    """``fn(*args)`` in a new daemon thread (signals blocked there, so the kernel delivers them to this thread),
    waited for interruptibly; its result, or its exception raised here. If the wait is interrupted, ``stop`` (the
    flag ``fn`` reads, if any) is set and the thread is given ``_STOP_SECONDS`` to end before the interrupt is
    raised here; whatever the thread returns after that is dropped."""
    done = threading.Event()
    out: list = []

    def target():
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
            out.append((True, fn(*args)))
        except BaseException as exc:      # noqa: BLE001 -- handed to the waiting thread, which raises it
            out.append((False, exc))
        finally:
            done.set()
    thread = threading.Thread(target=target, daemon=True, name="tacc-run")
    thread.start()
    try:
        done.wait()                       # a lock wait without timeout: a signal's handler runs, and may raise
    except BaseException:
        if stop is not None:
            stop[0] = 1
            thread.join(_STOP_SECONDS)
        raise
    ok, value = out[0]
    if ok:
        return value
    raise value


def _commit_before_a_long_batch(store, tasks: list[Task]) -> None:
    """Commit the runs ``store`` holds before this process makes a batch that could take long (a horizon above
    ``_DIRECT_ROUNDS``): they would otherwise wait for the batch's end, and a kill meanwhile lost them."""
    if store is not None and _horizon(tasks) > _DIRECT_ROUNDS:
        store.flush()


def _check(executor, engine, workers, start_pool="auto", scheduler=None) -> None:
    if start_pool not in START_POOL:
        raise TaccInputError("start_pool", start_pool, f"must be one of {', '.join(START_POOL)}")
    if executor not in EXECUTORS:
        raise TaccInputError("executor", executor, f"must be one of {', '.join(EXECUTORS)}")
    if engine not in ENGINES:
        raise TaccInputError("engine", engine, f"must be one of {', '.join(ENGINES)}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise TaccInputError("workers", workers, "must be a positive int")
    if scheduler is not None and executor != "dask":
        raise TaccInputError("scheduler", scheduler, f"is used only with the executor dask (the executor is "
                                                     f"{executor}, which would make the runs without it)")
    if scheduler is not None:
        check_scheduler(scheduler)


def iter_runs(tasks: Iterable[Task], *, executor: str = "serial", workers: int | None = None,
              scheduler: str | None = None, cache: str | os.PathLike | None = None, engine: str = "fast",
              progress: bool = False, total: int | None = None, start_pool: str = "auto") -> Iterator[RunRecord]:
    """Run every task and yield the records in task order, as they finish, in memory independent of the count.

    Args:
        tasks: an iterable of :class:`Task` (:func:`iter_tasks`, :func:`tasks_for`, or built by hand); it is read
            as the sweep advances, never whole.
        executor: ``serial``, ``processes`` (a local process pool) or ``dask`` (``distributed``).
        workers: processes, or Dask workers of a local cluster (default: the machine's cores).
        scheduler: a Dask scheduler address (``tcp://host:8786``; only with ``dask``), connected to
            (:func:`connect`) when the sweep starts, before the cache is read or written; without it a local
            cluster is started.
        cache: a directory of finished runs (:class:`simulate.RunCache`); runs found there are not redone, new ones
            are stored as they come back.
        engine: ``fast`` or ``reference``.
        progress: show a progress bar on standard error.
        total: the number of tasks, for the progress bar and the pool's start rule (default: ``len(tasks)`` if it
            has one).
        start_pool: with ``processes``: ``auto`` runs batches in this process first and starts the workers only
            when the work still to do, projected from the time those batches took, exceeds what starting the
            workers costs (about 2 s each on 2 cores; a short sweep then starts none); ``always`` starts them with
            the first run not found in the cache (for a sweep that must run on worker processes, e.g. a test of
            the workers' own behaviour). The records are the same either way. Dask ignores it: a local cluster is
            always started with the first run not cached.
    """
    _check(executor, engine, workers, start_pool, scheduler)
    if total is None and isinstance(tasks, Sized):
        total = len(tasks)
    return _stream(iter(tasks), executor, worker_count(workers), scheduler, cache, engine, progress, total,
                   _StartRule(worker_count(workers), start_pool == "always", total))


def run_tasks(tasks: Sequence[Task], *, executor: str = "serial", workers: int | None = None,
              scheduler: str | None = None, cache: str | os.PathLike | None = None, engine: str = "fast",
              progress: bool = False, start_pool: str = "auto") -> list[RunRecord]:
    """:func:`iter_runs` as a list: every task's record, in task order (for sweeps whose records all fit in
    memory; stream with :func:`iter_runs` otherwise)."""
    return list(iter_runs(tasks, executor=executor, workers=workers, scheduler=scheduler, cache=cache,
                          engine=engine, progress=progress, start_pool=start_pool))


#: the CPU seconds a local worker spends from its start to its first run: spawning Python and importing the
#: toolkit (about 1.1 s) and loading numba's cached machine code (about 0.8 s). Measured 2026-11-27 on the 2-core
#: Linux machine of the README: on the quiet machine the default report's sweep on 2 workers took 8.3 s of the
#: workers' CPU against 1.6 s each of runs; under a load average of 7, a fresh pool's worker measured with
#: ``time.process_time`` spent 1.08 to 1.15 s before its first task and 2.34 to 2.50 s up to the end of its first
#: run (a Set A run of 0.04 s, its problem built in the worker). The lower, quiet-machine figure is kept: it
#: starts the pool a little early rather than late.
_WORKER_START_SECONDS = 2.0
#: the CPU seconds of timed batches the projection needs (one run's time is no measure: the default report's
#: second run took 1.5 ms of CPU, its mean is 0.1 ms, and projected 37 s for a 2.5 s sweep); before, the time
#: spent so far decides.
_MIN_TIMED_SECONDS = 0.1


class _StartRule:
    """When a local pool starts: at once (``always``), or when the work still to do pays for the workers' start.

    With n workers (at most the machine's cores) the pool finishes work of R seconds (the parent's CPU time)
    in about C + R / n, C the workers' start (``_WORKER_START_SECONDS``), against R in the parent alone: the pool
    starts when R > C n / (n - 1), never with one worker. R is the mean seconds per run of the batches the parent
    ran (each (configuration, policy)'s first batch left out: :meth:`ran`) times the runs still to do: the tasks
    left of ``total`` times the share of the tasks taken so far that were not cached. (Seconds per round of
    horizon projected the default report's sweep, budgets in increasing order, at 10 s for 2.5 s: a run's fixed
    costs dominate its rounds there.) Without a total, or before ``_MIN_TIMED_SECONDS`` of batches are timed, R is
    the time the parent has spent running so far: a sweep of unknown length starts the pool once the parent has
    run for the threshold."""

    def __init__(self, n_workers: int, always: bool, total: int | None):
        self.always = always
        n = min(n_workers, os.cpu_count() or 1)
        self.threshold = math.inf if n < 2 else _WORKER_START_SECONDS * n / (n - 1)
        self.total = total
        self.taken_count = self.to_run = self.timed_runs = 0
        self.seconds = 0.0          # of the batches run here, each group's first left out
        self.spent = 0.0            # every batch run here

    def taken(self, cached: bool) -> None:
        """A task taken from the sweep, found in the cache or not."""
        self.taken_count += 1
        self.to_run += not cached

    def ran(self, runs: int, seconds: float, first: bool) -> None:
        """A batch of ``runs`` runs made in the parent in ``seconds`` of its CPU time (the start cost is CPU time
        too; wall time on a loaded machine counts other processes' slices and started the pool for the default
        report's sweep under a load average of 10). ``first``: the first batch of its (configuration, policy),
        one run that also pays for building the problem and loading (or compiling) the policy's machine code, is
        not used to project the rest."""
        self.spent += seconds
        if not first:
            self.seconds += seconds
            self.timed_runs += runs

    def projected(self) -> float:
        """R: the seconds of runs still to do, as the parent would take them (before ``_MIN_TIMED_SECONDS`` of
        batches are timed: the time spent so far)."""
        if self.total is None or self.seconds < _MIN_TIMED_SECONDS:
            return self.spent
        left = max(self.total - self.taken_count, 0) * self.to_run / self.taken_count
        return left * self.seconds / self.timed_runs

    def start_now(self) -> bool:
        return self.always or self.projected() > self.threshold

    def long_batch(self, tasks: list[Task]) -> bool:
        """Whether the pool starts for this batch whatever the projection: workers are available (two or more)
        and one of its runs could take longer than starting them (a horizon above ``_POOL_ROUNDS``). Run in the
        parent it would hold the parent's core for that long while the other cores idle. The horizon is computed
        from the configuration (``bounds.horizon``, as the problem's): the parent does not build the problem of a
        batch it hands on (its tables can be gigabytes)."""
        if self.threshold == math.inf or not tasks:
            return False
        c = tasks[0].config
        return horizon(c.params.budget, c.costs.low) > _POOL_ROUNDS


class _NoBar:
    """The progress bar when none is shown (tqdm is imported only to show one)."""

    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _stream(tasks, executor, n_workers, scheduler, cache, engine, progress, total, rule):
    pool: Pool | None = None
    store: RunCache | None = None
    bar: Any = _NoBar()
    try:
        if executor != "serial":
            pool = Pool(executor, n_workers, scheduler)
            if scheduler is not None:    # connected before the cache is written: refused, the sweep leaves no file
                pool.start()
        store = RunCache(cache) if cache is not None else None
        if progress:
            from tqdm import tqdm
            bar = tqdm(total=total, unit="run", desc="runs", leave=False)
        if executor == "serial":
            for t, key, rec in _looked_up(tasks, store):
                if rec is None:
                    _commit_before_a_long_batch(store, [t])
                    (rec,), _ = _run_here([t], engine)
                    if store is not None:
                        store.put(key, rec)
                bar.update(1)
                yield rec
        else:
            if executor == "dask":
                rule.always = True          # a cluster is started with the first run, as it always was
            yield from _pipeline(_looked_up(tasks, store), pool, store, engine, n_workers, bar, rule)
    finally:
        if pool is not None:        # stopped by an error, an interrupt or a consumer that stopped reading: no wait
            pool.close(abort=sys.exc_info()[0] is not None)
        if store is not None:
            store.close()
        bar.close()


#: tasks whose stored records are looked up in one query (runs are still made and saved one by one).
_LOOKUP_CHUNK = 128


def _looked_up(tasks, store):
    """[task, key, stored record or None] per task, in order, the cache read once per ``_LOOKUP_CHUNK`` tasks
    (and each configuration saved beside its runs before its first task is handed on)."""
    if store is None:
        for t in tasks:
            yield [t, None, None]
        return
    seen: dict = {}
    groups: dict = {}     # (id(config), policy, id(checkpoints)) -> (config, checkpoints, key prefix): entries hold
    while True:           # the objects, so their ids are not reused meanwhile
        chunk = list(itertools.islice(tasks, _LOOKUP_CHUNK))
        if not chunk:
            return
        # the configurations beside their runs, so the folder can be tabulated (load_runs): each configuration
        # object is saved the first time it is met (held in ``seen``, so its id is not reused)
        for t in chunk:
            if id(t.config) not in seen:
                seen[id(t.config)] = t.config
                save_configs(store.root, [t.config])
        keys = []
        for t in chunk:      # Task.key, the shared part of the key made once per (configuration, policy, checkpoints)
            group = groups.get((id(t.config), t.policy, id(t.checkpoints)))
            if group is None or group[0] is not t.config or group[1] is not t.checkpoints:
                if len(groups) >= 1024:
                    groups.clear()
                group = groups[id(t.config), t.policy, id(t.checkpoints)] = (
                    t.config, t.checkpoints, run_key_prefix(config_key(t.config), t.policy, t.checkpoints))
            keys.append(group[2] + str(int(t.seed)))
        for t, key, rec in zip(chunk, keys, store.get_many(keys), strict=True):
            yield [t, key, rec]


def _pipeline(tasks, pool, store, engine, n_workers, bar, rule):
    """Yield records in task order with at most ``_WINDOW_PER_WORKER * n_workers`` tasks taken and not yielded;
    batches run in this process until ``rule`` starts the pool, then on the workers (this process collects)."""
    window = _WINDOW_PER_WORKER * n_workers
    max_batch = max(1, window // (4 * n_workers))
    max_flight = 2 * n_workers
    entries: deque = deque()       # [task, key, record or None] (from _looked_up), in task order
    sizes: dict = {}               # (config, policy) -> batch size, adapted to _BATCH_SECONDS
    flight: dict = {}              # future -> (entries, group)
    group, batch = None, []
    exhausted = False

    def finished(done, g, records, seconds):
        for e, rec in zip(done, records, strict=True):
            e[2] = rec
            if store is not None:
                store.put(e[1], rec)
        per_run = seconds / len(done)
        sizes[g] = max(1, min(max_batch, int(_BATCH_SECONDS / per_run) if per_run > 0 else max_batch))

    def submit():
        nonlocal batch
        if batch:
            ts = [e[0] for e in batch]
            if pool.started or rule.start_now() or rule.long_batch(ts):
                flight[pool.submit(_run_batch, ts, engine, code_fingerprint())] = (batch, group)
            else:                  # in this process: the same function, the same records
                _commit_before_a_long_batch(store, ts)
                cpu = time.process_time()
                records, seconds = _run_here(ts, engine)
                rule.ran(len(batch), time.process_time() - cpu, group not in sizes)
                finished(batch, group, records, seconds)
            batch = []

    while True:
        while not exhausted and len(entries) < window and len(flight) < max_flight:
            e = next(tasks, None)
            if e is None:
                exhausted = True
                break
            t = e[0]
            entries.append(e)
            rule.taken(e[2] is not None)
            if e[2] is None:
                g = (config_key(t.config), t.policy)
                if g != group:
                    submit()
                    group = g
                batch.append(e)
                if len(batch) >= sizes.get(g, 1):
                    submit()
        if exhausted or len(entries) >= window:
            submit()
        while entries and entries[0][2] is not None:
            bar.update(1)
            yield entries.popleft()[2]
        if not entries:
            if exhausted:
                return
            continue
        if not flight:             # every batch taken ran here: take more
            continue
        # waited for no longer than the stored runs may wait for their commit: a result that takes long (a slow
        # batch, a busy cluster) left the runs before it uncommitted, and a kill -9 then lost up to 64 of them
        done_now = pool.wait_first(list(flight), None if store is None else store.seconds_to_commit())
        if not done_now:
            store.commit_due()
            continue
        for f in done_now:
            done, g = flight.pop(f)
            records, seconds = f.result()
            finished(done, g, records, seconds)
