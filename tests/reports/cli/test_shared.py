"""What every ``tacc`` command shares (``reports/cli/_main.py``, ``_parser.py``, ``_options.py``, ``_files.py``,
``_signals.py``, ``_interrupted.py``, ``_registry.py``): exit statuses, the parser and its did-you-mean suggestions,
signals and interrupts, the shared options and path checks, the registry, internal errors and warnings.

The tests through the installed console script run as a user would: a subprocess, in a temporary working directory
(issue 13: exit 2 with one line on standard error naming the field or option, exit 3 with one line for an internal
error, never a traceback)."""

import functools
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from reports.cli import main
from tests.reports.cli._helpers import BASE, TACC, _config, _one_line, tacc


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
    # an abbreviated option is refused: --seed was taken for --seeds, and "3" ran seeds 0, 1, 2 (a README-only user)
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


@pytest.mark.parametrize("delay", [0.3, 1.0, 2.5])
def test_ctrl_c_at_any_moment_ends_with_one_line(tmp_path, delay):
    # a terminal's Ctrl-C reaches the whole process group: while the command line imported its libraries, and
    # while the figures' helper or a worker was starting, it printed KeyboardInterrupt tracebacks (and an
    # interrupted report waited 36 s for a worker that had not taken the signal)
    import os
    import signal
    import time
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from reports.cli import script; sys.exit(script())",
                             "report", "--seeds", "50", "--out", str(tmp_path / "r")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            # Ctrl-C as a terminal gives it: a test runner started in the background (`cmd &` in a
                            # script) ignores SIGINT, and a child would inherit that and never see the signal
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1].endswith("interrupted"), err
    assert not list(tmp_path.rglob("*.partial"))


@pytest.mark.parametrize("delay", [0.6, 1.2, 2.0, 4.0])
def test_ctrl_c_with_the_dask_executor_ends_with_one_line(tmp_path, delay):
    # `--executor dask` interrupted printed 69 lines: distributed's warnings, the tracebacks of "Process Dask
    # Worker process (from Nanny)" (the workers took the Ctrl-C, sent to the whole process group) and a nanny's
    # error; interrupted while the cluster started, the nannies logged "Restarting worker" after the line
    import os
    import signal
    import time
    pytest.importorskip("distributed")
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from reports.cli import script; sys.exit(script())",
                             "simulate", "set-a", "--policy", "tacc", "--seeds", "0:400", "--executor", "dask",
                             "--workers", "2", "--cache", str(tmp_path / "c")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            # Ctrl-C as a terminal gives it (a test runner in the background ignores SIGINT)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130, err
    assert err.splitlines() == ["tacc simulate: interrupted"], err
    deadline = time.monotonic() + 10                     # and no worker or nanny is left
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("a process of the command's group outlived it")


@pytest.mark.parametrize("delay, group", [(1.0, False), (3.0, True)])
def test_sigterm_is_taken_as_ctrl_c_with_one_line(tmp_path, delay, group):
    # `timeout 20 tacc report` (SIGTERM to the process and its group): no line was printed, the exit status was
    # -15, and multiprocessing's resource tracker printed "There appear to be 5 leaked semaphore objects"
    import os
    import signal
    import time
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from reports.cli import script; sys.exit(script())",
                             "report", "--seeds", "50", "--out", str(tmp_path / "r")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(delay)
    if group:
        os.killpg(proc.pid, signal.SIGTERM)
    else:
        proc.send_signal(signal.SIGTERM)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 143, err
    lines = err.strip().splitlines()
    assert lines and lines[-1] == "tacc report: terminated", err
    assert "Traceback" not in err and "leaked" not in err, err
    assert not list(tmp_path.rglob("*.partial"))


@pytest.mark.parametrize("sig, word", [("SIGTERM", "terminated"), ("SIGINT", "interrupted")])
@pytest.mark.parametrize("argv, name", [(["bounds"], "tacc bounds"), (["--debug", "report", "--seeds", "3"],
                                                                       "tacc report"),
                                        (["reprot", "bounds"], "tacc")])
def test_a_signal_while_the_command_line_imports_ends_with_one_line(sig, word, argv, name):
    # a SIGTERM before reports.cli.main installed its handler (the import of its libraries takes over a second on
    # a loaded machine) killed the process silently: exit -15, no line; then the line said `tacc: interrupted`
    # where the README promises `tacc COMMAND: interrupted` (the command is named when argv names one: its first
    # argument that is not an option)
    import signal
    code = ("import os, signal, sys\n"
            "class Kill:\n"                       # a finder that sends the signal when reports.cli is imported
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'bounds':\n"
            f"            os.kill(os.getpid(), signal.{sig})\n"
            "        return None\n"
            "sys.meta_path.insert(0, Kill())\n"
            "from reports.cli import script\n"
            "sys.exit(script())\n")
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=60,
                          # Ctrl-C as a terminal gives it (a test runner in the background ignores SIGINT)
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.returncode == 128 + getattr(signal, sig), proc.stderr
    assert proc.stderr.strip().splitlines() == [f"{name}: {word}"], proc.stderr


@pytest.mark.parametrize("argv, name", [(["bounds", "set-a"], "tacc bounds"), (["--debug", "proofs"], "tacc proofs"),
                                        (["--debug"], "tacc"), (["nosuch", "report"], "tacc"), ([], "tacc")])
def test_an_interrupt_while_the_arguments_are_parsed_names_the_command(monkeypatch, capsys, argv, name):
    """A Ctrl-C or SIGTERM while the parser imports what a subcommand's arguments list said `tacc: interrupted`:
    the command is named when argv names one (its first argument that is not an option), as after parsing."""
    import signal

    from reports import cli
    from reports.cli import COMMANDS, stopped_name

    assert COMMANDS == tuple(next(a for a in cli.build_parser()._actions if a.dest == "command").choices)
    for sig, status, word in ((signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")):
        class Parser:
            def parse_args(self, args, sig=sig):
                if sig == signal.SIGTERM:
                    signal.raise_signal(sig)          # the command line's handler raises its interrupt
                raise KeyboardInterrupt
        monkeypatch.setattr("reports.cli._main.build_parser", Parser)
        assert main(argv) == status
        assert capsys.readouterr().err == f"{name}: {word}\n"
    assert stopped_name(["--version"]) == "tacc" and stopped_name(["explain", "bench"]) == "tacc explain"


def test_sigterm_handler_is_restored_after_the_command(monkeypatch, capsys):
    """The command line's SIGTERM handler lives only while a command runs (library use keeps its own)."""
    import signal
    before = signal.getsignal(signal.SIGTERM)
    seen = []

    def command(args, options):
        seen.append(signal.getsignal(signal.SIGTERM))
        signal.raise_signal(signal.SIGTERM)
        raise AssertionError("not reached: SIGTERM ends the command")
    monkeypatch.setattr("reports.cli.bounds.run", command)
    assert main(["bounds", "set-a"]) == 143
    assert capsys.readouterr().err == "tacc bounds: terminated\n"
    assert seen and seen[0] is not before and signal.getsignal(signal.SIGTERM) is before


def test_an_interrupt_or_error_ends_every_child_process(monkeypatch, capsys):
    # `tacc report` interrupted on a full cache printed "interrupted", then Python's exit waited forever for two
    # idle workers of a pool nobody shut down (its sweep's generator was not closed): the command line now kills
    # its children before it returns
    import multiprocessing

    from simulate._runner import _Pool
    workers = []

    def stopped(args, options):
        pool = _Pool("processes", 2, None)
        pool.start()                                     # (a pool starts with its first task)
        workers.extend(pool.pool._processes.values())
        assert len(workers) == 2 and all(p.is_alive() for p in workers)
        raise KeyboardInterrupt
    monkeypatch.setattr("reports.cli.bounds.run", stopped)
    assert main(["bounds", "set-a"]) == 130
    assert not any(p.is_alive() for p in workers)
    assert not set(workers) & set(multiprocessing.active_children())
    assert capsys.readouterr().err == "tacc bounds: interrupted\n"


@pytest.fixture
def quick_connect(monkeypatch):
    """``simulate.connect`` (the command's and the runner's) giving up after 0.3 s instead of 10 s."""
    import simulate
    import simulate._runner as runner
    quick = functools.partial(runner.connect, timeout=0.3)
    monkeypatch.setattr(simulate, "connect", quick)
    monkeypatch.setattr(runner, "connect", quick)


def test_a_scheduler_that_does_not_answer_exits_2_naming_the_option(quick_connect, capsys):
    # `--scheduler tcp://127.0.0.1:1`: exit 3 "internal error: OSError: Timed out trying to connect" after 30 s
    port = _closed_port()
    status = main(["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2", "--executor", "dask",
                   "--scheduler", f"tcp://127.0.0.1:{port}", "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert err == [f"tacc: error: --scheduler = 'tcp://127.0.0.1:{port}': no Dask scheduler answered there within "
                   f"0.3 s; is one running at that address?"]


def _closed_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tree(root: Path) -> list:
    """Every path under ``root``, relative to it, with its bytes (None for what is not a file)."""
    return sorted((str(p.relative_to(root)), p.read_bytes() if p.is_file() else None) for p in root.rglob("*"))


#: every command that takes --scheduler, on little work; the options naming its output folders
_SCHEDULED = {"check": (["check", "set-a", "--seeds", "2", "--evidence", "0", "--policy", "tacc"], ["--cache"]),
              "simulate": (["simulate", "set-a", "--policy", "tacc", "--seeds", "2"], ["--cache"]),
              "reproduce": (["reproduce", "decay", "--quick"], ["--out", "--cache"]),
              "report": (["report", "--seeds", "2"], ["--out", "--cache"])}


@pytest.mark.parametrize("command", list(_SCHEDULED))
@pytest.mark.parametrize("address", ["notanaddress", "closed"])
@pytest.mark.parametrize("folders", ["default", "existing"])
def test_a_refused_scheduler_writes_nothing(command, address, folders, tmp_path, monkeypatch, quick_connect,
                                            capsys):
    """Exit 2 for a scheduler that does not parse or does not answer says "nothing was run": nothing is written
    either. The commands left CACHE/configs/*.json (saved before the first run was handed to the scheduler) and
    an empty output folder (``tacc reproduce`` made it first); an existing folder given to --out or --cache is left
    as it was, and the default ones (./tacc-report, ./tacc-reproduce) are not made."""
    monkeypatch.chdir(tmp_path)
    args, options = _SCHEDULED[command]
    args = [*args, "--executor", "dask", "--no-progress"]
    if folders == "existing":
        for option in options:
            folder = tmp_path / option.strip("-")
            (folder / "configs").mkdir(parents=True)
            (folder / "configs" / "mine.json").write_text("{}")
            (folder / "notes.txt").write_text("mine")
            args += [option, str(folder)]
    address = f"tcp://127.0.0.1:{_closed_port()}" if address == "closed" else address
    before = _tree(tmp_path)
    assert main([*args, "--scheduler", address]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"tacc: error: --scheduler = '{address}': ")
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("args, option", [
    (["simulate", "set-a", "--policy", "tacc", "--executor", "processes", "--scheduler", "tcp://h:8786"],
     "--scheduler = 'tcp://h:8786': is used only with --executor dask (the executor is processes"),
    (["check", "set-a", "--scheduler", "tcp://h:8786"],
     "--scheduler = 'tcp://h:8786': is used only with --executor dask (the executor is serial"),
    (["report", "--from", ".", "--out", "../out", "--executor", "dask", "--scheduler", "tcp://h:8786"],
     "--scheduler = 'tcp://h:8786': makes no run with --from"),
    (["report", "--from", ".", "--out", "../out", "--cache", "c"], "--cache = 'c': makes no run with --from"),
])
def test_a_scheduler_or_cache_the_runs_would_not_use_is_refused(args, option, tmp_path, monkeypatch, capsys):
    """--scheduler without --executor dask was ignored without a word (the runs were made here); with
    ``report --from`` no run is made, so neither a scheduler nor a cache is used."""
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tacc: error: {option}") and err.count("\n") == 1
    assert not list(tmp_path.iterdir())


#: a child that runs the console script's ``main`` with a signal (SIGINT or SIGTERM) sent at one moment of its life:
#: just before or just after the N-th call of ``signal.signal`` (the handlers installed, put back and, at the end, set
#: aside), when ``reports.cli.main`` has returned, in an exit function (``atexit``) or while Python finalizes its
#: modules (after it stopped handling signals: a default SIGINT killed the process there, with no line)
_LATE_SIGNAL = """\
import atexit, os, signal, sys
moment, sig = sys.argv.pop(1), sys.argv.pop(1)
kill, pid, signum = os.kill, os.getpid(), getattr(signal, sig)
if moment.startswith("call"):
    real, calls, (when, n) = signal.signal, [], moment[4:].split("-")
    def counting(*a):
        calls.append(a)
        if when == "before" and len(calls) == int(n):
            kill(pid, signum)
        previous = real(*a)
        if when == "after" and len(calls) == int(n):
            kill(pid, signum)
        return previous
    signal.signal = counting
elif moment == "returned":
    import reports.cli._main
    cli_main = reports.cli._main.main
    def returned(*a):
        status = cli_main(*a)
        kill(pid, signum)
        return status
    reports.cli._main.main = returned
elif moment == "atexit":
    atexit.register(kill, pid, signum)
elif moment == "finalizing":
    class Late:
        def __del__(self, kill=kill, pid=pid, signum=signum):
            kill(pid, signum)
    late = Late()
from reports.cli import script
sys.exit(script())
"""


_SIGNALS = [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")]


_MOMENTS = [f"call{when}-{n}" for when in ("before", "after") for n in range(1, 9)] + ["returned", "atexit",
                                                                                        "finalizing"]


@pytest.mark.parametrize("moment, sig, status, word", [(m, *s) for m in _MOMENTS for s in _SIGNALS
                                                       if (m, s[0]) != ("callbefore-1", "SIGTERM")])
def test_a_signal_from_the_first_line_to_the_exit_ends_the_command_or_interrupts_it(moment, sig, status, word):
    # `timeout -s INT 0.3 tacc reprot` ended with a traceback from `with _SigtermAsInterrupt()` (its
    # `signal.signal`), outside any `try`; a Ctrl-C after the output, once Python's exit restored the default
    # handler, killed the process silently (return code -2, or 130 after `tacc reprot`'s usage error, no line).
    # Either the command completed (its status, nothing more on standard error) or it was interrupted (its line,
    # 130 or 143). A SIGTERM before the first call (the toolkit's first line) finds no handler: as during Python's
    # start, it kills the process (the README says so): not tried
    import signal
    proc = subprocess.run([sys.executable, "-c", _LATE_SIGNAL, moment, sig, "bounds", "set-b"], capture_output=True,
                          text=True, timeout=120,
                          # Ctrl-C as a terminal gives it (a test runner in the background ignores SIGINT)
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert (proc.returncode, proc.stderr) in ((0, ""), (status, f"tacc bounds: {word}\n")), (proc.returncode,
                                                                                             proc.stderr)
    if moment in ("returned", "atexit", "finalizing"):         # after the command's output
        assert "N_gamma" in proc.stdout, proc.stdout


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
    """A preset name or the repository's baseline misspelled read as a missing file with no word of the name meant
    (a README-only user): exit 2, one line, the nearest suggested; none when none is near."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "neither a file nor a preset" in err or "no such file" in err
    assert (hint in err) if hint else "did you mean" not in err


@pytest.mark.parametrize("argv, shared", [
    (["simulate", "set-a", "--policy", "tacc", "--json", "s.json", "--cache", "c"],
     dict(executor="serial", cache="c", seeds="0:10", json="s.json")),
    (["check", "set-a", "--executor", "processes", "--workers", "2", "--no-progress"],
     dict(executor="processes", workers=2, progress=False, seeds="10")),
    (["bounds", "set-a", "--json", "-"], dict(json="-")),
    (["reproduce", "set-a", "--seeds", "3"], dict(executor="processes")),   # its --seeds counts per experiment
    (["bench", "--workers", "3"], dict(workers=3)),
])
def test_the_shared_options_are_read_once_and_are_none_where_a_command_has_none(argv, shared):
    from reports.cli import Options, build_parser

    assert Options.from_args(build_parser().parse_args(argv)) == Options(**shared)


def test_a_command_gets_the_options_its_files_were_checked_with(monkeypatch):
    from reports.cli import Files, Options

    seen = []
    monkeypatch.setattr("reports.cli.bounds.files", lambda args, options: seen.append(options) or Files())
    monkeypatch.setattr("reports.cli.bounds.run", lambda args, options: seen.append(options) or 0)
    assert main(["bounds", "set-a", "--json", "x.json"]) == 0
    assert seen[0] is seen[1] and seen[0] == Options(json="x.json")


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
