"""Saved runs as tables, and a report rebuilt from them with zero runs (``tacc runs``, ``tacc report --from``)."""

import json

import pytest

pd = pytest.importorskip("pandas")

import simulate._engine as engine  # noqa: E402
from bounds import TaccInputError  # noqa: E402
from reports._report import budget_sweep, default_config  # noqa: E402
from reports._runs_view import runs_by_budget  # noqa: E402
from reports.cli import main  # noqa: E402
from simulate import config_id, load_runs, save_frames  # noqa: E402

SEEDS = 3


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """A report made by running: its folder (runs cached in OUT/runs) and the exit status."""
    out = tmp_path_factory.mktemp("made")
    status = main(["report", "--seeds", str(SEEDS), "--out", str(out), "--executor", "serial", "--no-progress"])
    return out, status


@pytest.fixture
def no_runs(monkeypatch):
    """Any run attempted fails the test."""
    def boom(*args, **kwargs):
        raise AssertionError("a run was made")
    monkeypatch.setattr(engine, "run_fast", boom)
    monkeypatch.setattr(engine, "run_reference", boom)


def _report(folder):
    """results.json and report.md, without the metamorphic relations: they need fresh runs of altered instances,
    so a report rebuilt from saved runs says it did not run them (and everything else must be identical)."""
    res = json.loads((folder / "results.json").read_text())
    res.pop("metamorphic")
    from reports._report import FROM_SAVED_NOTE
    md = (folder / "report.md").read_text().replace(FROM_SAVED_NOTE, "")
    head, rest = md.split("## Metamorphic relations", 1)
    return res, head + rest[rest.index("\n## "):]


def test_a_sweep_is_a_table_of_seeds_policies_and_budgets(swept):
    out, _ = swept
    f = load_runs(out / "runs")
    cfg = default_config()
    assert sorted(f.runs["budget"].unique()) == budget_sweep(cfg.params.budget)
    assert set(f.runs["policy"]) == {"tacc", "dnc", "mf-ucb", "ucb", "rdfe"}
    assert len(f.runs) == 5 * 5 * SEEDS and f.runs["config"].eq(cfg.name).all()
    regret = f.runs.pivot_table(index="budget", columns="policy", values="regret", aggfunc="mean")
    res, _ = _report(out)
    assert regret["tacc"].tolist() == pytest.approx([r["mean"] for r in res["regret"]["tacc"]], rel=1e-12)


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_a_report_is_rebuilt_from_exported_tables_with_zero_runs(swept, tmp_path, fmt, no_runs, capsys):
    made, status = swept
    assert main(["runs", str(made / "runs"), "--to", fmt, "--out", str(tmp_path / "tables")]) == 0
    assert f"runs.{fmt}" in capsys.readouterr().out
    assert main(["report", "--from", str(tmp_path / "tables"), "--out", str(tmp_path / "again")]) == status
    assert _report(tmp_path / "again") == _report(made)


def test_a_report_is_rebuilt_from_the_cache_folder_too(swept, tmp_path, no_runs):
    made, status = swept
    assert main(["report", "--from", str(made / "runs"), "--seeds", "0:2", "--out", str(tmp_path / "two")]) == status
    res, _ = _report(tmp_path / "two")
    assert res["seeds"] == [0, 1]


def test_the_rebuild_reads_the_tables(swept, tmp_path, no_runs):
    """A changed count in the saved tables changes the rebuilt report: it is not read from anywhere else."""
    made, _ = swept
    f = load_runs(made / "runs")
    cfg = default_config()
    full = f.runs[(f.runs["config_id"] == config_id(cfg)) & (f.runs["policy"] == "tacc")]
    run0 = int(full.sort_values("seed")["run"].iloc[0])
    worst = f.arms["run"].eq(run0) & f.arms["n_high"].gt(0) & f.arms["arm"].ne(0)
    f.arms.loc[worst, "n_high"] += 1000
    save_frames(f, tmp_path / "tables", "csv")
    main(["report", "--from", str(tmp_path / "tables"), "--out", str(tmp_path / "changed")])
    res, _ = _report(tmp_path / "changed")
    assert res["arms"] != _report(made)[0]["arms"]


def test_missing_runs_are_refused(swept, tmp_path, no_runs, capsys):
    made, _ = swept
    assert main(["report", "--from", str(made / "runs"), "--seeds", "0:5", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err          # names the option, its value and the missing seeds, not "from"
    assert "--seeds = '0:5'" in err and f"{5 - SEEDS} of the 5 seed(s)" in err and f": {SEEDS}:5;" in err
    assert f"the {SEEDS} saved ones (0:{SEEDS})" in err and "from =" not in err
    assert main(["report", "set-a", "--from", str(made / "runs"), "--out", str(tmp_path / "y")]) == 2
    assert "no saved run" in capsys.readouterr().err
    f = load_runs(made / "runs")
    cfg = default_config()
    configs = [cfg]
    with pytest.raises(TaccInputError) as e:
        runs_by_budget(f, configs, policies=("tacc", "lucb"))
    assert e.value.field == "from" and e.value.value == "lucb"


def test_without_pandas_the_command_names_the_extra(swept, monkeypatch, capsys):
    import sys
    made, _ = swept
    monkeypatch.setitem(sys.modules, "pandas", None)          # import pandas fails, as on a core install
    assert main(["runs", str(made / "runs")]) == 2
    assert "pip install '.[tables]'" in capsys.readouterr().err
