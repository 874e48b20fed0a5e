"""Values of a configuration or of a function's arguments read as their types: a number, an integer, a list or
rows of numbers, each refused with :class:`bounds.TaccInputError` naming the field; and the suggestion for a
misspelled name."""

from __future__ import annotations

import difflib
import math
import numbers
import sys
from typing import Any

from bounds._errors import TaccInputError

__all__ = ["did_you_mean", "read_integer", "read_real", "read_reals", "read_real_rows"]


def did_you_mean(x: Any, options) -> str:
    """A space and ``(did you mean OPTION?)`` for the option nearest a misspelled string ``x`` (difflib's ratio >=
    0.6), else nothing: the suggestion of a misspelled key and of a misspelled value of a closed set (a model, a
    distribution, ``"random"``, ``"min"``, an experiment's name). ``options`` a sequence, or a mapping: its keys are
    matched, the value is shown.

    >>> did_you_mean("sett-b", ["set-a", "set-b"])
    ' (did you mean set-b?)'
    """
    guess = difflib.get_close_matches(x, list(options), n=1) if isinstance(x, str) else []
    shown = options if isinstance(options, dict) else {}
    return f" (did you mean {shown.get(guess[0], guess[0])}?)" if guess else ""


def read_integer(name, x, low: int | None = None) -> int:
    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        raise TaccInputError(name, x, "must be an integer")
    if low is not None and x < low:
        raise TaccInputError(name, x, f"must be >= {low}")
    return int(x)


def read_real(name, x, low=None, high=None, low_open=False, high_open=False) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TaccInputError(name, x, "must be a number")
    given = x                                 # named as written: budget = -5 is refused as -5, not -5.0
    try:
        x = float(x)
    except OverflowError:                     # an integer beyond the largest float (10**400 in TOML)
        raise TaccInputError(name, given, f"is too large: beyond the largest float, {sys.float_info.max!r}") from None
    if not math.isfinite(x):
        raise TaccInputError(name, given, "must be finite")
    if low is not None and (x < low or (low_open and x == low)):
        raise TaccInputError(name, given, f"must be {'>' if low_open else '>='} {low}")
    if high is not None and (x > high or (high_open and x == high)):
        raise TaccInputError(name, given, f"must be {'<' if high_open else '<='} {high}")
    return x


def read_reals(name: str, xs: Any, length: int | None = None) -> tuple:
    if not isinstance(xs, list) or not xs:
        raise TaccInputError(name, xs, "must be a non-empty list of numbers")
    if length is not None and len(xs) != length:
        raise TaccInputError(name, xs, f"must have {length} entries, has {len(xs)}")
    return tuple(read_real(f"{name}[{i}]", x) for i, x in enumerate(xs))


def read_real_rows(name: str, rows: Any, n_rows: int) -> tuple:
    if not isinstance(rows, list) or len(rows) != n_rows:
        raise TaccInputError(name, rows, f"must be {n_rows} rows, one per arm")
    out = tuple(read_reals(f"{name}[{i}]", row) for i, row in enumerate(rows))
    lengths = [len(r) for r in out]
    if len(set(lengths)) != 1:
        i = next(i for i, n in enumerate(lengths) if n != lengths[0])
        raise TaccInputError(name, rows, f"rows must all have the same length (row 0 has {lengths[0]} entries, "
                                         f"row {i} has {lengths[i]})")
    return out


