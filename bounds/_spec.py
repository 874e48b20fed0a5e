"""The configuration's frozen objects (docs/design.md section 9): an instance (its means, noise and low-fidelity
model), the costs and the parameters, as :func:`bounds.parse_config` builds them from a validated file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Config", "InstanceSpec", "MeansSpec", "NoiseSpec", "LowSpec", "Costs", "Params", "PRESETS", "LOW_MODELS",
           "NOISE_MODELS", "DISTRIBUTIONS"]

#: the built-in presets: the paper's five experiments (docs/design.md section 8), as TOML files in ``bounds/presets``.
PRESETS = ("set-a", "set-b", "llm-residual", "llm-vanishing", "checkpoint")

LOW_MODELS = ("power_decay", "residual_decay", "checkpoint", "table", "frozen")
NOISE_MODELS = ("gaussian", "bernoulli")
DISTRIBUTIONS = ("uniform", "normal")


@dataclass(frozen=True)
class MeansSpec:
    """High-fidelity means drawn with the instance seed: uniform(low, high) or normal(mean, sd)."""

    distribution: str
    n_arms: int
    low: float = 0.0
    high: float = 1.0
    mean: float = 0.0
    sd: float = 1.0


@dataclass(frozen=True)
class NoiseSpec:
    """Observation noise: Gaussian with scale sigma, or Bernoulli rewards (means clipped to [0, 1])."""

    model: str
    sigma: float = 1.0

    @property
    def subgaussian_scale(self) -> float:
        """The sub-Gaussian scale the radius must assume: sigma, or 1/2 for Bernoulli (Hoeffding's lemma)."""
        return self.sigma if self.model == "gaussian" else 0.5


@dataclass(frozen=True)
class LowSpec:
    """The low-fidelity model and its parameters (docs/design.md section 5); unused fields keep their defaults."""

    model: str
    zeta: float = 0.0
    r: float = 1.0
    signs: Any = "random"  # "random" or a tuple of +1 / -1
    b: float = 0.0
    n0: float = 0.0
    q: tuple = ()
    gap: tuple = ()
    q_max: int = 0
    mean_low: tuple = ()
    certificate: tuple = ()
    values: tuple = ()


@dataclass(frozen=True)
class InstanceSpec:
    mu_high: tuple | None
    means: MeansSpec | None
    seed: int
    noise: NoiseSpec
    low: LowSpec

    @property
    def n_arms(self) -> int:
        if self.mu_high is not None:
            return len(self.mu_high)
        assert self.means is not None  # exactly one of the two is set (parse_config)
        return self.means.n_arms


@dataclass(frozen=True)
class Costs:
    low: float
    high: float


@dataclass(frozen=True)
class Params:
    """Algorithm parameters. ``rho`` is a number or the string "min" (resolved by ``bounds.analyze``)."""

    budget: float
    delta: float
    rho: float | str
    gamma: float
    eta: float
    s0: int


@dataclass(frozen=True)
class Config:
    name: str
    instance: InstanceSpec
    costs: Costs
    params: Params
    source: str = field(default="", compare=False)
