"""Saved runs as tables, and a report rebuilt from them with zero runs (``tacc runs``, ``tacc report --from``)."""

import json
import re

import pytest

pd = pytest.importorskip("pandas")

import simulate._engine as engine  # noqa: E402
from bounds import TaccInputError  # noqa: E402
from reports.report import budget_sweep, default_config  # noqa: E402
from reports.report._saved_runs import runs_by_budget, saved_config  # noqa: E402
from reports.cli import main  # noqa: E402
from simulate import RUN_COLUMNS, config_id, load_frames, load_runs, save_frames  # noqa: E402

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
    so a report rebuilt from saved runs says it did not run them, nor the configuration's source: without CONFIG
    it is the configuration saved with the runs, read from there (and everything else must be identical)."""
    res = json.loads((folder / "results.json").read_text())
    res.pop("metamorphic")
    res.pop("metamorphic_reason", None)
    res.pop("source")
    from reports.report._markdown import FROM_SAVED_NOTE
    md = re.sub("^Source: `[^`]*`", "Source:", (folder / "report.md").read_text().replace(FROM_SAVED_NOTE, ""),
                count=1, flags=re.M)
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


@pytest.mark.slow
@pytest.mark.parametrize("fmt, other", [("parquet", False), ("csv", True)])
def test_a_report_is_rebuilt_from_exported_tables_with_zero_runs(swept, tmp_path, fmt, other, no_runs, capsys):
    """Without CONFIG, the report is of the configuration saved with the runs (``other``: not the built-in one;
    `tacc report --from` took the built-in instance and refused: no saved run of 'classes')."""
    made, status = swept
    assert main(["runs", str(made / "runs"), "--to", fmt, "--out", str(tmp_path / "tables")]) == 0
    assert f"runs.{fmt}" in capsys.readouterr().out
    if other:
        f = _as_another_config(load_frames(tmp_path / "tables"), _another)
        assert config_id(default_config()) not in set(f.runs["config_id"])
        save_frames(f, tmp_path / "tables", fmt)
    assert main(["report", "--from", str(tmp_path / "tables"), "--out", str(tmp_path / "again")]) == status
    res, md = _report(tmp_path / "again")
    name = "another" if other else "classes"
    assert res == _report(made)[0] | {"config": name}
    assert md.startswith(f"# Bound-versus-empirical report: {name}\n")
    assert md == _report(made)[1].replace("report: classes\n", f"report: {name}\n", 1)
    assert f"Source: `saved with the runs in {tmp_path / 'tables'}`" in (tmp_path / "again" / "report.md").read_text()
    from reports.report._markdown import METAMORPHIC_NOT_RUN      # results.json's null says why, as report.md does
    again, first = (json.loads((d / "results.json").read_text()) for d in (tmp_path / "again", made))
    assert again["metamorphic"] is None and again["metamorphic_reason"] == METAMORPHIC_NOT_RUN
    assert first["metamorphic"] and "metamorphic_reason" not in first


@pytest.mark.slow
def test_a_report_is_rebuilt_from_the_cache_folder_too(swept, tmp_path, no_runs):
    made, status = swept
    assert main(["report", "--from", str(made / "runs"), "--seeds", "0:2", "--out", str(tmp_path / "two")]) == status
    res, _ = _report(tmp_path / "two")
    assert res["seeds"] == [[0, 2]] and res["n_seeds"] == 2          # half-open ranges of consecutive seeds


@pytest.mark.slow
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
    assert "--seeds = '0:5'" in err and f"{5 - SEEDS} of the 5 seed(s)" in err and f": {SEEDS}:5." in err
    assert f"the {SEEDS} saved ones (0:{SEEDS})" in err and "from =" not in err
    # the command that makes the runs asked for, as for a missing run (it said only "omit --seeds")
    # into the report's run cache, the report written beside it: --out {made} would have replaced its report
    beside = made.with_name(f"{made.name}-seeds-0-5")
    assert f"`tacc report --seeds 0:5 --cache {made / 'runs'} --out {beside}` makes them (only those: the " in err
    assert not (tmp_path / "x").exists()   # exit 2 writes nothing (the continuation figure was drawn first)
    assert main(["report", "set-a", "--from", str(made / "runs"), "--out", str(tmp_path / "y")]) == 2
    err = capsys.readouterr().err     # says what makes the runs (a `tacc check` cache has one budget of five)
    assert err.startswith("tacc: error: config = 'set-a': no saved run") and "`tacc report [CONFIG] --out OUT`" in err
    assert not (tmp_path / "y").exists()
    f = load_runs(made / "runs")
    cfg = default_config()
    configs = [cfg]
    with pytest.raises(TaccInputError) as e:
        runs_by_budget(f, configs, policies=("tacc", "lucb"))
    assert e.value.field == "policies" and e.value.value == "lucb"


def test_seeds_not_saved_in_another_cache_or_in_tables_give_the_command_that_makes_them(swept, tmp_path, no_runs,
                                                                                         capsys):
    """--seeds asking for seeds never saved said only "omit --seeds": from a cache folder of another name (a --cache
    folder) and from exported tables too, it gives the command that makes them, and writes nothing."""
    import shutil
    made, _ = swept
    shutil.copytree(made / "runs", tmp_path / "cache")
    assert main(["runs", str(made / "runs"), "--to", "csv", "--out", str(tmp_path / "tables")]) == 0
    capsys.readouterr()
    for folder, command in (("cache", f"`tacc report --seeds 0:5 --cache {tmp_path / 'cache'} --out OUT` makes them "
                                      f"(only those: the others are read from {tmp_path / 'cache'})"),
                            ("tables", "these are exported tables: `tacc report --seeds 0:5 --out OUT` makes them")):
        assert main(["report", "--from", str(tmp_path / folder), "--seeds", "0:5", "--out", str(tmp_path / "x")]) == 2
        err = capsys.readouterr().err
        assert command in err and f"or omit --seeds to use the {SEEDS} saved ones (0:{SEEDS})" in err, err
        assert not (tmp_path / "x").exists()


def test_without_pandas_the_command_names_the_extra(swept, monkeypatch, capsys):
    import sys
    made, _ = swept
    monkeypatch.setitem(sys.modules, "pandas", None)          # import pandas fails, as on a core install
    assert main(["runs", str(made / "runs")]) == 2
    assert "pip install '.[tables]'" in capsys.readouterr().err


def _as_another_config(frames, edit):
    """``frames`` with its configuration replaced by ``edit(config)`` at every budget (ids, names, TOML)."""
    from bounds import dump_config

    frames = type(frames)(frames.runs.copy(), frames.arms.copy(), frames.configs.copy())
    for i, cid in enumerate(list(frames.configs["config_id"])):
        c = edit(frames.config(cid))
        new = config_id(c)
        frames.configs.loc[i, ["config_id", "name", "toml"]] = [new, c.name, dump_config(c)]
        hit = frames.runs["config_id"] == cid
        frames.runs.loc[hit, "config_id"] = new
        frames.runs.loc[hit, "config"] = c.name
    return frames


def _another(c):
    """The built-in instance under another name, with another instance seed (its table model draws nothing from it,
    so the saved runs are still the runs of this configuration)."""
    from dataclasses import replace
    return replace(c, name="another", instance=replace(c.instance, seed=c.instance.seed + 1))


def test_without_config_runs_of_several_configurations_are_refused_naming_config(swept, tmp_path, no_runs, capsys):
    made, _ = swept
    f = load_runs(made / "runs")
    g = _as_another_config(f, _another)
    both = type(f)(pd.concat([f.runs, g.runs]), pd.concat([f.arms, g.arms]), pd.concat([f.configs, g.configs]))
    save_frames(both, tmp_path / "tables", "csv")
    assert main(["report", "--from", str(tmp_path / "tables"), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tacc: error: --from = '{tmp_path / 'tables'}': holds runs of 2 configurations "
                          "(another, classes): give the CONFIG to report on")
    assert not (tmp_path / "x" / "report.md").exists()


def test_messages_name_the_command_lines_argument_not_the_librarys(tmp_path, capsys):
    # `tacc runs EMPTY` said "from = ..." (its argument is DIR) and `tacc report CONFIG --from DIR` named the
    # configuration as "from = 'llm-residual'"
    (tmp_path / "empty").mkdir()
    assert main(["runs", str(tmp_path / "empty")]) == 2
    assert capsys.readouterr().err.startswith(f"tacc: error: dir = '{tmp_path / 'empty'}': holds no saved runs")
    assert main(["report", "--from", str(tmp_path / "empty"), "--out", str(tmp_path / "x")]) == 2
    assert capsys.readouterr().err.startswith(f"tacc: error: --from = '{tmp_path / 'empty'}': holds no saved runs")


def test_runs_matched_to_no_saved_configuration_are_refused(swept):
    """Runs a cache cannot match to a configuration kept with them (their key holds the fingerprint of the code
    that made them) leave nothing to report on: refused, saying why (not "give CONFIG", which would not help)."""
    made, _ = swept
    f = load_runs(made / "runs")
    assert saved_config(f, "DIR").name == "classes"
    f.runs["config_id"] = pd.NA
    with pytest.raises(TaccInputError) as e:
        saved_config(f, "DIR")
    assert (e.value.field, e.value.value) == ("--from", "DIR") and "none matched to a configuration" in e.value.reason


def _damaged_copy(made, tmp_path, budget, edit):
    """A copy of the report's run folder whose saved configuration at ``budget`` is edited by ``edit``."""
    import shutil
    runs = tmp_path / "runs"
    shutil.copytree(made / "runs", runs)
    cfg = default_config()
    from dataclasses import replace
    path = runs / "configs" / f"{config_id(replace(cfg, params=replace(cfg.params, budget=budget)))}.json"
    text = path.read_text()
    path.write_text(edit(text))
    assert path.read_text() != text
    return runs, path, text


@pytest.mark.parametrize("at_full", [True, False])
@pytest.mark.parametrize("edit", [lambda t: t.replace('"high":10.0', '"high":11.0', 1),
                                  lambda t: t.replace('"high"', '"hifh"', 1)], ids=["value", "byte"])
def test_a_damaged_saved_configuration_is_warned_about_and_the_report_still_rebuilt(swept, tmp_path, no_runs, capsys,
                                                                                      at_full, edit):
    """A configuration file beside the runs edited or damaged: `tacc runs` listed its runs as (unknown) with exit 0
    and no word, or exited 2 "unknown key" without naming the file; `tacc report --from` exited 2 "no saved run
    of this configuration". Now: a one-line warning naming the file, the runs said once to have no known
    configuration, and the report rebuilt from the runs' keys, identical."""
    made, status = swept
    full = default_config().params.budget
    runs, path, good = _damaged_copy(made, tmp_path, full if at_full else full / 4, edit)
    assert main(["runs", str(runs)]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 2 and lines[0].startswith("warning: ") and path.name in lines[0] and "not used" in lines[0]
    assert f"{5 * SEEDS} of its {25 * SEEDS} run(s) have no known configuration" in lines[1]
    assert "(unknown)" in out
    assert main(["report", "--from", str(runs), "--out", str(tmp_path / "again")]) == status
    assert path.name in capsys.readouterr().err
    assert _report(tmp_path / "again") == _report(made)


def test_tacc_report_writes_a_damaged_saved_configuration_again(swept, tmp_path, capsys):
    """`tacc report` keeps its configurations beside the runs it saves: a damaged one is written again, said."""
    made, status = swept
    runs, path, good = _damaged_copy(made, tmp_path, default_config().params.budget,
                                     lambda t: t.replace('"high":10.0', '"high":11.0', 1))
    assert main(["report", "--seeds", str(SEEDS), "--out", str(tmp_path), "--executor", "serial",
                 "--no-progress"]) == status
    err = capsys.readouterr().err
    assert f"the saved configuration {path.name} is written again" in err
    assert path.read_text() == good
    assert main(["runs", str(runs)]) == 0
    assert "warning" not in capsys.readouterr().err


def _copy_runs(made, tmp_path):
    import shutil
    runs = tmp_path / "out" / "runs"
    shutil.copytree(made / "runs", runs)
    return runs


def _key_of(runs, policy, seed, budget):
    f = load_runs(runs)
    hit = f.runs[(f.runs["policy"] == policy) & (f.runs["seed"] == seed) & (f.runs["budget"] == budget)]
    (key,) = hit["key"].tolist()
    return key


def _flip_record(runs, key):
    """One bit of one stored row flipped (a damaged disk block); its checksum left alone."""
    import sqlite3
    with sqlite3.connect(runs / "runs.sqlite") as db:
        (data,) = db.execute("SELECT record FROM runs WHERE key = ?", (key,)).fetchone()
        data = bytearray(data)
        data[-2] ^= 1
        db.execute("UPDATE runs SET record = ? WHERE key = ?", (bytes(data), key))


@pytest.mark.slow
def test_a_damaged_run_is_refused_naming_it_and_a_plain_report_makes_only_it_again(swept, tmp_path, capsys,
                                                                                   monkeypatch):
    """One damaged stored record: `tacc report --from` said "the run is recomputed" (it makes no run), left the run
    out and reported over one seed fewer with exit 0. Now it exits 2 naming the run (policy, seed, budget,
    configuration) and the command that makes it again; that command makes that one run, and --from then
    rebuilds the same report. ``--seeds`` without the damaged seed reports on the others, with the warning."""
    import simulate._runner as runner

    made, status = swept
    runs = _copy_runs(made, tmp_path)
    full = default_config().params.budget
    _flip_record(runs, _key_of(runs, "ucb", 1, full))
    assert main(["report", "--from", str(runs), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "recomputed" not in err and "left out of the tables (no run is made here)" in err
    assert f"ucb, seed 1, budget {full:g} of classes (its checksum does not match its content): damaged" in err
    assert f"`tacc report --seeds 0:{SEEDS} --out {tmp_path / 'out'}` makes them again" in err
    assert "the longest span with --seeds 0:1" in err            # seeds 0 and 2 are complete
    assert not (tmp_path / "x").exists()                         # exit 2: nothing written, not even a figure
    assert main(["report", "--from", str(runs), "--seeds", "2:3", "--out", str(tmp_path / "two")]) == status
    assert json.loads((tmp_path / "two" / "results.json").read_text())["seeds"] == [[2, 3]]
    capsys.readouterr()
    made_now = []
    real = runner._run_batch
    monkeypatch.setattr(runner, "_run_batch", lambda batch, engine: made_now.extend(batch) or real(batch, engine))
    assert main(["report", "--seeds", f"0:{SEEDS}", "--out", str(tmp_path / "out"), "--executor", "serial",
                 "--no-progress"]) == status
    assert [(t.policy, t.seed, t.config.params.budget) for t in made_now] == [("ucb", 1, full)]
    assert main(["report", "--from", str(runs), "--out", str(tmp_path / "again")]) == status
    assert _report(tmp_path / "again") == _report(made)


@pytest.mark.slow
@pytest.mark.parametrize("policy, seed", [("rdfe", SEEDS - 1), ("tacc", 0)])
def test_a_missing_run_is_refused_not_reported_over_fewer_seeds(swept, tmp_path, no_runs, capsys, policy, seed):
    """A run missing (not damaged) for one policy at one budget: --from reported every policy over the seeds common
    to all, in silence. Now it exits 2 naming what is missing, and --seeds over the complete ones works."""
    import sqlite3
    made, status = swept
    runs = _copy_runs(made, tmp_path)
    budget = default_config().params.budget / 4
    with sqlite3.connect(runs / "runs.sqlite") as db:
        db.execute("DELETE FROM runs WHERE key = ?", (_key_of(runs, policy, seed, budget),))
    assert main(["report", "--from", str(runs), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert f"{policy} at budget {budget:g} of classes: seed(s) {seed}:{seed + 1} not saved" in err
    assert "in silence" in err
    assert not (tmp_path / "x").exists()
    rest = (1, SEEDS) if seed == 0 else (0, SEEDS - 1)
    assert f"report on the {SEEDS - 1} seed(s) saved for every budget and policy with --seeds {rest[0]}:{rest[1]}" \
        in err
    assert main(["report", "--from", str(runs), "--seeds", f"{rest[0]}:{rest[1]}", "--out", str(tmp_path / "y")]) \
        == status
    assert main(["report", "--from", str(runs), "--seeds", f"0:{SEEDS}", "--out", str(tmp_path / "z")]) == 2
    err = capsys.readouterr().err
    assert f"1 of the {SEEDS} seed(s) asked for are not saved" in err and f"{policy} at budget {budget:g}" in err
    assert f"`tacc report --seeds 0:{SEEDS} --out {runs.parent}` makes them again" in err and \
        not (tmp_path / "z").exists()


@pytest.mark.parametrize("drop", ["first", "last"])
def test_an_arms_table_missing_a_row_is_refused_naming_the_run(swept, tmp_path, no_runs, capsys, drop):
    """arms.csv with one row removed made a record with K - 1 arms, and --from ended with an internal error
    (IndexError in a claim, exit 3). Now exit 2 naming the run and the arm rows it has."""
    made, _ = swept
    assert main(["runs", str(made / "runs"), "--to", "csv", "--out", str(tmp_path / "tables")]) == 0
    capsys.readouterr()
    table = tmp_path / "tables" / "arms.csv"
    lines = table.read_text().splitlines()
    arm = lines[0].split(",").index("arm")
    gone = 1 if drop == "first" else max(i for i, line in enumerate(lines[1:], 1) if line.split(",")[arm] != "0")
    table.write_text("\n".join(lines[:gone] + lines[gone + 1:]) + "\n")
    assert main(["report", "--from", str(tmp_path / "tables"), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tacc: error: arms = ") and "the table is incomplete or edited" in err, err
    assert "internal error" not in err


def test_tacc_runs_names_a_damaged_run_and_its_tables_are_refused_as_incomplete(swept, tmp_path, no_runs, capsys):
    """`tacc runs` on a damaged cache lists the damaged run (not "recomputed"); the tables it exports lack it, and
    --from on them exits 2 naming the missing run; a damaged table file is an error naming it (was exit 3)."""
    made, _ = swept
    runs = _copy_runs(made, tmp_path)
    full = default_config().params.budget
    _flip_record(runs, _key_of(runs, "dnc", 0, full))
    assert main(["runs", str(runs), "--to", "csv", "--out", str(tmp_path / "tables")]) == 0
    out, err = capsys.readouterr()
    assert "recomputed" not in err and "1 damaged run(s), not in the table" in out
    assert f"dnc, seed 0, budget {full:g} of classes (its checksum does not match its content)" in out
    assert main(["report", "--from", str(tmp_path / "tables"), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert f"dnc at budget {full:g} of classes: seed(s) 0:1 not saved" in err and "export them again" in err
    table = tmp_path / "tables" / "runs.csv"
    lines = table.read_text().splitlines()
    cells = lines[1].split(",")
    cells[list(RUN_COLUMNS).index("seed")] = "x"
    table.write_text("\n".join([lines[0], ",".join(cells), *lines[2:]]) + "\n")
    assert main(["report", "--from", str(tmp_path / "tables"), "--out", str(tmp_path / "y")]) == 2
    assert "holds tables that cannot be read" in capsys.readouterr().err


def test_from_a_cache_folder_copies_the_figures_drawn_before(swept, tmp_path, no_runs, monkeypatch):
    """--from drew every figure again (no figure memo), which made it about three times a plain rerun's CPU time:
    from a cache folder the figures drawn from the same numbers are now copied from its memo, the same files."""
    import reports.figures._pool as pool

    def boom(*args, **kwargs):
        raise AssertionError("a figure was drawn")

    made, status = swept
    runs = _copy_runs(made, tmp_path)
    monkeypatch.setattr(pool, "_draw", boom)
    assert main(["report", "--from", str(runs), "--out", str(tmp_path / "x"), "--executor", "serial",
                 "--no-progress"]) == status
    drawn = sorted(p.name for p in (made / "figures").iterdir())
    assert drawn and sorted(p.name for p in (tmp_path / "x" / "figures").iterdir()) == drawn
    assert all((tmp_path / "x" / "figures" / n).read_bytes() == (made / "figures" / n).read_bytes() for n in drawn)


# --- what a refused or incomplete run folder tells the user -------------------------------------------------------


@pytest.fixture(scope="module")
def other_swept(tmp_path_factory):
    """A report of a configuration that is neither the built-in one nor a preset: the built-in instance with
    S0 = 12 under the name "other". Its folder, the TOML file it was made from, and the exit status."""
    import tomllib

    from bounds import dump_config, parse_config

    made = tmp_path_factory.mktemp("other")
    data = tomllib.loads(dump_config(default_config()))
    data["name"], data["params"]["s0"] = "other", 12
    toml = made / "other.toml"
    toml.write_text(dump_config(parse_config(data)))
    status = main(["report", str(toml), "--seeds", "2", "--out", str(made / "out"), "--executor", "serial",
                   "--no-progress"])
    return made / "out", toml, status


def _rows(runs):
    import sqlite3
    with sqlite3.connect(runs / "runs.sqlite") as db:
        return dict(db.execute("SELECT key, record FROM runs").fetchall())


def _delete(runs, *keys):
    import sqlite3
    with sqlite3.connect(runs / "runs.sqlite") as db:
        for key in keys:
            db.execute("DELETE FROM runs WHERE key = ?", (key,))


@pytest.mark.slow
def test_the_command_a_missing_run_prints_makes_exactly_that_run(other_swept, tmp_path, capsys):
    """A run missing from the cache of a configuration saved only with its runs (no CONFIG given): the refusal named
    no configuration ("tacc at budget 1000: ..."), suggested `tacc report --seeds 0:2` (the built-in instance's
    parameters, S0 = 10: not these runs) and "CONFIG ... `tacc runs DIR --to csv` writes its TOML" (one TOML per
    budget in a CSV column). Now it names the configuration and prints a command that, pasted into a shell as
    printed, writes the configuration as a TOML file and makes that one run, the same record, and no other; --from
    then succeeds with the same report."""
    import shlex
    import shutil

    made, _, status = other_swept
    runs = tmp_path / "out" / "runs"
    shutil.copytree(made / "runs", runs)
    before = _rows(runs)
    budget = default_config().params.budget / 4
    _delete(runs, _key_of(runs, "tacc", 1, budget))
    assert main(["report", "--from", str(runs), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert f"tacc at budget {budget:g} of other: seed(s) 1:2 not saved" in err
    command = err.split("To report on all 2: `", 1)[1].split("`", 1)[0]
    tables = runs.with_name("runs-tables")
    assert command == (f"tacc runs {shlex.quote(str(runs))} --to csv --out {shlex.quote(str(tables))} && tacc report "
                       f"{shlex.quote(str(tables / 'configs' / 'other-budget-4000.toml'))} --seeds 0:2 --out "
                       f"{shlex.quote(str(runs.parent))}")
    for part in command.split(" && "):            # each command as a shell would split it, through the entry point
        program, *args = shlex.split(part)
        assert program == "tacc" and main(args) == (0 if args[0] == "runs" else status)
    assert _rows(runs) == before                   # that run made again, the same record, and no other run
    assert main(["report", "--from", str(runs), "--out", str(tmp_path / "again")]) == status
    assert _report(tmp_path / "again") == _report(made)


@pytest.mark.slow
def test_a_missing_run_with_config_given_prints_that_config(other_swept, tmp_path, no_runs, capsys):
    """`tacc report CONFIG --from DIR`: the command names CONFIG as given (the built-in instance's parameters
    differ in S0, so a plain `tacc report` would not make these runs)."""
    import shutil

    made, toml, _ = other_swept
    runs = tmp_path / "out" / "runs"
    shutil.copytree(made / "runs", runs)
    full = default_config().params.budget
    _delete(runs, _key_of(runs, "ucb", 0, full))
    assert main(["report", str(toml), "--from", str(runs), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert f"ucb at budget {full:g} of other: seed(s) 0:1 not saved" in err
    assert f"`tacc report {toml} --seeds 0:2 --out {runs.parent}` makes them again" in err
    assert "CONFIG" not in err


def test_a_policy_missing_at_the_full_budget_is_refused_not_left_out(other_swept, tmp_path, no_runs, capsys):
    """Every run of one policy deleted at the full budget: --from took the policies saved at the full budget and
    reported on the other four with exit 0, in silence. Now the policy's runs are missing like any other, named
    with the command that makes them again."""
    import shutil

    made, toml, _ = other_swept
    runs = tmp_path / "out" / "runs"
    shutil.copytree(made / "runs", runs)
    full = default_config().params.budget
    _delete(runs, _key_of(runs, "ucb", 0, full), _key_of(runs, "ucb", 1, full))
    assert main(["report", str(toml), "--from", str(runs), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert f"ucb at budget {full:g} of other: seed(s) 0:2 not saved" in err
    assert f"`tacc report {toml} --seeds 0:2 --out {runs.parent}` makes them again" in err
    assert not (tmp_path / "x" / "report.md").exists()


def test_tacc_runs_writes_each_configuration_as_a_toml_file(other_swept, tmp_path, no_runs, capsys):
    """`tacc runs DIR --to csv` wrote the configurations only as TOML text in a CSV column; each is now also a TOML
    file beside the tables, which `tacc report` reads as the same configuration (the same runs)."""
    from bounds import load_config

    made, _, _ = other_swept
    assert main(["runs", str(made / "runs"), "--to", "csv", "--out", str(tmp_path / "t")]) == 0
    out = capsys.readouterr().out
    assert "other-budget-250.toml, other-budget-500.toml, other-budget-1000.toml" in out
    ids = set(load_runs(made / "runs").runs["config_id"])
    files = sorted((tmp_path / "t" / "configs").glob("*.toml"))
    assert len(files) == 5 and {config_id(load_config(str(f))) for f in files} == ids
    assert load_config(str(tmp_path / "t" / "configs" / "other-budget-4000.toml")).params.s0 == 12
    assert (tmp_path / "t" / "configs.csv").is_file() and (tmp_path / "t" / "runs.csv").is_file()


def test_tacc_runs_says_which_seeds_are_missing(swept, tmp_path, no_runs, capsys):
    """One seed deleted printed "runs 2, first seed 0, last seed 2" and no hint of the gap: a column now says which
    seeds each (budget, policy) lacks of those saved for its configuration, as spans; a complete folder has no
    such column."""
    made, _ = swept
    assert main(["runs", str(made / "runs")]) == 0
    assert "missing seeds" not in capsys.readouterr().out
    runs = _copy_runs(made, tmp_path)
    full = default_config().params.budget
    _delete(runs, _key_of(runs, "tacc", 1, full / 4), _key_of(runs, "ucb", 0, full), _key_of(runs, "ucb", 1, full))
    assert main(["runs", str(runs)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-2:] == ["missing", "seeds"]
    rows = {(line.split()[1], line.split()[2]): line.split() for line in lines[2:] if line.startswith("classes")}
    assert rows["1000", "tacc"][3] == str(SEEDS - 1) and rows["1000", "tacc"][-1] == "1:2"   # not "1": seeds 0..0
    assert rows["4000", "ucb"][3] == str(SEEDS - 2) and rows["4000", "ucb"][-1] == "0:2"
    assert all(r[-1] == "-" for k, r in rows.items() if k not in {("1000", "tacc"), ("4000", "ucb")})
    assert len(rows) == 25 and any(line.startswith("missing seeds: saved for another budget") for line in lines)


def test_tacc_runs_says_the_budget_of_runs_of_no_known_configuration_is_unknown(swept, tmp_path, no_runs, capsys):
    """Runs whose saved configuration cannot be read were listed with the budget ``undefined`` (a NaN, as a table
    prints 0 / 0): the budget column is their configuration's, unknown as its name is. The cell says
    ``(unknown)`` and a note under the table says why."""
    made, _ = swept
    runs, path, _ = _damaged_copy(made, tmp_path, default_config().params.budget,
                                  lambda t: t.replace('"high"', '"hifh"', 1))
    assert main(["runs", str(runs)]) == 0
    out = capsys.readouterr().out
    assert "undefined" not in out
    unknown = [line.split() for line in out.splitlines() if line.startswith("(unknown) ")]
    assert len(unknown) == 5 and all(row[1] == "(unknown)" for row in unknown)
    assert (f"(unknown): {5 * SEEDS} run(s) of no known configuration (the configuration saved with them cannot be "
            "read: the warning names its file), so neither its name nor its budget is known") in out


@pytest.mark.parametrize("command", [["runs"], ["report", "--from"]])
def test_a_report_folder_given_for_its_runs_points_to_its_runs_folder(swept, tmp_path, no_runs, capsys, command):
    """`tacc runs OUT` (a `tacc report --out` folder) said only "holds no saved runs": the runs are in OUT/runs,
    and the line says so; nothing is written (no cache made in OUT)."""
    made, _ = swept
    before = sorted(p.name for p in made.iterdir())
    option = "dir" if command == ["runs"] else "--from"
    assert main([*command, str(made), *(["--out", str(tmp_path / "x")] if command != ["runs"] else [])]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tacc: error: {option} = '{made}': holds no saved runs") and err.count("\n") == 1
    assert f"in {made / 'runs'}" in err, err
    assert sorted(p.name for p in made.iterdir()) == before and not (tmp_path / "x").exists()


def test_tacc_runs_decides_the_event_failures_exactly(tmp_path, capsys):
    """`tacc runs`' "event failed" column counts the runs whose failure the exact sums confirm; a run whose float
    check reported a failure that they do not confirm is counted apart as rounding (the event held on it)."""
    from dataclasses import replace

    from bounds import parse_config
    from simulate import RunCache, Violation, run_tasks, tasks_for
    low = {"model": "power_decay", "zeta": 0.1, "r": 0.5}
    cfg = parse_config({"name": "small rho", "instance": {"mu_high": [0.9, 0.5], "low": low},
                        "costs": {"low": 1.0, "high": 10.0},
                        "params": {"budget": 4000.0, "delta": 0.05, "rho": 0.001, "gamma": 0.1, "eta": 1e-4,
                                   "s0": 5}})
    held_cfg = replace(cfg, name="rho min", params=replace(cfg.params, rho="min"))
    cache = tmp_path / "runs"
    tasks = tasks_for([cfg, held_cfg], ["ucb"], range(4))
    records = run_tasks(tasks, cache=cache)
    small, held = records[:4], records[4:]
    assert not any(r.event_held for r in small) and all(r.event_held for r in held)
    with RunCache(cache) as store:            # one held run as a float check's false alarm would store it
        store.put(tasks[4].key(), replace(held[0], event_held=False, violation=Violation(0, "H", 1)))
    assert main(["runs", str(tmp_path / "runs")]) == 0
    out = capsys.readouterr().out
    rows = {" ".join(line.split()[:2]): line for line in out.splitlines() if line.startswith(("small", "rho"))}
    assert rows["small rho"].split()[-1] == "4" and rows["rho min"].split()[-3:] == ["0", "(+1", "rounding)"]
    assert "decided exactly on the observations" in out


def test_tacc_runs_never_pools_configurations_that_share_a_name_and_budget(tmp_path, capsys):
    """Two configurations of one name and budget that differ (here in rho, as a sweep's points did) are two rows,
    each named with the id its exported TOML file carries; runs of one name and different budgets stay one name."""
    from dataclasses import replace

    from simulate import run_tasks, tasks_for
    base = default_config()
    other = replace(base, params=replace(base.params, rho=2 * 2.5))
    run_tasks(tasks_for([base, other], ["ucb"], range(2)), cache=tmp_path / "runs")
    assert main(["runs", str(tmp_path / "runs")]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith(base.name)]
    assert len(rows) == 2 and all(f"{base.name} ({config_id(c)})" in "\n".join(rows) for c in (base, other))
    assert main(["runs", str(tmp_path / "runs"), "--to", "csv", "--out", str(tmp_path / "t")]) == 0
    files = {p.name for p in (tmp_path / "t" / "configs").iterdir()}
    assert all(any(config_id(c) in f for f in files) for c in (base, other))


@pytest.mark.slow
def test_tables_are_never_written_into_a_run_cache_nor_read_beside_one(swept, tmp_path, capsys):
    """``tacc runs DIR --to csv --out DIR`` must not write tables into the run cache, where they would be read
    instead of its runs (a report over runs made later would cover only the seeds of the tables). The export is
    refused; a folder holding both is refused by ``tacc runs`` and ``--from`` alike, nothing read over the other."""
    import shutil
    runs = swept[0] / "runs"
    assert main(["runs", str(runs), "--to", "csv", "--out", str(runs)]) == 2
    assert "--out" in capsys.readouterr().err and not (runs / "runs.csv").exists()
    both = tmp_path / "both"
    shutil.copytree(runs, both)
    assert main(["runs", str(runs), "--to", "csv", "--out", str(tmp_path / "tables")]) == 0
    shutil.copy(tmp_path / "tables" / "runs.csv", both / "runs.csv")
    capsys.readouterr()
    for args in (["runs", str(both)], ["report", "--from", str(both), "--out", str(tmp_path / "r")]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert "holds both a run cache (runs.sqlite) and exported tables (runs.csv)" in err, err
    # nor into a folder inside the cache (its configs/), nor beside tables of the other format
    assert main(["runs", str(runs), "--to", "csv", "--out", str(runs / "configs")]) == 2
    assert "is in a run cache" in capsys.readouterr().err and not (runs / "configs" / "runs.csv").exists()
    assert main(["runs", str(runs), "--to", "parquet", "--out", str(tmp_path / "tables")]) == 2
    assert "holds tables in another format (runs.csv)" in capsys.readouterr().err
    shutil.copytree(tmp_path / "tables", tmp_path / "two")
    shutil.copy(tmp_path / "tables" / "runs.csv", tmp_path / "two" / "runs.parquet")     # a second format's file
    assert main(["runs", str(tmp_path / "two")]) == 2
    assert "holds tables in more than one format (runs.parquet, runs.csv)" in capsys.readouterr().err


@pytest.mark.slow
def test_large_seeds_are_printed_whole(tmp_path, capsys):
    """The first and last seed must not both print as 9.223e+18: whole, as simulate prints them."""
    out = tmp_path / "big"
    assert main(["report", "--seeds", "9223372036854775806:9223372036854775808", "--out", str(out),
                 "--executor", "serial", "--no-progress"]) in (0, 1)
    capsys.readouterr()
    assert main(["runs", str(out / "runs")]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if " tacc " in line)
    assert "9223372036854775806  9223372036854775807" in row and "e+18" not in row


@pytest.mark.slow
def test_the_command_for_seeds_never_saved_pasted_as_printed_keeps_the_report(tmp_path, capsys):
    """A configuration known only from its saved runs (``--from`` without CONFIG): the printed command must not
    write its report with ``--out`` of the report beside the cache, replacing it with one over those seeds alone.
    Pasted as printed, it makes the runs into the cache and writes its report beside; --from then works."""
    import shlex
    import subprocess
    import sys
    cfg = tmp_path / "tie.toml"
    cfg.write_text('name = "tie"\n[instance]\nmu_high = [0.9, 0.9, 0.5]\n[instance.low]\nmodel = "power_decay"\n'
                   'zeta = 0.2\nr = 0.5\n[costs]\nlow = 1.0\nhigh = 10.0\n[params]\nbudget = 2000\ngamma = 0.3\n'
                   'eta = 1e-4\ns0 = 2\n')
    out = tmp_path / "p1"
    assert main(["report", str(cfg), "--seeds", "2", "--out", str(out), "--executor", "serial", "--no-progress"]) == 0
    before = (out / "report.md").read_bytes()
    capsys.readouterr()
    assert main(["report", "--from", str(out / "runs"), "--seeds", "1:3", "--out", str(tmp_path / "x")]) == 2
    command = re.search(r"`(tacc runs [^`]*)`", capsys.readouterr().err).group(1)
    assert f"--cache {out / 'runs'} --out {tmp_path / 'p1-seeds-1-3'}" in command
    for part in command.split(" && "):
        argv = shlex.split(part)
        assert argv[0] == "tacc"
        assert subprocess.run([sys.executable, "-m", "reports.cli", *argv[1:]], capture_output=True).returncode == 0
    assert (out / "report.md").read_bytes() == before and (tmp_path / "p1-seeds-1-3" / "report.md").is_file()
    assert main(["report", "--from", str(out / "runs"), "--seeds", "1:3", "--out", str(tmp_path / "x")]) == 0


def test_a_report_is_not_written_among_the_saved_runs_it_reads(swept, tmp_path, capsys):
    """`tacc report --from R/runs --out R/runs` must not write report.md, results.json and figures/ into the run
    cache it reads: refused naming --out, nothing written; beside the cache (--out R) is the usual place and stays
    allowed."""
    made, _ = swept
    for out in (made / "runs", made / "runs" / "configs" / "x"):
        assert main(["report", "--from", str(made / "runs"), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert "--out" in err and "is the folder --from reads" in err and f"--out {made}" in err
    assert not (made / "runs" / "report.md").exists() and not (made / "runs" / "figures").exists()


def test_a_table_without_a_column_is_refused_naming_it(swept, tmp_path, capsys):
    made, _ = swept
    assert main(["runs", str(made / "runs"), "--to", "csv", "--out", str(tmp_path / "tables")]) == 0
    runs = tmp_path / "tables" / "runs.csv"
    lines = runs.read_text().splitlines()
    header = lines[0].split(",")
    i = header.index("config")
    runs.write_text("\n".join(",".join(x for j, x in enumerate(line.split(",")) if j != i) for line in lines) + "\n")
    capsys.readouterr()
    assert main(["report", "--from", str(tmp_path / "tables"), "--out", str(tmp_path / "r")]) == 2
    assert "holds a table runs.csv without the column(s) config" in capsys.readouterr().err


def test_an_empty_seeds_option_is_refused_not_taken_for_the_default(tmp_path, capsys):
    """`tacc report --seeds ""` ran 1,000 seeds (a script's unset variable): refused as every other command does."""
    assert main(["report", "--seeds", "", "--out", str(tmp_path / "r")]) == 2
    assert "--seeds = '': must be A:B" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()
