"""``tacc check [CONFIG ...]``: the gate, every claim's verdict on runs; exit 1 on a new violation."""

from __future__ import annotations

import tempfile
from pathlib import Path

from reports.cli._files import Files, baseline_file, json_file, run_cache, same_file
from reports.cli._options import Options, accepted_findings, add_baseline_option, add_run_options, config_help, \
    read_config, read_seeds, warn_unmatched_baseline, write_json
from reports.cli._parser import EXIT_FINDING, EXIT_INTERNAL, EXIT_OK, int_at_least
from reports.cli._plan import plan, resume_hint

HELP = "the gate: every claim's verdict on runs; exit 1 on a new violation"

#: what a refusal on memory adds: how the command runs in less
LESS_MEMORY = ("tacc check --verdicts violated keeps only the VIOLATED verdicts, in memory independent of the "
               "seeds")


def arguments(p) -> None:
    from certify import KEEP
    from simulate import POLICIES

    add_run_options(p, "serial")
    p.add_argument("config", nargs="*", help=config_help() + " (default: every preset and a generated sample)")
    p.add_argument("--random", type=int_at_least(0), default=None, metavar="N",
                   help="generated configurations to add (default 20 without CONFIG, 0 with)")
    p.add_argument("--random-seed", type=int_at_least(0), default=0, metavar="S",
                   help="seed of the generated sample, an integer >= 0 (default 0)")
    p.add_argument("--seeds", default="10", help="M runs seeds 0..M-1; A:B runs A..B-1 (default 10)")
    p.add_argument("--policy", action="append", choices=POLICIES, metavar="POLICY",
                   help=f"a policy to run, repeatable: {', '.join(POLICIES)} (default: certify.DEFAULT_POLICIES, the "
                        "policies the claims are about)")
    p.add_argument("--evidence", type=int_at_least(0), default=100, metavar="N",
                   help="examples per assumption in the search for what breaking it does (0: skip; default 100)")
    add_baseline_option(p)
    p.add_argument("--strict", action="store_true",
                   help="also fail (exit 1) when a claim is judged on no run although a run had something it "
                        "bounds (every run excluded by an assumption, off the event or undecided)")
    p.add_argument("--reproducers", metavar="DIR", default="tacc-check-reproducers",
                   help="where a configuration file per violation is written (default ./tacc-check-reproducers; "
                        "nothing is written without a violation)")
    p.add_argument("--junit", metavar="PATH", help="write JUnit XML (one test case per claim, configuration, policy)")
    p.add_argument("--json", metavar="PATH", help="write the certificate as JSON to PATH ('-' for stdout)")
    p.add_argument("--verdicts", choices=KEEP, default="all",
                   help="the verdicts kept and listed in --json: all (default; memory grows with the runs, 2 to 4 "
                        "KB each, about 15 KB more with --json) or violated (only VIOLATED ones and lem:ci's: memory "
                        "independent of --seeds; the tables, counts, reasons and JUnit cases are the same)")


def files(args, options: Options) -> Files:
    from bounds import TaccInputError

    out_files = json_file(options.json)
    if args.junit is not None:
        if args.junit == "-":         # for --json, "-" is standard output; a JUnit file is always a file
            raise TaccInputError("--junit", args.junit, "must name a file: the JUnit XML is written to a file, never "
                                                        "to standard output ('-' is that only for --json)")
        if options.json not in (None, "-") and Path(options.json).resolve() == Path(args.junit).resolve():
            raise TaccInputError("--junit", args.junit, f"is the file --json writes too ({options.json}): one would "
                                                        "overwrite the other")
        out_files += (("--junit", args.junit, False),)
    out_dirs = tuple((o, v) for o, v in (("--cache", options.cache), ("--reproducers", args.reproducers))
                     if v is not None)
    return Files(configs=tuple(args.config),
                 inputs=baseline_file(args.baseline),
                 out_files=out_files, out_dirs=out_dirs, cache=run_cache(options.cache), runs=options,
                 checks=(lambda: _json_fits(options),))


def _json_fits(options: Options) -> None:
    """The certificate's ``--json`` lists every seed: refused above ``MAX_JSON_RUNS`` seeds, before any run."""
    from bounds import TaccInputError
    from reports.views import MAX_JSON_RUNS

    if not options.json:
        return
    assert options.seeds is not None                                # check's --seeds has a default
    seeds = read_seeds(options.seeds)
    if len(seeds) > MAX_JSON_RUNS:
        raise TaccInputError("--json", options.json,
                             f"would list {len(seeds):,} seeds; at most {MAX_JSON_RUNS:,} (run fewer seeds, or drop "
                             f"--json: the tables and --junit list no seed)")


def run(args, options: Options) -> int:
    with tempfile.TemporaryDirectory(prefix="tacc-hypothesis-") as home:
        # hypothesis's storage (its example database, its cache of source constants) in a folder of its own, so
        # the command writes no .hypothesis/ into the working directory
        from hypothesis.configuration import set_hypothesis_home_dir
        set_hypothesis_home_dir(home)
        return _check(args, options)


def _read_one_of(config: str, given: list[str]):
    """``read_config(config)``; of several configurations, a refusal names the file it is in."""
    from bounds import TaccInputError

    try:
        return read_config(config)
    except TaccInputError as e:
        if len(given) < 2 or e.field == "config":      # one file, or the refusal names it already
            raise
        raise TaccInputError(e.field, e.value, f"{e.reason} (in {config})", shown=e.shown) from None


def _check(args, options: Options) -> int:
    from bounds import PRESETS, TaccInputError, dump_config
    from certify import DEFAULT_POLICIES, assumption_evidence, check, reproducer_path, sample_configs, unique_names
    from certify.strategies import BREAKABLE
    from reports.views import junit, passed, render_check as render, check_json as to_json
    from reports.tables import dumps

    configs = [_read_one_of(c, args.config) for c in args.config]
    n_random = args.random if args.random is not None else (20 if not args.config else 0)
    if not args.config:
        configs = [read_config(c) for c in PRESETS]
    baseline = accepted_findings(args.baseline)
    assert options.seeds is not None and options.executor is not None    # check's --seeds and --executor: defaults
    seeds = read_seeds(options.seeds)
    policies = tuple(args.policy) if args.policy else DEFAULT_POLICIES
    configs += sample_configs(n_random, args.random_seed)
    warn_unmatched_baseline("check", baseline, unique_names(configs))
    if args.reproducers is not None:      # a reproducer is never written over an input (wide.toml --reproducers .)
        for c in unique_names(configs):
            path = reproducer_path(args.reproducers, c.name)
            for given, what in files(args, options).read().items():
                # the input may be that reproducer itself, as the printed command reruns it: the same bytes again
                if same_file(path, given) and not (what == "the configuration file"
                                                   and Path(given).read_text(encoding="utf-8") == dump_config(c)):
                    raise TaccInputError("--reproducers", args.reproducers,
                                         f"the reproducer of {c.name} would be written to {path}, over {what} this "
                                         f"command reads ({given}); give another folder")
    kept = args.verdicts == "all"            # every verdict kept: memory grows with the runs
    show = plan(configs, policies, len(seeds), what="tacc check", workers=options.planned_workers,
                progress=options.progress, resume=resume_hint(options.cache), kept=kept, kept_json=bool(options.json),
                kept_per_arm=False, seeds=options.seeds, less_memory=LESS_MEMORY)
    cert = check(configs, policies=policies, seeds=seeds, executor=options.executor, workers=options.workers,
                 scheduler=options.scheduler, cache=options.cache, progress=show, reproducer_dir=args.reproducers,
                 baseline=baseline, keep=args.verdicts)
    evidence = [assumption_evidence(a, max_examples=args.evidence) for a in BREAKABLE] if args.evidence else []
    # both made before either is written: an interrupt while they are made leaves neither, so a CI job never reads
    # one without the other
    as_json = dumps(to_json(cert, evidence, strict=args.strict)) if options.json else None
    as_junit = junit(cert, strict=args.strict) + "\n" if args.junit else None
    if as_json is not None and options.json:
        write_json(as_json, options.json)
    if as_junit is not None:
        Path(args.junit).write_text(as_junit)
    if options.json != "-":
        print(render(cert, evidence, strict=args.strict))
    if cert.integrity_errors:
        return EXIT_INTERNAL                      # a stored run is not what the policy does: not a finding
    return EXIT_OK if passed(cert, args.strict) else EXIT_FINDING
