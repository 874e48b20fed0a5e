"""The run cache read by a command that makes no run (``load_runs``: ``tacc runs``, ``tacc report --from``): a damaged
stored row is handed to the reader, which names the run it was (never dropped in silence, never said to be
recomputed), and a cache folder's runs are matched to their configurations once per key prefix, not per record."""

import sqlite3
import warnings

import pytest

import simulate._cache as cache
import simulate._frame as frame
from simulate import RunCache, frame_records, load_runs, run_tasks, tasks_for
from simulate._cache import CacheMismatchWarning

pytest.importorskip("pandas")

SEEDS = 6


@pytest.fixture
def swept(config, tmp_path):
    """A cache folder of two configurations (budgets), two policies, SEEDS seeds: its tasks and records."""
    tasks = tasks_for([config(**{"params.budget": 2000}), config(**{"params.budget": 4000})], ["tacc", "rdfe"],
                      range(SEEDS))
    return tmp_path, tasks, run_tasks(tasks, cache=tmp_path)


def _flip(root, key, at=-3):
    """Flip one bit of the stored record of ``key`` (a damaged disk block), its checksum left alone."""
    with sqlite3.connect(root / "runs.sqlite") as db:
        (data,) = db.execute("SELECT record FROM runs WHERE key = ?", (key,)).fetchone()
        data = bytearray(data)
        data[at] ^= 1
        db.execute("UPDATE runs SET record = ? WHERE key = ?", (bytes(data), key))


def test_a_reader_is_given_the_damaged_rows_and_no_recomputed_warning(swept):
    root, tasks, _ = swept
    key = tasks[3].key()
    _flip(root, key)
    damaged: list = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # no "the run is recomputed": the reader says what it does
        keys = [k for k, _ in RunCache(root).items(damaged)]
    assert len(keys) == len(tasks) - 1 and key not in keys
    assert [(d.key, d.problem) for d in damaged] == [(key, "its checksum does not match its content")]
    with pytest.warns(CacheMismatchWarning, match="the run is recomputed"):   # the runner's reading: unchanged
        assert len(list(RunCache(root).items())) == len(tasks) - 1


@pytest.mark.parametrize("index_only", [False, True])
@pytest.mark.parametrize("where", ["record", "key"])
def test_load_runs_names_each_damaged_run(swept, index_only, where):
    """The damaged run is named (configuration, budget, policy, seed) in ``damaged`` and in a warning that says it is
    left out, not recomputed: before, the warning said "the run is recomputed" and the run was gone in silence. A
    row whose key column is damaged (its record intact) is named by the record it holds."""
    root, tasks, records = swept
    t = next(t for t in tasks if t.policy == "rdfe" and t.seed == 4 and t.config.params.budget == 2000)
    if where == "record":
        _flip(root, t.key())
    else:
        with sqlite3.connect(root / "runs.sqlite") as db:
            db.execute("UPDATE runs SET key = ? WHERE key = ?", (t.key()[:-1] + "9", t.key()))
    with pytest.warns(CacheMismatchWarning, match="1 stored run.s. are damaged and left out") as caught:
        f = load_runs(root, index_only=index_only)
    assert not any("recomputed" in str(w.message) for w in caught)
    assert "rdfe, seed 4, budget 2000 of small" in str(caught[0].message)
    (row,) = f.damaged.itertuples(index=False)
    assert (row.config, row.budget, row.policy, row.seed) == ("small", 2000.0, "rdfe", 4)
    assert len(f.runs) == len(tasks) - 1
    assert sorted(map(repr, frame_records(f))) == sorted(repr(r) for r, x in zip(records, tasks, strict=True)
                                                         if x is not t)


def test_an_intact_cache_has_no_damaged_runs_and_the_index_gives_the_same_records(swept):
    root, tasks, records = swept
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        full, index = load_runs(root), load_runs(root, index_only=True)
    assert full.damaged is None and index.damaged is None
    assert frame_records(index) == frame_records(full)
    order = {(t.config.params.budget, t.policy, t.seed): r for t, r in zip(tasks, records, strict=True)}
    assert frame_records(index) == [order[b, p, s] for b, p, s in
                                    zip(index.runs["budget"], index.runs["policy"], index.runs["seed"], strict=True)]
    assert index.arms.empty and index.records is not None and full.records is None


def test_keys_are_matched_once_per_prefix_not_per_record(swept, monkeypatch):
    """Reading a full cache recomputed every record's key for each saved configuration (a Task and its key per
    record and configuration): a prefix is now made once per (configuration, policy, checkpoints)."""
    root, tasks, _ = swept
    calls = []
    real = cache.run_key_prefix

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(cache, "run_key_prefix", counted)
    monkeypatch.setattr(frame, "run_key_prefix", counted, raising=False)
    f = load_runs(root, index_only=True)
    assert len(f.runs) == len(tasks) == 2 * 2 * SEEDS
    assert f.runs["budget"].notna().all()
    assert len(calls) <= 2 * 2 * 2          # configurations x policies x (no checkpoints, the record's)


def test_load_runs_refuses_a_file_that_is_no_database_and_leaves_it_as_it_is(tmp_path):
    """A reader (``tacc runs``, ``tacc report --from``) moved a runs.sqlite of random bytes to runs.sqlite.damaged-1
    (with a warning), as a sweep does: now it is refused naming the argument, and the folder is left as it was."""
    from bounds import TaccInputError

    (tmp_path / "runs.sqlite").write_bytes(bytes(range(256)) * 16)
    before = sorted((p.name, p.read_bytes(), p.stat().st_mode) for p in tmp_path.iterdir())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TaccInputError, match=f"path = '{tmp_path}': its runs.sqlite is not a readable run "
                                                 f"cache .*left as it is"):
            load_runs(tmp_path)
    assert sorted((p.name, p.read_bytes(), p.stat().st_mode) for p in tmp_path.iterdir()) == before


def test_a_read_only_cache_creates_changes_and_stores_nothing(swept, tmp_path_factory):
    """A read-only cache (``load_runs``) gave the file group read permission (and made a folder and an empty file
    when asked for a key of a folder that had none): it now leaves the folder as it is, and refuses to store."""
    from bounds import TaccInputError

    root, tasks, records = swept
    (root / "runs.sqlite").chmod(0o600)
    before = sorted((p.name, p.stat().st_mode) for p in root.iterdir())
    assert len(load_runs(root).runs) == len(records)
    assert sorted((p.name, p.stat().st_mode) for p in root.iterdir()) == before
    empty = tmp_path_factory.mktemp("empty") / "none"
    store = RunCache(empty, read_only=True)
    assert store.get_many([tasks[0].key()]) == [None] and len(store) == 0 and list(store.items()) == []
    with pytest.raises(TaccInputError, match="read-only"):
        store.put(tasks[0].key(), records[0])
    store.close()
    assert not empty.exists()
