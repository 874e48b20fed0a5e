"""First index at which a monotone integer predicate becomes true, for one predicate or for many at once.

Every integer the theory defines as ``min{n >= start : P(n)}`` for a predicate ``P`` that is false and then
true (``N_gamma``, ``tau_k`` past a model's irregular prefix, the RDFE counts) is computed here from the
predicate itself, never from a rounded closed form, so the algorithm and the bound agree at the boundary.
``first_true_rows`` (in ``bounds._search``) runs one such search per row (per arm, or per arm and accuracy) in the
same vector
calls, so an instance with 10^5 arms costs a few dozen vector calls, not 10^5 searches.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

__all__ = ["first_true", "first_true_rows", "SEARCH_LIMIT"]

#: Largest count searched: beyond 2**53 consecutive integers are no longer distinct as floats.
SEARCH_LIMIT = 2**53

_LEVELS = 54   # offsets 2**j - 1, j = 0..53, reach past SEARCH_LIMIT from any start >= 1
_PROBE_AT = 8  # the level at which rows still walking are first tested at the limit


def first_true_rows(predicate: Callable[[np.ndarray, np.ndarray], np.ndarray], n_rows: int, start=1,
                    limit: int = SEARCH_LIMIT) -> np.ndarray:
    """Per row i, ``min{n : start_i <= n <= limit, predicate(i, n)}`` for predicates monotone in n.

    ``predicate(rows, counts)`` takes two int64 arrays of the same shape (row indices and counts) and returns a
    bool array of that shape. ``start`` is one int or one per row. Each row walks the geometric grid
    ``start + 2**j - 1`` (clipped to ``limit``) up to its first true point, then bisects between the last false
    and the first true point: about 2 log2(answer) evaluations per row, every row in the same vector calls. A
    row still false after the first 8 grid points is evaluated once at ``limit``: false there, it is false at
    every count (monotone), so it stops (9 evaluations for a row that never turns true, not 54).

    Returns a float64 array: exact integers (every count up to 2**53 is a float), ``inf`` where the predicate
    is false at every count up to ``limit``.

    >>> first_true_rows(lambda i, n: n * n >= 50 * (i + 1), 3).tolist()
    [8.0, 10.0, 13.0]
    """
    out = np.full(n_rows, math.inf)
    first = np.broadcast_to(np.asarray(start, dtype=np.int64), (n_rows,)).copy()
    limit = int(limit)
    rows = np.flatnonzero(first <= limit)
    # walk the geometric grid start + 2**j - 1 (clipped to limit); a row leaves at its first true point
    lo = first - 1                       # false (or before the start)
    hi = np.full(n_rows, -1, dtype=np.int64)
    for j in range(_LEVELS):
        if not rows.size:
            break
        if j == _PROBE_AT:
            # rows still false past start + 2**j - 2: one look at the limit ends the walk of every row false
            # there, false at every count (the predicate is monotone), instead of 54 - j more levels
            rows = rows[np.asarray(predicate(rows, np.full(rows.size, limit, dtype=np.int64)), dtype=bool)]
            if not rows.size:
                break
        pts = np.minimum(first[rows] + np.int64(2**j - 1), limit)
        hit = np.asarray(predicate(rows, pts), dtype=bool)
        hi[rows[hit]] = pts[hit]
        lo[rows[~hit]] = pts[~hit]
        rows = rows[~hit & (pts < limit)]
    found = hi >= 0
    rows = np.flatnonzero(found)
    lo, hi = lo[rows], hi[rows]
    # bisect between the last false and the first true point
    live = np.flatnonzero(hi - lo > 1)
    while live.size:
        mid = lo[live] + (hi[live] - lo[live]) // 2
        hit = np.asarray(predicate(rows[live], mid), dtype=bool)
        hi[live[hit]] = mid[hit]
        lo[live[~hit]] = mid[~hit]
        live = live[hi[live] - lo[live] > 1]
    out[rows] = hi
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
