"""The parser every ``tacc`` command is declared with: usage errors exit 2 with one line, no abbreviated options,
the nearest choice suggested for a misspelled one, and a command's arguments added when that command is parsed."""

from __future__ import annotations

import argparse
from importlib import metadata

__all__ = ["EXIT_OK", "EXIT_FINDING", "EXIT_INPUT", "EXIT_INTERNAL", "EXIT_HELP", "Parser", "OnePolicy",
           "int_at_least", "version", "config_help"]

#: exit status: the command did its work and found nothing to fail on
EXIT_OK = 0
#: exit status: a finding (a claim VIOLATED on a run that ``--baseline`` does not accept, a new REFUTED proof step)
EXIT_FINDING = 1
#: exit status: bad input or usage, one line naming the field or option; nothing was run
EXIT_INPUT = 2
#: exit status: an internal error, one line naming the file the full traceback was saved to
EXIT_INTERNAL = 3

EXIT_HELP = """exit status:
  0  ok
  1  a finding: a claim VIOLATED on a run that --baseline does not accept (tacc check, tacc report) or a new
     REFUTED proof step (tacc proofs)
  2  bad input or usage (one line naming the field or option); nothing was run
  3  an internal error (one line; the full traceback is saved to a file, --debug prints it)"""

#: the prefix of the attributes :class:`OnePolicy` marks a parsed option with (removed once parsing ends).
_ONCE_MARK = "_given_once_"


class Parser(argparse.ArgumentParser):
    """Usage errors exit 2 with one line on standard error, no usage block and no traceback.

    ``arguments``: a function adding the parser's arguments, called the first time the parser parses or shows its
    help or usage. A subcommand's arguments are declared that way, so that a command imports only what its own
    choices need: ``tacc bounds`` does not import ``simulate`` (and numba) for ``tacc simulate``'s policy names.
    Abbreviated options are refused: ``--seed`` would otherwise be taken for ``--seeds``."""

    def __init__(self, *args, arguments=None, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self._arguments = arguments

    def _complete(self) -> None:
        add, self._arguments = self._arguments, None
        if add is not None:
            add(self)

    def parse_known_args(self, args=None, namespace=None):
        self._complete()
        return super().parse_known_args(args, namespace)

    def parse_args(self, args=None, namespace=None):
        """As argparse's, but an argument no option of the command takes is refused by the command's parser, so the
        line says ``tacc report: error: ... (see tacc report --help)``, not ``tacc --help``."""
        from bounds import did_you_mean

        parsed, extra = self.parse_known_args(args, namespace)
        for mark in [k for k in vars(parsed) if k.startswith(_ONCE_MARK)]:
            delattr(parsed, mark)
        if extra:
            command = getattr(parsed, "command", None)
            sub = next((a.choices[command] for a in self._actions
                        if isinstance(a, argparse._SubParsersAction) and command in a.choices), None)
            parser = sub or self
            option = next((x.split("=", 1)[0] for x in extra if x.startswith("--")), None)
            # compared without their dashes, which every option shares (--baseline was "near" --engine, --cache
            # "near" --help)
            names = {o.lstrip("-"): o for a in parser._actions for o in a.option_strings}
            hint = did_you_mean(option.lstrip("-"), names) if option else ""
            parser.error(f"unrecognized arguments: {' '.join(extra)}{hint}")
        return parsed

    def format_usage(self) -> str:
        self._complete()
        return super().format_usage()

    def format_help(self) -> str:
        self._complete()
        return super().format_help()

    def _check_value(self, action, value):
        """As argparse's, with the nearest choice suggested for a misspelled one (a command, a policy, an executor:
        ``bounds.did_you_mean``, the suggestion of the configuration's keys and values)."""
        from bounds import did_you_mean

        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as e:
            choices = [str(c) for c in action.choices] if action.choices is not None else []
            # another case first (MF-UCB for mf-ucb: difflib's ratio counts the case), then the nearest spelling
            hint = (f" (did you mean {value.lower()}?)" if isinstance(value, str) and value.lower() in choices
                    else did_you_mean(value, choices))
            if not hint:
                raise
            raise argparse.ArgumentError(action, f"{e.message}{hint}") from None

    def error(self, message):
        self.exit(EXIT_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class OnePolicy(argparse.Action):
    """``--policy`` of a command that runs one policy (``simulate``, ``explain``): given twice it is refused, exit 2,
    since argparse would keep the last in silence (``tacc check`` takes the option repeatedly)."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = getattr(namespace, _ONCE_MARK + self.dest, None)
        if given is not None:
            parser.error(f"argument {option_string}: given twice ({given}, then {values}): this command runs one "
                         f"policy; run it once per policy (tacc check takes several)")
        setattr(namespace, _ONCE_MARK + self.dest, values)
        setattr(namespace, self.dest, values)


def int_at_least(low: int):
    """An argument type: an integer >= ``low``, refused with a line saying so."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be >= {low}, got {value}")
        return value
    parse.__name__ = f"integer >= {low}"
    return parse


def version() -> str:
    """The installed version of tacc (``unknown (not installed)`` in a source tree that was not installed)."""
    try:
        return metadata.version("tacc")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def config_help() -> str:
    """The help of a CONFIG argument: a file or one of the presets."""
    from bounds import PRESETS

    return f"a TOML configuration file or a preset: {', '.join(PRESETS)}"
