"""``tacc bounds``'s JSON columns: a column's finiteness decided by one sum keeps every value and every null."""

import json
import math
import tempfile
from pathlib import Path

import pytest

from bounds import analyze, config_to_dict, dump_config, load_config, parse_config
from reports.views._bounds import _strict_columns, arm_columns


def test_strict_columns_keep_finite_values_and_null_the_rest():
    """Finite values whose sum overflows stay as they are; an infinity or a NaN becomes null with its reason
    beside the column, in any column (the check by one sum must not let one through)."""
    a = analyze(load_config("llm-residual"))
    cols = arm_columns(a)
    k = len(cols["arm"])
    cols["mu_high"] = [1e308] * k                             # finite, sum overflows
    cols["gap"] = [0.5] * (k - 1) + [math.inf]
    cols["theorem_term"] = [math.nan] + [1.0] * (k - 1)
    cols["tau"] = [3] * (k - 1) + [-math.inf]
    out = _strict_columns(a, cols)
    assert out["mu_high"] == [1e308] * k and "mu_high_reason" not in out
    assert out["gap"] == [0.5] * (k - 1) + [None] and out["gap_reason"] == {"+infinity": [k - 1]}
    assert out["theorem_term"][0] is None and list(out["theorem_term_reason"].values()) == [[0]]
    assert out["tau"][-1] is None and list(out["tau_reason"].values()) == [[k - 1]]
    assert "arm_reason" not in out and out["arm"] == list(range(k))


def test_the_best_arms_count_bounds_are_not_stated_in_table_json_and_explain():
    """k^*'s N_L and N_H bounds were 0 in the table and the JSON (and explain's high_bound), beside its thousands of
    queries: none is stated (null with the reason, "-" in the table), while every other arm keeps its bound."""
    import json

    from reports.views._bounds import OPTIMAL_NO_COUNT_BOUND
    from reports.explain import explain
    from reports.views._explain_view import to_json as explain_json
    a = analyze(load_config("llm-residual"))
    best = a.instance.best_arm
    out = _strict_columns(a, arm_columns(a))
    for key in ("low_count_bound", "high_count_bound"):
        assert out[key][best] is None and out[f"{key}_reason"][OPTIMAL_NO_COUNT_BOUND] == [best]
        assert all(isinstance(x, int) and x > 0 for k, x in enumerate(out[key]) if k != best)
    shown = arm_columns(a, [best, (best + 1) % a.instance.n_arms])       # a subset of the arms, k* first
    assert shown["low_count_bound"][0] is None is shown["high_count_bound"][0]
    assert shown["low_count_bound"][1] is not None and shown["high_count_bound"][1] is not None
    arms = {x["arm"]: x for x in json.loads(json.dumps(explain_json(explain(load_config("llm-residual"), "tacc",
                                                                             0))))["arms"]}
    assert arms[best]["high_bound"] is None and arms[best]["high_bound_reason"] == OPTIMAL_NO_COUNT_BOUND


TINY = """name = "tiny"
[instance]
mu_high = [0.5, 0.4999999999, 0.4999999998]
noise = { model = "gaussian", sigma = 1.0 }
[instance.low]
model = "power_decay"
zeta = 1e-6
r = 0.5
signs = [1, 1, 1]
[costs]
low = 1.0
high = 2.0
[params]
budget = 5
gamma = 1e-6
eta = 1e-4
s0 = 1
"""


def test_infinite_rdfe_costs_and_bounds_say_why(tmp_path):
    """A gap of 1e-10: the RDFE counts exceed 2**53, so the costs and the bounds are infinite; their reasons name
    the quantity, its label and the cause, never only "+infinity"."""
    from reports.views._bounds import to_record
    p = tmp_path / "tiny.toml"
    p.write_text(TINY)
    rec = to_record(analyze(load_config(p)))
    for key in ("rdfe_bound", "rdfe_bound_paper_form", "rdfe_bound_phase_sum"):
        q = rec["quantities"][key]
        assert q["value"] is None
        assert "thm:app-rdfe-regret" in q["value_reason"] and "oracle cost" in q["value_reason"], q
    arms = rec["arms"]
    from bounds import RDFE_ZERO_GAP
    for key, what in (("rdfe_low_cost", "c_k^(L)"), ("rdfe_high_cost", "c^(H)"), ("rdfe_oracle_cost", "c_k^*")):
        reasons = dict(arms[f"{key}_reason"])
        assert reasons.pop(RDFE_ZERO_GAP) == [0]            # k^*: 0 by convention, said beside it
        assert list(reasons.values()) == [[1, 2]], reasons
        (reason,) = reasons
        assert reason.startswith(what) and "is infinite (app:benchmark-rdfe)" in reason, reason


TIES = """name = "ties"
[instance]
mu_high = [0.9, 0.9, 0.7, 0.5]
noise = { model = "gaussian", sigma = 1.0 }
[instance.low]
model = "power_decay"
zeta = 0.2
r = 0.5
signs = [1, 1, 1, 1]
[costs]
low = 1.0
high = 10.0
[params]
budget = 4000
gamma = 0.063
eta = 1e-4
s0 = 10
"""


def test_a_tied_arm_is_named_with_its_class_in_the_table(tmp_path):
    """Arm 1 ties with k* = 0: the table called it "B" without a word. It is class B as the paper defines it
    (k != k*, tau = inf), marked tied, and a sentence says what that means; an instance without a tie has
    neither (the mark is not printed for every B arm)."""
    from reports.views._bounds import render
    p = tmp_path / "ties.toml"
    p.write_text(TIES)
    text = render(analyze(load_config(p)))
    row = next(line for line in text.splitlines() if line.startswith("  1 "))
    assert "B (tied)" in row, row
    assert "Tied with k* = 0 (gap 0): arm(s) 1." in text and "its class is B" in text
    p.write_text(TIES.replace("[0.9, 0.9, 0.7, 0.5]", "[0.9, 0.89, 0.7, 0.5]"))
    text = render(analyze(load_config(p)))
    assert "(tied)" not in text and "tied with k*" not in text.lower()


def test_a_value_taken_by_convention_is_named_in_the_table_and_the_json(tmp_path):
    """Arm 1 ties with k* = 0: its theorem term 0 x inf printed 0 (JSON ``theorem_term`` 0.0) with no reason, and
    the corollary's total dropped its log T / Delta_k in silence. The per-arm columns now carry
    ``<key>_reason`` naming the arm and the convention, the totals a ``value_reason``, the table a line each."""
    from bounds import TIED_LEFT_OUT, TIED_TERM
    from reports.views._bounds import render, to_record
    from reports.tables import fmt
    p = tmp_path / "ties.toml"
    p.write_text(TIES)
    a = analyze(load_config(p))
    rec = to_record(a)
    arms, quantities = rec["arms"], rec["quantities"]
    assert arms["theorem_term"][1] == 0.0 and arms["theorem_term_reason"] == {TIED_TERM: [1]}
    assert arms["theorem_term_if_cd_reason"] == {TIED_TERM: [1]}
    assert arms["corollary_explicit_reason"] == {TIED_LEFT_OUT: [1]}
    for key, why in (("theorem_total", TIED_TERM), ("theorem_total_if_all_cd", TIED_TERM),
                     ("corollary_order_total", TIED_LEFT_OUT), ("corollary_explicit_total", TIED_LEFT_OUT)):
        assert quantities[key]["value_reason"] == f"arm(s) 1: {why}", key
    from bounds import RDFE_ZERO_GAP
    for key in ("rdfe_low_cost", "rdfe_high_cost", "rdfe_oracle_cost"):      # RDFE's c*(0): k* and the tied arm
        assert arms[key][1] == 0.0 and arms[f"{key}_reason"] == {RDFE_ZERO_GAP: [0, 1]}, key
    text = render(a)
    assert f"term of arm(s) 1: {TIED_TERM}" in text and f"c*(D/4) of arm(s) 0, 1: {RDFE_ZERO_GAP}" in text
    assert f"corollary_order_total = {fmt(quantities['corollary_order_total']['value'])}: arm(s) 1: " in text
    p.write_text(TIES.replace("[0.9, 0.9, 0.7, 0.5]", "[0.9, 0.89, 0.7, 0.5]"))       # no tie: no convention
    rec = to_record(analyze(load_config(p)))
    assert not [k for k in rec["arms"] if k.startswith(("theorem", "corollary")) and k.endswith("_reason")]
    assert "value_reason" not in rec["quantities"]["theorem_total"]
    assert "0 x inf" not in render(analyze(load_config(p)))


def test_the_rdfe_paper_form_says_where_it_is_no_bound(tmp_path):
    """Gaps above 2: the statement's form of the RDFE bound printed a value with "valid when every gap < 2" and no
    word that this instance has one (tacc check then reported it VIOLATED); its reason now names the arm."""
    from reports.views._bounds import to_record
    p = tmp_path / "wide.toml"
    p.write_text(TIES.replace("[0.9, 0.9, 0.7, 0.5]", "[5.0, 0.9, 0.7, 0.5]"))
    q = to_record(analyze(load_config(p)))["quantities"]["rdfe_bound_paper_form"]
    assert q["value"] is not None and q["value_reason"].startswith("not a bound on this instance: Delta_3 = 4.5 > 2")
    p.write_text(TIES)
    assert "value_reason" not in to_record(analyze(load_config(p)))["quantities"]["rdfe_bound_paper_form"]


def test_means_that_differ_read_differently_in_the_per_arm_table(tmp_path):
    """mu_high = [1e12, 0.999999e12]: the two arms must not both read 1.000e+12 beside a gap of 1.000e+06."""
    from reports.views._bounds import render
    p = tmp_path / "big.toml"
    p.write_text(TIES.replace("[0.9, 0.9, 0.7, 0.5]", "[1e12, 0.999999e12, 0.5e12, 0.4e12]"))
    rows = [line.split() for line in render(analyze(load_config(p))).splitlines() if line[:3] in ("  0", "  1")]
    means = {r[0]: r[1] for r in rows[:2]}
    assert means["0"] != means["1"] and float(means["0"]) == 1e12 and float(means["1"]) == 0.999999e12, rows


def test_a_tied_arm_is_marked_alike_in_every_per_arm_table(tmp_path):
    """Arm 1 ties with k* = 0: ``B (tied)`` in the bounds per-arm table, but plain ``B`` in its continuation table
    and in tacc simulate's per-arm table. Every table marks it (reports.views._arm_class.class_label), and only
    it."""
    from reports.views._bounds import render
    from reports.views._simulate import SimulateSummary
    from reports.views._simulate import render as render_simulate
    from simulate import make_problem, run
    p = tmp_path / "ties.toml"
    p.write_text(TIES)
    text = render(analyze(load_config(p)))
    continuation = text[text.index("continuation window"):]
    rows = [line for line in continuation.splitlines() if line.startswith(("  1 ", "  2 "))]
    assert "B (tied)" in rows[0] and "(tied)" not in rows[1], rows
    problem = make_problem(load_config(p))
    summary = SimulateSummary(problem)
    summary.add(run(problem, "tacc", 0))
    rows = [line for line in render_simulate(summary, "fast").splitlines() if line.startswith(("  1 ", "  2 "))]
    assert any("B (tied)" in r for r in rows) and sum("(tied)" in r for r in rows) == 1, rows


def test_an_infinite_quantity_prints_its_reason_in_the_table(tmp_path):
    """The table printed rdfe_bound = inf with no reason (the JSON had one): now each infinite quantity and each
    arm with an infinite oracle cost gets its line; a finite instance prints none."""
    from reports.views._bounds import render
    p = tmp_path / "tiny.toml"
    p.write_text(TINY)
    text = render(analyze(load_config(p)))
    for key in ("rdfe_bound", "rdfe_bound_paper_form", "rdfe_bound_phase_sum"):
        assert f"{key} = inf: infinite (thm:app-rdfe-regret)" in text, key
    assert "arm 1: c*(D/4) = inf: c_k^(L)(Delta_k / 4) is infinite" in text
    assert "exceeds 2**53" in text
    p.write_text(TIES)
    text = render(analyze(load_config(p)))
    assert " = inf: " not in text


def test_the_assumption_table_never_says_yes_for_an_assumption_it_did_not_check(tmp_path):
    """A table model whose certificate is exceeded (ass:plugin fails; tacc check says FAILED) got an assumption
    table of tacc bounds that was all "yes": ass:plugin and ass:mono-cert are not decided here, so they are "not
    checked" (null with the reason in the JSON), and what is decided can say FAILED (sigma 2: the noise)."""
    from bounds import dump_config, parse_config
    from reports.views._bounds import NOT_CHECKED, render, to_record
    d = {"name": "tb-bad", "instance": {"mu_high": [0.75, 0.5, 0.25], "low": {
        "model": "table", "mean_low": [[0.5, 0.75], [0.5, 0.5], [0.25, 0.25]],
        "certificate": [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]}},
        "costs": {"low": 1.0, "high": 10.0}, "params": {"budget": 20000, "gamma": 0.063, "eta": 1e-4, "s0": 10}}
    p = tmp_path / "tb.toml"
    p.write_text(dump_config(parse_config(d)))
    a = analyze(load_config(p))
    rec = to_record(a)["assumptions"]
    assert rec["plugin"]["value"] is None and rec["plugin"]["value_reason"] == NOT_CHECKED.format(label="ass:plugin")
    assert rec["mono_cert"]["value"] is None and rec["noise_scale"]["value"] is True
    text = render(a)
    table = text[text.index("assumption "):text.index("per arm")]
    assert "yes" not in table and "plugin               not checked  ass:plugin" in table
    assert "only tacc check CONFIG decides" in text
    d["instance"]["noise"] = {"model": "gaussian", "sigma": 2.0}
    p.write_text(dump_config(parse_config(d)))
    noisy = analyze(load_config(p))
    assert to_record(noisy)["assumptions"]["noise_scale"]["value"] is False
    assert "noise_scale          FAILED" in render(noisy)


def test_a_continuation_that_fires_at_no_rho_has_no_last_count_and_no_rho_max(tmp_path):
    """S0 = 0 (and eta near 1): the test passes at no count, and the table printed "last count 0", "rho max 0",
    "largest rho at which it can fire: 0", the JSON rho_max 0.0 with no reason. They do not apply: "-" / "none"
    in the text, null with the reason in the JSON; an instance where it fires keeps its numbers."""
    import json

    from bounds import config_to_dict, parse_config
    from reports.views._bounds import render, to_json
    for change in ({"s0": 0}, {"eta": 0.9999999}):
        d = config_to_dict(load_config("set-a"))
        d["instance"]["means"]["n_arms"] = 4
        d["params"].update(change)
        a = analyze(parse_config(d))
        cont = json.loads(to_json(a))["continuation"]
        assert cont["rho_max"] is None and cont["rho_max_reason"].startswith("none: ")
        arms = cont["arms"]
        assert arms["last_count"] == [None] * 4 and arms["rho_max"] == [None] * 4
        assert list(arms["last_count_reason"].values()) == [[0, 1, 2, 3]]
        assert list(arms["rho_max_reason"].values()) == [[0, 1, 2, 3]]
        text = render(a)
        assert "largest rho at which it can fire: none" in text
        rows = text[text.index("arm  class    tau  window"):].splitlines()[2:6]
        assert all(r.split()[-2:] == ["-", "-"] for r in rows), rows
        # the report's record (results.json, one mapping per arm) says the same, from the same source
        from bounds import continuation_of
        from reports.views._continuation import to_record
        rec = to_record(continuation_of(a))
        assert rec["rho_max"] is None and rec["rho_max_reason"] == cont["rho_max_reason"]
        assert all(x["last_count"] is None and x["rho_max"] is None and x["last_count_reason"].startswith("none: ")
                   and x["rho_max_reason"].startswith("none: ") for x in rec["arms"])
    fires = analyze(load_config("llm-residual"))
    cont = json.loads(to_json(fires))["continuation"]
    assert cont["rho_max"] > 0 and "rho_max_reason" not in cont and "rho_max_reason" not in cont["arms"]
    from bounds import continuation_of
    from reports.views._continuation import to_record
    assert all("last_count_reason" not in x and x["last_count"] > 0 for x in to_record(continuation_of(fires))["arms"])
    assert all(isinstance(x, int) and x > 0 for x in cont["arms"]["last_count"])


def test_an_undefined_quantity_is_not_said_undefined_twice():
    """With every arm tied, the line reads ``corollary_constant = undefined: 0 / 0, ...``, never ``undefined:
    undefined: ...``."""
    from reports.views._bounds import _reason_line
    assert _reason_line("c", {"value": float("nan"), "value_reason": "undefined: 0 / 0, both 0"}) == \
        "c = undefined: 0 / 0, both 0"
    assert _reason_line("t", {"value": float("inf"), "value_reason": "no count reaches it"}) == \
        "t = inf: no count reaches it"


@pytest.mark.parametrize("r", [1e50, 1e300])
def test_a_huge_decay_rate_gives_strict_json(r, capsys):
    """r = 1e50 must not make a NaN in the continuation gain: `tacc bounds --json` writes strict JSON (never exit 3,
    "Out of range float values are not JSON compliant")."""
    from reports.cli import main
    d = config_to_dict(load_config("set-a"))
    d["instance"]["low"]["r"] = r
    d["instance"]["means"]["n_arms"] = 5
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rbig.toml"
        path.write_text(dump_config(parse_config(d)))
        assert main(["bounds", str(path), "--json", "-"]) == 0
    json.loads(capsys.readouterr().out)


HUGE_GAPS = """name = "huge"
[instance]
mu_high = [1e150, 9.9e149, 5e149]
noise = { model = "gaussian", sigma = 1e140 }
[instance.low]
model = "power_decay"
zeta = 1e148
r = 0.5
[costs]
low = 1.0
high = 10.0
[params]
budget = 50000
gamma = 1e147
eta = 1e-3
s0 = 10
"""


def test_an_infinite_rdfe_bound_names_the_arms_whose_cost_makes_it_so(tmp_path):
    """Gaps above 2 with sigma 1e140: c*(Delta/4) is finite on every arm (the paper form's total too), but the
    implemented bound takes eps = 1/2 and the phase-sum one eps = 2^-r_k, where the counts exceed 2**53. The reason said
    "see the arm lines under the per-arm table" (none were printed) and, in the JSON, "the arms'
    rdfe_oracle_cost_reason" (no such key): it now names each arm and why, in the table's lines and the JSON."""
    from bounds import RDFE_ZERO_GAP
    from reports.views._bounds import render, rdfe_infinite_arms, to_record
    p = tmp_path / "huge.toml"
    p.write_text(HUGE_GAPS)
    a = analyze(load_config(p))
    assert all(math.isfinite(c) for c in a.rdfe.paper_cost) and math.isfinite(a.rdfe.paper_total)
    rec = to_record(a)
    assert list(rec["arms"]["rdfe_oracle_cost_reason"]) == [RDFE_ZERO_GAP]      # only k^*'s convention
    for key, at in (("rdfe_bound", "at eps = 1/2 (its gap is above 2)"),
                    ("rdfe_bound_phase_sum", "at its last phase r_k = 1, eps = 2^-1")):
        reason = rec["quantities"][key]["value_reason"]
        assert reason == rdfe_infinite_arms(a, key)
        assert "on 2 arm(s): arm 1 (gap 1.000e+148): " + at in reason and "arm 2 (gap 5.000e+149)" in reason
        assert "rdfe_oracle_cost_reason" not in reason
    text = render(a)
    assert "arm lines under the per-arm table" not in text
    assert "rdfe_bound = inf: infinite (thm:app-rdfe-regret): the oracle cost c_k^*(min(Delta_k / 4, 1/2))" in text
