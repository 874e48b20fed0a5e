"""The ``tacc`` console script: a Ctrl-C or a SIGTERM while the command line is still importing its libraries ends
with the same one line as one during its work (exit 130 or 143), not a traceback or a silent death."""

from __future__ import annotations

import signal
import sys

from reports._interrupted import release


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
    except _TerminatedWhileImporting as exc:
        release(exc)
        print("tacc: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt as exc:
        release(exc)
        print("tacc: interrupted", file=sys.stderr)
        return 128 + signal.SIGINT
    return cli_main()
