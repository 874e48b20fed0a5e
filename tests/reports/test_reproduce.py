"""``tacc reproduce --quick``: every experiment runs and writes its claims table."""

import json

import pytest

from bounds import TaccInputError, load_config
from reports._paper import EXPERIMENTS
from reports._reproduce import reproduce, variant_config


@pytest.mark.parametrize("exp", EXPERIMENTS, ids=lambda e: e.key)
def test_quick_reproduction_writes_its_claims_table(exp, tmp_path):
    r, = reproduce([exp.key], quick=True, out_dir=tmp_path, executor="serial")
    md = (tmp_path / f"{exp.key}.md").read_text()
    assert "## The paper's claims" in md and "## Parameters the paper does not state" in md
    assert len(r.claims) == len(exp.claims) and all(isinstance(ok, bool) for _, ok, _ in r.claims)
    data = json.loads((tmp_path / f"{exp.key}.json").read_text())
    assert data["quick"] and len(data["rho_sensitivity"]) == 2 * len(exp.methods)    # --quick: one variant
    assert {x["rho_scale"] for x in data["rho_sensitivity"]} == {1.0, min(s for s in exp.rho_scales if s > 1)}
    assert "## Consistency of the paper's numbers" in md and "## Why (computed" in md
    for c in data["claims"]:        # every claim is marked on the sweep; one not reproduced is explained
        assert c["explanation"] and "sweep" in c["explanation"][-1]
        assert c["reproduced"] or any("mean regret" in e for e in c["explanation"])
    assert all(c["consistent"] in (True, False, None) for c in data["consistency"])
    assert (tmp_path / "figures" / f"{exp.key}_rho.png").stat().st_size > 1000
    assert (tmp_path / "README.md").is_file()


def test_variant_overrides_apply():
    exp = next(e for e in EXPERIMENTS if e.key == "llm-residual")
    c = variant_config(exp, exp.variants[0], budget=8000)
    assert c.costs.high == 200.0 and c.params.budget == 8000.0
    assert c.instance == load_config("llm-residual").instance


def test_unknown_experiment_names_the_field(tmp_path):
    with pytest.raises(TaccInputError) as e:
        reproduce(["set-c"], out_dir=tmp_path)
    assert e.value.field == "experiment"
