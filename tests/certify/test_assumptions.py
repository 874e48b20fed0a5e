"""Assumption checks: held on the presets, failed with a witness on instances built to break them."""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bounds import (PRESETS, certification_time, config_to_dict, load_config, min_rho, parse_config,
                    rdfe_dyadic_constant)
from certify import ASSUMPTIONS, ClaimContext, Verdict, check_assumptions, claims_for, judge
from certify._assumptions import check_mono_cert, check_plugin
from certify.strategies import configs
from simulate import make_problem, run


def _table(mu, means, certs, noise=None, **params):
    p = {"budget": 2000, "delta": 0.05, "rho": "min", "gamma": 0.2, "eta": 1e-4, "s0": 3}
    p.update(params)
    return make_problem(parse_config({
        "instance": {"mu_high": mu, "noise": noise or {"model": "gaussian", "sigma": 0.1},
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


def test_plugin_is_decided_on_the_decimals_written_and_a_rounding_of_the_floats_is_labelled():
    """0.9 - 0.7 is 0.2 as written, one rounding above 0.2 in doubles: held, and the floats' excess named as a
    rounding; one excess of the instance written fails with it."""
    r = check_plugin(_table([0.9, 0.7], [[0.7, 0.7], [0.7, 0.7]], [[0.2, 0.4], [0.0, 0.0]]))
    assert r.held and "the decimals written" in r.detail
    assert "the engine's floats, rounded from them, exceed it at arm 0" in r.detail and "a rounding" in r.detail
    short = check_plugin(_table([0.9, 0.7], [[0.7, 0.7], [0.7, 0.7]], [[0.2, 0.39], [0.0, 0.0]]))
    assert short.failed and (short.witness["arm"], short.witness["n"]) == (0, 2)
    assert short.witness["margin"] == pytest.approx(-0.01, abs=1e-12)


def test_plugin_witness_is_the_largest_excess_with_the_first_and_the_largest_relative_beside_it():
    # arm 0: excess 0.05 at n = 2 (first), 0.3 at n = 4 (largest); arm 1: 0.01 over U = 0.01 (relative 1)
    means = [[0.5, 0.45, 0.5, 0.2], [0.3, 0.28, 0.3, 0.3]]
    certs = [[0.0, 0.0, 0.05, 0.05], [0.0, 0.01, 0.01, 0.02]]
    r = check_plugin(_table([0.5, 0.3], means, certs))
    w = r.witness
    assert r.failed and (w["arm"], w["n"]) == (0, 4) and w["margin"] == pytest.approx(-0.3)
    assert (w["first"]["arm"], w["first"]["n"]) == (0, 2) and w["first"]["margin"] == pytest.approx(-0.05)
    assert (w["largest_relative"]["arm"], w["largest_relative"]["n"]) == (0, 2)      # U = 0 there: infinite
    assert "most at arm 0, n = 4 by 0.3" in r.detail and "first at arm 0, n = 2 by 0.05" in r.detail


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


def test_the_start_assumption_reads_the_costs_as_the_engines_count_them():
    """Three arms of costs 0.1 and 0.2, budget 0.9: the engines count in tenths (bounds.cost_units) and make the six
    start queries at a cost of 0.9; alg:start was FAILED ("first round costs 0.9, budget 0.9"), read in binary
    floating point where 3 (0.1 + 0.2) > 0.9. It holds now, and a budget below fails (bounds.first_round_paid)."""
    d = {"name": "tenths", "instance": {"mu_high": [0.9, 0.5, 0.4], "low": {"model": "power_decay", "zeta": 0.2,
                                                                           "r": 0.5, "signs": [1, 1, 1]}},
         "costs": {"low": 0.1, "high": 0.2}, "params": {"budget": 0.9, "gamma": 0.1, "eta": 1e-4, "s0": 2}}
    p = make_problem(parse_config(d))
    rec = run(p, "tacc", 0)
    assert rec.rounds == 6 and rec.n_low == (1, 1, 1) and rec.n_high == (1, 1, 1)
    assert check_assumptions(p)["alg:start"].held
    d["params"]["budget"] = 0.89
    assert not check_assumptions(make_problem(parse_config(d)))["alg:start"].held


@pytest.mark.parametrize("costs, s0, budget", [((0.1, 0.2), 2, 0.9), ((0.1, 0.3), 3, 1.2), ((0.1, 0.3), 4, 1.19)])
def test_tacc_bounds_and_tacc_check_decide_the_cost_assumptions_alike(costs, s0, budget):
    """``tacc bounds --json`` (first_round_covered, s0_cost) and ``tacc check`` (alg:start, cap:S0) decide the same
    comparisons by the same functions: bounds computed them in floats (3 x 0.1 > 0.3), check in binary exact
    rationals, the engines in the written decimals, and the three could disagree."""
    from bounds import analyze
    from reports.views._bounds import to_record
    d = {"name": "tenths", "instance": {"mu_high": [0.9, 0.5, 0.4], "low": {"model": "power_decay", "zeta": 0.2,
                                                                           "r": 0.5, "signs": [1, 1, 1]}},
         "costs": {"low": costs[0], "high": costs[1]}, "params": {"budget": budget, "gamma": 0.1, "eta": 1e-4,
                                                                   "s0": s0}}
    config = parse_config(d)
    checked = check_assumptions(make_problem(config))
    shown = to_record(analyze(config))["assumptions"]
    assert shown["first_round_covered"]["value"] is checked["alg:start"].held
    assert shown["s0_cost"]["value"] is checked["cap:S0"].held
    from fractions import Fraction
    assert checked["cap:S0"].held is (s0 * Fraction(repr(costs[0])) <= Fraction(repr(costs[1])))  # as written


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


# ------------------------------------------------------------------ exact decisions
def _old_plugin_held(problem) -> bool:
    """A check with a float tolerance, for contrast: floating running sums against U (1 + 1e-9) + 1e-12."""
    model = problem.instance.low
    n = np.arange(1, problem.horizon + 1)
    for k in range(problem.n_arms):
        total = np.cumsum(np.abs(np.asarray(model.mean_low(k, n)) - model.mu_high[k]))
        if np.any(total > np.asarray(model.certificate(k, n)) * (1 + 1e-9) + 1e-12):
            return False
    return True


def _power_decay(mu, **params):
    p = {"budget": 2000, "delta": 0.05, "rho": "min", "gamma": 0.1, "eta": 1e-4, "s0": 5}
    p.update(params)
    return make_problem(parse_config({
        "instance": {"mu_high": mu, "noise": {"model": "gaussian", "sigma": 0.5},
                     "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5, "signs": [1, -1]}},
        "costs": {"low": 1.0, "high": 10.0}, "params": p}))


def test_the_old_tolerance_failed_plugin_by_rounding_now_held():
    """mu ~ 1e8: the float deviations mu^(L) - mu^(H) carry rounding errors of 1e-8, far above a tolerance's slack
    (1e-9 of U); a check with that tolerance says FAILED (every claim needing ass:plugin would be NOT_APPLICABLE),
    the exact decision says held."""
    p = _power_decay([1e8 + 0.5, 1e8 + 0.25])
    assert not _old_plugin_held(p)
    res = check_assumptions(p)
    assert res["ass:plugin"].held and "by construction" in res["ass:plugin"].detail
    ctx = ClaimContext(p, res)
    verdicts = [judge(c, ctx, run(p, "tacc", 0)) for c in claims_for("tacc")]
    assert not any(v.verdict is Verdict.NOT_APPLICABLE for v in verdicts)
    assert _old_plugin_held(_power_decay([0.5, 0.25]))                 # the same instance near 0


def test_the_old_tolerance_passed_plugin_by_rounding_now_failed():
    """A certificate short by a relative 5e-10: inside the old slack (held), an exact failure with its witness."""
    d = 0.125
    p = _table([0.5, 0.25], [[0.5, 0.5], [0.25 + d, 0.25 + d]], [[0.0, 0.0], [d, 2 * d * (1 - 5e-10)]])
    assert _old_plugin_held(p)
    r = check_plugin(p)
    assert r.failed and r.witness["arm"] == 1 and r.witness["n"] == 2
    assert r.witness["margin"] == pytest.approx(-2 * d * 5e-10, rel=1e-6) and r.witness["margin"] < 0


def test_plugin_tie_holds_exactly():
    """sum |dev| = U exactly (dyadic values): held, and one ulp less fails."""
    d = 0.125
    tie = _table([0.5, 0.25], [[0.5], [0.25 - d]], [[0.0], [d]])
    assert check_plugin(tie).held
    short = _table([0.5, 0.25], [[0.5], [0.25 - d]], [[0.0], [math.nextafter(d, 0)]])
    assert check_plugin(short).failed


def test_mono_cert_tie_at_two_gamma_counts_as_reached():
    """Delta^(L)(n) = 2 gamma exactly at n = 4 (dyadic table, closed form past the prefix) and kept after:
    held; a table that then drops one ulp below 2 gamma fails at that count."""
    # arm 1: means (0.5, 0.25, 0.25, ...), U = 0.25 for n >= 1: Delta^(L)(n) = 0.25 - 0.5 / n, = 0.125 at n = 4
    mu = [0.5, 0.25]
    p = _table(mu, [[0.5, 0.5], [0.5, 0.25]], [[0.0, 0.0], [0.25, 0.25]], gamma=0.0625, s0=3)
    assert check_mono_cert(p).held
    assert certification_time(p.instance.low, 1, 0.5, 0.0625) == 4


def _transform(config, shift=0.0, scale=1.0):
    """The configuration with every mean shifted by ``shift`` then every reward-unit quantity (means, table
    deviations and certificates, zeta, noise sigma, gamma, a numeric rho in sigma^2 units) scaled by ``scale``."""
    d = config_to_dict(config)
    inst, low, params = d["instance"], d["instance"]["low"], d["params"]
    mu = [m + shift for m in inst["mu_high"]]
    inst["mu_high"] = [scale * m for m in mu]
    if low["model"] == "power_decay":
        low["zeta"] = scale * low["zeta"]
    elif low["model"] == "checkpoint":
        low["gap"] = [scale * g for g in np.ravel(low["gap"]).tolist()]
    elif low["model"] == "frozen":
        low["values"] = [scale * (v + shift) for v in low["values"]]
    else:
        low["mean_low"] = [[scale * (x + shift) for x in row] for row in low["mean_low"]]
        low["certificate"] = [[scale * u for u in row] for row in low["certificate"]]
    inst["noise"]["sigma"] = scale * inst["noise"]["sigma"]
    params["gamma"] = scale * params["gamma"]
    if params["rho"] != "min":
        params["rho"] = scale * scale * params["rho"]
    return parse_config(d)


def _dyadic(config):
    """The configuration with table means and certificates on the grid 2^-20 (so shifts by integers are exact)."""
    d = config_to_dict(config)
    low = d["instance"]["low"]
    grid = lambda x: round(x * 2**20) / 2**20                                  # noqa: E731
    d["instance"]["mu_high"] = [grid(m) for m in d["instance"]["mu_high"]]
    if low["model"] == "table":
        low["mean_low"] = [[grid(x) for x in row] for row in low["mean_low"]]
        low["certificate"] = [[grid(u) for u in row] for row in low["certificate"]]
    elif low["model"] == "frozen":
        low["values"] = [grid(v) for v in low["values"]]
    return parse_config(d)


def _statuses(config, skip=()):
    return {k: r.status for k, r in check_assumptions(make_problem(config)).items() if k not in skip}


_MODELS = ("power_decay", "table", "frozen", "checkpoint")


@settings(max_examples=40)
@given(configs(noise=st.just("gaussian"), models=_MODELS), st.integers(-2**26, 2**26))
@example(parse_config({"instance": {"mu_high": [0.5, 0.25], "noise": {"model": "gaussian", "sigma": 0.5},
                                    "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5, "signs": [1, -1]}},
                       "costs": {"low": 1.0, "high": 10.0},
                       "params": {"budget": 2000, "delta": 0.05, "rho": "min", "gamma": 0.1, "eta": 1e-4,
                                  "s0": 5}}), 10**8)
def test_shifting_every_mean_changes_no_assumption(config, shift):
    """An integer shift of every mean (exact on the 2^-20 grid of the tables) keeps every assumption's status;
    the old float check failed ass:plugin under a shift of 1e8."""
    base = _dyadic(config) if config.instance.low.model in ("table", "frozen") else config
    assert _statuses(_transform(base, shift=float(shift))) == _statuses(base)


@settings(max_examples=40)
@given(configs(noise=st.just("gaussian"), models=_MODELS), st.integers(-6, 6))
def test_scaling_every_mean_and_noise_changes_no_assumption(config, j):
    """Scaling rewards by 2^j (exact in floats) keeps every assumption's status, except the two tied to an
    absolute unit by the paper: the noise scale <= 1 (sec:problem) and RDFE's dyadic grid eps_r = 2^-r."""
    skip = ("sec:problem:noise", "ass:app-rdfe-dyadic")
    assert _statuses(_transform(config, scale=2.0**j), skip) == _statuses(config, skip)


_BERNOULLI = {"model": "bernoulli"}     # both readings of lem:ci's radius agree (Hoeffding): the interval decides


def _bern(rho="min"):
    return _table([0.5, 0.3], [[0.5], [0.3]], [[0.0], [0.0]], noise=_BERNOULLI, rho=rho)


def test_rho_is_decided_by_interval_arithmetic():
    """rho_min is irrational: rho one part in 1e15 below it fails, above it holds (enclosure width ~1e-77);
    rho = "min" is bounds.min_rho's float, held by definition, with its distance to the exact value shown."""
    p = _bern()
    need = min_rho(0.5, 2, p.horizon, 0.05)
    res = check_assumptions(p)["lem:ci:rho"]
    assert res.held and "rho = min" in res.detail and res.values["interval_width"] < 1e-70
    below = check_assumptions(_bern(need * (1 - 1e-15)))
    assert below["lem:ci:rho"].failed and below["lem:ci:rho"].witness["margin"] < 0
    assert check_assumptions(_bern(need * (1 + 1e-15)))["lem:ci:rho"].held


def test_rho_valid_by_the_gaussian_tail_is_held_and_says_so():
    """Gaussian noise: the paper's reading (sub-Gaussian union bound) and the exact Gaussian tail give two least
    rho; one between them holds lem:ci on the instance, so lem:ci:rho holds, the detail naming the reading used and
    the one not met; below both it fails naming both; inside the exact tail's enclosure it is UNDECIDED."""
    from bounds import rho_readings
    p = _table([0.5, 0.3], [[0.5], [0.3]], [[0.0], [0.0]])
    r = rho_readings("gaussian", 0.1, 2, p.horizon, 0.05)
    assert r.exact < r.subgaussian
    between = check_assumptions(_table([0.5, 0.3], [[0.5], [0.3]], [[0.0], [0.0]],
                                       rho=(r.exact + r.subgaussian) / 2))["lem:ci:rho"]
    assert between.held and between.values["reading"] == "Gaussian exact tail"
    assert (f"least certified {r.exact:.4g} by the Gaussian exact tail (the reading used: the instance's noise); "
            f"{r.subgaussian:.4g} by the sub-Gaussian union bound (the paper's reading) is not met") in between.detail
    low = check_assumptions(_table([0.5, 0.3], [[0.5], [0.3]], [[0.0], [0.0]], rho=r.exact / 2))["lem:ci:rho"]
    assert low.witness["margin"] == pytest.approx(r.exact / 2 - r.exact, rel=1e-12)    # against the deciding one
    assert low.failed and low.detail == (f"rho = {r.exact / 2:.4g}, least certified {r.exact:.4g} by the Gaussian "
                                         f"exact tail, {r.subgaussian:.4g} by the sub-Gaussian union bound (the "
                                         f"paper's reading)")
    inside = check_assumptions(_table([0.5, 0.3], [[0.5], [0.3]], [[0.0], [0.0]],
                                      rho=(r.exact + r.exact_low) / 2))["lem:ci:rho"]
    assert inside.undecided or r.exact == r.exact_low


@pytest.mark.parametrize("ulps", [-1, 1])
def test_rho_one_ulp_from_rho_min_reads_as_a_different_number(ulps):
    """rho one ulp below bounds.min_rho failed with the detail "rho = 2.116, least certified 2.116" (4 significant
    digits of both): both are shown as TOML spells them (the shortest repr that reads back as the float), so the
    detail says they differ; at 4 digits apart they keep 4 digits."""
    need = min_rho(0.5, 2, _bern().horizon, 0.05)
    rho = math.nextafter(need, math.inf * ulps)
    res = check_assumptions(_bern(rho))["lem:ci:rho"]
    assert res.held == (ulps > 0)
    by = "by the Hoeffding bound for rewards in [0, 1]"        # Bernoulli: the sub-Gaussian value at scale 1/2
    assert res.detail == f"rho = {rho!r}, least certified {need!r} {by}" and repr(rho) != repr(need)
    far = check_assumptions(_bern(need / 2))["lem:ci:rho"]
    assert far.detail == f"rho = {need / 2:.4g}, least certified {need:.4g} {by}"
