"""The fast engine makes the reference engine's decisions: equal records (every count, the regret, the event,
the RDFE phases and the full trace) for every policy, on generated instances and on the paper's presets."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import load_config
from certify.strategies import configs
from simulate import POLICIES, make_problem, run


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
