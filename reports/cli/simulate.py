"""``tacc simulate CONFIG --policy P``: run one policy on seeds; per-run and per-arm results."""

from __future__ import annotations

from reports.cli._files import Files, json_file, run_cache
from reports.cli._options import Options, add_run_options, as_option, config_help, read_config, read_seeds, \
    write_json
from reports.cli._parser import EXIT_OK, OnePolicy, int_at_least
from reports.cli._plan import plan, resume_hint

HELP = "run a policy on seeds; per-run and per-arm results"


def arguments(p) -> None:
    from simulate import ENGINES, POLICIES

    add_run_options(p, "serial")
    p.add_argument("config", help=config_help())
    p.add_argument("--policy", required=True, choices=POLICIES, metavar="POLICY", action=OnePolicy,
                   help=f"one of {', '.join(POLICIES)}")
    p.add_argument("--seeds", default="0:10", help="A:B runs seeds A..B-1; N runs 0..N-1 (default 0:10)")
    p.add_argument("--engine", choices=ENGINES, default="fast",
                   help="fast (compiled, default) or reference (the readable step form); records are equal")
    p.add_argument("--json", metavar="PATH", help="write the run records as JSON to PATH ('-' for stdout)")
    p.add_argument("--max-arms", type=int_at_least(1), default=40, metavar="N",
                   help="arms shown in the per-arm table (default 40)")


def files(args, options: Options) -> Files:
    return Files(configs=(args.config,), out_files=json_file(options.json), cache=run_cache(options.cache),
                 out_dirs=(("--cache", options.cache),) if options.cache is not None else (),
                 runs=options, checks=(lambda: _json_fits(options),))


def _json_fits(options: Options) -> None:
    """``--json`` holds a record per run: refused above ``MAX_JSON_RUNS`` seeds, before any run."""
    from reports.views import check_json_size

    if options.json:
        assert options.seeds is not None                            # simulate's --seeds has a default
        as_option("--json", lambda dest: check_json_size(len(read_seeds(options.seeds)), dest), options.json)


def run(args, options: Options) -> int:
    from reports.views import SimulateSummary, render_simulate as render, simulate_json as to_json
    from reports.tables import dumps
    from simulate import iter_runs, iter_tasks, make_problem

    config = read_config(args.config)
    assert options.seeds is not None and options.executor is not None    # simulate's --seeds, --executor: defaults
    seeds = read_seeds(options.seeds)
    show = plan([config], [args.policy], len(seeds), what="tacc simulate", workers=options.planned_workers,
                progress=options.progress, engine=args.engine, resume=resume_hint(options.cache))
    problem = make_problem(config)
    summary, records = SimulateSummary(problem), []
    for rec in iter_runs(iter_tasks([config], [args.policy], seeds), executor=options.executor, workers=options.workers,
                         scheduler=options.scheduler, cache=options.cache, engine=args.engine, total=len(seeds),
                         progress=show):
        summary.add(rec)
        if options.json:
            records.append(rec)
    if options.json:
        write_json(dumps(to_json(problem, records, args.engine)), options.json)
    if options.json != "-":
        print(render(summary, args.engine, max_arms=args.max_arms))
        if options.json:
            print(f"\nJSON written to {options.json}")
    return EXIT_OK
