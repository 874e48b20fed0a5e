"""The ``tacc`` command line: the parser built from the registry, the checks every command declares, and the one
place an error becomes an exit status.

Exit statuses (``EXIT_HELP``, shown by ``tacc --help``): 0 ok; 1 a finding (a VIOLATED claim, a new REFUTED step);
2 bad input or usage, before any work starts; 3 an internal error (one line on standard error naming where the
full traceback was saved; ``--debug`` prints it). See ``docs/design.md``, "Exit statuses".
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

from reports.cli._interrupted import stopped
from reports.cli._parser import EXIT_HELP, EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, Parser, version
from reports.cli._registry import COMMANDS, command, name_of, stopped_name
from reports.cli._signals import SignalsTaken, Terminated

__all__ = ["build_parser", "main"]

#: options whose value may start with a minus sign that argparse takes for an option (it knows only plain negative
#: numbers): ``--seeds -1:2`` would say "expected one argument" without saying why
_SIGNED_VALUES = ("--seeds",)

#: the runner's arguments (``simulate.iter_runs``) whose errors come during the sweep, not when it is called (a Dask
#: scheduler that stopped answering after it was checked is found when the sweep starts), by the run option the user
#: wrote.
_RUN_OPTION_FIELDS = {"scheduler": "--scheduler"}


def _debug_option(default) -> Parser:
    p = Parser(add_help=False)
    p.add_argument("--debug", action="store_true", default=default,
                   help="on an internal error, print the full traceback")
    return p


def build_parser() -> argparse.ArgumentParser:
    """The ``tacc`` parser: a subcommand per entry of the registry (``reports.cli.COMMANDS``), whose arguments are
    added when that subcommand is parsed or its help shown (``Parser``'s ``arguments``), so a command imports only
    what its own options need."""
    debug = _debug_option(argparse.SUPPRESS)
    p = Parser(prog="tacc", description="Check the TACC paper's theory against runs.", epilog=EXIT_HELP,
               formatter_class=argparse.RawDescriptionHelpFormatter, parents=[_debug_option(False)])
    p.add_argument("--version", action="version", version=f"tacc {version()}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser, metavar="COMMAND")
    for name in COMMANDS:
        module = command(name)
        parser = sub.add_parser(name, help=module.HELP, description=module.HELP, parents=[debug], epilog=EXIT_HELP,
                                formatter_class=argparse.RawDescriptionHelpFormatter, arguments=module.arguments)
        parser.set_defaults(declared_by=module)     # the module that runs: main dispatches on it, not on the name
    return p


def _internal_error(exc: BaseException, name: str) -> str:
    """Save the traceback to a file (in the system's temporary folder, never the working directory) and return the
    one line that names what failed and where."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    text = "".join(traceback.format_exception(exc))
    fd, path = tempfile.mkstemp(prefix="tacc-traceback-", suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write(f"tacc {version()}, command: {' '.join(sys.argv)}\n\n{text}")
    message = str(exc).splitlines()[0] if str(exc) else ""
    return (f"tacc {name}: internal error: {type(exc).__name__}{': ' + message if message else ''}{where} "
            f"(full traceback in {path}; rerun with --debug to print it)")


def _glue_signed_values(argv: list[str]) -> list[str]:
    """``--seeds -1:2`` as ``--seeds=-1:2``, so that the value reaches the check that names ``--seeds`` and says
    seeds are >= 0. Only a value of a minus sign and a digit is glued (``--seeds --json x`` stays as it was)."""
    out: list[str] = []
    for arg in argv:
        if out and out[-1] in _SIGNED_VALUES and len(arg) > 1 and arg[0] == "-" and arg[1].isdigit():
            out[-1] = f"{out[-1]}={arg}"
        else:
            out.append(arg)
    return out


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning of a command (the run cache's "recomputed", the figure memo's "drawn again") as one line
    ``warning: <message>`` on standard error, instead of Python's file, line and source line."""
    print(f"warning: {message}", file=sys.stderr if file is None else file)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (usage errors, ``--help`` and ``--version`` included).

    SIGTERM (``timeout``, a batch system's kill) is taken as Ctrl-C is (``SignalsTaken``): children ended, what
    finished kept, one line ``tacc COMMAND: terminated``, exit 143 (128 + SIGTERM). Its handler is installed and put
    back inside the ``try`` that takes an interrupt, since ``signal.signal`` runs the handler of a signal just
    received."""
    argv = sys.argv[1:] if argv is None else list(argv)
    term = SignalsTaken()
    try:
        with term:
            status = _main(argv, term)
    except KeyboardInterrupt as exc:        # as the handler is installed or put back, or after the command's end
        _end_children()
        return stopped(stopped_name(argv), term.terminated or isinstance(exc, Terminated), exc)
    if term.lost(status):                   # its exception dropped on the way by C code: late, not lost
        _end_children()
        return stopped(stopped_name(argv), term.terminated)
    return status


def _main(argv: list[str], term: SignalsTaken) -> int:
    try:
        args = build_parser().parse_args(_glue_signed_values(argv))
    except SystemExit as exc:  # argparse has printed its one line (or the help)
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT
    except KeyboardInterrupt as exc:  # while a subcommand's arguments import what they list: named if argv names it
        return stopped(stopped_name(argv), term.terminated, exc)
    from bounds import TaccInputError
    from reports.cli._files import check_files

    from reports.cli._options import Options

    module, options = args.declared_by, Options.from_args(args)
    name = name_of(module)
    try:
        with warnings.catch_warnings():    # restores Python's own display when the command ends (library use)
            warnings.showwarning = _one_line_warning
            check_files(module.files(args, options))
            return module.run(args, options)
    except TaccInputError as exc:
        _end_children()
        if exc.field in _RUN_OPTION_FIELDS:   # the runner names its argument; the user wrote the option
            exc = TaccInputError(_RUN_OPTION_FIELDS[exc.field], exc.value, exc.reason)
        print(f"tacc: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:  # the reader of standard output stopped reading (| head): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt as exc:
        _end_children()
        return stopped(f"tacc {name}", term.terminated, exc)
    except Exception as exc:  # noqa: BLE001 -- the one place an unexpected error becomes exit 3
        _end_children()
        # a worker killed by the same SIGTERM broke the pool before it reached us; or the signal's exception was
        # dropped by C code that raised another (numpy's import_array: an ImportError)
        if term.terminated or term.interrupted:
            return stopped(f"tacc {name}", term.terminated)
        if args.debug:
            traceback.print_exc()
        print(_internal_error(exc, name), file=sys.stderr)
        return EXIT_INTERNAL


def _end_children() -> None:
    """Kill this process's child processes (run workers, the figures' helper) after an interrupt or an error: a
    command stopped mid-sweep can leave a pool nobody will shut down (its generator not closed yet), and Python's
    exit joins every child process."""
    mp = sys.modules.get("multiprocessing")
    if mp is None:
        return
    for p in mp.active_children():
        p.kill()
    for p in mp.active_children():
        p.join(5)
