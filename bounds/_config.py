"""The configuration format (docs/design.md section 9): a TOML file, or a built-in preset name, read into frozen,
validated objects. Every invalid value is refused with :class:`TaccInputError` naming the dotted field."""

from __future__ import annotations

import difflib
import math
import numbers
import sys
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from bounds._amount import cost_units
from bounds._errors import TaccInputError
from bounds._horizon import horizon, log_factor, min_rho, n_gamma
from bounds._means import draw_means, suboptimality_gaps
from bounds._tacc import confirmation_counts
from bounds._toml import toml_value

__all__ = ["Config", "InstanceSpec", "MeansSpec", "NoiseSpec", "LowSpec", "Costs", "Params", "PRESETS",
           "load_config", "parse_config", "config_to_dict", "dump_config", "check_parameters", "check_costs",
           "check_gaps", "CONFIG_NAMES", "did_you_mean"]

#: the built-in presets: the paper's five experiments (docs/design.md section 8), as TOML files in ``bounds/presets``.
PRESETS = ("set-a", "set-b", "llm-residual", "llm-vanishing", "checkpoint")

LOW_MODELS = ("power_decay", "residual_decay", "checkpoint", "table", "frozen")
NOISE_MODELS = ("gaussian", "bernoulli")
DISTRIBUTIONS = ("uniform", "normal")

#: every key each table of the format can hold (an unused one is refused by ``_Table.done``); a key outside its
#: table's set is unknown, named before any missing key, with the nearest known key as a suggestion.
KEYS = {
    "": ("name", "instance", "costs", "params"),
    "instance": ("mu_high", "means", "seed", "noise", "low"),
    "instance.means": ("distribution", "n_arms", "low", "high", "mean", "sd"),
    "instance.noise": ("model", "sigma"),
    "instance.low": ("model", "zeta", "r", "signs", "b", "n0", "q", "gap", "q_max", "mean_low", "certificate",
                     "values"),
    "costs": ("low", "high"),
    "params": ("budget", "delta", "rho", "gamma", "eta", "s0"),
}


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


# ---------------------------------------------------------------------------------------------- readers
class _Table:
    """A TOML table being read: every key must be consumed, unknown keys are refused."""

    def __init__(self, data: Any, path: str):
        if not isinstance(data, dict):
            raise TaccInputError(path or "<config>", data, "must be a table")
        # used: keys read; asked: optional keys looked for (``has``: a table such as noise), suggested as those are
        self.data, self.path, self.used, self.asked = data, path, set[str](), set[str]()

    def name(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def has(self, key: str) -> bool:
        self.asked.add(key)
        return key in self.data

    def get(self, key: str, default: Any = ...) -> Any:
        self.used.add(key)
        if key in self.data:
            return self.data[key]
        if default is not ...:
            return default
        raise TaccInputError(self.name(key), _MISSING, "is required")   # unknown keys: refused before (KEYS)

    def _refuse_unknown(self) -> None:
        """Refuse the first unknown key, with the nearest known key as a suggestion: first one near a known key that
        is absent (a likely misspelling of it: ``mu_hgh`` for a missing ``mu_high``), else the first by name."""
        known = KEYS.get(self.path, ())
        unknown = [k for k in self.data if k not in known]
        if not unknown:
            return
        absent = [k for k in known if k not in self.data]
        near = [k for k in sorted(unknown) if difflib.get_close_matches(k, absent, n=1)]
        self._refuse((near or sorted(unknown))[0], known)

    def _refuse(self, key: str, known) -> None:
        """Refuse ``key``, suggesting the nearest of ``known``; for a table with none near, the nearest table of the
        format elsewhere, by its dotted name (``[noises]`` or ``[noise]`` at the top: ``instance.noise``)."""
        hint = did_you_mean(key, known)
        if not hint and isinstance(self.data[key], dict):
            hint = did_you_mean(key, {p.rpartition(".")[2]: p for p in KEYS
                                       if p and p.rpartition(".")[0] != self.path})
        if not hint:                    # a key of one other table, written in the wrong one (mu_high at the top)
            homes = [p for p, keys in KEYS.items() if p != self.path and key in keys]
            hint = f" (did you mean {homes[0]}.{key}?)" if len(homes) == 1 and homes[0] else ""
        raise TaccInputError(self.name(key), self.data[key], "unknown key" + hint)

    def sub(self, key: str) -> "_Table":
        return _Table(self.get(key), self.name(key))

    def done(self) -> None:
        extra = sorted(set(self.data) - self.used)
        if extra:
            self._refuse(extra[0], [k for k in KEYS.get(self.path, ()) if k in self.used | self.asked])

    def real(self, key: str, default: Any = ..., *, low: float | None = None, high: float | None = None,
             low_open: bool = False, high_open: bool = False) -> float:
        x = self.get(key, default)
        return _real(self.name(key), x, low, high, low_open, high_open)

    def integer(self, key: str, default: Any = ..., *, low: int | None = None) -> int:
        return _integer(self.name(key), self.get(key, default), low)

    def choice(self, key: str, options: tuple, default: Any = ...) -> str:
        x = self.get(key, default)
        if x not in options:
            raise TaccInputError(self.name(key), x,
                                 f"must be one of {', '.join(options)}" + did_you_mean(x, options))
        return x


def did_you_mean(x: Any, options) -> str:
    """A space and ``(did you mean OPTION?)`` for the option nearest a misspelled string ``x`` (difflib's ratio >=
    0.6), else nothing: the suggestion of a misspelled key and of a misspelled value of a closed set (a model, a
    distribution, ``"random"``, ``"min"``, an experiment's name). ``options`` a sequence, or a mapping: its keys are
    matched, the value is shown.

    >>> did_you_mean("sett-b", ["set-a", "set-b"])
    ' (did you mean set-b?)'
    """
    guess = difflib.get_close_matches(x, list(options), n=1) if isinstance(x, str) else []
    shown = options if isinstance(options, dict) else {}
    return f" (did you mean {shown.get(guess[0], guess[0])}?)" if guess else ""


def _integer(name, x, low: int | None = None) -> int:
    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        raise TaccInputError(name, x, "must be an integer")
    if low is not None and x < low:
        raise TaccInputError(name, x, f"must be >= {low}")
    return int(x)


def _real(name, x, low=None, high=None, low_open=False, high_open=False) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TaccInputError(name, x, "must be a number")
    given = x                                 # named as written: budget = -5 is refused as -5, not -5.0
    try:
        x = float(x)
    except OverflowError:                     # an integer beyond the largest float (10**400 in TOML)
        raise TaccInputError(name, given, f"is too large: beyond the largest float, {sys.float_info.max!r}") from None
    if not math.isfinite(x):
        raise TaccInputError(name, given, "must be finite")
    if low is not None and (x < low or (low_open and x == low)):
        raise TaccInputError(name, given, f"must be {'>' if low_open else '>='} {low}")
    if high is not None and (x > high or (high_open and x == high)):
        raise TaccInputError(name, given, f"must be {'<' if high_open else '<='} {high}")
    return x


def _real_list(name: str, xs: Any, length: int | None = None) -> tuple:
    if not isinstance(xs, list) or not xs:
        raise TaccInputError(name, xs, "must be a non-empty list of numbers")
    if length is not None and len(xs) != length:
        raise TaccInputError(name, xs, f"must have {length} entries, has {len(xs)}")
    return tuple(_real(f"{name}[{i}]", x) for i, x in enumerate(xs))


def _real_rows(name: str, rows: Any, n_rows: int) -> tuple:
    if not isinstance(rows, list) or len(rows) != n_rows:
        raise TaccInputError(name, rows, f"must be {n_rows} rows, one per arm")
    out = tuple(_real_list(f"{name}[{i}]", row) for i, row in enumerate(rows))
    lengths = [len(r) for r in out]
    if len(set(lengths)) != 1:
        i = next(i for i, n in enumerate(lengths) if n != lengths[0])
        raise TaccInputError(name, rows, f"rows must all have the same length (row 0 has {lengths[0]} entries, "
                                         f"row {i} has {lengths[i]})")
    return out


def _signs(name: str, x: Any, n_arms: int):
    if x == "random":
        return "random"
    if not isinstance(x, list) or len(x) != n_arms:
        raise TaccInputError(name, x, f'must be "random" or a list of {n_arms} values +1 / -1'
                             + did_you_mean(x, ("random",)))
    for i, s in enumerate(x):
        if isinstance(s, bool) or s not in (1, -1):
            raise TaccInputError(f"{name}[{i}]", s, "must be +1 or -1")
    return tuple(int(s) for s in x)


def _means(t: _Table) -> MeansSpec:
    dist = t.choice("distribution", DISTRIBUTIONS)
    n = t.integer("n_arms", low=2)
    if dist == "uniform":
        lo, hi = t.real("low"), t.real("high")
        if hi <= lo:
            raise TaccInputError(t.name("high"), hi, f"must be > low = {lo}")
        spec = MeansSpec(dist, n, low=lo, high=hi)
    else:
        spec = MeansSpec(dist, n, mean=t.real("mean"), sd=t.real("sd", low=0.0, low_open=True))
    t.done()
    return spec


def _low(t: _Table, n_arms: int) -> LowSpec:
    model = t.choice("model", LOW_MODELS)
    if model == "power_decay":
        spec = LowSpec(model, zeta=t.real("zeta", low=0.0), r=t.real("r", low=0.0, low_open=True),
                       signs=_signs(t.name("signs"), t.get("signs", "random"), n_arms))
    elif model == "residual_decay":
        spec = LowSpec(model, zeta=t.real("zeta", low=0.0), r=t.real("r", low=0.0, low_open=True),
                       signs=_signs(t.name("signs"), t.get("signs", "random"), n_arms),
                       b=t.real("b"), n0=t.real("n0", 0.0, low=0.0))
    elif model == "checkpoint":
        q = t.get("q")
        if not isinstance(q, list) or not q:
            raise TaccInputError(t.name("q"), q, "must be a non-empty list of checkpoint sizes")
        for i, x in enumerate(q):
            if isinstance(x, bool) or not isinstance(x, int) or x < 1:
                raise TaccInputError(f"{t.name('q')}[{i}]", x, "must be an integer >= 1")
        if any(b <= a for a, b in zip(q, q[1:], strict=False)):
            raise TaccInputError(t.name("q"), q, "must be strictly increasing")
        gap = t.get("gap")
        if isinstance(gap, list) and gap and isinstance(gap[0], list):
            gaps = _real_rows(t.name("gap"), gap, n_arms)
            if len(gaps[0]) != len(q):
                raise TaccInputError(t.name("gap"), gap, f"rows must have {len(q)} entries, one per checkpoint")
        else:
            gaps = _real_list(t.name("gap"), gap, len(q))
        q_max = t.integer("q_max", low=1)
        if q_max < q[0]:
            raise TaccInputError(t.name("q_max"), q_max, f"must be >= the first checkpoint size {q[0]}")
        spec = LowSpec(model, q=tuple(q), gap=gaps, q_max=q_max,
                       signs=_signs(t.name("signs"), t.get("signs", "random"), n_arms))
    elif model == "table":
        means = _real_rows(t.name("mean_low"), t.get("mean_low"), n_arms)
        cert = _real_rows(t.name("certificate"), t.get("certificate"), n_arms)
        if len(cert[0]) != len(means[0]):
            raise TaccInputError(t.name("certificate"), t.get("certificate"),
                                 f"rows must have {len(means[0])} entries, as many as mean_low's rows")
        for i, row in enumerate(cert):
            for j, x in enumerate(row):
                if x < 0:
                    raise TaccInputError(f"{t.name('certificate')}[{i}][{j}]", x, "must be >= 0")
        spec = LowSpec(model, mean_low=means, certificate=cert)
    else:
        spec = LowSpec(model, values=_real_list(t.name("values"), t.get("values"), n_arms))
    t.done()
    return spec


def parse_config(data: dict, source: str = "<dict>") -> Config:
    """Validate a configuration given as a parsed TOML mapping (see the README for the format). A refused value is
    printed as TOML spells it (:func:`toml_value`, as :func:`dump_config` writes it: ``true``, not Python's ``True``;
    a string in double quotes; a table as ``{ key = "value" }``, not ``{'key': 'value'}``)."""
    try:
        return _parse_config(data, source)
    except TaccInputError as exc:
        shown = _MISSING if exc.value is _MISSING else toml_value(exc.value)
        raise TaccInputError(exc.field, exc.value, exc.reason, shown=shown) from None


#: the value of a required key that is missing (its message says ``params.budget = <missing>: is required``, bare:
#: no value of TOML, and not a string the configuration holds).
_MISSING = "<missing>"


def _refuse_unknown_keys(data: dict) -> None:
    """Refuse the first unknown key of the document, table by table in the order of :data:`KEYS` (then by name),
    before anything else is read: a missing key in one table was named before an unknown key of another (a
    misspelled ``params.gama`` with ``instance.low.zeta`` missing named the missing one; the README says unknown
    keys come first)."""
    for path in KEYS:
        table: Any = data
        for part in path.split(".") if path else ():
            table = table.get(part) if isinstance(table, dict) else None
        if isinstance(table, dict):
            _Table(table, path)._refuse_unknown()


def _parse_config(data: dict, source: str) -> Config:
    if isinstance(data, dict):
        _refuse_unknown_keys(data)
    top = _Table(data, "")
    name = top.get("name", Path(source).stem if source else "config")
    if not isinstance(name, str) or not name:
        raise TaccInputError("name", name, "must be a non-empty string")
    inst = top.sub("instance")
    if inst.has("mu_high") == inst.has("means"):
        raise TaccInputError("instance.mu_high", inst.data.get("mu_high", _MISSING),
                             "give exactly one of instance.mu_high or instance.means")
    mu_high, means = None, None
    if inst.has("mu_high"):
        mu_high = _real_list("instance.mu_high", inst.get("mu_high"))
        if len(mu_high) < 2:
            raise TaccInputError("instance.mu_high", list(mu_high), "needs at least 2 arms")
        n_arms = len(mu_high)
    else:
        means = _means(inst.sub("means"))
        n_arms = means.n_arms
    seed = inst.integer("seed", 0, low=0)
    nt = inst.sub("noise") if inst.has("noise") else _Table({"model": "gaussian"}, "instance.noise")
    nmodel = nt.choice("model", NOISE_MODELS)
    noise = NoiseSpec(nmodel, nt.real("sigma", 1.0, low=0.0, low_open=True) if nmodel == "gaussian" else 1.0)
    nt.done()
    low = _low(inst.sub("low"), n_arms)
    inst.done()
    if noise.model == "bernoulli" or low.model == "residual_decay":
        why = "Bernoulli rewards" if noise.model == "bernoulli" else "residual_decay (its low means are clipped)"
        if mu_high is not None:
            for i, m in enumerate(mu_high):
                if not 0.0 <= m <= 1.0:
                    raise TaccInputError(f"instance.mu_high[{i}]", m, f"must lie in [0, 1] for {why}")
        elif means is not None and (means.distribution != "uniform" or means.low < 0 or means.high > 1):
            raise TaccInputError("instance.means", means.distribution, f"must be uniform within [0, 1] for {why}")
    ct = top.sub("costs")
    costs = {"cost_low": ct.get("low"), "cost_high": ct.get("high")}
    ct.done()
    pt = top.sub("params")
    values = {"budget": pt.get("budget"), "delta": pt.get("delta", 0.05), "rho": pt.get("rho", "min"),
              "gamma": pt.get("gamma"), "eta": pt.get("eta"), "s0": pt.get("s0")}
    pt.done()
    top.done()
    c, params = check_parameters(n_arms, **costs, **values, noise_scale=noise.subgaussian_scale)
    _check_accounting({"costs.low": costs["cost_low"], "costs.high": costs["cost_high"],
                       "params.budget": values["budget"]}, c, params)
    c_low, c_high = c.low, c.high
    _check_regret_range(mu_high, means, n_arms, c_low, c_high, params.budget)
    spec = InstanceSpec(mu_high, means, seed, noise, low)
    _check_gap_range(spec, noise.subgaussian_scale, c_low, params)
    return Config(name, spec, c, params, source)


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
        raise TaccInputError(nm["rho"], rho, 'must be a number > 0 or "min" (the smallest valid rho of lem:ci)'
                             + did_you_mean(rho, ("min",)))
    if rho != "min":
        rho = _real(nm["rho"], rho, low=0.0, low_open=True)
    params = Params(budget=_real(nm["budget"], budget, low=0.0, low_open=True),
                    delta=_real(nm["delta"], delta, low=0.0, high=1.0, low_open=True, high_open=True),
                    rho=rho,
                    gamma=_real(nm["gamma"], gamma, low=0.0, low_open=True),
                    eta=_real(nm["eta"], eta, low=0.0, high=1.0, low_open=True, high_open=True),
                    s0=_integer(nm["s0"], s0, low=0))
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
    c_low = _real(nm["cost_low"], cost_low, low=0.0, low_open=True)
    c_high = _real(nm["cost_high"], cost_high, low=0.0, low_open=True)
    if c_low >= c_high:
        raise TaccInputError(nm["cost_low"], cost_low, f"must be < {nm['cost_high']} = {c_high} "
                                                       "(lambda_L < lambda_H)")
    return Costs(c_low, c_high)


def _check_accounting(written: dict, c: Costs, p: Params) -> None:
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


def _check_regret_range(mu_high, means, n_arms: int, c_low: float, c_high: float, budget: float) -> None:
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
    sigma = _real(field, sigma, low=0.0, low_open=True)
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


def _check_gap_range(spec: InstanceSpec, noise_scale: float, c_low: float, p: Params,
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
    _check_gap_range(config.instance, config.instance.noise.subgaussian_scale, config.costs.low, config.params,
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


def load_config(path_or_preset: str | Path) -> Config:
    """Read a configuration from a TOML file, or a built-in preset by name (``set-a``, ...)."""
    text_source = str(path_or_preset)
    if text_source in PRESETS:
        text = resources.files("bounds").joinpath("presets", f"{text_source}.toml").read_text()
        source = f"preset:{text_source}"
    else:
        p = Path(path_or_preset)
        if not p.is_file():
            raise TaccInputError("config", text_source,
                                 f"is neither a file nor a preset ({', '.join(PRESETS)})"
                                 + did_you_mean(text_source, PRESETS))
        # UTF-8, with or without the byte-order mark some editors write first (tomllib refused it as "Invalid
        # statement (at line 1, column 1)", a README-only user)
        text, source = p.read_text(encoding="utf-8-sig"), str(p)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TaccInputError("config", source, f"is not valid TOML: {exc}") from None
    return parse_config(data, source)


# ---------------------------------------------------------------------------------------------- writer
_LOW_KEYS = {
    "power_decay": ("zeta", "r", "signs"),
    "residual_decay": ("zeta", "r", "signs", "b", "n0"),
    "checkpoint": ("q", "gap", "q_max", "signs"),
    "table": ("mean_low", "certificate"),
    "frozen": ("values",),
}


def config_to_dict(config: Config) -> dict:
    """The configuration as the mapping :func:`parse_config` reads (``parse_config(config_to_dict(c)) == c``)."""
    inst = config.instance

    def plain(x):
        return [plain(y) for y in x] if isinstance(x, (tuple, list)) else x

    d_inst: dict = {}
    if inst.mu_high is not None:
        d_inst["mu_high"] = list(inst.mu_high)
    else:
        m = inst.means
        assert m is not None  # exactly one of mu_high and means is set (parse_config)
        d_inst["means"] = ({"distribution": m.distribution, "low": m.low, "high": m.high, "n_arms": m.n_arms}
                           if m.distribution == "uniform" else
                           {"distribution": m.distribution, "mean": m.mean, "sd": m.sd, "n_arms": m.n_arms})
    d_inst["seed"] = inst.seed
    d_inst["noise"] = ({"model": "gaussian", "sigma": inst.noise.sigma} if inst.noise.model == "gaussian"
                       else {"model": "bernoulli"})
    low = inst.low
    d_inst["low"] = {"model": low.model, **{k: plain(getattr(low, k)) for k in _LOW_KEYS[low.model]}}
    p = config.params
    return {"name": config.name, "instance": d_inst,
            "costs": {"low": config.costs.low, "high": config.costs.high},
            "params": {"budget": p.budget, "delta": p.delta, "rho": p.rho, "gamma": p.gamma, "eta": p.eta,
                       "s0": p.s0}}


def dump_config(config: Config) -> str:
    """The configuration as TOML text in the public format (docs/design.md section 9); :func:`load_config` reads it back
    to an equal :class:`Config`. Reproducers of violated claims are written with it."""
    d = config_to_dict(config)
    inst = dict(d["instance"])
    low = inst.pop("low")
    lines = [f"name = {toml_value(d['name'])}", "", "[instance]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in inst.items()]
    lines += ["", "[instance.low]"] + [f"{k} = {toml_value(v)}" for k, v in low.items()]
    for table_name in ("costs", "params"):
        lines += ["", f"[{table_name}]"] + [f"{k} = {toml_value(v)}" for k, v in d[table_name].items()]
    return "\n".join(lines) + "\n"
