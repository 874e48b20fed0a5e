"""The report's figures at any number of arms: bounded size, a stated rule for the arms drawn and what is left
out, fixed legends (no library warning), every label inside the figure, ticks on the points."""

import math
import warnings

import pytest
from matplotlib.layout_engine import TightLayoutEngine

from bounds import analyze, continuation_of, parse_config
from reports.figures import (MAX_ARMS, arms_shown, count_distribution, count_note, new_figure,
                              regret_curves, shown_note, tightness)


def _laid_out(fig):
    TightLayoutEngine().execute(fig)
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def _inside(fig, texts, box):
    """Each non-empty text's drawn extent lies in ``box`` (a Bbox in display pixels)."""
    renderer = _laid_out(fig)
    out = []
    for t in texts:
        if t.get_visible() and t.get_text():
            e = t.get_window_extent(renderer)
            out.append((t.get_text(), box.x0 <= e.x0 and e.x1 <= box.x1 and box.y0 <= e.y0 and e.y1 <= box.y1))
    return out


def _many_arms(k=2000):
    return parse_config({"name": "many", "instance": {
        "means": {"distribution": "uniform", "low": 0.1, "high": 0.9, "n_arms": k}, "seed": 0,
        "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5, "signs": "random"}},
        "costs": {"low": 1.0, "high": 10.0},
        "params": {"budget": 2e5, "delta": 0.05, "rho": "min", "gamma": 0.063, "eta": 1e-4, "s0": 10}})


# --- which arms a per-arm figure draws --------------------------------------------------------------------------
def test_arms_shown_are_the_smallest_gaps_in_arm_order():
    gaps = [0.3, 0.0, 0.1, 0.5, 0.1, 0.2]
    assert arms_shown(gaps, limit=3) == [1, 2, 4]                 # k* (gap 0) first, a tie by index
    assert arms_shown(gaps, among=[0, 2, 3, 4, 5], limit=2) == [2, 4]
    assert arms_shown(gaps, limit=100) == list(range(6))           # all fit: every arm, in arm order
    assert arms_shown([], limit=3) == []
    assert shown_note(6, 6) == "" and shown_note(3, 6) == "3 of 6 arms drawn: the 3 with the smallest gaps; 3 left out"


def test_count_note_names_a_tied_best_arm_and_the_arms_left_out():
    assert count_note([0.0, 0.2, 0.3], 2, 2) == ""                  # k* alone, every suboptimal arm drawn
    tie = count_note([0.0, 0.0, 0.2, 0.2, 0.4], 3, 3)
    assert "1 arm(s) tied with the best mean (1; gap 0) drawn with the low-count bound" in tie
    assert "high-count" not in tie and "not drawn" not in tie and "left out" not in tie
    high = count_note([0.0, 0.0, 0.2, 0.2, 0.4], 3, 3, "high")      # each figure says only what it draws
    assert "drawn without a high-count bound bar" in high and "low-count" not in high
    # more tied arms than MAX_ARMS: the note counts the tied arms drawn, and the suboptimal arms left out
    many = count_note([0.0] * 41, MAX_ARMS, 40)
    assert many.startswith(f"{MAX_ARMS} arm(s) tied with the best mean (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ...; gap 0) "
                           f"drawn") and many.endswith("10 left out")
    assert count_note([0.0] + [0.1] * 40, MAX_ARMS, 40).endswith(f"{MAX_ARMS} of 40 suboptimal arms drawn: the "
                                                                 f"{MAX_ARMS} with the smallest gaps; 10 left out")


def test_continuation_window_at_2000_arms_draws_the_smallest_gaps_and_says_how_many_are_left_out():
    from reports.views._continuation import window_figure
    a = analyze(_many_arms())
    gaps = [float(g) for g in a.instance.gaps]
    fig = window_figure(continuation_of(a), a.classes, gaps=gaps)
    ax = fig.axes[0]
    shown = arms_shown(gaps)
    assert [int(t.get_text().split()[0]) for t in ax.get_yticklabels()] == shown[::-1]
    assert a.instance.best_arm in shown and len(shown) == MAX_ARMS
    assert f"{MAX_ARMS} of 2000 arms drawn: the {MAX_ARMS} with the smallest gaps; {2000 - MAX_ARMS} left out" \
        in ax.get_title()
    w, h = fig.get_size_inches()
    assert w * h <= 6.4 * (0.32 * MAX_ARMS + 1.8)
    # without gaps: the first arms, and the title still says how many are left out
    assert "30 of 2000 arms drawn: the first 30; 1970 left out" in window_figure(continuation_of(a)).axes[0].get_title()


def test_continuation_window_labels_stay_inside_the_axes():
    from reports.views._continuation import window_figure
    from reports.report import default_config
    a = analyze(default_config())
    fig = window_figure(continuation_of(a), a.classes)
    ax = fig.axes[0]
    marks = [t for t in ax.texts if t.get_text().startswith("tau=")]
    assert {t.get_text() for t in marks} >= {"tau=1", "tau=inf"}
    assert all(ok for _, ok in _inside(fig, marks, ax.bbox)), _inside(fig, marks, ax.bbox)


def test_count_figure_size_is_bounded_and_its_legend_lists_the_classes_then_the_bound():
    labels = [f"{k} (B)" for k in range(MAX_ARMS)]
    groups = [{"A": [1, 2]} if k == 0 else {"B": [3, 4, 5]} for k in range(MAX_ARMS)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = count_distribution(labels, groups, [6.0] * MAX_ARMS, title="t", ylabel="N", bound_label="bound",
                                 note="a note")
    assert fig.get_size_inches()[0] <= 19.0
    leg = fig.axes[0].get_legend()
    assert [t.get_text() for t in leg.get_texts()] == ["runs with the arm in A", "runs with the arm in B", "bound"]
    assert leg._loc != 0                                   # a fixed place, not "best" (0)
    assert fig._suptitle.get_text().endswith("\na note")
    texts = [fig._suptitle, *leg.get_texts()]
    assert [t for t, ok in _inside(fig, texts, fig.bbox) if not ok] == []
    few = count_distribution(["2 (A)", "3 (A)"], [{"A": [1]}, {"A": [1]}], [6.0, 6.0], ylabel="N",
                             title="high-fidelity counts of TACC over 5 seeds against their bound, by the arm's class "
                                   "in the run", bound_label="bound 1 + ceil(4 ell / Delta^2) (prop:x)",
                             note=count_note([0.0, 0.0, 0.2, 0.2], 2, 2))
    texts = [few._suptitle, *few.axes[0].get_legend().get_texts()]
    assert [t for t, ok in _inside(few, texts, few.bbox) if not ok] == []


def test_a_tied_arm_is_drawn_with_the_low_bound_and_no_high_bound_as_the_note_says():
    """t_two (mu_high = [0.9, 0.9, 0.7, 0.6]): arm 1, tied with k*, is drawn in both count figures, with the
    low-count bound and no high-count bar; the note said it was not drawn."""
    cfg = parse_config({"name": "t_two", "instance": {
        "mu_high": [0.9, 0.9, 0.7, 0.6], "noise": {"model": "gaussian", "sigma": 1.0},
        "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5, "signs": "random"}},
        "costs": {"low": 1.0, "high": 10.0},
        "params": {"budget": 20000, "delta": 0.05, "rho": "min", "gamma": 0.063, "eta": 1e-4, "s0": 10}})
    a = analyze(cfg)
    sub = [k for k in range(a.instance.n_arms) if k != a.instance.best_arm]
    shown = arms_shown(a.instance.gaps, among=sub)
    note = count_note(a.instance.gaps, len(shown), len(sub))
    labels = [f"{k} ({a.classes[k].value})" for k in shown]
    assert shown == [1, 2, 3] and math.isinf(a.high_count_bound[1])
    groups = [{"A": [1, 2]} for _ in shown]
    high = count_distribution(labels, groups, [float(a.high_count_bound[k]) for k in shown], title="t",
                              ylabel="N", bound_label="bound", note=note)
    low = count_distribution(labels, groups, [float(a.low_count_bound)] * 3, title="t", ylabel="N",
                             bound_label="bound", note=note)
    bars = {fig: [round(ln.get_xdata()[0] + 0.45) for ln in fig.axes[0].lines
                  if ln.get_color() == "k" and ln.get_linewidth() == 2] for fig in (high, low)}
    assert 0 not in bars[high] and 0 in bars[low]                     # arm 1 (position 0): a low bar, no high bar
    for fig in (high, low):
        assert [t.get_text() for t in fig.axes[0].get_xticklabels()][0].startswith("1 (")
        assert "1 arm(s) tied with the best mean (1; gap 0) drawn with the low-count bound" in \
            fig._suptitle.get_text().replace("\n", " ")


# --- tightness: what is not drawn is said, the title fits ----------------------------------------------------------
def test_tightness_says_undefined_ratios_and_its_title_fits():
    title = "tightness at the full budget: empirical / bound per run (1000 seeds x 5 policies)"
    fig = tightness({"fidelity-rule (lem:fidelity-rule)": [math.nan] * 3000, "x (lem:x)": [0.5, math.nan, 0.25],
                     "y (lem:y)": [], "z (lem:z)": [math.inf, 0.5]}, title=title)
    ax = fig.axes[0]
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert ticks == ["fidelity-rule (lem:fidelity-rule)\n3000 run(s) 0 / 0: ratio undefined",
                     "x (lem:x)\n1 run(s) 0 / 0: ratio undefined", "y (lem:y)\nno asserted run",
                     "z (lem:z)\n1 run(s) > 0 / 0: ratio infinite"]
    assert sorted(ax.collections[0].get_offsets()[:, 0].tolist()) == [0.25, 0.5, 0.5]
    texts = [fig._suptitle, *ax.get_yticklabels(), *ax.get_legend().get_texts()]
    assert [t for t, ok in _inside(fig, texts, fig.bbox) if not ok] == []
    assert ax.get_legend()._loc != 0


def test_tightness_says_a_vacuous_claim_as_the_table_does():
    """gap_tiny: rdfe-theorem HOLDS on 5 runs, every one vacuous (bound inf): the label said "no asserted run"."""
    fig = tightness({"rdfe-theorem (thm:app-rdfe-regret)": [], "x (lem:x)": [0.5, 0.25], "y (lem:y)": []},
                    title="t", vacuous={"rdfe-theorem (thm:app-rdfe-regret)": 5, "x (lem:x)": 2})
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert ticks == ["rdfe-theorem (thm:app-rdfe-regret)\n5 run(s) vacuous: bound inf",
                     "x (lem:x)\n2 run(s) vacuous: bound inf", "y (lem:y)\nno asserted run"]


def test_regret_curves_say_an_infinite_bound_in_its_legend_entry():
    """gap_tiny: thm:app-rdfe-regret (corrected) is infinite at every budget: its legend entry had no line and no
    word of why."""
    budgets = [1250.0, 2500.0, 5000.0]
    fig = regret_curves(budgets, {"tacc": ([1.0, 2.0, 3.0], [0.1] * 3)}, title="t", logy=True,
                        bounds={"a": [math.inf] * 3, "b": [math.inf, 5.0, 6.0], "c": [4.0, 5.0, 6.0]})
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == [
        "bound: a = inf at every budget: vacuous, not drawn", "bound: b = inf at Lambda = 1250: vacuous, not drawn "
        "there", "bound: c", "tacc"]


def test_regret_curves_draw_equal_bounds_once_and_a_one_budget_bound_as_a_point():
    """Bounds equal at every budget (the theorem's two forms) are drawn once, under one legend entry naming both,
    not on top of each other; a report of one budget draws its bounds as points (a line of one point shows
    nothing)."""
    fig = regret_curves([100.0], {"tacc": ([1.0], [0.1])}, title="t",
                        bounds={"a": [5.0], "b": [5.0], "rdfe c": [7.0]})
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert texts[:2] == ["bound: a = b", "bound: rdfe c"]
    lines = [ln for ln in fig.axes[0].get_lines() if ln.get_label().startswith("bound")]
    assert len(lines) == 2 and all(ln.get_marker() not in (None, "None", "") for ln in lines)


def test_regret_curves_name_the_methods_a_line_hides():
    """set-b --quick: TACC's runs differ from DNC's (continuation pulls on arms of gap 0) but their regret is equal:
    the tacc line was hidden under dnc's without a word. Identical runs keep their own label."""
    budgets = [1.0, 2.0]
    fig = regret_curves(budgets, {"tacc": ([1.0, 2.0], [0.1, 0.2]), "ucb": ([3.0, 4.0], [0.1, 0.1]),
                                  "lucb": ([3.0, 4.0], [0.1, 0.1]), "dnc": ([1.0, 2.0], [0.1, 0.2]),
                                  "mf-ucb": ([1.0, 2.0], [0.1, 0.3])}, title="t", identical=[("ucb", "lucb")])
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == [
        "tacc = dnc (equal regret)", "ucb = lucb (identical runs)", "mf-ucb"]


def _pixels_of(fig, colour: str) -> int:
    """How many pixels inside the axes are drawn in ``colour`` (a matplotlib colour), the legend left out."""
    import numpy as np
    from matplotlib.colors import to_rgb
    fig.axes[0].get_legend().remove()
    fig.canvas.draw()
    img = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].astype(int)
    x0, y0, x1, y1 = (int(round(v)) for v in fig.axes[0].bbox.extents)
    h = img.shape[0]
    box = img[h - y1:h - y0, x0:x1]
    want = np.array([round(255 * c) for c in to_rgb(colour)])
    return int((np.abs(box - want).sum(axis=2) <= 6).sum())


def test_a_curve_that_follows_another_stays_visible():
    """Set A: MF-UCB's and LUCB's regret differ by under 1% at every budget, and the solid lucb line (drawn after)
    hid mf-ucb's: the reader saw three of the four methods of the legend. LUCB's line is dotted with hollow markers,
    so MF-UCB's shows through: a good part of its pixels are still drawn (with lucb solid: under a tenth)."""
    budgets = [62500.0, 125000.0, 250000.0, 500000.0, 1e6]
    mf = [10200.0, 15100.0, 21000.0, 33000.0, 69500.0]
    curves = {"mf-ucb": (mf, [50.0] * 5), "lucb": ([m * 1.003 for m in mf], [50.0] * 5)}
    alone = _pixels_of(regret_curves(budgets, {"mf-ucb": curves["mf-ucb"]}, title="t"), "C2")
    both = _pixels_of(regret_curves(budgets, curves, title="t"), "C2")
    assert both > 0.3 * alone, (both, alone)


def test_tightness_ratios_merge_the_cells_of_a_claim_and_keep_an_undefined_ratio():
    """Per claim, the ratios of every cell (configuration, policy) of the certificate's tally, 0 / 0 kept as NaN."""
    from types import SimpleNamespace

    from certify import Histogram
    from reports.report._report import tightness_ratios

    def hist(*xs):
        h = Histogram()
        for x in xs:
            h.add(x)
        return h

    summ = (SimpleNamespace(key="x", label="lem:x"), SimpleNamespace(key="y", label="lem:y"))
    cells = {1: SimpleNamespace(claim="x", ratios=hist(math.nan, 0.5)), 2: SimpleNamespace(claim="x", ratios=hist(0.5)),
             3: SimpleNamespace(claim="z", ratios=hist(0.1))}
    out = tightness_ratios(SimpleNamespace(summaries=summ, tally=SimpleNamespace(cells=cells)))
    assert out == {"x (lem:x)": hist(0.5, 0.5, math.nan), "y (lem:y)": Histogram()}


# --- regret against budget: ticks on the budgets, a fixed legend ------------------------------------------------
def test_regret_curves_tick_at_the_budgets():
    budgets = [250.0, 500.0, 1000.0, 2000.0, 4000.0]
    fig = regret_curves(budgets, {"tacc": ([1.0, 2.0, 3.0, 4.0, 5.0], [0.1] * 5)}, title="t", logy=True,
                        ticks_at_budgets=True)
    ax = fig.axes[0]
    assert list(ax.get_xticks()) == budgets and [t.get_text() for t in ax.get_xticklabels()] == \
        ["250", "500", "1000", "2000", "4000"]
    assert list(ax.xaxis.get_minorticklocs()) == []
    assert ax.get_legend()._loc != 0
    plain = regret_curves(budgets, {"tacc": ([1.0, 2.0, 3.0, 4.0, 5.0], [0.1] * 5)}, title="t")
    assert list(plain.axes[0].get_xticks()) != budgets                   # powers of 2 unless asked


@pytest.mark.parametrize("k", [5, 100])
def test_no_library_warning_whatever_k(k):
    import numpy as np
    labels = [f"{i} (B)" for i in range(min(k, MAX_ARMS))]
    groups = [{"B": np.arange(2000).tolist()} for _ in labels]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        count_distribution(labels, groups, [6.0] * len(labels), title="t", ylabel="N", bound_label="bound")
        tightness({"x (lem:x)": np.linspace(0, 1, 5000).tolist()}, title="t")
        regret_curves(list(range(1, k + 1)), {"tacc": (list(range(1, k + 1)), [0.0] * k)}, title="t")


# --- drawing cost: the same figure for less work --------------------------------------------------------------------
def test_boxes_in_one_call_are_the_boxes_of_one_call_each():
    """``count_distribution`` and ``tightness`` draw all their boxes in one ``boxplot`` call: the same lines (data,
    colour, width, style, order) as a call per box with its median colour."""
    from reports.figures._draw import _boxes
    boxes = [([1.0, 2.0, 3.0, 10.0], 0.1, 0.3, "C2"), ([5.0], 0.5, 0.2, "C3"), ([2.0, 4.0], 1.0, 0.6, None)]
    _, one = new_figure(4, 3)
    _boxes(one, boxes)
    _, each = new_figure(4, 3)
    for ys, x, w, colour in boxes:
        each.boxplot([ys], positions=[x], widths=w, showfliers=False, manage_ticks=False,
                     **({"medianprops": {"color": colour}} if colour else {}))

    def lines(ax):
        return [(ln.get_xydata().tolist(), ln.get_color(), ln.get_linewidth(), ln.get_linestyle(), ln.get_zorder())
                for ln in ax.lines]
    assert lines(one) == lines(each) and len(lines(one)) == 3 * 6
    assert lines(one)[5][1] == "C2" and lines(one)[-1][1] != "C2"       # the median colours, box by box
    _, none = new_figure(4, 3)
    _boxes(none, [])
    assert len(none.lines) == 0


def test_the_figures_module_imports_no_pyplot():
    """Figures are drawn on the Agg canvas without pyplot: importing them neither imports pyplot (its figure
    registry) nor chooses a backend for the process (``matplotlib.use`` at import did)."""
    import os
    import subprocess
    import sys
    code = ("import sys, matplotlib, reports.figures._draw; "
            "print('matplotlib.pyplot' in sys.modules, matplotlib.rcParams._get('backend'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "MPLBACKEND": "svg"}).stdout.split()
    assert out == ["False", "svg"]


def test_the_package_imports_matplotlib_only_when_a_figure_is_drawn():
    """``reports.figures`` gives what the report's main process uses (the helper, the memo's folder, which arms are
    shown, the notes) without importing matplotlib or the engines; the first drawing function imports matplotlib."""
    import subprocess
    import sys
    code = ("import sys, reports.figures as f; f.FIGURE_MEMO; f.arms_shown; f.off_event_note; f.FigureMemo; "
            "print('matplotlib' in sys.modules, 'numba' in sys.modules); f.save; print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False", "True"]


def test_continuation_window_legend_covers_no_label_at_two_rows(tmp_path):
    """cfg/m_checkpoint_rows (2 arms): the legend, placed at a fraction of the axes' height, covered the x label."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from reports.views._continuation import window_figure
    from reports.figures import save
    params = {"budget": 20000, "delta": 0.05, "rho": "min", "gamma": 0.063, "eta": 1e-4, "s0": 10}
    rows = {"name": "m_checkpoint_rows", "instance": {
        "mu_high": [0.9, 0.8], "noise": {"model": "bernoulli"},
        "low": {"model": "checkpoint", "q": [32, 64, 128], "gap": [[0.1, 0.05, 0.01], [0.2, 0.1, 0.0]], "q_max": 128,
                "signs": [1, -1]}}, "costs": {"low": 1.0, "high": 10.0}, "params": params}
    for n in (2, 3, 8, MAX_ARMS):
        cfg = parse_config(rows if n == 2 else {
            "name": "rows", "instance": {"mu_high": [0.9 - 0.01 * i for i in range(n)],
                                         "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5}},
            "costs": {"low": 1.0, "high": 10.0}, "params": params})
        a = analyze(cfg)
        fig = window_figure(continuation_of(a), a.classes, gaps=[float(g) for g in a.instance.gaps])
        save(fig, tmp_path, f"w{n}", formats=("png",))                  # lays the figure out
        ax, r = fig.axes[0], FigureCanvasAgg(fig).get_renderer()
        legend = ax.get_legend().get_window_extent(r)
        labels = [ax.xaxis.label, *ax.get_xticklabels()]
        assert [t.get_text() for t in labels if t.get_text() and legend.overlaps(t.get_window_extent(r))] == [], n
        assert fig.bbox.contains(legend.x0, legend.y0) and fig.bbox.contains(legend.x1, legend.y1)


def test_continuation_window_s_count_axis_starts_at_zero_at_the_lowest():
    # N_gamma = 1, S0 = 10 (a report on a tiny instance): the low-fidelity count axis started at -10
    from reports.views._continuation import window_figure
    d = {"name": "tiny", "instance": {"mu_high": [0.5, 0.4, 0.3], "noise": {"model": "gaussian", "sigma": 1e-100},
                                      "low": {"model": "power_decay", "zeta": 1e-12, "r": 0.5}},
         "costs": {"low": 1.0, "high": 10.0},
         "params": {"budget": 10000, "gamma": 1e-12, "eta": 1e-4, "s0": 10}}
    c = continuation_of(analyze(parse_config(d)))
    assert c.window.n_gamma - c.window.s0 - 1 < 0
    lo, hi = window_figure(c).axes[0].get_xlim()
    assert lo == 0 and hi > c.window.n_gamma + c.window.s0
