"""``tacc report``: every file, non-empty figures, results.json equal to the run records, a pinned structure."""

import json
import re

import pytest

from bounds import arm_partition
from reports._report import budget_sweep, default_config, make_report
from simulate import make_problem, run_tasks, tasks_for

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
    for stem in ("regret_vs_budget", "low_counts", "high_counts", "continuation_window"):
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
    from reports._continuation_view import window_figure
    a = analyze(default_config())
    c = continuation_of(a)
    fig = window_figure(c, a.classes)
    bars = [p for p in fig.axes[0].patches if p.get_width() > 0]
    assert sorted(round(b.get_width()) for b in bars) == sorted(w for w in c.window.pulls if w)
    assert all(b.get_x() == c.window.n_gamma - 0.5 for b in bars)
