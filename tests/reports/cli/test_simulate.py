"""``tacc simulate`` (``reports/cli/simulate.py``): its per-arm table, its JSON, the two engines, the work estimate
and its bad input."""

import json
import subprocess

import pytest

from reports.cli import main
from tests.reports.cli._helpers import TACC, _config


def test_simulate_prints_per_arm_pulls(capsys):
    assert main(["simulate", "llm-residual", "--policy", "tacc", "--seeds", "0:3"]) == 0
    out = capsys.readouterr().out
    assert "per arm, over seeds" in out and "N_L mean" in out and "event (lem:ci)" in out


def test_simulate_labels_arms_as_bounds_does(capsys):
    """The best arm is "optimal" (as in tacc bounds and tacc explain), means print apart where 4 digits read alike
    (1e12 and 0.999999e12), and the class after the run is the class itself when every run gave it."""
    from bounds import parse_config
    from reports.views import _simulate as view
    from reports.views._simulate import render
    cfg = parse_config({"name": "big", "instance": {"mu_high": [1e12, 0.999999e12, 0.99e12],
                                                    "low": {"model": "power_decay", "zeta": 0.1, "r": 0.5}},
                        "costs": {"low": 1.0, "high": 10.0},
                        "params": {"budget": 4000.0, "delta": 0.05, "rho": "min", "gamma": 0.1, "eta": 1e-4,
                                   "s0": 5}})
    from simulate import make_problem, run
    problem = make_problem(cfg)
    summary = view.SimulateSummary(problem)
    for seed in range(2):
        summary.add(run(problem, "tacc", seed))
    rows = {line.split()[0]: line.split() for line in render(summary, "fast")
            .split("per arm, over seeds")[1].splitlines()[3:6]}
    assert rows["0"][1:4] == ["1.00000e+12", "0", "optimal"] and rows["1"][1] == "9.99999e+11"
    assert rows["1"][5] == "A" and view._after(view.Counter({"C^d": 3, "C^u": 2})) == "C^d 3, C^u 2"


def test_simulate_json_matches_the_runs(capsys):
    assert main(["simulate", "checkpoint", "--policy", "rdfe", "--seeds", "2:4", "--json", "-"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert [r["seed"] for r in rec["runs"]] == [2, 3] and rec["problem"]["n_gamma"] > 0
    assert all(r["cost"] <= rec["problem"]["budget"] for r in rec["runs"]) and rec["runs"][0]["phases"]


def test_simulate_reference_engine_gives_the_same_json(capsys):
    assert main(["simulate", "llm-vanishing", "--policy", "lucb", "--seeds", "1", "--json", "-"]) == 0
    fast = json.loads(capsys.readouterr().out)
    assert main(["simulate", "llm-vanishing", "--policy", "lucb", "--seeds", "1", "--engine", "reference",
                 "--json", "-"]) == 0
    ref = json.loads(capsys.readouterr().out)
    assert fast["runs"] == ref["runs"]


@pytest.mark.parametrize("args,field", [(["--policy", "thompson"], "tacc simulate: error: argument --policy"),
                                        (["--policy", "tacc", "--seeds", "x"], "tacc: error: --seeds = ")])
def test_simulate_bad_input_exits_2_naming_the_field(args, field, capsys):
    assert main(["simulate", "llm-residual", *args]) == 2
    assert capsys.readouterr().err.startswith(field)


def test_simulate_refuses_per_run_json_for_too_many_seeds(capsys):
    assert main(["simulate", "llm-residual", "--policy", "tacc", "--seeds", "0:100000000", "--json", "-"]) == 2
    assert capsys.readouterr().err.startswith("tacc: error: --json = ")


def test_simulate_shows_the_first_runs_and_aggregates_all(capsys, monkeypatch):
    import reports.views._simulate as view
    monkeypatch.setattr(view, "MAX_ROWS", 2)
    assert main(["simulate", "llm-residual", "--policy", "tacc", "--seeds", "0:4"]) == 0
    out = capsys.readouterr().out
    assert "first 2 of 4 runs" in out and "event held on 4 of 4 runs" in out


def test_long_work_is_announced_with_its_estimate(tmp_path):
    """A budget of 1e12: one line before any run with the estimate (rounds, runs, time), then it runs. The rounds
    are TACC's bound (reports.estimate.rounds_bound): 3 (N_gamma + S0) low queries and the high queries the rest
    of the budget pays for, not the horizon 10^12."""
    cfg = _config(tmp_path, "budget", "budget = 1000", "budget = 1e12")
    p = subprocess.Popen([TACC, "simulate", cfg, "--policy", "tacc", "--seeds", "2"], stderr=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, text=True, cwd=tmp_path)
    try:
        line = p.stderr.readline()
    finally:
        p.kill()
        p.wait()
    assert "up to 100,000,017,909 rounds per run, up to 2 runs" in line and "time at most about" in line
    assert "hours" in line and "resumes" in line
