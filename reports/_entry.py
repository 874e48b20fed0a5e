"""The ``tacc`` console script: a Ctrl-C or a SIGTERM while the command line is still importing its libraries ends
with the same one line as one during its work (``tacc COMMAND: interrupted``, exit 130, or ``terminated``, 143), not
a traceback or a silent death."""

from __future__ import annotations

import signal
import sys

from reports._interrupted import stopped


#: the subcommands of ``tacc`` (``reports.cli`` declares each with its help and arguments; a test keeps the two
#: lists equal): named here so that an interrupt before ``reports.cli`` is imported names the command.
COMMANDS = ("bounds", "simulate", "check", "proofs", "report", "runs", "reproduce", "explain", "bench")


def stopped_name(argv: list[str]) -> str:
    """What the one line of an interrupted command starts with: ``tacc COMMAND`` when the first argument that is
    not an option (``tacc``'s own options take no value) is one of :data:`COMMANDS`, else ``tacc``."""
    command = next((a for a in argv if not a.startswith("-")), None)
    return f"tacc {command}" if command in COMMANDS else "tacc"


class _TerminatedWhileImporting(KeyboardInterrupt):
    """SIGTERM before the command line's own handler is installed (``reports.cli.main`` installs it)."""


def _terminated(signum, frame) -> None:
    raise _TerminatedWhileImporting


def main() -> int:
    """Import ``reports.cli`` and run it; an interrupt during the import exits 130 (Ctrl-C) or 143 (SIGTERM) with
    one line. The SIGTERM handler lives only during the import: the command line installs its own for the work."""
    try:
        previous = signal.signal(signal.SIGTERM, _terminated)
    except ValueError:                       # not the main thread: signals cannot be handled here
        previous = None
    try:
        try:
            from reports.cli import main as cli_main
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
    except KeyboardInterrupt as exc:
        return stopped(stopped_name(sys.argv[1:]), isinstance(exc, _TerminatedWhileImporting), exc)
    return cli_main()
