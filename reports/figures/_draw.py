"""Figures (matplotlib, no display): labelled axes and legends, sized for print, saved as PNG and PDF."""

from __future__ import annotations

import math
import os
import textwrap
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.layout_engine import TightLayoutEngine

from certify import MAX_DISTINCT, MAX_POINTS, Histogram
from reports.figures._off_event import OFF_EVENT_LABEL
from reports.paths import partial

__all__ = ["save", "new_figure", "regret_curves", "count_distribution", "tightness", "LEGEND"]

_STYLE = {"tacc": ("C0", "o"), "dnc": ("C1", "s"), "mf-ucb": ("C2", "^"), "ucb": ("C3", "v"), "lucb": ("C4", "D"),
          "weak-fixed": ("C5", "x"), "low-improving": ("C6", "+"), "rdfe": ("C7", "*")}
#: the line of each method's curve: solid, except the methods drawn after another whose curve theirs can follow
#: closely without being equal (LUCB after MF-UCB on Set A: the solid mf-ucb line was hidden under lucb's), which
#: are dashed or dotted with their markers hollow, so the line below shows through.
_LINE = {"dnc": (0, (6, 3)), "lucb": (0, (2, 2.5)), "low-improving": (0, (6, 2, 1.5, 2))}


#: where every legend goes: right of the axes, where no data is drawn (a fixed place: loc="best" searches the data,
#: which matplotlib warns is slow on many points)
LEGEND = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "borderaxespad": 0}


def new_figure(width: float, height: float):
    """A figure of ``width`` x ``height`` inches at 120 dpi with one Axes, drawn by the Agg canvas (no pyplot: no
    global figure registry to close a figure in, no backend chosen for the whole process)."""
    fig = Figure(figsize=(width, height), dpi=120)
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def _fig(width=6.4, height=4.0):
    fig, ax = new_figure(width, height)
    ax.grid(True, alpha=0.3)
    return fig, ax


#: resolution of the layers drawn as an image inside a PDF (the per-seed points, ``rasterized=True``): print quality.
_PDF_RASTER_DPI = 300


def save(fig, out_dir: Path, name: str, formats=("png", "pdf")) -> list[str]:
    """Write ``name``.png and ``name``.pdf (or the given formats); returns the file names.

    The tight layout is made once and applied without leaving a layout engine on the figure
    (``Figure.tight_layout`` leaves a placeholder engine, which makes every ``savefig`` lay the whole figure out again
    before drawing it). Each file is written whole or not at all: drawn into ``.name.ext.<pid>.partial`` beside it, then
    renamed over it, so an interrupt never leaves a truncated figure under its name.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    TightLayoutEngine().execute(fig)
    files = []
    for ext in formats:
        temporary = partial(out_dir / f"{name}.{ext}")
        fig.savefig(temporary, format=ext, **({"dpi": _PDF_RASTER_DPI} if ext == "pdf" else {}))
        os.replace(temporary, out_dir / f"{name}.{ext}")
        files.append(f"{name}.{ext}")
    return files


def _finite(xs, ys):
    """The points with a finite y (an infinite bound is not drawn; the text says why)."""
    pts = [(x, y) for x, y in zip(xs, ys, strict=True) if math.isfinite(y)]
    return [x for x, _ in pts], [y for _, y in pts]


def _equal_curves(curves: dict) -> list[tuple]:
    """Groups (two or more, in ``curves`` order) of methods whose (means, standard errors) are equal, exactly."""
    groups: dict = {}
    for name, (means, ses) in curves.items():
        groups.setdefault((tuple(means), tuple(ses)), []).append(name)
    return [tuple(g) for g in groups.values() if len(g) > 1]


def _infinite_note(budgets, values) -> str:
    """What a bound's legend entry says of the budgets where the bound is infinite (not drawn there): nothing when
    it is finite at every budget."""
    inf = [b for b, v in zip(budgets, values, strict=True) if not math.isfinite(v)]
    if not inf:
        return ""
    if len(inf) == len(values):
        return " = inf at every budget: vacuous, not drawn"
    return f" = inf at Lambda = {', '.join(f'{b:g}' for b in inf)}: vacuous, not drawn there"


def regret_curves(budgets, curves: dict, *, title: str, bounds: dict | None = None, logy: bool = False,
                  identical=(), ticks_at_budgets: bool = False,
                  xlabel: str = "budget Lambda (separate runs per budget)"):
    """Mean regret +- standard error against budget, one line per method; optional bound lines (dashed).

    ``identical`` lists groups of methods whose runs were identical on every seed: each group is drawn once,
    labelled ``a = b (identical runs)``; other methods whose means and standard errors are equal at every budget
    (runs that differ, the same regret) are drawn once labelled ``a = b (equal regret)``, so no line hides another
    unannounced. A log scale is used only when
    every value drawn is positive; non-finite values are not drawn. With ``ticks_at_budgets`` the x axis is ticked
    at the budgets themselves (the points sit on their ticks) rather than at powers of 2; ``xlabel`` names the x
    axis (another swept quantity, such as rho / rho_min).
    """
    fig, ax = _fig(6.4, 5.0)                          # the legend below the axes takes the extra inch
    hidden = {q for g in identical for q in g[1:]}
    label = {g[0]: f"{' = '.join(g)} (identical runs)" for g in identical}
    for g in _equal_curves({n: c for n, c in curves.items() if n not in hidden and n not in label}):
        hidden.update(g[1:])
        label[g[0]] = f"{' = '.join(g)} (equal regret)"
    drawn = []
    for name, (means, ses) in curves.items():
        if name in hidden:
            continue
        color, marker = _STYLE.get(name, (None, "o"))
        keep = [i for i, m in enumerate(means) if math.isfinite(m)]
        xs, ys, es = [budgets[i] for i in keep], [means[i] for i in keep], [ses[i] for i in keep]
        line = _LINE.get(name, "-")
        ax.errorbar(xs, ys, yerr=es, label=label.get(name, name), color=color, marker=marker, capsize=3, lw=1.5,
                    ms=4 if line == "-" else 5, ls=line, **({} if line == "-" else {"mfc": "none"}))
        drawn += ys
    dashes = iter(["--", ":", "-."] * 4)
    # bounds equal at every budget drawn once, named together (the theorem's two forms with every C arm in C^d, or
    # every bound 0 on tied arms, were drawn on top of each other); a point marker so a one-budget bound shows
    same_bound: dict = {}
    for name, values in (bounds or {}).items():
        same_bound.setdefault(tuple(values), []).append(name)
    for values_t, names in same_bound.items():
        values = list(values_t)
        color = _STYLE["rdfe"][0] if all("rdfe" in n for n in names) else _STYLE["tacc"][0]
        xs, ys = _finite(budgets, values)
        ax.plot(xs, ys, ls=next(dashes), lw=1.3, color=color, marker=".", ms=5,
                label=f"bound: {' = '.join(names)}{_infinite_note(budgets, values)}")
        drawn += ys
    ax.set_xscale("log", base=2)
    if ticks_at_budgets:
        from matplotlib.ticker import NullLocator
        ax.set_xticks(list(budgets), [f"{b:g}" for b in budgets])
        ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel(xlabel)
    ax.set_ylabel("cost-weighted pseudo-regret R(Lambda)")
    ax.set_title(textwrap.fill(title, 70), fontsize=9)
    if logy and drawn and min(drawn) > 0:
        ax.set_yscale("log")
    if ax.get_legend_handles_labels()[0]:          # nothing labelled: no legend (matplotlib would warn)
        # below the axes (fixed size figure: the fraction clears the x label), so the axes keep the figure's width
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    return fig


#: colours of the run classes of an arm (eq:analysis-arm-partition, C refined by the run into C^d / C^u).
_CLASS_COLOUR = {"A": "C0", "B": "C1", "C^d": "C2", "C^u": "C3", "C": "C4"}


#: how an off-event run's point is drawn: a black cross, unlike every class's dot.
_OFF_EVENT_STYLE = {"marker": "x", "color": "k", "s": 16, "linewidths": 0.8, "alpha": 0.8}


def count_distribution(labels, groups: list, bounds: list, *, title: str, ylabel: str, bound_label: str,
                       note: str = "", off_event: list | None = None):
    """Per arm, the distribution of a count over seeds against its bound: one box per (arm, run class) with the
    seeds drawn as points, so an arm in C appears as two boxes, C^d and C^u, when its runs split. ``groups[i]``
    maps a run class to arm i's counts in the runs of that class: a ``certify.Histogram`` (the report's, counted as
    the runs came) or the counts themselves; ``bounds[i]`` is arm i's bound (a bar). ``note`` (which arms are left
    out, and why) is printed under the title. ``off_event`` (the shape of ``groups``: a Histogram of the counts of
    the runs on which the confidence event of ``lem:ci`` failed, or a flag per count) marks those runs: the bound is
    not asserted on them, and their points are black crosses with their own legend entry (:data:`OFF_EVENT_LABEL`);
    the box is of every run. Each box holds every run; at most ``certify.MAX_POINTS`` points are drawn per box (past
    that, values at evenly spaced quantiles, which the title says). The legend lists the classes, then the off-event
    runs, then the bound; the figure is at most 19 inches wide (a caller draws at most ``MAX_ARMS`` arms: see
    :func:`arms_shown`)."""
    fig, ax = _fig(min(max(6.4, 0.9 * len(labels) + 3), 16.0) + 3.0, 4.2)     # + 3 inches for the legend
    seen = set()
    drawn = []
    sampled = False
    boxes: list = []                               # (histogram, position, width, median colour) of every box
    for i, (by_class, _) in enumerate(zip(groups, bounds, strict=True)):
        cls = [c for c in _CLASS_COLOUR if c in by_class] + [c for c in by_class if c not in _CLASS_COLOUR]
        width = 0.8 / max(len(cls), 1)
        for j, c in enumerate(cls):
            every = _histogram(by_class[c])
            if every.total == 0:
                continue
            off = (_histogram(_off_counts(by_class[c], off_event[i].get(c))) if off_event is not None
                   else Histogram())
            x = i - 0.4 + width * (j + 0.5)
            colour = _CLASS_COLOUR.get(c, "C7")
            boxes.append((every, x, width * 0.8, colour))
            on = every.without(off)
            for part, style in ((on, None), (off, _OFF_EVENT_STYLE)):
                ys = part.points()
                sampled = sampled or ys.size < part.total
                if style is None and (ys.size or c not in seen):   # an empty dot when every run is off the event
                    ax.scatter(x + _jitter(ys.size, width * 0.3), ys, s=6, alpha=0.5, color=colour, rasterized=True,
                               label=None if c in seen else f"runs with the arm in {c}")
                elif style is not None and ys.size:
                    ax.scatter(x + _jitter(ys.size, width * 0.3), ys, rasterized=True, **style,
                               label=None if OFF_EVENT_LABEL in seen else OFF_EVENT_LABEL)
                    seen.add(OFF_EVENT_LABEL)
            seen.add(c)
            values, _ = every.finite()
            drawn += [float(values.min()), float(values.max())] if values.size else []
    _boxes(ax, boxes)
    for i, bound in enumerate(bounds):
        if math.isfinite(bound):
            ax.plot([i - 0.45, i + 0.45], [bound, bound], color="k", lw=2,
                    label=None if "bound" in seen else bound_label)
            seen.add("bound")
            drawn.append(bound)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=45, ha="right", fontsize=8)
    if drawn and min(drawn) > 0:
        ax.set_yscale("log")
    ax.set_xlabel("arm (class before the run)")
    ax.set_ylabel(ylabel)
    lines = [textwrap.fill(title, 80)] + ([textwrap.fill(note, 80)] if note else [])
    if sampled:
        lines.append(textwrap.fill(_SAMPLED, 80))
    # over the whole figure (centred over the axes, which the legend pushes left, a long title was cut at the left)
    fig.suptitle("\n".join(lines), fontsize=9)
    handles, names = ax.get_legend_handles_labels()
    if handles:                                    # nothing labelled: no legend (matplotlib would warn)
        # the classes first, then the off-event runs, then the bound
        order = sorted(range(len(names)), key=lambda i: (names[i] == OFF_EVENT_LABEL) + 2 * (names[i] == bound_label))
        ax.legend([handles[i] for i in order], [names[i] for i in order], fontsize=7, **LEGEND)
    return fig


#: what a figure says when a box has more runs than points drawn (``certify.Histogram.points``).
_SAMPLED = (f"Boxes of every run; where a box has more than {MAX_POINTS} runs, {MAX_POINTS} points are drawn at evenly "
            f"spaced quantiles of its runs, its smallest and largest among them.")


def _histogram(values) -> Histogram:
    """``values`` as a ``certify.Histogram`` (itself if it is one)."""
    if isinstance(values, Histogram):
        return values
    h = Histogram()
    for x in values:
        h.add(float(x))
    return h


def _off_counts(values, off):
    """The counts of the runs off the event: ``off`` itself when it is a Histogram, else the values it flags (none
    when ``off`` is None: no run of the class was off the event)."""
    if off is None:
        return []
    if isinstance(off, Histogram):
        return off
    return [x for x, flag in zip(values, off, strict=True) if flag]


def _jitter(n: int, half: float):
    """Horizontal offsets of ``n`` points of one box, evenly spread over +- ``half``."""
    import numpy as np
    return np.linspace(-half, half, n) if n > 1 else np.zeros(n)


def _boxes(ax, boxes: list, **kwargs) -> None:
    """Draw ``boxes`` (each ``(values, position, width, median colour or None)``, the values a ``certify.Histogram``
    or a sequence) without fliers or ticks, in one ``Axes.bxp`` call, from each box's statistics
    (``Histogram.box``: what ``Axes.boxplot`` computes from the values written out; one call reads the rcParams once:
    profiled, one call per box took 2.2 s of the report's five figures where one call for all took 1.0 s)."""
    if not boxes:
        return
    stats = [_histogram(b[0]).box() for b in boxes]
    drawn = ax.bxp(stats, positions=[b[1] for b in boxes], widths=[b[2] for b in boxes], showfliers=False,
                   manage_ticks=False, **kwargs)
    for median, (*_, colour) in zip(drawn["medians"], boxes, strict=True):
        if colour is not None:
            median.set_color(colour)


def tightness(ratios: dict, *, title: str, vacuous: dict | None = None):
    """Per claim, empirical / bound over the runs it was asserted on (a box and the runs as points) against 1,
    where the bound is reached. ``ratios`` maps a claim to its runs' ratios: a ``certify.Histogram`` (the
    certificate's, counted as the runs were judged: ``Cell.ratios``) or the ratios themselves. A run whose ratio is
    undefined (0 / 0: NaN) or infinite is not drawn; the claim's label says how many there are. ``vacuous`` maps a
    claim to its vacuous runs (HOLDS with an infinite bound: no ratio in ``ratios``), which its label counts as the
    report's table does (``vacuous: bound inf``); a claim asserted on no run says so. Past ``certify.MAX_POINTS``
    runs a claim's points are values at evenly spaced quantiles, and past ``certify.MAX_DISTINCT`` distinct ratios
    the ratios are rounded (``Histogram.digits``): the title says so, with the largest relative error."""
    import numpy as np
    names = list(ratios)
    fig, ax = _fig(6.4, 0.35 * len(names) + 1.8)
    xs, ys_all = [], []                                     # every claim's points, drawn as one collection
    ticks = []
    boxes = []
    sampled, error = False, 0.0
    for i, name in enumerate(names):
        h = _histogram(ratios[name])
        values, _ = h.finite()
        ticks.append("\n".join([name] + _not_drawn(h, (vacuous or {}).get(name, 0))))
        error = max(error, h.relative_error)
        if values.size == 0:
            continue
        boxes.append((h, i, 0.6, None))
        ys = h.points()
        sampled = sampled or ys.size < h.total - h.count("nan") - h.count("inf")
        xs.append(ys)
        ys_all.append(i + _jitter(ys.size, 0.2))
    horizontal = ({"orientation": "horizontal"} if tuple(int(x) for x in matplotlib.__version__.split(".")[:2])
                  >= (3, 10) else {"vert": False})          # 'vert' is deprecated from matplotlib 3.10 on
    _boxes(ax, boxes, **horizontal)
    if xs:
        ax.scatter(np.concatenate(xs), np.concatenate(ys_all), s=5, alpha=0.4, color="C0", rasterized=True)
    ax.axvline(1.0, color="C3", lw=1.2, label="empirical = bound")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(ticks, fontsize=7)
    ax.set_xlabel("empirical / bound per run (asserted runs)")
    lines = [textwrap.fill(title, 70)]
    if sampled:
        lines.append(textwrap.fill(_SAMPLED, 70))
    if error:
        lines.append(textwrap.fill(f"Ratios rounded to within a relative {error:.0e} (more than {MAX_DISTINCT} "
                                   f"distinct values).", 70))
    # over the whole figure: centred over the axes, which the claims' names push right, it was cut at the right
    fig.suptitle("\n".join(lines), fontsize=9)
    if ax.get_legend_handles_labels()[0]:          # nothing labelled: no legend (matplotlib would warn)
        ax.legend(fontsize=7, **LEGEND)
    return fig


def _not_drawn(ratios: Histogram, vacuous: int = 0) -> list[str]:
    """What a claim's tick label says of its runs that have no point: none asserted, vacuous (the bound infinite),
    0 / 0, or an infinite ratio."""
    if ratios.total == 0 and not vacuous:
        return ["no asserted run"]
    out = [f"{vacuous} run(s) vacuous: bound inf"] if vacuous else []
    undefined, infinite = ratios.count("nan"), ratios.count("inf")
    if undefined:
        out.append(f"{undefined} run(s) 0 / 0: ratio undefined")
    if infinite:
        out.append(f"{infinite} run(s) > 0 / 0: ratio infinite")
    return out
