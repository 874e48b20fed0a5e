"""An instance built from its configuration: high-fidelity means, noise, and the bound low-fidelity model.

The instance's own randomness (drawn means, random signs s_k) is a function of the instance seed alone
(docs/design.md section 4): means from numpy's generator seeded with (seed, 0), signs from (seed, 1), so fixing the
means in a file does not change the signs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bounds._config import InstanceSpec, NoiseSpec
from bounds._errors import TaccInputError
from bounds._decay import power_decay, residual_decay
from bounds._lowfidelity import LowFidelityModel
from bounds._table import TableLowFidelity, checkpoint_profile, frozen

__all__ = ["Instance", "build_instance", "check_bernoulli_low_means"]


@dataclass(frozen=True, eq=False)
class Instance:
    """High-fidelity means, noise model and low-fidelity model of one bandit instance.

    Attributes:
        mu_high: mu_k^(H), a read-only array of K floats.
        noise: the noise model.
        low: the low-fidelity model (bound to ``mu_high``).
        seed: the instance seed the means and signs came from.
    """

    mu_high: np.ndarray
    noise: NoiseSpec
    low: LowFidelityModel
    seed: int = 0

    @property
    def n_arms(self) -> int:
        return int(self.mu_high.size)

    @property
    def best_arm(self) -> int:
        """k^*: the lowest index among the arms with the largest mean (docs/design.md section 6)."""
        return int(np.argmax(self.mu_high))

    @property
    def mu_star(self) -> float:
        return float(self.mu_high.max())

    @property
    def gaps(self) -> np.ndarray:
        """Delta_k = mu^* - mu_k^(H) (0 for k^* and for arms tied with it)."""
        return self.mu_star - self.mu_high


def _draw_means(spec: InstanceSpec) -> np.ndarray:
    if spec.mu_high is not None:
        return np.array(spec.mu_high, dtype=float)
    m = spec.means
    assert m is not None  # exactly one of mu_high and means is set (parse_config)
    rng = np.random.default_rng([spec.seed, 0])
    if m.distribution == "uniform":
        return rng.uniform(m.low, m.high, size=m.n_arms)
    return rng.normal(m.mean, m.sd, size=m.n_arms)


def _signs(spec: InstanceSpec, n_arms: int) -> np.ndarray:
    if spec.low.signs != "random":
        return np.array(spec.low.signs, dtype=float)
    rng = np.random.default_rng([spec.seed, 1])
    return rng.choice(np.array([-1.0, 1.0]), size=n_arms)


def build_instance(spec: InstanceSpec) -> Instance:
    """Build the :class:`Instance` a configuration's ``[instance]`` table describes."""
    mu = _draw_means(spec)
    mu.setflags(write=False)
    lo = spec.low
    clip = spec.noise.model == "bernoulli"
    if lo.model == "power_decay":
        model: LowFidelityModel = power_decay(mu, zeta=lo.zeta, r=lo.r, signs=_signs(spec, mu.size), clip=clip)
    elif lo.model == "residual_decay":
        model = residual_decay(mu, zeta=lo.zeta, r=lo.r, signs=_signs(spec, mu.size), b=lo.b, n0=lo.n0)
    elif lo.model == "checkpoint":
        model = checkpoint_profile(mu, q=lo.q, gap=lo.gap, q_max=lo.q_max, signs=_signs(spec, mu.size), clip=clip)
    elif lo.model == "table":
        model = TableLowFidelity(mu, mean_low=lo.mean_low, certificate=lo.certificate, clip=clip)
    else:
        model = frozen(mu, values=lo.values, clip=clip)
    return Instance(mu, spec.noise, model, spec.seed)


def check_bernoulli_low_means(spec: InstanceSpec) -> None:
    """Refuse a Bernoulli instance whose low-fidelity model can produce a mean outside [0, 1].

    A Bernoulli reward has its mean in [0, 1]; the reward table would clip a mean outside it while tau_k, the arm
    classes and the bounds read the model's own value, so the two would describe different instances. Every mean
    the model can produce, over every count, is checked exactly as the model computes it (docs/design.md
    section 5), on the instance's own means and signs (drawn from its seed when not given):

    - power decay, mu_k + s_k zeta n^(-r), is monotone in n: its extremes are n = 1, mu_k + s_k zeta (the float
      the model computes there, since 1^(-r) = 1), and the limit mu_k, already in [0, 1];
    - checkpoint, mu_k + s_k g_k(q): every checkpoint reached (the sizes q_i <= q_max, and q_1);
    - table: every entry (the last one holds for ever); frozen: its value.

    Residual decay clips its own means (clip01 is its formula), so every value it produces is in [0, 1]. The refusal
    names the field as written: ``instance.low.zeta``, ``instance.low.gap[i]`` (``gap[k][i]``),
    ``instance.low.mean_low[k][j]`` or ``instance.low.values[k]``.
    """
    lo = spec.low
    if spec.noise.model != "bernoulli" or lo.model not in ("power_decay", "checkpoint", "table", "frozen"):
        return
    if lo.model == "table":
        means = np.array(lo.mean_low, dtype=float)
        bad = np.argwhere((means < 0) | (means > 1))
        if bad.size:
            k, j = (int(x) for x in bad[0])
            raise TaccInputError(f"instance.low.mean_low[{k}][{j}]", lo.mean_low[k][j],
                                 "must lie in [0, 1]: a low-fidelity mean of Bernoulli rewards")
        return
    if lo.model == "frozen":
        for k, x in enumerate(lo.values):
            if not 0.0 <= x <= 1.0:
                raise TaccInputError(f"instance.low.values[{k}]", x,
                                     "must lie in [0, 1]: a low-fidelity mean of Bernoulli rewards")
        return
    mu = _draw_means(spec)
    s = _signs(spec, mu.size)
    if lo.model == "power_decay":
        first = mu + s * lo.zeta
        outside = np.flatnonzero((first < 0) | (first > 1))
        if outside.size:
            k = int(outside[0])
            up = s[k] > 0
            raise TaccInputError("instance.low.zeta", lo.zeta,
                                 f"is too large for Bernoulli rewards: arm {k}'s low mean at n = 1, mu_high[{k}] "
                                 f"{'+' if up else '-'} zeta = {float(mu[k])!r} {'+' if up else '-'} {lo.zeta!r} = "
                                 f"{float(first[k])!r}, is outside [0, 1] (sign s_{k} = {int(s[k]):+d}: zeta must "
                                 f"not exceed {'1 - mu_high' if up else 'mu_high'}[{k}], about "
                                 f"{float(1.0 - mu[k] if up else mu[k]):.6g})")
        return
    per_arm = bool(lo.gap) and isinstance(lo.gap[0], tuple)
    g = np.array(lo.gap if per_arm else [lo.gap] * mu.size, dtype=float)
    reached = [i for i, q in enumerate(lo.q) if q <= lo.q_max or i == 0]
    means = mu[:, None] + s[:, None] * g[:, reached]
    bad = np.argwhere((means < 0) | (means > 1))
    if bad.size:
        k, j = (int(x) for x in bad[0])
        i = reached[j]
        field = f"instance.low.gap[{k}][{i}]" if per_arm else f"instance.low.gap[{i}]"
        raise TaccInputError(field, float(g[k, i]),
                             f"is too large for Bernoulli rewards: arm {k}'s low mean at checkpoint q = {lo.q[i]}, "
                             f"mu_high[{k}] {'+' if s[k] > 0 else '-'} gap = {float(means[k, j])!r}, is outside "
                             f"[0, 1] (sign s_{k} = {int(s[k]):+d})")
