"""End to end: ``tacc simulate --json``, ``tacc check --json`` and ``tacc report`` succeed on generated
configurations (ties, all-equal means, one suboptimal arm, Bernoulli and Gaussian noise, every low-fidelity
model) and on the presets, and every JSON they write parses with a strict parser (no NaN, no infinity)."""

import contextlib
import io
import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import PRESETS, config_to_dict, dump_config, parse_config
from certify.strategies import configs
from reports.cli import main


def _no_constant(name):
    raise ValueError(f"non-standard JSON constant {name}")


def strict_load(path) -> object:
    """json.loads refusing NaN, Infinity and -Infinity."""
    return json.loads(Path(path).read_text(), parse_constant=_no_constant)


def _with_means(config, kind: str):
    d = config_to_dict(config)
    mu = list(d["instance"]["mu_high"])
    if kind == "all-equal":
        mu = [mu[0]] * len(mu)
    elif kind == "one-suboptimal":
        top = max(mu)       # the drawn means are valid for the noise and model, so both values below are too
        best, low = (top, round(top - 0.25, 3)) if top >= 0.25 else (round(top + 0.25, 3), top)
        mu = [best] * (len(mu) - 1) + [low]
    d["instance"]["mu_high"] = mu
    return parse_config(d)


@st.composite
def edge_configs(draw):
    """A generated configuration, possibly rewritten to all-equal means or exactly one suboptimal arm."""
    cfg = draw(configs(n_arms=st.integers(2, 4), budget=st.integers(40, 300)))
    kind = draw(st.sampled_from(["as drawn", "all-equal", "one-suboptimal"]))
    return cfg if kind == "as drawn" else _with_means(cfg, kind)


def _run(argv) -> int:
    with contextlib.redirect_stdout(io.StringIO()):
        return main(argv)


@pytest.mark.slow
@settings(max_examples=5)
@given(config=edge_configs(), policy=st.sampled_from(["tacc", "rdfe", "lucb", "weak-fixed"]))
def test_commands_succeed_and_write_strict_json_on_generated_configs(config, policy):
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        path = d / "c.toml"
        path.write_text(dump_config(config))
        assert _run(["simulate", str(path), "--policy", policy, "--seeds", "0:2", "--json", str(d / "s.json")]) == 0
        assert strict_load(d / "s.json")["runs"]
        rc = _run(["check", str(path), "--seeds", "1", "--evidence", "0", "--no-progress", "--json", str(d / "c.json"),
                   "--reproducers", str(d / "repro")])
        assert rc in (0, 1)
        assert strict_load(d / "c.json")["claims"]
        rc = _run(["report", str(path), "--seeds", "1", "--out", str(d / "r"), "--executor", "serial",
                   "--no-progress"])
        assert rc in (0, 1)
        res = strict_load(d / "r" / "results.json")
        assert res["conclusions"]
        md = (d / "r" / "report.md").read_text()
        assert not re.search(r"\bnan\b", md, flags=re.I)


def test_all_equal_means_report_is_written(tmp_path):
    # was: ZeroDivisionError after the figures (the theorem's bound is 0 when no arm has a positive gap)
    d = {"name": "equal", "instance": {"mu_high": [0.5, 0.5, 0.5], "low": {"model": "power_decay", "zeta": 0.2,
                                                                          "r": 0.5}},
         "costs": {"low": 1.0, "high": 10.0}, "params": {"budget": 400, "rho": 0.5, "gamma": 0.3, "eta": 0.01, "s0": 2}}
    path = tmp_path / "equal.toml"
    path.write_text(dump_config(parse_config(d)))
    assert _run(["report", str(path), "--seeds", "2", "--out", str(tmp_path / "r"), "--executor", "serial",
                 "--no-progress"]) == 0
    res = strict_load(tmp_path / "r" / "results.json")
    assert any("the theorem's bound is 0" in c for c in res["conclusions"])
    # regret 0 against a bound of 0 is 0 / 0: undefined, never "reached to the same 0.0%"
    assert not any("0.0%" in c for c in res["conclusions"])
    assert any(c.startswith("How tight") and "theorem" in c and "(0 / 0)" in c for c in res["conclusions"])
    theorem = next(c for c in res["certificate"]["claims"] if c["key"] == "theorem")
    assert theorem["max_ratio"] is None and "0 / 0" in theorem["max_ratio_reason"]


def test_a_bound_no_run_reaches_is_said_so(tmp_path):
    """rho = 1e-300: the one quantitative bound judged, rdfe-cost, has value 0 on every run; the conclusion says
    no run reaches it, never "Every quantitative bound judged (rdfe-cost) is reached to the same 0.0% by the
    runs"."""
    d = {"name": "tiny-rho", "instance": {"mu_high": [0.9, 0.9, 0.7, 0.7, 0.5], "seed": 0,
                                          "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5,
                                                  "signs": [1, -1, 1, -1, 1]}},
         "costs": {"low": 1.0, "high": 10.0},
         "params": {"budget": 20000, "rho": 1e-300, "gamma": 0.063, "eta": 1e-4, "s0": 10}}
    path = tmp_path / "tiny-rho.toml"
    path.write_text(dump_config(parse_config(d)))
    assert _run(["report", str(path), "--seeds", "2", "--out", str(tmp_path / "r"), "--executor", "serial",
                 "--no-progress"]) in (0, 1)
    conclusions = strict_load(tmp_path / "r" / "results.json")["conclusions"]
    assert not any("the same 0.0%" in c for c in conclusions), conclusions
    assert "The runs reach none of the quantitative bound judged (rdfe-cost): their value is 0 on every run (0% of " \
           "the bound)." in conclusions, conclusions


@pytest.mark.parametrize("name", PRESETS)
def test_simulate_json_is_strict_on_every_preset(name, tmp_path):
    assert _run(["simulate", name, "--policy", "tacc", "--seeds", "0:1", "--json", str(tmp_path / "s.json")]) == 0
    res = strict_load(tmp_path / "s.json")
    tau = res["problem"]["tau"]
    if None in tau:                                   # an infinite tau_k is null, and the JSON says what it means
        assert "never certified" in res["problem"]["tau_reason"]
