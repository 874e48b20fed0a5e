"""Correctly rounded sums in compiled code: the float ``math.fsum`` returns, computed by exact integer accumulation.

``math.fsum`` returns the sum of its values correctly rounded (to nearest, ties to even); that float is unique, so
any exact method gives it. Shewchuk's partials (CPython's ``math_fsum``) cost a two-sum per partial per value;
here each finite value (a 53-bit integer times a power of two) is added exactly into a fixed-point accumulator of
32-bit limbs in int64 words (the whole double range, carries deferred), and the total is rounded once, half-even,
at the end: a few integer operations per value. Non-finite values (inf, nan), a value of magnitude 2^1000 or
more, or 2^22 values or more are left to ``math.fsum`` itself: :func:`fsum_into` reports them and the caller
falls back, so the special cases (inf + -inf is a ValueError, an intermediate overflow an OverflowError, ...)
stay CPython's. Below those limits every partial sum is below 2^1023, so ``math.fsum`` cannot overflow there.
"""

from __future__ import annotations

import math

import numpy as np

from simulate._compile import compiled

__all__ = ["fsum_into", "fsum"]

_LIMBS = 2048 // 32 + 4            # 32 bits each from 2^-1074 up: the double range, a value's 3 limbs, the sign
_MASK32 = np.uint64(0xFFFFFFFF)
_MANTISSA = np.uint64(0xFFFFFFFFFFFFF)
_HIDDEN = np.uint64(1) << np.uint64(52)
_LARGE = 2.0 ** 1000
_MAX_VALUES = 1 << 22


@compiled(inline="always")
def _carry(limbs):
    """Every limb into [0, 2^32), the carries (and the sign) moved up."""
    for i in range(limbs.size - 1):
        c = limbs[i] >> 32
        limbs[i] -= c << 32
        limbs[i + 1] += c


@compiled()
def _bits_at(limbs, lo, count):
    """``count`` (at most 60) bits of the accumulated magnitude from bit ``lo`` (weight 2^(lo - 1074)) up."""
    out, got, pos = 0, 0, lo
    while got < count:
        i, sh = pos // 32, pos % 32
        take = min(32 - sh, count - got)
        out |= ((limbs[i] >> sh) & ((1 << take) - 1)) << got
        got += take
        pos += take
    return out


@compiled()
def _any_below(limbs, lo):
    """Is a bit below bit ``lo`` set?"""
    i = lo // 32
    for j in range(i):
        if limbs[j] != 0:
            return True
    sh = lo % 32
    return sh > 0 and (limbs[i] & ((1 << sh) - 1)) != 0


@compiled()
def fsum_into(values, n):
    """(sum, ok): the correctly rounded sum of ``values[:n]``, the float ``math.fsum`` returns; ok is False (and
    the sum meaningless) for the cases left to ``math.fsum`` (a value not finite or of magnitude >= 2^1000,
    n >= 2^22, a sum that rounds to infinity)."""
    if n >= _MAX_VALUES:
        return 0.0, False
    limbs = np.zeros(_LIMBS, dtype=np.int64)
    bits = values.view(np.uint64)
    for idx in range(n):
        if not abs(values[idx]) < _LARGE:
            return 0.0, False
        b = bits[idx]
        e = np.int64((b >> np.uint64(52)) & np.uint64(0x7FF))
        m = b & _MANTISSA                                  # value = m x 2^(s - 1074)
        if e == 0:
            if m == 0:
                continue
            s = 0                                          # subnormal
        else:
            m |= _HIDDEN
            s = e - 1
        i, sh = s // 32, np.uint64(s % 32)
        t0 = np.int64((m << sh) & _MASK32)                 # m spread over limbs i, i + 1, i + 2
        t1 = np.int64((m >> (np.uint64(32) - sh)) & _MASK32)
        t2 = np.int64((m >> np.uint64(32)) >> (np.uint64(32) - sh))
        if b >> np.uint64(63):
            limbs[i] -= t0
            limbs[i + 1] -= t1
            limbs[i + 2] -= t2
        else:
            limbs[i] += t0
            limbs[i + 1] += t1
            limbs[i + 2] += t2
    _carry(limbs)
    negative = limbs[-1] < 0
    if negative:                                           # the magnitude
        for i in range(limbs.size):
            limbs[i] = -limbs[i]
        _carry(limbs)
    h = limbs.size - 1
    while h >= 0 and limbs[h] == 0:
        h -= 1
    if h < 0:
        return 0.0, True                                   # an exact zero is +0.0, as math.fsum
    width = 0
    while (limbs[h] >> width) != 0:
        width += 1
    top = 32 * h + width - 1                               # the leading bit
    if top <= 52:                                          # fewer than 54 bits: exact
        total = math.ldexp(float(_bits_at(limbs, 0, top + 1)), -1074)
    else:                                                  # 53 bits, rounded to nearest, ties to even
        m = _bits_at(limbs, top - 52, 53)
        if _bits_at(limbs, top - 53, 1) and (m & 1 or _any_below(limbs, top - 53)):
            m += 1
        total = math.ldexp(float(m), top - 52 - 1074)
        if not math.isfinite(total):
            return 0.0, False
    return (-total if negative else total), True


def fsum(values) -> float:
    """``math.fsum(values)`` through the compiled port (falling back to ``math.fsum`` for non-finite values)."""
    a = np.ascontiguousarray(values, dtype=float).reshape(-1)
    total, ok = fsum_into(a, a.size)
    return total if ok else math.fsum(a.tolist())
