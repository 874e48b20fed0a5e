"""A DNC run made from TACC's on the same seed (``simulate._twins``): the same record as DNC's own run when TACC
made no continuation pull, and made for real otherwise; the runner's batches use it, and only where it holds."""

import dataclasses

import pytest

import simulate._runner as runner
from bounds import load_config
from simulate import Task, make_problem, run, twins_together
from simulate._twins import TWIN_OF, batch_group, from_twin


@pytest.fixture(scope="module")
def config():
    """The LLM instance at a small budget: TACC continues on some seeds and not on others (8 and 4 of seeds 0-11)."""
    c = load_config("llm-residual")
    return dataclasses.replace(c, params=dataclasses.replace(c.params, budget=20000.0))


@pytest.fixture(scope="module")
def made(config):
    """seed -> (TACC's record, DNC's record), each made by the engine on its own."""
    p = make_problem(config)
    return {s: (run(p, "tacc", s), run(p, "dnc", s)) for s in range(12)}


def test_both_kinds_of_seed_are_met(made):
    """The tests below see TACC runs without a continuation pull and runs with one whose DNC run differs (were it
    not so, a rule that ignored the continuation pulls would pass them)."""
    without = [s for s, (t, _) in made.items() if not any(t.continuation)]
    differ = [s for s, (t, d) in made.items() if any(t.continuation) and dataclasses.replace(t, policy="dnc") != d]
    assert without and differ


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_dnc_from_tacc_is_dncs_own_run_when_tacc_never_continued(config, made, engine):
    p = make_problem(config)
    for s, (tacc, dnc) in made.items():
        if engine == "reference" and s > 3:
            break
        if engine == "reference":
            tacc, dnc = run(p, "tacc", s, engine="reference"), run(p, "dnc", s, engine="reference")
        derived = from_twin("dnc", tacc)
        if any(tacc.continuation):
            assert derived is None
        else:
            assert derived == dnc and derived.policy == "dnc"


def test_only_the_twin_policy_is_derived(made):
    tacc, _ = next(x for x in made.values() if not any(x[0].continuation))
    assert from_twin("mf-ucb", tacc) is None                     # not DNC: no twin
    assert from_twin("dnc", dataclasses.replace(tacc, policy="mf-ucb")) is None     # not TACC's record
    assert TWIN_OF == {"dnc": "tacc"} and batch_group("dnc") == "tacc" and batch_group("ucb") == "ucb"


def test_a_batch_makes_each_pair_once_where_it_can(config, made, monkeypatch):
    """Interleaved TACC and DNC tasks in one batch: every record is the one made on its own, and the engine ran
    once per TACC task and once per DNC task whose TACC run continued."""
    calls = []
    real = runner.run

    def counting(problem, policy, seed, **kw):
        calls.append((policy, seed))
        return real(problem, policy, seed, **kw)

    monkeypatch.setattr(runner, "run", counting)
    tasks = [Task(config, p, s) for s in made for p in ("tacc", "dnc")]
    records, _ = runner._run_batch(tasks, "fast")
    assert records == [made[t.seed][0 if t.policy == "tacc" else 1] for t in tasks]
    continued = {s for s, (t, _) in made.items() if any(t.continuation)}
    assert sorted(calls) == sorted([("tacc", s) for s in made] + [("dnc", s) for s in continued])


def test_a_dnc_task_without_its_twin_before_it_is_made(config, made, monkeypatch):
    calls = []
    real = runner.run
    monkeypatch.setattr(runner, "run", lambda problem, policy, seed, **kw: calls.append(policy) or
                        real(problem, policy, seed, **kw))
    s = next(s for s, (t, _) in made.items() if not any(t.continuation))
    records, _ = runner._run_batch([Task(config, "dnc", s), Task(config, "tacc", s)], "fast")
    assert records == [made[s][1], made[s][0]] and calls == ["dnc", "tacc"]
    calls.clear()                              # a TACC run on other checkpoints or another seed is no twin
    t = next(t for t in made if t != s)
    records, _ = runner._run_batch([Task(config, "tacc", s, (10000.0, 20000.0)), Task(config, "dnc", s),
                                    Task(config, "tacc", s), Task(config, "dnc", t)], "fast")
    assert calls == ["tacc", "dnc", "tacc", "dnc"] and records[1] == made[s][1] and records[3] == made[t][1]


def test_twins_together_moves_each_dnc_task_after_its_tacc_task(config):
    other = dataclasses.replace(config, name="other", params=dataclasses.replace(config.params, budget=10000.0))
    tasks = ([Task(config, "tacc", s) for s in range(3)] + [Task(config, "dnc", s) for s in range(4)]
             + [Task(config, "ucb", 0), Task(other, "dnc", 0), Task(other, "tacc", 0)])
    out = twins_together(tasks)
    assert sorted(map(id, out)) == sorted(map(id, tasks))       # the same tasks
    assert [(t.config.name, t.policy, t.seed) for t in out] == [
        (config.name, "tacc", 0), (config.name, "dnc", 0), (config.name, "tacc", 1), (config.name, "dnc", 1),
        (config.name, "tacc", 2), (config.name, "dnc", 2), (config.name, "dnc", 3), (config.name, "ucb", 0),
        ("other", "dnc", 0), ("other", "tacc", 0)]                # no twin, or the twin after it: left in place


def test_checkpoints_given_as_a_list_pair_as_a_tuple(config, made, monkeypatch):
    """A task built by hand may hold its checkpoints in a list (unhashable): the pair still meets, and the records
    are the ones made on their own."""
    s = next(s for s, (t, _) in made.items() if not any(t.continuation))
    cps = [10000.0, 20000.0]
    records, _ = runner._run_batch([Task(config, "tacc", s, cps), Task(config, "dnc", s, list(cps))], "fast")
    p = make_problem(config)
    assert records == [run(p, "tacc", s, checkpoints=tuple(cps)), run(p, "dnc", s, checkpoints=tuple(cps))]
    out = twins_together([Task(config, "dnc", s + 1, cps), Task(config, "tacc", s, cps), Task(config, "dnc", s, cps)])
    assert [(t.policy, t.seed) for t in out] == [("dnc", s + 1), ("tacc", s), ("dnc", s)]
