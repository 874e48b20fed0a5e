"""First index at which a monotone integer predicate becomes true.

Every integer the theory defines as ``min{n >= start : P(n)}`` for a predicate ``P`` that is false and then
true (``N_gamma``, ``tau_k`` past a model's irregular prefix, the RDFE counts) is computed here from the
predicate itself, never from a rounded closed form, so the algorithm and the bound agree at the boundary.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

__all__ = ["first_true", "SEARCH_LIMIT"]

#: Largest count searched: beyond 2**53 consecutive integers are no longer distinct as floats.
SEARCH_LIMIT = 2**53

_STEPS = np.array([2**j - 1 for j in range(54)], dtype=np.int64)
_GRID = np.arange(65, dtype=np.int64)


def first_true(predicate: Callable[[np.ndarray], np.ndarray], start: int = 1,
               limit: int = SEARCH_LIMIT) -> int | float:
    """Return ``min{n : start <= n <= limit, predicate(n)}`` for a monotone (false, then true) predicate.

    ``predicate`` is vectorised: it maps an int64 array of counts to a bool array. The search evaluates it on
    a geometric grid, then on ever finer uniform grids of 65 points, so it costs about ten vector calls.
    Returns a Python ``int``, or ``math.inf`` when the predicate is false at every count up to ``limit``.

    >>> first_true(lambda n: n * n >= 50)
    8
    """
    pts = np.unique(np.minimum(start + _STEPS, limit))
    vals = np.asarray(predicate(pts), dtype=bool)
    if not vals.any():
        return math.inf
    j = int(np.argmax(vals))
    if j == 0:
        return int(pts[0])
    lo, hi = int(pts[j - 1]), int(pts[j])  # predicate(lo) is False, predicate(hi) is True
    while hi - lo > 1:
        grid = np.unique(lo + (hi - lo) * _GRID // 64)
        vals = np.asarray(predicate(grid), dtype=bool)
        i = int(np.argmax(vals))
        lo, hi = int(grid[i - 1]), int(grid[i])
    return hi
