"""The fast engine makes the reference engine's decisions: equal records (every count, the regret, the event,
the RDFE phases and the full trace) for every policy, on generated instances and on the paper's presets; a run
whose stop flag is set ends with no record, in either engine."""

import threading
import time
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import load_config
from certify.strategies import configs
from simulate import ENGINES, POLICIES, RunStopped, make_problem, run, stop_flag


@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=25)
@given(config=configs(), seed=st.integers(0, 2**62))
def test_engines_agree_on_generated_instances(policy, config, seed):
    p = make_problem(config)
    ref = run(p, policy, seed, engine="reference", trace=True)
    fast = run(p, policy, seed, engine="fast", trace=True)
    assert ref == fast


@pytest.mark.parametrize("policy", POLICIES)
def test_engines_agree_on_a_paper_preset(policy):
    p = make_problem(load_config("llm-residual"))
    ref, fast = run(p, policy, 3, engine="reference"), run(p, policy, 3, engine="fast")
    assert ref == fast
    # the same types too (an int is not stored as a float); the step form's RDFE phases hold numpy floats
    assert repr(replace(ref, phases=())) == repr(replace(fast, phases=()))


def test_work_arrays_reused_between_runs_leave_nothing_behind(config):
    """The fast engine keeps its work arrays per problem and resets them in place: runs interleaved across
    policies, checkpoints, traces and threads equal runs each made on a fresh problem."""
    from concurrent.futures import ThreadPoolExecutor

    c = config(**{"params.budget": 3000})
    calls = [(policy, seed, cps, trace) for seed in (0, 1) for policy in POLICIES
             for cps, trace in ((None, False), ((100.0, 2999.0), True))]
    fresh = [run(make_problem(c), p, s, checkpoints=cps, trace=t) for p, s, cps, t in calls]
    shared = make_problem(c)
    assert [run(shared, p, s, checkpoints=cps, trace=t) for p, s, cps, t in reversed(calls)] == fresh[::-1]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(lambda x: run(shared, x[0], x[1], checkpoints=x[2], trace=x[3]), calls * 3)) \
            == fresh * 3


def test_engines_agree_on_set_b_tacc():
    p = make_problem(load_config("set-b"))
    assert run(p, "tacc", 1, engine="reference") == run(p, "tacc", 1, engine="fast")


# ------------------------------------------------------------------------------ a run stopped from another thread
#: a run of hours: RDFE on two arms 10^-9 apart, lambda_L = 10^-9, delta = 10^-12 (the README user's example)
_HOURS = {"instance.mu_high": [0.5, 0.499999999, 0.4], "costs.low": 1e-9, "params.budget": 100000,
          "params.delta": 1e-12}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_run_whose_stop_flag_is_set_gives_no_record_and_leaves_nothing_behind(config, engine):
    """A flag set before the run: RunStopped at round 0, no record; the same problem's next runs (its work arrays
    reused) equal runs on a fresh problem. With the flag clear the run is made: the check can fail."""
    c = config(**{"params.budget": 3000})
    shared, flag = make_problem(c), stop_flag()
    assert run(shared, "tacc", 0, engine=engine, stop=flag) == run(make_problem(c), "tacc", 0, engine=engine)
    flag[0] = 1
    for policy in POLICIES:
        with pytest.raises(RunStopped) as stopped:
            run(shared, policy, 1, engine=engine, stop=flag, trace=True)
        assert (stopped.value.policy, stopped.value.seed, stopped.value.rounds) == (policy, 1, 0)
    assert [run(shared, p, 1, engine=engine) for p in POLICIES] == [run(make_problem(c), p, 1, engine=engine)
                                                                     for p in POLICIES]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_run_of_hours_ends_soon_after_its_flag_is_set_from_another_thread(config, engine):
    """The compiled loop reads the flag every 65,536 rounds (the step form before every query): a run of hours
    in a thread ends within a second of the flag being set, with RunStopped and the rounds it had made."""
    if engine == "fast":
        run(make_problem(config(**{**_HOURS, "costs.low": 1.0})), "rdfe", 0)      # the machine code loaded first
    problem, flag, out = make_problem(config(**_HOURS)), stop_flag(), []

    def target():
        try:
            out.append(run(problem, "rdfe", 0, engine=engine, stop=flag))
        except RunStopped as exc:
            out.append(exc)
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    time.sleep(0.5)
    assert thread.is_alive()
    t = time.monotonic()
    flag[0] = 1
    thread.join(10)
    assert not thread.is_alive() and time.monotonic() - t < 2
    assert isinstance(out[0], RunStopped) and out[0].rounds > 0
    if engine == "fast":
        assert out[0].rounds % 65536 == 0


# ------------------------------------------------------------------------------ S0 far beyond the budget
#: S0 = 3,000 on a budget of 1,000 low queries: L = N_gamma + S0 + 1 = 3,621 counts may be read, W = 1,000 are
#: tabulated; 2 eta gamma = 0.006 lies between the gains to B_k(W) and to B_k(N_gamma + S0) (so the far end decides)
_FAR_S0 = {"params.budget": 1000, "params.s0": 3000, "params.eta": 0.03}


@pytest.mark.parametrize("policy", ["tacc", "dnc"])
def test_engines_agree_when_s0_is_far_beyond_the_budget(config, policy):
    """The fast engine reads B_k at the low counts a run reaches (at most floor(Lambda / lambda_L), the table's
    width) and the continuation window's far end B_k(N_gamma + S0); the step form reads B_k(N + s) for s = 1, 2,
    ...: equal records, traces included, continuation pulls made; and equal to the fast engine's on a problem
    that tabulates all L counts (what every problem did before)."""
    p = make_problem(config(**_FAR_S0))
    full = make_problem(config(**_FAR_S0))
    full.__dict__["bias_width"] = full.bias_length
    assert p.bias_table[0].shape[1] == p.bias_width == 1000 < full.bias_table[0].shape[1] == p.bias_length
    records = [run(p, policy, seed, trace=True) for seed in range(3)]
    assert records == [run(p, policy, seed, engine="reference", trace=True) for seed in range(3)]
    assert records == [run(full, policy, seed, trace=True) for seed in range(3)]
    assert (policy == "tacc") == any(sum(r.continuation) > 0 for r in records)


def test_a_wrong_continuation_end_is_caught_by_the_engines_equality(config):
    """The equality above can fail: the far end replaced by B_k(W) (a continuation window cut at the table's
    end) changes the fast engine's decisions, and its records differ from the step form's."""
    p = make_problem(config(**_FAR_S0))
    p.__dict__["continuation_end"] = p.bias_table[0][:, -1].copy()
    assert [run(p, "tacc", seed) for seed in range(3)] != [run(p, "tacc", seed, engine="reference")
                                                           for seed in range(3)]


# ------------------------------------------------------------------------------ a traced run's length
@pytest.mark.parametrize("bound, calls", [(None, 2), ("exact", 1), ("above", 1), ("below", 2)])
def test_a_traced_run_with_a_rounds_bound_is_made_once(config, monkeypatch, bound, calls):
    """A budget of 200,000 low queries: past 2^17 possible rounds the trace was allocated by first making the run
    untraced to learn its length (two runs, ``None``). Given a bound on its rounds it is made once; a bound below
    its rounds (rows for one round fewer than it makes) costs the second run; the record is the same every way."""
    import simulate._fast as fast

    problem = make_problem(config(**{"params.budget": 200_000}))
    expected = run(problem, "tacc", 0, trace=True)
    made = []
    real = fast._run
    monkeypatch.setattr(fast, "_run", lambda *args: made.append(1) or real(*args))
    given = None if bound is None else expected.rounds + {"exact": 0, "above": 1000, "below": -2}[bound]
    assert run(problem, "tacc", 0, trace=True, rounds_bound=given) == expected
    assert len(made) == calls
