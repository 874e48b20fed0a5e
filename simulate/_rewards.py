"""The reward table (docs/design.md section 4): draw n of arm k at fidelity m is a pure function of (seed, k, m, n).

A counter-based generator: (seed, k, m) is hashed once per run into a key (``key_base``); the n-th draw starts
from the splitmix64 output h_n = mix(key + n * golden) (splitmix64's own stream with the key as its seed) and, if
a rejection step needs more bits, h_n + j * golden for j = 1, 2, ... No state is carried between draws, so every
policy that runs on a seed sees the same table, whatever order it queries in, and the reference and fast
engines (which call these same compiled functions) see bit-identical observations.

- Gaussian noise with scale sigma: a 256-layer ziggurat (Marsaglia and Tsang 2000, in the floating-point form
  of Doornik 2005): 8 bits of h_n pick a layer, 53 bits a signed uniform u; about 99% of draws return
  u x_i after one hash, one table lookup and one comparison; the rest use the wedge test or the tail
  (Marsaglia's exponential method beyond R). Observation = mean + sigma z.
- Bernoulli: observation = 1.0 if u < mean else 0.0, u the 53-bit uniform of h_n (mean clipped to [0, 1] by
  the low-fidelity model).
"""

from __future__ import annotations

import math

import numpy as np

from simulate._compile import compiled

__all__ = ["GAUSSIAN", "BERNOULLI", "LOW", "HIGH", "noise_code", "uniform", "normal", "draw", "RewardTable"]

#: fidelity code of a low-fidelity query (the m of (seed, k, m, n)).
LOW = 0
#: fidelity code of a high-fidelity query.
HIGH = 1
#: noise model codes.
GAUSSIAN = 0
BERNOULLI = 1

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_LAYER = np.uint64(0xFF)
_TWO53 = 1.0 / 9007199254740992.0


def _ziggurat_tables(layers: int = 256, r: float = 3.6541528853610088, v: float = 0.00492867323399):
    """Layer edges x_0 > x_1 = R > ... > x_layers = 0 of equal area v, and x_{i+1} / x_i (Doornik 2005)."""
    f = lambda x: math.exp(-0.5 * x * x)  # noqa: E731
    x = [0.0] * (layers + 1)
    x[0], x[1] = v / f(r), r
    for i in range(2, layers):
        x[i] = math.sqrt(-2.0 * math.log(v / x[i - 1] + f(x[i - 1])))
    xs = np.array(x)
    return xs, np.append(xs[1:] / xs[:-1], 0.0)[:layers], r


_X, _RATIO, _R = _ziggurat_tables()
_X.setflags(write=False)
_RATIO.setflags(write=False)


def noise_code(model: str) -> int:
    """The integer code of a noise model name (``gaussian`` or ``bernoulli``)."""
    return BERNOULLI if model == "bernoulli" else GAUSSIAN


@compiled(inline="always")
def _mix(x):
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@compiled(inline="always")
def key_base(seed, k, m):
    """The hash of (seed, k, m): a run computes it once per arm and fidelity (the draws do not change)."""
    h = _mix(np.uint64(seed))
    h = _mix(h ^ np.uint64(k))
    return _mix(h ^ np.uint64(m))


@compiled(inline="always")
def _bits(base, n, j):
    """The j-th 64-bit word of the n-th draw under key ``base``."""
    return _mix(np.uint64(base) + (np.uint64(n) + np.uint64(j) * np.uint64(0x100000000)) * _GOLDEN)


@compiled(inline="always")
def _unit(h):
    """A uniform in (0, 1) from the top 53 bits of h."""
    return (float(h >> _S11) + 0.5) * _TWO53


@compiled()
def _normal_slow(base, n, i, u):
    """The ziggurat's rare branches for the n-th draw: the wedge of layer i >= 1, or the tail beyond R (i = 0)."""
    j = 1
    while True:
        if i == 0:                                         # tail: Marsaglia's exponential method
            while True:
                a = -math.log(_unit(_bits(base, n, j))) / _R
                b = -math.log(_unit(_bits(base, n, j + 1)))
                j += 2
                if b + b >= a * a:
                    return _R + a if u > 0 else -(_R + a)
        x = u * _X[i]
        f0 = math.exp(-0.5 * (_X[i] * _X[i] - x * x))
        f1 = math.exp(-0.5 * (_X[i + 1] * _X[i + 1] - x * x))
        if f1 + _unit(_bits(base, n, j)) * (f0 - f1) < 1.0:
            return x
        h = _bits(base, n, j + 1)                          # rejected: a fresh layer and uniform
        j += 2
        i = np.int64(h & _LAYER)
        u = 2.0 * _unit(h) - 1.0
        if abs(u) < _RATIO[i]:
            return u * _X[i]


@compiled(inline="always")
def normal_from(base, n):
    """The standard normal of the n-th draw under key ``base`` (a (seed, k, m) hash)."""
    h = _bits(base, n, 0)
    i = np.int64(h & _LAYER)
    u = 2.0 * _unit(h) - 1.0
    if abs(u) < _RATIO[i]:
        return u * _X[i]
    return _normal_slow(base, n, i, u)


@compiled(inline="always")
def draw_from(noise, sigma, mean, base, n):
    """:func:`draw` with the (seed, k, m) hash precomputed."""
    if noise == BERNOULLI:
        return 1.0 if _unit(_bits(base, n, 0)) < mean else 0.0
    return mean + sigma * normal_from(base, n)


@compiled(inline="always")
def draw(noise, sigma, mean, seed, k, m, n):
    """The observation of the n-th query (n >= 1) of arm k at fidelity m whose mean is ``mean``."""
    return draw_from(noise, sigma, mean, key_base(seed, k, m), n)


@compiled()
def uniform(seed, k, m, n):
    """The uniform in (0, 1) that decides a Bernoulli draw (the n-th of arm k at fidelity m under ``seed``)."""
    return _unit(_bits(key_base(seed, k, m), n, 0))


@compiled()
def normal(seed, k, m, n):
    """The standard normal of the n-th Gaussian draw of arm k at fidelity m under ``seed``."""
    return normal_from(key_base(seed, k, m), n)


@compiled()
def key_bases(seed, n_arms):
    """key_base(seed, k, m) for every arm and fidelity: a (2, K) array."""
    out = np.empty((2, n_arms), dtype=np.uint64)
    for m in range(2):
        for k in range(n_arms):
            out[m, k] = key_base(seed, k, m)
    return out


@compiled()
def draw_many(noise, sigma, bases, per_key):
    """Sum of the observations 1..per_key of every key in ``bases`` (a 1-d array), mean 0.5: what a benchmark
    times to get the generator's cost per draw."""
    total = 0.0
    for n in range(1, per_key + 1):
        for b in bases:
            total += draw_from(noise, sigma, 0.5, b, n)
    return total


@compiled()
def draws(noise, sigma, means, seed, k, m):
    """The observations 1..len(means) of arm k at fidelity m, the n-th with mean ``means[n - 1]``: :func:`draw`
    of each (the same compiled function, so the same floats)."""
    out = np.empty(means.size)
    base = key_base(seed, k, m)
    for i in range(means.size):
        out[i] = draw_from(noise, sigma, means[i], base, i + 1)
    return out


class RewardTable:
    """The reward table of one seed: ``table(k, m, n, mean)`` is the n-th observation of arm k at fidelity m.

    >>> t = RewardTable(seed=7, noise="gaussian", sigma=1.0)
    >>> t(0, LOW, 1, 0.5) == t(0, LOW, 1, 0.5)
    True
    """

    def __init__(self, seed: int, noise: str = "gaussian", sigma: float = 1.0):
        self.seed = int(seed)
        self.noise = noise_code(noise)
        self.sigma = float(sigma)

    def __call__(self, k: int, m: int, n: int, mean: float) -> float:
        return draw(self.noise, self.sigma, float(mean), self.seed, int(k), int(m), int(n))

    def draws(self, k: int, m: int, means) -> np.ndarray:
        """The observations 1..len(means) of arm k at fidelity m, the n-th with mean ``means[n - 1]``: the values
        of ``self(k, m, n, means[n - 1])``, in one compiled loop."""
        return draws(self.noise, self.sigma, np.ascontiguousarray(means, dtype=float), self.seed, int(k), int(m))
