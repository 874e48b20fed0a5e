"""``tacc proofs``: every proof step checked by sympy or z3; exit 1 on a new refuted step."""

from __future__ import annotations

from reports.cli._files import Files, baseline_file, json_file
from reports.cli._options import as_option, write_json
from reports.cli._options import Options
from reports.cli._parser import EXIT_FINDING, EXIT_OK

HELP = "every proof step checked by sympy or z3; exit 1 on a new refuted step"


def arguments(p) -> None:
    p.add_argument("--baseline", metavar="PATH",
                   help="accepted refuted steps (a JSON list of step ids); 'repo' for the repository's baseline of "
                        "the paper's current findings")
    p.add_argument("--json", metavar="PATH", help="write every step, the summary and the rho table as JSON to PATH "
                                                  "('-' for stdout); with --coverage, the coverage table's rows and "
                                                  "counts and the side conditions")
    p.add_argument("--wide", action="store_true",
                   help="print every cell in full (statement, hypotheses not needed, counterexample / "
                        "corrected / slack)")
    p.add_argument("--coverage", action="store_true", help="list each statement of the paper with the rows that "
                                                           "check it, or why none does, and each remark, corollary "
                                                           "and experimental setting against the standing "
                                                           "assumptions; exit 1 only on a statement with neither")


def files(args, options: Options) -> Files:
    return Files(inputs=baseline_file(args.baseline),
                 out_files=json_file(options.json))


def run(args, options: Options) -> int:
    from proofs_checks import BASELINE, STEPS, coverage_rows, load_baseline, radius_rows, run_steps, side_outcomes
    from reports.views import (coverage_json, coverage_summary, failures, render_coverage, render_radius,
                               render_side, proofs_json as to_json, render_proofs as render)
    from reports.tables import dumps

    path = BASELINE if args.baseline == "repo" else args.baseline
    known = {s.sid for s in STEPS}
    baseline = as_option("--baseline", lambda p: load_baseline(p, known), path) if path else set()
    reports = run_steps(STEPS, baseline, mutate_steps=not args.coverage)
    if args.coverage:
        rows = coverage_rows({r.step.sid: r.result.outcome.value for r in reports})
        side = side_outcomes()
        if options.json:
            write_json(dumps(coverage_json(rows, side)), options.json)
        if options.json != "-":
            print(render_coverage(rows, wide=args.wide) + "\n\n" + render_side(side, wide=args.wide))
        return EXIT_OK if coverage_summary(rows)["pass"] else EXIT_FINDING
    radius = radius_rows()
    if options.json:
        write_json(dumps(to_json(reports, radius)), options.json)
    if options.json != "-":
        print(render(reports, wide=args.wide) + "\n\n" + render_radius(radius))
    return EXIT_FINDING if any(failures(reports).values()) else EXIT_OK
