"""Power-decay and residual-decay low-fidelity models (docs/design.md section 5).

residual decay: mu_k^(L)(n) = clip01(mu_k^(H) + b_k + a_k (n + n0)^(-r)),  a_k = s_k zeta,
                U_k(n) = |b_k| n + |a_k| sum_{tau <= n} (tau + n0)^(-r).
power decay:    the case b = 0, n0 = 0 (Sets A and B), clipped only when rewards are Bernoulli.

U_k is valid under clipping because every mu_k^(H) lies in [0, 1] when clipping applies, and clipping to
[0, 1] never moves a value away from a point of [0, 1]. U_k(n)/n = |b_k| + |a_k| P(n)/n is nonincreasing
(an average of a nonincreasing sequence), so B_k(n) = U_k(n)/n exactly. Delta_k^(L)(n) is nondecreasing in n:
it equals Delta_k minus the running average of d_tau = (mu^(L)(tau) - mu^(H)) + |b_k| + |a_k| t_tau,
t_tau = (tau + n0)^(-r), and t -> clip01(c + a t) + |a| t is nondecreasing in t, so d_tau is nonincreasing.
Hence irregular_prefix = 0. (Both facts are checked by ``proofs_checks``.)
"""

from __future__ import annotations

import math

import numpy as np

from bounds import _validate as v
from bounds._errors import TaccInputError
from bounds._lowfidelity import LowFidelityModel
from bounds._powersum import power_sum
from bounds._search import SEARCH_LIMIT, first_true

__all__ = ["ResidualDecay", "power_decay", "residual_decay"]


class ResidualDecay(LowFidelityModel):
    """mu_k^(L)(n) = [clip01](mu_k^(H) + b_k + s_k zeta (n + n0)^(-r)); see the module docstring."""

    def __init__(self, mu_high, *, zeta, r, signs, b=0.0, n0=0.0, clip=False, name="residual_decay"):
        super().__init__(mu_high)
        K = self.n_arms
        self.name = name
        self.zeta = v.nonnegative_real("zeta", zeta)
        self.r = v.positive_real("r", r)
        self.n0 = v.nonnegative_real("n0", n0)
        self.clip = bool(clip)
        s = v.float_array("signs", signs).reshape(-1)
        if s.size != K or not np.all(np.isin(s, (-1.0, 1.0))):
            raise TaccInputError("signs", signs, f"must be {K} values, each +1 or -1")
        bb = v.float_array("b", b)
        bb = np.full(K, float(bb)) if bb.ndim == 0 else bb
        if bb.shape != (K,) or not np.all(np.isfinite(bb)):
            raise TaccInputError("b", b, f"must be a finite number or {K} finite numbers")
        if self.clip and (self.mu_high.min() < 0 or self.mu_high.max() > 1):
            raise TaccInputError("mu_high", self.mu_high.tolist(), "must lie in [0, 1] when low means are clipped")
        self.signs = s
        self.b = bb
        self.a = s * self.zeta
        self._abs_a, self._abs_b = np.abs(self.a), np.abs(self.b)
        self._segments = {}

    def describe(self) -> dict:
        return {"model": self.name, "zeta": self.zeta, "r": self.r, "n0": self.n0, "clip": self.clip,
                "b": self.b.tolist(), "signs": self.signs.astype(int).tolist()}

    def _raw(self, k: int, n: np.ndarray) -> np.ndarray:
        return self.mu_high[k] + self.b[k] + self.a[k] * (n.astype(float) + self.n0) ** (-self.r)

    def mean_low(self, k, n):
        k = self._arm(k)
        arr = self._counts(n)
        x = self._raw(k, arr)
        return self._out(n, np.clip(x, 0.0, 1.0) if self.clip else x)

    def _interval(self, k: int, pred) -> tuple[float, float]:
        """The counts tau >= 1 where a monotone-in-tau predicate holds, as [lo, hi] (empty: lo > hi)."""
        def p(t):
            return pred(self._raw(k, np.asarray(t)))

        if p(1):
            end = first_true(lambda t: ~p(t), start=1, limit=SEARCH_LIMIT)
            return 1, end - 1
        start = first_true(p, start=1, limit=SEARCH_LIMIT)
        return (1, 0) if start == math.inf else (start, math.inf)

    def _clipped_ranges(self, k: int):
        """The counts clipped at 1 and the counts clipped at 0, as two intervals; cached."""
        if k not in self._segments:
            above = self._interval(k, lambda x: x > 1.0)
            below = self._interval(k, lambda x: x < 0.0)
            self._segments[k] = (above, below)
        return self._segments[k]

    @staticmethod
    def _count_in(rng, n: np.ndarray) -> np.ndarray:
        lo, hi = rng
        if lo > hi:
            return np.zeros(n.shape)
        return np.clip(np.minimum(n, hi) - lo + 1, 0, None).astype(float)

    def mismatch_sum_at(self, ks, n):
        if self.clip:
            return super().mismatch_sum_at(ks, n)
        ks, arr = self._arms_counts(ks, n, minimum=0)
        with np.errstate(over="ignore"):        # |a_k| near the largest float: the sum is inf, a value (a warning no)
            return self.b[ks] * arr + self.a[ks] * power_sum(arr, self.r, self.n0)

    def mismatch_sum(self, k, n):
        k = self._arm(k)
        arr = self._counts(n, minimum=0)
        a, b, mu = self.a[k], self.b[k], self.mu_high[k]
        if not self.clip:
            return self._out(n, self.mismatch_sum_at(np.full(arr.shape, k), arr))
        above, below = self._clipped_ranges(k)
        n_above = self._count_in(above, arr)
        n_below = self._count_in(below, arr)
        # unclipped counts form one interval between the clipped prefix and the clipped suffix
        lo = 1
        for rng in (above, below):
            if rng[0] == 1 and rng[0] <= rng[1]:
                lo = max(lo, rng[1] + 1)
        hi = math.inf
        for rng in (above, below):
            if rng[1] == math.inf and rng[0] <= rng[1]:
                hi = min(hi, rng[0] - 1)
        total = (1.0 - mu) * n_above - mu * n_below
        if lo <= hi and lo < math.inf:
            top = np.minimum(arr, hi).astype(np.int64) if hi < math.inf else arr
            m = np.clip(top - lo + 1, 0, None)
            lo_i = int(lo)
            inside = m > 0
            part = np.zeros(arr.shape)
            part[inside] = b * m[inside] + a * (power_sum(top[inside], self.r, self.n0)
                                                 - power_sum(lo_i - 1, self.r, self.n0))
            total = total + part
        return self._out(n, total)

    def _certificate_at(self, ks: np.ndarray, arr: np.ndarray) -> np.ndarray:
        return self._abs_b[ks] * arr + self._abs_a[ks] * power_sum(arr, self.r, self.n0)

    def certificate(self, k, n):
        k = self._arm(k)
        arr = self._counts(n, minimum=0)
        return self._out(n, self._certificate_at(np.full(arr.shape, k), arr))

    def mismatch_bound_at(self, ks, n):
        """B_k(n) = U_k(n)/n = ``abs(b_k) + abs(a_k) P(n) / n``, the constant added last: the second term falls by
        far more than its rounding error and adding ``abs(b_k)`` is monotone in it, so the values are nonincreasing
        (the form ``(abs(b_k) n + abs(a_k) P(n)) / n`` rose by an ulp where ``abs(b_k)`` dominates). With b_k = 0
        the values are those of that form."""
        ks, arr = self._arms_counts(ks, n)
        with np.errstate(over="ignore"):        # as in mismatch_sum_at: an infinite bound is a value
            return self._abs_b[ks] + self._abs_a[ks] * power_sum(arr, self.r, self.n0) / arr

    def mismatch_bound_classes(self):
        # B_k(n) = (|b_k| n + |a_k| P(n)) / n with r and n0 shared: equal (|b_k|, |a_k|), equal B_k. The label is
        # the pair's rank among the distinct pairs in (|b_k|, |a_k|) order (a sort of two columns: unique rows of a
        # 2-column array sort a structured view, about 50 times slower at 10^5 arms)
        b, a = self._abs_b, self._abs_a
        order = np.lexsort((a, b))
        bs, as_ = b[order], a[order]
        new = np.ones(b.size, dtype=bool)
        new[1:] = (bs[1:] != bs[:-1]) | (as_[1:] != as_[:-1])
        labels = np.empty(b.size, dtype=np.int64)
        labels[order] = np.cumsum(new) - 1
        return labels

    def mismatch_bound(self, k, n):
        k = self._arm(k)
        arr = self._counts(n)
        return self._out(n, self.mismatch_bound_at(np.full(arr.shape, k), arr))

    def irregular_prefix(self, k):
        self._arm(k)
        return 0

    def irregular_prefixes(self):
        return np.zeros(self.n_arms, dtype=np.int64)


def power_decay(mu_high, *, zeta, r, signs, clip=False) -> ResidualDecay:
    """Power decay (Sets A and B): mu_k^(L)(n) = mu_k^(H) + s_k zeta n^(-r), U_k(n) = zeta sum_{tau<=n} tau^(-r).

    ``clip`` clips the low means to [0, 1] (Bernoulli rewards).

    >>> m = power_decay([0.5, 0.4], zeta=0.2, r=0.5, signs=[1, -1])
    >>> round(m.mean_low(1, 4), 12)
    0.3
    """
    return ResidualDecay(mu_high, zeta=zeta, r=r, signs=signs, b=0.0, n0=0.0, clip=clip, name="power_decay")


def residual_decay(mu_high, *, zeta, r, signs, b, n0=0.0) -> ResidualDecay:
    """Residual decay (LLM experiments): clip01(mu_k^(H) + b + s_k zeta (n + n0)^(-r)), always clipped."""
    return ResidualDecay(mu_high, zeta=zeta, r=r, signs=signs, b=b, n0=n0, clip=True, name="residual_decay")
