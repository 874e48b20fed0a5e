"""The runner: same seed same record; serial, processes and a Dask local cluster agree; the cache resumes an
interrupted sweep without redoing finished runs."""

import pytest

import simulate._runner as runner
from bounds import TaccInputError, load_config
from simulate import RunCache, make_problem, parse_seeds, run, run_tasks, tasks_for


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


def test_corrupt_cache_file_is_redone(tasks, tmp_path):
    run_tasks(tasks[:1], cache=tmp_path)
    path, = tmp_path.glob("*/*.json")
    path.write_text("{not json")
    assert run_tasks(tasks[:1], cache=tmp_path) == run_tasks(tasks[:1])


@pytest.mark.parametrize("text,seeds", [("0:3", range(0, 3)), ("5:7", range(5, 7)), ("4", range(0, 4))])
def test_parse_seeds(text, seeds):
    assert parse_seeds(text) == seeds


@pytest.mark.parametrize("text", ["a:b", "3:3", "-1:2", "0"])
def test_parse_seeds_refuses(text):
    with pytest.raises(TaccInputError) as e:
        parse_seeds(text)
    assert e.value.field == "seeds"


@pytest.mark.parametrize("kwargs,field", [({"executor": "slurm"}, "executor"), ({"engine": "gpu"}, "engine"),
                                          ({"workers": 0}, "workers")])
def test_invalid_runner_arguments(tasks, kwargs, field):
    with pytest.raises(TaccInputError) as e:
        run_tasks(tasks, **kwargs)
    assert e.value.field == field
