"""The reward table (docs/design.md section 4): draw n of arm k at fidelity m is a pure function of (seed, k, m, n).

A counter-based generator: (seed, k, m, n) is hashed with splitmix64's finaliser into two independent 53-bit
uniforms, and a draw is computed from them. No state is carried between draws, so every policy that runs on a
seed sees the same table, whatever order it queries in, and the reference and fast engines (which call these
same compiled functions) see bit-identical observations.

- Gaussian noise with scale sigma: Box-Muller, z = sqrt(-2 log u1) cos(2 pi u2), observation = mean + sigma z.
- Bernoulli: observation = 1.0 if u1 < mean else 0.0 (mean clipped to [0, 1] by the low-fidelity model).
"""

from __future__ import annotations

import math

import numpy as np

from simulate._compile import compiled

__all__ = ["GAUSSIAN", "BERNOULLI", "LOW", "HIGH", "noise_code", "uniform_pair", "draw", "RewardTable"]

#: fidelity codes (the m of (seed, k, m, n)).
LOW = 0
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
_TWO53 = 1.0 / 9007199254740992.0


def noise_code(model: str) -> int:
    """The integer code of a noise model name (``gaussian`` or ``bernoulli``)."""
    return BERNOULLI if model == "bernoulli" else GAUSSIAN


@compiled(inline="always")
def _mix(x):
    z = x + _GOLDEN
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
def uniform_pair_from(base, n):
    """Two independent uniforms in (0, 1) for the n-th draw of the (seed, k, m) whose hash is ``base``."""
    h = _mix(base ^ np.uint64(n))
    a = _mix(h)
    b = _mix(a)
    u1 = (float(a >> _S11) + 0.5) * _TWO53
    u2 = (float(b >> _S11) + 0.5) * _TWO53
    return u1, u2


@compiled(inline="always")
def uniform_pair(seed, k, m, n):
    """Two independent uniforms in (0, 1) for the n-th draw of arm k at fidelity m under ``seed``."""
    return uniform_pair_from(key_base(seed, k, m), n)


@compiled(inline="always")
def draw_from(noise, sigma, mean, base, n):
    """:func:`draw` with the (seed, k, m) hash precomputed."""
    u1, u2 = uniform_pair_from(base, n)
    if noise == BERNOULLI:
        return 1.0 if u1 < mean else 0.0
    return mean + sigma * (math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2))


@compiled(inline="always")
def draw(noise, sigma, mean, seed, k, m, n):
    """The observation of the n-th query (n >= 1) of arm k at fidelity m whose mean is ``mean``."""
    return draw_from(noise, sigma, mean, key_base(seed, k, m), n)


@compiled()
def key_bases(seed, n_arms):
    """key_base(seed, k, m) for every arm and fidelity: a (2, K) array."""
    out = np.empty((2, n_arms), dtype=np.uint64)
    for m in range(2):
        for k in range(n_arms):
            out[m, k] = key_base(seed, k, m)
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
