"""Assumption checks: held on the presets, failed with a witness on instances built to break them."""

import math

import pytest

from bounds import PRESETS, load_config, min_rho, parse_config, rdfe_dyadic_constant
from certify import ASSUMPTIONS, check_assumptions
from certify._assumptions import check_plugin
from simulate import make_problem


def _table(mu, means, certs, **params):
    p = {"budget": 2000, "delta": 0.05, "rho": "min", "gamma": 0.2, "eta": 1e-4, "s0": 3}
    p.update(params)
    return make_problem(parse_config({
        "instance": {"mu_high": mu, "noise": {"model": "gaussian", "sigma": 0.1},
                     "low": {"model": "table", "mean_low": means, "certificate": certs}},
        "costs": {"low": 1.0, "high": 5.0}, "params": p}))


@pytest.mark.parametrize("name", PRESETS)
def test_every_assumption_holds_on_the_presets(name):
    res = check_assumptions(make_problem(load_config(name)))
    assert list(res) == list(ASSUMPTIONS)
    assert all(r.held for r in res.values()), {k: r.detail for k, r in res.items() if not r.held}


def test_plugin_witness_is_the_first_count_exceeded():
    p = _table([0.5, 0.3], [[0.5, 0.5, 0.5], [0.3, 0.2, 0.3]], [[0.0, 0.0, 0.0], [0.0, 0.05, 0.1]])
    r = check_plugin(p)
    assert not r.held and r.witness["arm"] == 1 and r.witness["n"] == 2          # |0.2 - 0.3| = 0.1 > 0.05


def test_plugin_decreasing_certificate():
    p = _table([0.5, 0.3], [[0.5, 0.5], [0.3, 0.3]], [[0.0, 0.0], [0.2, 0.1]])
    r = check_plugin(p)
    assert not r.held and "decreases" in r.detail and r.witness["n"] == 2


def test_mono_cert_failure_names_arm_and_counts():
    # arm 1: low means first below (looks worse), then above: Delta^(L) starts high and falls
    mu = [0.5, 0.05]                       # Delta = 0.45; 2 gamma = 0.4
    dev = [-0.3] + [0.25] * 30             # Delta^(L)(1) = 0.45 + 0.3 - 0.3, Delta^(L)(2) = 0.45 + 0.025 - 0.275
    means = [[0.5] * 31, [0.05 + d for d in dev]]
    certs = [[0.0] * 31, list(__import__("itertools").accumulate(abs(d) + 1e-12 for d in dev))]
    r = check_assumptions(_table(mu, means, certs))["ass:mono-cert"]
    assert not r.held and r.witness["arm"] == 1 and (r.witness["n"], r.witness["m"]) == (1, 2)


def test_cap_rho_noise_and_start():
    p = make_problem(load_config("llm-residual"))
    res = check_assumptions(p)
    assert res["cap:S0"].values == {} and res["cap:S0"].held
    p2 = _table([0.5, 0.3], [[0.5], [0.3]], [[0.0], [0.0]], s0=6, rho=0.001, budget=5)
    res2 = check_assumptions(p2)
    assert not res2["cap:S0"].held and res2["cap:S0"].witness == {"S0 lambda_L": 6.0, "lambda_H": 5.0}
    assert not res2["lem:ci:rho"].held and res2["lem:ci:rho"].values["min_rho"] == min_rho(0.1, 2, 5, 0.05)
    assert not res2["alg:start"].held
    assert res2["sec:problem:noise"].held


def test_noise_scale_above_one_fails():
    cfg = load_config("set-a")
    p = make_problem(parse_config({**__import__("bounds").config_to_dict(cfg),
                                   "instance": {**__import__("bounds").config_to_dict(cfg)["instance"],
                                                "noise": {"model": "gaussian", "sigma": 2.0}}}))
    assert not check_assumptions(p)["sec:problem:noise"].held


def test_dyadic_reports_the_smallest_constants():
    p = make_problem(load_config("llm-vanishing"))
    r = check_assumptions(p)["ass:app-rdfe-dyadic"]
    inst = p.instance
    expected = [rdfe_dyadic_constant(inst.low, k, float(g), p.ell, p.cost_low, p.cost_high) if g > 0 else 1.0
                for k, g in enumerate(inst.gaps)]
    assert r.held and r.values["c_dyad"] == expected and r.values["c1"] == max(expected)
    assert all(math.isfinite(c) and c >= 1 for c in expected)
