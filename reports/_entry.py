"""The ``tacc`` console script: a Ctrl-C while the command line is still importing its libraries ends with the
same one line as one during its work (exit 130), not a traceback."""

from __future__ import annotations

import sys


def main() -> int:
    """Import ``reports.cli`` and run it; an interrupt during the import exits 130 with one line."""
    try:
        from reports.cli import main as cli_main
    except KeyboardInterrupt:
        print("tacc: interrupted", file=sys.stderr)
        return 130
    return cli_main()
