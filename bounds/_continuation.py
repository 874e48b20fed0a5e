"""The continuation window of Algorithm 1 (``alg:adaptive-mf-mab``, ``eq:fidelity-selection``).

After an arm's low-fidelity radius falls below gamma (N^(L) >= N_gamma), every further low query of that arm is a
continuation pull, so its low count is N_gamma + A_k, and the test of line 9 at continuation state A_k = a is

    a < S_0  and  exists 1 <= s <= S_0 - a :  V(s) = B_k(N_gamma + a) - B_k(N_gamma + a + s) >= 2 eta gamma.

B_k is nonincreasing, so the largest s decides: the test passes at state a exactly when
B_k(N_gamma + a) - B_k(N_gamma + S_0) >= 2 eta gamma (the fast engine evaluates exactly this term; the step
form tries every s). The window of arm k is therefore the counts N_gamma, ..., N_gamma + w_k - 1 at which the
test passes, w_k in 0..S_0 continuation pulls (w_k = 0: the window is empty).
"""

from __future__ import annotations

import functools
import heapq
import math
import struct
from dataclasses import dataclass

import numpy as np

from bounds import _validate as v
from bounds._errors import TaccInputError
from bounds._horizon import log_factor, n_gamma as _n_gamma
from bounds._lowfidelity import LowFidelityModel

__all__ = ["continuation_gain_passes", "ContinuationWindow", "continuation_window", "continuation_last_count",
           "continuation_last_counts",
           "continuation_rho_max", "Continuation", "continuation_of"]

def continuation_gain_passes(b_now, b_later, eta, gamma):
    r"""V(s) = B(N) - B(N + s) >= 2 eta gamma: one term of the continuation test (``eq:continuation-gain``,
    ``eq:fidelity-selection``).

    .. math::

        V_k(s) := B_k\left(N_k^{(L)}\right) - B_k\left(N_k^{(L)} + s\right) \ge 2 \eta \gamma, \qquad 1 \le s \le S_0.

    Plain Python on purpose, like ``radius_scalar``: ``simulate`` compiles this same function for its engines,
    and the window below evaluates it on arrays, so the test is written once.

    >>> continuation_gain_passes(0.5, 0.3, 0.5, 0.2)   # 0.2 >= 2 * 0.5 * 0.2
    True
    """
    return b_now - b_later >= 2.0 * eta * gamma


@dataclass(frozen=True)
class ContinuationWindow:
    """Where the continuation test of ``eq:fidelity-selection`` can pass, per arm, for one N_gamma.

    Attributes:
        n_gamma, s0, threshold: N_gamma, S_0 and 2 eta gamma.
        horizon: T_Lambda; a continuation pull at count N_gamma is the (N_gamma + 1)-th low query of the arm, so
            continuation can fire only if N_gamma < T_Lambda (``reachable``).
        gain: per arm, the largest continuation gain at the first state, B_k(N_gamma) - B_k(N_gamma + S_0)
            (0 when S_0 = 0).
        pulls: per arm, w_k in 0..min(S_0, T_Lambda): the test passes at the states A_k = 0..w_k - 1 and fails at
            A_k = w_k, so continuation fires on the arm at its low counts N_gamma..N_gamma + w_k - 1, w_k pulls at
            most. States A_k >= T_Lambda are never met (no arm has more than T_Lambda low queries), so when
            S_0 > T_Lambda the window is cut there (``cut``): w_k = T_Lambda then means "passes at every state a run
            can meet".
        tau: per arm, tau_k(gamma) (``eq:analysis-cert-time``; int or inf).
        reaches_tau: per arm, N_gamma < tau_k <= N_gamma + w_k: the window alone carries the arm from N_gamma to
            its certification count with no high query in between (what C^d of ``eq:app-analysis-Cdet`` needs);
            False when tau_k <= N_gamma (certified before the threshold) or the window stops short.
    """

    n_gamma: int
    s0: int
    threshold: float
    horizon: int
    gain: tuple
    pulls: tuple
    tau: tuple
    reaches_tau: tuple
    cut: bool = False

    @property
    def reachable(self) -> bool:
        """N_gamma < T_Lambda: some arm's low count can reach N_gamma and go one query past it."""
        return self.n_gamma < self.horizon

    @property
    def can_fire(self) -> bool:
        """Whether continuation can fire on the instance: some window is non-empty and reachable."""
        return self.reachable and max(self.pulls, default=0) > 0     # counts >= 0: some count is positive

    def window(self, k: int) -> tuple[int, int] | None:
        """Arm k's window as (first, last) low count at which the test passes, or ``None`` if it is empty."""
        w = self.pulls[k]
        return None if w == 0 else (self.n_gamma, self.n_gamma + w - 1)


#: arms x counts evaluated in one vector call of B_k.
_CELLS = 1 << 20


def _check_params(model, s0, eta, gamma):
    if not isinstance(model, LowFidelityModel):
        raise TaccInputError("model", model, "must be a bounds.LowFidelityModel")
    return v.count("s0", s0, minimum=0), v.open_unit("eta", eta), v.positive_real("gamma", gamma)


def continuation_window(model: LowFidelityModel, *, n_gamma: int, s0: int, eta: float, gamma: float,
                        horizon: int, tau) -> ContinuationWindow:
    """Continuation window of every arm (``eq:fidelity-selection``, ``eq:continuation-gain``).

    W_k = {N_gamma + a : 0 <= a < w_k},  w_k = min{a in 0..S_0 : a = S_0 or B_k(N_gamma + a) - B_k(N_gamma + S_0)
    < 2 eta gamma}: the low counts at which TACC's continuation test passes for arm k, in the order the
    algorithm meets them (the state A_k = a is met only after the test passed at every earlier state).

    The test is :func:`continuation_gain_passes`, the function the engines compile; B_k is the model's
    ``mismatch_bound``, the values the engines tabulate. One call per arm on S_0 + 1 counts.

    Args:
        model: the low-fidelity model (B_k).
        n_gamma: N_gamma >= 1 (``bounds.n_gamma``).
        s0, eta, gamma: the continuation cap S_0 >= 0, eta in (0, 1), gamma > 0.
        horizon: T_Lambda >= 1.
        tau: tau_k(gamma) per arm (int or inf), as ``bounds.analyze`` computes them.

    >>> from bounds import power_decay
    >>> m = power_decay([0.9, 0.5], zeta=0.2, r=0.5, signs=[1, 1])
    >>> w = continuation_window(m, n_gamma=10, s0=5, eta=0.01, gamma=0.1, horizon=1000, tau=[math.inf, 11])
    >>> w.pulls, w.window(1), w.reaches_tau
    ((5, 5), (10, 14), (False, True))
    """
    s0, eta, gamma = _check_params(model, s0, eta, gamma)
    ng = v.count("n_gamma", n_gamma)
    T = v.count("horizon", horizon)
    K = model.n_arms
    if len(tau) != K:
        raise TaccInputError("tau", tau, f"must have one entry per arm ({K})")
    # states A_k = a >= T are never met (the low count N_gamma + a would exceed T_Lambda): the test is evaluated at
    # the states a < m = min(S_0, T) and against B_k(N_gamma + S_0), so the work does not grow with S_0 past T
    m = min(s0, T)
    # arms with one B_k (model.mismatch_bound_classes: the decay models) have one window: computed once
    labels = model.mismatch_bound_classes()
    if labels is None:
        reps, which = np.arange(K, dtype=np.int64), None
    else:
        _, first, which = np.unique(labels, return_index=True, return_inverse=True)
        reps = first.astype(np.int64)
    gain_r, pulls_r = np.empty(reps.size), np.empty(reps.size, dtype=np.int64)
    # the states in chunks of at most _CELLS, in the order the algorithm meets them, until every arm's test has
    # failed once: memory bounded whatever S_0 (S_0 = 10^9 built 10^9 counts at once: 24 GB, then killed)
    chunk = min(m, _CELLS)
    step = max(1, _CELLS // max(chunk, 1))
    ends = np.array([[ng + s0]], dtype=np.int64)
    for lo in range(0, reps.size, step):         # a block of arms per vector call
        ks = reps[lo:lo + step, None]
        end = model.mismatch_bound_at(ks, ends)
        gain_r[lo:lo + ks.size] = (model.mismatch_bound_at(ks, np.array([[ng]], dtype=np.int64)) - end)[:, 0]
        pulls = np.full(ks.size, m, dtype=np.int64)
        open_ = np.ones(ks.size, dtype=bool)     # arms whose test has passed at every state so far
        for a in range(0, m, max(chunk, 1)):
            counts = ng + np.arange(a, min(a + chunk, m), dtype=np.int64)
            b = model.mismatch_bound_at(ks[open_], counts[None, :])
            passes = np.asarray(continuation_gain_passes(b, end[open_], eta, gamma), dtype=bool)
            failed = ~passes.all(axis=1)
            at = np.flatnonzero(open_)[failed]
            pulls[at] = a + np.argmin(passes[failed], axis=1)
            open_[at] = False
            if not open_.any():
                break
        pulls_r[lo:lo + ks.size] = pulls
    gain, pulls = (gain_r, pulls_r) if which is None else (gain_r[which.reshape(-1)], pulls_r[which.reshape(-1)])
    pulls_l = pulls.tolist()
    reach = _reaches(tau, ng, pulls)
    return ContinuationWindow(n_gamma=ng, s0=s0, threshold=2.0 * eta * gamma, horizon=T, gain=tuple(gain.tolist()),
                              pulls=tuple(pulls_l), tau=tuple(tau), reaches_tau=tuple(reach), cut=m < s0)


def _reaches(tau, ng: int, pulls: np.ndarray) -> list:
    """Per arm, whether tau_k is finite and in N_gamma < tau_k <= N_gamma + w_k: in vector calls when every tau is
    a float or an int of at most 2**53 (exact as a float), else entry by entry."""
    if set(map(type, tau)) <= {int, float}:
        t = np.array(tau, dtype=float)
        if len(tau) == pulls.size and (np.abs(t[np.isfinite(t)]) <= 2.0 ** 53).all():
            return ((t != math.inf) & (ng < t) & (t <= ng + pulls)).tolist()
    inf = math.inf
    return [t != inf and ng < t <= ng + w for t, w in zip(tau, pulls.tolist(), strict=True)]


def _last_count_search(bound, s0: int, eta: float, gamma: float, limit: int) -> int:
    """max{1 <= n <= limit : gain(n) passes} for a nonincreasing ``bound`` (a vectorised n -> B(n)), 0 if none.

    A range whose end-to-end drop B(lo) - B(hi + S_0) is below the threshold holds no passing count (B is
    nonincreasing); a live range is halved until it has at most ``leaf`` counts. Ranges are taken highest first
    (heaps on their top count), their ends read ``_BATCH`` ranges per call, and a live leaf is read whole once no
    range not yet read lies above it: the first with a passing count holds the largest. What waits is the ranges
    beside the path taken down, not every live range of a level (10^13 counts with a tiny threshold made 10^8 of
    them: a MemoryError)."""
    leaf = max(64, 4 * min(s0, 1 << 14))
    ranges = [(-limit, 1)]                               # (-top, bottom) of the ranges not yet read
    leaves: list = []                                    # (-top, bottom) of the live leaves
    while ranges or leaves:
        if leaves and (not ranges or -leaves[0][0] >= -ranges[0][0]):
            top, a = heapq.heappop(leaves)
            b = -top
            seg = _leaf_points(a, b, s0)
            v_ = bound(seg)
            w = b - a + 1
            hits = np.flatnonzero(continuation_gain_passes(v_[:w], v_[seg.size - w:], eta, gamma))
            if hits.size:
                return a + int(hits[-1])
            continue
        batch = [heapq.heappop(ranges) for _ in range(min(len(ranges), _BATCH))]
        his = np.array([-t for t, _ in batch], dtype=np.int64)
        los = np.array([lo for _, lo in batch], dtype=np.int64)
        ends = bound(np.concatenate([los, his + s0]))
        live = np.asarray(continuation_gain_passes(ends[:los.size], ends[los.size:], eta, gamma), dtype=bool)
        for lo, hi in zip(los[live].tolist(), his[live].tolist(), strict=True):
            if hi - lo < leaf:
                heapq.heappush(leaves, (-hi, lo))
            else:
                mid = (lo + hi) // 2
                heapq.heappush(ranges, (-mid, lo))
                heapq.heappush(ranges, (-hi, mid + 1))
    return 0


#: ranges whose ends :func:`_last_count_search` reads in one call.
_BATCH = 1 << 10


def _leaf_points(a: int, b: int, s0: int) -> np.ndarray:
    """The counts a leaf [a, b] reads: a..b and a + S_0..b + S_0, as one range a..b + S_0 when they overlap or
    touch (S_0 <= b - a + 1), else the two ranges (a huge S_0 costs nothing)."""
    if s0 <= b - a + 1:
        return np.arange(a, b + s0 + 1)
    now = np.arange(a, b + 1)
    return np.concatenate([now, now + s0])


class _Recorded:
    """A vectorised B_k that remembers every count it was asked for and the values it gave."""

    def __init__(self, model, k):
        self.model, self.k, self.points, self.values = model, k, [], []

    def __call__(self, n):
        n = np.asarray(n, dtype=np.int64)
        vals = np.atleast_1d(self.model.mismatch_bound(self.k, n))
        self.points.append(n)
        self.values.append(vals)
        return vals


def continuation_last_count(model: LowFidelityModel, k: int, *, s0: int, eta: float, gamma: float,
                            limit: int) -> int:
    """The largest count at which arm k's continuation test can pass (``eq:fidelity-selection``).

    n_k^max := max{1 <= n <= limit : B_k(n) - B_k(n + S_0) >= 2 eta gamma},  0 if the set is empty.

    With N_gamma = n the test passes at the first state A_k = 0 exactly when n is in this set, so continuation
    can fire on arm k only if N_gamma <= n_k^max.

    Exact, with no assumption on the shape of B_k beyond monotonicity: the range is split in halves, and a range
    [a, b] is dropped when B_k(a) - B_k(b + S_0) < 2 eta gamma, which bounds every gain in it (B_k is
    nonincreasing); ranges of at most max(64, 4 S_0) counts are evaluated count by count, highest first.

    >>> from bounds import power_decay
    >>> m = power_decay([0.9, 0.5], zeta=0.2, r=0.5, signs=[1, 1])
    >>> continuation_last_count(m, 1, s0=5, eta=0.01, gamma=0.1, limit=10**6)
    52
    """
    return continuation_last_counts(model, s0=s0, eta=eta, gamma=gamma, limit=limit, arms=[k])[0]


def continuation_last_counts(model: LowFidelityModel, *, s0: int, eta: float, gamma: float, limit: int,
                             arms=None) -> tuple:
    """:func:`continuation_last_count` of every arm in ``arms`` (default all), sharing work between arms.

    The search reads B_k only at the counts it asks for, so an arm whose B_j equals an earlier arm's B_k at every
    count that arm's search read would read the same values, take the same path and return the same count: one
    vector call per block of arms checks it. A model that labels its arms by B_k
    (``LowFidelityModel.mismatch_bound_classes``: the decay models) gets one search per label.
    """
    s0, eta, gamma = _check_params(model, s0, eta, gamma)
    limit = v.count("limit", limit, minimum=0)
    arms = range(model.n_arms) if arms is None else [model._arm(k) for k in arms]
    if s0 == 0 or limit == 0:
        return tuple(0 for _ in arms)
    arms = np.asarray(list(arms), dtype=np.int64)
    labels = model.mismatch_bound_classes()
    if labels is not None:        # arms with one B_k: one search per B_k, by the first arm that has it
        _, first, which = np.unique(labels[arms], return_index=True, return_inverse=True)
        found = np.array([_last_count_search(lambda n, k=k: np.atleast_1d(model.mismatch_bound(k, n)), s0, eta,
                                             gamma, limit) for k in arms[first].tolist()], dtype=object)
        return tuple(found[which.reshape(-1)].tolist())
    out = np.full(arms.size, -1, dtype=np.int64)
    pending = np.arange(arms.size)
    while pending.size:           # the first arm no earlier search matches makes a full search, in arm order
        rec = _Recorded(model, int(arms[pending[0]]))
        res = _last_count_search(rec, s0, eta, gamma, limit)
        pts, vals = np.concatenate(rec.points), np.concatenate(rec.values)
        out[pending[0]] = res
        rest = pending[1:]
        step = max(1, _CELLS // max(1, pts.size))
        for lo in range(0, rest.size, step):     # every later arm checked against it, a block per vector call
            idx = rest[lo:lo + step]
            same = (model.mismatch_bound_at(arms[idx][:, None], pts[None, :]) == vals[None, :]).all(axis=1)
            out[idx[same]] = res
        pending = rest[out[rest] < 0]
    return tuple(out.tolist())


def _float_bits(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0]


def _bits_float(i: int) -> float:
    return struct.unpack("<d", struct.pack("<q", i))[0]


def continuation_rho_max(last_count: int, *, gamma: float, n_arms: int, horizon: int, delta: float) -> float:
    """The largest radius constant rho at which N_gamma <= ``last_count`` (``sec:theory``, ``lem:ci``).

    rho_max := max{rho : N_gamma(rho) <= n^max},  N_gamma(rho) = min{n >= 1 : sqrt(rho log(2KT/delta) / n) < gamma}.

    N_gamma grows with rho, so with n^max = max_k :func:`continuation_last_count` continuation can fire at some
    arm only for rho <= rho_max (for rho above it the test fails at every arm's first state), and at rho_max
    itself N_gamma = n^max, where the test passes. In real numbers rho_max would be the supremum
    n^max gamma^2 / log(2KT/delta), not attained; here it is the largest double for which ``bounds.n_gamma`` of
    ``bounds.log_factor`` (the functions every run uses) gives N_gamma <= n^max, found by bisection over the
    doubles. Returns 0.0 when ``last_count`` is 0 (no rho).

    >>> continuation_rho_max(22, gamma=0.1, n_arms=2, horizon=1000, delta=0.05)  # just below 22 * 0.01 / log(80000)
    0.019486647455420725
    """
    n_max = v.count("last_count", last_count, minimum=0)
    g = v.positive_real("gamma", gamma)
    K, T, d = v.count("n_arms", n_arms), v.count("horizon", horizon), v.open_unit("delta", delta)
    if n_max == 0:
        return 0.0

    def ok(bits):
        return _n_gamma(log_factor(_bits_float(bits), K, T, d), g) <= n_max

    hi_val = (n_max + 1) * g * g / log_factor(1.0, K, T, d) * 2.0
    lo, hi = _float_bits(math.ulp(0.0)), _float_bits(hi_val)
    if not ok(lo):       # N_gamma >= 2 even at the smallest rho: only if n_max = 1 and ell / gamma^2 >= 1 there
        return 0.0
    while ok(hi):
        hi = _float_bits(_bits_float(hi) * 2.0)
    while hi - lo > 1:   # ok(lo), not ok(hi)
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return _bits_float(lo)


@dataclass(frozen=True)
class Continuation:
    """The continuation diagnostics of one configuration (what ``tacc bounds`` shows).

    Attributes:
        window: the :class:`ContinuationWindow` at the configuration's rho.
        last_count: per arm, :func:`continuation_last_count` over the counts 1..T_Lambda - 1.
        rho_max: per arm, the largest rho at which the arm's test can pass at its first state
            (:func:`continuation_rho_max` of its last count; 0.0 if never).
        rho, rho_min: the radius constant used and the smallest one ``lem:ci`` allows by the sub-Gaussian union
            bound (the paper's reading, ``bounds.min_rho``).
        rho_least: the least one the union bound certifies on the instance's noise, by its exact tail
            (``bounds.rho_readings``; None: rho_min), below which ``lem:ci`` is not guaranteed.
    """

    window: ContinuationWindow
    last_count: tuple
    rho_max: tuple
    rho: float
    rho_min: float
    rho_least: float | None = None

    @functools.cached_property
    def instance_rho_max(self) -> float:
        """The largest rho at which continuation can fire on some arm (0.0 if at none); read once (10^5 arms)."""
        return max(self.rho_max, default=0.0)

    @functools.cached_property
    def no_count_reason(self) -> str:
        """Why an arm's last count is 0, "none" (:func:`continuation_last_count`: no count passes), in words: then
        neither its last count nor its rho_max applies (null with this reason in JSON, "-" in a table)."""
        w = self.window
        if w.s0 == 0:
            return ("none: S0 = 0, and the continuation test needs A_k < S0 (line 9 of alg:adaptive-mf-mab), so it "
                    "passes at no count and at no rho")
        if w.horizon <= 1:
            return "none: T = 1, so no low count below T exists and continuation fires at no rho"
        return (f"none: the continuation test passes at no low count 1..T - 1 = {w.horizon - 1} of this arm, so it "
                f"fires at no rho")

    #: why an arm's rho_max is 0 although its last count is not: N_gamma exceeds that count at every rho > 0.
    NO_RHO = "none: N_gamma exceeds the arm's last count at every rho > 0 (continuation_rho_max)"

    def rho_max_reason(self, k: int) -> str | None:
        """Why arm ``k``'s rho_max does not apply (None when it does: a positive rho)."""
        if self.rho_max[k] > 0:
            return None
        return self.no_count_reason if self.last_count[k] == 0 else self.NO_RHO

    @property
    def instance_rho_max_reason(self) -> str | None:
        """Why the instance's largest rho does not apply (None when continuation can fire at some rho > 0)."""
        if self.instance_rho_max > 0:
            return None
        return self.no_count_reason if max(self.last_count, default=0) == 0 else self.NO_RHO

    @property
    def fires_only_below_rho_min(self) -> bool:
        """Continuation can fire at some rho, but only at radius constants below the least one the union bound
        certifies on the instance's noise (``rho_least``)."""
        return 0.0 < self.instance_rho_max < (self.rho_min if self.rho_least is None else self.rho_least)


def continuation_of(analysis) -> Continuation:
    """The continuation window and the largest rho at which continuation can fire, for a ``bounds.Analysis``
    (``eq:fidelity-selection``, ``eq:continuation-gain``, ``lem:ci``)."""
    a = analysis
    p, model = a.config.params, a.instance.low
    K, T = a.instance.n_arms, a.horizon
    window = continuation_window(model, n_gamma=a.n_gamma, s0=p.s0, eta=p.eta, gamma=p.gamma, horizon=T, tau=a.tau)
    last = continuation_last_counts(model, s0=p.s0, eta=p.eta, gamma=p.gamma, limit=T - 1)
    rho_of = {n: continuation_rho_max(n, gamma=p.gamma, n_arms=K, horizon=T, delta=p.delta) for n in set(last)}
    return Continuation(window=window, last_count=last, rho_max=tuple(map(rho_of.__getitem__, last)), rho=a.rho,
                        rho_min=a.rho_min, rho_least=a.rho_readings.exact)
