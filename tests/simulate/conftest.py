"""Helpers for the simulate tests: small hand-written configurations."""

import copy

import pytest

from bounds import parse_config

BASE = {
    "name": "small",
    "instance": {"mu_high": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], "seed": 0, "noise": {"model": "gaussian", "sigma": 1.0},
                 "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5, "signs": "random"}},
    "costs": {"low": 1.0, "high": 10.0},
    "params": {"budget": 20000, "delta": 0.05, "rho": 0.5, "gamma": 0.1, "eta": 1e-4, "s0": 10},
}


def make_config(**changes):
    """BASE with dotted-key changes, e.g. make_config(**{"params.budget": 100})."""
    data = copy.deepcopy(BASE)
    for key, value in changes.items():
        *path, last = key.split(".")
        d = data
        for p in path:
            d = d[p]
        d[last] = value
    return parse_config(data)


@pytest.fixture
def config():
    """The factory make_config (tests import nothing from the tests tree)."""
    return make_config
