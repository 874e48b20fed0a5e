"""reports/cli/_signals.py: a signal whose exception C code drops still ends the command, with one line."""

import signal
import subprocess
import sys

import pytest

from reports.cli._signals import SignalsTaken, Terminated

# The signal is sent to the process from Python code that C code runs and whose exception that C code drops, while
# `tacc bounds set-b` works (inside reports.cli.main, at its files check): as numpy's import_array (run by a C
# extension's import) printed a SIGTERM's Terminated with PyErr_Print, bare, then raised an ImportError (CI: a
# "Traceback ... raise Terminated" above the command's line), and as functions like PyObject_HasAttr clear any
# error (CI: a Ctrl-C after which `tacc report` ran on to exit 0).
_DROPPED = """\
import ctypes, os, signal, sys
import reports.cli._files
how, sig = sys.argv.pop(1), sys.argv.pop(1)
send = f"import os, signal\\nos.kill(os.getpid(), signal.{sig})\\nfor _ in range(3): pass\\n"
check_files = reports.cli._files.check_files

class Probe:
    def __getattr__(self, name):
        exec(send)
        return 1

class Freed:
    def __del__(self):
        exec(send)

def dropping(files):
    if how == "printed":          # PyErr_Print: a bare traceback through sys.excepthook, and -1
        assert ctypes.pythonapi.PyRun_SimpleString(send.encode()) == -1
    elif how == "finalizer":      # a __del__ (z3's objects free themselves there): sys.unraisablehook
        Freed()
    else:                         # cleared: PyObject_HasAttr answers 0 and drops the exception
        ctypes.pythonapi.PyObject_HasAttr.restype = ctypes.c_int
        assert ctypes.pythonapi.PyObject_HasAttr(ctypes.py_object(Probe()), ctypes.py_object("x")) == 0
    for _ in range(3): pass
    print("the command went on", file=sys.stderr)
    return check_files(files)
reports.cli._files.check_files = dropping
from reports.cli import script
sys.exit(script())
"""


@pytest.mark.parametrize("sig, status, word", [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")])
@pytest.mark.parametrize("how", ["printed", "finalizer", "cleared"])
def test_a_signal_whose_exception_c_code_dropped_ends_the_command_with_one_line(how, sig, status, word):
    proc = subprocess.run([sys.executable, "-c", _DROPPED, how, sig, "bounds", "set-b"], capture_output=True,
                          text=True, timeout=120,
                          # Ctrl-C as a terminal gives it (a test runner in the background ignores SIGINT)
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # the command went on (its work done), then its end read the record: late, not lost, and nothing else printed
    assert (proc.returncode, proc.stderr) == (status, f"the command went on\ntacc bounds: {word}\n")


def test_signals_taken_records_each_signal_and_raises_as_before():
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        taken = SignalsTaken()
        with taken:
            with pytest.raises(KeyboardInterrupt) as info:
                signal.raise_signal(signal.SIGINT)
            assert type(info.value) is KeyboardInterrupt and taken.interrupted and not taken.terminated
            with pytest.raises(Terminated):
                signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGTERM)               # a second SIGTERM, during the clean-up: ignored
            assert taken.terminated
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler          # put back
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("interrupted, terminated, status, lost", [
    (False, False, 0, False), (True, False, 0, True), (False, True, 1, True), (True, False, 2, True),
    (True, False, 130, False), (False, True, 143, False), (False, False, 130, False)])
def test_a_signal_is_lost_when_the_command_ended_otherwise(interrupted, terminated, status, lost):
    taken = SignalsTaken()
    taken.interrupted, taken.terminated = interrupted, terminated
    assert taken.lost(status) is lost


def test_sigint_ignored_is_left_ignored():
    # a command started in the background (`cmd &` in a script) ignores SIGINT: recording it would make it live
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with SignalsTaken():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            signal.raise_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)
