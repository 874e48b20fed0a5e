"""The ``tacc`` command line: one module per command (``reports.cli.bounds``, ``reports.cli.report``, ...), listed
once in the registry (:data:`COMMANDS`), run by :func:`main`; :func:`script` is the console script.

Importing this package imports the standard library only; a command imports what its work needs when it runs.
"""

from reports.cli._files import Files, Written
from reports.cli._main import build_parser, main
from reports.cli._options import Options
from reports.cli._parser import EXIT_FINDING, EXIT_INPUT, EXIT_INTERNAL, EXIT_OK
from reports.cli._registry import COMMANDS, command, stopped_name
from reports.cli._script import script

__all__ = ["main", "script", "build_parser", "COMMANDS", "command", "stopped_name", "Files", "Written", "Options",
           "EXIT_OK", "EXIT_FINDING", "EXIT_INPUT", "EXIT_INTERNAL"]
