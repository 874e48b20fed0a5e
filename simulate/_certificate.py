"""The certificate a policy is given by hand: B_k(n) checked at construction, or built from U_k(n) by ``bounds``.

A policy reads B_k(n) only at the low counts a run can reach, n = 1..L with L = min(N_gamma, T_Lambda) + S_0 + 1
(TACC's low count never passes N_gamma + S_0, and the continuation test looks at most S_0 further; the same
range :attr:`simulate.Problem.bias_length` answers). Over that range a given B_k must be a finite,
nonnegative, nonincreasing function of n, exactly: B_k(n + 1) > B_k(n) by a single ulp is refused
(``ass:plugin`` defines it as a supremum over s >= n, which is nonincreasing, and what ``bounds`` computes,
``bounds.mismatch_bound`` and every model's ``mismatch_bound``, is exactly nonincreasing); a violation is refused
with the arm, the counts and the values.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from bounds import TaccInputError, mismatch_bound
from bounds import validate as v

__all__ = ["bias_length", "check_mismatch_bound", "TabulatedBound", "bound_from_certificate"]

#: counts of U_k evaluated per call when the tail sup over L < s <= T is computed in blocks.
_BLOCK = 1 << 20
#: how far U_k(W + 1) / (W + 1) may exceed U_k(W) / W, relatively, and still count as not rising: a linear
#: U_k's constant ratio wobbles by an ulp.
_RISE = 1e-12


def bias_length(n_gamma: int, horizon: int, s0: int) -> int:
    """L = min(N_gamma, T_Lambda) + S_0 + 1: the counts 1..L at which a TACC-family policy reads B_k."""
    return min(int(n_gamma), int(horizon)) + int(s0) + 1


def _values(f: Callable, field: str, k: int, start: int, stop: int) -> np.ndarray:
    """f(k, n) for n = start..stop-1: one vectorized call when f accepts an integer array (every ``bounds`` model
    does), one call per count otherwise. An exception inside f is refused naming the field, arm and count."""
    n = np.arange(start, stop, dtype=np.int64)
    try:
        out = np.asarray(f(k, n), dtype=float)
        if out.shape == n.shape:
            return out
    except Exception:   # noqa: BLE001 -- a scalar-only function; retried count by count below
        pass
    vals = np.empty(n.size)
    for i, c in enumerate(n.tolist()):
        try:
            vals[i] = float(f(k, c))
        except Exception as exc:   # noqa: BLE001 -- any failure of the user's function is an input error
            raise TaccInputError(field, f, f"raised {type(exc).__name__}: {exc} at k = {k}, n = {c}") from exc
    return vals


def _check_rows(field: str, f, rows, start: int = 1) -> None:
    for k, b in rows:
        bad = np.flatnonzero(~np.isfinite(b) | (b < 0))
        if bad.size:
            i = int(bad[0])
            raise TaccInputError(field, f, f"must be finite and >= 0: B_{k}({start + i}) = {float(b[i])!r}")
        up = np.flatnonzero(np.diff(b) > 0)
        if up.size:
            i = int(up[0])
            raise TaccInputError(field, f, f"must be nonincreasing in n (ass:plugin): B_{k}({start + i}) = "
                                 f"{float(b[i])!r} < B_{k}({start + i + 1}) = {float(b[i + 1])!r}")


def check_mismatch_bound(f, n_arms: int, length: int, field: str = "mismatch_bound"):
    """Refuse a B_k(n) that is not callable, or not finite, nonnegative and nonincreasing on n = 1..length for
    every arm; return ``f`` unchanged.

    >>> check_mismatch_bound(lambda k, n: 1.0 / n, 2, 10)(0, 4)
    0.25
    >>> try:
    ...     check_mismatch_bound(lambda k, n: 0.01 * n, 2, 10)
    ... except TaccInputError as e:
    ...     print(e.field, "|", e.reason)
    mismatch_bound | must be nonincreasing in n (ass:plugin): B_0(1) = 0.01 < B_0(2) = 0.02
    """
    if not callable(f):
        raise TaccInputError(field, f, "must be a callable (k, n) -> B_k(n)")
    if isinstance(f, TabulatedBound):
        return f                                    # checked when it was built
    table = getattr(getattr(f, "__self__", None), "bias_table", None)
    if table is not None and getattr(f, "__name__", "") == "bias":     # Problem.bias: check its table at once
        rows, row_of = table
        _check_rows(field, f, [(int(np.flatnonzero(row_of == r)[0]), rows[r]) for r in range(rows.shape[0])])
        return f
    _check_rows(field, f, ((k, _values(f, field, k, 1, length + 1)) for k in range(n_arms)))
    return f


class TabulatedBound:
    """B_k(n) for n = 1..length read from a table (rows shared by arms with equal values), checked once."""

    def __init__(self, rows, row_of, field: str = "mismatch_bound"):
        self.rows = np.asarray(rows, dtype=float)
        self.row_of = np.asarray(row_of, dtype=np.int64)
        _check_rows(field, self, [(int(np.flatnonzero(self.row_of == r)[0]), self.rows[r])
                                  for r in range(self.rows.shape[0])])
        self.rows.setflags(write=False)
        self.row_of.setflags(write=False)

    @property
    def length(self) -> int:
        return int(self.rows.shape[1])

    def __call__(self, k: int, n: int) -> float:
        if not 1 <= n <= self.length:
            raise TaccInputError("n", n, f"B_k is tabulated for 1 <= n <= {self.length}")
        return float(self.rows[self.row_of[k], n - 1])

    def __repr__(self) -> str:
        return f"TabulatedBound({self.rows.shape[0]} distinct rows, n = 1..{self.length})"


def bound_from_certificate(certificate, n_arms: int, length: int, horizon: int, limit=None) -> TabulatedBound:
    """B_k(n) = sup_{s >= n} U_k(s) / s for n = 1..length (``ass:plugin``), by ``bounds.mismatch_bound``.

    U_k is evaluated at every count s = 1..W + 1, W = max(length, T_Lambda): the counts a run reaches and every
    count the continuation test reads B_k at (N + s passes T_Lambda when N_gamma + S_0 does; a zero there, as
    once taken, is no bound of a nondecreasing U_k: B_k(n) >= U_k(T_Lambda) / n). Past W the supremum takes
    ``limit``, lim_{s -> inf} U_k(s) / s (one number, or one per arm; none: 0). The value is the paper's B_k
    exactly whenever U_k(s) / s is monotone past W (every model of ``bounds``, any concave U_k): falling, the
    supremum past W is U_k(W + 1) / (W + 1); rising, it is the limit. A U_k(s) / s still rising at W
    (U_k(W + 1) / (W + 1) above U_k(W) / W by more than rounding, a relative 1e-12: a linear U_k's constant
    ratio wobbles by an ulp) with no ``limit``, or with a limit below U_k(W + 1) / (W + 1), is refused: its
    supremum lies past every count evaluated, and their maximum would understate B_k. U_k must be finite and
    nonnegative at every count evaluated; it is evaluated in blocks, vectorized when the function accepts integer
    arrays.

    >>> b = bound_from_certificate(lambda k, n: 2.0 * np.minimum(n, 3), 1, 5, 10)
    >>> [b(0, n) for n in range(1, 6)]      # 2 min(n, 3) / n, already nonincreasing
    [2.0, 2.0, 2.0, 1.5, 1.2]
    >>> b = bound_from_certificate(lambda k, n: np.maximum(0.5 * n - 1.0, 0.0), 1, 3, 4, limit=0.5)
    >>> [b(0, n) for n in range(1, 4)]      # U(s) / s = 0.5 - 1 / s rises to its limit 0.5
    [0.5, 0.5, 0.5]
    """
    if not callable(certificate):
        raise TaccInputError("certificate", certificate, "must be a callable (k, n) -> U_k(n)")
    length, horizon = int(length), int(horizon)
    width = max(length, horizon)
    limits = _limits(limit, n_arms)
    rows: list[np.ndarray] = []
    index: dict[bytes, int] = {}
    row_of = np.zeros(n_arms, dtype=np.int64)
    for k in range(n_arms):
        u = _values(certificate, "certificate", k, 1, length + 1)
        _check_u(certificate, k, u, 1)
        tail, last = limits[k], u[-1:]
        for start in range(length + 1, width + 2, _BLOCK):      # the counts length + 1..W + 1
            block = _values(certificate, "certificate", k, start, min(start + _BLOCK, width + 2))
            _check_u(certificate, k, block, start)
            tail = max(tail, float(np.max(block / np.arange(start, start + block.size, dtype=float))))
            last = np.concatenate([last, block])[-2:]              # U_k(W) and U_k(W + 1) once the loop ends
        before, after = float(last[0]) / width, float(last[1]) / (width + 1)
        rising = after > before * (1 + _RISE)
        if rising and limit is not None and limits[k] < after:
            raise TaccInputError("certificate_limit", limit,
                                 f"arm {k}'s limit {limits[k]!r} is below U_{k}({width + 1}) / {width + 1} = "
                                 f"{after!r}, which U_{k}(s) / s already reaches while still rising: its limit is at "
                                 f"least that")
        if rising and limit is None:
            raise TaccInputError(
                "certificate", certificate,
                f"U_{k}(s) / s still rises at the last count evaluated (U_{k}({width}) / {width} = {before!r} < "
                f"U_{k}({width + 1}) / {width + 1} = {after!r}): "
                f"B_{k}(n) = sup_(s >= n) U_{k}(s) / s lies past it; give certificate_limit, the limit of "
                f"U_k(s) / s as s grows")
        row = mismatch_bound(u, tail_sup=tail)
        key = row.tobytes()
        row_of[k] = index.setdefault(key, len(rows))
        if row_of[k] == len(rows):
            rows.append(row)
    return TabulatedBound(np.stack(rows), row_of)


def _limits(limit, n_arms: int) -> list[float]:
    """``limit`` as one nonnegative float per arm (0 when none is given), each checked by ``bounds``' validation
    (a bad entry is refused as ``certificate_limit[k]``)."""
    if limit is None:
        return [0.0] * n_arms
    if np.ndim(limit) == 0:
        return [v.nonnegative_real("certificate_limit", limit)] * n_arms
    values = list(limit)
    if len(values) != n_arms:
        raise TaccInputError("certificate_limit", limit, f"must be one number, or {n_arms} numbers (one per arm)")
    return v.nonnegative_reals("certificate_limit", values).tolist()


def _check_u(certificate, k: int, u: np.ndarray, start: int) -> None:
    bad = np.flatnonzero(~np.isfinite(u) | (u < 0))
    if bad.size:
        i = int(bad[0])
        raise TaccInputError("certificate", certificate,
                             f"must be finite and >= 0: U_{k}({start + i}) = {float(u[i])!r}")
