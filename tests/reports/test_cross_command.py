"""One value per quantity: every quantity that more than one command prints or uses agrees, field by field.

``tacc bounds``, ``tacc simulate``, ``tacc check``, ``tacc explain`` and ``tacc report`` are run with their JSON
output on every preset, and on instances no preset covers (a tie with the best arm, extreme costs, Bernoulli
and Gaussian noise, every low-fidelity model); ``tacc proofs``' radius table is compared with ``tacc bounds`` on
the presets. Numbers are compared exactly: each is computed once, by one function, and only printed by the
commands."""

import json
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bounds import dump_config, load_config, parse_config
from certify.strategies import LOW_MODELS, configs
from reports.report import make_report
from reports.cli import main

PRESETS = ("set-a", "set-b", "llm-residual", "llm-vanishing", "checkpoint")

_BASE = """
name = "{name}"
[instance]
mu_high = {mu}
seed = 1
noise = {noise}
[instance.low]
{low}
[costs]
low = {low_cost}
high = {high_cost}
[params]
budget = {budget}
delta = 0.05
rho = {rho}
gamma = 0.1
eta = 0.05
s0 = 4
"""

#: instances no preset covers: a tie with k*, extreme costs, each noise model, each low-fidelity model.
OWN = {
    "tie": dict(mu="[0.8, 0.8, 0.5]", noise='{ model = "gaussian", sigma = 0.3 }',
                low='model = "power_decay"\nzeta = 0.3\nr = 0.5\nsigns = [1, -1, 1]', low_cost=1.0, high_cost=10.0,
                budget=3000, rho="2.0"),
    "costly": dict(mu="[0.9, 0.6, 0.3]", noise='{ model = "bernoulli" }',
                   low='model = "residual_decay"\nzeta = 0.2\nr = 0.7\nb = 0.02\nsigns = [1, 1, -1]',
                   low_cost=0.001, high_cost=1000.0, budget=40, rho='"min"'),
    "profile": dict(mu="[0.7, 0.5]", noise='{ model = "bernoulli" }',
                       low='model = "checkpoint"\nq = [2, 8]\ngap = [0.2, 0.05]\nq_max = 10\nsigns = [1, -1]',
                       low_cost=1.0, high_cost=5.0, budget=1500, rho='"min"'),
    "table": dict(mu="[0.6, 0.4]", noise='{ model = "gaussian", sigma = 1.0 }',
                  low='model = "table"\nmean_low = [[0.7, 0.6], [0.1, 0.4]]\ncertificate = [[0.1, 0.1], [0.3, 0.3]]',
                  low_cost=1.0, high_cost=4.0, budget=2000, rho="1.9"),
    "frozen": dict(mu="[0.6, 0.3, 0.2]", noise='{ model = "gaussian", sigma = 0.5 }',
                   low='model = "frozen"\nvalues = [0.5, 0.4, 0.1]', low_cost=1.0, high_cost=8.0, budget=2500,
                   rho='"min"'),
}


def test_the_own_instances_cover_every_low_fidelity_model():
    models = {tomllib.loads(_BASE.format(name=n, **kw))["instance"]["low"]["model"] for n, kw in OWN.items()}
    assert models == set(LOW_MODELS)


def _config_arg(name, tmp_path):
    if name in PRESETS:
        return name
    path = tmp_path / f"{name}.toml"
    path.write_text(_BASE.format(name=name, **OWN[name]))
    return str(path)


def _json(tmp_path, capsys, *args):
    out = tmp_path / f"{args[0]}.json"
    assert main([*args, "--json", str(out)]) in (0, 1), capsys.readouterr()
    capsys.readouterr()
    return json.loads(out.read_text())


def _agree(name, quantity, values):
    """Every source of ``values`` ({source: value}) gives the same value, exactly."""
    first, *rest = values.items()
    for source, value in rest:
        assert value == first[1], f"{name}: {quantity}: {source} = {value!r}, {first[0]} = {first[1]!r}"


@pytest.mark.parametrize("name", [*PRESETS, *OWN])
def test_every_shared_quantity_agrees_across_commands(name, tmp_path, capsys):
    _compare(name, _config_arg(name, tmp_path), tmp_path, capsys)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(config=configs(budget=st.integers(40, 1500)))
def test_every_shared_quantity_agrees_on_generated_instances(config, tmp_path_factory, capsys):
    """Generated instances (``certify.strategies.configs``: ties, both noise models, every low-fidelity model)."""
    tmp_path = tmp_path_factory.mktemp("generated")
    path = tmp_path / "generated.toml"
    path.write_text(dump_config(config))
    _compare("generated", str(path), tmp_path, capsys)


def _compare(name, arg, tmp_path, capsys):
    b = _json(tmp_path, capsys, "bounds", arg)
    s = _json(tmp_path, capsys, "simulate", arg, "--policy", "tacc", "--seeds", "0:2", "--no-progress")
    c = _json(tmp_path, capsys, "check", arg, "--policy", "tacc", "--policy", "rdfe", "--seeds", "2", "--evidence",
              "0", "--no-progress", "--reproducers", str(tmp_path / "rep"))
    e = _json(tmp_path, capsys, "explain", arg, "--seed", "0")
    q, arms = b["quantities"], b["arms"]
    col = {key: dict(zip(arms["arm"], arms[key], strict=True)) for key in arms if not key.endswith("_reason")}
    ex = {a["arm"]: a for a in e["arms"]}
    cont = b["continuation"]

    _agree(name, "T", {"bounds": q["horizon"]["value"], "bounds continuation": cont["horizon"],
                       "simulate": s["problem"]["horizon"]})
    _agree(name, "rho", {"bounds": q["rho"]["value"], "bounds continuation": cont["rho"],
                         "simulate": s["problem"]["rho"], "explain": e["rho"]})
    _agree(name, "rho_min", {"bounds": q["rho_min"]["value"], "bounds continuation": cont["rho_min"]})
    _agree(name, "rho_min_exact_tail", {"bounds": q["rho_min_exact_tail"]["value"],
                                        "bounds continuation": cont["rho_least_certified"]})
    _agree(name, "ell", {"bounds": q["ell"]["value"], "simulate": s["problem"]["ell"]})
    _agree(name, "N_gamma", {"bounds": q["n_gamma"]["value"], "bounds continuation": cont["n_gamma"],
                             "simulate": s["problem"]["n_gamma"], "explain": e["n_gamma"]})
    _agree(name, "S0", {"bounds": b["params"]["s0"], "simulate": s["problem"]["s0"], "explain": e["s0"]})
    _agree(name, "k*", {"bounds": b["instance"]["best_arm"], "simulate": s["problem"]["best_arm"]})
    _agree(name, "gap", {"bounds": col["gap"], "explain": {k: a["gap"] for k, a in ex.items()}})
    _agree(name, "tau", {"bounds": col["tau"], "simulate": dict(enumerate(s["problem"]["tau"])),
                         "explain": {k: a["tau"] for k, a in ex.items()},
                         "bounds continuation": dict(zip(cont["arms"]["arm"], cont["arms"]["tau"], strict=True))})
    _agree(name, "class", {"bounds": col["class"], "explain": {k: a["prior_class"] for k, a in ex.items()}})
    _agree(name, "N_H bound", {"bounds": {k: v for k, v in col["high_count_bound"].items() if v is not None},
                               "explain": {k: a["high_bound"] for k, a in ex.items() if a["high_bound"] is not None}})
    _agree(name, "tied with k*", {"bounds": col["tied_with_best"],
                                  "explain": {k: a["tied_with_best"] for k, a in ex.items()},
                                  "by the gaps": {k: g == 0 and k != b["instance"]["best_arm"]
                                                  for k, g in col["gap"].items()}})

    # whether rho is valid for lem:ci, and by which reading: tacc bounds and tacc check decide it alike
    rho_check = c["assumptions"][b["name"]]["lem:ci:rho"]
    _agree(name, "lem:ci:rho held", {"bounds": b["assumptions"]["rho_valid"]["value"], "check": rho_check["held"]})
    _agree(name, "rho valid by", {"bounds": b["assumptions"]["rho_valid"]["reading"], "explain": e["rho_valid_by"]})
    if rho_check["held"]:
        assert b["assumptions"]["rho_valid"]["reading"] in rho_check["detail"], (name, rho_check["detail"])

    # the bounds a judged claim compares with are the bounds tacc bounds prints
    verdicts = {(v["claim"], v["policy"], v["seed"]): v for v in c["verdicts"]}
    for claim, key in (("theorem", "theorem_total"), ("rdfe-theorem", "rdfe_bound"),
                       ("rdfe-theorem-phase-sum", "rdfe_bound_phase_sum"),
                       ("rdfe-theorem-as-stated", "rdfe_bound_paper_form")):
        policy = "tacc" if claim == "theorem" else "rdfe"
        v = verdicts.get((claim, policy, 0))
        if v is not None and v["worst"] is not None and q[key]["value"] is not None:
            _agree(name, key, {"bounds": q[key]["value"], f"check {claim}": v["worst"]["bound"]})
    hc = verdicts.get(("high-count", "tacc", 0))
    if hc is not None and hc["worst"] is not None:
        _agree(name, "N_H bound at check's worst arm", {"bounds": col["high_count_bound"][hc["worst"]["arm"]],
                                                        "check": hc["worst"]["bound"]})

    # one run, seed 0: simulate and explain tell the same run
    run = next(r for r in s["runs"] if r["seed"] == 0)
    _agree(name, "regret", {"simulate": run["regret"], "explain": e["regret"]})
    for key in ("n_low", "n_high", "continuation"):
        _agree(name, key, {"simulate": dict(enumerate(run[key])), "explain": {k: a[key] for k, a in ex.items()}})


@pytest.mark.parametrize("name", ["llm-residual", "tie"])
def test_the_report_uses_the_values_of_tacc_bounds(name, tmp_path, capsys):
    """The report's parameters, per-arm classes, tau and count bounds and the theorem's bound at the full budget
    are tacc bounds' values."""
    arg = _config_arg(name, tmp_path)
    b = _json(tmp_path, capsys, "bounds", arg)
    config = load_config(arg) if name in PRESETS else parse_config(tomllib.loads(_BASE.format(name=name, **OWN[name])))
    budget = config.params.budget
    make_report(config, seeds=range(2), out_dir=tmp_path / "report", policies=("tacc",), budgets=[budget])
    r = json.loads((tmp_path / "report" / "results.json").read_text())
    q, arms = b["quantities"], b["arms"]
    col = {key: dict(zip(arms["arm"], arms[key], strict=True)) for key in arms if not key.endswith("_reason")}
    for key in ("horizon", "rho", "rho_min", "rho_min_exact_tail", "ell", "n_gamma"):
        _agree(name, key, {"bounds": q[key]["value"], "report": r["parameters"][key]})
    _agree(name, "rho_min_exact_tail", {"bounds": q["rho_min_exact_tail"]["value"],
                                        "report continuation": r["continuation"]["rho_least_certified"]})
    _agree(name, "theorem bound", {"bounds": q["theorem_total"]["value"], "report": r["theorem"]["bound_prior"]})
    _agree(name, "theorem bound, C in C^d", {"bounds": q["theorem_total_if_all_cd"]["value"],
                                             "report": r["theorem"]["bound_all_cd"]})
    for a in r["arms"]:
        k = a["arm"]
        _agree(name, f"arm {k}", {"bounds": (col["class"][k], col["tau"][k], col["gap"][k], col["low_count_bound"][k]),
                                  "report": (a["class"], a["tau"], a["gap"], a["low_bound"])})
    _agree(name, "lem:ci:rho held", {"bounds": b["assumptions"]["rho_valid"]["value"],
                                     "report": r["assumptions"]["lem:ci:rho"]["held"]})


def test_the_radius_table_of_tacc_proofs_is_tacc_bounds_values():
    """tacc proofs' rho table (per preset) against tacc bounds: the toolkit's rho is rho_min, the exact-tail column
    of the preset's noise is rho_min_exact_tail, and the paper's rho = 2 is valid by the reading tacc bounds
    names."""
    from bounds import analyze
    from proofs_checks import radius_rows
    for name, _noise, K, T, delta, paper, valid_by, toolkit, _sub, gauss, bern in radius_rows():
        a = analyze(load_config(name))
        r = a.rho_readings
        _agree(name, "rho_min", {"bounds": a.rho_min, "proofs": toolkit})
        _agree(name, "exact tail", {"bounds": r.exact, "proofs": gauss if r.differ else bern})
        _agree(name, "rho = 2 valid by", {"bounds": r.reading(paper) or "neither", "proofs": valid_by})
        _agree(name, "K, T, delta", {"bounds": (a.instance.n_arms, a.horizon, a.config.params.delta),
                                     "proofs": (K, T, delta)})
