"""``tacc report [CONFIG]``: the bound-versus-empirical report (default: a built-in instance with every arm class)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from reports.cli._files import Files, Written, baseline_file, cache_not_an_output, inside, run_cache
from reports.cli._options import Options, accepted_findings, add_baseline_option, add_run_options, config_help, \
    need_tables, read_config, read_seeds, show_progress, warn_unmatched_baseline
from reports.cli._parser import EXIT_FINDING, EXIT_OK
from reports.cli._plan import plan, resume_hint

HELP = "the bound-versus-empirical report (default: a built-in instance with every arm class)"

#: the files and folders a report writes in its --out folder
OUT_FILES = ("report.md", "results.json")
OUT_FOLDERS = ("figures", "reproducers")


def arguments(p) -> None:
    add_run_options(p, "processes", cache="OUT/runs")
    p.add_argument("config", nargs="?", default=None,
                   help=config_help() + " (default: the built-in instance; with --from, the configuration of the "
                                        "saved runs)")
    p.add_argument("--seeds", default=None, help="N runs seeds 0..N-1; A:B runs A..B-1 (default 1000; with "
                                                 "--from, every saved seed)")
    p.add_argument("--from", dest="runs_from", metavar="DIR", default=None,
                   help="rebuild from saved runs (a cache folder such as OUT/runs, or tables of `tacc runs`): no "
                        "simulation")
    p.add_argument("--out", default="tacc-report", metavar="DIR",
                   help="output folder (default ./tacc-report; finished runs are kept in DIR/runs, or in --cache)")
    add_baseline_option(p)


def files(args, options: Options) -> Files:
    from bounds import TaccInputError
    from reports.figures import FIGURE_MEMO

    if args.runs_from is not None:
        for option, value in (("--cache", options.cache), ("--scheduler", options.scheduler),
                              ("--workers", options.workers)):
            if value is not None:
                raise TaccInputError(option, value, "makes no run with --from (the runs are read from there)")
    cache = None if args.runs_from is not None else run_cache(options.cache, out=args.out)
    out = Path(args.out)
    return Files(configs=(args.config,) if args.config is not None else (), inputs=baseline_file(args.baseline),
                 input_dirs=(("--from", args.runs_from),) if args.runs_from is not None else (),
                 out_dirs=tuple((o, v) for o, v in (("--out", args.out), ("--cache", options.cache)) if v is not None),
                 written=tuple(Written("--out", args.out, out / n) for n in OUT_FILES)
                 + tuple(Written("--out", args.out, out / n, True) for n in OUT_FOLDERS),
                 cache=cache, cache_entries=(FIGURE_MEMO,), runs=options,
                 checks=(lambda: _out_not_in_saved_runs(args), lambda: cache_not_an_output(options.cache, args.out)))


def _out_not_in_saved_runs(args) -> None:
    """The report's files are never written among the saved runs it reads."""
    from bounds import TaccInputError

    if args.runs_from is not None and inside(args.out, args.runs_from):
        raise TaccInputError("--out", args.out, f"is the folder --from reads ({args.runs_from}) or lies in it: the "
                                                f"report would be written among the saved runs; give a folder "
                                                f"outside it (the report beside its run cache: --out "
                                                f"{Path(args.runs_from).parent})")


def run(args, options: Options) -> int:
    from reports.figures import FIGURE_MEMO, FigureWriter

    baseline = accepted_findings(args.baseline)   # read before the figures' helper starts: a bad one writes nothing
    # the figures drawn before from the same runs are kept in the run cache's folder, which --from reads too; a
    # folder of tables, or one this user cannot write, keeps none
    memo: Path | None = Path(options.cache if options.cache is not None else Path(args.out) / "runs") / FIGURE_MEMO
    if args.runs_from is not None:
        folder = Path(args.runs_from)
        memo = folder / FIGURE_MEMO if (folder / "runs.sqlite").is_file() and os.access(folder, os.W_OK) else None
    with FigureWriter(Path(args.out) / "figures", process=options.executor != "serial", memo=memo) as figures:
        return _report(args, options, figures, baseline)


def _report(args, options: Options, figures, baseline) -> int:
    from certify import DEFAULT_POLICIES
    from reports.report import budget_sweep, default_config, make_report
    from reports.report import saved_config, saved_runs

    if args.runs_from is not None:
        need_tables("--from", args.runs_from)
    # the records as read, without tables (a report needs only which run each is)
    saved = {} if args.runs_from is None else {"runs": saved_runs("--from", args.runs_from, index_only=True),
                                               "policies": None}
    if args.config is not None:
        config = read_config(args.config)
    elif saved:          # the configuration whose runs are in the folder, not the built-in one
        config = saved_config(saved["runs"], args.runs_from)
    else:
        config = default_config()
    warn_unmatched_baseline("report", baseline, [config])
    seeds = read_seeds(options.seeds) if options.seeds is not None else (None if saved else read_seeds("1000"))
    show = show_progress(options.progress)
    if not saved:
        assert seeds is not None  # parsed, or the default 1000, when no saved runs are read
        show = plan([config], DEFAULT_POLICIES, len(seeds), what="tacc report",
                    budgets_per_config=len(budget_sweep(1.0)), workers=options.planned_workers,
                    progress=options.progress, resume=resume_hint(options.cache, Path(args.out) / "runs"))
    t = time.perf_counter()
    assert options.executor is not None             # report's --executor has a default
    res = make_report(config, seeds=seeds, out_dir=args.out, executor=options.executor, workers=options.workers,
                      scheduler=options.scheduler, cache=options.cache, progress=show, figures=figures,
                      baseline=baseline, **saved)
    print(res.summary)
    print()
    for line in res.results.conclusions:
        print(f"- {line}")
    print(f"\nreport written to {res.out_dir / 'report.md'} ({len(res.files)} files, "
          f"{time.perf_counter() - t:.0f} s)")
    return EXIT_OK if res.results.certificate.ok else EXIT_FINDING
