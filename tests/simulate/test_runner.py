"""The runner: same seed same record; serial, processes and a Dask local cluster agree; the cache resumes an
interrupted sweep without redoing finished runs, never uses a record that does not match, and keys on the code;
a sweep streams in constant memory; a kill loses at most the runs in flight and leaves no worker behind."""

import dataclasses
import functools
import hashlib
import json
import os
import signal
import sqlite3
import struct
import subprocess
import sys
import textwrap
import time
import tracemalloc
import warnings

import pytest

import simulate._pool
import simulate._runner as runner
from simulate._pool import Pool
from bounds import TaccInputError, dump_config, load_config
from simulate import (RunCache, config_key, connect, iter_runs, iter_tasks, make_problem, parse_seeds, run,
                      run_key, run_tasks, tasks_for)
from simulate._cache import CacheMismatchWarning, decode_record, encode_record
from simulate._fingerprint import fingerprint_of


@pytest.fixture
def tasks(config):
    return tasks_for([config(**{"params.budget": 4000}), load_config("llm-vanishing")], ["tacc", "rdfe"], range(3))


def test_same_seed_same_record(config):
    p = make_problem(config())
    assert run(p, "tacc", 9) == run(p, "tacc", 9)
    assert run(p, "tacc", 9) != run(p, "tacc", 10)


def test_records_come_back_in_task_order(tasks):
    records = run_tasks(tasks)
    assert [(r.policy, r.seed) for r in records] == [(t.policy, t.seed) for t in tasks]


@pytest.mark.slow
def test_executors_agree(tasks):
    serial = run_tasks(tasks)
    assert run_tasks(tasks, executor="processes", workers=2) == serial        # short: run in this process
    assert run_tasks(tasks, executor="processes", workers=2, start_pool="always") == serial    # on the workers
    assert run_tasks(tasks, executor="dask", workers=2) == serial


def test_interrupted_sweep_resumes_without_redoing_finished_runs(tasks, tmp_path, monkeypatch):
    real = runner._run_batch
    calls = []

    def interrupted(batch, engine):
        if len(calls) == 5:
            raise KeyboardInterrupt
        calls.append(batch)
        return real(batch, engine)

    monkeypatch.setattr(runner, "_run_batch", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_tasks(tasks, cache=tmp_path)
    assert len(RunCache(tmp_path)) == 5                      # everything finished before the kill is stored

    redone = []
    monkeypatch.setattr(runner, "_run_batch", lambda batch, engine: redone.append(batch) or real(batch, engine))
    records = run_tasks(tasks, cache=tmp_path)
    assert sum(len(b) for b in redone) == len(tasks) - 5     # only the unfinished runs
    assert records == run_tasks(tasks)
    assert len(RunCache(tmp_path)) == len(tasks)


def test_cache_key_covers_the_configuration(config):
    a, b = tasks_for([config(), config(**{"params.eta": 0.01})], ["tacc"], [0])
    assert a.key() != b.key()
    c, = tasks_for([config()], ["tacc"], [0], checkpoints=[10.0])
    assert c.key() != a.key()


def _rows(root):
    with sqlite3.connect(root / "runs.sqlite") as db:
        return db.execute("SELECT key, checksum, record FROM runs").fetchall()


def _rewrite(root, key, checksum, text):
    with sqlite3.connect(root / "runs.sqlite") as db:
        db.execute("UPDATE runs SET checksum = ?, record = ? WHERE key = ?", (checksum, text, key))


@pytest.mark.parametrize("tamper", ["content", "checksum", "key", "garbage", "old format"])
def test_tampered_record_is_recomputed_with_a_warning(tasks, tmp_path, tamper, monkeypatch):
    run_tasks(tasks[:1], cache=tmp_path)
    (key, checksum, data), = _rows(tmp_path)
    stored_key, rec = decode_record(data)
    assert stored_key == key and isinstance(data, bytes)
    if tamper == "content":                          # a changed regret, checksum left alone
        _rewrite(tmp_path, key, checksum, encode_record(key, dataclasses.replace(rec, regret=rec.regret + 1.0)))
    elif tamper == "checksum":
        _rewrite(tmp_path, key, "0" * 64, data)
    elif tamper == "key":                            # another run's record, with a valid checksum for its bytes
        new = encode_record("f" * 64, rec)
        _rewrite(tmp_path, key, hashlib.sha256(new).hexdigest(), new)
    elif tamper == "garbage":                        # a valid checksum of bytes that are no record
        _rewrite(tmp_path, key, hashlib.sha256(data[:40]).hexdigest(), data[:40])
    else:                                            # a row of the earlier JSON text form
        text = json.dumps({"key": key, "record": [rec.policy, rec.seed]})
        _rewrite(tmp_path, key, hashlib.sha256(text.encode()).hexdigest(), text)
    redone = []
    real = runner._run_batch
    monkeypatch.setattr(runner, "_run_batch", lambda batch, engine: redone.append(batch) or real(batch, engine))
    with pytest.warns(CacheMismatchWarning, match="recomputed"):
        records = run_tasks(tasks[:1], cache=tmp_path)
    assert redone and records == run_tasks(tasks[:1])
    (_, checksum2, data2), = _rows(tmp_path)             # and the good record replaced the bad one
    assert decode_record(data2) == (key, records[0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert run_tasks(tasks[:1], cache=tmp_path) == records


@pytest.mark.parametrize("journal", [False, True])
def test_a_cache_file_that_is_no_database_is_moved_aside_and_its_runs_made_again(tasks, tmp_path, journal):
    """A damaged header (the file is no SQLite database) ended every command with an internal error (exit 3): now
    the file is kept aside as runs.sqlite.damaged-1, a warning says so, and the runs are made again into a new
    file (with no journal of the old one beside it)."""
    first = run_tasks(tasks[:2], cache=tmp_path)
    db = tmp_path / "runs.sqlite"
    damaged = bytearray(db.read_bytes())
    damaged[:16] = b"not a database!!"
    db.write_bytes(bytes(damaged))
    if journal:
        (tmp_path / "runs.sqlite-journal").write_bytes(b"stale")
    with pytest.warns(CacheMismatchWarning, match="not a readable run cache.*moved to runs.sqlite.damaged-1"):
        assert run_tasks(tasks[:2], cache=tmp_path) == first
    assert (tmp_path / "runs.sqlite.damaged-1").read_bytes() == bytes(damaged)
    assert not (tmp_path / "runs.sqlite-journal").exists()      # no journal of the old file beside the new one
    with warnings.catch_warnings():                      # the new file is whole: no warning, nothing made again
        warnings.simplefilter("error")
        assert run_tasks(tasks[:2], cache=tmp_path) == first


def test_untampered_record_is_used_without_recomputing(tasks, tmp_path, monkeypatch):
    first = run_tasks(tasks[:2], cache=tmp_path)
    monkeypatch.setattr(runner, "_run_batch", lambda batch, engine: pytest.fail("a stored run was recomputed"))
    assert run_tasks(tasks[:2], cache=tmp_path) == first


def test_record_codec_round_trips_every_policy(config):
    from simulate import POLICIES
    p = make_problem(config(**{"params.budget": 4000}))
    for policy in POLICIES:
        for rec in (run(p, policy, 3, trace=True), run(p, policy, 4, checkpoints=(100.0, 3999.5, 1e9))):
            key, back = decode_record(encode_record("0123456789abcdef" * 4, rec))
            assert key == "0123456789abcdef" * 4
            assert back == rec and repr(back) == repr(rec), policy      # the same values and the same types


def test_rdfe_phases_are_stored_in_binary_with_their_types(config):
    """RDFE's phases (ints, floats, inf, None, bools) come back with the same values and types from the binary
    layout; a value the layout cannot hold falls back to JSON text; a damaged layout is refused."""
    from simulate._cache import _MAGIC
    p = make_problem(config(**{"params.budget": 4000}))
    recs = [run(p, "rdfe", s) for s in range(6)]
    assert any(None in ph.ucb for r in recs for ph in r.phases)            # unfinished blocks: None
    assert any(r.violation is None for r in recs)
    for r in recs:
        data = encode_record("k", r)
        tag = data[len(_MAGIC) + 4 + 1 + 40 + 8 * (7 * p.n_arms + 2 + 2 * len(r.checkpoints))]
        assert tag == (2 if r.violation is None else 1)                     # a violation: JSON text
        key, back = decode_record(data)
        assert back == r and repr(back) == repr(r)
    r = next(r for r in recs if r.violation is None)
    big = dataclasses.replace(r, phases=(dataclasses.replace(r.phases[0], r=2**70),))       # no int64: JSON
    data = encode_record("k", big)
    assert b'"rdfe"' in data and decode_record(data)[1] == big
    data = bytearray(encode_record("k", r))
    at = len(_MAGIC) + 4 + 1 + 40 + 8 * (7 * p.n_arms + 2 + 2 * len(r.checkpoints)) + 1
    data[at] += 1                                                            # one more struct code than scalars
    with pytest.raises((ValueError, struct.error)):
        decode_record(bytes(data))


def test_run_key_is_a_group_digest_and_the_seed(config):
    a, b = tasks_for([config()], ["tacc"], [7, 8])
    assert a.key().split(":")[0] == b.key().split(":")[0] and a.key().endswith(":7") and b.key().endswith(":8")
    c, = tasks_for([config()], ["rdfe"], [7])
    d, = tasks_for([config()], ["tacc"], [7], checkpoints=[10.0])
    assert len({a.key(), c.key(), d.key()}) == 3
    # a list of checkpoints (mutable: never memoised) gives the key of the equal tuple
    assert run_key(config_key(a.config), "tacc", 7, [10.0]) == d.key()


def test_a_sweep_over_budgets_searches_tau_once_with_the_same_problems(config, monkeypatch):
    """Problems of one instance at several budgets share the built instance and tau_k(gamma), and equal the
    problems built alone (so the records are the same)."""
    import simulate._problem as problem_module
    from reports.report import at_budget
    base = config()
    configs = [at_budget(base, b) for b in (1000.0, 2000.0, 4000.0)]
    calls = []
    real = problem_module.instance_certification_times
    monkeypatch.setattr(problem_module, "instance_certification_times", lambda *a: calls.append(a) or real(*a))
    runner._PROBLEMS.clear()
    runner._BY_OBJECT.clear()
    shared = [runner._problem(c) for c in configs]
    assert len(calls) == 1 and all(s.instance is shared[0].instance for s in shared)
    alone = [make_problem(c) for c in configs]
    for s, a in zip(shared, alone, strict=True):
        assert s.tau == a.tau and (s.horizon, s.n_gamma, s.ell) == (a.horizon, a.n_gamma, a.ell)
        assert [run(s, p, 3) for p in ("tacc", "rdfe")] == [run(a, p, 3) for p in ("tacc", "rdfe")]
    runner._PROBLEMS.clear()
    runner._BY_OBJECT.clear()
    calls.clear()
    other = config(**{"params.gamma": 0.11})
    runner._problem(configs[0])
    runner._problem(at_budget(other, 1000.0))                               # another configuration's instance
    assert len(calls) == 2
    runner._PROBLEMS.clear()
    runner._BY_OBJECT.clear()


def test_a_configuration_object_met_again_finds_its_problem_without_its_key(config, monkeypatch):
    """The runner finds the problem of a configuration object it met before by identity; an equal configuration
    (another object) finds the same problem by its key; a different one gets its own."""
    runner._PROBLEMS.clear()
    runner._BY_OBJECT.clear()
    c = config(**{"params.budget": 3000})
    first = runner._problem(c)
    keys = []
    real = runner.config_key
    monkeypatch.setattr(runner, "config_key", lambda x: keys.append(x) or real(x))
    assert runner._problem(c) is first and keys == []
    assert runner._problem(config(**{"params.budget": 3000})) is first and len(keys) == 1
    assert runner._problem(config(**{"params.budget": 2000})) is not first
    runner._PROBLEMS.clear()
    runner._BY_OBJECT.clear()


def test_a_sweep_stores_every_run_under_its_task_key(config, tmp_path):
    """The look-up makes each key from a prefix shared by a (configuration, policy, checkpoints) group: the keys
    stored are exactly the tasks' own keys (Task.key), for configuration objects met under several policies and
    checkpoints, and for an equal configuration that is another object; each group's prefix differs."""
    a, b = config(**{"params.budget": 3000}), config(**{"params.budget": 2000})
    tasks = (tasks_for([a, b], ["tacc", "rdfe"], range(3)) + tasks_for([a], ["tacc"], [1, 5], checkpoints=[100.0])
             + tasks_for([config(**{"params.budget": 3000})], ["tacc"], [7]))
    run_tasks(tasks, cache=tmp_path)
    stored = {k for k, _ in RunCache(tmp_path).items()}
    assert stored == {t.key() for t in tasks} and len(stored) == len(tasks)
    assert len({t.key().split(":")[0] for t in tasks}) == 5
    assert run_key(config_key(a), "tacc", 5, (100.0,)) in stored


def test_a_changed_engine_source_gives_a_different_key(tmp_path):
    import simulate
    src = tmp_path / "simulate"
    src.mkdir()
    root = os.path.dirname(simulate.__file__)
    for name in os.listdir(root):
        if name.endswith(".py"):
            (src / name).write_bytes(open(os.path.join(root, name), "rb").read())
    versions = {"numba": "x", "numpy": "y"}
    before = fingerprint_of([src], versions)
    assert fingerprint_of([src], versions) == before                   # deterministic
    fast = src / "_fast.py"
    fast.write_text(fast.read_text() + "\n# an edit\n")
    assert fingerprint_of([src], versions) != before                    # an edited engine
    fast.write_text(fast.read_text()[:-len("\n# an edit\n")])
    assert fingerprint_of([src], versions) == before
    assert fingerprint_of([src], {"numba": "x", "numpy": "z"}) != before  # another numpy
    (src / "__pycache__").mkdir()
    (src / "__pycache__" / "junk.py").write_text("x = 1")
    assert fingerprint_of([src], versions) == before                   # caches are not code


def test_run_key_covers_the_code_fingerprint(config, monkeypatch):
    import simulate._cache as cache
    task, = tasks_for([config()], ["tacc"], [0])
    key = task.key()
    assert key == run_key(config_key(task.config), "tacc", 0, None)
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "edited")
    assert task.key() != key


def test_config_key_is_the_canonical_form_and_ignores_name_and_source(config):
    from dataclasses import replace
    c = config()
    assert config_key(c) == config_key(replace(c, name="other", source="elsewhere.toml"))
    assert config_key(c) != config_key(config(**{"params.gamma": 0.11}))
    assert config_key(c) == config_key(config())        # equal configurations, different objects


def test_cache_refuses_a_link_out_of_its_folder(tasks, tmp_path):
    outside = tmp_path / "outside.sqlite"
    outside.write_bytes(b"")
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "runs.sqlite").symlink_to(outside)
    with pytest.raises(TaccInputError) as e:
        run_tasks(tasks[:1], cache=tmp_path / "cache")
    assert e.value.field == "cache"
    assert outside.read_bytes() == b""


@pytest.mark.parametrize("name", ["runs.sqlite", "runs.sqlite-wal", "runs.sqlite-shm", "runs.sqlite-journal",
                                  "configs"])
def test_cache_refuses_any_link_it_would_write_through_before_writing(tasks, tmp_path, name):
    """A link at the cache file, SQLite's companions or configs/ is refused before anything is written: configs/
    was filled before the cache file's link was found, and a linked configs/ was written through."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / name).symlink_to(outside if name == "configs" else outside / "x.sqlite")
    with pytest.raises(TaccInputError) as e:
        run_tasks(tasks[:1], cache=tmp_path / "cache")
    assert (e.value.field, e.value.value) == ("cache", str(tmp_path / "cache" / name))
    assert "symbolic link" in e.value.reason
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == [name] and not any(outside.iterdir())


def test_cache_files_are_readable_by_the_group(tasks, tmp_path):
    old = os.umask(0o077)
    try:
        run_tasks(tasks[:1], cache=tmp_path / "c")
    finally:
        os.umask(old)
    assert os.stat(tmp_path / "c").st_mode & 0o050 == 0o050
    assert os.stat(tmp_path / "c" / "runs.sqlite").st_mode & 0o040
    # the configurations kept beside the runs too (they were drwx------ and -rw------- under a umask of 077)
    assert os.stat(tmp_path / "c" / "configs").st_mode & 0o050 == 0o050
    kept = list((tmp_path / "c" / "configs").iterdir())
    assert kept and all(os.stat(p).st_mode & 0o040 for p in kept)


@pytest.mark.parametrize("executor,start_pool", [("serial", "auto"), ("processes", "auto"),
                                                 ("processes", "always")])
@pytest.mark.slow
def test_a_sweep_runs_in_constant_memory(config, executor, start_pool):
    """The parent's peak traced memory over a sweep does not grow with the number of seeds (records are streamed
    through a running sum). The threshold is what holding them would cost: the extra peak of 6000 seeds over 600
    must stay below half the memory of the 5400 extra records themselves (measured here), whatever the batch
    sizes the runner adapts to the machine's load (they move the peak by a bounded window, not by seed count)."""
    c = config(**{"params.budget": 300})

    def peak(n):
        total = 0.0
        tracemalloc.start()
        for rec in iter_runs(iter_tasks([c], ["ucb"], range(n)), executor=executor, workers=2,
                             start_pool=start_pool):
            total += rec.regret
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    def held(n):
        tracemalloc.start()
        records = list(iter_runs(iter_tasks([c], ["ucb"], range(n)), executor="serial"))
        size, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert len(records) == n
        return size

    peak(64)                                              # warm up: compilation, the pool's imports
    small, large = peak(600), peak(6000)
    per_record = held(600) / 600
    assert per_record > 0
    assert large - small < 0.5 * 5400 * per_record, (small, large, per_record)


def test_iter_tasks_is_lazy(config):
    tasks = iter_tasks([config()], ["tacc"], range(10**12))
    assert next(tasks).seed == 0 and next(tasks).seed == 1


@pytest.mark.parametrize("text,seeds", [("0:3", range(0, 3)), ("5:7", range(5, 7)), ("4", range(0, 4)),
                                        (f"{2**63 - 2}:{2**63}", range(2**63 - 2, 2**63)),
                                        (str(2**63 - 1), range(2**63 - 1)), (f"1:{2**63}", range(1, 2**63))])
def test_parse_seeds(text, seeds):
    assert parse_seeds(text) == seeds


@pytest.mark.parametrize("text", ["a:b", "3:3", "-1:2", "0",
                                  # beyond the seeds' [0, 2**63), or a range whose length is no index (`tacc report
                                  # --seeds 9223372036854775809` must not fail on len(range))
                                  str(2**63 + 1), str(2**63), f"{2**63 - 1}:{2**63 + 1}", f"0:{2**63}",
                                  # Python's int() takes these (`5_0` would run 50 seeds)
                                  "5_0", "+5", " 5", "5 ", "\u0665", "0:\uff15", ""])
def test_parse_seeds_refuses(text):
    with pytest.raises(TaccInputError) as e:
        parse_seeds(text)
    assert e.value.field == "seeds"


@pytest.mark.parametrize("text", ["0", "-3"])
def test_a_count_below_one_is_refused_as_a_count(text):
    """It said 'needs 0 <= A < B', the wording of the A:B form, to a user who gave a count."""
    with pytest.raises(TaccInputError) as e:
        parse_seeds(text)
    assert "count" in e.value.reason and "A < B" not in e.value.reason


@pytest.mark.parametrize("kwargs,field", [({"executor": "slurm"}, "executor"), ({"engine": "gpu"}, "engine"),
                                          ({"workers": 0}, "workers"), ({"start_pool": "never"}, "start_pool")])
def test_invalid_runner_arguments(tasks, kwargs, field):
    with pytest.raises(TaccInputError) as e:
        run_tasks(tasks, **kwargs)
    assert e.value.field == field


_SWEEP = textwrap.dedent("""
    import sys, time
    from dataclasses import replace
    from bounds import load_config
    from simulate import iter_runs, iter_tasks
    c = load_config("llm-residual")
    c = replace(c, params=replace(c.params, budget=20000.0))
    for rec in iter_runs(iter_tasks([c], ["tacc"], range(10**6)), executor=sys.argv[2], workers=2, cache=sys.argv[1],
                         start_pool="always"):
        print(rec.seed, time.monotonic(), flush=True)
""")


@pytest.mark.slow
@pytest.mark.parametrize("executor", ["processes", "dask"])
def test_kill_9_during_a_sweep_loses_at_most_the_runs_in_flight_and_leaves_no_worker(tmp_path, executor):
    """kill -9 of the parent: the local pool's workers, and Dask's nannies and workers, exit with it."""
    import psutil
    from dataclasses import replace
    proc = subprocess.Popen([sys.executable, "-c", _SWEEP, str(tmp_path), executor], stdout=subprocess.PIPE,
                            text=True)
    seen = []
    try:
        while len(seen) < 300 or seen[-1][1] - seen[0][1] < 3.0:        # well past the first commits
            line = proc.stdout.readline()
            assert line, "the sweep ended early"
            seen.append((int(line.split()[0]), float(line.split()[1])))
        workers = psutil.Process(proc.pid).children(recursive=True)
        assert workers
        proc.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
    finally:
        proc.kill()
        rest = proc.stdout.read()
        proc.wait()
    # whole lines only: the kill can cut the last one ("ValueError: not enough values to unpack", or a shorter time)
    seen += [(int(a), float(b)) for a, b in (x.split() for x in rest.split("\n")[:-1] if x)]
    deadline = time.monotonic() + 10
    while any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [w.pid for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]
    c = load_config("llm-residual")
    c = replace(c, params=replace(c.params, budget=20000.0))
    stored = RunCache(tmp_path)
    old = [s for s, t in seen if t < killed_at - 1.0]               # finished more than a second before the kill
    assert old
    missing = [s for s in old if stored.get(tasks_for([c], ["tacc"], [s])[0].key()) is None]
    assert not missing, f"{len(missing)} runs finished over a second before the kill were lost"


def test_runs_that_came_back_are_committed_while_the_next_result_is_awaited(tasks, tmp_path, monkeypatch):
    """A result that takes long (a slow batch, a busy Dask cluster) left the runs that came back before it in memory
    until the next one came (CI: kill -9 lost 64 runs printed over a second before it): the runner waits for its
    workers no longer than the stored runs may wait for their commit (``RunCache.seconds_to_commit``). Here the
    second batch is held until the first batch's run is on disk, read by another connection."""
    import threading
    from concurrent.futures import ThreadPoolExecutor
    real = runner._run_batch
    on_disk, calls = threading.Event(), []

    def held(ts, engine, fingerprint=None, stop=None):
        calls.append(ts)
        if len(calls) == 2:
            on_disk.wait(20)
        return real(ts, engine, fingerprint)

    def watch():
        first = None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not on_disk.is_set():
            if calls and first is None:
                first = calls[0][0].key()
            if first is not None and RunCache(tmp_path).get(first) is not None:
                on_disk.set()
            time.sleep(0.02)

    def start(self):                  # workers as threads of this process, so the patched batch runs there
        if self.pool is None:
            self.pool = ThreadPoolExecutor(max_workers=1)
    monkeypatch.setattr(runner, "_run_batch", held)
    monkeypatch.setattr(Pool, "start", start)
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    records = run_tasks(tasks, executor="processes", workers=2, cache=tmp_path, start_pool="always")
    watcher.join()
    assert on_disk.is_set(), "the first run was not committed while the second batch was awaited"
    assert records == run_tasks(tasks)


def test_a_store_says_how_long_its_runs_may_wait(tmp_path, config):
    rec = run(make_problem(config()), "tacc", 0)
    store = RunCache(tmp_path, save_every=30.0)
    assert store.seconds_to_commit() is None                    # nothing held
    store.put("k" * 64, rec)
    assert 29.0 < store.seconds_to_commit() <= 30.0
    store.commit_due()                                          # not due: still held
    assert RunCache(tmp_path).get("k" * 64) is None
    store.save_every = 0.0
    assert store.seconds_to_commit() == 0.0
    store.commit_due()
    assert RunCache(tmp_path).get("k" * 64) == rec and store.seconds_to_commit() is None


def test_a_worker_with_other_code_refuses(config):
    task, = tasks_for([config()], ["tacc"], [0])
    with pytest.raises(RuntimeError, match="code changed"):
        runner._run_batch([task], "fast", "0" * 64)
    (rec,), _ = runner._run_batch([task], "fast", runner.code_fingerprint())
    assert rec == run(make_problem(task.config), "tacc", 0)


def test_a_sweep_whose_every_run_is_cached_starts_no_worker(tasks, tmp_path, monkeypatch):
    cache = tmp_path / "runs"
    first = run_tasks(tasks[:4], executor="processes", workers=2, cache=cache)
    started = []

    def start(self):
        started.append(self)
        raise RuntimeError("a worker was started")
    monkeypatch.setattr(Pool, "start", start)
    assert run_tasks(tasks[:4], executor="processes", workers=2, cache=cache) == first
    assert started == []                      # every run cached: no worker spawned
    with pytest.raises(RuntimeError, match="worker was started"):      # one run not cached: the pool starts
        run_tasks(tasks[:5], executor="processes", workers=2, cache=cache, start_pool="always")
    assert len(started) == 1


def test_workers_start_and_stay_with_ctrl_c_ignored():
    # a terminal's Ctrl-C reaches the whole process group: a worker still importing printed a KeyboardInterrupt
    # traceback, and a worker running printed "Process SpawnProcess-N:". Every worker is started at once with SIGINT
    # blocked (inherited through exec, simulate.starting_children) and ignores it once started: the parent takes the
    # Ctrl-C and kills its workers; this process's handler is unchanged.
    import signal

    before = signal.getsignal(signal.SIGINT)
    pool = Pool("processes", 2, None)
    try:
        assert not pool.started                                  # started by its first task, not when made
        pool.start()
        assert signal.getsignal(signal.SIGINT) is before
        assert len(pool.pool._processes) == 2                    # both started inside the ignored window
        handlers = [pool.submit(signal.getsignal, signal.SIGINT) for _ in range(4)]
        assert all(h.result(timeout=120) is signal.SIG_IGN for h in handlers)
    finally:
        pool.close()
    assert signal.getsignal(signal.SIGINT) is before



# ------------------------------------------------------------------------------ runs made in the main thread
def test_a_run_whose_horizon_is_long_is_made_in_a_daemon_thread_and_a_short_one_directly(config, monkeypatch):
    """The horizon T = ceil(Lambda / lambda_L) decides: T = _DIRECT_ROUNDS (budget 10^6 at cost 1) is called
    directly, one more round (cost 1 - 10^-6 ... : budget 10^6 + 1) goes to a thread; the records are equal."""
    threads = []
    real = runner._run_batch

    def spy(tasks, engine, fingerprint=None, stop=None):
        threads.append(runner.threading.current_thread())
        return real(tasks, engine, fingerprint, stop)
    monkeypatch.setattr(runner, "_run_batch", spy)
    at = config(**{"params.budget": runner._DIRECT_ROUNDS})
    past = config(**{"params.budget": runner._DIRECT_ROUNDS + 1})
    assert runner._horizon(tasks_for([at], ["ucb"], [0])) == runner._DIRECT_ROUNDS
    assert runner._horizon(tasks_for([past], ["ucb"], [0])) == runner._DIRECT_ROUNDS + 1
    direct = runner._run_here(tasks_for([at], ["ucb"], [0]), "fast")[0]
    handed = runner._run_here(tasks_for([past], ["ucb"], [0]), "fast")[0]
    main = runner.threading.main_thread()
    assert threads[0] is main and threads[1] is not main and threads[1].daemon
    assert handed == [run(make_problem(past), "ucb", 0)] and direct == [run(make_problem(at), "ucb", 0)]


def test_the_daemon_thread_hands_back_its_exception():
    def boom():
        raise ZeroDivisionError("in the run")
    with pytest.raises(ZeroDivisionError, match="in the run"):
        runner._in_daemon_thread(boom)


def test_a_signal_interrupts_the_wait_for_a_run_in_the_daemon_thread():
    """A handler that raises, run in the main thread while the run (here a 30 s sleep, which releases the
    interpreter as the compiled loop does) goes on in the daemon thread: the wait ends within a second."""
    class Stop(Exception):
        pass

    def stop(signum, frame):
        raise Stop
    previous = signal.signal(signal.SIGUSR1, stop)
    try:
        timer = runner.threading.Timer(0.3, signal.pthread_kill, (runner.threading.main_thread().ident,
                                                                 signal.SIGUSR1))
        t = time.monotonic()
        timer.start()
        with pytest.raises(Stop):
            runner._in_daemon_thread(time.sleep, 30)
        assert time.monotonic() - t < 5
    finally:
        signal.signal(signal.SIGUSR1, previous)


#: a run of hours: RDFE on two arms 10^-9 apart, lambda_L = 10^-9, delta = 10^-12 (the README user's example)
_HOURS = {"instance.mu_high": [0.5, 0.499999999, 0.4], "costs.low": 1e-9, "params.budget": 100000,
          "params.delta": 1e-12}


def _live_run_threads(seconds: float, before: list) -> list:
    """The runner's daemon threads, other than those in ``before``, still alive after waiting up to ``seconds``
    for them to end (another test's thread may still be sleeping)."""
    end = time.monotonic() + seconds
    while True:
        live = [t for t in runner.threading.enumerate() if t.name == "tacc-run" and t.is_alive() and t not in before]
        if not live or time.monotonic() > end:
            return live
        time.sleep(0.05)


@pytest.mark.slow
@pytest.mark.parametrize("stopped", [True, False])
def test_an_interrupted_library_call_leaves_no_run_computing_and_stores_no_record(config, tmp_path, monkeypatch,
                                                                                   stopped):
    """A library caller (a notebook) that catches KeyboardInterrupt: the run of hours in the daemon thread was
    left computing, a core busy until the process exited. Now its stop flag is set at the interrupt and the thread
    ends within a second; the unfinished run is in no cache. Without the flag set (``stopped=False``: the waiting
    thread is not given it) the thread is still computing after 3 s: the check can fail (the flag is set after,
    so the thread does not burn a core for the rest of the session)."""
    flags: list = []
    monkeypatch.setattr(runner, "stop_flag", lambda real=runner.stop_flag: flags.append(real()) or flags[-1])
    if not stopped:
        monkeypatch.setattr(runner, "_in_daemon_thread",
                            lambda fn, *args, stop=None, real=runner._in_daemon_thread: real(fn, *args))
    run_tasks(tasks_for([config(**{**_HOURS, "costs.low": 1.0})], ["rdfe"], [0]))    # machine code loaded first
    hours = tasks_for([config(**_HOURS)], ["rdfe"], [0])

    def interrupt(signum, frame):
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGUSR1, interrupt)
    timer = runner.threading.Timer(1.0, signal.pthread_kill, (runner.threading.main_thread().ident, signal.SIGUSR1))
    before = runner.threading.enumerate()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            run_tasks(hours, cache=tmp_path / "runs")
        live = _live_run_threads(3.0, before)
    finally:
        timer.cancel()
        signal.signal(signal.SIGUSR1, previous)
        for flag in flags:
            flag[0] = 1
    assert len(flags) == 1
    if stopped:
        assert live == []
        store = RunCache(tmp_path / "runs")
        assert store.get_many([hours[0].key()]) == [None]
        store.close()
    else:
        assert live, "a thread nobody stops is still computing"
        assert _live_run_threads(3.0, before) == []


_SERIAL_SWEEP = """
import sys, time
from bounds import load_config
from simulate import run_tasks, tasks_for
run_tasks(tasks_for([load_config(sys.argv[2])], ["rdfe"], [0]))   # the machine code loaded (in Python) first
from simulate._fast import _plan
from simulate._runner import _problem
tasks = tasks_for([load_config(sys.argv[1])], ["rdfe"], [0])
_plan(_problem(tasks[0].config), "rdfe", None)        # and what precedes the compiled loop
print("running", flush=True)
try:
    run_tasks(tasks)
except KeyboardInterrupt:
    print("stopped", flush=True)
    sys.exit(130)
"""


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_serial_run_of_hours_stops_at_a_signal_and_the_process_exits(tmp_path, sig, config):
    """run_tasks, serial, in the main thread of a process: the compiled loop ran for hours and the handler never
    ran (SIGTERM then gave Python's default, SIGINT nothing). Now KeyboardInterrupt (SIGINT) within a few
    seconds, and the process exits although the daemon thread is still in the compiled loop."""
    cfg, short = tmp_path / "hours.toml", tmp_path / "short.toml"
    cfg.write_text(dump_config(config(**_HOURS)))
    short.write_text(dump_config(config(**{**_HOURS, "costs.low": 1.0})))
    code = _SERIAL_SWEEP if sig == signal.SIGINT else (
        "import signal\n"
        "def _term(s, f):\n    raise KeyboardInterrupt\n"
        "signal.signal(signal.SIGTERM, _term)\n" + _SERIAL_SWEEP)
    proc = subprocess.Popen([sys.executable, "-c", code, str(cfg), str(short)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline() == "running\n"
        time.sleep(1.5)
        proc.send_signal(sig)
        t = time.monotonic()
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert time.monotonic() - t < 10
    assert proc.returncode == 130 and out == "stopped\n", err


def _closed_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_scheduler_address_that_does_not_parse_is_refused_before_any_run(tasks):
    with pytest.raises(TaccInputError, match="scheduler = 'notanaddress': .*missing port number"):
        iter_runs(tasks, executor="dask", scheduler="notanaddress")


def test_a_scheduler_that_does_not_answer_names_the_address_within_the_connect_timeout(tasks, monkeypatch):
    """A closed port: distributed retried for its 30 s and the sweep ended with "OSError: Timed out trying to
    connect" (exit 3 on the command line); now a TaccInputError naming the address after connect's timeout (10 s
    by default; 0.5 s here, through the function's parameter)."""
    address = f"tcp://127.0.0.1:{_closed_port()}"
    t = time.monotonic()
    with pytest.raises(TaccInputError, match=f"scheduler = '{address}': no Dask scheduler answered there within "
                                             f"0.5 s"):
        connect(address, timeout=0.5).close()
    assert time.monotonic() - t < 5
    monkeypatch.setattr(simulate._pool, "connect", functools.partial(connect, timeout=0.5))  # what the sweep uses
    with pytest.raises(TaccInputError, match=f"scheduler = '{address}': no Dask scheduler answered there within "
                                             f"0.5 s"):
        run_tasks(tasks, executor="dask", scheduler=address)
    assert time.monotonic() - t < 10


@pytest.fixture
def not_a_scheduler():
    """Start a local TCP server in a thread that accepts every connection and sends ``banner`` (nothing: it stays
    silent) and keeps it open; returns its address (a free port; no network)."""
    import socket
    import threading

    servers, accepted = [], []

    def start(banner: bytes) -> str:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
        servers.append(server)

        def serve():
            while True:
                try:
                    c, _ = server.accept()
                except OSError:                 # closed at the end of the test
                    return
                accepted.append(c)
                c.sendall(banner)

        threading.Thread(target=serve, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield start
    for s in servers + accepted:
        s.close()


def test_a_service_that_accepts_and_never_answers_is_given_up_within_the_connect_timeout(not_a_scheduler):
    """A listener that accepts the connection and stays silent (``python3 -m http.server``): distributed's
    handshake read has no time limit and the connection waited forever (633 s and still waiting); now the whole
    connection, handshake included, gives up after connect's timeout naming the address."""
    address = not_a_scheduler(b"")
    t = time.monotonic()
    with pytest.raises(TaccInputError, match=f"scheduler = '{address}': no Dask scheduler answered there within "
                                             f"0.5 s"):
        connect(address, timeout=0.5).close()
    assert time.monotonic() - t < 5


def test_a_service_that_is_not_dask_is_refused_naming_the_address(not_a_scheduler):
    """An SSH server's banner read by distributed as a frame length: "MemoryError: Unable to allocate 2.82 EiB"
    (exit 3 on the command line); now a TaccInputError naming the address, at once."""
    address = not_a_scheduler(b"SSH-2.0-OpenSSH_9.0\r\n")
    t = time.monotonic()
    with pytest.raises(TaccInputError, match=f"scheduler = '{address}': no Dask scheduler answered there: the "
                                             f"connection failed \\(its first bytes, read as the length of a "
                                             f"Dask message, asked for more memory than there is\\); is that the "
                                             f"address of a Dask scheduler, not of another service\\?$"):
        connect(address, timeout=5).close()
    assert time.monotonic() - t < 4


@pytest.fixture
def scheduler():
    """A Dask scheduler with one worker in this process (threads: it starts in a fraction of a second; its dashboard
    on a free port: None meant 8787, with a warning when that port is taken)."""
    import distributed
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        yield cluster


def test_a_sweep_on_a_scheduler_makes_its_runs_there(tasks, scheduler, tmp_path):
    """``scheduler=ADDRESS``: every run is made by that scheduler's worker, the records equal the serial ones, and
    they are kept in the cache, which a second sweep reads (connected, but handing the scheduler no run)."""
    serial = run_tasks(tasks)
    (worker,) = scheduler.workers.values()
    assert run_tasks(tasks, executor="dask", scheduler=scheduler.scheduler_address, cache=tmp_path) == serial
    batches = worker.state.executed_count
    assert batches > 0
    assert run_tasks(tasks, executor="dask", scheduler=scheduler.scheduler_address, cache=tmp_path) == serial
    assert worker.state.executed_count == batches


@pytest.mark.parametrize("address", ["notanaddress", "closed"])
@pytest.mark.parametrize("folder", ["absent", "with content"])
def test_a_sweep_refused_by_its_scheduler_leaves_its_cache_as_it_was(tasks, tmp_path, monkeypatch, address, folder):
    """A scheduler that does not parse or does not answer ends the sweep before the cache is written: its folder
    is not made, or is left as it was (the configurations were saved in CACHE/configs before the connection, at the
    first run to make)."""
    monkeypatch.setattr(simulate._pool, "connect", functools.partial(connect, timeout=0.3))
    cache = tmp_path / "cache"
    if folder == "with content":
        (cache / "configs").mkdir(parents=True)
        (cache / "configs" / "mine.json").write_text("{}")
    before = sorted((str(p), p.read_bytes() if p.is_file() else None) for p in tmp_path.rglob("*"))
    address = f"tcp://127.0.0.1:{_closed_port()}" if address == "closed" else address
    with pytest.raises(TaccInputError, match=f"scheduler = '{address}'"):
        run_tasks(tasks, executor="dask", scheduler=address, cache=cache)
    assert sorted((str(p), p.read_bytes() if p.is_file() else None) for p in tmp_path.rglob("*")) == before


@pytest.mark.parametrize("executor", ["serial", "processes"])
def test_a_scheduler_without_the_dask_executor_is_refused(tasks, executor):
    """A scheduler given to another executor was ignored without a word: the runs were made here."""
    with pytest.raises(TaccInputError, match=f"scheduler = 'tcp://127.0.0.1:8786': is used only with the executor "
                                             f"dask \\(the executor is {executor}"):
        iter_runs(tasks, executor=executor, scheduler="tcp://127.0.0.1:8786")


@pytest.mark.parametrize("where", ["phase", "leader", "violation"])
def test_a_stored_arm_out_of_range_is_a_damaged_row_even_with_its_checksum(tmp_path, where):
    """A row edited and given its new sha256 passes the checksum: an RDFE phase naming arm K would raise IndexError
    in the claims that read it (tacc check, exit 3). Such a row is refused when read and recomputed."""
    task, = tasks_for([load_config("llm-vanishing")], ["rdfe"], [1])        # two completed phases of three
    run_tasks([task], cache=tmp_path)
    (key, _, data), = _rows(tmp_path)
    _, rec = decode_record(data)
    K = rec.n_arms
    ph = rec.phases[0]
    if where == "phase":
        bad = dataclasses.replace(rec, phases=(dataclasses.replace(ph, active=(*ph.active[:-1], K)), *rec.phases[1:]))
    elif where == "leader":
        done = next(p for p in rec.phases if p.completed)
        bad = dataclasses.replace(rec, phases=tuple(dataclasses.replace(p, leader=K) if p is done else p
                                                    for p in rec.phases))
    else:
        from simulate import Violation
        bad = dataclasses.replace(rec, violation=Violation(K, 0, 1), event_held=False)
    new = encode_record(key, bad)
    with pytest.raises(ValueError, match="out of range"):
        decode_record(new)
    _rewrite(tmp_path, key, hashlib.sha256(new).hexdigest(), new)
    with pytest.warns(CacheMismatchWarning, match="recomputed"):
        assert run_tasks([task], cache=tmp_path) == [rec]
