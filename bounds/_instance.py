"""An instance built from its configuration: high-fidelity means, noise, and the bound low-fidelity model.

The instance's own randomness (drawn means, random signs s_k) is a function of the instance seed alone
(docs/design.md section 4): means from numpy's generator seeded with (seed, 0), signs from (seed, 1), so fixing the
means in a file does not change the signs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bounds._spec import InstanceSpec, NoiseSpec
from bounds._decay import power_decay, residual_decay
from bounds._lowfidelity import LowFidelityModel
from bounds._means import draw_means, suboptimality_gaps
from bounds._table import TableLowFidelity, checkpoint_profile, frozen

__all__ = ["Instance", "build_instance"]


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
        return suboptimality_gaps(self.mu_high)


def _signs(spec: InstanceSpec, n_arms: int) -> np.ndarray:
    if spec.low.signs != "random":
        return np.array(spec.low.signs, dtype=float)
    rng = np.random.default_rng([spec.seed, 1])
    return rng.choice(np.array([-1.0, 1.0]), size=n_arms)


def build_instance(spec: InstanceSpec) -> Instance:
    """Build the :class:`Instance` a configuration's ``[instance]`` table describes."""
    mu = draw_means(spec)
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
