"""The runner: same seed same record; serial, processes and a Dask local cluster agree; the cache resumes an
interrupted sweep without redoing finished runs, never uses a record that does not match, and keys on the code;
a sweep streams in constant memory; a kill loses at most the runs in flight and leaves no worker behind."""

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
import tracemalloc
import warnings

import pytest

import simulate._runner as runner
from bounds import TaccInputError, load_config
from simulate import (RunCache, config_key, iter_runs, iter_tasks, make_problem, parse_seeds, run, run_key,
                      run_tasks, tasks_for)
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


def test_executors_agree(tasks):
    serial = run_tasks(tasks)
    assert run_tasks(tasks, executor="processes", workers=2) == serial
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


@pytest.mark.parametrize("tamper", ["content", "checksum", "key", "garbage"])
def test_tampered_record_is_recomputed_with_a_warning(tasks, tmp_path, tamper, monkeypatch):
    run_tasks(tasks[:1], cache=tmp_path)
    (key, checksum, text), = _rows(tmp_path)
    data = json.loads(text)
    if tamper == "content":                          # a changed regret, checksum left alone
        data["record"][11] += 1.0
        _rewrite(tmp_path, key, checksum, json.dumps(data))
    elif tamper == "checksum":
        _rewrite(tmp_path, key, "0" * 64, text)
    elif tamper == "key":                            # another run's record, with a valid checksum for its text
        data["key"] = "f" * 64
        new = json.dumps(data)
        _rewrite(tmp_path, key, hashlib.sha256(new.encode()).hexdigest(), new)
    else:
        _rewrite(tmp_path, key, hashlib.sha256(b"{not json").hexdigest(), "{not json")
    redone = []
    real = runner._run_batch
    monkeypatch.setattr(runner, "_run_batch", lambda batch, engine: redone.append(batch) or real(batch, engine))
    with pytest.warns(CacheMismatchWarning, match="recomputed"):
        records = run_tasks(tasks[:1], cache=tmp_path)
    assert redone and records == run_tasks(tasks[:1])
    (_, checksum2, text2), = _rows(tmp_path)             # and the good record replaced the bad one
    assert decode_record(json.loads(text2)["record"]) == records[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert run_tasks(tasks[:1], cache=tmp_path) == records


def test_untampered_record_is_used_without_recomputing(tasks, tmp_path, monkeypatch):
    first = run_tasks(tasks[:2], cache=tmp_path)
    monkeypatch.setattr(runner, "_run_batch", lambda batch, engine: pytest.fail("a stored run was recomputed"))
    assert run_tasks(tasks[:2], cache=tmp_path) == first


def test_record_codec_round_trips_every_policy(config):
    from simulate import POLICIES
    p = make_problem(config(**{"params.budget": 4000}))
    for policy in POLICIES:
        rec = run(p, policy, 3, trace=True)
        assert decode_record(json.loads(json.dumps(encode_record(rec)))) == rec, policy


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


def test_cache_files_are_readable_by_the_group(tasks, tmp_path):
    old = os.umask(0o077)
    try:
        run_tasks(tasks[:1], cache=tmp_path / "c")
    finally:
        os.umask(old)
    assert os.stat(tmp_path / "c").st_mode & 0o050 == 0o050
    assert os.stat(tmp_path / "c" / "runs.sqlite").st_mode & 0o040


@pytest.mark.parametrize("executor", ["serial", "processes"])
def test_a_sweep_runs_in_constant_memory(config, executor):
    """The parent's peak traced memory over a sweep does not grow with the number of seeds (records are streamed
    through a running sum). The threshold is what holding them would cost: the extra peak of 6000 seeds over 600
    must stay below half the memory of the 5400 extra records themselves (measured here), whatever the batch
    sizes the runner adapts to the machine's load (they move the peak by a bounded window, not by seed count)."""
    c = config(**{"params.budget": 300})

    def peak(n):
        total = 0.0
        tracemalloc.start()
        for rec in iter_runs(iter_tasks([c], ["ucb"], range(n)), executor=executor, workers=2):
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


@pytest.mark.parametrize("text,seeds", [("0:3", range(0, 3)), ("5:7", range(5, 7)), ("4", range(0, 4))])
def test_parse_seeds(text, seeds):
    assert parse_seeds(text) == seeds


@pytest.mark.parametrize("text", ["a:b", "3:3", "-1:2", "0"])
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
                                          ({"workers": 0}, "workers")])
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
    for rec in iter_runs(iter_tasks([c], ["tacc"], range(10**6)), executor=sys.argv[2], workers=2, cache=sys.argv[1]):
        print(rec.seed, time.monotonic(), flush=True)
""")


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
    seen += [(int(a), float(b)) for a, b in (x.split() for x in rest.split("\n") if x)]
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


def test_a_worker_with_other_code_refuses(config):
    task, = tasks_for([config()], ["tacc"], [0])
    with pytest.raises(RuntimeError, match="code changed"):
        runner._run_batch([task], "fast", "0" * 64)
    (rec,), _ = runner._run_batch([task], "fast", runner.code_fingerprint())
    assert rec == run(make_problem(task.config), "tacc", 0)
