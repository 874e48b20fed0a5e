"""A distribution of values over runs kept as counts of distinct values: what a box-and-points figure of many runs
needs, in memory that does not grow with the number of runs.

Counts of queries are integers with few distinct values, so their histogram is exact at any number of runs; a ratio
(empirical / bound) can take a new value on every run, so past :data:`MAX_DISTINCT` distinct values the values are
rounded to fewer significant digits (:attr:`Histogram.digits`), every value then within a stated relative error
(:attr:`Histogram.relative_error`) of the value counted.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

__all__ = ["Histogram", "MAX_DISTINCT", "MAX_POINTS"]

#: distinct values a histogram keeps exactly; past it the values are rounded (:meth:`Histogram.add`).
MAX_DISTINCT = 2048
#: points a figure draws of one histogram (:meth:`Histogram.points`): every run's value up to it, else this many
#: values at evenly spaced quantiles.
MAX_POINTS = 2000
#: the fewest significant digits rounding goes down to.
_MIN_DIGITS = 2


def _rounded(x: float, digits: int) -> float:
    return float(f"{x:.{digits - 1}e}") if math.isfinite(x) else x


class Histogram:
    """Counts of values (ints or floats) over runs, NaN (an undefined value, 0 / 0) counted apart.

    Exact while at most :data:`MAX_DISTINCT` distinct values come; past that every value, counted and to come, is
    rounded to :attr:`digits` significant digits (6, then fewer, down to 2, until the distinct values fit), each
    then within :attr:`relative_error` of the value it stands for.

    >>> h = Histogram()
    >>> for x in (3, 1, 3, 2):
    ...     h.add(x)
    >>> h.total, h.box()["med"], h.box()["q3"]
    (4, 2.5, 3.0)
    """

    __slots__ = ("counts", "nan", "digits")

    def __init__(self):
        self.counts: Counter = Counter()
        self.nan = 0
        self.digits: int | None = None

    def add(self, x, times: int = 1) -> None:
        """Count ``x`` ``times`` times."""
        if x != x:                                  # NaN: not a key (it is unequal to itself)
            self.nan += times
            return
        if self.digits is not None:
            x = _rounded(x, self.digits)
        self.counts[x] += times
        if len(self.counts) > MAX_DISTINCT:
            self._coarsen()

    def update(self, other: "Histogram") -> None:
        """Count every value of ``other`` too."""
        self.nan += other.nan
        if other.digits is not None and (self.digits is None or other.digits < self.digits):
            self._round_to(other.digits)
        for x, n in other.counts.items():
            self.add(x, n)

    def without(self, other: "Histogram") -> "Histogram":
        """The values counted here and not in ``other`` (which counts a part of them, at the same rounding)."""
        out = Histogram()
        out.digits, out.nan = self.digits, self.nan - other.nan
        out.counts = self.counts - other.counts
        return out

    def _coarsen(self) -> None:
        digits = 6 if self.digits is None else self.digits - 1
        while True:
            self._round_to(digits)
            if len(self.counts) <= MAX_DISTINCT or digits <= _MIN_DIGITS:
                return
            digits -= 1

    def _round_to(self, digits: int) -> None:
        rounded: Counter = Counter()
        for x, n in self.counts.items():
            rounded[_rounded(x, digits)] += n
        self.counts, self.digits = rounded, digits

    @property
    def relative_error(self) -> float:
        """The largest relative error of a counted value: 0 when exact, else half a unit of the last digit kept."""
        return 0.0 if self.digits is None else 0.5 * 10.0 ** (1 - self.digits)

    @property
    def total(self) -> int:
        """Runs counted, NaN included."""
        return sum(self.counts.values()) + self.nan

    def count(self, which: str) -> int:
        """Runs whose value is ``nan`` (undefined) or ``inf`` (infinite, either sign)."""
        if which == "nan":
            return self.nan
        if which != "inf":
            raise ValueError(f"which: {which!r} is neither 'nan' nor 'inf'")
        return sum(n for x, n in self.counts.items() if math.isinf(x))

    def finite(self) -> tuple[np.ndarray, np.ndarray]:
        """The distinct finite values, ascending, and their counts."""
        items = sorted((x, n) for x, n in self.counts.items() if math.isfinite(x) and n > 0)
        return (np.array([float(x) for x, _ in items], dtype=float),
                np.array([n for _, n in items], dtype=np.int64))

    def box(self) -> dict:
        """The box of the finite values as ``matplotlib.cbook.boxplot_stats`` computes it on them written out one per
        run (whiskers at 1.5 times the interquartile range, quartiles by numpy's linear interpolation), for
        ``Axes.bxp``; no fliers (the figures draw every run's point instead). NaN entries when there is no finite
        value."""
        values, counts = self.finite()
        n = int(counts.sum())
        if n == 0:
            return {k: math.nan for k in ("mean", "med", "q1", "q3", "iqr", "cilo", "cihi", "whislo", "whishi")} | {
                "fliers": np.array([])}
        ends = np.cumsum(counts)                       # values[i] holds the sorted positions ends[i-1] .. ends[i]-1

        def at(position: int) -> float:
            return float(values[int(np.searchsorted(ends, position, side="right"))])

        def percentile(q: float) -> float:             # numpy's "linear" method, its _lerp written out
            h = (n - 1) * q
            below = math.floor(h)
            t = h - below
            a, b = at(below), at(min(below + 1, n - 1))
            return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t

        q1, med, q3 = percentile(0.25), percentile(0.5), percentile(0.75)
        iqr = q3 - q1
        lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
        inside = values[(values >= lo) & (values <= hi)]
        whishi = float(inside.max()) if inside.size and inside.max() >= q3 else q3
        whislo = float(inside.min()) if inside.size and inside.min() <= q1 else q1
        mean = math.fsum((values * counts).tolist()) / n
        return {"mean": mean, "med": med, "q1": q1, "q3": q3, "iqr": iqr, "cilo": med - 1.57 * iqr / math.sqrt(n),
                "cihi": med + 1.57 * iqr / math.sqrt(n), "whislo": whislo, "whishi": whishi, "fliers": np.array([])}

    def points(self, limit: int | None = None) -> np.ndarray:
        """Values to draw as points, in an order unrelated to their size (a fixed shuffle, so a figure is the same
        on every call): every run's finite value when there are at most ``limit`` (default :data:`MAX_POINTS`),
        else ``limit`` values at evenly spaced quantiles ((i + 1/2) / limit) of them, the first and the last
        replaced by the smallest and the largest value (a figure of bounds shows the run nearest its bound)."""
        limit = MAX_POINTS if limit is None else limit
        values, counts = self.finite()
        n = int(counts.sum())
        if n <= limit:
            out = np.repeat(values, counts)
        else:
            positions = ((np.arange(limit) + 0.5) * n / limit).astype(np.int64)
            positions[0], positions[-1] = 0, n - 1
            out = values[np.searchsorted(np.cumsum(counts), positions, side="right")]
        return np.random.default_rng(0).permutation(out)

    def __eq__(self, other) -> bool:
        return (isinstance(other, Histogram) and +self.counts == +other.counts and self.nan == other.nan
                and self.digits == other.digits)

    def __repr__(self) -> str:
        return f"Histogram({dict(sorted(self.counts.items()))!r}, nan={self.nan}, digits={self.digits})"
