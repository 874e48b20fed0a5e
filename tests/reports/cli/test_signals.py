"""Signals and interrupts on the ``tacc`` command line (``reports/cli/_script.py``, ``_main.py``, ``_signals.py``,
``_interrupted.py``): a Ctrl-C or SIGTERM at any moment ends a command with one line (exit 130 or 143), or leaves its
end as it was, and leaves no process behind."""

import os
import subprocess
import sys

import pytest

from reports.cli import main
from tests.reports.cli._helpers import BASE, TACC


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.3, 1.0, 2.5])
def test_ctrl_c_at_any_moment_ends_with_one_line(tmp_path, delay):
    # a terminal's Ctrl-C reaches the whole process group, while the command line imports its libraries, while the
    # figures' helper or a worker starts, or later: one line, exit 130, no traceback, no worker waited for. The
    # report is long (3,000 seeds) so that the signal always comes while it works, even on a quiet machine.
    import signal
    import time
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from reports.cli import script; sys.exit(script())",
                             "report", "--seeds", "3000", "--out", str(tmp_path / "r")], stdout=subprocess.DEVNULL,
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


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.6, 1.2, 2.0, 4.0])
def test_ctrl_c_with_the_dask_executor_ends_with_one_line(tmp_path, delay):
    # `--executor dask` interrupted printed 69 lines: distributed's warnings, the tracebacks of "Process Dask
    # Worker process (from Nanny)" (the workers took the Ctrl-C, sent to the whole process group) and a nanny's
    # error; interrupted while the cluster started, the nannies logged "Restarting worker" after the line
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


@pytest.mark.slow
@pytest.mark.parametrize("delay, group", [(1.0, False), (3.0, True)])
def test_sigterm_is_taken_as_ctrl_c_with_one_line(tmp_path, delay, group):
    """`timeout 20 tacc report` (SIGTERM to the process and its group) ends with one line and exit 143, and no
    leaked semaphore warning from multiprocessing's resource tracker. The report is made long (3,000 seeds, several
    seconds on a quiet machine) so that the signal comes while it works: a signal after the command has finished is
    ignored by design, and 50 seeds finished within the 3 s on a quiet machine."""
    import signal
    import time
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from reports.cli import script; sys.exit(script())",
                             "report", "--seeds", "3000", "--out", str(tmp_path / "r")], stdout=subprocess.DEVNULL,
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

    from simulate._pool import Pool
    workers = []

    def stopped(args, options):
        pool = Pool("processes", 2, None)
        pool.start()                                     # (a pool starts with its first task)
        workers.extend(pool.pool._processes.values())
        assert len(workers) == 2 and all(p.is_alive() for p in workers)
        raise KeyboardInterrupt
    monkeypatch.setattr("reports.cli.bounds.run", stopped)
    assert main(["bounds", "set-a"]) == 130
    assert not any(p.is_alive() for p in workers)
    assert not set(workers) & set(multiprocessing.active_children())
    assert capsys.readouterr().err == "tacc bounds: interrupted\n"


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


@pytest.mark.slow
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
