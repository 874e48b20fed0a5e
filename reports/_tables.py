"""Plain-text tables and JSON encoding for results (display code lives here, never in model classes)."""

from __future__ import annotations

import enum
import json
import math
from dataclasses import fields, is_dataclass
from typing import Any, Sequence

import numpy as np


def jsonable(x: Any) -> Any:
    """Turn a result into JSON values: infinities become the string "inf", enums their value."""
    t = type(x)                                        # the plain types first: a record holds millions
    if t is float:
        return x if not math.isinf(x) else ("inf" if x > 0 else "-inf")
    if t is int or t is str or t is bool or x is None:
        return x
    if t is dict:
        return {str(k): jsonable(v) for k, v in x.items()}
    if t is list or t is tuple:
        return [jsonable(v) for v in x]
    if isinstance(x, enum.Enum):
        return x.value
    if is_dataclass(x) and not isinstance(x, type):
        return {f.name: jsonable(getattr(x, f.name)) for f in fields(x)}
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return [jsonable(v) for v in x.tolist()]
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    return x


def dumps(x: Any, depth: int = 2) -> str:
    """JSON text: the outer ``depth`` levels indented, each value below on one line (json's C encoder: a
    record of 10^5 arms is one line per arm, written in a fraction of a second)."""
    return _dump(jsonable(x), 0, depth)


def _dump(v: Any, level: int, depth: int) -> str:
    if level >= depth or not isinstance(v, (dict, list)) or not v:
        return json.dumps(v, allow_nan=False)
    pad, inner = "  " * level, "  " * (level + 1)
    if isinstance(v, dict):
        items = [f"{inner}{json.dumps(k)}: {_dump(e, level + 1, depth)}" for k, e in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    return "[\n" + ",\n".join(inner + _dump(e, level + 1, depth) for e in v) + "\n" + pad + "]"


def fmt(x: Any, digits: int = 4) -> str:
    if isinstance(x, enum.Enum):
        return str(x.value)
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isinf(x):
            return "inf"
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
        return "  ".join(c.rjust(w) if num else c.ljust(w) for c, w, num in zip(r, widths, numeric)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])
