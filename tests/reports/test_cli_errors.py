"""Bad and extreme input through the installed ``tacc`` console script: exit 2 with one line on standard error
naming the field or option, exit 3 with one line for an internal error, never a traceback (issue 13).

Every case runs as a user would: a subprocess of the console script, in a temporary working directory.
"""

import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

TACC = shutil.which("tacc", path=str(Path(sys.executable).parent)) or shutil.which("tacc")

BASE = """name = "x"
[instance]
mu_high = [0.9, 0.5, 0.4]
noise = { model = "gaussian", sigma = 1.0 }
[instance.low]
model = "power_decay"
zeta = 0.2
r = 0.5
signs = "random"
[costs]
low = 1.0
high = 10.0
[params]
budget = 1000
gamma = 0.1
eta = 1e-4
s0 = 10
"""


def _config(tmp_path, name, old=None, new=None):
    p = tmp_path / f"{name}.toml"
    p.write_text(BASE if old is None else BASE.replace(old, new))
    return str(p)


def tacc(args, cwd, **kw):
    assert TACC, "the tacc console script is not installed next to this interpreter"
    return subprocess.run([TACC, *args], capture_output=True, text=True, cwd=cwd, timeout=600, **kw)


def _one_line(r, status, *names):
    lines = r.stderr.strip().splitlines()
    assert r.returncode == status, r.stderr
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr
    for n in names:
        assert n in lines[0], lines[0]
    return lines[0]


def _cases(tmp_path):
    """(arguments, names the one line must contain) for each bad input class of issue 13."""
    binary = tmp_path / "binary.toml"
    binary.write_bytes(bytes(range(256)))
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes('name = "\u00e9t\u00e9"\n'.encode("latin-1"))
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    a_dict = tmp_path / "a-dict.json"
    a_dict.write_text('{"a": 1}')
    a_list_config = tmp_path / "a-list-config.json"           # it crashed (exit 3): an unhashable configuration
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
                                       ["config", "memory"]),  # it crashed allocating the trace (exit 3)
        # refused before the work estimate and a progress bar were printed (it printed both, then the error)
        "budget 5e18": (["simulate", _config(tmp_path, "huge", "budget = 1000", "budget = 5e18"), "--policy", "tacc",
                         "--seeds", "2"], ["params.budget", "accepted: a budget of at most"]),
        "s0 1e12": (["simulate", _config(tmp_path, "s0", "s0 = 10", "s0 = 1000000000000"), "--policy", "tacc"],
                    ["config", "memory"]),
        # issue s5-input: an S0 past 2**53 crashed (OverflowError, ZeroDivisionError: exit 3)
        "s0 1e20 (bounds)": (["bounds", _config(tmp_path, "s0big", "s0 = 10", "s0 = 100000000000000000000")],
                             ["params.s0", "2**53"]),
        "s0 2**63 - 1 (bounds)": (["bounds", _config(tmp_path, "s0max", "s0 = 10", "s0 = 9223372036854775807")],
                                  ["params.s0", "2**53"]),
        "s0 2**63 - 1 (simulate)": (["simulate", _config(tmp_path, "s0max", "s0 = 10", "s0 = 9223372036854775807"),
                                     "--policy", "tacc"], ["params.s0", "2**53"]),
        # it named "gamma", not the field
        "gamma 1e-300": (["bounds", _config(tmp_path, "gtiny", "gamma = 0.1", "gamma = 1e-300")],
                         ["params.gamma = 1e-300", "2**53"]),
        # N_gamma past 2**53 because of rho, not gamma: it named params.gamma = 0.1 (issue s10)
        "rho 1e300": (["bounds", _config(tmp_path, "rhohuge", "gamma = 0.1", "rho = 1e300\ngamma = 0.1")],
                      ["params.rho = 1e+300", "2**53"]),
        # a misspelled key was reported as the missing one it replaced
        "misspelled key": (["bounds", _config(tmp_path, "gama", "gamma = 0.1", "gama = 0.1")],
                           ["params.gama = 0.1: unknown key (did you mean gamma?)"]),
        # a misspelled value of a closed set had no suggestion (issue s6-defects)
        "misspelled value": (["bounds", _config(tmp_path, "dist", 'model = "gaussian"', 'model = "gausian"')],
                             ['instance.noise.model = "gausian"', "(did you mean gaussian?)"]),
        # a table printed in Python's spelling: { model = 'gaussian', sigma = 1.0 }
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
        # a negative seed of the generated sample was accepted (exit 0), unlike a negative --seeds (issue s7-explain)
        "--random-seed -5": (["check", "--random-seed", "-5"], ["--random-seed", "must be >= 0, got -5"]),
        # the engine's own check named its argument, "seed = ...", not the option (stranger13)
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


@pytest.mark.parametrize("case", CASES)
def test_bad_input_exits_2_with_one_line(case, tmp_path):
    args, names = _cases(tmp_path)[case]
    run_dir = tmp_path / "cwd"
    run_dir.mkdir()
    _one_line(tacc(args, run_dir), 2, *names)
    assert not list(run_dir.iterdir()), "a refused command wrote into the working directory"


def test_long_work_is_announced_with_its_estimate(tmp_path):
    """A budget of 1e12: one line before any run with the estimate (rounds, runs, time), then it runs. The rounds
    are TACC's bound (reports._estimate.rounds_bound): 3 (N_gamma + S0) low queries and the high queries the rest
    of the budget pays for, not the horizon 10^12."""
    cfg = _config(tmp_path, "budget", "budget = 1000", "budget = 1e12")
    p = subprocess.Popen([TACC, "simulate", cfg, "--policy", "tacc", "--seeds", "2"], stderr=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, text=True, cwd=tmp_path)
    try:
        line = p.stderr.readline()
    finally:
        p.kill()
        p.wait()
    assert "up to 100,000,017,909 rounds per run, up to 2 runs" in line and "time at most about" in line
    assert "hours" in line and "resumes" in line


def test_a_long_continuation_window_scan_is_announced(tmp_path):
    """``tacc bounds`` makes no run, but reads the continuation window state by state up to min(S0, T): with
    S0 = 10^11 and a test every state passes (eta = 1e-12) that is hours; it scanned without a word (a README-only
    user). One line first, with the states and the time bound; the same command with S0 = 10 says nothing."""
    cfg = _config(tmp_path, "s0", "budget = 1000\ngamma = 0.1\neta = 1e-4\ns0 = 10",
                  "budget = 1e13\ngamma = 0.1\neta = 1e-12\ns0 = 100000000000")
    p = subprocess.Popen([TACC, "bounds", cfg], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                         cwd=tmp_path)
    try:        # without the line the command would scan for hours: wait for it a minute at most
        line = p.stderr.readline() if select.select([p.stderr], [], [], 60)[0] else ""
    finally:
        p.kill()
        p.wait()
    assert "min(S0, T) = 100,000,000,000 low counts" in line and "time at most about" in line, line
    quiet = tacc(["bounds", _config(tmp_path, "plain")], cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""


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


def test_a_finding_is_exit_1_and_distinct_from_a_crash(tmp_path):
    r = tacc(["proofs"], tmp_path)
    assert r.returncode == 1 and "REFUTED" in r.stdout and r.stderr == ""


def test_check_writes_no_state_into_the_working_directory(tmp_path):
    r = tacc(["check", "llm-residual", "--seeds", "1", "--policy", "tacc", "--evidence", "2", "--no-progress"],
             tmp_path)
    assert r.returncode == 0, r.stderr
    assert not list(tmp_path.iterdir())


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
    """gamma = 1e300 > 0 is a valid instance (N_gamma = 1, every 1 / gamma^2 term 0); ``tacc bounds`` and
    ``tacc explain`` crashed on it (OverflowError, exit 3) while simulate accepted it."""
    r = tacc([command, _config(tmp_path, "ghuge", "gamma = 0.1", "gamma = 1e300")], tmp_path)
    assert r.returncode == 0, r.stderr
    if command == "bounds":
        assert re.search(r"^n_gamma +1 ", r.stdout, re.M), r.stdout


@pytest.mark.parametrize("mu_high", ["[1e-155, 0.0]", "[1e-300, 0.5e-300, 0.0]", "[5e-324, 0.0]", "[1e-310, 0.0]"])
@pytest.mark.parametrize("command", [["bounds"], ["check", "--seeds", "2"], ["explain"], ["report", "--seeds", "2"]])
def test_a_gap_whose_count_bound_is_past_the_floats_is_refused_when_read(command, mu_high, tmp_path):
    """A gap below about 1e-154 (ceil(4 ell / gap^2) past the largest float) or a subnormal one was accepted, then
    bounds, explain and report crashed (exit 3: OverflowError in the tables, ValueError in the RDFE bound) and so
    did check (OverflowError in a measurement): now refused when the configuration is read, exit 2, naming
    instance.mu_high and the count bound, nothing written."""
    cfg = _config(tmp_path, "tiny", "mu_high = [0.9, 0.5, 0.4]", f"mu_high = {mu_high}")
    run_dir = tmp_path / "cwd"
    run_dir.mkdir()
    _one_line(tacc([command[0], cfg, *command[1:]], run_dir), 2, "instance.mu_high[", "ceil(4 ell / gap^2)",
              "exceed the largest float")
    assert not list(run_dir.iterdir()), "a refused command wrote into the working directory"


@pytest.mark.parametrize("command", [["bounds"], ["check", "--seeds", "2"], ["explain"], ["report", "--seeds", "2"],
                                     ["simulate", "--policy", "tacc", "--seeds", "2"]])
def test_drawn_means_whose_gap_count_bound_is_past_the_floats_are_refused_before_any_work(command, tmp_path):
    """Drawn means (uniform on [0, 1e-300]) were not checked when read (drawing 10^9 arms there came before the
    memory check) and every command crashed on them with exit 3; now refused once drawn, before any work: exit 2
    naming instance.means.high, nothing written."""
    cfg = _config(tmp_path, "drawn", "mu_high = [0.9, 0.5, 0.4]",
                  'means = { distribution = "uniform", low = 0.0, high = 1e-300, n_arms = 3 }')
    run_dir = tmp_path / "cwd"
    run_dir.mkdir()
    _one_line(tacc([command[0], cfg, *command[1:]], run_dir), 2, "instance.means.high = 1e-300", "draws arm",
              "exceed the largest float")
    assert not list(run_dir.iterdir()), "a refused command wrote into the working directory"


@pytest.mark.parametrize("command", ["bounds", "explain"])
def test_a_gap_just_above_the_float_limit_is_shown(command, tmp_path):
    """A gap of 8.6e-154, just above the limit: its count bound (about 1.8e308) is a float, shown as one."""
    r = tacc([command, _config(tmp_path, "edge", "mu_high = [0.9, 0.5, 0.4]", "mu_high = [8.6e-154, 0.0]")],
             tmp_path)
    assert r.returncode == 0, r.stderr
    assert "e+308" in r.stdout, r.stdout


def test_bounds_of_an_s0_past_the_horizon_is_cut_there(tmp_path):
    """S0 = 2**40 with T = 1000: ``tacc bounds`` tried to allocate 8 TiB (exit 3); the continuation window is now
    evaluated at the states below T only, and the summary says so."""
    r = tacc(["bounds", _config(tmp_path, "s0tb", "s0 = 10", "s0 = 1099511627776")], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "The window was cut at the horizon: S0 = 1099511627776 exceeds T = 1000" in r.stdout


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
    from reports._figure_memo import FigureMemoWarning

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


def test_a_scheduler_address_that_does_not_parse_exits_2_naming_the_option(tmp_path):
    """``--scheduler notanaddress``: exit 3 "internal error: ValueError: missing port number" before; now the
    option, the value and why, before any run."""
    r = tacc(["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2", "--executor", "dask",
              "--scheduler", "notanaddress"], tmp_path)
    line = _one_line(r, 2, "--scheduler", "'notanaddress'", "missing port number")
    assert line.startswith("tacc: error: --scheduler")


@pytest.mark.parametrize("command", ["simulate", "check", "report", "reproduce"])
def test_workers_with_the_serial_executor_exits_2_naming_the_option(tmp_path, command):
    """``--workers 4 --executor serial`` made every run in this process and said nothing, while ``--scheduler``
    without ``--executor dask`` is refused: --workers is refused the same way, on every command that has both
    options (one line, exit 2, nothing written)."""
    args = {"simulate": ["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2"],
            "check": ["check", "llm-residual", "--seeds", "2"],
            "report": ["report", "llm-residual", "--seeds", "2", "--out", "r"],
            "reproduce": ["reproduce", "decay", "--quick", "--out", "r"]}[command]
    r = tacc([*args, "--executor", "serial", "--workers", "4", "--cache", "c"], tmp_path)
    line = _one_line(r, 2, "--workers", "4", "--executor processes or dask", "serial")
    assert line.startswith("tacc: error: --workers") and r.stdout == ""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["simulate", "check", "report", "reproduce"])
def test_workers_with_a_dask_scheduler_exits_2_naming_the_option(tmp_path, command):
    """``--workers 4 --executor dask --scheduler ADDRESS`` was ignored in silence (the cluster's workers are the
    scheduler's): refused as with the serial executor, before the scheduler is connected to (one line, exit 2,
    nothing written)."""
    args = {"simulate": ["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2"],
            "check": ["check", "llm-residual", "--seeds", "2"],
            "report": ["report", "llm-residual", "--seeds", "2", "--out", "r"],
            "reproduce": ["reproduce", "decay", "--quick", "--out", "r"]}[command]
    r = tacc([*args, "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9", "--workers", "4", "--cache", "c"],
             tmp_path)
    line = _one_line(r, 2, "--workers = 4", "--scheduler", "the scheduler's")
    assert line.startswith("tacc: error: --workers") and r.stdout == ""
    assert list(tmp_path.iterdir()) == []


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


@pytest.mark.parametrize("args, reason", [
    (["check", "llm-residual", "--seeds", "2", "--junit", "-"], "must name a file"),
    (["check", "llm-residual", "--seeds", "2", "--json", "o.json", "--junit", "o.json"], "is the file --json writes"),
    (["check", "llm-residual", "--seeds", "2", "--json", "o.json", "--junit", "./o.json"], "is the file --json writes"),
])
def test_a_junit_path_that_is_not_its_own_file_exits_2(tmp_path, args, reason):
    """``--junit -`` wrote a file named "-"; ``--json o1.json --junit o1.json`` wrote the JSON, then the JUnit XML
    over it, exit 0 (a README-only user): now one line naming --junit, exit 2, nothing written."""
    before = sorted(tmp_path.iterdir())
    r = tacc(args, tmp_path)
    _one_line(r, 2, "--junit", reason)
    assert sorted(tmp_path.iterdir()) == before


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


@pytest.mark.parametrize("command", ["simulate", "report"])
def test_a_scheduler_address_of_another_service_exits_2_naming_the_option(tmp_path, command):
    """``--scheduler`` at an SSH server (a local one in a thread, sending its banner): distributed read the banner
    as a frame length and the command ended with exit 3 "internal error: MemoryError: Unable to allocate 2.82 EiB";
    now one line naming the option and saying no Dask scheduler answered there, exit 2, nothing written."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted = []

    def serve():
        while True:
            try:
                c, _ = server.accept()
            except OSError:
                return
            accepted.append(c)
            c.sendall(b"SSH-2.0-OpenSSH_9.0\r\n")

    threading.Thread(target=serve, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    args = {"simulate": ["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2", "--cache", "c"],
            "report": ["report", "llm-residual", "--seeds", "2", "--out", "r", "--cache", "c"]}[command]
    try:
        r = tacc([*args, "--executor", "dask", "--scheduler", address], tmp_path)
    finally:
        for s in [server, *accepted]:
            s.close()
    line = _one_line(r, 2, "--scheduler", address, "no Dask scheduler answered there", "another service")
    assert line.startswith("tacc: error: --scheduler") and r.stdout == ""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("executor", ["serial", "processes"])
@pytest.mark.parametrize("sig, status, word", [("SIGTERM", 143, "terminated"), ("SIGINT", 130, "interrupted")])
def test_a_run_of_hours_in_this_process_stops_at_a_signal(tmp_path, executor, sig, status, word):
    # the README's example with two arms 1e-9 apart, lambda_L = 1e-9, delta = 1e-12: one RDFE run of ~1e14
    # queries in the compiled loop, in the main thread (serial, or one worker: the parent runs it); `timeout 8`
    # needed SIGKILL after 18 s (exit 137) and Ctrl-C did nothing
    import signal
    import time
    hours = (BASE.replace("[0.9, 0.5, 0.4]", "[0.5, 0.499999999, 0.4]").replace("low = 1.0", "low = 1e-9")
             .replace("budget = 1000", "budget = 100000\ndelta = 1e-12"))
    (tmp_path / "hours.toml").write_text(hours)
    proc = subprocess.Popen([TACC, "simulate", str(tmp_path / "hours.toml"), "--policy", "rdfe", "--seeds", "1",
                             "--no-progress", "--executor", executor]
                            + (["--workers", "1"] if executor == "processes" else []),   # refused with serial
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        first = proc.stderr.readline()                  # the estimate line, printed before the run
        time.sleep(2.0)
        proc.send_signal(getattr(signal, sig))
        t = time.monotonic()
        err = proc.communicate(timeout=30)[1]
    finally:
        proc.kill()
    assert time.monotonic() - t < 10
    assert "Ctrl-C stops it" in first
    assert proc.returncode == status, err
    assert err.strip().splitlines() == [f"tacc simulate: {word}"], err


def test_runs_out_without_to_is_refused_naming_both(tmp_path):
    """`tacc runs DIR --out X` without --to printed the summary, exit 0, and wrote nothing to X: the option the user
    gave was ignored in silence. Refused before any work (exit 2, one line naming --out and --to, X not made); with
    --to it writes there as before."""
    cache = tmp_path / "cache"
    assert tacc(["simulate", _config(tmp_path, "ok"), "--policy", "tacc", "--seeds", "2", "--cache", str(cache)],
                tmp_path).returncode == 0
    out = tmp_path / "tables"
    line = _one_line(tacc(["runs", str(cache), "--out", str(out)], tmp_path), 2, "--out", str(out), "--to")
    assert line.startswith(f"tacc: error: --out = '{out}': ") and not out.exists()
    r = tacc(["runs", str(cache), "--out", str(out), "--to", "csv"], tmp_path)
    assert r.returncode == 0 and (out / "runs.csv").is_file()
    r = tacc(["runs", str(cache)], tmp_path)                  # no --out, no --to: the summary, nothing written
    assert r.returncode == 0 and not (tmp_path / "tacc-runs").exists()


def _tree(root: Path) -> list:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


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
])
def test_no_output_is_written_over_an_input(tmp_path, args, option, what):
    """``tacc bounds k2.toml --json k2.toml`` wrote the JSON over the configuration, ``--baseline acc.json --json
    acc.json`` over the baseline, ``check k2.toml --reproducers .`` k2's reproducer over k2.toml, exit 0 (a README-only
    user): now one line naming the option, exit 2, every file as it was."""
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


@pytest.mark.parametrize("args, command", [(["report", "--json", "-"], "report"), (["bounds", "set-a", "--bogus"],
                                                                                    "bounds")])
def test_an_argument_the_command_does_not_take_points_to_the_commands_help(tmp_path, args, command):
    """``tacc report --json -`` said "unrecognized arguments: --json - (see tacc --help)": the top-level help, which
    lists no option of report (a README-only user); now the command's parser refuses it."""
    r = tacc(args, tmp_path)
    line = _one_line(r, 2, "unrecognized arguments")
    assert line.startswith(f"tacc {command}: error:") and line.endswith(f"(see tacc {command} --help)")


def test_a_file_option_ending_in_a_slash_is_a_folder_and_refused(tmp_path):
    """``--json nd/`` (no such folder) wrote a file named nd, exit 0 (a README-only user)."""
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
    (IsADirectoryError, FileExistsError; a README-only user); now one line, exit 2, nothing made."""
    (tmp_path / "k2.toml").write_text("name = \"k2\"\n" + "\n".join(
        line for line in _preset_text("llm-residual").splitlines() if not line.startswith("name")))
    before = sorted(tmp_path.iterdir())
    r = tacc(args, tmp_path)
    _one_line(r, 2)
    assert sorted(tmp_path.iterdir()) == before


def test_the_printed_reproducer_command_reruns_the_violation(tmp_path):
    """The command a reproducer prints, pasted as printed, reads the reproducer in ./tacc-check-reproducers/ and would
    write it there again: refused as an output over an input (exit 2) after the fix for that; the same bytes written
    again are no overwrite, so it reruns the violation (exit 1)."""
    import re
    import shlex
    wide = "\n".join(['name = "wide"', "[instance]", "mu_high = [3.0, 0.5, 0.0]", "[instance.low]",
                      'model = "power_decay"', "zeta = 0.2", "r = 0.5", "[costs]", "low = 1.0", "high = 10.0",
                      "[params]", "budget = 20000", "delta = 0.05", 'rho = "min"', "gamma = 0.063", "eta = 1e-4",
                      "s0 = 10"])
    (tmp_path / "wide.toml").write_text(wide + "\n")
    first = tacc(["check", "wide.toml", "--policy", "rdfe", "--seeds", "0:1", "--evidence", "0"], tmp_path)
    assert first.returncode == 1, first.stderr
    command = re.search(r"(tacc check tacc-check-reproducers/\S+ --policy rdfe --seeds \S+ --evidence 0)",
                        first.stdout)[1]
    again = tacc(shlex.split(command)[1:], tmp_path)
    assert again.returncode == 1, again.stderr
