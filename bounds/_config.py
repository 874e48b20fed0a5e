"""The configuration format (docs/design.md section 9): a TOML file, or a built-in preset name, read into frozen,
validated objects (:mod:`bounds._spec`), and written back. Every invalid value is refused with
:class:`TaccInputError` naming the dotted field."""

from __future__ import annotations

import difflib
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from bounds._errors import TaccInputError
from bounds._fields import did_you_mean, read_integer, read_real, read_real_rows, read_reals
from bounds._ranges import check_accounting, check_gap_range, check_parameters, check_regret_range
from bounds._spec import (DISTRIBUTIONS, LOW_MODELS, NOISE_MODELS, PRESETS, Config, InstanceSpec, LowSpec, MeansSpec,
                          NoiseSpec)
from bounds._toml import toml_value

__all__ = ["load_config", "parse_config", "config_to_dict", "dump_config", "KEYS"]

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
        return read_real(self.name(key), x, low, high, low_open, high_open)

    def integer(self, key: str, default: Any = ..., *, low: int | None = None) -> int:
        return read_integer(self.name(key), self.get(key, default), low)

    def choice(self, key: str, options: tuple, default: Any = ...) -> str:
        x = self.get(key, default)
        if x not in options:
            raise TaccInputError(self.name(key), x,
                                 f"must be one of {', '.join(options)}" + did_you_mean(x, options))
        return x


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
            gaps = read_real_rows(t.name("gap"), gap, n_arms)
            if len(gaps[0]) != len(q):
                raise TaccInputError(t.name("gap"), gap, f"rows must have {len(q)} entries, one per checkpoint")
        else:
            gaps = read_reals(t.name("gap"), gap, len(q))
        q_max = t.integer("q_max", low=1)
        if q_max < q[0]:
            raise TaccInputError(t.name("q_max"), q_max, f"must be >= the first checkpoint size {q[0]}")
        spec = LowSpec(model, q=tuple(q), gap=gaps, q_max=q_max,
                       signs=_signs(t.name("signs"), t.get("signs", "random"), n_arms))
    elif model == "table":
        means = read_real_rows(t.name("mean_low"), t.get("mean_low"), n_arms)
        cert = read_real_rows(t.name("certificate"), t.get("certificate"), n_arms)
        if len(cert[0]) != len(means[0]):
            raise TaccInputError(t.name("certificate"), t.get("certificate"),
                                 f"rows must have {len(means[0])} entries, as many as mean_low's rows")
        for i, row in enumerate(cert):
            for j, x in enumerate(row):
                if x < 0:
                    raise TaccInputError(f"{t.name('certificate')}[{i}][{j}]", x, "must be >= 0")
        spec = LowSpec(model, mean_low=means, certificate=cert)
    else:
        spec = LowSpec(model, values=read_reals(t.name("values"), t.get("values"), n_arms))
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
        mu_high = read_reals("instance.mu_high", inst.get("mu_high"))
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
    check_accounting({"costs.low": costs["cost_low"], "costs.high": costs["cost_high"],
                       "params.budget": values["budget"]}, c, params)
    c_low, c_high = c.low, c.high
    check_regret_range(mu_high, means, n_arms, c_low, c_high, params.budget)
    spec = InstanceSpec(mu_high, means, seed, noise, low)
    check_gap_range(spec, noise.subgaussian_scale, c_low, params)
    return Config(name, spec, c, params, source)


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
        # UTF-8, with or without the byte-order mark some editors write first (tomllib alone refuses it as "Invalid
        # statement (at line 1, column 1)")
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
