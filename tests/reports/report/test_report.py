"""``tacc report``: every file, non-empty figures, results.json equal to the run records, a pinned structure."""

import json
import math
import re

import pytest

from bounds import arm_partition, config_to_dict, parse_config
from reports.report import make_report
from reports.report._budgets import budget_sweep, default_config, report_budgets
from simulate import make_problem, run_tasks, tasks_for
from tests.reports.views.test_bounds import TIES


SEEDS = range(6)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    return make_report(default_config(), seeds=SEEDS, out_dir=out, budgets=[1000.0, 4000.0])


def test_every_file_is_written_and_figures_are_not_empty(report):
    for f in report.files:
        path = report.out_dir / f
        assert path.is_file() and path.stat().st_size > 1000, f
    names = {p.name for p in (report.out_dir / "figures").iterdir()}
    for stem in ("regret_vs_budget", "low_counts", "high_counts", "continuation_window", "tightness"):
        assert {f"{stem}.png", f"{stem}.pdf"} <= names


def test_results_json_matches_the_run_records(report):
    res = json.loads((report.out_dir / "results.json").read_text())
    cfg = default_config()
    from dataclasses import replace
    final = replace(cfg, params=replace(cfg.params, budget=4000.0))
    records = run_tasks(tasks_for([final], ["tacc"], SEEDS))
    mean = sum(r.regret for r in records) / len(records)
    assert res["regret"]["tacc"][-1]["mean"] == pytest.approx(mean, rel=1e-12)
    arm = res["arms"][0]
    k = arm["arm"]
    assert arm["low_max"] == max(r.n_low[k] for r in records)
    assert arm["high_mean"] == pytest.approx(sum(r.n_high[k] for r in records) / len(records))
    p = make_problem(final)
    assert res["parameters"]["n_gamma"] == p.n_gamma


def test_default_instance_has_every_arm_class():
    p = make_problem(default_config())
    classes = {c.value for c in arm_partition(p.tau, p.n_gamma, p.s0, p.instance.best_arm)}
    assert {"A", "B", "C"} <= classes


def test_report_markdown_structure_is_pinned(report):
    md = (report.out_dir / "report.md").read_text()
    headings = re.findall(r"^#+ .*$", md, flags=re.M)
    assert headings == [
        "# Bound-versus-empirical report: classes",
        "## What to conclude",
        "## Instance and parameters",
        "## Assumptions",
        "## Counts against their bounds (TACC, full budget)",
        "## Regret against budget",
        "## Tightness and verdicts (full budget)",
        "## Metamorphic relations (full budget, first seeds)",
        "## Confidence event (lem:ci)",
        "## Files",
    ]
    assert "thm:analysis-main-regret" in md and "![regret against budget](figures/regret_vs_budget.png)" in md


def test_budget_sweep_halves():
    assert budget_sweep(4000.0, 3) == [1000.0, 2000.0, 4000.0]


def _budget(config, budget, **costs):
    d = config_to_dict(config)
    d["params"]["budget"] = budget
    d["costs"].update(costs)
    return parse_config(d)


def test_report_budgets_leave_out_those_below_the_first_round():
    """Costs 1e9 and 1e10 on six arms, budget 1e12: the first round costs 6.6e10 (alg:start), so
    the sweep's 6.25e10 is left out; a budget equal to the first round's cost is kept (K (lambda_L + lambda_H) <=
    Lambda, exact), one a float below it is not; the full budget is kept whatever it is (its assumption is
    reported)."""
    c = default_config()                                             # six arms
    assert report_budgets(_budget(c, 1e12, low=1e9, high=1e10)) == ([1.25e11, 2.5e11, 5e11, 1e12], [6.25e10])
    assert report_budgets(c) == (budget_sweep(4000.0), [])           # 250 >= 66: every budget kept
    assert report_budgets(_budget(c, 16 * 66.0)) == ([66.0, 132.0, 264.0, 528.0, 1056.0], [])
    below = 16 * math.nextafter(66.0, 0)
    assert report_budgets(_budget(c, below))[1] == [below / 16]
    assert report_budgets(_budget(c, 1.0)) == ([1.0], [0.0625, 0.125, 0.25, 0.5])


@pytest.mark.slow
def test_a_report_says_which_budgets_it_left_out(tmp_path):
    """Budget 800 on six arms of costs 1 and 10: 50 is below the first round's 66 and is left out of the runs, the
    table, the figure's points and results.json, and the report says why; the rest is as for any sweep."""
    make_report(_budget(default_config(), 800.0), seeds=range(2), out_dir=tmp_path, policies=("tacc",))
    res = json.loads((tmp_path / "results.json").read_text())
    assert res["budgets"] == [100.0, 200.0, 400.0, 800.0] and res["budgets_left_out"] == [50.0]
    assert [r["budget"] for r in res["regret"]["tacc"]] == res["budgets"]
    md = (tmp_path / "report.md").read_text()
    assert "budgets 100, 200, 400, 800 (separate runs per budget). The sweep's 50 is left out: below the cost of " \
           "the first round of Algorithm 1, K (lambda^(L) + lambda^(H)) (alg:start), no run could query every " \
           "arm." in md
    assert any(c.startswith("The sweep's 50 is left out") for c in res["conclusions"])    # printed as well


def test_a_full_budget_below_the_first_round_is_run_and_said_so(tmp_path):
    """Six arms of costs 1 and 10 (a first round of 66) on a budget of 60: the four smaller budgets are left out, the
    full one is run all the same (its assumption is reported FAILED), and the sentence does not read as if it
    paid."""
    make_report(_budget(default_config(), 60.0), seeds=range(2), out_dir=tmp_path, policies=("tacc",))
    res = json.loads((tmp_path / "results.json").read_text())
    assert res["budgets"] == [60.0] and res["budgets_left_out"] == [3.75, 7.5, 15.0, 30.0]
    assert ("the full budget 60 is below it too and is run all the same (alg:start fails, first round costs 66, "
            "budget 60).") in (tmp_path / "report.md").read_text()


@pytest.mark.slow
def test_a_tied_arms_term_taken_as_zero_is_said_in_the_report(tmp_path):
    """Arm 1 ties with k* = 0 (TIES): the theorem's bound takes its term 0 x inf as 0. results.json says so beside
    the bound (``theorem.bound_reason``, the same words as tacc bounds) and report.md after the bound's sentence;
    without a tie there is no such reason."""
    import tomllib

    from bounds import TIED_TERM
    make_report(parse_config(tomllib.loads(TIES)), seeds=range(2), out_dir=tmp_path, policies=("tacc",))
    res = json.loads((tmp_path / "results.json").read_text())
    assert res["theorem"]["bound_reason"] == f"arm(s) 1: {TIED_TERM}"
    assert f"Both forms take the term of arm(s) 1: {TIED_TERM}." in (tmp_path / "report.md").read_text()
    untied = parse_config(tomllib.loads(TIES.replace("[0.9, 0.9, 0.7, 0.5]", "[0.9, 0.89, 0.7, 0.5]")))
    make_report(untied, seeds=range(2), out_dir=tmp_path / "u", policies=("tacc",))
    assert "bound_reason" not in json.loads((tmp_path / "u" / "results.json").read_text())["theorem"]
    assert "0 x inf" not in (tmp_path / "u" / "report.md").read_text()


def test_instance_section_explains_continuation(report):
    res = json.loads((report.out_dir / "results.json").read_text())
    cont = res["continuation"]
    assert cont["n_gamma"] == res["parameters"]["n_gamma"] and len(cont["arms"]) == res["instance"]["n_arms"]
    md = (report.out_dir / "report.md").read_text()
    section = md.split("## Instance and parameters")[1].split("## Assumptions")[0]
    assert f"Continuation window (`eq:fidelity-selection`): {cont['summary']}" in section


def test_metamorphic_section(report):
    """The relations ran on the report's runs: none failed, and the ones that apply to this instance judged runs."""
    rows = {r["relation"]: r for r in json.loads((report.out_dir / "results.json").read_text())["metamorphic"]}
    assert set(rows) == {"unread", "relabel", "s0-zero", "static", "scale"}
    assert all(r["failed"] == 0 for r in rows.values())
    assert rows["s0-zero"]["held"] == 3 and rows["scale"]["runs"] == 3 * 5 and rows["unread"]["runs"] > 0
    assert rows["relabel"]["runs"] == 0 and "Gaussian" in rows["relabel"]["not_applicable"][0]


def test_continuation_window_figure_is_drawn_from_the_window():
    from bounds import analyze, continuation_of
    from reports.views._continuation import window_figure
    a = analyze(default_config())
    c = continuation_of(a)
    fig = window_figure(c, a.classes)
    bars = [p for p in fig.axes[0].patches if p.get_width() > 0]
    assert sorted(round(b.get_width()) for b in bars) == sorted(w for w in c.window.pulls if w)
    assert all(b.get_x() == c.window.n_gamma - 0.5 for b in bars)


# --- what the numbers mean (identical policies, informative sentences, non-monotone bounds) -------------------
def test_identical_policies_are_named_in_the_text_and_the_legend(report, monkeypatch):
    res = json.loads((report.out_dir / "results.json").read_text())
    assert ["dnc", "mf-ucb"] in res["identical_runs"]          # on the default instance they coincide
    assert any("dnc and mf-ucb made identical runs" in c for c in res["conclusions"])
    md = (report.out_dir / "report.md").read_text()
    assert "dnc and mf-ucb made identical runs" in md


def test_legend_draws_an_identical_group_once():
    from reports.figures import regret_curves
    fig = regret_curves([1, 2], {"dnc": ([1.0, 2.0], [0, 0]), "mf-ucb": ([1.0, 2.0], [0, 0]),
                                 "tacc": ([0.5, 1.0], [0, 0])}, title="t", identical=[("dnc", "mf-ucb")])
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["dnc = mf-ucb (identical runs)", "tacc"]


def test_a_bound_that_falls_with_the_budget_gets_its_reason():
    from dataclasses import replace as dc_replace

    from bounds import analyze, parse_config
    from reports.report._report import non_monotone_bounds
    # found by a search over certify.strategies.configs(): arms 0 and 1 are in C at small budgets and in A once
    # N_gamma (growing with ell_Lambda) passes their tau, and an A arm's term is smaller than a C arm's
    cfg = parse_config({
        "name": "falls", "instance": {"mu_high": [0.0, 0.133, 0.4, 0.75, 0.75, 0.0], "seed": 3,
                                      "noise": {"model": "gaussian", "sigma": 1.0},
                                      "low": {"model": "residual_decay", "zeta": 0.433, "r": 0.2,
                                              "signs": [-1, -1, -1, 1, -1, 1], "b": 0.047, "n0": 1.0}},
        "costs": {"low": 1.0, "high": 10.0},
        "params": {"budget": 591.0, "delta": 0.3, "rho": 0.05, "gamma": 0.2, "eta": 1e-4, "s0": 6}})
    budgets = budget_sweep(591.0)
    analyses = {b: analyze(dc_replace(cfg, params=dc_replace(cfg.params, budget=b))) for b in budgets}
    lines = {"theorem": [analyses[b].theorem.total for b in budgets],
             "theorem (C in C^d)": [analyses[b].theorem_if_all_cd.total for b in budgets]}
    found = non_monotone_bounds(budgets, lines, analyses)
    falls = [(n, i) for n, v in lines.items() for i in range(1, len(budgets)) if v[i] < v[i - 1]]
    assert len(found) == len(falls) >= 1
    theorem = [f for f in found if f.bound == "theorem"]
    assert theorem and "arm 0 from C to A" in theorem[0].text and "not monotone" in theorem[0].text
    cfg0 = default_config()       # monotone: nothing to explain
    a0 = {b: analyze(dc_replace(cfg0, params=dc_replace(cfg0.params, budget=b))) for b in (1000.0, 4000.0)}
    assert non_monotone_bounds([1000.0, 4000.0], {"t": [a0[b].theorem.total for b in a0]}, a0) == []
    fake = {1.0: analyses[budgets[0]], 2.0: analyses[budgets[0]]}
    (only,) = non_monotone_bounds([1.0, 2.0], {"x": [2.0, 1.0]}, fake)
    assert "depend on ell_Lambda" in only.text


def test_count_distribution_tells_cd_from_cu():
    from reports.figures import count_distribution
    groups = [{"B": [3, 4, 5]}, {"C^d": [10, 11], "C^u": [20, 21, 22]}]
    fig = count_distribution(["1 (B)", "2 (C)"], groups, [6.0, 30.0], title="t", ylabel="N", bound_label="bound")
    ax = fig.axes[0]
    labels = ax.get_legend_handles_labels()[1]
    assert "runs with the arm in C^d" in labels and "runs with the arm in C^u" in labels and "bound" in labels
    drawn = sorted(sorted(c.get_offsets()[:, 1].tolist()) for c in ax.collections)
    assert drawn == [[3, 4, 5], [10, 11], [20, 21, 22]]           # every seed, each class apart
    merged = count_distribution(["2 (C)"], [{"C^u": [10, 11, 20, 21, 22]}], [30.0], title="t", ylabel="N",
                                bound_label="bound")
    assert "runs with the arm in C^d" not in merged.axes[0].get_legend_handles_labels()[1]


def test_a_figure_with_nothing_labelled_draws_no_legend_and_no_warning():
    # every arm tied: no suboptimal arm to draw (matplotlib warned "No artists with labels found" twice)
    import warnings

    from reports.figures import count_distribution
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = count_distribution([], [], [], title="t", ylabel="N", bound_label="bound")
    assert fig.axes[0].get_legend() is None


def test_figures_are_laid_out_once_and_their_points_rasterized(tmp_path):
    """``save`` leaves no layout engine on the figure (``Figure.tight_layout`` leaves a placeholder, and with one
    every ``savefig`` lays the figure out again), and the per-seed points are drawn as an image inside the PDF while
    the boxes, bounds and text stay vector; ``Figure.tight_layout`` would fail the first assertion."""
    from reports.figures import count_distribution, save, tightness
    fig = count_distribution(["1 (B)"], [{"B": [3, 4, 5]}], [6.0], title="t", ylabel="N", bound_label="bound")
    assert save(fig, tmp_path, "c") == ["c.png", "c.pdf"]
    assert fig.get_layout_engine() is None
    ax = fig.axes[0]
    assert ax.collections and all(c.get_rasterized() for c in ax.collections)
    assert ax.lines and not any(line.get_rasterized() for line in ax.lines)
    assert (tmp_path / "c.pdf").read_bytes().count(b"/Subtype /Image") >= 1
    t = tightness({"x (lem:x)": [0.5, 0.25], "y (lem:y)": [0.75]}, title="t")
    assert len(t.axes[0].collections) == 1 and t.axes[0].collections[0].get_rasterized()


@pytest.mark.parametrize("section,change,budget,failed,needing", [
    # Gaussian sigma = 3 is not 1-sub-Gaussian: lem:ci's frequency claim needs it, the counts do not
    ("instance", {"noise": {"model": "gaussian", "sigma": 3.0}}, 200.0, "sec:problem:noise",
     "(lem-ci) are NOT_APPLICABLE"),
    # a budget below the first round's K (lambda_L + lambda_H): no claim judged here needs alg:start
    ("params", {"budget": 1.0}, 1.0, "alg:start", "no claim judged here needs them"),
])
def test_a_failed_assumption_names_the_claims_that_need_it(tmp_path, section, change, budget, failed, needing):
    d = config_to_dict(default_config())
    d[section].update(change)
    make_report(parse_config(d), seeds=range(2), out_dir=tmp_path, budgets=[budget], policies=("tacc",))
    res = json.loads((tmp_path / "results.json").read_text())
    sentence = next(c for c in res["conclusions"] if c.startswith("Assumption"))
    assert failed in sentence and needing in sentence, sentence
    not_applicable = {c["key"] for c in res["certificate"]["claims"] if c["counts"]["NOT_APPLICABLE"]}
    assert not_applicable == ({"lem-ci"} if failed == "sec:problem:noise" else set()), not_applicable


@pytest.mark.slow
def test_figures_drawn_in_a_helper_process_make_the_same_report(report, tmp_path):
    """The default ``tacc report`` draws its figures in a helper process while it judges the runs: the same PNG
    pixels and file list as the fixture's report, drawn in this process, and the same numbers (rebuilt from the
    fixture's saved runs, which makes no fresh run: only the metamorphic relations are not run)."""
    pytest.importorskip("pandas")
    import numpy as np
    from matplotlib.image import imread

    from reports.figures import FigureWriter
    from reports.tables import dumps
    from simulate import load_runs
    with FigureWriter(tmp_path / "figures", process=True) as figures:
        other = make_report(default_config(), seeds=SEEDS, out_dir=tmp_path, budgets=[1000.0, 4000.0],
                            runs=load_runs(report.out_dir / "runs"), figures=figures)
    assert other.files == report.files
    from dataclasses import replace as dc_replace

    from reports.report._markdown import METAMORPHIC_NOT_RUN
    from reports.report._results import results_json
    # the relations not run, and why, where they stand
    expected = results_json(dc_replace(report.results, metamorphic=None), METAMORPHIC_NOT_RUN)
    assert (tmp_path / "results.json").read_text() == dumps(expected)
    for f in report.files:
        if f.endswith(".png"):
            a, b = imread(tmp_path / f), imread(report.out_dir / f)
            assert a.shape == b.shape and np.array_equal(a, b), f
    assert not list(tmp_path.rglob("*.partial"))


def test_count_distribution_marks_the_runs_off_the_event():
    """A run off the confidence event of lem:ci is drawn as a black cross with its own legend entry, between the
    classes and the bound; a class whose every run is off the event keeps its legend entry (an empty dot)."""
    import numpy as np

    from reports.figures import OFF_EVENT_LABEL, count_distribution
    groups = [{"B": [3, 40, 5]}, {"C^u": [20, 21]}]
    fig = count_distribution(["1 (B)", "2 (C)"], groups, [6.0, 30.0], title="t", ylabel="N", bound_label="bound",
                             off_event=[{"B": [0, 1, 0]}, {"C^u": [1, 1]}])
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "runs with the arm in B", "runs with the arm in C^u", OFF_EVENT_LABEL, "bound"]

    def ys(black):
        return sorted(y for c in ax.collections if len(c.get_facecolor())
                      and np.allclose(c.get_facecolor()[0][:3], 0) is black for y in c.get_offsets()[:, 1].tolist())
    assert ys(True) == [20, 21, 40] and ys(False) == [3, 5]
    assert all(c.get_rasterized() for c in ax.collections)


def _config(change: dict, base=None):
    d = config_to_dict(base or default_config())
    for section, values in change.items():
        d[section].update(values)
    return parse_config(d)


def test_runs_off_the_event_are_marked_in_the_count_figures_and_the_report(report, tmp_path):
    """rho = 1e-12: the confidence event of lem:ci fails on every run, and neither count bound is asserted there;
    the count figures drew those runs like any other, with no mark. Now the figures mark them and report.md says so
    beside them; the default report (every run on the event) says nothing of it."""
    from reports.figures import FigureWriter
    from reports.figures import OFF_EVENT_LABEL, count_distribution

    class Recording(FigureWriter):
        drawn: dict = {}

        def draw(self, builder, name, *args, **kwargs):
            self.drawn[name] = (args, kwargs)
            super().draw(builder, name, *args, **kwargs)

    with Recording(tmp_path / "figures", process=False) as figures:
        res = make_report(_config({"params": {"rho": 1e-12}}), seeds=range(2), out_dir=tmp_path, budgets=[1000.0],
                          policies=("tacc",), figures=figures)
    assert res.results.event["tacc"].failures == 2
    assert (res.results.counts_off_event.runs, res.results.counts_off_event.off_event) == (2, 2)
    md = (tmp_path / "report.md").read_text()
    section = md.split("## Counts against their bounds")[1].split("## Regret against budget")[0]
    assert "All 2 runs of tacc drawn here are off the confidence event of lem:ci" in section
    assert f'"{OFF_EVENT_LABEL}"' in section
    for name in ("low_counts", "high_counts"):
        args, kwargs = Recording.drawn[name]
        fig = count_distribution(*args, **kwargs)
        assert OFF_EVENT_LABEL in [t.get_text() for t in fig.axes[0].get_legend().get_texts()], name
    default = (report.out_dir / "report.md").read_text()
    assert report.results.counts_off_event.off_event == 0
    assert "off the confidence event" not in default and OFF_EVENT_LABEL not in default


#: RDFE completes no phase: B_k >= b = 0.2 > eps_1 / 8, so every low-fidelity stopping count is infinite and each arm
#: is queried at high fidelity to 1675 queries in phase 1, more than Lambda / lambda_H = 200 (found with
#: ``tacc report`` on it: RDFE's regret 3.3 +- 0 was the lowest of the table, with no word about it).
NO_PHASE = {"name": "rdfe-no-phase",
            "instance": {"mu_high": [0.9, 0.8, 0.7], "seed": 0, "noise": {"model": "gaussian", "sigma": 0.5},
                         "low": {"model": "residual_decay", "zeta": 0.4, "r": 0.5, "b": 0.2, "signs": [1, -1, 1]}},
            "costs": {"low": 1.0, "high": 10.0},
            "params": {"budget": 2000.0, "delta": 0.05, "gamma": 0.1, "eta": 0.01, "s0": 10}}


def test_rdfe_without_a_completed_phase_is_not_ranked_without_a_note(report, tmp_path):
    from dataclasses import replace as dc_replace
    cfg = parse_config(NO_PHASE)
    res = make_report(cfg, seeds=range(2), out_dir=tmp_path, budgets=[1000.0, 2000.0],
                      policies=("tacc", "ucb", "rdfe"), executor="serial").results
    # the reproduction: no run completes a phase, and RDFE's mean regret is the lowest at the full budget
    recs = run_tasks(tasks_for([dc_replace(cfg, params=dc_replace(cfg.params, budget=2000.0))], ["rdfe"], range(2)))
    assert all(len(r.phases) == 1 and not r.phases[0].completed for r in recs)
    means = {p: res.regret[p][-1].mean for p in res.policies}
    assert min(means, key=means.__getitem__) == "rdfe"
    assert [(x.budget, x.runs, x.no_phase) for x in res.rdfe_no_phase] == [(1000.0, 2, 2), (2000.0, 2, 2)]
    (sentence,) = [c for c in res.conclusions if c.startswith("RDFE completed no phase")]
    assert "in 2 of 2 runs at the full budget" in sentence and "not the best" in sentence
    md = (tmp_path / "report.md").read_text()
    table_part = md.split("## Regret against budget")[1].split("![regret against budget]")[0]
    rows = [line for line in table_part.splitlines() if line.startswith(("1000 ", "2000 "))]
    assert len(rows) == 2 and all("(no phase: 2 of 2 runs)" in line for line in rows)
    assert "no phase: RDFE completed no phase of `alg:app-rdfe` in that many of its runs" in table_part
    # the default report: RDFE completes a phase at the full budget (no conclusion), not at budget 1000 (marked)
    assert not any(c.startswith("RDFE completed no phase") for c in report.results.conclusions)
    assert [x.no_phase for x in report.results.rdfe_no_phase] == [6, 0]
    default = (report.out_dir / "report.md").read_text().split("## Regret against budget")[1]
    assert [("(no phase: 6 of 6 runs)" in line) for line in default.splitlines()
            if line.startswith(("1000 ", "4000 "))] == [True, False]


def _stranger(name: str, mu_high: list, budget: float, rho) -> dict:
    return {"name": name, "instance": {"mu_high": mu_high, "seed": 0, "noise": {"model": "gaussian", "sigma": 1.0},
                                       "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5, "signs": "random"}},
            "costs": {"low": 1.0, "high": 10.0},
            "params": {"budget": budget, "delta": 0.05, "rho": rho, "gamma": 0.1, "eta": 1e-4, "s0": 10}}


def test_no_violation_says_how_many_verdicts_were_not_judged_and_lem_ci_not_applying(report, tmp_path):
    """rho = 0.05, below lem:ci's least certified rho: every run is off the event. The first conclusion said "No
    claim of the paper was exceeded: 0 VIOLATED verdicts" three lines above TACC's mean regret at 289% of the bound,
    and the last called a 100% event failure frequency "above the lemma", which does not apply at this rho (its
    assumption lem:ci:rho fails, NOT_APPLICABLE). Now: not VIOLATED, with the count of verdicts not judged; and
    lem:ci does not apply."""
    res = make_report(parse_config(_stranger("offev", [0.9, 0.9, 0.5], 2000.0, 0.05)), seeds=range(3),
                      out_dir=tmp_path, budgets=[2000.0], executor="serial").results
    off = sum(c.counts["OFF_EVENT"] for c in res.certificate.claims)
    total = sum(sum(c.counts.values()) for c in res.certificate.claims)
    first, last = res.conclusions[0], res.conclusions[-1]
    assert first.startswith("No claim of the paper was VIOLATED: 0 VIOLATED verdicts over 15 runs") and off > 0
    assert f" {off} of the {total} verdicts were not judged: {off} OFF_EVENT (the confidence event" in first
    assert "exceeded" not in first
    assert last.startswith("The confidence event of lem:ci failed equally often for every policy: 3 of 3 runs each")
    assert "lem:ci does not apply (its assumption lem:ci:rho (rho = 0.05, least certified " in last
    assert "by the Gaussian exact tail, 2.112 by the sub-Gaussian union bound (the paper's reading)) fails" in last
    assert "above the lemma" not in last and "consistent with" not in last
    # every run on the event, every assumption of lem:ci held: as before, nothing added
    first, last = report.results.conclusions[0], report.results.conclusions[-1]
    assert first.startswith("No claim of the paper was VIOLATED") and "not judged" not in first
    assert last.endswith("consistent with the lemma.")


def test_the_first_query_is_said_made_by_every_run_only_when_the_budget_covers_it(report, tmp_path):
    """Budget 15 below the first round's 22 (alg:start fails): no run makes a high-fidelity query, yet the
    conclusion said class-A allows "the first round's one high-fidelity query, which every run makes"."""
    res = make_report(parse_config(_stranger("nostart", [0.9, 0.1], 15.0, "min")), seeds=range(3),
                      out_dir=tmp_path, budgets=[15.0], executor="serial").results
    (text,) = [c for c in res.conclusions if c.startswith("Besides class-A")]
    assert "which every run makes" not in text
    assert ("(at most the first round's one high-fidelity query, which no run makes here: the budget does not cover "
            "the first round (alg:start fails: first round costs 22, budget 15))") in text
    (text,) = [c for c in report.results.conclusions if c.startswith("Besides")]
    assert "high-fidelity query, which every run makes)" in text


def test_one_seed_has_an_undefined_standard_error(tmp_path):
    """``--seeds 1`` must not print ``81 +- 0`` nor write ``"se": 0.0``: one seed measures no spread, so the
    standard error is undefined (null with its reason in the JSON, ``undefined`` in the table)."""
    import json

    from reports.cli import main
    assert main(["report", "--seeds", "1", "--out", str(tmp_path), "--executor", "serial", "--no-progress"]) in (0, 1)
    res = json.loads((tmp_path / "results.json").read_text())
    assert all(row["se"] is None and "undefined" in row["se_reason"]
               for p in res["policies"] for row in res["regret"][p])
    assert "+- undefined" in (tmp_path / "report.md").read_text() and "(1 seed x 5 policies)" in res["conclusions"][0]
