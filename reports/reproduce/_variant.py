"""The configuration of one variant of a paper experiment: the experiment's preset with the variant's overrides, at
a budget and a radius constant rho of the run."""

from __future__ import annotations

import functools

from bounds import config_to_dict, load_config, parse_config
from reports.reproduce._paper import Experiment

__all__ = ["variant_config", "preset"]


def variant_config(exp: Experiment, variant, *, budget: float | None = None, rho=None, rho_scale=None):
    """The configuration of one variant of an experiment (overrides applied by dotted key); a point of the rho
    sweep other than rho_min (``rho_scale``) says so in its name (``tacc runs`` tells the sweep's points apart)."""
    d = config_to_dict(preset(exp.preset))
    for key, value in variant.overrides.items():
        *path, last = key.split(".")
        node = d
        for p in path:
            node = node[p]
        node[last] = value
    if budget is not None:
        d["params"]["budget"] = float(budget)
    if rho is not None:
        d["params"]["rho"] = rho
    d["name"] = f"{exp.key} [{variant.name}" + (f", rho = {rho_scale:g} rho_min]" if rho_scale is not None else "]")
    return parse_config(d, source=f"experiment:{exp.key}")


@functools.lru_cache(maxsize=None)
def preset(name: str):
    """The built-in preset ``name`` (a frozen configuration), read once per process (an experiment's variants and
    budgets read it hundreds of times)."""
    return load_config(name)
