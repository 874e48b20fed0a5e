"""What a configuration's values must satisfy beyond their types: costs lambda_L < lambda_H, parameters in their
ranges, and means, noise scales and gammas whose bounds stay exact and finite (N_gamma below 2**53, confirmation
counts and the largest regret finite floats). One check for a configuration, ``simulate.Tacc.from_parameters`` and
the drawn means, each refusal a :class:`bounds.TaccInputError` naming the field."""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from bounds._amount import cost_units
from bounds._errors import TaccInputError
from bounds._fields import did_you_mean, read_integer, read_real
from bounds._horizon import horizon, log_factor, min_rho, n_gamma
from bounds._means import draw_means, suboptimality_gaps
from bounds._spec import Config, Costs, InstanceSpec, Params
from bounds._tacc import confirmation_counts
from bounds._toml import toml_value

__all__ = ["CONFIG_NAMES", "SIGMA_MIN", "check_parameters", "check_costs", "check_gaps", "check_accounting",
           "check_regret_range", "check_gap_range"]


#: the field each argument of :func:`check_parameters` has in a configuration (its default ``names``).
CONFIG_NAMES = {"n_arms": "n_arms", "cost_low": "costs.low", "cost_high": "costs.high", "budget": "params.budget",
                "delta": "params.delta", "rho": "params.rho", "gamma": "params.gamma", "eta": "params.eta",
                "s0": "params.s0", "noise_scale": "instance.noise.sigma"}


def check_parameters(n_arms: int, cost_low: Any, cost_high: Any, budget: Any, delta: Any, rho: Any, gamma: Any,
                     eta: Any, s0: Any, *, noise_scale: float, names: dict | None = None) -> tuple[Costs, Params]:
    """The costs and parameters of a run, checked: the one validation of a configuration's ``[costs]`` and
    ``[params]`` and of ``simulate.Tacc.from_parameters``' arguments.

    Every refusal is a :class:`TaccInputError` naming the field as ``names`` spells it (default
    :data:`CONFIG_NAMES`, a configuration's dotted keys; ``from_parameters`` passes its argument names):
    costs > 0 with lambda_L < lambda_H, budget > 0, delta and eta in (0, 1), rho > 0 or ``"min"``, gamma > 0,
    S_0 an integer in [0, 2**53]; with ``rho = "min"``, a noise scale (``noise_scale``, the sub-Gaussian scale)
    whose rho_min neither overflows nor underflows; and a gamma whose N_gamma stays below 2**53.
    """
    nm = dict(CONFIG_NAMES if names is None else names)
    costs = check_costs(cost_low, cost_high, names=nm)
    c_low = costs.low
    if isinstance(rho, str) and rho != "min":
        raise TaccInputError(nm["rho"], rho, 'must be a number > 0 or "min" (the least rho the union bound of '
                             'lem:ci certifies)' + did_you_mean(rho, ("min",)))
    if rho != "min":
        rho = read_real(nm["rho"], rho, low=0.0, low_open=True)
    params = Params(budget=read_real(nm["budget"], budget, low=0.0, low_open=True),
                    delta=read_real(nm["delta"], delta, low=0.0, high=1.0, low_open=True, high_open=True),
                    rho=rho,
                    gamma=read_real(nm["gamma"], gamma, low=0.0, low_open=True),
                    eta=read_real(nm["eta"], eta, low=0.0, high=1.0, low_open=True, high_open=True),
                    s0=read_integer(nm["s0"], s0, low=0))
    if params.s0 > 2**53:
        raise TaccInputError(nm["s0"], params.s0, "must be <= 2**53: low counts N_gamma + S0 must be exact as "
                                                  "doubles (B_k is evaluated in floating point)")
    if rho == "min":
        _check_sigma_range(nm["noise_scale"], noise_scale, n_arms, c_low, params.budget, params.delta)
    _check_gamma_range(nm, noise_scale, n_arms, c_low, params)
    return costs, params


def check_costs(cost_low: Any, cost_high: Any, *, names: dict | None = None) -> Costs:
    """The query costs lambda^(L) < lambda^(H), both > 0 (``sec:problem``), checked: the one check of a
    configuration's ``[costs]`` (through :func:`check_parameters`) and of ``simulate.Tacc``'s constructor.

    A refusal is a :class:`TaccInputError` naming the field as ``names`` spells it (its ``cost_low`` and
    ``cost_high`` entries; default :data:`CONFIG_NAMES`, ``costs.low`` and ``costs.high``); ``cost_low >=
    cost_high`` names the low cost.

    >>> check_costs(1, 10.0)
    Costs(low=1.0, high=10.0)
    """
    nm = CONFIG_NAMES if names is None else names
    c_low = read_real(nm["cost_low"], cost_low, low=0.0, low_open=True)
    c_high = read_real(nm["cost_high"], cost_high, low=0.0, low_open=True)
    if c_low >= c_high:
        raise TaccInputError(nm["cost_low"], cost_low, f"must be < {nm['cost_high']} = {c_high} "
                                                       "(lambda_L < lambda_H)")
    return Costs(c_low, c_high)


def check_accounting(written: dict, c: Costs, p: Params) -> None:
    """Refuse, when the configuration is read, costs and a budget the engines' exact cost accounting cannot hold
    (:func:`bounds.cost_units`, which :func:`bounds.analyze` and every run apply), echoing the refused value as
    ``written`` holds it (the configuration's own number): an integer above 2**53, which is read as a float, is shown
    as written and the float it is read as is named (``budget = 4611686018427387893`` is read as 2**62)."""
    try:
        cost_units(c.low, c.high, p.budget)
    except TaccInputError as exc:
        value = written[exc.field]
        read = "" if value == exc.value else f"is read as the float {toml_value(exc.value)}; "
        raise TaccInputError(exc.field, value, read + exc.reason) from None


def check_regret_range(mu_high, means, n_arms: int, c_low: float, c_high: float, budget: float) -> None:
    """Refuse means so far apart that the largest possible regret is not a finite float.

    Any run's regret is at most (largest gap) x (the cost it spends), and the cost is at most the budget plus the
    start's K (lambda_L + lambda_H); if that product overflows, regret sums and the bounds that add such terms would
    be ``inf``. The spread of drawn normal means is bounded by 80 standard deviations (exceeded with probability
    below 1e-300 per arm). A list's refused entry is named by its index (``instance.mu_high[1]``): the mean of largest
    magnitude, the first such.
    """
    if mu_high is not None:
        i = max(range(len(mu_high)), key=lambda j: abs(mu_high[j]))
        field, value, spread = f"instance.mu_high[{i}]", mu_high[i], max(mu_high) - min(mu_high)
    elif means.distribution == "uniform":
        field, value, spread = "instance.means.high", means.high, means.high - means.low
    else:
        field, value, spread = "instance.means.mean", means.mean, 2 * abs(means.mean) + 80 * means.sd
    largest = spread * (budget + n_arms * (c_low + c_high))
    if not math.isfinite(largest):
        raise TaccInputError(field, value, "is too large: the largest possible regret, (largest gap) x (budget + "
                                           "K (costs.low + costs.high)), overflows a float")


#: the smallest sigma whose rho_min is a normal float: rho_min >= 2 sigma^2 (:func:`_check_sigma_range`).
SIGMA_MIN = math.sqrt(sys.float_info.min / 2)


def _check_sigma_range(field: str, sigma: float, n_arms: int, c_low: float, budget: float, delta: float) -> None:
    """Refuse a noise scale for which rho_min or ell = rho_min log(2 K T / delta) leaves the floats (``lem:ci``).

    rho_min = 2 sigma^2 (1 + log 2 / log(2 K T / delta)) lies in [2 sigma^2, 3 sigma^2], since 2 K T / delta >= 4.
    Too large: ell <= 3 sigma^2 log(2 K T / delta) overflows. Too small: below ``SIGMA_MIN`` = sqrt(m / 2), m the
    smallest normal float (about 1.05e-154), 2 sigma^2 is subnormal, so rho_min loses its digits and reaches 0
    (below about 1.1e-162), and every radius with it.
    """
    sigma = read_real(field, sigma, low=0.0, low_open=True)
    log_term = math.log(2 * n_arms) + math.log(max(1.0, budget / c_low) + 1) - math.log(delta)
    if not math.isfinite(3.0 * sigma * sigma * log_term):
        raise TaccInputError(field, sigma, "is too large: the log factor ell = rho_min log(2 K T / "
                                           "delta), with rho_min about 2 sigma^2, overflows a float")
    if 2.0 * sigma * sigma < sys.float_info.min:     # the first product of bounds.min_rho, exactly as it is computed
        raise TaccInputError(field, sigma, f"is too small: rho_min = 2 sigma^2 (1 + log 2 / log(2 K T / delta)) "
                                           f"underflows (2 sigma^2 is below the smallest normal float "
                                           f"{sys.float_info.min!r}): sigma must be >= about {SIGMA_MIN:.4g}")


def _rho_and_ell(noise_scale: float, n_arms: int, c_low: float, p: Params) -> tuple[float, float] | None:
    """rho (rho_min of ``lem:ci`` when ``"min"``) and ell_Lambda = rho log(2 K T / delta), as
    :func:`bounds.analyze` computes them; None for inputs refused elsewhere (a budget exact accounting cannot
    hold, a log factor that leaves the floats)."""
    try:
        T = horizon(p.budget, c_low)
        rho = min_rho(noise_scale, n_arms, T, p.delta) if p.rho == "min" else float(p.rho)
        return rho, log_factor(rho, n_arms, T, p.delta)
    except (TaccInputError, OverflowError, ValueError):
        return None


def check_gap_range(spec: InstanceSpec, noise_scale: float, c_low: float, p: Params,
                     mu: np.ndarray | None = None) -> None:
    """Refuse means with a gap Delta_k > 0 so small that the confirmation count ceil(4 ell_Lambda / Delta_k^2) of
    ``prop:analysis-high-selection`` (:func:`bounds.confirmation_counts`) exceeds the largest float: the bounds, the
    tables and the checks show and compare counts and costs as floats (a gap below about 1e-154 sqrt(ell), and every
    subnormal gap). The count decreases with the gap, so the smallest gap > 0 decides. Listed means are checked when
    the configuration is read, named by index (``instance.mu_high[1]``, the first arm with that gap); drawn means
    (``instance.means``, named by the field that sets their spread) when they are drawn, ``mu`` (:func:`check_gaps`,
    after the commands' memory check: drawing them when the file is read allocated 10^9 arms before it)."""
    if mu is None:
        if spec.mu_high is None:
            return
        mu = draw_means(spec)
    resolved = _rho_and_ell(noise_scale, mu.size, c_low, p)
    gaps = suboptimality_gaps(mu)
    if resolved is None or not (gaps > 0).any():
        return
    i = int(np.flatnonzero(gaps == gaps[gaps > 0].min())[0])
    ell = resolved[1]
    if confirmation_counts(ell, gaps[i:i + 1])[0] <= sys.float_info.max:
        return
    reason = (f"gap {float(gaps[i])!r} makes the high-fidelity count bound "
              f"ceil(4 ell / gap^2) (prop:analysis-high-selection, ell = {ell:.4g}) exceed the largest float, which "
              f"the bounds and checks cannot represent; a gap must be 0 (a tie) or >= about "
              f"{math.sqrt(4 * ell / sys.float_info.max):.3g}")
    if spec.mu_high is not None:
        raise TaccInputError(f"instance.mu_high[{i}]", spec.mu_high[i],
                             f"is too close to the best mean {float(mu.max())!r}: the {reason}")
    m = spec.means
    assert m is not None                    # drawn: a configuration holds mu_high or means
    field, value = ("instance.means.high", m.high) if m.distribution == "uniform" else ("instance.means.sd", m.sd)
    raise TaccInputError(field, value, f"draws arm {i} at {float(mu[i])!r}, too close to the best mean "
                                       f"{float(mu.max())!r}: the {reason}")


def check_gaps(config: "Config", mu_high: np.ndarray) -> None:
    """Refuse an instance whose means ``mu_high`` (drawn from ``config``) have a gap Delta_k > 0 whose confirmation
    count ceil(4 ell / Delta_k^2) (``prop:analysis-high-selection``) exceeds the largest float, as reading the
    configuration does for listed means: :class:`TaccInputError` naming the field. Called once the means are drawn
    (:func:`bounds.analyze`, ``simulate.make_problem``, the command line after its memory check)."""
    check_gap_range(config.instance, config.instance.noise.subgaussian_scale, config.costs.low, config.params,
                     mu=np.asarray(mu_high, dtype=float))


def _check_gamma_range(names: dict, noise_scale: float, n_arms: int, c_low: float, p: Params) -> None:
    """Refuse a gamma and an ell_Lambda = rho log(2 K T / delta) for which N_gamma (``sec:theory``), about
    ell / gamma^2, exceeds 2**53 (the bound and every run need N_gamma), naming the field that causes it (as
    ``names`` spells it): gamma, unless ell alone is too large, N_gamma past 2**53 even at gamma = 1; then rho
    (``params.rho = 1e300``), or the noise scale when rho is ``"min"`` (rho_min is about 2 sigma^2, ``lem:ci``).
    Inputs refused elsewhere (a budget exact accounting cannot hold) are left to those checks."""
    resolved = _rho_and_ell(noise_scale, n_arms, c_low, p)
    if resolved is None:
        return
    rho, ell = resolved
    try:
        n_gamma(ell, p.gamma)
        return
    except TaccInputError as exc:
        reason = exc.reason
    try:
        n_gamma(ell, 1.0)
    except TaccInputError:                       # ell itself is too large (or overflows): its cause is named
        if p.rho == "min":
            field, value, ell_is = names["noise_scale"], noise_scale, "rho_min log(2 K T / delta) (rho_min ~ 2 sigma^2)"
        else:
            field, value, ell_is = names["rho"], rho, "rho log(2 K T / delta)"
        size = f"= {ell:.4g}" if math.isfinite(ell) else "overflows a float and"
        raise TaccInputError(field, value, f"is too large: ell = {ell_is} {size} makes N_gamma (about ell / "
                                           f"gamma^2) exceed 2**53 at gamma = {p.gamma!r}, and would at any gamma "
                                           f"<= 1") from None
    raise TaccInputError(names["gamma"], p.gamma, reason)
