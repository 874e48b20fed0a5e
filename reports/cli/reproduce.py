"""``tacc reproduce [EXPERIMENT ...]``: the paper's experiments beside the paper's numbers."""

from __future__ import annotations

import time
from pathlib import Path

from reports.cli._files import Files, Written, cache_not_an_output, run_cache
from reports.cli._options import Options, add_run_options
from reports.cli._parser import EXIT_OK, int_at_least
from reports.cli._plan import plan, resume_hint

HELP = "the paper's experiments beside the paper's numbers"


def arguments(p) -> None:
    from reports.reproduce import EXPERIMENTS

    keys = [e.key for e in EXPERIMENTS]
    add_run_options(p, "processes", cache="OUT/runs")
    p.add_argument("experiment", nargs="*", metavar="EXPERIMENT", help=f"{', '.join(keys)} or all (default all)")
    p.add_argument("--seeds", dest="seeds_per_experiment", type=int_at_least(2), default=None, metavar="N",
                   help="seeds per experiment, at least 2 (paired intervals); default: the paper's counts")
    p.add_argument("--quick", action="store_true", help="a small version for CI: few seeds, two budgets")
    p.add_argument("--out", default="tacc-reproduce", metavar="DIR", help="output folder (default ./tacc-reproduce)")


def files(args, options: Options) -> Files:
    return Files(out_dirs=tuple((o, v) for o, v in (("--out", args.out), ("--cache", options.cache)) if v is not None),
                 written=(Written("--out", args.out, Path(args.out), True),),
                 cache=run_cache(options.cache, out=args.out), runs=options,
                 checks=(lambda: cache_not_an_output(options.cache, args.out, (".md", ".json")),))


def run(args, options: Options) -> int:
    from reports.reproduce import reproduce, work

    t = time.perf_counter()
    keys = args.experiment or ["all"]
    groups = [(c, m, n, "fast") for c, m, n in work(keys, seeds=args.seeds_per_experiment, quick=args.quick)]
    # one experiment (two groups: its variants, its rho sweep) is analysed while the next one's runs are in flight
    show = plan([], (), 0, what="tacc reproduce", workers=options.planned_workers, progress=options.progress,
                resume=resume_hint(options.cache, Path(args.out) / "runs"), groups=groups, at_once=4)
    assert options.executor is not None         # reproduce's --executor has a default
    results = reproduce(keys, seeds=args.seeds_per_experiment, quick=args.quick, out_dir=args.out,
                        executor=options.executor, workers=options.workers, scheduler=options.scheduler,
                        cache=options.cache, progress=show)
    from reports.tables import table
    print(table(["experiment", "seeds", "claims reproduced", "seconds"],
                [(r.key, r.results.seeds, f"{sum(ok for _, ok, _ in r.claims)} of {len(r.claims)}",
                  round(r.seconds)) for r in results]))
    print(f"\nwritten to {Path(args.out) / 'README.md'} ({time.perf_counter() - t:.0f} s)")
    return EXIT_OK
