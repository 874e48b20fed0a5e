"""The fast engine makes the reference engine's decisions: equal records (every count, the regret, the event,
the RDFE phases and the full trace) for every policy, on generated instances and on the paper's presets."""

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
    assert run(p, policy, 3, engine="reference") == run(p, policy, 3, engine="fast")


def test_engines_agree_on_set_b_tacc():
    p = make_problem(load_config("set-b"))
    assert run(p, "tacc", 1, engine="reference") == run(p, "tacc", 1, engine="fast")
