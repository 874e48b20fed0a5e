"""Evidence about assumptions: breaking ass:mono-cert or ass:plugin alone lets a claim be exceeded; breaking
S0 lambda_L <= lambda_H alone did not, in the examples searched."""

import tomllib

import pytest

from bounds import parse_config
from certify import check_assumptions
from certify._search import assumption_evidence
from simulate import make_problem


@pytest.mark.parametrize("assumption,claim", [("ass:mono-cert", "class-A"), ("ass:plugin", "high-count")])
def test_breaking_an_assumption_the_results_need(assumption, claim):
    e = assumption_evidence(assumption, max_examples=150)
    assert e.found and e.claim == claim, e.describe()
    config = parse_config(tomllib.loads(e.config_toml))
    res = check_assumptions(make_problem(config))
    assert not res[assumption].held
    assert e.worst.empirical > e.worst.bound


def test_the_cap_was_not_needed_in_the_examples_searched():
    e = assumption_evidence("cap:S0", max_examples=100)
    assert not e.found and "none found in 100 examples" in e.describe()
