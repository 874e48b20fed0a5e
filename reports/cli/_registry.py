"""The registry of ``tacc``'s commands: their names, in the order ``tacc --help`` lists them, each the module
``reports.cli.<name>`` (``-`` read as ``_``) that declares it.

A command module has one shape: ``HELP`` (one line), ``arguments(parser)`` (adds its arguments),
``files(args, options) -> reports.cli.Files`` (what it reads, writes and how it makes runs, checked before any work)
and ``run(args, options) -> int`` (the exit status); ``options`` is the shared :class:`reports.cli.Options`, built
once from the parsed arguments. Adding a command is adding its module and its name here (then its view, tests and
recorded outputs: ``docs/design.md``, section 9).
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["COMMANDS", "command", "name_of", "stopped_name"]

#: the commands, in the order ``tacc --help`` lists them; each is the module ``reports.cli.<name>``
COMMANDS = ("bounds", "simulate", "check", "proofs", "report", "runs", "reproduce", "explain", "bench")


def command(name: str) -> ModuleType:
    """The module declaring the command ``name`` (one of :data:`COMMANDS`)."""
    if name not in COMMANDS:
        raise KeyError(name)
    return importlib.import_module(f"reports.cli.{name.replace('-', '_')}")


def name_of(module: ModuleType) -> str:
    """The command's name of a module :func:`command` returned (``_`` read as ``-``)."""
    return module.__name__.rsplit(".", 1)[1].replace("_", "-")


def stopped_name(argv: list[str]) -> str:
    """What the one line of an interrupted command starts with: ``tacc COMMAND`` when the first argument that is
    not an option (``tacc``'s own options take no value) is one of :data:`COMMANDS`, else ``tacc``."""
    name = next((a for a in argv if not a.startswith("-")), None)
    return f"tacc {name}" if name in COMMANDS else "tacc"
