"""``tacc bounds`` (``reports/cli/bounds.py``): every preset, its JSON output (a reason for every null), the
table, the continuation window, and its bad input."""

import json
import select
import subprocess
import sys

import pytest

from bounds import PRESETS
from reports.cli import main
from tests.reports.cli._helpers import TACC, _config, tacc


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


def test_bad_config_exits_2_naming_the_field(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('[instance]\nmu_high = [0.5, 0.4]\n[instance.low]\nmodel = "frozen"\nvalues = [0.1, 0.9]\n'
                 '[costs]\nlow = -1\nhigh = 2\n[params]\nbudget = 10\ngamma = 0.1\neta = 0.001\ns0 = 1\n')
    r = subprocess.run([sys.executable, "-m", "reports.cli", "bounds", str(p)], capture_output=True, text=True)
    assert r.returncode == 2
    assert "costs.low" in r.stderr and "-1" in r.stderr
    assert "Traceback" not in r.stderr


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


def test_a_window_no_low_count_reaches_says_so():
    # budget 11 on two arms: T = 11 < N_gamma, so the counts where the test passes are never reached (the table
    # showed the window 942..950 beside "continuation cannot fire")
    from bounds import analyze, config_to_dict, continuation_of, load_config, parse_config
    from reports.views._continuation import render
    d = config_to_dict(load_config("llm-residual"))
    d["params"]["budget"] = 11.0 * d["costs"]["low"]
    c = continuation_of(analyze(parse_config(d)))
    assert not c.window.reachable and any(c.window.pulls)
    rows = [line for line in render(c).splitlines() if ".." in line and "N_gamma" not in line]
    assert rows and all("not below T" in line for line in rows), rows


def test_a_long_continuation_window_scan_is_announced(tmp_path):
    """``tacc bounds`` makes no run, but reads the continuation window state by state up to min(S0, T): with
    S0 = 10^11 and a test every state passes (eta = 1e-12) that is hours. One line comes first, with the states and
    the time bound; the same command with S0 = 10 says nothing."""
    cfg = _config(tmp_path, "s0", "budget = 1000\ngamma = 0.1\neta = 1e-4\ns0 = 10",
                  "budget = 1e13\ngamma = 0.1\neta = 1e-12\ns0 = 100000000000")
    p = subprocess.Popen([TACC, "bounds", cfg], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                         cwd=tmp_path)
    try:        # without the line the command would scan for hours: wait for it a minute at most
        line = p.stderr.readline() if select.select([p.stderr], [], [], 60)[0] else ""
    finally:
        p.kill()
        p.wait()
    assert "min(S0, T) = 100,000,000,000 low counts" in line and "time at most about" in line, line
    quiet = tacc(["bounds", _config(tmp_path, "plain")], cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_bounds_of_an_s0_past_the_horizon_is_cut_there(tmp_path):
    """S0 = 2**40 with T = 1000: ``tacc bounds`` tried to allocate 8 TiB (exit 3); the continuation window is now
    evaluated at the states below T only, and the summary says so."""
    r = tacc(["bounds", _config(tmp_path, "s0tb", "s0 = 10", "s0 = 1099511627776")], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "The window was cut at the horizon: S0 = 1099511627776 exceeds T = 1000" in r.stdout
