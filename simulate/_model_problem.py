"""A :class:`simulate.Problem` made from a configuration or from a low-fidelity model written in Python, so a
user's own model can be simulated (``simulate.run``) and certified (``certify.judge``) like a configured one.

The costs, budget and parameters are validated by the configuration reader itself (``bounds.parse_config``), so
a bad value is refused naming the same field a TOML file would (``params.budget``, ``costs.low``...).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bounds import Config, Instance, LowFidelityModel, LowSpec, TaccInputError, build_instance, check_gaps, parse_config
from simulate._certificate import TabulatedBound
from simulate._problem import Problem, problem_of

__all__ = ["make_problem", "problem_from_model", "PYTHON_MODEL_PREFIX"]

#: the ``instance.low.model`` of a configuration describing a Python model (no TOML reader builds it).
PYTHON_MODEL_PREFIX = "python:"


def problem_from_model(model: LowFidelityModel, *, cost_low: float, cost_high: float, budget: float,
                       delta: float = 0.05, rho="min", gamma: float, eta: float, s0: int, noise: str = "gaussian",
                       sigma: float = 1.0, name: str | None = None) -> Problem:
    """The :class:`Problem` of a Python low-fidelity model (reached as ``make_problem(model, ...)``).

    Args:
        model: an instance of a ``bounds.LowFidelityModel`` subclass, bound to the high-fidelity means
            (``model.mu_high``); its methods must accept an integer array of counts, as the interface states.
        cost_low, cost_high, budget, delta, rho, gamma, eta, s0: as in a configuration's ``[costs]`` and
            ``[params]`` (``rho = "min"``: the least rho the union bound of ``lem:ci`` certifies with this
            noise).
        noise, sigma: ``"gaussian"`` with scale ``sigma``, or ``"bernoulli"`` (means in [0, 1]).
        name: the problem's name in verdicts and reports (default: the model class's name).

    The problem's ``config`` records everything but the model (its ``instance.low.model`` is
    ``"python:<class>"``), so it cannot be rebuilt from a file: run it with ``simulate.run``, not the cached
    runner. Its B_k(n) table is checked at once (finite, nonnegative, nonincreasing).
    """
    if not isinstance(model, LowFidelityModel):
        raise TaccInputError("model", model, "must be a bounds.LowFidelityModel (mean_low, mismatch_sum, certificate, "
                             "mismatch_bound, irregular_prefix)")
    cls = type(model).__qualname__
    mu = np.array(model.mu_high, dtype=float)
    noise_table = {"model": noise} if noise != "gaussian" else {"model": noise, "sigma": sigma}
    data = {"name": name or cls,
            "instance": {"mu_high": mu.tolist(), "noise": noise_table,
                         "low": {"model": "frozen", "values": mu.tolist()}},   # checked, then replaced below
            "costs": {"low": cost_low, "high": cost_high},
            "params": {"budget": budget, "delta": delta, "rho": rho, "gamma": gamma, "eta": eta, "s0": s0}}
    config = parse_config(data, source=f"python:{type(model).__module__}.{cls}")
    config = replace(config, instance=replace(config.instance, low=LowSpec(model=PYTHON_MODEL_PREFIX + cls)))
    mu.setflags(write=False)
    try:
        problem = problem_of(config, Instance(mu, config.instance.noise, model, config.instance.seed))
        TabulatedBound(*problem.bias_table, field="model.mismatch_bound")
    except TaccInputError:
        raise
    except Exception as exc:   # noqa: BLE001 -- a model method that does not follow the interface
        raise TaccInputError("model", model, f"a method failed (they must accept an int or an integer array of "
                             f"counts): {type(exc).__name__}: {exc}") from exc
    return problem


def make_problem(config, **parameters) -> Problem:
    """Build the :class:`Problem` of a configuration (``rho = "min"`` resolves to ``bounds.min_rho``).

    ``config`` may also be a low-fidelity model written in Python (a ``bounds.LowFidelityModel``), with the costs,
    budget and parameters as keywords: see :func:`simulate.problem_from_model`.
    """
    if not isinstance(config, Config):
        return problem_from_model(config, **parameters)
    if parameters:
        raise TaccInputError(next(iter(parameters)), parameters[next(iter(parameters))],
                             "keywords are for a Python low-fidelity model; a configuration holds its parameters")
    inst = build_instance(config.instance)
    check_gaps(config, inst.mu_high)
    return problem_of(config, inst)
