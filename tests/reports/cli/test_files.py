"""What a ``tacc`` command reads and writes, checked before any work (``reports/cli/_files.py``, ``reports/paths.py``):
empty paths, links, missing parents, an output over an input, a file option given a folder; one line, exit 2,
nothing written."""

from pathlib import Path

import pytest

from reports.cli import main
from tests.reports.cli._helpers import _config, _one_line, _tree, tacc


@pytest.mark.parametrize("args", [["report", "--from", "{d}/saved", "--out", "{d}/out"], ["runs", "{d}/saved"]])
def test_reading_saved_runs_without_pandas_is_refused_before_any_work(tmp_path, capsys, monkeypatch, args):
    """The tables extra missing: one line naming the option and the extra, exit 2, nothing written (it read the
    saved runs for seconds, then said "tables = 'pandas'")."""
    import importlib.util
    find = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pandas" else find(name, *a))
    (tmp_path / "saved").mkdir()
    argv = [a.format(d=tmp_path) for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"tacc: error: {'--from' if args[0] == 'report' else 'dir'} = ")
    assert "pip install '.[tables]'" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, option", [
    (["bounds", ""], "config"),
    (["bounds", "set-a", "--json", ""], "--json"),
    (["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2", "--json", ""], "--json"),
    (["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2", "--cache", ""], "--cache"),
    (["check", "llm-residual", "--seeds", "2", "--baseline", ""], "--baseline"),
    (["check", "llm-residual", "--seeds", "2", "--junit", "j.xml", "--reproducers", ""], "--reproducers"),
    (["check", "llm-residual", "--seeds", "2", "--junit", ""], "--junit"),
    (["proofs", "--baseline", ""], "--baseline"),
    (["proofs", "--json", ""], "--json"),
    (["report", "--seeds", "2", "--out", ""], "--out"),
    (["report", "--seeds", "2", "--out", "r", "--cache", ""], "--cache"),
    (["report", "--seeds", "2", "--out", "r", "--baseline", ""], "--baseline"),
    (["report", "--from", "", "--out", "r"], "--from"),
    (["runs", ""], "dir"),
    (["runs", "r", "--to", "csv", "--out", ""], "--out"),
    (["reproduce", "decay", "--quick", "--out", ""], "--out"),
    (["reproduce", "decay", "--quick", "--out", "r", "--cache", ""], "--cache"),
    (["explain", "llm-residual", "--out", ""], "--out"),
    (["explain", "llm-residual", "--json", ""], "--json"),
    (["bench", "--quick", "--out", ""], "--out"),
    (["bench", "--quick", "--smpy-python", ""], "--smpy-python"),
])
def test_an_empty_path_exits_2_naming_the_option(tmp_path, args, option):
    """An empty path was taken as the working folder or as no option: ``--cache ""`` wrote runs.sqlite, configs/
    and figure-memo/ into the working folder, ``--out ""`` was ``--out .``, ``--baseline ""`` meant no baseline and
    ``explain --out ""`` drew no figure, in silence; now one line naming the option, exit 2, nothing written."""
    if args[0] == "runs" and args[1] == "r":
        (tmp_path / "r").mkdir()
    before = sorted(tmp_path.iterdir())
    r = tacc(args, tmp_path)
    line = _one_line(r, 2, f"{option} = ''", "empty")
    assert line.startswith(f"tacc: error: {option}") and r.stdout == ""
    assert sorted(tmp_path.iterdir()) == before
    # "write . for the working folder" only where . is an answer: a folder option, not a file or a program
    folder = option in ("--out", "--cache", "--from", "dir", "--reproducers")
    assert ("write . for the working folder" in line) is folder, line


@pytest.mark.parametrize("content", ["random bytes", "none"])
@pytest.mark.parametrize("command", ["runs", "report --from"])
def test_a_command_that_reads_a_run_cache_moves_and_creates_nothing(tmp_path, command, content):
    """``tacc runs DIR`` (and ``tacc report --from DIR``), which only read, moved a DIR/runs.sqlite of random bytes
    to runs.sqlite.damaged-1 with a warning before refusing: now one line saying it is not a readable run cache,
    exit 2, the file left as it is; a folder without runs.sqlite is refused and left empty."""
    cache = tmp_path / "dmg"
    cache.mkdir()
    if content == "random bytes":
        (cache / "runs.sqlite").write_bytes(bytes(range(256)) * 16)
    before = sorted((p.name, p.read_bytes(), p.stat().st_mode) for p in cache.iterdir())
    args = ["runs", "dmg"] if command == "runs" else ["report", "--from", "dmg", "--out", "r"]
    r = tacc(args, tmp_path)
    option = "dir" if command == "runs" else "--from"
    reason = "not a readable run cache" if content == "random bytes" else "holds no saved runs"
    line = _one_line(r, 2, f"{option} = 'dmg'", reason)
    assert line.startswith(f"tacc: error: {option}") and r.stdout == ""
    assert sorted((p.name, p.read_bytes(), p.stat().st_mode) for p in cache.iterdir()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dmg"]


@pytest.mark.parametrize("args", [
    ["simulate", "ok.toml", "--policy", "tacc", "--seeds", "0:2"],
    ["reproduce", "set-a", "--quick", "--out", "outdir"],
    ["report", "ok.toml", "--seeds", "2", "--out", "outdir"],
    ["check", "ok.toml", "--seeds", "2", "--evidence", "0"],
])
def test_a_linked_cache_file_is_refused_naming_the_option_and_nothing_is_written(args, tmp_path):
    """A symbolic link at cache/runs.sqlite: each command exited 2 naming "cache" (not the option) after it had
    saved the configurations in cache/configs/ (and reproduce had made its empty --out folder)."""
    _config(tmp_path, "ok")
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "runs.sqlite").symlink_to("../elsewhere.sqlite")
    before = _tree(tmp_path)
    line = _one_line(tacc([*args, "--cache", "cache"], tmp_path), 2)
    assert line == ("tacc: error: --cache = 'cache/runs.sqlite': is a symbolic link; the run cache never writes "
                    "through a link out of its folder")
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("args, link, option", [
    (["simulate", "ok.toml", "--policy", "tacc", "--seeds", "0:2", "--cache", "symc"], "symc/configs", "--cache"),
    (["check", "ok.toml", "--seeds", "2", "--evidence", "0", "--cache", "symc"], "symc/runs.sqlite-wal",
     "--cache"),
    (["report", "ok.toml", "--seeds", "2", "--out", "symc"], "symc/runs/figure-memo", "--out"),
    (["report", "ok.toml", "--seeds", "2", "--cache", "symc"], "symc/figure-memo", "--cache"),
])
def test_the_cache_refuses_a_link_it_would_write_through(args, link, option, tmp_path):
    """A link at configs/ was written through (exit 0): any link the cache or the figure memo would write
    through is refused before anything is written, named with the option."""
    _config(tmp_path, "ok")
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / link).parent.mkdir(parents=True)
    (tmp_path / link).symlink_to(target)
    before = _tree(tmp_path)
    line = _one_line(tacc(args, tmp_path), 2)
    assert line.startswith(f"tacc: error: {option} = '{link}': is a symbolic link")
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("args, option", [(["runs", "cache"], "dir"), (["report", "--from", "cache"], "--from")])
def test_a_linked_cache_file_read_is_refused_naming_the_argument(args, option, tmp_path):
    """Reading a cache folder with a link at runs.sqlite named "cache", an option these commands do not have."""
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "runs.sqlite").symlink_to("../elsewhere.sqlite")
    before = _tree(tmp_path)
    line = _one_line(tacc(args, tmp_path), 2)
    assert line.startswith(f"tacc: error: {option} = 'cache/runs.sqlite': is a symbolic link")
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("args, option", [
    (["simulate", "ok.toml", "--policy", "tacc", "--seeds", "0:2", "--cache", "no/such/cache"], "--cache"),
    (["report", "ok.toml", "--seeds", "2", "--out", "no/such/out"], "--out"),
    (["reproduce", "set-a", "--quick", "--out", "no/such/out"], "--out"),
    (["check", "ok.toml", "--seeds", "2", "--evidence", "0", "--reproducers", "no/such/rep"], "--reproducers"),
])
def test_an_output_folder_whose_parent_does_not_exist_is_refused(args, option, tmp_path):
    """``--cache no/such/cache`` made the folder and its parents (as ``--out``), where ``--json`` and ``--junit``
    refuse a folder that does not exist: the parent folder must exist, else exit 2 naming the option."""
    _config(tmp_path, "ok")
    before = _tree(tmp_path)
    line = _one_line(tacc(args, tmp_path), 2)
    assert line == f"tacc: error: {option} = '{args[-1]}': its folder {Path(args[-1]).parent} does not exist"
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("args, option, what", [
    (["bounds", "k2.toml", "--json", "k2.toml"], "--json", "the configuration file"),
    (["bounds", "k2.toml", "--json", "link.toml"], "--json", "the configuration file"),        # a link to it
    (["simulate", "k2.toml", "--policy", "ucb", "--seeds", "1", "--json", "./k2.toml"], "--json",
     "the configuration file"),
    (["explain", "k2.toml", "--json", "k2.toml"], "--json", "the configuration file"),
    (["check", "k2.toml", "--seeds", "2", "--junit", "k2.toml"], "--junit", "the configuration file"),
    (["check", "k2.toml", "--seeds", "2", "--baseline", "acc.json", "--json", "acc.json"], "--json",
     "the --baseline file"),
    (["proofs", "--baseline", "acc.json", "--json", "acc.json"], "--json", "the --baseline file"),
    (["check", "k2.toml", "--seeds", "2", "--reproducers", "."], "--reproducers", "the configuration file"),
    # tacc report --out: its report.md and results.json over the configuration or the baseline
    (["report", "results.json", "--seeds", "2", "--out", "."], "--out", "the configuration file"),
    (["report", "k2.toml", "--seeds", "2", "--baseline", "report.md", "--out", "."], "--out", "the --baseline file"),
    # an output inside the run cache's folder the command uses
    (["check", "k2.toml", "--seeds", "2", "--cache", "cache", "--json", "cache/runs.sqlite"], "--json",
     "the run cache's folder"),
    (["simulate", "k2.toml", "--policy", "ucb", "--seeds", "1", "--cache", "cache", "--json", "cache/configs/x.json"],
     "--json", "the run cache's folder"),
    # --out names the folder its files are written in: another folder is asked for
    (["report", "k2.toml", "--seeds", "2", "--cache", "cache", "--out", "cache"], "--out",
     "the run cache's folder this command uses; writing it there would damage the cache (give a folder outside it)"),
    # tacc reproduce wrote its reproduction into the cache it was given as --out too, where tacc report refused
    (["reproduce", "decay", "--quick", "--cache", "cache", "--out", "cache"], "--out",
     "the run cache's folder this command uses; writing it there would damage the cache (give a folder outside it)"),
    (["reproduce", "decay", "--quick", "--cache", "cache", "--out", "cache/repro"], "--out", "the run cache's folder"),
])
def test_no_output_is_written_over_an_input(tmp_path, args, option, what):
    """An output that would be written over an input (``tacc bounds k2.toml --json k2.toml`` over the configuration,
    ``--baseline acc.json --json acc.json`` over the baseline, ``check k2.toml --reproducers .`` k2's reproducer
    over k2.toml) is refused: one line naming the option, exit 2, every file as it was."""
    config = "name = \"k2\"\n" + "\n".join(line for line in _preset_text("llm-residual").splitlines()
                                            if not line.startswith("name"))
    (tmp_path / "k2.toml").write_text(config)
    (tmp_path / "link.toml").symlink_to("k2.toml")
    (tmp_path / "acc.json").write_text("[]")
    (tmp_path / "results.json").write_text(config)
    (tmp_path / "report.md").write_text("[]")
    (tmp_path / "cache" / "configs").mkdir(parents=True)
    (tmp_path / "cache" / "runs.sqlite").write_bytes(b"")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    r = tacc(args, tmp_path)
    _one_line(r, 2, option, what)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def _preset_text(name):
    from bounds import PRESETS, dump_config, load_config
    assert name in PRESETS
    return dump_config(load_config(name))


def test_a_file_option_ending_in_a_slash_is_a_folder_and_refused(tmp_path):
    """``--json nd/`` (no such folder) wrote a file named nd, exit 0; now refused."""
    r = tacc(["bounds", "set-a", "--json", "nd/"], tmp_path)
    _one_line(r, 2, "--json", "is a folder, not a file")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["check", "k2.toml", "--seeds", "1", "--junit", "jj", "--cache", "jj"],
    ["simulate", "k2.toml", "--policy", "tacc", "--seeds", "1", "--json", "rx", "--cache", "rx"],
    ["explain", "k2.toml", "--json", "ex", "--out", "ex"],
    ["check", "k2.toml", "--seeds", "1", "--json", "rx", "--reproducers", "rx"],
    ["report", "k2.toml", "--seeds", "2", "--out", ".", "--cache", "report.md"],
    ["reproduce", "set-b", "--seeds", "2", "--out", ".", "--cache", "README.md"],
])
def test_one_path_given_to_a_file_option_and_a_folder_option_exits_2_before_any_work(tmp_path, args):
    """``--json X --cache X``, ``explain --json X --out X``, ``report --cache OUT/report.md``: exit 3 after all the work
    (IsADirectoryError, FileExistsError); now one line, exit 2, nothing made."""
    (tmp_path / "k2.toml").write_text("name = \"k2\"\n" + "\n".join(
        line for line in _preset_text("llm-residual").splitlines() if not line.startswith("name")))
    before = sorted(tmp_path.iterdir())
    r = tacc(args, tmp_path)
    _one_line(r, 2)
    assert sorted(tmp_path.iterdir()) == before
