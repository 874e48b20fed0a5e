"""Teeth: every mutant, a wrong bound or a broken algorithm, is caught by the property search
within the CI budget, and its counterexample is shrunk to a small instance printed as a configuration."""

import tomllib

import pytest

from bounds import parse_config
from certify._mutants import MUTANTS, hunt
from simulate import make_problem

#: the whole file is in the slow part of the suite (``-m "not slow"`` leaves it out)
pytestmark = pytest.mark.slow


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_is_caught_and_shrunk(mutant, capsys):
    catch = hunt(mutant, max_examples=300)
    assert catch.caught, f"mutant {mutant.name} survived {catch.examples} examples"
    config = parse_config(tomllib.loads(catch.config_toml))      # the printed configuration reruns as is
    assert make_problem(config).n_arms <= 6
    with capsys.disabled():
        print(f"\n[{mutant.name}] caught by {catch.verdict.claim} ({catch.verdict.label}), seed {catch.seed}: "
              f"{catch.verdict.worst.what} = {catch.verdict.worst.empirical} > {catch.verdict.worst.bound}")
