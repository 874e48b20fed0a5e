"""Run records as tables: typed columns, exact round trips through Parquet and CSV, a cache folder tabulated."""

import json
import shutil

import pytest

pd = pytest.importorskip("pandas")

from bounds import TaccInputError, dump_config, parse_config  # noqa: E402
from simulate import (ARM_COLUMNS, POLICIES, RUN_COLUMNS, config_id, frame_records, load_frames,  # noqa: E402
                      load_runs, make_problem, records_frame, run, run_tasks, save_frames, tasks_for)


@pytest.fixture(scope="module")
def sweep():
    from tests.simulate.conftest import make_config
    configs = [make_config(**{"params.budget": 3000}), make_config(**{"params.budget": 6000}),
               make_config(**{"params.budget": 3000, "params.rho": 0.02, "name": "small-rho"})]
    tasks = tasks_for(configs, list(POLICIES), range(2))
    return tasks, run_tasks(tasks)


def test_one_row_per_run_and_per_arm_with_typed_columns(sweep):
    tasks, records = sweep
    f = records_frame(records, tasks)
    assert len(f.runs) == len(records) and len(f.arms) == sum(r.n_arms for r in records)
    assert {c: str(t) for c, t in f.runs.dtypes.items()} == {c: t if t != "string" else "string"
                                                             for c, t in RUN_COLUMNS.items()}
    assert {c: str(t) for c, t in f.arms.dtypes.items()} == ARM_COLUMNS
    assert sorted(f.runs["budget"].unique()) == [3000.0, 6000.0]
    assert f.runs["key"].tolist() == [t.key() for t in tasks]
    assert set(f.configs["config_id"]) == {config_id(t.config) for t in tasks}
    # the table answers the researcher's question: mean regret per policy and budget
    table = f.runs.groupby(["policy", "budget"])["regret"].mean().unstack()
    assert table.shape == (len(POLICIES), 2)
    # per-arm sums agree with the per-run columns
    assert (f.arms.groupby("run")["regret_share"].sum() - f.runs["regret"]).abs().max() < 1e-9


def test_records_come_back_equal(sweep):
    tasks, records = sweep
    assert any(not r.event_held for r in records) and any(r.phases for r in records)   # both cases covered
    assert frame_records(records_frame(records, tasks)) == records


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_saved_tables_load_back_typed_and_equal(sweep, tmp_path, fmt):
    tasks, records = sweep
    traced = [run(make_problem(tasks[0].config), p, 0, trace=True) for p in ("tacc", "rdfe")]
    f = records_frame(records + traced, tasks + [None, None])
    files = save_frames(f, tmp_path, fmt)
    assert sorted(p.name for p in files) == sorted(f"{t}.{fmt}" for t in ("runs", "arms", "configs"))
    g = load_frames(tmp_path)
    pd.testing.assert_frame_equal(g.runs, f.runs)
    pd.testing.assert_frame_equal(g.arms, f.arms)
    assert frame_records(g) == records + traced
    assert g.config(config_id(tasks[0].config)) == tasks[0].config


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_a_table_whose_regret_is_not_its_arms_sum_is_refused(sweep, tmp_path, fmt):
    """A table carries no checksum: a regret cell multiplied by 100 (in a spreadsheet) must be refused, not read as
    it stands (the report would call TACC's mean regret 116% of the bound while its verdicts say nothing was
    violated). The engine makes a run's regret the correctly rounded sum of its arms' shares: equal exactly."""
    tasks, records = sweep
    save_frames(records_frame(records, tasks), tmp_path, fmt)
    g = load_frames(tmp_path)
    assert frame_records(g) == records                                  # every record passes as saved
    row = next(i for i, r in enumerate(records) if r.regret > 0)
    g.runs.loc[row, "regret"] = records[row].regret * 100
    with pytest.raises(TaccInputError, match="regret shares sum to .*the table is edited or damaged") as e:
        frame_records(g)
    assert e.value.field == "runs" and e.value.value == int(g.runs.loc[row, "run"])


def test_a_cache_folder_is_tabulated_with_its_configurations(sweep, tmp_path):
    tasks, records = sweep
    run_tasks(tasks[:6] + tasks[-4:], cache=tmp_path)
    f = load_runs(tmp_path)
    assert len(f.runs) == 10 and f.runs["config"].notna().all()
    by_key = dict(zip(f.runs["key"], frame_records(f), strict=True))
    for t, r in zip(tasks[:6] + tasks[-4:], records[:6] + records[-4:], strict=True):
        assert by_key[t.key()] == r
        row = f.runs[f.runs["key"] == t.key()].iloc[0]
        assert (row["config_id"], row["budget"]) == (config_id(t.config), t.config.params.budget)
    saved = sorted((tmp_path / "configs").iterdir())
    assert [p.suffix for p in saved] == [".json"] * len(saved) and saved
    for p in saved:                              # a folder of an earlier version keeps them as TOML: still read
        p.with_suffix(".toml").write_text(dump_config(parse_config(json.loads(p.read_text()))))
        p.unlink()
    g = load_runs(tmp_path)
    assert g.runs["config_id"].tolist() == f.runs["config_id"].tolist() and g.runs["config"].notna().all()
    shutil.rmtree(tmp_path / "configs")          # without its configurations a run is still a row, with NA
    f = load_runs(tmp_path)
    assert len(f.runs) == 10 and f.runs["config"].isna().all() and f.runs["budget"].isna().all()


def test_bad_folders_and_formats_are_refused(tmp_path, sweep):
    tasks, records = sweep
    with pytest.raises(TaccInputError) as e:
        save_frames(records_frame(records[:1]), tmp_path, "xlsx")
    assert e.value.field == "to"
    with pytest.raises(TaccInputError) as e:
        load_frames(tmp_path / "nothing")
    assert e.value.field == "path"
    with pytest.raises(TaccInputError) as e:
        load_runs(tmp_path / "missing")
    assert e.value.field == "path"
    with pytest.raises(TaccInputError) as e:
        load_runs(tmp_path)                       # an empty folder
    assert e.value.field == "path"
    with pytest.raises(TaccInputError) as e:
        records_frame(records[:2], tasks[:1])
    assert e.value.field == "tasks"


@pytest.mark.parametrize("damage", [
    pytest.param(lambda t: t.replace('"high":10.0', '"high":11.0', 1), id="edited-value"),
    pytest.param(lambda t: t.replace('"high"', '"hifh"', 1), id="flipped-byte-in-a-key"),
    pytest.param(lambda t: t[: len(t) // 2], id="truncated"),
])
def test_a_damaged_saved_configuration_is_not_used_and_is_repaired(sweep, tmp_path, damage):
    from simulate._cache import CacheMismatchWarning
    tasks, records = sweep
    run_tasks(tasks[:6], cache=tmp_path)          # one configuration: 6 runs
    (path,) = (tmp_path / "configs").iterdir()
    good = path.read_text()
    bad = damage(good)
    assert bad != good
    path.write_text(bad)
    with pytest.warns(CacheMismatchWarning) as seen:
        f = load_runs(tmp_path)                   # never a TaccInputError: a damaged cache file is not bad input
    messages = [str(w.message) for w in seen]
    assert len(messages) == 2
    assert path.name in messages[0] and "not used" in messages[0]
    assert "6 of its 6 run(s) have no known configuration" in messages[1]
    assert f.runs["config"].isna().all() and f.runs["key"].tolist() == sorted(t.key() for t in tasks[:6])
    with pytest.warns(CacheMismatchWarning, match=f"{path.name} is written again"):
        run_tasks(tasks[:6], cache=tmp_path)      # the runner saving runs of this configuration repairs the file
    assert path.read_text() == good
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = load_runs(tmp_path)
    assert g.runs["config_id"].tolist() == [config_id(tasks[0].config)] * 6


def test_a_saved_configuration_under_another_name_is_not_used(sweep, tmp_path):
    from simulate._cache import CacheMismatchWarning
    tasks, _ = sweep
    run_tasks(tasks[:1], cache=tmp_path)
    (path,) = (tmp_path / "configs").iterdir()
    path.rename(path.with_name("0123456789abcdef.json"))      # valid content, but not the configuration named
    with pytest.warns(CacheMismatchWarning) as seen:
        f = load_runs(tmp_path)
    assert "0123456789abcdef.json is not used, its content does not match its name" in str(seen[0].message)
    assert f.runs["config"].isna().all()


def test_an_unusable_kept_configuration_is_named_in_a_short_line(tmp_path):
    """A kept configuration with an unknown table is not quoted whole in the warning (1,900 characters): the field
    and the reason only, when the value is long."""
    import json

    from bounds import config_to_dict, load_config
    from simulate._frame import _read_saved
    d = config_to_dict(load_config("set-a"))
    d["assumptions"] = {"k2": {"statement": "y" * 3000}}
    path = tmp_path / "abc.json"
    path.write_text(json.dumps(d))
    config, why = _read_saved(path)
    assert config is None and why == "it is not a valid configuration (assumptions: unknown key)"
