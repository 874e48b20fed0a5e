"""The least radius constant rho the union bound of ``lem:ci`` certifies under two readings of the noise, side by side.

The radius is G(n) = sqrt(rho L / n) with L = log(2 K T / delta). The proof of ``lem:ci`` needs, for every arm
k <= K, count 1 <= n <= T and both fidelities, P(|mean of n - its mean| > G(n)) <= p, and a union bound
2 K T p <= delta. The least certified rho is the least rho for which the tail bound at G(n) makes the union delta.

- **sub-Gaussian union bound** (the paper's reading of its 1-sub-Gaussian noise; :func:`bounds.min_rho`, what
  ``rho = "min"`` resolves to): P(|.| > x) <= 2 exp(-n x^2 / (2 s^2)) for a mean of n draws of scale s, so
  rho >= 2 s^2 (1 + log 2 / L).
- **the noise model's exact tail**: for N(0, sigma^2) noise the mean of n is N(0, sigma^2 / n) and
  P(|.| > G(n)) = erfc(sqrt(rho L / 2) / sigma) for every n; the least rho solves
  2 K T erfc(sqrt(rho L / 2) / sigma) = delta, rho = 2 sigma^2 z^2 / L with z = erfc^-1(delta / (2 K T)),
  enclosed by bisection on erfc in 50-digit arithmetic (mpmath) and rounded outward to 12 significant digits. It
  is below the sub-Gaussian value: the exact tail erfc(z) <= exp(-z^2) is at most half the sub-Gaussian bound.
  For Bernoulli rewards the tail used is Hoeffding's (the mean is 1/2-sub-Gaussian), the sub-Gaussian value at
  scale 1/2: the Chernoff bound is sharper only away from mu = 1/2, and the radius must hold for every mean.

A rho at least the exact tail's least value makes the event of ``lem:ci`` hold with probability >= 1 - delta on
the instance's own noise, so ``lem:ci`` is tested there (``certify``'s ``lem:ci:rho``); every command that says
whether rho is valid reads :func:`rho_readings`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import mpmath

from bounds._horizon import min_rho

__all__ = ["min_rho_gaussian", "min_rho_gaussian_interval", "RhoReadings", "rho_readings", "SUBGAUSSIAN_READING",
           "GAUSSIAN_READING", "HOEFFDING_READING"]

#: the reading of the radius by the sub-Gaussian union bound (the paper's), as every command names it.
SUBGAUSSIAN_READING = "sub-Gaussian union bound (the paper's reading)"
#: the reading by the exact tail of Gaussian noise (erfc).
GAUSSIAN_READING = "Gaussian exact tail"
#: the reading for Bernoulli noise: Hoeffding's bound, the sub-Gaussian value at scale 1/2.
HOEFFDING_READING = "Hoeffding bound for rewards in [0, 1]"

#: significant digits of the exact-tail enclosure.
_DIGITS = 12


def _round(x: float, up: bool) -> float:
    digits = _DIGITS - int(math.floor(math.log10(x))) - 1
    scaled = x * 10 ** digits
    return (math.ceil(scaled) if up else math.floor(scaled)) / 10 ** digits


def min_rho_gaussian_interval(sigma: float, n_arms: int, horizon_: int, delta: float) -> tuple[float, float]:
    """[lo, hi] holding the least rho with exact Gaussian tails, 2 K T erfc(sqrt(rho L / 2) / sigma) = delta,
    each end rounded outward to 12 significant digits (module docstring)."""
    min_rho(sigma, n_arms, horizon_, delta)   # validates the arguments (TaccInputError naming the field)
    with mpmath.workdps(50):
        target = mpmath.mpf(delta) / (2 * n_arms * horizon_)
        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while mpmath.erfc(hi) > target:
            hi *= 2
        for _ in range(90):   # the bracket [0, hi] with hi <= 16 shrinks below 1e-25
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if mpmath.erfc(mid) > target else (lo, mid)
        scale = 2 * mpmath.mpf(sigma) ** 2 / mpmath.log(2 * n_arms * horizon_ / mpmath.mpf(delta))
        return _round(float(scale * lo ** 2), up=False), _round(float(scale * hi ** 2), up=True)


def min_rho_gaussian(sigma: float, n_arms: int, horizon_: int, delta: float) -> float:
    """The least rho with exact Gaussian tails, as an upper bound (relative error below 1e-11).

    >>> min_rho_gaussian(1.0, 200, 1_000_000, 0.05)      # set-a: rho = 2 is valid here (sub-Gaussian: 2.0608)
    1.814924971
    """
    return min_rho_gaussian_interval(sigma, n_arms, horizon_, delta)[1]


@dataclass(frozen=True)
class RhoReadings:
    """The least rho the union bound of ``lem:ci`` certifies for one instance under both readings (module docstring).

    Attributes:
        subgaussian: :func:`bounds.min_rho` at the noise's sub-Gaussian scale (the paper's reading).
        exact: the least rho under the noise model's own tail (an upper bound, rounded up); ``exact_low`` a lower
            bound of it (equal to ``exact`` where the value is the sub-Gaussian formula).
        exact_name: :data:`GAUSSIAN_READING` or :data:`HOEFFDING_READING`.
    """

    subgaussian: float
    exact: float
    exact_low: float
    exact_name: str

    @property
    def differ(self) -> bool:
        """The two readings give different least values (Gaussian noise)."""
        return self.exact != self.subgaussian

    @property
    def subgaussian_name(self) -> str:
        """The name of the sub-Gaussian value: the paper's reading where the two differ (Gaussian noise), else the
        exact tail's own name (Bernoulli: Hoeffding's bound is the sub-Gaussian value at scale 1/2)."""
        return SUBGAUSSIAN_READING if self.differ else self.exact_name

    def reading(self, rho: float) -> str | None:
        """The reading under which ``rho`` is valid, the sub-Gaussian value's first; None when neither holds (a rho
        inside the exact tail's enclosure counts as not valid)."""
        if rho >= self.subgaussian:
            return self.subgaussian_name
        if rho >= self.exact:
            return self.exact_name
        return None


@functools.lru_cache(maxsize=256)
def rho_readings(noise_model: str, sigma: float | None, n_arms: int, horizon_: int, delta: float) -> RhoReadings:
    """The least rho the union bound of ``lem:ci`` certifies, by the sub-Gaussian tail and by the noise's exact tail.

    Cached: ``tacc check`` decides ``lem:ci:rho`` and ``tacc bounds`` reads an analysis of the same instance, each
    a 90-step bisection in 50-digit arithmetic (about 9 ms).

    >>> r = rho_readings("gaussian", 1.0, 200, 1_000_000, 0.05)
    >>> round(r.subgaussian, 4), r.exact, r.reading(2.0)
    (2.0608, 1.814924971, 'Gaussian exact tail')
    >>> b = rho_readings("bernoulli", None, 4, 128_000, 0.05)
    >>> b.differ, b.reading(0.6)
    (False, 'Hoeffding bound for rewards in [0, 1]')
    """
    if noise_model == "gaussian":
        sub = min_rho(float(sigma), n_arms, horizon_, delta)   # type: ignore[arg-type]
        lo, hi = min_rho_gaussian_interval(float(sigma), n_arms, horizon_, delta)   # type: ignore[arg-type]
        return RhoReadings(sub, min(hi, sub), min(lo, sub), GAUSSIAN_READING)
    sub = min_rho(0.5, n_arms, horizon_, delta)
    return RhoReadings(sub, sub, sub, HOEFFDING_READING)
