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


def _cmd_simulate(args) -> int:
    from bounds import load_config
    from reports._simulate_view import render, to_json
    from reports._tables import dumps
    from simulate import make_problem, parse_seeds, policy_class, tasks_for, run_tasks

    config = load_config(args.config)
    policy_class(args.policy)
    seeds = parse_seeds(args.seeds)
    problem = make_problem(config)
    records = run_tasks(tasks_for([config], [args.policy], seeds), executor=args.executor, workers=args.workers,
                        scheduler=args.scheduler, cache=args.cache, engine=args.engine,
                        progress=args.progress and sys.stderr.isatty())
    if args.json:
        _write_json(dumps(to_json(problem, records, args.engine)), args.json)
    if args.json != "-":
        print(render(problem, records, args.engine, max_arms=args.max_arms))
        if args.json:
            print(f"\nJSON written to {args.json}")
    return 0


def _cmd_check(args) -> int:
    from bounds import PRESETS, load_config
    from certify import DEFAULT_POLICIES, assumption_evidence, check, load_baseline, sample_configs
    from certify.strategies import BREAKABLE
    from reports._check_view import junit, render, to_json
    from reports._tables import dumps
    from simulate import parse_seeds, policy_class

    for p in args.policy or ():
        policy_class(p)
    if args.random is not None and args.random < 0:
        raise TaccInputError("random", args.random, "must be >= 0")
    if args.evidence < 0:
        raise TaccInputError("evidence", args.evidence, "must be >= 0")
    names = args.config or list(PRESETS)
    configs = [load_config(c) for c in names]
    n_random = args.random if args.random is not None else (20 if not args.config else 0)
    configs += sample_configs(n_random, args.random_seed)
    baseline = load_baseline(args.baseline) if args.baseline else None
    show = args.progress and sys.stderr.isatty()
    cert = check(configs, policies=tuple(args.policy) if args.policy else DEFAULT_POLICIES,
                 seeds=parse_seeds(args.seeds), executor=args.executor, workers=args.workers,
                 scheduler=args.scheduler, cache=args.cache, progress=show, reproducer_dir=args.reproducers,
                 baseline=baseline)
    evidence = [assumption_evidence(a, max_examples=args.evidence) for a in BREAKABLE] if args.evidence else []
    if args.json:
        _write_json(dumps(to_json(cert, evidence)), args.json)
    if args.junit:
        Path(args.junit).write_text(junit(cert) + "\n")
    if args.json != "-":
        print(render(cert, evidence, strict=args.strict))
    if cert.integrity_errors:
        return 3                                  # a stored run is not what the policy does: not a finding
    return 0 if cert.ok and not (args.strict and cert.strict_failures) else 1


def _cmd_proofs(args) -> int:
    from proofs_checks import BASELINE, STEPS, coverage_rows, load_baseline, radius_rows, run_steps
    from reports._proofs_view import failures, render, render_coverage, render_radius, to_json
    from reports._tables import dumps

    path = BASELINE if args.baseline == "repo" else args.baseline
    baseline = load_baseline(path) if path else set()
    reports = run_steps(STEPS, baseline, mutate_steps=not args.coverage)
    if args.coverage:
        rows = coverage_rows({r.step.sid: r.result.outcome.value for r in reports})
        print(render_coverage(rows, wide=args.wide))
        return 0 if all(r[3] != "-" or r[4] for r in rows) else 1
    if args.json:
        _write_json(dumps(to_json(reports)), args.json)
    if args.json != "-":
        print(render(reports, wide=args.wide) + "\n\n" + render_radius(radius_rows()))
    return 1 if any(failures(reports).values()) else 0


def _cmd_report(args) -> int:
    import time

    from bounds import load_config
    from reports._report import default_config, make_report
    from simulate import load_runs, parse_seeds

    config = default_config() if args.config is None else load_config(args.config)
    t = time.perf_counter()
    saved = {} if args.runs_from is None else {"runs": load_runs(args.runs_from), "policies": None}
    seeds = parse_seeds(args.seeds) if args.seeds else (None if saved else parse_seeds("1000"))
    res = make_report(config, seeds=seeds, out_dir=args.out, executor=args.executor, workers=args.workers,
                      progress=args.progress and sys.stderr.isatty(), **saved)
    print(res.summary)
    print()
    for line in res.results["conclusions"]:
        print(f"- {line}")
    print(f"\nreport written to {res.out_dir / 'report.md'} ({len(res.files)} files, "
          f"{time.perf_counter() - t:.0f} s)")
    return 0 if res.results["certificate"]["ok"] else 1


def _cmd_runs(args) -> int:
    from reports._runs_view import cmd_runs

    return cmd_runs(args)


def _cmd_reproduce(args) -> int:
    import time

    from reports._reproduce import reproduce

    t = time.perf_counter()
    results = reproduce(args.experiment or ["all"], seeds=args.seeds, quick=args.quick, out_dir=args.out,
                        executor=args.executor, workers=args.workers, scheduler=args.scheduler, cache=args.cache,
                        progress=args.progress and sys.stderr.isatty())
    from reports._tables import table
    print(table(["experiment", "seeds", "claims reproduced", "seconds"],
                [(r.key, r.results["seeds"], f"{sum(ok for _, ok, _ in r.claims)} of {len(r.claims)}",
                  round(r.seconds)) for r in results]))
    print(f"\nwritten to {Path(args.out) / 'README.md'} ({time.perf_counter() - t:.0f} s)")
    return 0


def _cmd_explain(args) -> int:
    from bounds import load_config
    from reports._explain_view import explain, render, timeline_figure, to_json
    from reports._figures import save
    from reports._tables import dumps

    e = explain(load_config(args.config), args.policy, args.seed, engine=args.engine)
    if args.json:
        _write_json(dumps(to_json(e)), args.json)
    if args.json != "-":
        print(render(e, max_arms=args.max_arms))
    if args.out:
        files = save(timeline_figure(e), Path(args.out), f"explain-{e.config}-{e.policy}-{e.seed}")
        print(f"\ntimeline: {', '.join(str(Path(args.out) / f) for f in files)}", file=sys.stderr)
    return 0


def _cmd_bench(args) -> int:
    from reports._bench import render, run_bench
    from reports._tables import dumps

    res = run_bench(quick=args.quick, smpy_python=args.smpy_python, out_dir=args.out, workers=args.workers,
                    progress=lambda m: print(m, file=sys.stderr))
    if args.json:
        _write_json(dumps(res), args.json)
    if args.json != "-":
        print(render(res))
        print(f"\nfigures in {args.out}")
    return 0


_CONFIG_HELP = "a TOML configuration file or a preset: set-a, set-b, llm-residual, llm-vanishing, checkpoint"


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="tacc", description="Check the TACC paper's theory against runs.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    b = sub.add_parser("bounds", help="every quantity the theorems define, for one instance")
    b.add_argument("config", help=_CONFIG_HELP)
    b.add_argument("--json", metavar="PATH", help="write every quantity as JSON to PATH ('-' for stdout)")
    b.add_argument("--max-arms", type=int, default=40, help="arms shown in the table (default 40)")
    b.set_defaults(func=_cmd_bounds)

    s = sub.add_parser("simulate", help="run a policy on seeds; per-run and per-arm results")
    s.add_argument("config", help=_CONFIG_HELP)
    s.add_argument("--policy", required=True,
                   help="tacc, dnc, mf-ucb, ucb, lucb, weak-fixed, low-improving or rdfe")
    s.add_argument("--seeds", default="0:10", help="A:B runs seeds A..B-1; N runs 0..N-1 (default 0:10)")
    s.add_argument("--engine", choices=("fast", "reference"), default="fast",
                   help="fast (compiled, default) or reference (the readable step form); records are equal")
    s.add_argument("--executor", choices=("serial", "processes", "dask"), default="serial",
                   help="where the runs are made (default serial)")
    s.add_argument("--workers", type=int, default=None, help="processes or local Dask workers (default: cores)")
    s.add_argument("--scheduler", default=None, help="a Dask scheduler address (default: a local cluster)")
    s.add_argument("--cache", metavar="DIR", default=None,
                   help="store finished runs in DIR; a rerun skips them (resume an interrupted sweep)")
    s.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")
    s.add_argument("--json", metavar="PATH", help="write the run records as JSON to PATH ('-' for stdout)")
    s.add_argument("--max-arms", type=int, default=40, help="arms shown in the per-arm table (default 40)")
    s.set_defaults(func=_cmd_simulate)

    c = sub.add_parser("check", help="the gate: every claim's verdict on runs; exit 1 on a new violation")
    c.add_argument("config", nargs="*", help=_CONFIG_HELP + " (default: the five presets and a random sample)")
    c.add_argument("--random", type=int, default=None,
                   help="generated configurations to add (default 20 without CONFIG, 0 with)")
    c.add_argument("--random-seed", type=int, default=0, help="seed of the generated sample (default 0)")
    c.add_argument("--seeds", default="10", help="M runs seeds 0..M-1; A:B runs A..B-1 (default 10)")
    c.add_argument("--policy", action="append",
                   help="a policy to run (repeatable; default tacc, dnc, mf-ucb, ucb, rdfe)")
    c.add_argument("--evidence", type=int, default=100,
                   help="examples per assumption in the search for what breaking it does (0: skip; default 100)")
    c.add_argument("--baseline", metavar="PATH",
                   help="accepted findings: a JSON list of {claim, config}; 'repo' for the repository's")
    c.add_argument("--strict", action="store_true",
                   help="also fail (exit 1) when a claim is judged on no run although a run had something it "
                        "bounds (every run excluded by an assumption, off the event or undecided)")
    c.add_argument("--reproducers", metavar="DIR", default="tacc-check-reproducers",
                   help="where a configuration file per violation is written (default ./tacc-check-reproducers)")
    c.add_argument("--junit", metavar="PATH", help="write JUnit XML (one test case per claim, configuration, policy)")
    c.add_argument("--json", metavar="PATH", help="write the certificate as JSON to PATH ('-' for stdout)")
    c.add_argument("--executor", choices=("serial", "processes", "dask"), default="serial")
    c.add_argument("--workers", type=int, default=None)
    c.add_argument("--scheduler", default=None)
    c.add_argument("--cache", metavar="DIR", default=None)
    c.add_argument("--no-progress", dest="progress", action="store_false")
    c.set_defaults(func=_cmd_check)

    pr = sub.add_parser("proofs", help="every proof step checked by sympy or z3; exit 1 on a new refuted step")
    pr.add_argument("--baseline", metavar="PATH",
                    help="accepted refuted steps (a JSON list of step ids); 'repo' for the repository's baseline of "
                         "the paper's current findings")
    pr.add_argument("--json", metavar="PATH", help="write every step as JSON to PATH ('-' for stdout)")
    pr.add_argument("--wide", action="store_true", help="print each step's statement in full")
    pr.add_argument("--coverage", action="store_true", help="list each statement of the paper with the rows that "
                                                            "check it, or why none does")
    pr.set_defaults(func=_cmd_proofs)

    rp = sub.add_parser("report", help="the bound-versus-empirical report (default: a built-in instance with every "
                                       "arm class)")
    rp.add_argument("config", nargs="?", default=None, help=_CONFIG_HELP + " (default: the built-in instance)")
    rp.add_argument("--seeds", default=None, help="N runs seeds 0..N-1; A:B runs A..B-1 (default 1000; with "
                                                  "--from, every saved seed)")
    rp.add_argument("--from", dest="runs_from", metavar="DIR", default=None,
                    help="rebuild from saved runs (a cache folder such as OUT/runs, or tables of `tacc runs`): no "
                         "simulation")
    rp.add_argument("--out", default="tacc-report", help="output folder (default ./tacc-report)")
    rp.add_argument("--executor", choices=("serial", "processes", "dask"), default="processes")
    rp.add_argument("--workers", type=int, default=None)
    rp.add_argument("--no-progress", dest="progress", action="store_false")
    rp.set_defaults(func=_cmd_report)

    ru = sub.add_parser("runs", help="saved runs (a cache folder or tables) as a summary, or exported as tables")
    ru.add_argument("dir", help="a cache folder (--cache DIR, a report's OUT/runs) or a folder of tables")
    ru.add_argument("--to", choices=("parquet", "csv"), default=None, help="export runs, arms and configs tables")
    ru.add_argument("--out", default="tacc-runs", help="folder for the exported tables (default ./tacc-runs)")
    ru.set_defaults(func=_cmd_runs)

    rr = sub.add_parser("reproduce", help="the paper's experiments beside the paper's numbers")
    rr.add_argument("experiment", nargs="*", help="set-a, set-b, decay, llm-residual, llm-vanishing, checkpoint or all "
                                                  "(default all)")
    rr.add_argument("--seeds", type=int, default=None, help="seeds per experiment (default: the paper's counts)")
    rr.add_argument("--quick", action="store_true", help="a small version for CI: few seeds, two budgets")
    rr.add_argument("--out", default="tacc-reproduce", help="output folder (default ./tacc-reproduce)")
    rr.add_argument("--executor", choices=("serial", "processes", "dask"), default="processes")
    rr.add_argument("--workers", type=int, default=None)
    rr.add_argument("--scheduler", default=None)
    rr.add_argument("--cache", metavar="DIR", default=None,
                    help="finished runs (default OUT/runs): an interrupted reproduction resumes from it")
    rr.add_argument("--no-progress", dest="progress", action="store_false")
    rr.set_defaults(func=_cmd_reproduce)

    ex = sub.add_parser("explain", help="one run, arm by arm as the theory sees it (class, threshold, continuation, "
                                        "certification, counts against bounds, regret share)")
    ex.add_argument("config", help=_CONFIG_HELP)
    ex.add_argument("--policy", default="tacc", help="the policy to run (default tacc)")
    ex.add_argument("--seed", type=int, default=0, help="the reward-table seed (default 0)")
    ex.add_argument("--engine", choices=("fast", "reference"), default="fast")
    ex.add_argument("--json", metavar="PATH", help="write the explanation as JSON to PATH ('-' for stdout)")
    ex.add_argument("--out", metavar="DIR", default=None, help="write a timeline figure (PNG and PDF) to DIR")
    ex.add_argument("--max-arms", type=int, default=40, help="arms shown (largest regret share first; default 40)")
    ex.set_defaults(func=_cmd_explain)

    bn = sub.add_parser("bench", help="engine speed as ratios against references measured in the same run")
    bn.add_argument("--quick", action="store_true", help="smaller budgets and fewer seeds")
    bn.add_argument("--smpy-python", metavar="PYTHON", default=None,
                    help="an interpreter with SMPyBandits 0.9.7 installed (it needs scipy < 1.14: keep it in its own "
                         "virtualenv); without it that comparison is skipped")
    bn.add_argument("--out", default="tacc-bench", help="folder for the scaling plots (default ./tacc-bench)")
    bn.add_argument("--workers", type=int, default=None)
    bn.add_argument("--json", metavar="PATH", help="write every measurement as JSON ('-' for stdout)")
    bn.set_defaults(func=_cmd_bench)
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
