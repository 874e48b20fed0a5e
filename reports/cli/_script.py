"""The ``tacc`` console script: a Ctrl-C or a SIGTERM at any moment from its first line to the process's exit either
leaves the command's end as it was (its output, its exit status) or ends it with the one line of an interrupted
command (``tacc COMMAND: interrupted``, exit 130, or ``terminated``, 143), never a traceback or a silent death."""

from __future__ import annotations

import sys

from reports.cli._interrupted import stopped
from reports.cli._registry import stopped_name
from reports.cli._signals import SignalsTaken, Terminated, drop_printed_interrupts, ignore_to_the_exit

__all__ = ["script"]


def script() -> int:
    """Run the command line (``reports.cli.main``, whose work imports numpy and the toolkit); returns its exit
    status, or 130 (Ctrl-C) or 143 (SIGTERM) with one line when a signal came before the end was decided. From the
    first line SIGTERM raises ``Terminated``, both signals are recorded (``SignalsTaken``; a signal whose exception
    C code dropped still ends the command interrupted) and such a dropped exception is not printed
    (``drop_printed_interrupts``); ``reports.cli.main`` installs its own handlers for the work and puts these back;
    once the status is known both signals are ignored to the exit (``ignore_to_the_exit``). Stdlib only until the
    command runs."""
    argv = sys.argv[1:]
    taken = SignalsTaken()
    try:
        try:
            drop_printed_interrupts()
            taken.take()
            from reports.cli._main import main
            status = main(argv)
        finally:
            ignore_to_the_exit()
    except KeyboardInterrupt as exc:      # after a SIGTERM (its Terminated dropped), a later Ctrl-C: terminated
        return stopped(stopped_name(argv), isinstance(exc, Terminated) or taken.terminated, exc)
    if taken.lost(status):
        return stopped(stopped_name(argv), taken.terminated)
    return status


