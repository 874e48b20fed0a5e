"""Figures (matplotlib, no display): labelled axes and legends, sized for print, saved as PNG and PDF."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

__all__ = ["save", "regret_curves", "count_bounds"]

_STYLE = {"tacc": ("C0", "o"), "dnc": ("C1", "s"), "mf-ucb": ("C2", "^"), "ucb": ("C3", "v"), "lucb": ("C4", "D"),
          "weak-fixed": ("C5", "x"), "low-improving": ("C6", "+"), "rdfe": ("C7", "*")}


def _fig(width=6.4, height=4.0):
    fig, ax = plt.subplots(figsize=(width, height), dpi=120)
    ax.grid(True, alpha=0.3)
    return fig, ax


def save(fig, out_dir: Path, name: str, formats=("png", "pdf")) -> list[str]:
    """Write ``name``.png and ``name``.pdf (or the given formats); returns the file names."""
    out_dir.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    files = []
    for ext in formats:
        fig.savefig(out_dir / f"{name}.{ext}")
        files.append(f"{name}.{ext}")
    plt.close(fig)
    return files


def _finite(xs, ys):
    """The points with a finite y (an infinite bound is not drawn; the text says why)."""
    pts = [(x, y) for x, y in zip(xs, ys, strict=True) if math.isfinite(y)]
    return [x for x, _ in pts], [y for _, y in pts]


def regret_curves(budgets, curves: dict, *, title: str, bounds: dict | None = None, logy: bool = False,
                  identical=()):
    """Mean regret +- standard error against budget, one line per method; optional bound lines (dashed).

    ``identical`` lists groups of methods whose runs were identical on every seed: each group is drawn once,
    labelled ``a = b (identical runs)``, so no line hides another unannounced. A log scale is used only when
    every value drawn is positive; non-finite values are not drawn.
    """
    fig, ax = _fig()
    hidden = {q for g in identical for q in g[1:]}
    label = {g[0]: f"{' = '.join(g)} (identical runs)" for g in identical}
    drawn = []
    for name, (means, ses) in curves.items():
        if name in hidden:
            continue
        color, marker = _STYLE.get(name, (None, "o"))
        keep = [i for i, m in enumerate(means) if math.isfinite(m)]
        xs, ys, es = [budgets[i] for i in keep], [means[i] for i in keep], [ses[i] for i in keep]
        ax.errorbar(xs, ys, yerr=es, label=label.get(name, name), color=color, marker=marker, capsize=3, lw=1.5,
                    ms=4)
        drawn += ys
    dashes = iter(["--", ":", "-."] * 4)
    for name, values in (bounds or {}).items():
        color = _STYLE["rdfe"][0] if "rdfe" in name else _STYLE["tacc"][0]
        xs, ys = _finite(budgets, values)
        ax.plot(xs, ys, ls=next(dashes), lw=1.3, color=color, label=f"bound: {name}")
        drawn += ys
    ax.set_xscale("log", base=2)
    ax.set_xlabel("budget Lambda (separate runs per budget)")
    ax.set_ylabel("cost-weighted pseudo-regret R(Lambda)")
    ax.set_title(textwrap.fill(title, 70), fontsize=9)
    if logy and drawn and min(drawn) > 0:
        ax.set_yscale("log")
    ax.legend(fontsize=8)
    return fig


def count_bounds(arms, labels, series: dict, *, title: str, ylabel: str):
    """Per-arm counts (mean and max over seeds) against their bound, on a log scale."""
    fig, ax = _fig(max(6.4, 0.5 * len(arms) + 3), 4.0)
    x = list(range(len(arms)))
    drawn = []
    for name, (ys, style) in series.items():
        big = style == "_"
        xs, fy = _finite(x, [float(y) for y in ys])
        ax.plot(xs, fy, style, label=name, ms=22 if big else 6, mew=2.5 if big else 1)
        drawn += fy
    ax.set_xticks(x)
    ax.set_xticklabels(labels, rotation=45, ha="right", fontsize=8)
    if drawn and min(drawn) > 0:
        ax.set_yscale("log")
    ax.set_xlabel("arm (class)")
    ax.set_ylabel(ylabel)
    ax.set_title(textwrap.fill(title, 70), fontsize=9)
    ax.legend(fontsize=8)
    return fig
