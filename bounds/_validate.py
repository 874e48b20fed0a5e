"""Argument checks shared by every public function of ``bounds`` (edges only, one error type).

Public as ``bounds.validate`` (other packages use it: import it from ``bounds``, never from this module).
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from bounds._errors import TaccInputError


def finite_real(field: str, value: Any) -> float:
    """Return ``value`` as a float, refusing booleans, non-numbers, NaN and infinities."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TaccInputError(field, value, "must be a real number")
    v = float(value)
    if not math.isfinite(v):
        raise TaccInputError(field, value, "must be finite")
    return v


def positive_real(field: str, value: Any) -> float:
    v = finite_real(field, value)
    if v <= 0:
        raise TaccInputError(field, value, "must be > 0")
    return v


def nonnegative_real(field: str, value: Any) -> float:
    v = finite_real(field, value)
    if v < 0:
        raise TaccInputError(field, value, "must be >= 0")
    return v


def nonnegative_reals(field: str, values: Any) -> np.ndarray:
    """Finite reals >= 0 as a 1-d float array; the first bad entry is refused as ``field[i]``.

    A numeric numpy array is checked in one vector operation; any other sequence entry by entry.
    """
    if not (isinstance(values, np.ndarray) and values.dtype.kind in "fiu"):
        return np.array([nonnegative_real(f"{field}[{i}]", x) for i, x in enumerate(values)], dtype=float)
    out = values.astype(float).reshape(-1)
    bad = ~np.isfinite(out) | (out < 0)
    if bad.any():
        i = int(np.argmax(bad))
        nonnegative_real(f"{field}[{i}]", float(out[i]))
    return out


def open_unit(field: str, value: Any) -> float:
    v = finite_real(field, value)
    if not 0 < v < 1:
        raise TaccInputError(field, value, "must lie in the open interval (0, 1)")
    return v


def integer(field: str, value: Any, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TaccInputError(field, value, "must be an integer")
    v = int(value)
    if minimum is not None and v < minimum:
        raise TaccInputError(field, value, f"must be >= {minimum}")
    return v


def count(field: str, value: Any, minimum: int = 1) -> int:
    """An integer count ``>= minimum``."""
    return integer(field, value, minimum)


def float_array(field: str, value: Any):
    """``value`` as a float numpy array; a ragged or non-numeric value is refused, naming the field."""
    try:
        return np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise TaccInputError(field, value, "must be a rectangular array of numbers") from None


def json_file(field: str, path):
    """The parsed JSON of the file at ``path``; a missing or invalid file is refused, naming the field."""
    import json
    from pathlib import Path

    try:                # UTF-8 with or without a byte-order mark (json refused one: "decode using utf-8-sig")
        return json.loads(Path(path).read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise TaccInputError(field, str(path), "no such file") from None
    except json.JSONDecodeError as exc:
        raise TaccInputError(field, str(path), f"is not valid JSON: {exc}") from None
