"""The instance and budgets of ``tacc report``'s sweep: the built-in configuration, and the budgets halving from a
configuration's own."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from importlib import resources

from bounds import first_round_paid, parse_config

__all__ = ["default_config", "budget_sweep", "report_budgets", "at_budget"]


def default_config():
    """The built-in default configuration (a table model built so that A, B, C^d and C^u all occur)."""
    text = resources.files("reports").joinpath("data", "default.toml").read_text()
    return parse_config(tomllib.loads(text), source="builtin:default")


def budget_sweep(budget: float, points: int = 5) -> list[float]:
    """``points`` budgets, halving from the full budget: budget / 2^(points-1), ..., budget / 2, budget."""
    return [budget / 2 ** (points - 1 - i) for i in range(points)]


def report_budgets(config, points: int = 5) -> tuple[list[float], list[float]]:
    """The budgets of ``tacc report``'s sweep: :func:`budget_sweep` of the configuration's budget, less those that
    do not pay for Algorithm 1's start (``alg:start``, K (lambda^(L) + lambda^(H)) <= Lambda, decided exactly by
    ``bounds.first_round_paid``, as the engines count); the full budget is always kept (its assumptions are
    checked and reported). Returns (kept, left out). A budget below the start (costs 1e9 and 1e10 on six arms: a
    start of 6.6e10) would end its runs before every arm was queried, identical on every seed."""
    sweep = budget_sweep(config.params.budget, points)
    K, c = config.instance.n_arms, config.costs
    kept = [b for b in sweep[:-1] if first_round_paid(K, c.low, c.high, b)] + sweep[-1:]
    return kept, sweep[:len(sweep) - len(kept)]


def at_budget(config, budget):
    """``config`` with its budget Lambda set to ``budget`` (a float, as a configuration holds it)."""
    return replace(config, params=replace(config.params, budget=float(budget)))
