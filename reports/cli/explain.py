"""``tacc explain CONFIG``: one run, arm by arm as the theory sees it."""

from __future__ import annotations

import sys
from pathlib import Path

from reports.cli._files import Files, json_file
from reports.cli._options import config_help, read_config, write_json
from reports.cli._options import Options
from reports.cli._parser import EXIT_OK, OnePolicy, int_at_least
from reports.cli._plan import NO_CACHE_HINT, plan

HELP = ("one run, arm by arm as the theory sees it (class, threshold, continuation, certification, counts against "
        "bounds, regret share)")


def arguments(p) -> None:
    from simulate import ENGINES, POLICIES

    p.add_argument("config", help=config_help())
    p.add_argument("--policy", default="tacc", choices=POLICIES, metavar="POLICY", action=OnePolicy,
                   help=f"the policy to run (default tacc): {', '.join(POLICIES)}")
    p.add_argument("--seed", type=int_at_least(0), default=0, metavar="S", help="the reward-table seed (default 0)")
    p.add_argument("--engine", choices=ENGINES, default="fast",
                   help="fast (compiled, default) or reference (step form)")
    p.add_argument("--json", metavar="PATH", help="write the explanation as JSON to PATH ('-' for stdout)")
    p.add_argument("--out", metavar="DIR", default=None, help="write a timeline figure (PNG and PDF) to DIR")
    p.add_argument("--max-arms", type=int_at_least(1), default=40, metavar="N",
                   help="arms shown (largest regret share first; default 40)")


def files(args, options: Options) -> Files:
    return Files(configs=(args.config,), out_files=json_file(options.json),
                 out_dirs=(("--out", args.out),) if args.out is not None else ())


def run(args, options: Options) -> int:
    from reports.explain import explain
    from reports.views import render_explanation as render, timeline_figure, explanation_json as to_json
    from reports.figures import save
    from reports.tables import dumps
    from simulate import check_seed

    config = read_config(args.config)
    plan([config], [args.policy], 1, what="tacc explain (one run, traced)", workers=1, progress=True,
         resume=NO_CACHE_HINT, engine=args.engine, trace=True)
    e = explain(config, args.policy, check_seed(args.seed, "--seed"), engine=args.engine)
    if options.json:
        write_json(dumps(to_json(e)), options.json)
    if options.json != "-":
        print(render(e, max_arms=args.max_arms))
    if args.out:
        from certify import file_stem      # the run's names made safe for a file name inside --out
        written = save(timeline_figure(e), Path(args.out), f"explain-{file_stem(e.config)}-{e.policy}-{e.seed}")
        print(f"timeline: {', '.join(str(Path(args.out) / f) for f in written)}", file=sys.stderr)
    return EXIT_OK
