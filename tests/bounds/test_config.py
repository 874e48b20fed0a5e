"""The configuration format (docs/design.md section 9): presets load, every invalid value names its field."""

import copy
import datetime
import math
import sys

import pytest

import tomllib

from hypothesis import given, settings

from bounds import PRESETS, TaccInputError, analyze, config_to_dict, dump_config, load_config, parse_config
from certify.strategies import configs

GOOD = {
    "name": "example",
    "instance": {"mu_high": [0.9, 0.8, 0.7], "seed": 0, "noise": {"model": "gaussian", "sigma": 1.0},
                 "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5, "signs": "random"}},
    "costs": {"low": 1.0, "high": 10.0},
    "params": {"budget": 100000, "delta": 0.05, "rho": "min", "gamma": 0.063, "eta": 1e-4, "s0": 10},
}


def with_(path, value, base=None):
    """A copy of ``base`` (default GOOD) with the value at ``path`` set, or deleted with DELETE."""
    data = copy.deepcopy(GOOD if base is None else base)
    node = data
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[k]
    if value is DELETE:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return data


DELETE = object()


def test_good_config():
    c = parse_config(GOOD)
    assert c.instance.n_arms == 3 and c.params.rho == "min" and c.params.s0 == 10


@pytest.mark.parametrize("name", PRESETS)
def test_presets_load(name):
    c = load_config(name)
    assert c.name == name


def test_preset_values_from_the_paper():
    a, b = load_config("set-a"), load_config("set-b")
    assert (a.instance.n_arms, a.params.gamma, a.params.s0, a.costs.high) == (200, 0.063, 10, 10.0)
    assert (b.instance.n_arms, b.params.gamma, b.params.s0, b.costs.high) == (500, 0.141, 50, 50.0)
    r, v = load_config("llm-residual"), load_config("llm-vanishing")
    assert r.instance.low.b == 0.05 and v.instance.low.b == 0.0 and r.params.s0 == 128
    assert load_config("checkpoint").instance.low.q_max == 2048


def test_file_round_trip(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('name = "x"\n[instance]\nmu_high = [0.5, 0.4]\n[instance.low]\nmodel = "frozen"\n'
                 'values = [0.1, 0.9]\n[costs]\nlow = 1\nhigh = 2\n[params]\nbudget = 10\ngamma = 0.1\n'
                 'eta = 0.001\ns0 = 1\n')
    c = load_config(p)
    assert c.instance.low.values == (0.1, 0.9) and c.params.delta == 0.05


INVALID = [
    ("costs.low", -1.0, "costs.low"),
    ("costs.low", 10.0, "costs.low"),                    # lambda_L >= lambda_H
    ("costs.high", "x", "costs.high"),
    ("params.delta", 1.0, "params.delta"),
    ("params.delta", 0.0, "params.delta"),
    ("params.gamma", 0.0, "params.gamma"),
    ("params.gamma", -0.5, "params.gamma"),
    ("params.eta", 1.5, "params.eta"),
    ("params.s0", -1, "params.s0"),
    ("params.s0", 2.5, "params.s0"),
    ("params.rho", -1.0, "params.rho"),
    ("params.rho", "max", "params.rho"),
    ("params.budget", DELETE, "params.budget"),
    ("params.extra", 1, "params.extra"),                 # unknown key
    ("instance.low.model", "linear", "instance.low.model"),
    ("instance.low.zeta", float("nan"), "instance.low.zeta"),
    ("instance.low.signs", [1, -1], "instance.low.signs"),  # wrong length
    ("instance.low.signs", [1, -1, 0], "instance.low.signs[2]"),
    ("instance.low.colour", "red", "instance.low.colour"),
    ("instance.mu_high", [0.9, float("inf"), 0.1], "instance.mu_high[1]"),
    ("instance.mu_high", [0.9], "instance.mu_high"),
    ("instance.noise", {"model": "poisson"}, "instance.noise.model"),
    ("instance.noise", {"model": "gaussian", "sigma": 0.0}, "instance.noise.sigma"),
    ("instance.seed", -3, "instance.seed"),
    ("unknown", 1, "unknown"),
    ("name", "", "name"),
]


@pytest.mark.parametrize("path,value,field", INVALID)
def test_invalid_values_name_the_field(path, value, field):
    with pytest.raises(TaccInputError) as info:
        parse_config(with_(path, value))
    assert info.value.field == field
    assert field in str(info.value)


def test_bernoulli_needs_unit_means():
    data = with_("instance.noise", {"model": "bernoulli"})
    data["instance"]["mu_high"] = [0.9, 1.2, 0.1]
    with pytest.raises(TaccInputError) as info:
        parse_config(data)
    assert info.value.field == "instance.mu_high[1]"


@pytest.mark.parametrize("sigma, says", [(1e-170, "underflows"), (1.05e-154, "underflows"), (1e200, "too large")])
def test_a_sigma_whose_rho_min_leaves_the_floats_is_refused(sigma, says):
    with pytest.raises(TaccInputError) as info:
        parse_config(with_("instance.noise", {"model": "gaussian", "sigma": sigma}))
    assert info.value.field == "instance.noise.sigma" and says in info.value.reason


@pytest.mark.parametrize("delta", [1e-300, 1e-308, 1e-320, 5e-324])
def test_a_tiny_delta_is_accepted_with_a_finite_ell(delta):
    """delta = 1e-308 was refused naming ``instance.noise.sigma = 1.0`` (ell "overflows a float"), though ell is
    about 1440: only the intermediate 2 K T / delta overflowed."""
    a = analyze(parse_config(with_("params.delta", delta)))
    assert math.isfinite(a.ell) and 1300 < a.ell < 1600 and a.n_gamma < 2**53


def test_the_smallest_sigma_accepted_gives_a_normal_rho_min():
    """The threshold is the formula's: 2 sigma^2 (the first product of bounds.min_rho) must be a normal float; at
    the float next above sqrt(m / 2) (m the smallest normal) it is, and rho_min with it; with rho given as a
    number the noise scale is not read by the radius, so no sigma is refused."""
    m = sys.float_info.min
    s = math.sqrt(m / 2)
    s = s if 2.0 * s * s >= m else math.nextafter(s, 1.0)
    c = parse_config(with_("instance.noise", {"model": "gaussian", "sigma": s}))
    a = analyze(c)
    assert m <= a.rho < 3 * m and a.ell > 0
    with pytest.raises(TaccInputError, match="underflows"):
        parse_config(with_("instance.noise", {"model": "gaussian", "sigma": math.nextafter(s, 0.0)}))
    data = with_("instance.noise", {"model": "gaussian", "sigma": 1e-170})
    data["params"]["rho"] = 1.0
    assert parse_config(data).params.rho == 1.0


def test_means_and_mu_high_exclusive():
    data = copy.deepcopy(GOOD)
    data["instance"]["means"] = {"distribution": "uniform", "low": 0, "high": 1, "n_arms": 3}
    with pytest.raises(TaccInputError):
        parse_config(data)


@pytest.mark.parametrize("low,field", [
    ({"model": "checkpoint", "q": [32, 16], "gap": [0.1, 0.1], "q_max": 64}, "instance.low.q"),
    ({"model": "checkpoint", "q": [32, 64], "gap": [0.1], "q_max": 64}, "instance.low.gap"),
    ({"model": "table", "mean_low": [[0.1], [0.2]], "certificate": [[0.1], [0.1]]}, "instance.low.mean_low"),
    ({"model": "table", "mean_low": [[0.1], [0.2], [0.3]], "certificate": [[0.1], [0.1], [-1.0]]},
     "instance.low.certificate[2][0]"),
    ({"model": "frozen", "values": [0.1, 0.2]}, "instance.low.values"),
])
def test_invalid_low_models(low, field):
    with pytest.raises(TaccInputError) as info:
        parse_config(with_("instance.low", low))
    assert info.value.field == field


def test_not_a_file_nor_preset(tmp_path):
    with pytest.raises(TaccInputError) as info:
        load_config(tmp_path / "missing.toml")
    assert info.value.field == "config"
    bad = tmp_path / "bad.toml"
    bad.write_text("name = [")
    with pytest.raises(TaccInputError):
        load_config(bad)


def test_a_byte_order_mark_is_read_as_utf8(tmp_path):
    """A file an editor saved with a UTF-8 byte-order mark reads as the same configuration (tomllib refused it as
    "Invalid statement (at line 1, column 1)"); a mark anywhere else is still refused."""
    text = dump_config(load_config("set-a"))
    marked = tmp_path / "marked.toml"
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_config(marked) == load_config("set-a")
    inside = tmp_path / "inside.toml"
    inside.write_bytes(text.encode() + b"\xef\xbb\xbf")
    with pytest.raises(TaccInputError, match="is not valid TOML"):
        load_config(inside)


@pytest.mark.parametrize("name", PRESETS)
def test_dump_config_round_trips_every_preset(name, tmp_path):
    c = load_config(name)
    path = tmp_path / "c.toml"
    path.write_text(dump_config(c))
    assert load_config(path) == c
    assert parse_config(config_to_dict(c)) == c


@settings(max_examples=40)
@given(configs())
def test_dump_config_round_trips_generated_configs(c):
    assert parse_config(tomllib.loads(dump_config(c))) == c


def test_a_word_other_than_min_for_rho_says_min_is_allowed():
    with pytest.raises(TaccInputError, match='"min"') as info:
        parse_config(with_("params.rho", "max"))
    assert info.value.field == "params.rho" and info.value.value == "max"


def _means_config(**means):
    d = with_("instance.mu_high", DELETE)
    d["instance"]["means"] = {"distribution": "uniform", "n_arms": 3, "low": 0.0, "high": 1.0} | means
    return d


@pytest.mark.parametrize("data, field, value, reason", [
    (lambda: _means_config(distribution="unifrom"), "instance.means.distribution", "unifrom",
     "must be one of uniform, normal (did you mean uniform?)"),
    (lambda: with_("instance.low.model", "power_decy"), "instance.low.model", "power_decy",
     "must be one of power_decay, residual_decay, checkpoint, table, frozen (did you mean power_decay?)"),
    (lambda: with_("instance.noise.model", "gausian"), "instance.noise.model", "gausian",
     "must be one of gaussian, bernoulli (did you mean gaussian?)"),
    (lambda: with_("instance.low.signs", "randon"), "instance.low.signs", "randon",
     'must be "random" or a list of 3 values +1 / -1 (did you mean random?)'),
    (lambda: with_("params.rho", "mni"), "params.rho", "mni",
     'must be a number > 0 or "min" (the least rho the union bound of lem:ci certifies) (did you mean min?)'),
    # nothing near: no suggestion
    (lambda: _means_config(distribution="cauchy"), "instance.means.distribution", "cauchy",
     "must be one of uniform, normal"),
    (lambda: with_("params.rho", "max"), "params.rho", "max",
     'must be a number > 0 or "min" (the least rho the union bound of lem:ci certifies)'),
])
def test_a_misspelled_value_of_a_closed_set_gets_the_nearest_value(data, field, value, reason):
    with pytest.raises(TaccInputError) as exc:
        parse_config(data())
    assert (exc.value.field, exc.value.value, exc.value.reason) == (field, value, reason)


@pytest.mark.parametrize("edit, field, reason", [
    (lambda d: d["params"].__setitem__("gama", d["params"].pop("gamma")), "params.gama",
     "unknown key (did you mean gamma?)"),
    (lambda d: d.__setitem__("cost", d.pop("costs")), "cost", "unknown key (did you mean costs?)"),
    (lambda d: d["params"].__setitem__("gamm", 0.1), "params.gamm", "unknown key (did you mean gamma?)"),
])
def test_a_misspelled_key_is_named_before_the_missing_one(edit, field, reason):
    d = config_to_dict(load_config("set-a"))
    edit(d)
    with pytest.raises(TaccInputError) as exc:
        parse_config(d)
    assert (exc.value.field, exc.value.reason) == (field, reason)


def test_gamma_and_s0_out_of_range_name_their_field():
    d = config_to_dict(load_config("set-a"))
    d["params"]["gamma"] = 1e-300
    with pytest.raises(TaccInputError, match="2\\*\\*53") as exc:
        parse_config(d)
    assert exc.value.field == "params.gamma"
    d = config_to_dict(load_config("set-a"))
    d["params"]["s0"] = 2**53 + 1
    with pytest.raises(TaccInputError) as exc:
        parse_config(d)
    assert exc.value.field == "params.s0"
    d["params"]["s0"] = 2**53
    assert parse_config(d).params.s0 == 2**53


@pytest.mark.parametrize("edits, field, value", [
    ({"params.rho": 1e300, "params.gamma": 0.1}, "params.rho", 1e300),       # it named params.gamma = 0.1
    ({"params.rho": 1e308, "params.gamma": 0.1}, "params.rho", 1e308),       # ell overflows
    ({"params.rho": 1e300, "params.gamma": 1e-300}, "params.rho", 1e300),    # too large at any gamma <= 1
    ({"params.rho": 1e300, "params.gamma": 10.0}, "params.rho", 1e300),
    ({"params.rho": "min", "instance.noise.sigma": 1e20}, "instance.noise.sigma", 1e20),
    ({"params.rho": 1.0, "params.gamma": 1e-300}, "params.gamma", 1e-300),   # gamma alone is the cause
])
def test_n_gamma_past_2_53_names_the_field_that_causes_it(edits, field, value):
    """N_gamma (about ell / gamma^2) past 2**53 was always blamed on gamma: with rho = 1e300 (ell = 1.5e301) the
    line said ``params.gamma = 0.1: is too small``. When ell alone is too large (N_gamma past 2**53 at gamma = 1)
    its cause is named: rho, or sigma with rho = "min"."""
    d = copy.deepcopy(GOOD)
    for path, v in edits.items():
        _set(d, path, v)
    with pytest.raises(TaccInputError, match="2\\*\\*53") as exc:
        parse_config(d)
    assert (exc.value.field, exc.value.value) == (field, value), str(exc.value)


def _set(data: dict, path: str, value):
    node = data
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[k]
    node[keys[-1]] = value
    return data


def _tables(d: dict, path: str = ""):
    """(table path, its keys) for ``d`` and every table inside it."""
    yield path, set(d)
    for k, v in d.items():
        if isinstance(v, dict):
            yield from _tables(v, f"{path}.{k}" if path else k)


@pytest.mark.parametrize("name", PRESETS)
def test_the_known_keys_hold_every_key_a_preset_writes(name):
    # KEYS is what the misspelling check calls known: a key the parser reads but KEYS lacks would be refused as
    # "unknown" whenever a required key of its table is missing
    from bounds._config import KEYS
    for path, keys in _tables(config_to_dict(load_config(name))):
        assert keys <= set(KEYS[path]), (path, keys - set(KEYS[path]))


@given(configs())
def test_the_known_keys_hold_every_key_a_generated_config_writes(c):
    from bounds._config import KEYS
    for path, keys in _tables(config_to_dict(c)):
        assert keys <= set(KEYS[path]), (path, keys - set(KEYS[path]))


@pytest.mark.parametrize("low,message", [
    # a ragged table is printed as written (it printed the row lengths, [2, 2, 1], where the value belongs)
    ({"model": "table", "mean_low": [[1.0, 0.75], [0.25, 0.5], [0.25]], "certificate": [[0.0], [0.0], [0.0]]},
     "instance.low.mean_low = [[1.0, 0.75], [0.25, 0.5], [0.25]]: rows must all have the same length (row 0 has 2 "
     "entries, row 2 has 1)"),
    # certificate rows of another length than mean_low's: the certificate as written (it printed 1)
    ({"model": "table", "mean_low": [[1.0, 0.75], [0.25, 0.5], [0.25, 0.5]], "certificate": [[0.25], [0.25], [0.0]]},
     "instance.low.certificate = [[0.25], [0.25], [0.0]]: rows must have 2 entries, as many as mean_low's rows"),
])
def test_a_table_of_the_wrong_shape_is_printed_as_written(low, message):
    with pytest.raises(TaccInputError) as info:
        parse_config(with_("instance.low", low))
    assert str(info.value) == message


@pytest.mark.parametrize("path,value,message,refused", [
    ("instance.mu_high", [True, 0.5, 0.25], "instance.mu_high[0] = true: must be a number", True),
    ("params.s0", False, "params.s0 = false: must be an integer", False),
    ("params.gama", {"x": True}, "params.gama = { x = true }: unknown key (did you mean gamma?)", {"x": True}),
    ("instance.low.signs", [1, True, -1], "instance.low.signs[1] = true: must be +1 or -1", True),
])
def test_a_refused_value_is_printed_as_toml_spells_it(path, value, message, refused):
    """TOML's true, false and inline tables, not Python's True and {'x': True}; the value itself is kept."""
    with pytest.raises(TaccInputError) as info:
        parse_config(with_(path, value))
    assert str(info.value) == message
    assert info.value.value is refused or info.value.value == refused


@pytest.mark.parametrize("path,value,message", [
    # a string in a table was Python's 'uniform' (and "it's", 'a\\b' with its backslash doubled): TOML's "..."
    ("instance.gauss", {"distribution": "uniform", "n_arms": 2},
     'instance.gauss = { distribution = "uniform", n_arms = 2 }: unknown key'),
    ("params.gama", {"x": "it's", "y": "a\\b"}, 'params.gama = { x = "it\'s", y = "a\\\\b" }: unknown key '
                                              '(did you mean gamma?)'),
    ("instance.noise.model", "gausian",
     'instance.noise.model = "gausian": must be one of gaussian, bernoulli (did you mean gaussian?)'),
    ("params.rho", "mn", 'params.rho = "mn": must be a number > 0 or "min" (the least rho the union bound of '
                         'lem:ci certifies) (did you mean min?)'),
    # a key TOML reads only quoted, and dates (tomllib's datetime.date): datetime.date(2020, 1, 1) before
    ("params.gama", {"a b": 1}, 'params.gama = { "a b" = 1 }: unknown key (did you mean gamma?)'),
    ("instance.seed", datetime.date(2020, 1, 1), "instance.seed = 2020-01-01: must be an integer"),
    ("params.gama", {"at": datetime.datetime(1979, 5, 27, 7, 32, tzinfo=datetime.timezone.utc)},
     "params.gama = { at = 1979-05-27T07:32:00+00:00 }: unknown key (did you mean gamma?)"),
    # neither mu_high nor means: Python's None before, then Python's quotes ('<missing>')
    ("instance.mu_high", DELETE, "instance.mu_high = <missing>: give exactly one of instance.mu_high or "
                                 "instance.means"),
    ("params.budget", DELETE, "params.budget = <missing>: is required"),
    ("instance.low.zeta", DELETE, "instance.low.zeta = <missing>: is required"),
])
def test_a_refused_table_or_string_is_printed_as_toml_spells_it(path, value, message):
    """Strings in double quotes, keys quoted when TOML needs it, dates as TOML's, as dump_config writes them (one
    spelling, ``bounds.toml_value``); the message is one line, and the value shown reads back as the value."""
    with pytest.raises(TaccInputError) as info:
        parse_config(with_(path, value))
    assert str(info.value) == message and "\n" not in message
    if value is not DELETE:
        shown = message.split(" = ", 1)[1].split(": ", 1)[0]      # no value here holds ": "
        assert tomllib.loads(f"v = {shown}")["v"] == value


@pytest.mark.parametrize("mu_high, message", [
    ([0.5, 1e308], "instance.mu_high[1] = 1e+308: is too large"),
    ([1e308, 0.5, 0.4], "instance.mu_high[0] = 1e+308: is too large"),
    ([0.5, 0.1, -1e308], "instance.mu_high[2] = -1e+308: is too large"),
])
def test_a_mean_too_far_from_the_others_is_named_by_its_index(mu_high, message):
    """``instance.mu_high = [0.5, 1e308]`` was refused as ``instance.mu_high = 1e+308``: a list shown as one number.
    The element is named, as every other refusal of one entry of a list is (``instance.mu_high[i]``)."""
    with pytest.raises(TaccInputError) as info:
        parse_config(with_("instance.mu_high", mu_high))
    assert str(info.value).startswith(message), str(info.value)
    assert info.value.field == message.split(" = ")[0]


@pytest.mark.parametrize("mu_high, i", [([1e-155, 0.0], 1), ([1e-300, 0.5e-300, 0.0], 1), ([0.0, 5e-324], 0),
                                        ([1e-310, 0.0, 1e-310], 1), ([-1e-200, -2e-200], 1)])
def test_a_gap_whose_count_bound_is_past_the_floats_is_refused(mu_high, i):
    """ceil(4 ell / Delta^2) (prop:analysis-high-selection) past the largest float: the configuration is refused
    when read, naming the arm of the smallest gap, before any command computes with it."""
    with pytest.raises(TaccInputError) as info:
        parse_config(with_("instance.mu_high", mu_high))
    assert info.value.field == f"instance.mu_high[{i}]", str(info.value)
    assert "ceil(4 ell / gap^2)" in str(info.value) and "exceed the largest float" in str(info.value)


@pytest.mark.parametrize("mu_high", [[8.6e-154, 0.0], [0.5, 0.5, 0.5 - 1e-150], [0.0, 0.0]])
def test_a_gap_just_above_the_float_limit_or_a_tie_is_analyzed(mu_high):
    """Just above the limit (about 8.6e-154 here) the count bound is a finite float, and ties have gap 0 (count
    inf): accepted, and the bounds are computed; the count bounds convert to floats."""
    a = analyze(parse_config(with_("instance.mu_high", mu_high)))
    assert all(math.isinf(float(n)) or float(n) <= sys.float_info.max for n in a.high_count_bound)
    assert math.isfinite(a.theorem.total)


def _renamed(path: str, new: str) -> dict:
    """GOOD with the key at ``path`` renamed ``new`` (a dotted path: moved to another table)."""
    data = copy.deepcopy(GOOD)
    node = data
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[k]
    value = node.pop(keys[-1])
    node = data
    for k in new.split(".")[:-1]:
        node = node[k]
    node[new.split(".")[-1]] = value
    return data


@pytest.mark.parametrize("path, new, message", [
    # an optional table misspelled: no suggestion, while a misspelled field had one
    ("instance.noise", "instance.noises", 'instance.noises = { model = "gaussian", sigma = 1.0 }: unknown key '
                                          '(did you mean noise?)'),
    ("instance.noise", "instance.nois", 'instance.nois = { model = "gaussian", sigma = 1.0 }: unknown key '
                                        '(did you mean noise?)'),
    # a table written at the top ([noises], [noise]) rather than in [instance]: its place is named
    ("instance.noise", "noises", 'noises = { model = "gaussian", sigma = 1.0 }: unknown key '
                                 '(did you mean instance.noise?)'),
    ("instance.noise", "noise", 'noise = { model = "gaussian", sigma = 1.0 }: unknown key '
                                '(did you mean instance.noise?)'),
    # mu_high misspelled is named as unknown, not refused as missing ("give exactly one of instance.mu_high or ...")
    ("instance.mu_high", "instance.mu_hihg", "instance.mu_hihg = [0.9, 0.8, 0.7]: unknown key (did you mean mu_high?)"),
    # a misspelled field still gets its suggestion; a misspelled required table too
    ("params.gamma", "params.gama", "params.gama = 0.063: unknown key (did you mean gamma?)"),
    ("costs", "cost", "cost = { low = 1.0, high = 10.0 }: unknown key (did you mean costs?)"),
])
def test_a_misspelled_table_gets_a_did_you_mean_as_a_field_does(path, new, message):
    with pytest.raises(TaccInputError) as info:
        parse_config(_renamed(path, new))
    assert str(info.value) == message


@pytest.mark.parametrize("path, value, message", [
    # an integer is named as written, not as the float it is read as: params.budget = -5, not -5.0
    ("params.budget", -5, "params.budget = -5: must be > 0.0"),
    ("params.delta", 2, "params.delta = 2: must be < 1.0"),
    ("params.budget", -5.5, "params.budget = -5.5: must be > 0.0"),
    # an integer beyond the largest float is refused, naming it, not an OverflowError
    ("params.budget", 10**400, f"params.budget = {10**400}: is too large: beyond the largest float, "
                               f"{sys.float_info.max!r}"),
    ("instance.mu_high", [0.5, -10**400], f"instance.mu_high[1] = {-10**400}: is too large: beyond the largest "
                                          f"float, {sys.float_info.max!r}"),
])
def test_a_number_out_of_range_is_named_as_written(path, value, message):
    with pytest.raises(TaccInputError) as info:
        parse_config(with_(path, value))
    assert str(info.value) == message


@pytest.mark.parametrize("edits, message", [
    # an unknown key in one table is named before a missing key of another
    ({"params.gama": 0.1, "params.gamma": DELETE, "instance.low.zeta": DELETE},
     "params.gama = 0.1: unknown key (did you mean gamma?)"),
    ({"params.low": "power_decay", "instance.low": DELETE}, 'params.low = "power_decay": unknown key'),
    # a key of one other table written at the top: named with where it belongs
    ({"mu_high": [0.9, 0.5], "instance.mu_high": DELETE},
     "mu_high = [0.9, 0.5]: unknown key (did you mean instance.mu_high?)"),
    # of two unknown keys, the one near a key that is absent (a likely misspelling of it) first, not "aaa"
    ({"instance.aaa": 1, "instance.mu_hgh": [0.9, 0.5], "instance.mu_high": DELETE},
     "instance.mu_hgh = [0.9, 0.5]: unknown key (did you mean mu_high?)"),
])
def test_an_unknown_key_anywhere_is_named_before_a_missing_key(edits, message):
    data = GOOD
    for path, value in edits.items():
        data = with_(path, value, data)
    with pytest.raises(TaccInputError) as info:
        parse_config(data)
    assert str(info.value).startswith(message), str(info.value)
