"""Plain-text tables and JSON encoding for results (display code lives here, never in model classes)."""

from __future__ import annotations

import enum
import functools
import itertools
import json
import math
from dataclasses import fields, is_dataclass
from typing import Any, Sequence

import numpy as np


#: what an infinite value means, by the key it is stored under (a reader of the JSON gets it as ``<key>_reason``).
_INFINITE_MEANS = {
    "tau": "tau_k(gamma) is infinite: the arm is never certified (eq:analysis-cert-time)",
    "target": "the stopping count is infinite: the block never finishes",
    "high_count_bound": "no bound: Delta_k = 0 (prop:analysis-high-selection bounds suboptimal arms only)",
    "rdfe_phase_index": "Delta_k = 0: no phase r has 2^-r <= Delta_k / 2 (the arm is never eliminated)",
    "corollary_constant": "the order total is 0 while the explicit total is not",
    "rdfe_low_cost": "c_k^(L)(Delta_k / 4) is infinite (app:benchmark-rdfe): no count n <= 2**53 has G(n) + B_k(n) "
                     "<= Delta_k / 32 (the mismatch B_k stays at or above it, or the count exceeds 2**53, where "
                     "counts stop being exact doubles)",
    "rdfe_high_cost": "c^(H)(Delta_k / 4) is infinite (app:benchmark-rdfe): the count min{n : G(n) <= Delta_k / 32} "
                      "exceeds 2**53, where counts stop being exact doubles (a gap below about 1e-7 sqrt(ell))",
    "rdfe_oracle_cost": "c_k^*(Delta_k / 4) = min(c_k^(L), c^(H)) is infinite (app:benchmark-rdfe): both "
                        "certification costs are (see rdfe_low_cost_reason and rdfe_high_cost_reason)",
}


@functools.cache
def _undefined_means() -> dict:
    """What an undefined (NaN) value means, by the key it is stored under. Built on first use: ``certify`` (which
    states the ratio's meaning) imports scipy.stats, about 2 s that ``tacc bounds`` would pay for nothing."""
    from certify import UNDEFINED_RATIO
    return {
        "ratio": UNDEFINED_RATIO,
        "corollary_constant": "undefined: 0 / 0, the order total and the explicit total are both 0 (no suboptimal "
                              "arm)",
        "regret_fraction": "undefined: the run's regret is 0, so an arm's share of it is 0 / 0",
    }


def reason_of(key: str, x: Any) -> str | None:
    """What a non-finite number stored under ``key`` means (the ``<key>_reason`` beside its JSON ``null``), or
    None for any other value."""
    if isinstance(x, (float, np.floating)) and not math.isfinite(float(x)):
        return _reason(key, float(x))
    return None


def _reason(key: str | None, x: float) -> str:
    if math.isnan(x):
        return _undefined_means().get(key or "", "undefined (not a number): no value exists for this quantity")
    sign = "+" if x > 0 else "-"
    return _INFINITE_MEANS.get(key, f"{sign}infinity") if key else f"{sign}infinity"


#: types returned as they are (checked by exact type first: a result of 10^5 arms holds millions of them).
_PLAIN = frozenset({str, int, bool, type(None)})


def _plain_list(x: list | tuple) -> bool:
    """Every entry of ``x`` is already a strict JSON value that is not a container (an int, str, bool, None or
    finite float), checked in vector calls (a column of 10^5 numbers is not visited entry by entry)."""
    types = set(map(type, x))
    if types <= _PLAIN:
        return True
    if types <= {float, int}:
        if finite_numbers(x):
            return True
        try:
            return bool(np.isfinite(np.asarray(x, dtype=float)).all())
        except OverflowError:                    # an int beyond the float range: checked entry by entry
            return False
    return False


def finite_numbers(col: Sequence) -> bool:
    """Every number of ``col`` (ints and floats) is finite, when one sum says so, in one C loop: an infinity or a
    NaN stays in any sum of IEEE numbers, so a finite sum has finite terms. False means: look closer (a sum that
    overflows, an int beyond the float range among floats, or an entry that is not a number)."""
    try:
        total = sum(col)
    except (TypeError, OverflowError):
        return False
    return type(total) is int or math.isfinite(total)


def _nonfinite(x: Any) -> float | None:
    """The first non-finite float in ``x`` (a number, list or tuple), or None."""
    t = type(x)
    if t is float:
        return None if math.isfinite(x) else x
    if t in _PLAIN or t is dict:
        return None
    if (t is list or t is tuple) and _plain_list(x):
        return None
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
    t = type(x)                                  # the common exact types first; subclasses take the general path
    if t in _PLAIN:
        return x
    if t is float:
        return x if math.isfinite(x) else None
    if t is dict:
        return _mapping(x)
    if t is list or t is tuple:
        return list(x) if _plain_list(x) else [jsonable(v, key) for v in x]
    if isinstance(x, enum.Enum):
        return x.value
    if is_dataclass(x) and not isinstance(x, type):
        return jsonable({f.name: getattr(x, f.name) for f in fields(x)}, key)
    if isinstance(x, dict):
        return _mapping(x)
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


def _mapping(x: dict) -> dict:
    out = {}
    for k, v in x.items():
        t = type(v)
        if t in _PLAIN or (t is float and math.isfinite(v)):     # the common leaves, without a call
            out[k if type(k) is str else str(k)] = v
            continue
        out[str(k)] = jsonable(v, str(k))
        bad = _nonfinite(v)
        if bad is not None and f"{k}_reason" not in x:
            where = "" if isinstance(v, (float, np.floating)) else "null entries: "
            out[f"{k}_reason"] = where + _reason(str(k), bad)
    return out


def dumps(x: Any, depth: int = 2, converted: bool = False) -> str:
    """Strict JSON of ``x`` (:func:`jsonable`): the first ``depth`` levels of mappings and lists indented by two
    spaces, every deeper value on one line (so a record of 10^5 arms is one line per arm, written by json's C
    encoder, which the indented encoder is not). ``converted``: ``x`` already holds JSON values only (lists,
    mappings, str, int, finite float, bool, None: a record with columns of 10^5 values, which :func:`jsonable`
    would visit one by one); a NaN or infinity left in it raises ValueError."""
    parts: list[str] = []
    _pretty(x if converted else jsonable(x), depth, 0, [], parts)
    return "".join(parts)


def _pretty(x: Any, depth: int, level: int, seen: list, parts: list) -> None:
    """Append the text of ``x`` to ``parts`` (joined once: a record's columns are copied once, not per level)."""
    if level >= depth or not isinstance(x, (dict, list)) or not x:
        parts.append(_line(x, seen))
        return
    pad, inner = "  " * level, "  " * (level + 1)
    is_dict = isinstance(x, dict)
    parts.append("{\n" if is_dict else "[\n")
    pairs: Any = x.items() if isinstance(x, dict) else zip(itertools.repeat(None), x)
    for i, (k, v) in enumerate(pairs):
        parts.append((",\n" if i else "") + inner + (f"{json.dumps(k)}: " if is_dict else ""))
        _pretty(v, depth, level + 1, seen, parts)
    parts.append("\n" + pad + ("}" if is_dict else "]"))


def _line(x: Any, seen: list | None = None) -> str:
    """``json.dumps(x, allow_nan=False)``, the same text, made faster on the columns of a record: a mapping with
    text keys is encoded value by value; a long list equal to one already encoded (in ``seen``: the long lists of
    one record and their texts; ``tacc bounds`` has columns equal to another) takes its text
    (:func:`_seen_text`); a long list that repeats a few values encodes each distinct value once
    (:func:`_repeated`). ``x`` holds JSON values (a tree: no container holds itself, so json's check for circular
    references is not made)."""
    t = type(x)
    if t is dict and all(type(k) is str for k in x):
        seen = [] if seen is None else seen
        return "{" + ", ".join(f"{json.dumps(k)}: {_line(v, seen)}" for k, v in x.items()) + "}"
    if t is list and len(x) >= _LONG:
        types = set(map(type, x))
        if not any(types <= one for one in _ONE_TEXT):
            return _shared(x) or json.dumps(x, allow_nan=False, check_circular=False)
        text = _seen_text(x, types, seen) if seen else None
        if text is None:
            text = _repeated(x, types) or json.dumps(x, allow_nan=False, check_circular=False)
        if seen is not None:
            seen.append((x, types, text))
        return text
    return json.dumps(x, allow_nan=False, check_circular=False)


#: a list shorter than this is given to json whole; a longer one may take the text of an equal list already
#: encoded, or is encoded value by value when its first ``_LONG`` entries hold at most ``_FEW`` distinct values
#: (json's C encoder writes the text of every float anew: 1.7 us each here, 0.17 s for a column of 10^5 arms).
_LONG, _FEW = 1024, 128

#: the entry types of a list whose equal entries have one JSON text: one type besides null (1, 1.0 and True are
#: equal with different texts; so are 0.0 and -0.0, checked apart).
_ONE_TEXT = tuple(frozenset({t, type(None)}) for t in (int, float, str, bool))


def _shared(x: list) -> str | None:
    """The JSON text of the long list ``x`` with each distinct object encoded once (one object, one text: a
    column of lists shared by many arms, as ``tacc bounds``' continuation windows), or None when ``x`` holds
    mostly distinct objects."""
    if len(set(map(id, x[:_LONG]))) > _FEW:
        return None
    objects = dict(zip(map(id, x), x, strict=True))
    if 8 * len(objects) > len(x):
        return None
    text = {i: json.dumps(v, allow_nan=False, check_circular=False) for i, v in objects.items()}
    return "[" + ", ".join(map(text.__getitem__, map(id, x))) + "]"


def _seen_text(x: list, types: set, seen: list) -> str | None:
    """The text of a list in ``seen`` (list, its entry types, its text) equal to ``x`` entry by entry with the
    same texts: the same entry types (of one of :data:`_ONE_TEXT`), and for floats a zero of the same sign at each
    zero (0.0 == -0.0); None when there is none."""
    for y, y_types, text in seen:
        if y_types != types or len(y) != len(x) or y != x:
            continue
        if float not in types or 0.0 not in x or _zero_signs(x) == _zero_signs(y):
            return text
    return None


def _one_sign(x: list) -> bool:
    """The floats of ``x`` all have one sign bit (so equal zeros are one zero)."""
    return len(set(map(math.copysign, itertools.repeat(1.0, len(x)), x))) == 1


def _zero_signs(x: list) -> list:
    """The sign bit of every zero of ``x`` (floats and nulls), in order: the zeros found by ``list.index`` (a C
    scan; 0.0 == -0.0, a null equals neither)."""
    out, i = [], -1
    try:
        while True:
            i = x.index(0.0, i + 1)
            out.append(math.copysign(1.0, x[i]) < 0)
    except ValueError:
        return out


def _repeated(x: list, types: set) -> str | None:
    """The JSON text of the long list ``x`` (entry types ``types``, of one of :data:`_ONE_TEXT`) with each
    distinct entry encoded once, or None when its entries are mostly distinct or it holds both 0.0 and -0.0
    (equal, with different texts): then json encodes it whole. One value repeated is its text repeated."""
    head = x[:_LONG]                             # a column of distinct values is recognised by its head
    if len(set(head)) > _FEW:
        return None
    first = x[0]
    if x.count(first) == len(x) and (type(first) is not float or first != 0.0 or _one_sign(x)):  # one text
        text = json.dumps(first, allow_nan=False)
        return "[" + text + (", " + text) * (len(x) - 1) + "]"
    distinct = set(x)
    if 8 * len(distinct) > len(x):
        return None
    if float in types and 0.0 in distinct:
        signs = _zero_signs(x)
        if any(signs) and not all(signs):
            return None                          # 0.0 and -0.0 are equal with different texts
    texts = {v: json.dumps(v, allow_nan=False) for v in distinct}
    return "[" + ", ".join(map(texts.__getitem__, x)) + "]"


class Ratio(float):
    """A ratio empirical / bound, printed by ``fmt`` with the digits that keep it from reading ``1`` unless it is
    exactly 1 (0.99998 printed "1", like class-A's exact 1)."""


class CountMean(float):
    """A mean of integer counts, printed by ``fmt`` whole or to one decimal (never above its column's maximum, as
    ``fmt``'s four significant digits would print a mean of 99998012.3 as 1.000e+08 beside a max of 99998677)."""


class Whole(int):
    """An identifier (a seed), printed by ``fmt`` whole at any size: beyond 2**53 an int prints in exponent form,
    where seeds 9223372036854775806 and 9223372036854775807 would both read 9.223e+18."""


class Shown(str):
    """A number's text already chosen (``fmt_apart_all``): ``table`` right-aligns it as it does a number."""


#: the largest int a table prints whole: 2**53, below which every int is also a double (and a count is exact).
_WHOLE_INT_MAX = 2 ** 53


def fmt(x: Any, digits: int = 4) -> str:
    """A value for a table: infinities as ``inf``, NaN as ``undefined``, None as ``-``, exact zero as ``0``; an
    int whole up to 2**53 and, beyond, in the floats' exponent form."""
    if x is None:
        return "-"
    if isinstance(x, enum.Enum):
        return str(x.value)
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, Whole):
        return str(int(x))
    if isinstance(x, (int, np.integer)):
        # an int beyond 2**53 (a count bound 4 ell / Delta^2 at a gap near 0) prints as the floats beside it do:
        # 27 digits of which the table's other cells show 4 say no more than 1.231e+26
        return str(int(x)) if abs(int(x)) <= _WHOLE_INT_MAX else f"{int(x):.{digits - 1}e}"
    if isinstance(x, Ratio) and math.isfinite(x) and x != 1.0:
        return fmt_apart(float(x), 1.0, digits)[0]
    if isinstance(x, CountMean) and math.isfinite(x) and abs(x) >= 1e4:
        return str(int(x)) if x.is_integer() else f"{x:.1f}"
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


def fmt_apart(a: float, b: float, digits: int = 4) -> tuple[str, str]:
    """Two values for one sentence, with as many significant digits as it takes to show that they differ
    (:func:`fmt_apart_all` of the two, as floats)."""
    sa, sb = fmt_apart_all([float(a), float(b)], digits)
    return sa, sb


def fmt_apart_all(values: Sequence[Any], digits: int = 4) -> list[str]:
    """Values shown side by side (a measured value beside its bound), with as many significant digits as it takes
    to print any two different numbers differently.

    ``fmt`` at ``digits`` may print two different floats alike (a regret of 1199987.2 beside a bound of 1200012.5:
    both 1.200e+06; "from 0.05114 to 0.05114"); here the digits of every value grow together (to 17 at most, which
    tells any two doubles apart) until different numbers read as different numbers. Values ``fmt`` already prints apart
    print as ``fmt`` prints them; equal values print alike; ints print whole, and what is not a finite number as
    ``fmt`` prints it.
    """
    values = list(values)

    def finite(x) -> bool:
        return isinstance(x, (float, np.floating)) and math.isfinite(x)

    def apart(texts: list[str]) -> bool:
        """Different numbers print as different numbers: the number each text reads as (1.200e+06 and 1200000
        read alike) is the number of one value only (rounding keeps their order, so the texts order them too)."""
        seen: dict[float, Any] = {}
        for x, t in zip(values, texts, strict=True):
            if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) \
                    and math.isfinite(x) and seen.setdefault(float(t), x) != x:
                return False
        return True

    for d in range(digits, 18):
        texts = [fmt(x, d) for x in values]
        if apart(texts):
            return list(map(Shown, texts))
        if any(finite(x) and 1e4 <= abs(x) < 1e6 for x in values):      # fmt prints these as integers: go to .g
            texts = [f"{float(x):.{d}g}" if finite(x) else fmt(x, d) for x in values]
            if apart(texts):
                return list(map(Shown, texts))
    return [Shown(repr(float(x)) if finite(x) else fmt(x)) for x in values]


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A left-aligned text table with a header rule."""
    cells = [[fmt(c) for c in r] for r in rows]
    def number(x):
        return isinstance(x, (int, float, np.integer, np.floating, Shown)) and not isinstance(x, bool)

    # a column of numbers is right-aligned, also when some entries are "-" / None (not stated)
    numeric = [all(number(r[i]) or r[i] is None or r[i] == "-" for r in rows) and any(number(r[i]) for r in rows)
               for i in range(len(headers))]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(r):
        cells = zip(r, widths, numeric, strict=True)
        return "  ".join(c.rjust(w) if num else c.ljust(w) for c, w, num in cells).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])
