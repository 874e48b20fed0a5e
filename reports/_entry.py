"""The ``tacc`` console script: a Ctrl-C or a SIGTERM at any moment from its first line to the process's exit either
leaves the command's end as it was (its output, its exit status) or ends it with the one line of an interrupted
command (``tacc COMMAND: interrupted``, exit 130, or ``terminated``, 143), never a traceback or a silent death."""

from __future__ import annotations

import sys

from reports._interrupted import stopped
from reports._signals import SignalsTaken, Terminated, drop_printed_interrupts, ignore_to_the_exit


#: the subcommands of ``tacc`` (``reports.cli`` declares each with its help and arguments; a test keeps the two
#: lists equal): named here so that an interrupt before ``reports.cli`` is imported names the command.
COMMANDS = ("bounds", "simulate", "check", "proofs", "report", "runs", "reproduce", "explain", "bench")


def stopped_name(argv: list[str]) -> str:
    """What the one line of an interrupted command starts with: ``tacc COMMAND`` when the first argument that is
    not an option (``tacc``'s own options take no value) is one of :data:`COMMANDS`, else ``tacc``."""
    command = next((a for a in argv if not a.startswith("-")), None)
    return f"tacc {command}" if command in COMMANDS else "tacc"


def main() -> int:
    """Import ``reports.cli`` and run it; returns its exit status, or 130 (Ctrl-C) or 143 (SIGTERM) with one line
    when a signal came before the end was decided. From the first line SIGTERM raises
    :class:`~reports._signals.Terminated`, both signals are recorded (:class:`~reports._signals.SignalsTaken`; a
    signal whose exception C code dropped still ends the command interrupted) and such a dropped exception is not
    printed (:func:`~reports._signals.drop_printed_interrupts`); ``reports.cli.main`` installs its own handlers
    for the work and puts these back; once the status is known both signals are ignored to the exit
    (:func:`~reports._signals.ignore_to_the_exit`)."""
    argv = sys.argv[1:]
    taken = SignalsTaken()
    try:
        try:
            drop_printed_interrupts()
            taken.take()
            from reports.cli import main as cli_main
            status = cli_main(argv)
        finally:
            ignore_to_the_exit()
    except KeyboardInterrupt as exc:      # after a SIGTERM (its Terminated dropped), a later Ctrl-C: terminated
        return stopped(stopped_name(argv), isinstance(exc, Terminated) or taken.terminated, exc)
    if taken.lost(status):
        return stopped(stopped_name(argv), taken.terminated)
    skip_last_collection()
    return status


def skip_last_collection() -> None:
    """The process ends now: every object alive is frozen for the cyclic collector (``gc.freeze``), so the
    collection Python makes as it finalizes does not walk them all once more (0.2 s at the end of `tacc reproduce
    all`). Objects are still freed by their reference counts; no resource of the toolkit waits for the collector."""
    import gc
    gc.freeze()
