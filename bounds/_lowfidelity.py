"""The interface every low-fidelity model implements (docs/design.md section 5).

A model is bound to the high-fidelity means of its instance. Every method takes an arm index k and a count
n >= 1 (an int or an integer array of any size, up to 2**53), and is exact at any count: no method builds an
array of length n, so the bounds can look past the horizon (tau_k, the RDFE costs). The ``*_at`` methods take
an array of arms beside the array of counts (broadcast together), so a bound over 10^5 arms is one vector
call; a model that does not override them gets a loop over its arms.
"""

from __future__ import annotations

import abc

import numpy as np

from bounds._errors import TaccInputError

__all__ = ["LowFidelityModel"]


class LowFidelityModel(abc.ABC):
    """A count-indexed low-fidelity source: mean_low(k, n), its certificate U_k(n) and B_k(n).

    Subclasses implement :meth:`mean_low`, :meth:`mismatch_sum`, :meth:`certificate`, :meth:`mismatch_bound`
    and :meth:`irregular_prefix`.
    """

    #: the model's name in the configuration format (``power_decay``, ``residual_decay``, ...).
    name: str = ""

    def __init__(self, mu_high):
        mu = np.array(mu_high, dtype=float)
        mu.setflags(write=False)
        self._mu = mu

    @property
    def mu_high(self) -> np.ndarray:
        return self._mu

    @property
    def n_arms(self) -> int:
        return int(self._mu.size)

    def _arm(self, k) -> int:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < self.n_arms:
            raise TaccInputError("k", k, f"must be an arm index in [0, {self.n_arms})")
        return int(k)

    @staticmethod
    def _counts(n, minimum: int = 1) -> np.ndarray:
        arr = np.atleast_1d(np.asarray(n, dtype=np.int64))
        if arr.size and arr.min() < minimum:
            raise TaccInputError("n", n, f"counts must be >= {minimum}")
        return arr

    @staticmethod
    def _out(n, arr: np.ndarray):
        return float(arr[0]) if np.ndim(n) == 0 else arr

    @abc.abstractmethod
    def mean_low(self, k: int, n):
        """mu_k^(L)(n): the mean of the n-th low-fidelity query of arm k (the observed mean, clipped if the
        model clips)."""

    @abc.abstractmethod
    def mismatch_sum(self, k: int, n):
        """sum_{tau <= n} (mu_k^(L)(tau) - mu_k^(H)), signed; 0 at n = 0."""

    @abc.abstractmethod
    def certificate(self, k: int, n):
        """U_k(n) of ``ass:plugin``: valid by construction for this model."""

    @abc.abstractmethod
    def mismatch_bound(self, k: int, n):
        """B_k(n) = sup_{s >= n} U_k(s) / s, exact."""

    @abc.abstractmethod
    def irregular_prefix(self, k: int) -> int:
        """A count m >= 0 such that for n > m both Delta_k^(L)(n) and G(n) + B_k(n) are monotone in n.

        The bounds scan counts 1..m one by one and search beyond m by bisection.
        """

    @staticmethod
    def _arms_counts(ks, n, minimum: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """Arms and counts as int64 arrays of one broadcast shape (counts checked, arms trusted: internal)."""
        ks, arr = np.broadcast_arrays(np.asarray(ks, dtype=np.int64), np.asarray(n, dtype=np.int64))
        if arr.size and arr.min() < minimum:
            raise TaccInputError("n", n, f"counts must be >= {minimum}")
        return ks, arr

    def _per_arm(self, method, ks, arr) -> np.ndarray:
        out = np.empty(arr.shape)
        for k in np.unique(ks):
            where = ks == k
            out[where] = np.atleast_1d(method(int(k), arr[where]))
        return out

    def mismatch_sum_at(self, ks, n) -> np.ndarray:
        """:meth:`mismatch_sum` for arms ``ks`` and counts ``n`` (arrays broadcast together)."""
        ks, arr = self._arms_counts(ks, n, minimum=0)
        return self._per_arm(self.mismatch_sum, ks, arr)

    def mismatch_bound_at(self, ks, n) -> np.ndarray:
        """:meth:`mismatch_bound` for arms ``ks`` and counts ``n`` (arrays broadcast together)."""
        ks, arr = self._arms_counts(ks, n)
        return self._per_arm(self.mismatch_bound, ks, arr)

    def avg_mean_low_at(self, ks, n) -> np.ndarray:
        """:meth:`avg_mean_low` for arms ``ks`` and counts ``n`` (arrays broadcast together)."""
        ks, arr = self._arms_counts(ks, n)
        return self._mu[ks] + self.mismatch_sum_at(ks, arr) / arr

    def avg_mean_low(self, k: int, n):
        """bar mu_k^(L)(n) = (1/n) sum_{tau <= n} mu_k^(L)(tau), the selected-average low mean."""
        k = self._arm(k)
        arr = self._counts(n)
        return self._out(n, self.avg_mean_low_at(np.full(arr.shape, k), arr))

    def mismatch_bound_classes(self) -> np.ndarray | None:
        """An int64 label per arm such that arms with equal labels have the same B_k at every count (B_k is the
        same function of the same parameters), or None when the model does not say (the default). Searches over
        B_k (``bounds.continuation_last_counts``) run once per label."""
        return None

    def irregular_prefixes(self) -> np.ndarray:
        """:meth:`irregular_prefix` of every arm, an int64 array."""
        return np.array([self.irregular_prefix(k) for k in range(self.n_arms)], dtype=np.int64)

    def static_bias(self, k: int) -> float:
        """zeta_k = B_k(1): the fixed bias bound a static (MF-UCB) rule may use (``rem:evolving_vs_static``)."""
        return float(self.mismatch_bound(k, 1))

    def static_biases(self) -> np.ndarray:
        """zeta_k = B_k(1) for every arm (``rem:evolving_vs_static``), one vector call."""
        return self.mismatch_bound_at(np.arange(self.n_arms), 1)

    def describe(self) -> dict:
        """The model's parameters, for reports (JSON-serialisable)."""
        return {"model": self.name}
