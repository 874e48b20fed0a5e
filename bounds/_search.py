"""First index at which a monotone integer predicate becomes true, for one predicate or for many at once.

Every integer the theory defines as ``min{n >= start : P(n)}`` for a predicate ``P`` that is false and then
true (``N_gamma``, ``tau_k`` past a model's irregular prefix, the RDFE counts) is computed here from the
predicate itself, never from a rounded closed form, so the algorithm and the bound agree at the boundary.
``first_true_rows`` (in ``bounds._search``) runs one such search per row (per arm, or per arm and accuracy) in the
same vector calls, so an instance with 10^5 arms costs a few dozen vector calls, not 10^5 searches (and a few
arms a dozen calls or fewer: each call looks at several counts per row).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

__all__ = ["first_true", "first_true_rows", "first_true_sorted_rows", "SEARCH_LIMIT", "counts_or_inf"]

#: Largest count searched: beyond 2**53 consecutive integers are no longer distinct as floats.
SEARCH_LIMIT = 2**53

_LEVELS = 54   # offsets 2**j - 1, j = 0..53, reach past SEARCH_LIMIT from any start >= 1
#: predicate evaluations per row in one vector call, at most (fewer when there are many rows, so the values in
#: flight stay about 2**16: at 2**15 rows and more, two points per row, a plain walk and bisection).
_POINTS = 64


def _points(n_rows: int) -> int:
    return max(2, min(_POINTS, (1 << 16) // max(n_rows, 1)))


def first_true_rows(predicate: Callable[[np.ndarray, np.ndarray], np.ndarray], n_rows: int, start=1,
                    limit: int = SEARCH_LIMIT) -> np.ndarray:
    """Per row i, ``min{n : start_i <= n <= limit, predicate(i, n)}`` for predicates monotone in n.

    ``predicate(rows, counts)`` takes two int64 arrays of the same shape (row indices and counts) and returns a
    bool array of that shape. ``start`` is one int or one per row. Each row walks the geometric grid
    ``start + 2**j - 1`` (clipped to ``limit``) up to its first true point, then narrows the interval between
    the last false and the first true point to one count. Each vector call looks at up to 64 points per row
    (up to 64 grid levels at once, then 63 points splitting the interval into 64 parts; with many rows, fewer
    points, down to 2: a plain walk and bisection), so a row costs about 1 + log2(answer) / 6 calls, every
    row in the same calls. A row still false after the first call's grid points is also looked at once at ``limit``:
    false there, it is false at every count (monotone) and stops. The minimum does not depend on the points
    looked at: only on the predicate.

    Returns a float64 array: exact integers (every count up to 2**53 is a float), ``inf`` where the predicate
    is false at every count up to ``limit``.

    >>> first_true_rows(lambda i, n: n * n >= 50 * (i + 1), 3).tolist()
    [8.0, 10.0, 13.0]
    """
    out = np.full(n_rows, math.inf)
    first = np.broadcast_to(np.asarray(start, dtype=np.int64), (n_rows,)).copy()
    limit = int(limit)
    width = _points(n_rows)
    rows = (first <= limit).nonzero()[0]
    lo = first - 1                       # false (or before the start)
    hi = np.full(n_rows, -1, dtype=np.int64)
    j = 0
    # walk the grid start + 2**j - 1 (clipped to limit), ``width`` levels per call; a row leaves at its first
    # true point
    while rows.size and j < _LEVELS:
        levels = np.arange(j, min(j + width, _LEVELS), dtype=np.int64)
        pts = np.minimum(first[rows][:, None] + ((np.int64(1) << levels) - 1)[None, :], limit)
        probe = j > 0 and j == width       # the second call also looks at the limit
        if probe:
            pts = np.concatenate([pts, np.full((rows.size, 1), limit, dtype=np.int64)], axis=1)
        cols = pts.shape[1]
        hit = np.asarray(predicate(np.repeat(rows, cols), pts.reshape(-1)), dtype=bool).reshape(rows.size, cols)
        if probe:
            keep = hit[:, -1]
            rows, pts, hit = rows[keep], pts[keep, :-1], hit[keep, :-1]
            cols -= 1
        any_hit = np.asarray(hit.any(axis=1))
        at = np.argmax(hit, axis=1)               # the first true point (monotone: the rest are true)
        r_hit = any_hit.nonzero()[0]
        hi[rows[r_hit]] = pts[r_hit, at[r_hit]]
        before = r_hit[at[r_hit] > 0]
        lo[rows[before]] = pts[before, at[before] - 1]
        miss = (~any_hit).nonzero()[0]
        lo[rows[miss]] = pts[miss, -1]
        rows = rows[miss[pts[miss, -1] < limit]]
        j += cols
    found = hi >= 0
    rows = found.nonzero()[0]
    out[rows] = _bisect(predicate, rows, lo[rows], hi[rows])    # between the last false and the first true point
    return out


def _bisect(predicate, rows: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Per row, the first true count in (lo, hi], the predicate false at lo (or lo before the start) and true at
    hi: the interval narrowed in shared vector calls, up to 63 points inside it per row and call (fewer with
    many rows, down to 1: bisection). ``lo`` and ``hi`` are updated in place; ``hi`` is returned."""
    width = _points(rows.size)
    live = (hi - lo > 1).nonzero()[0]
    k = np.arange(1, width, dtype=np.int64)[None, :]
    while live.size:
        a, gap = lo[live][:, None], (hi[live] - lo[live])[:, None]
        pts = a + np.minimum(np.maximum((gap * k) // width, 1), gap - 1)   # inside, ascending (may repeat)
        hit = np.asarray(predicate(np.repeat(rows[live], width - 1), pts.reshape(-1)), dtype=bool)
        hit = hit.reshape(live.size, width - 1)
        any_hit2 = np.asarray(hit.any(axis=1))
        at = np.argmax(hit, axis=1)
        r_hit = any_hit2.nonzero()[0]
        hi[live[r_hit]] = pts[r_hit, at[r_hit]]
        before = (~any_hit2 | (at > 0)).nonzero()[0]
        last_false = np.where(any_hit2[before], at[before] - 1, width - 2)
        lo[live[before]] = pts[before, last_false]
        live = live[hi[live] - lo[live] > 1]
    return hi


def first_true_sorted_rows(predicate: Callable[[np.ndarray, np.ndarray], np.ndarray], groups: np.ndarray,
                           limit: int = SEARCH_LIMIT) -> np.ndarray:
    """:func:`first_true_rows` from 1 for rows whose answers are ordered: rows with one value of ``groups`` are
    consecutive, and within them ``predicate(i, n)`` implies ``predicate(j, n)`` for i < j (row j's predicate is
    weaker: the same decreasing function against a larger threshold), so row j's answer is at most row i's.

    Rows are searched coarse to fine: every row at a stride (and each group's first and last row) from 1, then
    at each halved stride a row between two searched rows a < i < b of its group from b's answer (below it,
    row i's predicate is false, as b's is) up to a's (where it is true). The answers are the minima
    :func:`first_true_rows` returns, for a few evaluations per row instead of about 2 log2(answer).

    >>> first_true_sorted_rows(lambda i, n: n * n >= 50 * (3 - i), np.zeros(3, dtype=np.int64)).tolist()
    [13.0, 10.0, 8.0]
    """
    g = np.asarray(groups).reshape(-1)
    n_rows = g.size
    out = np.full(n_rows, math.inf)
    if not n_rows:
        return out
    edge = np.ones(n_rows, dtype=bool)
    edge[1:-1] = (g[1:-1] != g[:-2]) | (g[1:-1] != g[2:])
    stride = 1 << max(0, (n_rows - 1).bit_length() - 4)     # about 16 rows searched from 1
    searched = edge.copy()
    searched[::stride] = True
    done = np.flatnonzero(searched)
    out[done] = first_true_rows(lambda i, n: predicate(done[i], n), done.size, limit=limit)
    while stride > 1:
        stride //= 2
        done = np.flatnonzero(searched)
        at = np.zeros(n_rows, dtype=bool)
        at[::stride] = True
        new = np.flatnonzero(at & ~searched)
        if new.size:
            at = np.searchsorted(done, new)
            low, high = out[done[at]], out[done[at - 1]]      # rows b > i and a < i, searched
            never = low == math.inf                             # row b is false at every count: so is row i
            out[new[never]] = math.inf
            # row i is false below b's count and true at a's: bisect between them
            both = ~never & (high < math.inf)
            rows = new[both]
            out[rows] = _bisect(predicate, rows, low[both].astype(np.int64) - 1, high[both].astype(np.int64))
            # a's count is infinite: search from b's
            pick = ~never & (high == math.inf)
            rows = new[pick]

            def sub_predicate(i: np.ndarray, n: np.ndarray, rows: np.ndarray = rows) -> np.ndarray:
                return predicate(rows[i], n)
            out[rows] = first_true_rows(sub_predicate, rows.size, start=low[pick].astype(np.int64), limit=limit)
            searched[new] = True
    return out


def first_true(predicate: Callable[[np.ndarray], np.ndarray], start: int = 1,
               limit: int = SEARCH_LIMIT) -> int | float:
    """Return ``min{n : start <= n <= limit, predicate(n)}`` for a monotone (false, then true) predicate.

    ``predicate`` is vectorised: it maps an int64 array of counts to a bool array. The search is
    ``first_true_rows`` with one row. Returns a Python ``int``, or ``math.inf`` when the predicate is
    false at every count up to ``limit``.

    >>> first_true(lambda n: n * n >= 50)
    8
    """
    found = first_true_rows(lambda _rows, n: predicate(n), 1, start, limit)[0]
    return math.inf if found == math.inf else int(found)


def counts_or_inf(counts: np.ndarray) -> tuple:
    """The float array ``counts`` of whole numbers and ``+inf`` (the searches' results) as a tuple of ints and
    ``math.inf``: ``tuple(math.inf if x == math.inf else int(x) for x in counts.tolist())``, converted in vector
    calls (every finite entry is a whole number below 2**63, so int64 holds it exactly); any other entry (a
    fraction, NaN, -inf) takes the entry-by-entry path, which raises or truncates as ``int`` does."""
    c = np.asarray(counts, dtype=float)
    top = c == math.inf
    whole = c[~top]
    if not (np.isfinite(whole).all() and (np.floor(whole) == whole).all() and (np.abs(whole) < 2.0 ** 63).all()):
        return tuple(math.inf if x == math.inf else int(x) for x in c.tolist())
    out = np.where(top, 0.0, c).astype(np.int64).astype(object)
    out[top] = math.inf
    return tuple(out.tolist())
