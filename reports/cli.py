"""The ``tacc`` command line. Exit status: 0 all good, 1 a claim violated, 2 bad input or usage."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bounds import TaccInputError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors exit 2 with one line, no traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"tacc: error: {message}\n")


def _write_json(text: str, dest: str) -> None:
    if dest == "-":
        sys.stdout.write(text + "\n")
    else:
        Path(dest).write_text(text + "\n")


def _cmd_bounds(args) -> int:
    from bounds import analyze, load_config
    from reports._bounds_view import render, to_record
    from reports._tables import dumps

    analysis = analyze(load_config(args.config))
    if args.json:
        _write_json(dumps(to_record(analysis)), args.json)
    if args.json != "-":
        print(render(analysis, max_arms=args.max_arms))
        if args.json:
            print(f"\nJSON written to {args.json}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tacc", description="Check the TACC paper's theory against runs.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    b = sub.add_parser("bounds", help="every quantity the theorems define, for one instance")
    b.add_argument("config", help="a TOML configuration file or a preset: set-a, set-b, llm-residual, "
                                  "llm-vanishing, checkpoint")
    b.add_argument("--json", metavar="PATH", help="write every quantity as JSON to PATH ('-' for stdout)")
    b.add_argument("--max-arms", type=int, default=40, help="arms shown in the table (default 40)")
    b.set_defaults(func=_cmd_bounds)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except TaccInputError as exc:
        print(f"tacc: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
