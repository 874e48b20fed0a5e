"""A value as TOML spells it: how a configuration is written (``bounds.dump_config``) and how an error shows a
refused configuration value (``bounds.parse_config``), one spelling for both."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["toml_value"]

#: a key TOML reads without quotes (a bare key); any other key is written as a quoted string.
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _string(text: str) -> str:
    return '"' + "".join(_ESCAPES.get(ch) or (f"\\u{ord(ch):04x}" if ord(ch) < 0x20 or ord(ch) == 0x7F else ch)
                         for ch in text) + '"'


def _key(key: Any) -> str:
    text = str(key)
    return text if _BARE_KEY.fullmatch(text) else _string(text)


def toml_value(x: Any) -> str:
    """``x`` as a TOML value, on one line: ``true`` and ``false``, integers, floats as Python writes them (``inf``,
    ``nan``, ``1e-05``: TOML's spelling too), strings in double quotes with TOML's escapes, dates and times as
    ISO 8601 (TOML's date-times), arrays ``[a, b]`` and inline tables ``{ key = value }`` (a key that is not
    bare quoted). What TOML has no value for (``None``, an object) is its Python ``repr``.

    >>> toml_value({"distribution": "uniform", "n arms": 2, "low": [0.1, True]})
    '{ distribution = "uniform", "n arms" = 2, low = [0.1, true] }'
    """
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        return repr(float(x))
    if isinstance(x, str):
        return _string(x)
    if isinstance(x, (datetime.date, datetime.time)):       # a datetime is a date
        return x.isoformat()
    if isinstance(x, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in x.items()) + " }" if x else "{}"
    if isinstance(x, (list, tuple, np.ndarray)):
        return "[" + ", ".join(toml_value(v) for v in x) + "]"
    return repr(x)
