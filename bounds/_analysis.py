"""Every quantity of ``bounds`` for one configuration, in one frozen record (what ``tacc bounds`` prints)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from bounds._amount import cost_units
from bounds._certification import instance_certification_times
from bounds._ranges import check_gaps
from bounds._spec import Config
from bounds._horizon import horizon, log_factor, min_rho, n_gamma
from bounds._instance import Instance, build_instance
from bounds._partition import ArmClass, arm_partition, prior_partition, replace_classes
from bounds._radius import RhoReadings, rho_readings
from bounds._rdfe import RdfeBound, rdfe_regret_bound
from bounds._tacc import (Comparison, CorollaryTerms, TaccBound, confirmation_counts, corollary_order,
                          low_query_bound, static_vs_adaptive, tacc_regret_bound)

__all__ = ["Analysis", "analyze"]


@dataclass(frozen=True, eq=False)
class Analysis:
    """The theory's quantities for one configuration, before any run.

    ``theorem`` is ``thm:analysis-main-regret`` with every C arm counted in H (valid for every run);
    ``theorem_if_all_cd`` is the same with every C arm in C^d (the smallest value a run can make it).
    """

    config: Config
    instance: Instance
    horizon: int
    rho: float
    rho_min: float
    ell: float
    n_gamma: int
    tau: tuple
    classes: tuple
    low_count_bound: int
    high_count_bound: tuple
    theorem: TaccBound
    theorem_if_all_cd: TaccBound
    corollary: CorollaryTerms
    comparison: Comparison
    rdfe_low_cost: tuple
    rdfe_high_cost: tuple
    rdfe: RdfeBound

    @functools.cached_property
    def rho_readings(self) -> RhoReadings:
        """The least rho the union bound of ``lem:ci`` certifies, by the sub-Gaussian tail (``rho_min``) and by the
        noise's exact tail (:func:`bounds.rho_readings`)."""
        noise = self.instance.noise
        return rho_readings(noise.model, noise.sigma, self.instance.n_arms, self.horizon, self.config.params.delta)


def analyze(config: Config) -> Analysis:
    """Compute every quantity of ``bounds`` for ``config`` (rho = "min" resolves to :func:`min_rho`).

    A budget the engines' exact cost accounting cannot hold (:func:`cost_units`) is refused here too, naming it,
    so the bounds and the runs are computed for the same instances."""
    inst = build_instance(config.instance)
    c, p = config.costs, config.params
    cost_units(c.low, c.high, p.budget)
    check_gaps(config, inst.mu_high)
    T = horizon(p.budget, c.low)
    K = inst.n_arms
    rmin = min_rho(inst.noise.subgaussian_scale, K, T, p.delta)
    rho = rmin if p.rho == "min" else float(p.rho)
    ell = log_factor(rho, K, T, p.delta)
    ng = n_gamma(ell, p.gamma)
    kb, gaps = inst.best_arm, np.asarray(inst.gaps, dtype=float)
    tau = instance_certification_times(inst, p.gamma)
    classes = arm_partition(tau, ng, p.s0, kb)
    prior = prior_partition(classes)
    best = replace_classes(classes, {ArmClass.C: ArmClass.C_D})
    kw: dict[str, Any] = dict(n_gamma=ng, s0=p.s0, ell=ell, cost_low=c.low, cost_high=c.high)
    rdfe = rdfe_regret_bound(inst.low, gaps, ell=ell, cost_low=c.low, cost_high=c.high)
    high = [1 + x for x in confirmation_counts(ell, gaps)]
    high[kb] = 0
    return Analysis(
        config=config, instance=inst, horizon=T, rho=rho, rho_min=rmin, ell=ell, n_gamma=ng, tau=tau,
        classes=classes, low_count_bound=low_query_bound(ng, p.s0), high_count_bound=tuple(high),
        theorem=tacc_regret_bound(gaps, prior, **kw), theorem_if_all_cd=tacc_regret_bound(gaps, best, **kw),
        corollary=corollary_order(gaps, prior, gamma=p.gamma, horizon=T, ell=ell, s0=p.s0, cost_low=c.low,
                                  cost_high=c.high),
        comparison=static_vs_adaptive(gaps, classes, **kw),
        rdfe_low_cost=rdfe.low_cost, rdfe_high_cost=rdfe.high_cost, rdfe=rdfe,
    )
