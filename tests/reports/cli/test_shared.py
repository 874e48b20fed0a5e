"""What every ``tacc`` command shares (``reports/cli/_main.py``, ``_parser.py``, ``_registry.py``): exit statuses,
the parser and its did-you-mean suggestions, the registry, configurations refused alike by every command, internal
errors and warnings. Signals are tested in ``test_signals.py``, the shared options in ``test_options.py``, the paths
checked before any work in ``test_files.py``.

The tests through the installed console script run as a user would: a subprocess, in a temporary working directory
(exit 2 with one line on standard error naming the field or option, exit 3 with one line for an internal
error, never a traceback)."""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from reports.cli import main
from tests.reports.cli._helpers import _config, _one_line, tacc


def test_a_command_help_lists_its_choices(capsys):
    """The choices read on demand are still in each command's help and checked on parsing."""
    for command, shown in (("simulate", "{fast,reference}"), ("check", "weak-fixed"), ("explain", "rdfe"),
                           ("reproduce", "llm-vanishing")):
        assert main([command, "--help"]) == 0
        assert shown in "".join(capsys.readouterr().out.split())
    assert main(["explain", "llm-residual", "--policy", "thompson"]) == 2
    assert "invalid choice: 'thompson'" in capsys.readouterr().err


@pytest.mark.parametrize("argv, hint", [
    (["reprodce"], "(did you mean reproduce?)"),
    (["simulate", "set-a", "--policy", "tac"], "(did you mean tacc?)"),
    (["check", "set-a", "--policy", "mfucb"], "(did you mean mf-ucb?)"),
    (["report", "--executor", "proc"], "(did you mean processes?)"),
    (["check", "set-a", "--policy", "zzz"], None),
    # an abbreviated option is refused: --seed was taken for --seeds, and "3" ran seeds 0, 1, 2
    (["simulate", "set-a", "--policy", "tacc", "--seed", "3"], "(did you mean --seeds?)"),
    (["bounds", "set-a", "--jsn", "x.json"], "(did you mean --json?)"),
    (["check", "set-a", "--policy", "MF-UCB"], "(did you mean mf-ucb?)"),                 # another case
])
def test_a_misspelled_choice_gets_the_nearest_suggested(capsys, argv, hint):
    """A command, a policy, an executor or an option misspelled (or abbreviated): exit 2, argparse's line with the
    nearest choice suggested (the configuration's did-you-mean); none when no choice is near."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert ("invalid choice" in err or "unrecognized arguments" in err) and err.count("\n") == 1
    if hint is None:
        assert "did you mean" not in err
    else:
        assert hint in err


def test_unknown_preset_and_usage_exit_2():
    r = subprocess.run([sys.executable, "-m", "reports.cli", "bounds", "set-z"], capture_output=True, text=True)
    assert r.returncode == 2 and "config" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "reports.cli", "nonsense"], capture_output=True, text=True)
    assert r.returncode == 2


@pytest.mark.slow
@pytest.mark.parametrize("command", ["simulate", "explain"])
def test_a_policy_given_twice_to_a_one_policy_command_is_refused(command, tmp_path, capsys, monkeypatch):
    """`tacc simulate --policy dnc --policy tacc` ran TACC alone without a word (argparse keeps the last value;
    `tacc check` takes the option repeatedly): exit 2, one line naming the option and both values, nothing run."""
    monkeypatch.chdir(tmp_path)
    assert main([command, "set-a", "--policy", "dnc", "--policy", "tacc", "--seed" if command == "explain" else
                 "--seeds", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "argument --policy: given twice (dnc, then tacc)" in err[0]
    assert not list(tmp_path.iterdir())
    assert main([command, "set-a", "--policy", "dnc", "--seed" if command == "explain" else "--seeds", "1"]) == 0


@pytest.mark.parametrize("argv, hint", [
    (["bounds", "seta"], "(did you mean set-a?)"),
    (["check", "set-a", "--seeds", "1", "--baseline", "rep"], "(did you mean repo?)"),
    (["bounds", "no-such-preset-or-file"], None),
])
def test_a_misspelled_preset_or_repo_gets_the_nearest_suggested(capsys, argv, hint):
    """A preset name or the repository's baseline misspelled read as a missing file with no word of the name meant:
    exit 2, one line, the nearest suggested; none when none is near."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "neither a file nor a preset" in err or "no such file" in err
    assert (hint in err) if hint else "did you mean" not in err


def test_every_command_of_the_registry_has_one_shape_and_its_help():
    """A command is its module in the registry: a one-line HELP, its arguments, what it reads and writes, and its
    run; ``tacc --help`` lists each with that line, and ``tacc COMMAND --help`` works."""
    import inspect

    from reports.cli import COMMANDS, build_parser, command

    top = " ".join(build_parser().format_help().split())
    for name in COMMANDS:
        module = command(name)
        assert isinstance(module.HELP, str) and "\n" not in module.HELP and " ".join(module.HELP.split()) in top
        assert list(inspect.signature(module.arguments).parameters) == ["p"]
        assert list(inspect.signature(module.files).parameters) == ["args", "options"]
        assert list(inspect.signature(module.run).parameters) == ["args", "options"]
        with pytest.raises(SystemExit) as e:
            build_parser().parse_args([name, "--help"])
        assert e.value.code == 0
    with pytest.raises(KeyError):
        command("bound")


def _cases(tmp_path):
    """(arguments, names the one line must contain) for each class of bad input."""
    binary = tmp_path / "binary.toml"
    binary.write_bytes(bytes(range(256)))
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes('name = "\u00e9t\u00e9"\n'.encode("latin-1"))
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    a_dict = tmp_path / "a-dict.json"
    a_dict.write_text('{"a": 1}')
    a_list_config = tmp_path / "a-list-config.json"           # an unhashable configuration
    a_list_config.write_text('[{"claim": "high-count", "config": ["x"]}]')
    a_dir = tmp_path / "a-dir"
    a_dir.mkdir()
    cfg = _config(tmp_path, "ok")
    missing = str(tmp_path / "no" / "such" / "x.json")
    return {
        "config binary": (["bounds", str(binary)], ["config", "UTF-8"]),
        "config neither a file nor a preset": (["bounds", "set-z"], ["config", "set-z", "nor a preset", "set-a"]),
        "config latin-1": (["simulate", str(latin1), "--policy", "tacc"], ["config", "UTF-8"]),
        "--json into a missing folder": (["bounds", cfg, "--json", missing], ["--json", missing]),
        "--json onto a folder": (["simulate", cfg, "--policy", "tacc", "--json", str(a_dir)], ["--json", "folder"]),
        # the option as written (it said "json =")
        "--json of too many runs": (["simulate", cfg, "--policy", "tacc", "--seeds", "0:200000", "--json",
                                     str(tmp_path / "many.json")], ["--json =", "200000 per-run records"]),
        "--out onto a file": (["report", cfg, "--out", str(a_file)], ["--out", str(a_file)]),
        "--out unwritable": (["reproduce", "decay", "--quick", "--out", "/proc/tacc-out"], ["--out", "/proc"]),
        "check --junit into a missing folder": (["check", cfg, "--junit", missing], ["--junit", missing]),
        "bench --out onto a file": (["bench", "--quick", "--out", str(a_file)], ["--out"]),
        "bench --smpy-python missing": (["bench", "--smpy-python", str(tmp_path / "nopython")], ["--smpy-python"]),
        "bench --smpy-python without SMPyBandits": (["bench", "--smpy-python", sys.executable],
                                                    ["--smpy-python", "SMPyBandits"]),
        "--cache onto a file": (["simulate", cfg, "--policy", "tacc", "--cache", str(a_file)], ["--cache"]),
        "check --baseline binary": (["check", cfg, "--baseline", str(binary)], ["--baseline", "UTF-8"]),
        "proofs --baseline binary": (["proofs", "--baseline", str(binary)], ["--baseline", "UTF-8"]),
        # valid JSON of the wrong shape: the line names the option as written (it said "baseline =")
        "check --baseline not a list": (["check", cfg, "--baseline", str(a_dict), "--seeds", "1", "--evidence", "0"],
                                        ["--baseline =", "JSON list"]),
        "proofs --baseline not a list": (["proofs", "--baseline", str(a_dict)], ["--baseline =", "JSON list"]),
        # tacc report reads --baseline as tacc check does (it had none): refused before any run or folder
        "report --baseline binary": (["report", cfg, "--baseline", str(binary)], ["--baseline", "UTF-8"]),
        "report --baseline not a list": (["report", cfg, "--baseline", str(a_dict), "--seeds", "1"],
                                         ["--baseline =", "JSON list"]),
        "report --baseline missing": (["report", cfg, "--baseline", missing], ["--baseline", missing]),
        "report --baseline a config list": (["report", cfg, "--baseline", str(a_list_config), "--seeds", "1"],
                                            ["--baseline =", "must be strings"]),
        "mean 1e308": (["simulate", _config(tmp_path, "mean", "0.9, 0.5", "1e308, 0.5"), "--policy", "tacc"],
                       ["instance.mu_high", "1e+308"]),
        "mean 1e308 (bounds)": (["bounds", _config(tmp_path, "mean", "0.9, 0.5", "1e308, 0.5")],
                                ["instance.mu_high"]),
        "1e9 arms": (["simulate", _config(tmp_path, "arms", "mu_high = [0.9, 0.5, 0.4]",
                                          'means = { distribution = "uniform", low = 0.1, high = 0.9, '
                                          'n_arms = 1000000000 }'), "--policy", "tacc"], ["config", "memory"]),
        "1e9 arms (bounds)": (["bounds", _config(tmp_path, "arms", "mu_high = [0.9, 0.5, 0.4]",
                                                 'means = { distribution = "uniform", low = 0.1, high = 0.9, '
                                                 'n_arms = 1000000000 }')], ["config", "memory"]),
        "explain a 1e12-round trace": (["explain", _config(tmp_path, "budget", "budget = 1000", "budget = 1e12")],
                                       ["config", "memory"]),  # refused before the trace is allocated
        # refused before the work estimate and a progress bar are printed, not after them
        "budget 5e18": (["simulate", _config(tmp_path, "huge", "budget = 1000", "budget = 5e18"), "--policy", "tacc",
                         "--seeds", "2"], ["params.budget", "accepted: a budget of at most"]),
        "s0 1e12": (["simulate", _config(tmp_path, "s0", "s0 = 10", "s0 = 1000000000000"), "--policy", "tacc"],
                    ["config", "memory"]),
        # an S0 past 2**53 is refused naming it, never an OverflowError or ZeroDivisionError (exit 3)
        "s0 1e20 (bounds)": (["bounds", _config(tmp_path, "s0big", "s0 = 10", "s0 = 100000000000000000000")],
                             ["params.s0", "2**53"]),
        "s0 2**63 - 1 (bounds)": (["bounds", _config(tmp_path, "s0max", "s0 = 10", "s0 = 9223372036854775807")],
                                  ["params.s0", "2**53"]),
        "s0 2**63 - 1 (simulate)": (["simulate", _config(tmp_path, "s0max", "s0 = 10", "s0 = 9223372036854775807"),
                                     "--policy", "tacc"], ["params.s0", "2**53"]),
        # the field is named, not "gamma"
        "gamma 1e-300": (["bounds", _config(tmp_path, "gtiny", "gamma = 0.1", "gamma = 1e-300")],
                         ["params.gamma = 1e-300", "2**53"]),
        # N_gamma past 2**53 because of rho, not gamma: rho is named, not params.gamma = 0.1
        "rho 1e300": (["bounds", _config(tmp_path, "rhohuge", "gamma = 0.1", "rho = 1e300\ngamma = 0.1")],
                      ["params.rho = 1e+300", "2**53"]),
        # a misspelled key is reported as itself, not as the missing one it replaces
        "misspelled key": (["bounds", _config(tmp_path, "gama", "gamma = 0.1", "gama = 0.1")],
                           ["params.gama = 0.1: unknown key (did you mean gamma?)"]),
        # a misspelled value of a closed set gets a suggestion
        "misspelled value": (["bounds", _config(tmp_path, "dist", 'model = "gaussian"', 'model = "gausian"')],
                             ['instance.noise.model = "gausian"', "(did you mean gaussian?)"]),
        # a table printed in TOML's spelling, not Python's ({ model = 'gaussian', sigma = 1.0 })
        "misspelled inline table": (["bounds", _config(tmp_path, "noises", "noise = {", "noises = {")],
                                    ['instance.noises = { model = "gaussian", sigma = 1.0 }: unknown key']),
        # argparse took -1:2 for an option: "argument --seeds: expected one argument"
        "--seeds -1:2": (["simulate", cfg, "--policy", "tacc", "--seeds", "-1:2"],
                         ["--seeds = '-1:2'", "seeds must be >= 0"]),
        "--seeds=-1:2 (report)": (["report", "--seeds=-1:2", "--out", str(tmp_path / "r")],
                                  ["--seeds = '-1:2'", "seeds must be >= 0"]),
        "misspelled table": (["bounds", _config(tmp_path, "cost", "[costs]", "[cost]")],
                             ["cost = ", "unknown key (did you mean costs?)"]),
        "huge sigma": (["bounds", _config(tmp_path, "sigma", "sigma = 1.0", "sigma = 1e200")],
                       ["instance.noise.sigma"]),
        "--max-arms -1": (["bounds", cfg, "--max-arms", "-1"], ["--max-arms"]),
        # a negative seed of the generated sample is refused, as a negative --seeds is
        "--random-seed -5": (["check", "--random-seed", "-5"], ["--random-seed", "must be >= 0, got -5"]),
        # the engine's own check names its argument (seed); the line names the option the user wrote
        "explain --seed 2**63": (["explain", cfg, "--seed", str(2**63)], ["--seed = 9223372036854775808",
                                                                         "must be an int in [0, 2**63)"]),
        "--workers 0": (["simulate", cfg, "--policy", "tacc", "--workers", "0"], ["--workers"]),
        "unknown policy": (["simulate", cfg, "--policy", "thompson"], ["--policy"]),
        "runs from a missing folder": (["runs", str(tmp_path / "no-runs")], ["dir", "no such folder"]),
        "report --from a file": (["report", "--from", str(a_file)], ["--from", "is not a folder"]),
        "unknown experiment": (["reproduce", "set-z", "--out", str(tmp_path / "r")], ["experiment", "set-z"]),
    }


with tempfile.TemporaryDirectory() as _d:
    CASES = list(_cases(Path(_d)))


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_bad_input_exits_2_with_one_line(case, tmp_path):
    args, names = _cases(tmp_path)[case]
    run_dir = tmp_path / "cwd"
    run_dir.mkdir()
    _one_line(tacc(args, run_dir), 2, *names)
    assert not list(run_dir.iterdir()), "a refused command wrote into the working directory"


def test_internal_error_is_one_line_and_the_traceback_is_saved(tmp_path):
    """A simulated internal error (bounds.analyze raises) exits 3 with one line; --debug prints the traceback."""
    (tmp_path / "sitecustomize.py").write_text(
        "import bounds\n"
        "def _boom(config):\n"
        "    raise ZeroDivisionError('simulated internal error')\n"
        "bounds.analyze = _boom\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    line = _one_line(tacc(["bounds", "set-a"], tmp_path, env=env), 3, "internal error", "ZeroDivisionError",
                     "simulated internal error", "--debug")
    saved = Path(re.search(r"full traceback in (\S+?);", line).group(1))
    try:
        assert "Traceback" in saved.read_text() and "_boom" in saved.read_text()
        assert saved.parent != tmp_path
    finally:
        saved.unlink()
    r = tacc(["--debug", "bounds", "set-a"], tmp_path, env=env)
    assert r.returncode == 3 and "Traceback" in r.stderr and "_boom" in r.stderr
    Path(re.search(r"full traceback in (\S+?);", r.stderr).group(1)).unlink()


@pytest.mark.slow
def test_a_finding_is_exit_1_and_distinct_from_a_crash(tmp_path):
    r = tacc(["proofs"], tmp_path)
    assert r.returncode == 1 and "REFUTED" in r.stdout and r.stderr == ""


def test_version_and_exit_statuses_in_help(tmp_path):
    r = tacc(["--version"], tmp_path)
    assert r.returncode == 0 and re.fullmatch(r"tacc \d+\.\d+\.\d+\n", r.stdout)
    r = tacc(["--help"], tmp_path)
    for status in ("0  ok", "1  a finding", "2  bad input", "3  an internal error"):
        assert status in r.stdout
    r = tacc(["simulate", "--help"], tmp_path)
    assert "--executor {serial,processes,dask}" in r.stdout and "--workers N" in r.stdout
    assert "tacc,dnc,mf-ucb,ucb,lucb,weak-fixed,low-improving,rdfe" in "".join(r.stdout.split())  # the registry


@pytest.mark.parametrize("command", ["bounds", "explain"])
def test_a_huge_gamma_is_a_valid_instance(command, tmp_path):
    """gamma = 1e300 > 0 is a valid instance (N_gamma = 1, every 1 / gamma^2 term 0): ``tacc bounds`` and
    ``tacc explain`` take it, as simulate does."""
    r = tacc([command, _config(tmp_path, "ghuge", "gamma = 0.1", "gamma = 1e300")], tmp_path)
    assert r.returncode == 0, r.stderr
    if command == "bounds":
        assert re.search(r"^n_gamma +1 ", r.stdout, re.M), r.stdout


@pytest.mark.slow
@pytest.mark.parametrize("mu_high", ["[1e-155, 0.0]", "[1e-300, 0.5e-300, 0.0]", "[5e-324, 0.0]", "[1e-310, 0.0]"])
@pytest.mark.parametrize("command", [["bounds"], ["check", "--seeds", "2"], ["explain"], ["report", "--seeds", "2"]])
def test_a_gap_whose_count_bound_is_past_the_floats_is_refused_when_read(command, mu_high, tmp_path):
    """A gap below about 1e-154 (ceil(4 ell / gap^2) past the largest float) or a subnormal one is refused when
    the configuration is read, exit 2, naming instance.mu_high and the count bound, nothing written (the tables,
    the RDFE bound and the measurements cannot compute with it)."""
    cfg = _config(tmp_path, "tiny", "mu_high = [0.9, 0.5, 0.4]", f"mu_high = {mu_high}")
    run_dir = tmp_path / "cwd"
    run_dir.mkdir()
    _one_line(tacc([command[0], cfg, *command[1:]], run_dir), 2, "instance.mu_high[", "ceil(4 ell / gap^2)",
              "exceed the largest float")
    assert not list(run_dir.iterdir()), "a refused command wrote into the working directory"


@pytest.mark.parametrize("command", [["bounds"], ["check", "--seeds", "2"], ["explain"], ["report", "--seeds", "2"],
                                     ["simulate", "--policy", "tacc", "--seeds", "2"]])
def test_drawn_means_whose_gap_count_bound_is_past_the_floats_are_refused_before_any_work(command, tmp_path):
    """Drawn means (uniform on [0, 1e-300]) are refused once drawn, before any work: exit 2 naming
    instance.means.high, nothing written."""
    cfg = _config(tmp_path, "drawn", "mu_high = [0.9, 0.5, 0.4]",
                  'means = { distribution = "uniform", low = 0.0, high = 1e-300, n_arms = 3 }')
    run_dir = tmp_path / "cwd"
    run_dir.mkdir()
    _one_line(tacc([command[0], cfg, *command[1:]], run_dir), 2, "instance.means.high = 1e-300", "draws arm",
              "exceed the largest float")
    assert not list(run_dir.iterdir()), "a refused command wrote into the working directory"


@pytest.mark.slow
@pytest.mark.parametrize("command", ["bounds", "explain"])
def test_a_gap_just_above_the_float_limit_is_shown(command, tmp_path):
    """A gap of 8.6e-154, just above the limit: its count bound (about 1.8e308) is a float, shown as one."""
    r = tacc([command, _config(tmp_path, "edge", "mu_high = [0.9, 0.5, 0.4]", "mu_high = [8.6e-154, 0.0]")],
             tmp_path)
    assert r.returncode == 0, r.stderr
    assert "e+308" in r.stdout, r.stdout


@pytest.mark.slow
def test_a_warning_is_one_line_on_the_command_line(tmp_path):
    """The run cache's "recomputed" warning (a record whose checksum does not match) is printed as one line
    `warning: <message>`, not Python's file, line and source line."""
    import sqlite3

    cfg, cache = _config(tmp_path, "ok"), tmp_path / "cache"
    args = ["simulate", cfg, "--policy", "tacc", "--seeds", "1", "--cache", str(cache)]
    assert tacc(args, tmp_path).returncode == 0
    with sqlite3.connect(cache / "runs.sqlite") as db:
        db.execute("UPDATE runs SET checksum = ?", ("0" * 64,))
    line = _one_line(tacc(args, tmp_path), 0, "warning: run cache", "recomputed")
    assert line.startswith("warning: run cache ") and "Warning" not in line and ".py:" not in line


def test_library_warnings_keep_pythons_display(monkeypatch, capsys):
    """The one-line form is the command line's only: `main` puts Python's display back when it returns."""
    import warnings

    import reports.cli as cli
    from reports.figures import FigureMemoWarning

    def warn(args, options):
        warnings.warn("figure memo M: damaged; the figure is drawn again", FigureMemoWarning, stacklevel=1)
        return 0

    monkeypatch.setattr("reports.cli.bounds.run", warn)
    before = warnings.showwarning
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        assert cli.main(["bounds", "set-a"]) == 0
        assert capsys.readouterr().err == "warning: figure memo M: damaged; the figure is drawn again\n"
        assert warnings.showwarning is before
        with pytest.warns(FigureMemoWarning):
            warn(None, None)


@pytest.mark.parametrize("args, command", [(["report", "--json", "-"], "report"), (["bounds", "set-a", "--bogus"],
                                                                                    "bounds")])
def test_an_argument_the_command_does_not_take_points_to_the_commands_help(tmp_path, args, command):
    """``tacc report --json -`` said "unrecognized arguments: --json - (see tacc --help)": the top-level help, which
    lists no option of report; now the command's parser refuses it."""
    r = tacc(args, tmp_path)
    line = _one_line(r, 2, "unrecognized arguments")
    assert line.startswith(f"tacc {command}: error:") and line.endswith(f"(see tacc {command} --help)")


@pytest.mark.parametrize("argv, hint", [
    (["simulate", "set-a", "--policy", "tacc", "--seds", "2"], " (did you mean --seeds?)"),
    (["bounds", "set-a", "--jsn", "x"], " (did you mean --json?)"),
    (["simulate", "set-a", "--policy", "tacc", "--baseline", "repo"], ""),    # was "did you mean --engine?"
    (["explain", "set-a", "--cache", "cc"], ""),                              # was "did you mean --help?"
])
def test_an_unknown_option_is_matched_on_its_name_not_its_dashes(argv, hint, capsys):
    """The options' shared ``--`` made unrelated ones look near (``--baseline`` and ``--engine``): a suggestion is
    made from the names alone, and none when nothing is near."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"unrecognized arguments: {' '.join(argv[-2:])}{hint} (see tacc {argv[0]} --help)" in err
