"""``tacc bounds CONFIG``: every quantity the theorems define, for one instance."""

from __future__ import annotations

import sys

from reports.cli._files import Files, json_file
from reports.cli._options import config_help, read_config, write_json
from reports.cli._options import Options
from reports.cli._parser import EXIT_OK, int_at_least

HELP = "every quantity the theorems define, for one instance"


def arguments(p) -> None:
    p.add_argument("config", help=config_help())
    p.add_argument("--json", metavar="PATH", help="write every quantity as JSON to PATH ('-' for stdout)")
    p.add_argument("--max-arms", type=int_at_least(1), default=40, metavar="N",
                   help="arms shown in the table (default 40)")


def files(args, options: Options) -> Files:
    return Files(configs=(args.config,), out_files=json_file(options.json))


def run(args, options: Options) -> int:
    from bounds import analyze, continuation_of
    from reports.views import render_bounds as render, bounds_json as to_json
    from reports.estimate import duration_text, estimate, window_length

    config = read_config(args.config)
    est = estimate([config], (), 0, tables=False)
    est.refuse_if_too_large()
    if est.long:                     # the window is read state by state: a long scan is announced
        print(f"tacc bounds: the continuation window (eq:fidelity-selection) is read state by state, up to "
              f"min(S0, T) = {window_length(config):,} low counts: time at most about "
              f"{duration_text(est.seconds)}. Ctrl-C stops it.",
              file=sys.stderr)
    analysis = analyze(config)
    cont = continuation_of(analysis)
    if options.json:
        write_json(to_json(analysis, cont), options.json)
    if options.json != "-":
        print(render(analysis, max_arms=args.max_arms, continuation=cont))
        if options.json:
            print(f"\nJSON written to {options.json}")
    return EXIT_OK
