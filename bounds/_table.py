"""Table, checkpoint-profile and frozen low-fidelity models (docs/design.md section 5).

All three are a prefix table of means for counts 1..m followed by a constant tail: for n > m the mean stays
mu_k^(L)(m). The certificate is the given U_k(1..m), extended past m by the actual mismatch,
U_k(n) = U_k(m) + (n - m) |c_k| with c_k = mu_k^(L)(m) - mu_k^(H), which keeps a valid certificate valid.

B_k(n) for n <= m is the reverse running maximum of U_k(s)/s (``bounds.mismatch_bound``) combined with the
supremum past m; for s > m, U_k(s)/s = |c_k| + (U_k(m) - m |c_k|)/s is monotone, so that supremum is
max(U_k(m+1)/(m+1), |c_k|) and B_k(n) = max(U_k(n)/n, |c_k|) for n > m. Past m, Delta_k^(L)(n) has the form
L - R/n and G(n) + B_k(n) is nonincreasing: irregular_prefix = m.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from bounds import _validate as v
from bounds._dyadic import cumulative_deviation, float_above
from bounds._errors import TaccInputError
from bounds._lowfidelity import LowFidelityModel
from bounds._mismatch import mismatch_bound

__all__ = ["TableLowFidelity", "checkpoint_profile", "frozen", "frozen_of"]


class TableLowFidelity(LowFidelityModel):
    """Prefix tables mean_low[k, n-1] and certificate[k, n-1] for n = 1..m, constant past m."""

    def __init__(self, mu_high, *, mean_low, certificate, clip=False, name="table", params=None):
        super().__init__(mu_high)
        K = self.n_arms
        self.name = name
        self._params = dict(params or {})
        means = v.float_array("mean_low", mean_low)
        cert = v.float_array("certificate", certificate)
        if means.ndim != 2 or means.shape[0] != K or means.shape[1] < 1:
            raise TaccInputError("mean_low", mean_low, f"must be {K} rows of equal length >= 1")
        if cert.shape != means.shape:
            raise TaccInputError("certificate", certificate, f"must have the shape of mean_low, {means.shape}")
        if not np.all(np.isfinite(means)):
            raise TaccInputError("mean_low", mean_low, "every value must be finite")
        if not np.all(np.isfinite(cert)) or cert.min() < 0:
            raise TaccInputError("certificate", certificate, "every value must be finite and >= 0")
        self.clip = bool(clip)
        if self.clip:
            if self.mu_high.min() < 0 or self.mu_high.max() > 1:
                raise TaccInputError("mu_high", self.mu_high.tolist(), "must lie in [0, 1] when low means are clipped")
            means = np.clip(means, 0.0, 1.0)
        self.m = means.shape[1]
        self._means = means
        self._dev_cum = np.cumsum(means - self.mu_high[:, None], axis=1)
        self._cert = cert
        self._tail = means[:, -1] - self.mu_high  # c_k
        self._excess = np.array([_excess(cert[k, -1], self.m, abs(float(c))) for k, c in enumerate(self._tail)])
        tail_sup = self._past_prefix(np.arange(K), np.full(K, self.m + 1))
        self._bound = np.stack([mismatch_bound(cert[k], tail_sup[k]) for k in range(K)])
        for a in (self._means, self._dev_cum, self._cert, self._bound):
            a.setflags(write=False)

    def describe(self) -> dict:
        return {"model": self.name, "prefix_length": self.m, "clip": self.clip, **self._params}

    def mean_low(self, k, n):
        k = self._arm(k)
        arr = self._counts(n)
        return self._out(n, self._means[k, np.minimum(arr, self.m) - 1])

    def _extend(self, ks: np.ndarray, arr: np.ndarray, prefix: np.ndarray, slope: np.ndarray) -> np.ndarray:
        out = np.zeros(arr.shape)
        inside = (arr >= 1) & (arr <= self.m)
        out[inside] = prefix[ks[inside], arr[inside] - 1]
        past = arr > self.m
        out[past] = prefix[ks[past], -1] + (arr[past] - self.m) * slope[ks[past]]
        return out

    def mismatch_sum_at(self, ks, n):
        ks, arr = self._arms_counts(ks, n, minimum=0)
        return self._extend(ks, arr, self._dev_cum, self._tail)

    def mismatch_sum(self, k, n):
        k = self._arm(k)
        arr = self._counts(n, minimum=0)
        return self._out(n, self.mismatch_sum_at(np.full(arr.shape, k), arr))

    def certificate(self, k, n):
        k = self._arm(k)
        arr = self._counts(n, minimum=0)
        return self._out(n, self._extend(np.full(arr.shape, k), arr, self._cert, np.abs(self._tail)))

    def mismatch_bound_at(self, ks, n):
        ks, arr = self._arms_counts(ks, n)
        out = np.empty(arr.shape)
        inside = arr <= self.m
        out[inside] = self._bound[ks[inside], arr[inside] - 1]
        past = ~inside
        if past.any():
            out[past] = self._past_prefix(ks[past], arr[past])
        return out

    def _past_prefix(self, ks: np.ndarray, arr: np.ndarray) -> np.ndarray:
        """B_k(n) for n > m: ``sup_{s >= n} U_k(s) / s = abs(c_k) + max(U_k(m) - m abs(c_k), 0) / n``, the excess
        computed exactly and rounded up once per arm; each operation is monotone in n, so the values are exactly
        nonincreasing (the quotient U_k(n) / n of the rounded extension rose by an ulp)."""
        return np.abs(self._tail[ks]) + self._excess[ks] / arr

    def mismatch_bound(self, k, n):
        k = self._arm(k)
        arr = self._counts(n)
        return self._out(n, self.mismatch_bound_at(np.full(arr.shape, k), arr))

    def irregular_prefixes(self):
        return np.full(self.n_arms, self.m, dtype=np.int64)

    def irregular_prefix(self, k):
        self._arm(k)
        return self.m


def _excess(u_m: float, m: int, c: float) -> float:
    """``max(U_k(m) - m abs(c_k), 0)``, computed exactly and rounded up (``bounds.float_above``)."""
    return float_above(max(Fraction(u_m) - m * Fraction(c), Fraction(0)))


def _certificate_of(mu: np.ndarray, means: np.ndarray) -> np.ndarray:
    """U_k(n) = sum_{tau <= n} |mu_k^(L)(tau) - mu_k^(H)| of the stored float means, exactly, rounded up
    (``bounds.cumulative_deviation``): mu + dev rounds, so a float running sum of |dev| can fall short of the
    stored deviations by an ulp and break ``ass:plugin`` on the instance as stored."""
    return np.array([cumulative_deviation(float(mu[k]), means[k].tolist()) for k in range(means.shape[0])])


def checkpoint_profile(mu_high, *, q, gap, q_max, signs, clip=False) -> TableLowFidelity:
    r"""Checkpoint profile: mu_k^(L)(n) = mu_k^(H) + s_k g_k(q(n)) (``app:llm-empirical-bandit``).

    q(n) is the checkpoint reached after n low-fidelity queries: the largest listed size q_i <= min(n, q_max),
    and the first size q_1 while n < q_1 (a choice: the paper does not give the map from n to q). ``gap`` is
    one profile for every arm (len(q) values) or one row per arm.
    :math:`U_k(n) = \sum_{\tau \le n} |\mu_k^{(L)}(\tau) - \mu_k^{(H)}|` of the stored
    (unclipped) means, exactly, rounded up: the tightest valid float certificate of the profile.
    """
    mu = np.asarray(mu_high, dtype=float)
    K = mu.size
    qs = [v.count(f"q[{i}]", x) for i, x in enumerate(q)]
    if not qs or any(b <= a for a, b in zip(qs, qs[1:], strict=False)):
        raise TaccInputError("q", q, "must be a non-empty strictly increasing list of checkpoint sizes")
    qmax = v.count("q_max", q_max)
    if qmax < qs[0]:
        raise TaccInputError("q_max", q_max, f"must be >= the first checkpoint size {qs[0]}")
    g = v.float_array("gap", gap)
    if g.ndim == 1:
        g = np.broadcast_to(g, (K, g.size))
    if g.shape != (K, len(qs)) or not np.all(np.isfinite(g)):
        raise TaccInputError("gap", gap, f"must be {len(qs)} finite values, or {K} rows of {len(qs)}")
    s = np.asarray(signs, dtype=float).reshape(-1)
    if s.size != K or not np.all(np.isin(s, (-1.0, 1.0))):
        raise TaccInputError("signs", signs, f"must be {K} values, each +1 or -1")
    used = [x for x in qs if x <= qmax]
    m = used[-1]
    n = np.arange(1, m + 1)
    idx = np.maximum(np.searchsorted(np.asarray(qs), n, side="right") - 1, 0)
    means = mu[:, None] + s[:, None] * g[:, idx]
    return TableLowFidelity(mu, mean_low=means, certificate=_certificate_of(mu, means),
                            clip=clip, name="checkpoint",
                            params={"q": qs, "q_max": qmax, "signs": s.astype(int).tolist(),
                                    "gap": g.tolist()})


def frozen(mu_high, *, values, clip=False) -> TableLowFidelity:
    r"""Frozen source: mu_k^(L)(n) = values[k] for every n (Weak-Fixed),
    :math:`U_k(n) = n\,|v_k - \mu_k^{(H)}|` (v = ``values``)."""
    mu = np.asarray(mu_high, dtype=float)
    vals = v.float_array("values", values).reshape(-1)
    if vals.size != mu.size:
        raise TaccInputError("values", values, f"must be {mu.size} values")
    return TableLowFidelity(mu, mean_low=vals[:, None], certificate=_certificate_of(mu, vals[:, None]), clip=clip,
                            name="frozen")


def frozen_of(model: LowFidelityModel) -> TableLowFidelity:
    """The frozen version of a model: its first low-fidelity mean mu_k^(L)(1), for ever (docs/design.md section 5)."""
    return frozen(model.mu_high, values=[model.mean_low(k, 1) for k in range(model.n_arms)],
                  clip=getattr(model, "clip", False))
