"""Plain-text tables and JSON encoding for results (display code lives here, never in model classes)."""

from __future__ import annotations

import enum
import json
import math
from dataclasses import fields, is_dataclass
from typing import Any, Sequence

import numpy as np


#: what an infinite value means, by the key it is stored under (a reader of the JSON gets it as ``<key>_reason``).
_INFINITE_MEANS = {
    "tau": "tau_k(gamma) is infinite: the arm is never certified (eq:analysis-cert-time)",
    "target": "the stopping count is infinite: the block never finishes",
}


def _reason(key: str | None, x: float) -> str:
    if math.isnan(x):
        return "undefined (not a number): no value exists for this quantity"
    sign = "+" if x > 0 else "-"
    return _INFINITE_MEANS.get(key, f"{sign}infinity") if key else f"{sign}infinity"


def _nonfinite(x: Any) -> float | None:
    """The first non-finite float in ``x`` (a number, list or tuple), or None."""
    if isinstance(x, (float, np.floating)) and not math.isfinite(float(x)):
        return float(x)
    if isinstance(x, (list, tuple, np.ndarray)):
        for v in (x.tolist() if isinstance(x, np.ndarray) else x):
            found = _nonfinite(v)
            if found is not None:
                return found
    return None


def jsonable(x: Any, key: str | None = None) -> Any:
    """Turn a result into strict JSON values (enums become their value).

    No NaN or infinity reaches the JSON: a non-finite number becomes ``null``, and the mapping that holds it gets
    a ``<key>_reason`` entry saying what the null means (``tau``: the arm is never certified; NaN: undefined).
    """
    if isinstance(x, enum.Enum):
        return x.value
    if is_dataclass(x) and not isinstance(x, type):
        return jsonable({f.name: getattr(x, f.name) for f in fields(x)}, key)
    if isinstance(x, dict):
        out = {}
        for k, v in x.items():
            out[str(k)] = jsonable(v, str(k))
            bad = _nonfinite(v)
            if bad is not None and f"{k}_reason" not in x:
                where = "" if isinstance(v, (float, np.floating)) else "null entries: "
                out[f"{k}_reason"] = where + _reason(str(k), bad)
        return out
    if isinstance(x, (list, tuple)):
        return [jsonable(v, key) for v in x]
    if isinstance(x, np.ndarray):
        return [jsonable(v, key) for v in x.tolist()]
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        return x if math.isfinite(x) else None
    return x


def dumps(x: Any) -> str:
    return json.dumps(jsonable(x), indent=2, allow_nan=False)


def fmt(x: Any, digits: int = 4) -> str:
    """A value for a table: infinities as ``inf``, NaN as ``undefined``, None as ``-``, exact zero as ``0``."""
    if x is None:
        return "-"
    if isinstance(x, enum.Enum):
        return str(x.value)
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        if math.isnan(x):
            return "undefined"
        if x == 0:
            return "0"
        if abs(x) >= 1e6 or abs(x) < 1e-3:
            return f"{x:.{digits - 1}e}"
        return f"{x:.{digits}g}" if abs(x) < 1e4 else f"{x:.0f}"
    return str(x)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A left-aligned text table with a header rule."""
    cells = [[fmt(c) for c in r] for r in rows]
    numeric = [all(isinstance(r[i], (int, float, np.integer, np.floating)) and not isinstance(r[i], bool)
                   for r in rows) for i in range(len(headers))]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(r):
        cells = zip(r, widths, numeric, strict=True)
        return "  ".join(c.rjust(w) if num else c.ljust(w) for c, w, num in cells).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])
