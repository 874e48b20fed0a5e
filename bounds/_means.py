"""The high-fidelity means of an instance and their gaps: the means a configuration lists or draws, read by the
configuration's checks (:func:`bounds.parse_config`) and by :func:`bounds.build_instance` alike.

Drawn means come from numpy's generator seeded with (instance seed, 0) (docs/design.md section 4).
"""

from __future__ import annotations

import numpy as np

from bounds._spec import InstanceSpec

__all__ = ["draw_means", "suboptimality_gaps"]


def draw_means(spec: InstanceSpec) -> np.ndarray:
    """mu_k^(H) for every arm: the listed ``mu_high``, or the ``means`` drawn with the instance seed (float64)."""
    if spec.mu_high is not None:
        return np.array(spec.mu_high, dtype=float)
    m = spec.means
    assert m is not None  # exactly one of mu_high and means is set (parse_config)
    rng = np.random.default_rng([spec.seed, 0])
    if m.distribution == "uniform":
        return rng.uniform(m.low, m.high, size=m.n_arms)
    return rng.normal(m.mean, m.sd, size=m.n_arms)


def suboptimality_gaps(mu_high: np.ndarray) -> np.ndarray:
    """Delta_k = mu^* - mu_k^(H) (``sec:problem``; 0 for k^* and for arms tied with it)."""
    return mu_high.max() - mu_high
