"""The ``tacc`` command line: ``tacc bounds`` on every preset, JSON output, exit status 2 on bad input."""

import functools
import json
import subprocess
import sys

import pytest

from bounds import PRESETS
from reports.cli import main
from tests.certify.test_properties import WIDE_GAP  # the accepted finding rdfe-theorem-as-stated


@pytest.mark.parametrize("name", PRESETS)
def test_bounds_json_every_quantity(name, capsys):
    assert main(["bounds", name, "--json", "-"]) == 0
    rec = json.loads(capsys.readouterr().out)
    q = rec["quantities"]
    for key in ("horizon", "rho", "rho_min", "ell", "n_gamma", "theorem_total", "corollary_order_total",
                "rdfe_bound", "rdfe_c1", "rdfe_c2"):
        assert "value" in q[key] and q[key]["label"]
    fields, arms = rec["fields"], rec["arms"]
    for key in ("gap", "tau", "class", "low_count_bound", "high_count_bound", "theorem_term",
                "static_minus_adaptive", "rdfe_low_cost", "rdfe_high_cost", "rdfe_oracle_cost",
                "rdfe_dyadic_constant"):
        assert fields[key]["label"] and fields[key]["meaning"] and fields[key]["unit"]
    # every column is one field's values, one entry per arm; every field has its column
    assert {k for k in arms if not k.endswith("_reason")} == set(fields)
    assert all(len(arms[k]) == rec["instance"]["n_arms"] for k in fields)
    assert arms["arm"] == list(range(rec["instance"]["n_arms"]))


def test_bounds_json_states_each_label_once(tmp_path):
    """A per-arm quantity's label and meaning are written once, whatever the number of arms (they were repeated in
    every arm's entry: 204 MB at 10^5 arms)."""
    texts = {}
    for n in (50, 400):
        path = tmp_path / f"b{n}.toml"
        path.write_text(_SET_B_LIKE.format(n=n, budget=4000 * n))
        out = tmp_path / f"b{n}.json"
        assert main(["bounds", str(path), "--json", str(out)]) == 0
        texts[n] = out.read_text()
    for meaning in ("tau_k(gamma), low-fidelity certification time", "c_k^*(Delta_k / 4)", "smallest C_dyad"):
        assert texts[50].count(f'"{meaning}"') == texts[400].count(f'"{meaning}"') == 1
    assert texts[400].count("tau_k(gamma) is infinite") <= 2       # one reason per column, not per arm


_SET_B_LIKE = """name = "set-b-like"
[instance]
means = {{ distribution = "normal", mean = 0.0, sd = 1.0, n_arms = {n} }}
seed = 0
noise = {{ model = "gaussian", sigma = 1.0 }}
[instance.low]
model = "power_decay"
zeta = 1.0
r = 0.5
signs = "random"
[costs]
low = 1.0
high = 50.0
[params]
budget = {budget}
rho = "min"
gamma = 0.141
eta = 1e-4
s0 = 50
"""


def _unexplained(x, where=""):
    """The path of every JSON null in ``x`` that has no reason: a null under ``key`` in a mapping needs
    ``<key>_reason`` beside it; entry i of a column (a list under ``key``) needs ``<key>_reason`` beside the column,
    mapping a reason to a list of arms that holds the arm of entry i (the mapping's ``arm`` column, else i)."""
    if isinstance(x, dict):
        for k, v in x.items():
            if v is None and not isinstance(x.get(f"{k}_reason"), str):
                yield f"{where}.{k}"
            elif isinstance(v, list) and any(e is None for e in v):
                reasons = x.get(f"{k}_reason")
                arm = x.get("arm", list(range(len(v))))
                explained = {a for arms in reasons.values() for a in arms} if isinstance(reasons, dict) else set()
                yield from (f"{where}.{k}[{i}]" for i, e in enumerate(v) if e is None and arm[i] not in explained)
            yield from _unexplained(v, f"{where}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            if not isinstance(v, list):
                yield from _unexplained(v, f"{where}[{i}]")


def _strict(text):
    def refuse(token):
        raise AssertionError(f"not strict JSON: {token}")
    return json.loads(text, parse_constant=refuse)


def test_bounds_json_gives_every_null_its_reason(tmp_path, capsys):
    """Every null of `tacc bounds --json` has a reason: `<key>_reason` beside a null in a mapping (a quantity's
    `value_reason`), and beside a column with nulls `<key>_reason` mapping each reason to its arms: an infinite
    tau_k (in `arms` and in the continuation's columns), the static-versus-adaptive difference of a non-C arm, an
    empty window, and a corollary constant 0 / 0 when every mean is equal."""
    path = tmp_path / "equal.toml"
    path.write_text('name = "equal"\n[instance]\nmu_high = [0.5, 0.5, 0.5]\n[instance.low]\nmodel = "power_decay"\n'
                    'zeta = 0.2\nr = 0.5\n[costs]\nlow = 1.0\nhigh = 10.0\n[params]\nbudget = 2000\n'
                    'rho = "min"\ngamma = 0.1\neta = 1e-4\ns0 = 10\n')
    for name in ("set-b", "set-a", str(path)):
        assert main(["bounds", name, "--json", "-"]) == 0
        rec = _strict(capsys.readouterr().out)
        assert not list(_unexplained(rec))
    arms, never = rec["arms"], "tau_k(gamma) is infinite: the arm is never certified (eq:analysis-cert-time)"
    assert arms["tau"][1] is None and 1 in arms["tau_reason"][never]
    assert [why for why, ks in arms["static_minus_adaptive_reason"].items() if 1 in ks][0].endswith("C arms")
    assert set(rec["continuation"]["arms"]["window_reason"]) == {"empty: the continuation test passes at no low "
                                                                 "count from N_gamma (0 pulls)"}
    c = rec["quantities"]["corollary_constant"]
    assert c["value"] is None and "0 / 0" in c["value_reason"]           # was 0
    # the check fails when a reason is missing: drop one arm from a reason, or a quantity's reason
    k = arms["tau_reason"][never].pop()
    assert list(_unexplained(rec)) == [f".arms.tau[{k}]"]
    arms["tau_reason"][never].append(k)
    del rec["quantities"]["corollary_constant"]["value_reason"]
    assert list(_unexplained(rec)) == [".quantities.corollary_constant.value"]
    assert main(["bounds", str(path)]) == 0
    assert next(x for x in capsys.readouterr().out.splitlines() if x.startswith("corollary_constant")).split()[1] \
        == "undefined"


def test_bounds_table(capsys):
    assert main(["bounds", "llm-vanishing"]) == 0
    out = capsys.readouterr().out
    assert "thm:analysis-main-regret" in out and "eq:analysis-cert-time" in out and "n_gamma" in out


@pytest.mark.parametrize("extra", [[], ["--json", "-"]])
def test_bounds_imports_neither_simulate_nor_numba(extra):
    """``tacc bounds`` and ``tacc --help`` import what they need only: the other commands' choices (policy and
    engine names, which live in ``simulate``) are read when those commands are used (importing ``simulate`` for
    them brought numba and scipy, 0.7 s of the 2.8 s of ``tacc bounds`` on 10^5 arms)."""
    code = ("import sys; from reports.cli import COMMANDS, build_parser, main; "
            f"assert main(['bounds', 'llm-residual', *{extra!r}]) == 0; "
            "text = build_parser().format_help(); assert all(name in text for name in COMMANDS), text; "
            "print('imported:', sorted(m for m in ('simulate', 'numba', 'scipy') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "imported: []"


def test_a_command_help_lists_its_choices(capsys):
    """The choices read on demand are still in each command's help and checked on parsing."""
    for command, shown in (("simulate", "{fast,reference}"), ("check", "weak-fixed"), ("explain", "rdfe"),
                           ("reproduce", "llm-vanishing")):
        assert main([command, "--help"]) == 0
        assert shown in "".join(capsys.readouterr().out.split())
    assert main(["explain", "llm-residual", "--policy", "thompson"]) == 2
    assert "invalid choice: 'thompson'" in capsys.readouterr().err


@pytest.mark.parametrize("argv, hint", [
    (["reprodce"], "(did you mean reproduce?)"),
    (["simulate", "set-a", "--policy", "tac"], "(did you mean tacc?)"),
    (["check", "set-a", "--policy", "mfucb"], "(did you mean mf-ucb?)"),
    (["report", "--executor", "proc"], "(did you mean processes?)"),
    (["check", "set-a", "--policy", "zzz"], None),
    # an abbreviated option is refused: --seed was taken for --seeds, and "3" ran seeds 0, 1, 2 (a README-only user)
    (["simulate", "set-a", "--policy", "tacc", "--seed", "3"], "(did you mean --seeds?)"),
    (["bounds", "set-a", "--jsn", "x.json"], "(did you mean --json?)"),
    (["check", "set-a", "--policy", "MF-UCB"], "(did you mean mf-ucb?)"),                 # another case
])
def test_a_misspelled_choice_gets_the_nearest_suggested(capsys, argv, hint):
    """A command, a policy, an executor or an option misspelled (or abbreviated): exit 2, argparse's line with the
    nearest choice suggested (the configuration's did-you-mean); none when no choice is near."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert ("invalid choice" in err or "unrecognized arguments" in err) and err.count("\n") == 1
    if hint is None:
        assert "did you mean" not in err
    else:
        assert hint in err


def test_bad_config_exits_2_naming_the_field(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('[instance]\nmu_high = [0.5, 0.4]\n[instance.low]\nmodel = "frozen"\nvalues = [0.1, 0.9]\n'
                 '[costs]\nlow = -1\nhigh = 2\n[params]\nbudget = 10\ngamma = 0.1\neta = 0.001\ns0 = 1\n')
    r = subprocess.run([sys.executable, "-m", "reports.cli", "bounds", str(p)], capture_output=True, text=True)
    assert r.returncode == 2
    assert "costs.low" in r.stderr and "-1" in r.stderr
    assert "Traceback" not in r.stderr


def test_unknown_preset_and_usage_exit_2():
    r = subprocess.run([sys.executable, "-m", "reports.cli", "bounds", "set-z"], capture_output=True, text=True)
    assert r.returncode == 2 and "config" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "reports.cli", "nonsense"], capture_output=True, text=True)
    assert r.returncode == 2


def test_simulate_prints_per_arm_pulls(capsys):
    assert main(["simulate", "llm-residual", "--policy", "tacc", "--seeds", "0:3"]) == 0
    out = capsys.readouterr().out
    assert "per arm, over seeds" in out and "N_L mean" in out and "event (lem:ci)" in out


def test_simulate_labels_arms_as_bounds_does(capsys):
    """The best arm is "optimal" (as in tacc bounds and tacc explain), means print apart where 4 digits read alike
    (1e12 and 0.999999e12), and the class after the run is the class itself when every run gave it."""
    from bounds import parse_config
    from reports import _simulate_view as view
    from reports._simulate_view import render
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


def test_check_passes_and_writes_junit(tmp_path, capsys):
    junit = tmp_path / "j.xml"
    assert main(["check", "llm-residual", "--seeds", "3", "--evidence", "0", "--junit", str(junit),
                 "--reproducers", str(tmp_path / "rep")]) == 0
    out = capsys.readouterr().out
    assert "PASS: no new violation" in out and "thm:analysis-main-regret" in out
    xml = junit.read_text()
    assert "<testsuite" in xml and 'failures="0"' in xml and "thm:analysis-main-regret.theorem" in xml


def test_check_exits_1_on_a_violation_and_0_once_accepted(tmp_path, monkeypatch, capsys):
    from dataclasses import replace

    import certify._check as check_module
    from certify import claim
    from certify._claims import Measurement

    bad = replace(claim("high-count"), measure=lambda ctx, rec: [Measurement("N_H", 0, 1, arm=1)])
    real = check_module.claims_for
    monkeypatch.setattr(check_module, "claims_for",
                        lambda p: tuple(bad if c.key == "high-count" else c for c in real(p)))
    args = ["check", "llm-vanishing", "--seeds", "2", "--policy", "tacc", "--evidence", "0",
            "--reproducers", str(tmp_path / "rep"), "--junit", str(tmp_path / "j.xml")]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert "[NEW] high-count" in out and "FAIL: 2 new violation(s)" in out
    assert 'failures="1"' in (tmp_path / "j.xml").read_text()
    base = tmp_path / "base.json"
    base.write_text('[{"claim": "high-count", "config": "llm-vanishing"}]')
    assert main(args + ["--baseline", str(base)]) == 0


@pytest.mark.parametrize("args,field", [(["--policy", "nope"], "tacc check: error: argument --policy"),
                                        (["--random", "-1"], "tacc check: error: argument --random"),
                                        (["--baseline", "/no/such.json"], "tacc: error: --baseline = "),
                                        (["--seeds", "x"], "tacc: error: --seeds = ")])
def test_check_bad_input_exits_2(args, field, capsys):
    assert main(["check", "llm-residual", "--evidence", "0", *args]) == 2
    assert capsys.readouterr().err.startswith(field)


def test_proofs_table_and_exit_status(tmp_path, capsys, monkeypatch):
    assert main(["proofs", "--baseline", "repo", "--json", str(tmp_path / "p.json")]) == 0
    out = capsys.readouterr().out
    assert "cor.n-gamma-substitution" in out and "REFUTED (baseline)" in out and "PASS:" in out
    assert "hypotheses needed" in out and "premises" not in out      # one word, as the column and the README say
    doc = json.loads((tmp_path / "p.json").read_text())
    rows, n = doc["steps"], doc["summary"]
    assert {r["result"] for r in rows} == {"PROVED", "REFUTED", "UNKNOWN"}
    # the summary and the rho table printed under the table are in the JSON too, with the same numbers
    assert n["steps"] == len(rows) and n["pass"] and not n["failures"]
    assert (f"{n['steps']} steps: {n['PROVED']} PROVED, {n['REFUTED']} REFUTED, {n['UNKNOWN']} UNKNOWN; "
            f"{n['proved_with_a_refused_mutant']} of {n['proved_mutated']} PROVED steps have a refused mutant "
            f"({n['mutants_refused']} of {n['mutants']} mutants refused)") in out
    assert n["REFUTED"] == sum(r["result"] == "REFUTED" for r in rows)
    from proofs_checks import radius_rows
    assert [r["preset"] for r in doc["rho"]] == [r[0] for r in radius_rows()] and all(
        f"{r['toolkit']:.6g}" in out for r in doc["rho"])
    assert all(r["accepted_by_baseline"] for r in rows if r["result"] == "REFUTED")
    assert all(r["mutation"]["refused"] + r["mutation"]["needed"] > 0 for r in rows if r["result"] == "PROVED")
    # the exit status on a subset of the steps (every step takes a minute of wall time on this machine)
    import proofs_checks
    monkeypatch.setattr(proofs_checks, "STEPS", tuple(s for s in proofs_checks.STEPS
                                                      if s.sid in ("cor.n-gamma-substitution", "cor.absorb-start",
                                                                   "high-selection.count")))
    assert main(["proofs", "--json", str(tmp_path / "f.json")]) == 1    # the paper's findings are refuted steps
    assert "FAIL: refuted (not in the baseline): cor.n-gamma-substitution, cor.absorb-start" in capsys.readouterr().out
    n = json.loads((tmp_path / "f.json").read_text())["summary"]
    assert not n["pass"] and n["failures"] == {"refuted (not in the baseline)": ["cor.n-gamma-substitution",
                                                                                   "cor.absorb-start"]}
    partial = tmp_path / "b.json"
    partial.write_text('["cor.n-gamma-substitution"]')
    assert main(["proofs", "--baseline", str(partial)]) == 1


def test_proofs_table_cuts_long_cells_unless_wide(capsys, monkeypatch):
    import proofs_checks
    monkeypatch.setattr(proofs_checks, "STEPS", tuple(s for s in proofs_checks.STEPS
                                                      if s.sid in ("cor.n-gamma-substitution", "lem-ci.triangle")))
    main(["proofs"])
    short = capsys.readouterr().out
    main(["proofs", "--wide"])
    wide = capsys.readouterr().out
    width = max(map(len, short.splitlines()))
    assert width < max(map(len, wide.splitlines()))                 # a cell was cut ...
    assert "--wide prints them in full" in short and "--wide prints them in full" not in wide
    assert width <= 400                                             # ... and the table fits the cut widths


def test_proofs_coverage(capsys):
    assert main(["proofs", "--coverage"]) == 0
    out = capsys.readouterr().out
    assert "l.941" in out and "high-selection.total [PROVED]" in out and "0 with neither" in out


def test_proofs_coverage_as_json_is_the_table_s_rows(tmp_path, capsys, monkeypatch):
    """--coverage --json PATH wrote nothing and --json - printed the text table: now the table's rows and counts as
    JSON (to PATH beside the printed table, or alone on standard output), and a statement neither checked nor
    explained turns the summary's pass false and the exit status 1."""
    import proofs_checks
    monkeypatch.setattr(proofs_checks, "STEPS", tuple(s for s in proofs_checks.STEPS
                                                      if s.sid in ("high-selection.total", "lem-ci.triangle")))
    assert main(["proofs", "--coverage", "--json", str(tmp_path / "pc.json")]) == 0
    table = capsys.readouterr().out
    got = json.loads((tmp_path / "pc.json").read_text())
    assert "l.941" in table and f"{len(got['statements'])} statements:" in table
    (row,) = [r for r in got["statements"] if r["line"] == 941]
    assert "high-selection.total [PROVED]" in row["checked_by"] and "high-selection.total [PROVED]" in table
    assert got["summary"] == {"statements": len(got["statements"]), "checked": got["summary"]["checked"],
                              "reason_only": len(got["statements"]) - got["summary"]["checked"], "neither": 0,
                              "pass": True}
    assert main(["proofs", "--coverage", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == got              # JSON alone on standard output
    rows = proofs_checks.coverage_rows()
    monkeypatch.setattr(proofs_checks, "coverage_rows", lambda results: rows + [(1, "sec:x", "new", "-", "")])
    assert main(["proofs", "--coverage", "--json", "-"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["neither"] == 1 and not out["summary"]["pass"]
    assert out["statements"][-1] == {"line": 1, "where": "sec:x", "statement": "new", "checked_by": [], "reason": ""}


def test_proofs_bad_baseline_exits_2(tmp_path, capsys):
    bad = tmp_path / "b.json"
    bad.write_text("{}")
    assert main(["proofs", "--baseline", str(bad)]) == 2
    assert capsys.readouterr().err.startswith("tacc: error: --baseline = ")


def test_report_command_on_the_default_on_a_dask_scheduler(tmp_path, capsys):
    """``tacc report`` takes --scheduler and --cache as the other commands that make runs do (it had neither: with
    ``--executor dask`` only a local cluster): its runs are made by that scheduler's worker (a scheduler in this
    process, started in a fraction of a second) and kept in the cache folder, not in OUT/runs."""
    import distributed

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        (worker,) = cluster.workers.values()
        assert main(["report", "--seeds", "3", "--out", str(tmp_path / "r"), "--executor", "dask", "--scheduler",
                     cluster.scheduler_address, "--cache", str(tmp_path / "c"), "--no-progress"]) == 0
        assert worker.state.executed_count > 0
    out = capsys.readouterr().out
    assert "report written to" in out and "No claim of the paper was VIOLATED" in out
    assert (tmp_path / "r" / "report.md").is_file() and (tmp_path / "r" / "results.json").is_file()
    assert (tmp_path / "c" / "runs.sqlite").is_file() and not (tmp_path / "r" / "runs").exists()


def test_reproduce_command_quick(tmp_path, capsys):
    assert main(["reproduce", "decay", "--quick", "--out", str(tmp_path), "--executor", "serial"]) == 0
    assert "claims reproduced" in capsys.readouterr().out
    assert (tmp_path / "decay.md").is_file() and (tmp_path / "README.md").is_file()


def test_bounds_shows_the_continuation_window(capsys):
    """`tacc bounds` prints and writes the continuation window: on Set A it is empty at every arm and it says why."""
    assert main(["bounds", "set-a", "--json", "-"]) == 0
    cont = json.loads(capsys.readouterr().out)["continuation"]
    assert cont["label"] == "eq:fidelity-selection" and not cont["can_fire"]
    assert set(cont["arms"]["pulls"]) == {0} and all(w is None for w in cont["arms"]["window"])
    assert 0 < cont["rho_max"] < cont["rho_min"] and cont["fires_only_below_rho_min"]
    assert "cannot fire" in cont["summary"] and "below 2 eta gamma" in cont["summary"]
    assert main(["bounds", "llm-residual"]) == 0
    out = capsys.readouterr().out
    assert "continuation window (eq:fidelity-selection)" in out and "14023..14065" in out


def test_bounds_shows_rho_one_ulp_below_rho_min_as_a_different_number(tmp_path, capsys):
    """rho one ulp below rho_min printed "rho 2.116" and "rho_min 2.116" beside "rho_valid FAILED", and the
    continuation header "rho = 2.116 (rho_min 2.116)": both with the digits that tell them apart."""
    import math

    from bounds import analyze, config_to_dict, dump_config, load_config, parse_config

    d = config_to_dict(load_config("set-a"))
    need = analyze(parse_config(d)).rho_min
    d["params"]["rho"] = rho = math.nextafter(need, 0)
    config = tmp_path / "ulp.toml"
    config.write_text(dump_config(parse_config(d)))
    assert main(["bounds", str(config)]) == 0
    out = capsys.readouterr().out
    cells = {line.split()[0]: line.split()[1] for line in out.splitlines() if line.startswith(("rho ", "rho_min "))}
    assert cells["rho"] != cells["rho_min"] and float(cells["rho"]) == rho and float(cells["rho_min"]) == need
    assert f"rho = {cells['rho']} (rho_min {cells['rho_min']}; 1.815 by the noise's exact tail)" in out
    # on set-a's Gaussian noise that rho is valid by the exact tail (least 1.815), not by the sub-Gaussian reading
    assert next(line for line in out.splitlines() if line.startswith("rho_valid")).split()[1] == "held"
    assert "by the Gaussian exact tail" in out
    # on Bernoulli noise both readings agree (Hoeffding): one ulp below rho_min is FAILED
    d = config_to_dict(load_config("llm-residual"))
    d["params"]["rho"] = math.nextafter(analyze(parse_config(d)).rho_min, 0)
    config.write_text(dump_config(parse_config(d)))
    assert main(["bounds", str(config)]) == 0
    out = capsys.readouterr().out
    assert "FAILED" in next(line for line in out.splitlines() if line.startswith("rho_valid"))


def test_simulate_refuses_per_run_json_for_too_many_seeds(capsys):
    assert main(["simulate", "llm-residual", "--policy", "tacc", "--seeds", "0:100000000", "--json", "-"]) == 2
    assert capsys.readouterr().err.startswith("tacc: error: --json = ")


def test_simulate_shows_the_first_runs_and_aggregates_all(capsys, monkeypatch):
    import reports._simulate_view as view
    monkeypatch.setattr(view, "MAX_ROWS", 2)
    assert main(["simulate", "llm-residual", "--policy", "tacc", "--seeds", "0:4"]) == 0
    out = capsys.readouterr().out
    assert "first 2 of 4 runs" in out and "event held on 4 of 4 runs" in out


@pytest.mark.parametrize("args", [["report", "--from", "{d}/saved", "--out", "{d}/out"], ["runs", "{d}/saved"]])
def test_reading_saved_runs_without_pandas_is_refused_before_any_work(tmp_path, capsys, monkeypatch, args):
    """The tables extra missing: one line naming the option and the extra, exit 2, nothing written (it read the
    saved runs for seconds, then said "tables = 'pandas'")."""
    import importlib.util
    find = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pandas" else find(name, *a))
    (tmp_path / "saved").mkdir()
    argv = [a.format(d=tmp_path) for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"tacc: error: {'--from' if args[0] == 'report' else 'dir'} = ")
    assert "pip install '.[tables]'" in err
    assert not (tmp_path / "out").exists()


def test_a_window_no_low_count_reaches_says_so():
    # budget 11 on two arms: T = 11 < N_gamma, so the counts where the test passes are never reached (the table
    # showed the window 942..950 beside "continuation cannot fire")
    from bounds import analyze, config_to_dict, continuation_of, load_config, parse_config
    from reports._continuation_view import render
    d = config_to_dict(load_config("llm-residual"))
    d["params"]["budget"] = 11.0 * d["costs"]["low"]
    c = continuation_of(analyze(parse_config(d)))
    assert not c.window.reachable and any(c.window.pulls)
    rows = [line for line in render(c).splitlines() if ".." in line and "N_gamma" not in line]
    assert rows and all("not below T" in line for line in rows), rows


@pytest.mark.parametrize("delay", [0.3, 1.0, 2.5])
def test_ctrl_c_at_any_moment_ends_with_one_line(tmp_path, delay):
    # a terminal's Ctrl-C reaches the whole process group: while the command line imported its libraries, and
    # while the figures' helper or a worker was starting, it printed KeyboardInterrupt tracebacks (and an
    # interrupted report waited 36 s for a worker that had not taken the signal)
    import os
    import signal
    import time
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from reports.cli import script; sys.exit(script())",
                             "report", "--seeds", "50", "--out", str(tmp_path / "r")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            # Ctrl-C as a terminal gives it: a test runner started in the background (`cmd &` in a
                            # script) ignores SIGINT, and a child would inherit that and never see the signal
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1].endswith("interrupted"), err
    assert not list(tmp_path.rglob("*.partial"))


@pytest.mark.parametrize("delay", [0.6, 1.2, 2.0, 4.0])
def test_ctrl_c_with_the_dask_executor_ends_with_one_line(tmp_path, delay):
    # `--executor dask` interrupted printed 69 lines: distributed's warnings, the tracebacks of "Process Dask
    # Worker process (from Nanny)" (the workers took the Ctrl-C, sent to the whole process group) and a nanny's
    # error; interrupted while the cluster started, the nannies logged "Restarting worker" after the line
    import os
    import signal
    import time
    pytest.importorskip("distributed")
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from reports.cli import script; sys.exit(script())",
                             "simulate", "set-a", "--policy", "tacc", "--seeds", "0:400", "--executor", "dask",
                             "--workers", "2", "--cache", str(tmp_path / "c")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            # Ctrl-C as a terminal gives it (a test runner in the background ignores SIGINT)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130, err
    assert err.splitlines() == ["tacc simulate: interrupted"], err
    deadline = time.monotonic() + 10                     # and no worker or nanny is left
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("a process of the command's group outlived it")


@pytest.mark.parametrize("delay, group", [(1.0, False), (3.0, True)])
def test_sigterm_is_taken_as_ctrl_c_with_one_line(tmp_path, delay, group):
    # `timeout 20 tacc report` (SIGTERM to the process and its group): no line was printed, the exit status was
    # -15, and multiprocessing's resource tracker printed "There appear to be 5 leaked semaphore objects"
    import os
    import signal
    import time
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from reports.cli import script; sys.exit(script())",
                             "report", "--seeds", "50", "--out", str(tmp_path / "r")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(delay)
    if group:
        os.killpg(proc.pid, signal.SIGTERM)
    else:
        proc.send_signal(signal.SIGTERM)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 143, err
    lines = err.strip().splitlines()
    assert lines and lines[-1] == "tacc report: terminated", err
    assert "Traceback" not in err and "leaked" not in err, err
    assert not list(tmp_path.rglob("*.partial"))


@pytest.mark.parametrize("sig, word", [("SIGTERM", "terminated"), ("SIGINT", "interrupted")])
@pytest.mark.parametrize("argv, name", [(["bounds"], "tacc bounds"), (["--debug", "report", "--seeds", "3"],
                                                                       "tacc report"),
                                        (["reprot", "bounds"], "tacc")])
def test_a_signal_while_the_command_line_imports_ends_with_one_line(sig, word, argv, name):
    # a SIGTERM before reports.cli.main installed its handler (the import of its libraries takes over a second on
    # a loaded machine) killed the process silently: exit -15, no line; then the line said `tacc: interrupted`
    # where the README promises `tacc COMMAND: interrupted` (the command is named when argv names one: its first
    # argument that is not an option)
    import signal
    code = ("import os, signal, sys\n"
            "class Kill:\n"                       # a finder that sends the signal when reports.cli is imported
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'bounds':\n"
            f"            os.kill(os.getpid(), signal.{sig})\n"
            "        return None\n"
            "sys.meta_path.insert(0, Kill())\n"
            "from reports.cli import script\n"
            "sys.exit(script())\n")
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=60,
                          # Ctrl-C as a terminal gives it (a test runner in the background ignores SIGINT)
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.returncode == 128 + getattr(signal, sig), proc.stderr
    assert proc.stderr.strip().splitlines() == [f"{name}: {word}"], proc.stderr


@pytest.mark.parametrize("argv, name", [(["bounds", "set-a"], "tacc bounds"), (["--debug", "proofs"], "tacc proofs"),
                                        (["--debug"], "tacc"), (["nosuch", "report"], "tacc"), ([], "tacc")])
def test_an_interrupt_while_the_arguments_are_parsed_names_the_command(monkeypatch, capsys, argv, name):
    """A Ctrl-C or SIGTERM while the parser imports what a subcommand's arguments list said `tacc: interrupted`:
    the command is named when argv names one (its first argument that is not an option), as after parsing."""
    import signal

    from reports import cli
    from reports.cli import COMMANDS, stopped_name

    assert COMMANDS == tuple(next(a for a in cli.build_parser()._actions if a.dest == "command").choices)
    for sig, status, word in ((signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")):
        class Parser:
            def parse_args(self, args, sig=sig):
                if sig == signal.SIGTERM:
                    signal.raise_signal(sig)          # the command line's handler raises its interrupt
                raise KeyboardInterrupt
        monkeypatch.setattr("reports.cli._main.build_parser", Parser)
        assert main(argv) == status
        assert capsys.readouterr().err == f"{name}: {word}\n"
    assert stopped_name(["--version"]) == "tacc" and stopped_name(["explain", "bench"]) == "tacc explain"


def test_sigterm_handler_is_restored_after_the_command(monkeypatch, capsys):
    """The command line's SIGTERM handler lives only while a command runs (library use keeps its own)."""
    import signal
    before = signal.getsignal(signal.SIGTERM)
    seen = []

    def command(args, options):
        seen.append(signal.getsignal(signal.SIGTERM))
        signal.raise_signal(signal.SIGTERM)
        raise AssertionError("not reached: SIGTERM ends the command")
    monkeypatch.setattr("reports.cli.bounds.run", command)
    assert main(["bounds", "set-a"]) == 143
    assert capsys.readouterr().err == "tacc bounds: terminated\n"
    assert seen and seen[0] is not before and signal.getsignal(signal.SIGTERM) is before


def test_an_interrupt_or_error_ends_every_child_process(monkeypatch, capsys):
    # `tacc report` interrupted on a full cache printed "interrupted", then Python's exit waited forever for two
    # idle workers of a pool nobody shut down (its sweep's generator was not closed): the command line now kills
    # its children before it returns
    import multiprocessing

    from simulate._runner import _Pool
    workers = []

    def stopped(args, options):
        pool = _Pool("processes", 2, None)
        pool.start()                                     # (a pool starts with its first task)
        workers.extend(pool.pool._processes.values())
        assert len(workers) == 2 and all(p.is_alive() for p in workers)
        raise KeyboardInterrupt
    monkeypatch.setattr("reports.cli.bounds.run", stopped)
    assert main(["bounds", "set-a"]) == 130
    assert not any(p.is_alive() for p in workers)
    assert not set(workers) & set(multiprocessing.active_children())
    assert capsys.readouterr().err == "tacc bounds: interrupted\n"



@pytest.fixture
def quick_connect(monkeypatch):
    """``simulate.connect`` (the command's and the runner's) giving up after 0.3 s instead of 10 s."""
    import simulate
    import simulate._runner as runner
    quick = functools.partial(runner.connect, timeout=0.3)
    monkeypatch.setattr(simulate, "connect", quick)
    monkeypatch.setattr(runner, "connect", quick)


def test_a_scheduler_that_does_not_answer_exits_2_naming_the_option(quick_connect, capsys):
    # `--scheduler tcp://127.0.0.1:1`: exit 3 "internal error: OSError: Timed out trying to connect" after 30 s
    port = _closed_port()
    status = main(["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2", "--executor", "dask",
                   "--scheduler", f"tcp://127.0.0.1:{port}", "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert err == [f"tacc: error: --scheduler = 'tcp://127.0.0.1:{port}': no Dask scheduler answered there within "
                   f"0.3 s; is one running at that address?"]


def _closed_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tree(folder) -> list:
    """Every path under ``folder`` with its bytes (None for a folder)."""
    return sorted((str(p), p.read_bytes() if p.is_file() else None) for p in folder.rglob("*"))


#: every command that takes --scheduler, on little work; the options naming its output folders
_SCHEDULED = {"check": (["check", "set-a", "--seeds", "2", "--evidence", "0", "--policy", "tacc"], ["--cache"]),
              "simulate": (["simulate", "set-a", "--policy", "tacc", "--seeds", "2"], ["--cache"]),
              "reproduce": (["reproduce", "decay", "--quick"], ["--out", "--cache"]),
              "report": (["report", "--seeds", "2"], ["--out", "--cache"])}


@pytest.mark.parametrize("command", list(_SCHEDULED))
@pytest.mark.parametrize("address", ["notanaddress", "closed"])
@pytest.mark.parametrize("folders", ["default", "existing"])
def test_a_refused_scheduler_writes_nothing(command, address, folders, tmp_path, monkeypatch, quick_connect,
                                            capsys):
    """Exit 2 for a scheduler that does not parse or does not answer says "nothing was run": nothing is written
    either. The commands left CACHE/configs/*.json (saved before the first run was handed to the scheduler) and
    an empty output folder (``tacc reproduce`` made it first); an existing folder given to --out or --cache is left
    as it was, and the default ones (./tacc-report, ./tacc-reproduce) are not made."""
    monkeypatch.chdir(tmp_path)
    args, options = _SCHEDULED[command]
    args = [*args, "--executor", "dask", "--no-progress"]
    if folders == "existing":
        for option in options:
            folder = tmp_path / option.strip("-")
            (folder / "configs").mkdir(parents=True)
            (folder / "configs" / "mine.json").write_text("{}")
            (folder / "notes.txt").write_text("mine")
            args += [option, str(folder)]
    address = f"tcp://127.0.0.1:{_closed_port()}" if address == "closed" else address
    before = _tree(tmp_path)
    assert main([*args, "--scheduler", address]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"tacc: error: --scheduler = '{address}': ")
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("args, option", [
    (["simulate", "set-a", "--policy", "tacc", "--executor", "processes", "--scheduler", "tcp://h:8786"],
     "--scheduler = 'tcp://h:8786': is used only with --executor dask (the executor is processes"),
    (["check", "set-a", "--scheduler", "tcp://h:8786"],
     "--scheduler = 'tcp://h:8786': is used only with --executor dask (the executor is serial"),
    (["report", "--from", ".", "--out", "../out", "--executor", "dask", "--scheduler", "tcp://h:8786"],
     "--scheduler = 'tcp://h:8786': makes no run with --from"),
    (["report", "--from", ".", "--out", "../out", "--cache", "c"], "--cache = 'c': makes no run with --from"),
])
def test_a_scheduler_or_cache_the_runs_would_not_use_is_refused(args, option, tmp_path, monkeypatch, capsys):
    """--scheduler without --executor dask was ignored without a word (the runs were made here); with
    ``report --from`` no run is made, so neither a scheduler nor a cache is used."""
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tacc: error: {option}") and err.count("\n") == 1
    assert not list(tmp_path.iterdir())


def test_report_baseline_accepts_what_check_accepts_and_says_why(tmp_path, capsys):
    """`tacc report CONFIG` exited 1 on the repository's accepted finding, which `tacc check CONFIG --baseline repo`
    passes: with the same --baseline it exits 0 and says which VIOLATED verdicts the baseline accepted and why (its
    reason); without it, the same verdict is new (exit 1) and the report says how to accept known findings."""
    from certify import BASELINE

    why = json.loads(BASELINE.read_text())[0]["why"]
    config = tmp_path / "wide.toml"
    config.write_text(WIDE_GAP)
    seeds = ["--seeds", "523228462:523228463", "--executor", "serial"]
    assert main(["check", str(config), "--policy", "rdfe", *seeds, "--evidence", "0", "--baseline", "repo",
                 "--reproducers", str(tmp_path / "rep")]) == 0
    assert "[accepted by the baseline] rdfe-theorem-as-stated" in capsys.readouterr().out
    out = tmp_path / "report"
    assert main(["report", str(config), *seeds, "--out", str(out), "--baseline", "repo"]) == 0
    printed = capsys.readouterr().out
    conclusion = next(line for line in printed.splitlines() if "VIOLATED verdict(s)" in line)
    assert ("1 accepted by the baseline (rdfe-theorem-as-stated (thm:app-rdfe-regret) on targeted-decay, 1 verdict(s), "
            f"because {why.rstrip('.')}); 0 new") in conclusion
    md = (out / "report.md").read_text()
    assert "- [accepted by the baseline] rdfe-theorem-as-stated (thm:app-rdfe-regret), rdfe, seed 523228462" in md
    assert f"- rdfe-theorem-as-stated (thm:app-rdfe-regret) on targeted-decay, 1 verdict(s): {why}" in md
    cert = json.loads((out / "results.json").read_text())["certificate"]
    assert cert["ok"] and cert["baseline"] and [v["why"] for v in cert["violations"]] == [why]
    assert cert["accepted"] == [{"claim": "rdfe-theorem-as-stated", "label": "thm:app-rdfe-regret",
                                 "config": "targeted-decay", "why": why, "verdicts": 1}]
    # the same runs, without the baseline: a new finding, and the report says how known findings are accepted
    assert main(["report", str(config), *seeds, "--out", str(out)]) == 1
    printed = capsys.readouterr().out
    assert "1 VIOLATED verdict(s), every one new (no --baseline was given: `--baseline repo`" in printed
    assert "- [NEW] rdfe-theorem-as-stated" in (out / "report.md").read_text()
    # a baseline of your own, as tacc check reads it: an entry without a reason says so
    own = tmp_path / "own.json"
    own.write_text('[{"claim": "rdfe-theorem-as-stated", "config": "targeted-decay"}]')
    assert main(["report", str(config), *seeds, "--out", str(out), "--baseline", str(own)]) == 0
    assert "because the baseline gives no reason); 0 new" in capsys.readouterr().out
    # rebuilt from the saved runs, the baseline is read the same way
    assert main(["report", "--from", str(out / "runs"), "--out", str(tmp_path / "again"), "--baseline", "repo"]) == 0


#: a child that runs the console script's ``main`` with a signal (SIGINT or SIGTERM) sent at one moment of its life:
#: just before or just after the N-th call of ``signal.signal`` (the handlers installed, put back and, at the end, set
#: aside), when ``reports.cli.main`` has returned, in an exit function (``atexit``) or while Python finalizes its
#: modules (after it stopped handling signals: a default SIGINT killed the process there, with no line)
_LATE_SIGNAL = """\
import atexit, os, signal, sys
moment, sig = sys.argv.pop(1), sys.argv.pop(1)
kill, pid, signum = os.kill, os.getpid(), getattr(signal, sig)
if moment.startswith("call"):
    real, calls, (when, n) = signal.signal, [], moment[4:].split("-")
    def counting(*a):
        calls.append(a)
        if when == "before" and len(calls) == int(n):
            kill(pid, signum)
        previous = real(*a)
        if when == "after" and len(calls) == int(n):
            kill(pid, signum)
        return previous
    signal.signal = counting
elif moment == "returned":
    import reports.cli._main
    cli_main = reports.cli._main.main
    def returned(*a):
        status = cli_main(*a)
        kill(pid, signum)
        return status
    reports.cli._main.main = returned
elif moment == "atexit":
    atexit.register(kill, pid, signum)
elif moment == "finalizing":
    class Late:
        def __del__(self, kill=kill, pid=pid, signum=signum):
            kill(pid, signum)
    late = Late()
from reports.cli import script
sys.exit(script())
"""


_SIGNALS = [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")]
_MOMENTS = [f"call{when}-{n}" for when in ("before", "after") for n in range(1, 9)] + ["returned", "atexit",
                                                                                        "finalizing"]


@pytest.mark.parametrize("moment, sig, status, word", [(m, *s) for m in _MOMENTS for s in _SIGNALS
                                                       if (m, s[0]) != ("callbefore-1", "SIGTERM")])
def test_a_signal_from_the_first_line_to_the_exit_ends_the_command_or_interrupts_it(moment, sig, status, word):
    # `timeout -s INT 0.3 tacc reprot` ended with a traceback from `with _SigtermAsInterrupt()` (its
    # `signal.signal`), outside any `try`; a Ctrl-C after the output, once Python's exit restored the default
    # handler, killed the process silently (return code -2, or 130 after `tacc reprot`'s usage error, no line).
    # Either the command completed (its status, nothing more on standard error) or it was interrupted (its line,
    # 130 or 143). A SIGTERM before the first call (the toolkit's first line) finds no handler: as during Python's
    # start, it kills the process (the README says so): not tried
    import signal
    proc = subprocess.run([sys.executable, "-c", _LATE_SIGNAL, moment, sig, "bounds", "set-b"], capture_output=True,
                          text=True, timeout=120,
                          # Ctrl-C as a terminal gives it (a test runner in the background ignores SIGINT)
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert (proc.returncode, proc.stderr) in ((0, ""), (status, f"tacc bounds: {word}\n")), (proc.returncode,
                                                                                             proc.stderr)
    if moment in ("returned", "atexit", "finalizing"):         # after the command's output
        assert "N_gamma" in proc.stdout, proc.stdout


@pytest.mark.parametrize("command", ["simulate", "explain"])
def test_a_policy_given_twice_to_a_one_policy_command_is_refused(command, tmp_path, capsys, monkeypatch):
    """`tacc simulate --policy dnc --policy tacc` ran TACC alone without a word (argparse keeps the last value;
    `tacc check` takes the option repeatedly): exit 2, one line naming the option and both values, nothing run."""
    monkeypatch.chdir(tmp_path)
    assert main([command, "set-a", "--policy", "dnc", "--policy", "tacc", "--seed" if command == "explain" else
                 "--seeds", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "argument --policy: given twice (dnc, then tacc)" in err[0]
    assert not list(tmp_path.iterdir())
    assert main([command, "set-a", "--policy", "dnc", "--seed" if command == "explain" else "--seeds", "1"]) == 0


@pytest.mark.parametrize("name", ["x/y", "/../../pwned", "a\\b c"])
def test_explain_figure_files_stay_in_out_whatever_the_configuration_name(name, tmp_path, monkeypatch):
    """`tacc explain --out` named its figure after the configuration unchanged: "x/y" crashed (exit 3, after the
    table) and "/../../pwned" wrote outside --out (a README-only user); the name is made safe (certify.file_stem)."""
    from bounds import config_to_dict, dump_config, load_config, parse_config
    d = config_to_dict(load_config("set-a"))
    d["name"] = name
    d["instance"]["means"]["n_arms"] = 3
    d["params"]["budget"] = 2000.0
    cfg = tmp_path / "c.toml"
    cfg.write_text(dump_config(parse_config(d)))
    work = tmp_path / "w1" / "w2"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    assert main(["explain", str(cfg), "--out", "out"]) == 0
    files = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file() and p.suffix in (".png", ".pdf"))
    assert len(files) == 2 and all(f.parts[:3] == ("w1", "w2", "out") for f in files), files


@pytest.mark.parametrize("argv, hint", [
    (["bounds", "seta"], "(did you mean set-a?)"),
    (["check", "set-a", "--seeds", "1", "--baseline", "rep"], "(did you mean repo?)"),
    (["bounds", "no-such-preset-or-file"], None),
])
def test_a_misspelled_preset_or_repo_gets_the_nearest_suggested(capsys, argv, hint):
    """A preset name or the repository's baseline misspelled read as a missing file with no word of the name meant
    (a README-only user): exit 2, one line, the nearest suggested; none when none is near."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "neither a file nor a preset" in err or "no such file" in err
    assert (hint in err) if hint else "did you mean" not in err


@pytest.mark.parametrize("argv, shared", [
    (["simulate", "set-a", "--policy", "tacc", "--json", "s.json", "--cache", "c"],
     dict(executor="serial", cache="c", seeds="0:10", json="s.json")),
    (["check", "set-a", "--executor", "processes", "--workers", "2", "--no-progress"],
     dict(executor="processes", workers=2, progress=False, seeds="10")),
    (["bounds", "set-a", "--json", "-"], dict(json="-")),
    (["reproduce", "set-a", "--seeds", "3"], dict(executor="processes")),   # its --seeds counts per experiment
    (["bench", "--workers", "3"], dict(workers=3)),
])
def test_the_shared_options_are_read_once_and_are_none_where_a_command_has_none(argv, shared):
    from reports.cli import Options, build_parser

    assert Options.from_args(build_parser().parse_args(argv)) == Options(**shared)


def test_a_command_gets_the_options_its_files_were_checked_with(monkeypatch):
    from reports.cli import Files, Options

    seen = []
    monkeypatch.setattr("reports.cli.bounds.files", lambda args, options: seen.append(options) or Files())
    monkeypatch.setattr("reports.cli.bounds.run", lambda args, options: seen.append(options) or 0)
    assert main(["bounds", "set-a", "--json", "x.json"]) == 0
    assert seen[0] is seen[1] and seen[0] == Options(json="x.json")


def test_every_command_of_the_registry_has_one_shape_and_its_help():
    """A command is its module in the registry: a one-line HELP, its arguments, what it reads and writes, and its
    run; ``tacc --help`` lists each with that line, and ``tacc COMMAND --help`` works."""
    import inspect

    from reports.cli import COMMANDS, build_parser, command

    top = " ".join(build_parser().format_help().split())
    for name in COMMANDS:
        module = command(name)
        assert isinstance(module.HELP, str) and "\n" not in module.HELP and " ".join(module.HELP.split()) in top
        assert list(inspect.signature(module.arguments).parameters) == ["p"]
        assert list(inspect.signature(module.files).parameters) == ["args", "options"]
        assert list(inspect.signature(module.run).parameters) == ["args", "options"]
        with pytest.raises(SystemExit) as e:
            build_parser().parse_args([name, "--help"])
        assert e.value.code == 0
    with pytest.raises(KeyError):
        command("bound")
