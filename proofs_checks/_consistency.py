"""Consistency with the code: a ``bounds`` function evaluated against the checked expression, on the
counterexample (if any) and on random points, so the toolkit cannot prove one formula and compute another."""

from __future__ import annotations

import math
import random
from typing import Callable, Iterable

__all__ = ["agree", "POINTS"]

#: random points per comparison (seeded: the same points every run).
POINTS = 200


def agree(name: str, code: Callable, checked: Callable, points: Iterable, *, rel: float = 1e-12,
          extra: Iterable = ()) -> str:
    """Compare ``code(*p)`` (the ``bounds`` function) with ``checked(*p)`` (the checked expression) at each point.

    Returns "agrees ..." or "DISAGREES at ..." (the first point where they differ by more than ``rel``)."""
    pts = list(extra) + list(points)
    for p in pts:
        a, b = code(*p), checked(*p)
        same = a == b or (isinstance(a, float) and isinstance(b, (int, float)) and math.isfinite(a)
                          and math.isfinite(b) and abs(a - b) <= rel * max(1.0, abs(a), abs(b)))
        if not same:
            return f"{name} DISAGREES at {p}: code {a!r}, checked expression {b!r}"
    extra_n = len(list(extra))
    where = f"the counterexample and {len(pts) - extra_n} random points" if extra_n else f"{len(pts)} random points"
    return f"{name} agrees with the checked expression at {where}"


def rng(seed: int) -> random.Random:
    return random.Random(seed)
