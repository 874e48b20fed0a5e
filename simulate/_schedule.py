"""Low-fidelity means as arrays a compiled loop can read: ``mean_low(k, n)`` at any count, in O(1) memory per arm.

Every low-fidelity model of docs/design.md section 5 has the form "a finite prefix table, then a parametric tail":

    mean_low(k, n) = prefix[k, n - 1]                                   for n <= prefix_len[k]
    mean_low(k, n) = clip01?( c_k + a_k (n + n0)^(-r) )                 for n >  prefix_len[k]

The power (n + n0)^(-r) does not depend on the arm: :func:`with_prefix` tabulates it once, for every arm, over
the counts where most queries fall (``power[n - 1]``, the same ``pow`` call, so the same float), so the engines read
one shared row instead of calling ``pow``, and instead of a K-row table that a round at a random arm reads out of
the CPU cache.

- power and residual decay (``bounds.ResidualDecay``): no prefix, c_k = mu_k + b_k, a_k = s_k zeta;
- table, checkpoint profile and frozen (``bounds.TableLowFidelity``): the table, then its last value (a_k = 0).

Both engines read means through :func:`schedule_mean` (one compiled function), so they see the same floats.
It agrees with the model's own ``mean_low`` up to the last bit of ``pow`` (tested), and for any other
``LowFidelityModel`` subclass the schedule is the model's own values tabulated up to the horizon.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bounds import LowFidelityModel, ResidualDecay, TableLowFidelity, TaccInputError
from simulate._compile import compiled

__all__ = ["MeanSchedule", "mean_schedule", "schedule_mean", "with_prefix"]

_TABULATE_LIMIT = 50_000_000
_NO_POWER = np.zeros(0)
_NO_POWER.setflags(write=False)


@dataclass(frozen=True, eq=False)
class MeanSchedule:
    """Arrays of one low-fidelity model (see the module docstring); all read-only."""

    prefix: np.ndarray       # (K, P) float64, row k valid up to prefix_len[k]
    prefix_len: np.ndarray   # (K,) int64
    c: np.ndarray            # (K,) float64
    a: np.ndarray            # (K,) float64
    n0: float
    r: float
    clip: bool
    #: (P,) float64: (n + n0)^(-r) for n = 1..P, shared by every arm (empty: ``pow`` at every count)
    power: np.ndarray = field(default_factory=lambda: _NO_POWER)

    def mean(self, k: int, n: int) -> float:
        """mean_low(k, n) as the engines see it."""
        return schedule_mean(self.prefix, self.prefix_len, self.c, self.a, self.n0, self.r, self.clip, self.power,
                             k, n)

    def means(self, k: int, upto: int) -> np.ndarray:
        """mean_low(k, n) for n = 1..``upto`` as the engines see them (:meth:`mean` of each, in one compiled loop)."""
        return _schedule_means(self.prefix, self.prefix_len, self.c, self.a, self.n0, self.r, self.clip, self.power,
                               int(k), int(upto))


def _frozen(*arrays):
    for x in arrays:
        x.setflags(write=False)


def with_prefix(s: MeanSchedule, length: int) -> MeanSchedule:
    """The same schedule with the tail's power (n + n0)^(-r) tabulated for n = 1..``length`` (one row shared by
    every arm, by the expression :func:`schedule_mean` evaluates, so every value is unchanged): the engines then
    read a table instead of calling ``pow`` where most queries fall."""
    length = int(length)
    if length <= int(s.power.size):              # a table at least that long already
        return s
    return MeanSchedule(s.prefix, s.prefix_len, s.c, s.a, s.n0, s.r, s.clip, _power_row(s.n0, s.r, length))


#: the power rows made in this process, by (n0, r), most recently used last: each the longest asked for, so a
#: configuration that differs only in its budget, rho or means (a sweep's) reads a slice of one row instead of
#: making its own (0.4 s of each worker's CPU in ``tacc reproduce all``); at most ``_ROWS_KEPT`` rows (2 MiB each
#: at ``simulate._problem``'s longest).
_ROWS: dict = {}
_ROWS_KEPT = 4


def _power_row(n0: float, r: float, length: int) -> np.ndarray:
    """(n + n0)^(-r) for n = 1..``length``, read-only: a slice of this process's row for (n0, r) when it is long
    enough (each value is computed by one expression from (n0, r, n) alone, so a slice is the row itself)."""
    key = (float(n0), float(r))
    row = _ROWS.pop(key, None)
    if row is None or row.size < length:
        row = _power_table(key[0], key[1], length)
        _frozen(row)
    _ROWS[key] = row
    while len(_ROWS) > _ROWS_KEPT:
        _ROWS.pop(next(iter(_ROWS)))
    return row[:length]


def mean_schedule(model: LowFidelityModel, horizon: int) -> MeanSchedule:
    """The :class:`MeanSchedule` of ``model``; ``horizon`` (T_Lambda) bounds what a generic model must tabulate."""
    K = model.n_arms
    if isinstance(model, ResidualDecay):
        prefix, plen = np.zeros((K, 1)), np.zeros(K, dtype=np.int64)
        c = np.array([model.mu_high[k] + model.b[k] for k in range(K)], dtype=float)
        a = np.array(model.a, dtype=float)
        n0, r, clip = float(model.n0), float(model.r), bool(model.clip)
    elif isinstance(model, TableLowFidelity):
        prefix = np.array([model.mean_low(k, np.arange(1, model.m + 1)) for k in range(K)], dtype=float)
        plen = np.full(K, model.m, dtype=np.int64)
        c, a = prefix[:, -1].copy(), np.zeros(K)
        n0, r, clip = 0.0, 1.0, False
    else:
        if K * int(horizon) > _TABULATE_LIMIT:
            raise TaccInputError("instance.low", model.name,
                                 f"a model without a parametric tail is tabulated up to the horizon, and "
                                 f"K * T = {K * int(horizon)} exceeds {_TABULATE_LIMIT}")
        n = np.arange(1, int(horizon) + 1)
        prefix = np.array([model.mean_low(k, n) for k in range(K)], dtype=float)
        plen = np.full(K, int(horizon), dtype=np.int64)
        c, a = prefix[:, -1].copy(), np.zeros(K)
        n0, r, clip = 0.0, 1.0, False
    _frozen(prefix, plen, c, a)
    return MeanSchedule(prefix, plen, c, a, n0, r, clip)


@compiled(inline="always")
def _power(n0, r, n):
    """(n + n0)^(-r): the tail's power, the same expression wherever it is evaluated."""
    return (float(n) + n0) ** (-r)


@compiled(inline="always")
def schedule_mean(prefix, prefix_len, c, a, n0, r, clip, power, k, n):
    """mean_low(k, n) from a :class:`MeanSchedule`'s arrays (compiled; callable from Python)."""
    if n <= prefix_len[k]:
        return prefix[k, n - 1]
    if a[k] == 0.0:
        # a flat tail (a table's last value, a frozen source, zeta = 0): the power is in [0, 1] (n >= 1, n0 >= 0,
        # r > 0; a table's tail has n0 = 0, r = 1), so a_k x power is a zero of a_k's own sign and the sum is
        # c_k + a_k to the bit, without the ``pow`` call (most of a round of Weak-Fixed beyond its table)
        x = c[k] + a[k]
    else:
        x = c[k] + a[k] * (power[n - 1] if n <= power.size else _power(n0, r, n))
    if clip:
        if x < 0.0:
            return 0.0
        if x > 1.0:
            return 1.0
    return x


@compiled()
def _schedule_means(prefix, prefix_len, c, a, n0, r, clip, power, k, upto):
    out = np.empty(upto)
    for n in range(1, upto + 1):
        out[n - 1] = schedule_mean(prefix, prefix_len, c, a, n0, r, clip, power, k, n)
    return out


@compiled()
def _power_table(n0, r, length):
    out = np.empty(length)
    for n in range(1, length + 1):
        out[n - 1] = _power(n0, r, n)
    return out
