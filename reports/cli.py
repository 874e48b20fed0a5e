"""The ``tacc`` command line.

Exit statuses (``EXIT``, shown by ``tacc --help``): 0 ok; 1 a finding (a VIOLATED claim, a new REFUTED step);
2 bad input or usage, before any work starts; 3 an internal error (one line on standard error naming where the
full traceback was saved; ``--debug`` prints it). See ``docs/design.md``, "Exit statuses".
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
import traceback
import warnings
from importlib import metadata
from pathlib import Path

from bounds import PRESETS, TaccInputError, did_you_mean, dump_config
from reports._entry import stopped_name
from reports._interrupted import stopped
from reports._signals import SignalsTaken, Terminated

__all__ = ["EXIT_OK", "EXIT_FINDING", "EXIT_INPUT", "EXIT_INTERNAL", "build_parser", "main"]

EXIT_OK, EXIT_FINDING, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3

_EXIT_HELP = """exit status:
  0  ok
  1  a finding: a claim VIOLATED on a run that --baseline does not accept (tacc check, tacc report) or a new
     REFUTED proof step (tacc proofs)
  2  bad input or usage (one line naming the field or option); nothing was run
  3  an internal error (one line; the full traceback is saved to a file, --debug prints it)"""


class _Parser(argparse.ArgumentParser):
    """Usage errors exit 2 with one line on standard error, no usage block and no traceback.

    ``arguments``: a function adding the parser's arguments, called the first time the parser parses or shows its
    help or usage. A subcommand's arguments are declared that way, so that a command imports only what its own
    choices need: ``tacc bounds`` does not import ``simulate`` (and numba) for ``tacc simulate``'s policy names."""

    def __init__(self, *args, arguments=None, **kwargs):
        # no abbreviated options: `tacc simulate --seed 3` was taken for --seeds 3 and ran seeds 0, 1, 2 (tacc explain
        # spells its one seed --seed; a README-only user)
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
        line says ``tacc report: error: ... (see tacc report --help)``, not ``tacc --help`` (a README-only user)."""
        parsed, extra = self.parse_known_args(args, namespace)
        for mark in [k for k in vars(parsed) if k.startswith(_ONCE_MARK)]:
            delattr(parsed, mark)
        if extra:
            command = getattr(parsed, "command", None)
            sub = next((a.choices[command] for a in self._actions
                        if isinstance(a, argparse._SubParsersAction) and command in a.choices), None)
            parser = sub or self
            option = next((x.split("=", 1)[0] for x in extra if x.startswith("--")), None)
            hint = did_you_mean(option, [o for a in parser._actions for o in a.option_strings]) if option else ""
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


class _OnePolicy(argparse.Action):
    """``--policy`` of a command that runs one policy (``simulate``, ``explain``): given twice it is refused, exit 2
    (argparse keeps the last: `tacc simulate --policy dnc --policy tacc` ran TACC alone, without a word, while
    ``tacc check`` takes the option repeatedly; a README-only user)."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = getattr(namespace, _ONCE_MARK + self.dest, None)
        if given is not None:
            parser.error(f"argument {option_string}: given twice ({given}, then {values}): this command runs one "
                         f"policy; run it once per policy (tacc check takes several)")
        setattr(namespace, _ONCE_MARK + self.dest, values)
        setattr(namespace, self.dest, values)


#: the prefix of the attributes :class:`_OnePolicy` marks a parsed option with (removed once parsing ends).
_ONCE_MARK = "_given_once_"


# ------------------------------------------------------------------------------------------- argument types
def _int_at_least(low: int):
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


def _version() -> str:
    try:
        return metadata.version("tacc")
    except metadata.PackageNotFoundError:  # run from a source tree that was not installed
        return "unknown (not installed)"


# ------------------------------------------------------------------------------------------- shared helpers
def _config_text(value: str):
    """A preset name, or a configuration file that must be readable UTF-8 text (checked before it is parsed)."""
    from bounds import load_config
    from reports._paths import utf8_text

    if value not in PRESETS:
        _config_file(value)
        utf8_text("config", value)
    return load_config(value)


def _config_file(value: str) -> None:
    """A CONFIG that is not a preset must name an existing path; otherwise say both what it is not and the presets."""
    if not Path(value).exists():
        raise TaccInputError("config", value, f"is neither a file nor a preset ({', '.join(PRESETS)})"
                             + did_you_mean(value, PRESETS))


def _write_json(text: str, dest: str) -> None:
    if dest == "-":
        sys.stdout.write(text + "\n")
    else:
        Path(dest).write_text(text + "\n")


def _show_progress(args) -> bool:
    return args.progress and sys.stderr.isatty()


#: the commands that keep every run for their analysis (memory grows with the runs; ``tacc simulate`` and ``tacc
#: report`` stream them, ``tacc check`` judges each run as it comes and keeps its verdicts, 2 to 4 KB a run, unless
#: ``--verdicts violated``: :func:`_keeps_runs`)
_KEEP_RUNS = ("check",)


def _keeps_runs(args) -> bool:
    """Whether the command's memory grows with its runs (:data:`_KEEP_RUNS`)."""
    return args.command in _KEEP_RUNS and getattr(args, "verdicts", "all") == "all"


#: what a refusal on memory adds for a command that can run in less
_LESS_MEMORY = {"check": "tacc check --verdicts violated keeps only the VIOLATED verdicts, in memory independent of "
                         "the seeds"}


def _plan(args, configs, policies, n_seeds: int, *, budgets_per_config: int = 1, workers=None, what: str,
          groups=(), trace: bool = False, at_once: int = 1) -> bool:
    """Estimate the work before it starts; refuse what cannot fit in memory, announce what is long. ``groups``:
    more (configurations, policies, seeds, engine) groups made one after the other (added up), ``at_once`` of them
    held in memory together (``reports._estimate.combined``).

    Returns whether progress should be shown (always for long work, so nothing runs silently for hours)."""
    from reports._estimate import _size as size_text, announce, combined, estimate, machine_memory

    workers = workers or os.cpu_count() or 1

    def planned(kept: bool):
        as_json = kept and args.command == "check" and bool(getattr(args, "json", None))
        return combined([estimate(configs, policies, n_seeds, budgets_per_config=budgets_per_config, workers=workers,
                                  engine=getattr(args, "engine", "fast"), trace=trace, kept=kept, kept_json=as_json,
                                  kept_per_arm=args.command != "check")]
                        + [estimate(c, p, n, workers=workers, engine=e, kept=kept) for c, p, n, e in groups],
                        at_once=at_once)

    kept = _keeps_runs(args)
    est = planned(kept)
    if kept and getattr(args, "seeds", None) and est.memory_bytes > machine_memory() \
            and planned(False).memory_bytes <= machine_memory():
        # what does not fit is the runs kept, not a configuration: named by --seeds (a README-only user's check
        # was refused as config = '<dict>', a generated configuration)
        raise TaccInputError("--seeds", args.seeds, f"{est.runs:,} runs, kept for the analysis, need about "
                             f"{size_text(est.memory_bytes)} of memory, more than this machine's "
                             f"{size_text(machine_memory())} (run fewer seeds"
                             + (f"; {_LESS_MEMORY[args.command]})" if args.command in _LESS_MEMORY else ")"))
    est.refuse_if_too_large(hint=_LESS_MEMORY.get(args.command) if kept else None)
    _check_drawn_gaps(configs)
    if est.long:
        print(announce(est, what, resume=_resume_hint(args)), file=sys.stderr)
    return getattr(args, "progress", True) and (sys.stderr.isatty() or est.long)


def _check_drawn_gaps(configs) -> None:
    """Drawn means (``instance.means``) with a gap whose confirmation count leaves the floats, refused before any
    work (``bounds.check_gaps``; listed means are refused when the file is read): once the memory check has passed,
    as drawing them allocates K floats. They crashed every command with exit 3."""
    from bounds import build_instance, check_gaps
    for c in configs:
        if c.instance.mu_high is None:
            check_gaps(c, build_instance(c.instance).mu_high)


def _resume_hint(args) -> str:
    if getattr(args, "cache", None):
        return f"finished runs are kept in {args.cache}, so the same command resumes"
    if args.command in ("report", "reproduce"):
        return f"finished runs are kept in {Path(args.out) / 'runs'}, so the same command resumes"
    if args.command == "bench":
        return "an interrupted benchmark starts again (it measures, so it keeps no runs)"
    return "with --cache DIR, finished runs are kept and the same command resumes"


# ------------------------------------------------------------------------------------------- subcommands
def _cmd_bounds(args) -> int:
    from bounds import analyze, continuation_of
    from reports._bounds_view import render, to_json
    from reports._estimate import estimate

    config = _config_text(args.config)
    est = estimate([config], (), 0, tables=False)
    est.refuse_if_too_large()
    if est.long:                     # S0 = 10^11 scanned for an hour without a word (a README-only user)
        from reports._estimate import _duration, window_length
        print(f"tacc bounds: the continuation window (eq:fidelity-selection) is read state by state, up to "
              f"min(S0, T) = {window_length(config):,} low counts: time at most about {_duration(est.seconds)}. "
              f"Ctrl-C stops it.",
              file=sys.stderr)
    analysis = analyze(config)
    cont = continuation_of(analysis)
    if args.json:
        _write_json(to_json(analysis, cont), args.json)
    if args.json != "-":
        print(render(analysis, max_arms=args.max_arms, continuation=cont))
        if args.json:
            print(f"\nJSON written to {args.json}")
    return EXIT_OK


def _cmd_simulate(args) -> int:
    from reports._simulate_view import SimulateSummary, check_json_size, render, to_json
    from reports._tables import dumps
    from simulate import iter_runs, iter_tasks, make_problem

    config = _config_text(args.config)
    seeds = _seeds(args.seeds)
    if args.json:
        _option("--json", lambda dest: check_json_size(len(seeds), dest), args.json)
    show = _plan(args, [config], [args.policy], len(seeds), workers=_workers(args), what="tacc simulate")
    problem = make_problem(config)
    summary, records = SimulateSummary(problem), []
    for rec in iter_runs(iter_tasks([config], [args.policy], seeds), executor=args.executor, workers=args.workers,
                         scheduler=args.scheduler, cache=args.cache, engine=args.engine, total=len(seeds),
                         progress=show):
        summary.add(rec)
        if args.json:
            records.append(rec)
    if args.json:
        _write_json(dumps(to_json(problem, records, args.engine)), args.json)
    if args.json != "-":
        print(render(summary, args.engine, max_arms=args.max_arms))
        if args.json:
            print(f"\nJSON written to {args.json}")
    return EXIT_OK


def _option(option: str, load, value):
    """``load(value)``, an error about the value naming the command-line option the user wrote (the libraries name
    their own argument: ``baseline``)."""
    try:
        return load(value)
    except TaccInputError as exc:
        raise TaccInputError(option, exc.value, exc.reason) from None


def _seeds(text: str) -> range:
    """``--seeds``, parsed by ``simulate.parse_seeds``; an error names ``--seeds``."""
    from simulate import parse_seeds

    return _option("--seeds", parse_seeds, text)


def _workers(args):
    return args.workers if args.executor != "serial" else 1     # None then: _check_workers refuses --workers


def _accepted_findings(args) -> dict | None:
    """``--baseline PATH|repo`` of ``tacc check`` and ``tacc report`` (``certify.load_baseline``: accepted
    findings with their reasons); None without it (and certify is not imported: ``tacc report`` reads it before
    its figures' helper starts). An error names ``--baseline``."""
    if not args.baseline:
        return None
    from certify import load_baseline

    return _option("--baseline", load_baseline, args.baseline)


def _warn_unmatched_baseline(command: str, baseline: dict | None, configs) -> None:
    """A warning line per ``--baseline`` entry whose configuration is not one checked but is near one (the file it
    was read from, its name as a file name, another case, a close spelling): an entry ``"config": "w3.toml"``
    accepted nothing, in silence, and the gate failed on the finding it was written for; so did one naming the file
    ``base.toml`` of the configuration named ``ties`` (README-only users). Entries far from every name and file (the
    repository's list on other configurations) are not named: they are for other checks."""
    import difflib
    names = [c.name for c in configs]
    lowered = {n.lower(): n for n in names}
    files: dict[str, str] = {}                   # a checked file's path, name and stem -> its configuration's name
    for c in configs:
        if c.source and not c.source.startswith("preset:"):
            for key in (c.source, Path(c.source).name, Path(c.source).stem):
                files.setdefault(key.lower(), c.name)
    for claim, config in baseline or {}:
        if config == "*" or config in names:
            continue
        near = (files.get(config.lower()) or files.get(Path(config).name.lower())
                or lowered.get(Path(config).stem.lower()) or lowered.get(config.lower())
                or next(iter(difflib.get_close_matches(config, names, n=1, cutoff=0.75)), None))
        if near is not None:
            print(f"tacc {command}: warning: the --baseline entry for {claim} names the configuration {config!r}, "
                  f"which is not checked here (did you mean {near!r}? entries name configurations by their name)",
                  file=sys.stderr)


def _cmd_check(args) -> int:
    from certify import (DEFAULT_POLICIES, assumption_evidence, check, reproducer_path, sample_configs,
                         unique_names)
    from certify.strategies import BREAKABLE
    from reports._check_view import junit, passed, render, to_json
    from reports._simulate_view import MAX_JSON_RUNS
    from reports._tables import dumps

    configs = [_config_text(c) for c in args.config]
    n_random = args.random if args.random is not None else (20 if not args.config else 0)
    if not args.config:
        configs = [_config_text(c) for c in PRESETS]
    baseline = _accepted_findings(args)
    seeds = _seeds(args.seeds)
    if args.json and len(seeds) > MAX_JSON_RUNS:             # the certificate's JSON lists every seed
        raise TaccInputError("--json", args.json, f"would list {len(seeds):,} seeds; at most {MAX_JSON_RUNS:,} (run "
                                                  f"fewer seeds, or drop --json: the tables and --junit list no seed)")
    policies = tuple(args.policy) if args.policy else DEFAULT_POLICIES
    configs += sample_configs(n_random, args.random_seed)
    _warn_unmatched_baseline("check", baseline, unique_names(configs))
    if args.reproducers is not None:      # a reproducer is never written over an input (wide.toml --reproducers .)
        for c in unique_names(configs):
            path = reproducer_path(args.reproducers, c.name)
            for given, what in _input_files(args).items():
                # the input may be that reproducer itself, as the printed command reruns it: the same bytes again
                if _same_file(path, given) and not (what == "the configuration file"
                                                    and Path(given).read_text(encoding="utf-8") == dump_config(c)):
                    raise TaccInputError("--reproducers", args.reproducers,
                                         f"the reproducer of {c.name} would be written to {path}, over {what} this "
                                         f"command reads ({given}); give another folder")
    show = _plan(args, configs, policies, len(seeds), workers=_workers(args), what="tacc check")
    cert = check(configs, policies=policies, seeds=seeds, executor=args.executor, workers=args.workers,
                 scheduler=args.scheduler, cache=args.cache, progress=show, reproducer_dir=args.reproducers,
                 baseline=baseline, keep=args.verdicts)
    evidence = [assumption_evidence(a, max_examples=args.evidence) for a in BREAKABLE] if args.evidence else []
    # both made before either is written: an interrupt while they are made leaves neither (a Ctrl-C at the end left a
    # whole JSON file and no JUnit file, which a CI job reading whichever exists could misread)
    as_json = dumps(to_json(cert, evidence, strict=args.strict)) if args.json else None
    as_junit = junit(cert, strict=args.strict) + "\n" if args.junit else None
    if as_json is not None:
        _write_json(as_json, args.json)
    if as_junit is not None:
        Path(args.junit).write_text(as_junit)
    if args.json != "-":
        print(render(cert, evidence, strict=args.strict))
    if cert.integrity_errors:
        return EXIT_INTERNAL                      # a stored run is not what the policy does: not a finding
    return EXIT_OK if passed(cert, args.strict) else EXIT_FINDING


def _cmd_proofs(args) -> int:
    from proofs_checks import BASELINE, STEPS, coverage_rows, load_baseline, radius_rows, run_steps
    from reports._proofs_view import (coverage_json, coverage_summary, failures, render, render_coverage,
                                      render_radius, to_json)
    from reports._tables import dumps

    path = BASELINE if args.baseline == "repo" else args.baseline
    known = {s.sid for s in STEPS}
    baseline = _option("--baseline", lambda p: load_baseline(p, known), path) if path else set()
    reports = run_steps(STEPS, baseline, mutate_steps=not args.coverage)
    if args.coverage:
        rows = coverage_rows({r.step.sid: r.result.outcome.value for r in reports})
        if args.json:
            _write_json(dumps(coverage_json(rows)), args.json)
        if args.json != "-":
            print(render_coverage(rows, wide=args.wide))
        return EXIT_OK if coverage_summary(rows)["pass"] else EXIT_FINDING
    radius = radius_rows()
    if args.json:
        _write_json(dumps(to_json(reports, radius)), args.json)
    if args.json != "-":
        print(render(reports, wide=args.wide) + "\n\n" + render_radius(radius))
    return EXIT_FINDING if any(failures(reports).values()) else EXIT_OK


def _cmd_report(args) -> int:
    from reports._figure_pool import FIGURE_MEMO, FigureWriter

    if args.runs_from is not None and args.cache is not None:
        raise TaccInputError("--cache", args.cache, "makes no run with --from (the runs are read from there)")
    baseline = _accepted_findings(args)        # read before the figures' helper starts: a bad one writes nothing
    # the helper process that draws the figures starts first, at the first figure not kept beside the runs: its
    # imports (matplotlib) overlap this process's
    # the figures drawn before from the same runs are kept in their cache folder, which --from reads too (drawn
    # again each time, they made --from take three times as long as a plain rerun); tables and a folder this user
    # cannot write keep none
    memo: Path | None = Path(args.cache if args.cache is not None else Path(args.out) / "runs") / FIGURE_MEMO
    if args.runs_from is not None:
        folder = Path(args.runs_from)
        memo = folder / FIGURE_MEMO if (folder / "runs.sqlite").is_file() and os.access(folder, os.W_OK) else None
    with FigureWriter(Path(args.out) / "figures", process=args.executor != "serial", memo=memo) as figures:
        return _report(args, figures, baseline)


def _report(args, figures, baseline) -> int:
    from certify import DEFAULT_POLICIES
    from reports._report import budget_sweep, default_config, make_report
    from reports._runs_view import saved_runs

    if args.runs_from is not None:
        _need_tables("--from", args.runs_from)
    # the records as read, without tables (a report needs only which run each is): as fast as a rerun's reading
    saved = {} if args.runs_from is None else {"runs": saved_runs("--from", args.runs_from, index_only=True),
                                               "policies": None}
    if args.config is not None:
        config = _config_text(args.config)
    elif saved:          # the configuration whose runs are in the folder, not the built-in one
        from reports._runs_view import saved_config
        config = saved_config(saved["runs"], args.runs_from)
    else:
        config = default_config()
    _warn_unmatched_baseline("report", baseline, [config])
    seeds = _seeds(args.seeds) if args.seeds is not None else (None if saved else _seeds("1000"))
    show = _show_progress(args)
    if not saved:
        assert seeds is not None  # parsed, or the default 1000, when no saved runs are read
        show = _plan(args, [config], DEFAULT_POLICIES, len(seeds), budgets_per_config=len(budget_sweep(1.0)),
                     workers=_workers(args), what="tacc report")
    t = time.perf_counter()
    res = make_report(config, seeds=seeds, out_dir=args.out, executor=args.executor, workers=args.workers,
                      scheduler=args.scheduler, cache=args.cache, progress=show, figures=figures, baseline=baseline,
                      **saved)
    print(res.summary)
    print()
    for line in res.results["conclusions"]:
        print(f"- {line}")
    print(f"\nreport written to {res.out_dir / 'report.md'} ({len(res.files)} files, "
          f"{time.perf_counter() - t:.0f} s)")
    return EXIT_OK if res.results["certificate"]["ok"] else EXIT_FINDING


def _cmd_runs(args) -> int:
    from reports._runs_view import cmd_runs

    _need_tables("dir", args.dir)
    return cmd_runs(args)


#: where ``tacc runs DIR --to ...`` writes without ``--out`` (``--out`` without ``--to`` is refused: it wrote nothing).
_RUNS_OUT = "tacc-runs"


def _need_tables(option: str, value) -> None:
    """Refuse, before any work, a command that reads saved runs as tables without pandas (the tables extra)."""
    import importlib.util

    if importlib.util.find_spec("pandas") is None:
        raise TaccInputError(option, str(value), "reading saved runs as tables needs pandas, which is not installed: "
                                                 "pip install '.[tables]' in the tacc repository (the tables extra)")


def _cmd_reproduce(args) -> int:
    from reports._paper import at_paper_seed_counts
    from simulate import CACHE_ENTRIES, started_workers
    t = time.perf_counter()
    # at the paper's seed counts the local workers start now, importing the engines while the work is planned; not
    # when the run cache holds runs already (resuming, or all made: workers started for nothing took the cores)
    folder = _cache_folder(args)
    early = (at_paper_seed_counts(args.seeds, args.quick) and args.executor == "processes"      # (no --scheduler)
             and not (folder is not None and (folder[1] / CACHE_ENTRIES[0]).exists()))     # runs.sqlite
    with started_workers(args.workers) if early else contextlib.nullcontext() as pool:
        from reports._reproduce import reproduce, work
        keys = args.experiment or ["all"]
        groups = [(c, m, n, "fast") for c, m, n in work(keys, seeds=args.seeds, quick=args.quick)]
        # one experiment (two groups: its variants, its rho sweep) is analysed while the next one's runs are made
        show = _plan(args, [], (), 0, workers=_workers(args), what="tacc reproduce", groups=groups, at_once=4)
        results = reproduce(keys, seeds=args.seeds, quick=args.quick, out_dir=args.out,
                            executor=args.executor, workers=args.workers, scheduler=args.scheduler, cache=args.cache,
                            progress=show, pool=pool)
    from reports._tables import table
    print(table(["experiment", "seeds", "claims reproduced", "seconds"],
                [(r.key, r.results["seeds"], f"{sum(ok for _, ok, _ in r.claims)} of {len(r.claims)}",
                  round(r.seconds)) for r in results]))
    print(f"\nwritten to {Path(args.out) / 'README.md'} ({time.perf_counter() - t:.0f} s)")
    return EXIT_OK


def _cmd_explain(args) -> int:
    from reports._explain_view import explain, render, timeline_figure, to_json
    from reports._figures import save
    from reports._tables import dumps

    config = _config_text(args.config)
    _plan(args, [config], [args.policy], 1, workers=1, what="tacc explain (one run, traced)", trace=True)
    from simulate import check_seed
    e = explain(config, args.policy, check_seed(args.seed, "--seed"), engine=args.engine)
    if args.json:
        _write_json(dumps(to_json(e)), args.json)
    if args.json != "-":
        print(render(e, max_arms=args.max_arms))
    if args.out:
        from certify import file_stem      # the name made safe: "x/y" crashed, "/../../x" wrote outside --out
        files = save(timeline_figure(e), Path(args.out), f"explain-{file_stem(e.config)}-{e.policy}-{e.seed}")
        print(f"timeline: {', '.join(str(Path(args.out) / f) for f in files)}", file=sys.stderr)
    return 0


def _cmd_bench(args) -> int:
    from reports._bench import render, run_bench, work
    from reports._tables import dumps

    _plan(args, [], (), 0, workers=1, what="tacc bench (timed serially: the bound counts one worker)",
          groups=work(args.quick))
    res = run_bench(quick=args.quick, smpy_python=args.smpy_python, out_dir=args.out, workers=args.workers,
                    progress=lambda m: print(m, file=sys.stderr))
    if args.json:
        _write_json(dumps(res), args.json)
    if args.json != "-":
        print(render(res))
        print(f"\nfigures in {args.out}")
    return EXIT_OK


# ------------------------------------------------------------------------------------------- path checks
def _check_paths(args) -> None:
    """Every path option given, checked before any work starts (``reports._paths``): a bad one exits 2, an empty
    one too (it was skipped as not given, or taken as the working folder)."""
    from reports import _paths

    if args.command == "runs":            # --out is --to's folder: refused alone, its default checked with --to
        if args.to is None and args.out is not None:
            raise TaccInputError("--out", args.out, "is where --to writes the tables; without --to nothing is "
                                                    "written (give --to parquet or --to csv)")
        if args.to is not None and args.out is None:
            args.out = _RUNS_OUT
    if getattr(args, "json", None) is not None:
        _paths.output_file("--json", args.json, allow_stdout=True)
    if getattr(args, "junit", None) is not None:
        if args.junit == "-":         # it wrote a file named "-" (for --json, "-" is standard output)
            raise TaccInputError("--junit", args.junit, "must name a file: the JUnit XML is written to a file, never "
                                                        "to standard output ('-' is that only for --json)")
        _paths.output_file("--junit", args.junit)
        json_path = getattr(args, "json", None)
        if json_path not in (None, "-") and Path(json_path).resolve() == Path(args.junit).resolve():
            raise TaccInputError("--junit", args.junit, f"is the file --json writes too ({json_path}): one would "
                                                        "overwrite the other")
    for option in ("out", "cache", "reproducers"):
        if getattr(args, option, None) is not None:
            _paths.output_dir(f"--{option}", getattr(args, option))
    _check_cache_folder(args)
    for option, dest in (("--from", "runs_from"), ("dir", "dir")):
        if getattr(args, dest, None) is not None:
            _paths.input_dir(option, getattr(args, dest))
    if getattr(args, "baseline", None) is not None and args.baseline != "repo":
        near_repo = did_you_mean(args.baseline, ["repo"])     # "--baseline rep": a missing file, no word of repo
        if near_repo and not Path(args.baseline).exists():
            raise TaccInputError("--baseline", args.baseline, "no such file" + near_repo)
        _paths.utf8_text("--baseline", args.baseline)
    for c in _configs_of(args):
        if c not in PRESETS:
            _config_file(c)
            _paths.utf8_text("config", c)
    if getattr(args, "smpy_python", None) is not None:
        _check_smpy(_paths.executable("--smpy-python", args.smpy_python), args.smpy_python)
    _check_inputs_kept(args)


def _input_files(args) -> dict:
    """The files the command reads, as given: {path: what it is} (the configuration files, the --baseline file)."""
    files = {c: "the configuration file" for c in _configs_of(args) if c not in PRESETS}
    if getattr(args, "baseline", None) not in (None, "repo"):
        files[args.baseline] = "the --baseline file"
    return files


def _same_file(a, b) -> bool:
    """Whether paths ``a`` and ``b`` name one file: the same path once links are resolved, or (both existing) the
    same file through a hard link."""
    pa, pb = Path(a), Path(b)
    if pa.resolve() == pb.resolve():
        return True
    try:
        return pa.exists() and pb.exists() and os.path.samefile(pa, pb)
    except OSError:
        return False


def _written(args) -> list:
    """What the command writes: (option, value as given, path, whole folder?): --json and --junit, the run cache's
    folder (--cache, else OUT/runs of report and reproduce), and the files and folders --out gets (report:
    report.md, results.json, figures/, reproducers/; reproduce and runs --to: the whole folder)."""
    out = []
    for option, dest in (("--json", "json"), ("--junit", "junit")):
        value = getattr(args, dest, None)
        if value not in (None, "-"):
            out.append((option, value, Path(value), False))
    cache = _cache_folder(args)
    if cache is not None:
        out.append((cache[0], args.cache if cache[0] == "--cache" else args.out, cache[1], True))
    if args.command == "report":
        out += [("--out", args.out, Path(args.out) / name, False) for name in ("report.md", "results.json")]
        out += [("--out", args.out, Path(args.out) / name, True) for name in ("figures", "reproducers")]
    elif args.command == "reproduce" or (args.command == "runs" and args.to is not None):
        out.append(("--out", args.out, Path(args.out), True))
    return out


def _inside(path, folder) -> bool:
    """Whether ``path`` is ``folder`` or lies inside it, once links are resolved."""
    p, f = Path(path).resolve(), Path(folder).resolve()
    return p == f or f in p.parents


def _check_inputs_kept(args) -> None:
    """No file the command writes is one it reads, and no file it writes lies in the run cache it uses:
    ``tacc bounds k2.toml --json k2.toml`` wrote the JSON over the configuration, ``--baseline acc.json --json
    acc.json`` over the baseline, ``tacc report results.json --out .`` the report's results over the configuration,
    ``--cache C --json C/runs.sqlite`` over the cache, exit 0 (README-only users)."""
    inputs = _input_files(args)
    written = _written(args)
    for option, value, path, folder in written:
        for given, what in inputs.items():
            if _inside(given, path) if folder else _same_file(path, given):
                raise TaccInputError(option, value, f"would write over {what} this command reads ({given}); give "
                                                    f"another {'folder' if option in ('--out', '--cache') else 'file'}")
    if args.command == "report" and getattr(args, "runs_from", None) is not None and _inside(args.out,
                                                                                             args.runs_from):
        # the report's files among the saved runs it reads (a README-only user's `--from R/runs --out R/runs`)
        raise TaccInputError("--out", args.out, f"is the folder --from reads ({args.runs_from}) or lies in it: the "
                                                f"report would be written among the saved runs; give a folder "
                                                f"outside it (the report beside its run cache: --out "
                                                f"{Path(args.runs_from).parent})")
    cache = _cache_folder(args)
    for option, value, path, folder in written:
        if not folder and cache is not None and _inside(path, cache[1]):
            raise TaccInputError(option, value, "lies in the run cache's folder this command uses; writing it there "
                                                "would damage the cache (give a file outside it)")
    # a file one option writes is never a folder another writes (--json X --cache X failed with exit 3 after the work)
    folders = [(o, p) for o, _, p, f in written if f] + [(f"--{d}", Path(getattr(args, d))) for d in ("reproducers",)
                                                         if getattr(args, d, None) is not None]
    if args.command == "explain" and args.out is not None:
        folders.append(("--out", Path(args.out)))
    for option, value, path, folder in written:
        for other, fpath in folders:
            if not folder and other != option and path.resolve() == fpath.resolve():
                raise TaccInputError(option, value, f"is the folder {other} writes: give them different paths")
    if cache is not None and cache[0] == "--cache" and args.command in ("report", "reproduce"):
        folder = cache[1]
        if folder.resolve().parent == Path(args.out).resolve() and (
                folder.name in ("report.md", "results.json", "README.md")
                or folder.suffix in (".md", ".json") and args.command == "reproduce"):
            raise TaccInputError("--cache", args.cache, f"is a file --out writes ({folder.name}): give another folder")


def _cache_folder(args) -> tuple[str, Path] | None:
    """The run cache's folder a command writes and the option that names it: ``--cache``, else ``OUT/runs`` of
    ``tacc report`` and ``tacc reproduce``; None without one (``report --from`` reads runs and makes none)."""
    if getattr(args, "runs_from", None) is not None:
        return None
    if getattr(args, "cache", None):
        return "--cache", Path(args.cache)
    if args.command in ("report", "reproduce"):
        return "--out", Path(args.out) / "runs"
    return None


def _check_cache_folder(args) -> None:
    """The run cache's folder (``--cache``, else ``OUT/runs`` of ``tacc report`` and ``tacc reproduce``), checked by
    ``simulate.check_cache_folder`` before anything is written, the refusal naming the option as typed: a symbolic
    link the cache (or ``tacc report``'s figure memo) would write through was found after the configurations were
    saved beside the runs, and a linked ``configs/`` was written through."""
    cache = _cache_folder(args)
    if cache is None:
        return
    option, folder = cache
    from simulate import check_cache_folder

    entries: tuple = ()
    if args.command == "report":
        from reports._figure_pool import FIGURE_MEMO
        entries = (FIGURE_MEMO,)
    check_cache_folder(folder, option=option, entries=entries)


def _check_workers(args) -> None:
    """``--workers`` with ``--executor serial``: refused as ``--scheduler`` without dask is (the serial executor
    makes every run in this process, so the option would be ignored in silence); with ``--scheduler`` (a Dask cluster
    whose workers are the scheduler's, not started here) likewise, before the scheduler is connected to."""
    workers = getattr(args, "workers", None)
    if workers is not None and getattr(args, "executor", None) == "serial":
        raise TaccInputError("--workers", workers, "is used only with --executor processes or dask (the executor is "
                                                   "serial, which makes every run in this process)")
    if workers is not None and getattr(args, "executor", None) == "dask" and getattr(args, "scheduler", None):
        # (tacc bench has --workers and no --executor: reading args.executor crashed it, exit 3)
        raise TaccInputError("--workers", workers, "is used only without --scheduler (the runs go to the workers of "
                                                   "the cluster at --scheduler, which are the scheduler's; --workers "
                                                   "sets those of a local pool or cluster)")
    if workers is not None:              # processes this machine's memory could not hold (--workers 99999 started them)
        from reports._estimate import refuse_too_many_workers
        refuse_too_many_workers(workers)


def _check_scheduler(args) -> None:
    """``--scheduler``, connected to (``simulate.connect``, then closed) before the command creates anything: a bad
    address or a scheduler that does not answer exits 2 and leaves no file or folder behind (the sweep found it at
    its first run, after the command had made its output folder and saved its configurations in the cache)."""
    scheduler = getattr(args, "scheduler", None)
    if scheduler is None:
        return
    if args.executor != "dask":
        raise TaccInputError("--scheduler", scheduler, f"is used only with --executor dask (the executor is "
                                                       f"{args.executor}, which would make the runs without it)")
    if getattr(args, "runs_from", None) is not None:
        raise TaccInputError("--scheduler", scheduler, "makes no run with --from (the runs are read from there)")
    from simulate import connect

    connect(scheduler).close()


def _configs_of(args) -> list[str]:
    c = getattr(args, "config", None)
    return [] if c is None else [c] if isinstance(c, str) else list(c)


def _check_smpy(program: str, shown: str) -> None:
    import subprocess

    try:
        r = subprocess.run([program, "-c", "import SMPyBandits"], capture_output=True, text=True, timeout=300)
    except OSError as exc:
        raise TaccInputError("--smpy-python", shown, f"cannot be run: {exc.strerror or exc}") from None
    except subprocess.TimeoutExpired:
        raise TaccInputError("--smpy-python", shown, "did not import SMPyBandits within 300 s") from None
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["no message"])[-1]
        raise TaccInputError("--smpy-python", shown, f"cannot import SMPyBandits ({last})")


# ------------------------------------------------------------------------------------------- parser
def _config_help() -> str:
    return f"a TOML configuration file or a preset: {', '.join(PRESETS)}"


def _run_options(p: argparse.ArgumentParser, executor: str, *, cache: str = "") -> None:
    """Add the options of every command that makes runs to ``p``, declared once (``executor``: the command's
    default; ``cache``: where its runs are kept without ``--cache``, said in the option's help)."""
    from simulate import EXECUTORS

    g = p.add_argument_group("where the runs are made")
    g.add_argument("--executor", choices=EXECUTORS, default=executor,
                   help="serial (this process), processes (a local pool) or dask (default %(default)s)")
    g.add_argument("--workers", type=_int_at_least(1), default=None, metavar="N",
                   help="processes or local Dask workers (default: the machine's cores)")
    g.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="with --executor dask: a Dask scheduler address such as tcp://host:8786, connected to "
                        "before anything is written (default: a local cluster)")
    g.add_argument("--cache", metavar="DIR", default=None,
                   help="store every finished run in DIR; the same command run again skips them (resume)"
                        + (f" (default {cache})" if cache else ""))
    g.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar (shown on a terminal, and always for work estimated to be long)")


def _debug_option(default) -> _Parser:
    p = _Parser(add_help=False)
    p.add_argument("--debug", action="store_true", default=default,
                   help="on an internal error, print the full traceback")
    return p


def build_parser() -> argparse.ArgumentParser:
    """The ``tacc`` parser. Each subcommand's arguments are added when that subcommand is parsed or its help shown
    (``_Parser``'s ``arguments``), so a command imports only what its own options need."""
    debug = _debug_option(argparse.SUPPRESS)
    p = _Parser(prog="tacc", description="Check the TACC paper's theory against runs.", epilog=_EXIT_HELP,
                formatter_class=argparse.RawDescriptionHelpFormatter, parents=[_debug_option(False)])
    p.add_argument("--version", action="version", version=f"tacc {_version()}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")
    for name, help_, arguments in _COMMANDS:
        sub.add_parser(name, help=help_, description=help_, parents=[debug], epilog=_EXIT_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter, arguments=arguments)
    return p


def _bounds_arguments(b: argparse.ArgumentParser) -> None:
    b.add_argument("config", help=_config_help())
    b.add_argument("--json", metavar="PATH", help="write every quantity as JSON to PATH ('-' for stdout)")
    b.add_argument("--max-arms", type=_int_at_least(1), default=40, metavar="N",
                   help="arms shown in the table (default 40)")
    b.set_defaults(func=_cmd_bounds)


def _simulate_arguments(s: argparse.ArgumentParser) -> None:
    from simulate import ENGINES, POLICIES

    _run_options(s, "serial")
    s.add_argument("config", help=_config_help())
    s.add_argument("--policy", required=True, choices=POLICIES, metavar="POLICY", action=_OnePolicy,
                   help=f"one of {', '.join(POLICIES)}")
    s.add_argument("--seeds", default="0:10", help="A:B runs seeds A..B-1; N runs 0..N-1 (default 0:10)")
    s.add_argument("--engine", choices=ENGINES, default="fast",
                   help="fast (compiled, default) or reference (the readable step form); records are equal")
    s.add_argument("--json", metavar="PATH", help="write the run records as JSON to PATH ('-' for stdout)")
    s.add_argument("--max-arms", type=_int_at_least(1), default=40, metavar="N",
                   help="arms shown in the per-arm table (default 40)")
    s.set_defaults(func=_cmd_simulate)


def _check_arguments(c: argparse.ArgumentParser) -> None:
    from certify import KEEP
    from simulate import POLICIES

    _run_options(c, "serial")
    c.add_argument("config", nargs="*",
                   help=_config_help() + " (default: every preset and a generated sample)")
    c.add_argument("--random", type=_int_at_least(0), default=None, metavar="N",
                   help="generated configurations to add (default 20 without CONFIG, 0 with)")
    c.add_argument("--random-seed", type=_int_at_least(0), default=0, metavar="S",
                   help="seed of the generated sample, an integer >= 0 (default 0)")
    c.add_argument("--seeds", default="10", help="M runs seeds 0..M-1; A:B runs A..B-1 (default 10)")
    c.add_argument("--policy", action="append", choices=POLICIES, metavar="POLICY",
                   help=f"a policy to run, repeatable: {', '.join(POLICIES)} (default: certify.DEFAULT_POLICIES, the "
                        "policies the claims are about)")
    c.add_argument("--evidence", type=_int_at_least(0), default=100, metavar="N",
                   help="examples per assumption in the search for what breaking it does (0: skip; default 100)")
    _baseline_argument(c)
    c.add_argument("--strict", action="store_true",
                   help="also fail (exit 1) when a claim is judged on no run although a run had something it "
                        "bounds (every run excluded by an assumption, off the event or undecided)")
    c.add_argument("--reproducers", metavar="DIR", default="tacc-check-reproducers",
                   help="where a configuration file per violation is written (default ./tacc-check-reproducers; "
                        "nothing is written without a violation)")
    c.add_argument("--junit", metavar="PATH", help="write JUnit XML (one test case per claim, configuration, policy)")
    c.add_argument("--json", metavar="PATH", help="write the certificate as JSON to PATH ('-' for stdout)")
    c.add_argument("--verdicts", choices=KEEP, default="all",
                   help="the verdicts kept and listed in --json: all (default; memory grows with the runs, 2 to 4 "
                        "KB each, about 15 KB more with --json) or violated (only VIOLATED ones and lem:ci's: memory "
                        "independent of --seeds; the tables, counts, reasons and JUnit cases are the same)")
    c.set_defaults(func=_cmd_check)


def _baseline_argument(p: argparse.ArgumentParser) -> None:
    """``--baseline`` of the commands that judge claims (``tacc check``, ``tacc report``), declared once."""
    p.add_argument("--baseline", metavar="PATH",
                   help="accepted findings: a JSON list of {claim, config, why}; 'repo' for the repository's "
                        "(certify/baseline.json); a VIOLATED verdict it accepts is not a finding (exit 0)")


def _proofs_arguments(pr: argparse.ArgumentParser) -> None:
    pr.add_argument("--baseline", metavar="PATH",
                    help="accepted refuted steps (a JSON list of step ids); 'repo' for the repository's baseline of "
                         "the paper's current findings")
    pr.add_argument("--json", metavar="PATH", help="write every step, the summary and the rho table as JSON to PATH "
                                                   "('-' for stdout); with --coverage, the coverage table's rows and "
                                                   "counts")
    pr.add_argument("--wide", action="store_true",
                    help="print every cell in full (statement, hypotheses not needed, counterexample / "
                         "corrected / slack)")
    pr.add_argument("--coverage", action="store_true", help="list each statement of the paper with the rows that "
                                                            "check it, or why none does")
    pr.set_defaults(func=_cmd_proofs)


def _report_arguments(rp: argparse.ArgumentParser) -> None:
    _run_options(rp, "processes", cache="OUT/runs")
    rp.add_argument("config", nargs="?", default=None,
                    help=_config_help() + " (default: the built-in instance; with --from, the configuration of the "
                                          "saved runs)")
    rp.add_argument("--seeds", default=None, help="N runs seeds 0..N-1; A:B runs A..B-1 (default 1000; with "
                                                  "--from, every saved seed)")
    rp.add_argument("--from", dest="runs_from", metavar="DIR", default=None,
                    help="rebuild from saved runs (a cache folder such as OUT/runs, or tables of `tacc runs`): no "
                         "simulation")
    rp.add_argument("--out", default="tacc-report", metavar="DIR",
                    help="output folder (default ./tacc-report; finished runs are kept in DIR/runs, or in "
                         "--cache)")
    _baseline_argument(rp)
    rp.set_defaults(func=_cmd_report)


def _runs_arguments(ru: argparse.ArgumentParser) -> None:
    ru.add_argument("dir", help="a cache folder (--cache DIR, a report's OUT/runs) or a folder of tables")
    ru.add_argument("--to", choices=("parquet", "csv"), default=None, help="export runs, arms and configs tables")
    ru.add_argument("--out", default=None, metavar="DIR",
                    help=f"with --to: folder for the exported tables (default ./{_RUNS_OUT})")
    ru.set_defaults(func=_cmd_runs)


def _reproduce_arguments(rr: argparse.ArgumentParser) -> None:
    from reports._paper import EXPERIMENTS

    keys = [e.key for e in EXPERIMENTS]
    _run_options(rr, "processes", cache="OUT/runs")
    rr.add_argument("experiment", nargs="*", metavar="EXPERIMENT",
                    help=f"{', '.join(keys)} or all (default all)")
    rr.add_argument("--seeds", type=_int_at_least(2), default=None, metavar="N",
                    help="seeds per experiment, at least 2 (paired intervals); default: the paper's counts")
    rr.add_argument("--quick", action="store_true", help="a small version for CI: few seeds, two budgets")
    rr.add_argument("--out", default="tacc-reproduce", metavar="DIR", help="output folder (default ./tacc-reproduce)")
    rr.set_defaults(func=_cmd_reproduce)


def _explain_arguments(ex: argparse.ArgumentParser) -> None:
    from simulate import ENGINES, POLICIES

    ex.add_argument("config", help=_config_help())
    ex.add_argument("--policy", default="tacc", choices=POLICIES, metavar="POLICY", action=_OnePolicy,
                    help=f"the policy to run (default tacc): {', '.join(POLICIES)}")
    ex.add_argument("--seed", type=_int_at_least(0), default=0, metavar="S", help="the reward-table seed (default 0)")
    ex.add_argument("--engine", choices=ENGINES, default="fast", help="fast (compiled) or reference (step form)")
    ex.add_argument("--json", metavar="PATH", help="write the explanation as JSON to PATH ('-' for stdout)")
    ex.add_argument("--out", metavar="DIR", default=None, help="write a timeline figure (PNG and PDF) to DIR")
    ex.add_argument("--max-arms", type=_int_at_least(1), default=40, metavar="N",
                    help="arms shown (largest regret share first; default 40)")
    ex.set_defaults(func=_cmd_explain)


def _bench_arguments(bn: argparse.ArgumentParser) -> None:
    bn.add_argument("--quick", action="store_true", help="smaller budgets and fewer seeds")
    bn.add_argument("--smpy-python", metavar="PYTHON", default=None,
                    help="an interpreter with SMPyBandits 0.9.7 installed (it needs scipy < 1.14: keep it in its own "
                         "virtualenv); without it that comparison is skipped")
    bn.add_argument("--out", default="tacc-bench", metavar="DIR", help="folder for the scaling plots (default "
                                                                       "./tacc-bench)")
    bn.add_argument("--workers", type=_int_at_least(1), default=None, metavar="N",
                    help="processes for the scaling runs (default: the machine's cores)")
    bn.add_argument("--json", metavar="PATH", help="write every measurement as JSON ('-' for stdout)")
    bn.set_defaults(func=_cmd_bench)


#: the subcommands in the order ``tacc --help`` lists them: name, help, the function adding their arguments.
_COMMANDS = (
    ("bounds", "every quantity the theorems define, for one instance", _bounds_arguments),
    ("simulate", "run a policy on seeds; per-run and per-arm results", _simulate_arguments),
    ("check", "the gate: every claim's verdict on runs; exit 1 on a new violation", _check_arguments),
    ("proofs", "every proof step checked by sympy or z3; exit 1 on a new refuted step", _proofs_arguments),
    ("report", "the bound-versus-empirical report (default: a built-in instance with every arm class)",
     _report_arguments),
    ("runs", "saved runs (a cache folder or tables) as a summary, or exported as tables", _runs_arguments),
    ("reproduce", "the paper's experiments beside the paper's numbers", _reproduce_arguments),
    ("explain", "one run, arm by arm as the theory sees it (class, threshold, continuation, certification, counts "
                "against bounds, regret share)", _explain_arguments),
    ("bench", "engine speed as ratios against references measured in the same run", _bench_arguments),
)


# ------------------------------------------------------------------------------------------- entry point
#: commands whose work draws with hypothesis (generated configurations, the evidence search); ``tacc report`` judges
#: runs without drawing and does not import hypothesis.
_USES_HYPOTHESIS = ("check",)


def _hypothesis_home(folder: str) -> None:
    """Point hypothesis's storage (its example database and its cache of source constants) at ``folder``, so a
    command writes no ``.hypothesis/`` into the working directory."""
    from hypothesis.configuration import set_hypothesis_home_dir
    set_hypothesis_home_dir(folder)


def _internal_error(exc: BaseException, command: str) -> str:
    """Save the traceback to a file (in the system's temporary folder, never the working directory) and return the
    one line that names what failed and where."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    text = "".join(traceback.format_exception(exc))
    fd, name = tempfile.mkstemp(prefix="tacc-traceback-", suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write(f"tacc {_version()}, command: {' '.join(sys.argv)}\n\n{text}")
    message = str(exc).splitlines()[0] if str(exc) else ""
    return (f"tacc {command}: internal error: {type(exc).__name__}{': ' + message if message else ''}{where} "
            f"(full traceback in {name}; rerun with --debug to print it)")


#: options whose value may start with a minus sign that argparse takes for an option (it knows only plain negative
#: numbers): ``--seeds -1:2`` said "expected one argument" without saying why
_SIGNED_VALUES = ("--seeds",)


def _glue_signed_values(argv: list[str]) -> list[str]:
    """``--seeds -1:2`` as ``--seeds=-1:2``, so that the value reaches the check that names ``--seeds`` and says
    seeds are >= 0. Only a value of a minus sign and a digit is glued (``--seeds --json x`` stays as it was)."""
    out: list[str] = []
    for arg in argv:
        if out and out[-1] in _SIGNED_VALUES and len(arg) > 1 and arg[0] == "-" and arg[1].isdigit():
            out[-1] = f"{out[-1]}={arg}"
        else:
            out.append(arg)
    return out


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning of a command (the run cache's "recomputed", the figure memo's "drawn again") as one line
    ``warning: <message>`` on standard error, instead of Python's file, line and source line."""
    print(f"warning: {message}", file=sys.stderr if file is None else file)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (usage errors, ``--help`` and ``--version`` included).

    SIGTERM (``timeout``, a batch system's kill) is taken as Ctrl-C is (:class:`~reports._signals.SignalsTaken`):
    children ended, what finished kept, one line ``tacc COMMAND: terminated``, exit 143 (128 + SIGTERM). Its handler
    is installed and put back inside the ``try`` that takes an interrupt: a Ctrl-C there (``signal.signal`` runs the
    handler of a signal just received) printed a traceback."""
    argv = sys.argv[1:] if argv is None else list(argv)
    term = SignalsTaken()
    try:
        with term:
            status = _main(argv, term)
    except KeyboardInterrupt as exc:        # as the handler is installed or put back, or after the command's end
        _end_children()
        return stopped(stopped_name(argv), term.terminated or isinstance(exc, Terminated), exc)
    if term.lost(status):                   # its exception dropped on the way by C code: late, not lost
        _end_children()
        return stopped(stopped_name(argv), term.terminated)
    return status


def _main(argv: list[str], term: SignalsTaken) -> int:
    try:
        args = build_parser().parse_args(_glue_signed_values(argv))
    except SystemExit as exc:  # argparse has printed its one line (or the help)
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT
    except KeyboardInterrupt as exc:  # while a subcommand's arguments import what they list: named if argv names it
        return stopped(stopped_name(argv), term.terminated, exc)
    try:
        with warnings.catch_warnings():    # restores Python's own display when the command ends (library use)
            warnings.showwarning = _one_line_warning
            _check_paths(args)
            _check_workers(args)
            _check_scheduler(args)
            if args.command in _USES_HYPOTHESIS:
                with tempfile.TemporaryDirectory(prefix="tacc-hypothesis-") as home:
                    _hypothesis_home(home)
                    return args.func(args)
            return args.func(args)
    except TaccInputError as exc:
        _end_children()
        if exc.field in _RUN_OPTION_FIELDS:   # the runner names its argument; the user wrote the option
            exc = TaccInputError(_RUN_OPTION_FIELDS[exc.field], exc.value, exc.reason)
        print(f"tacc: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:  # the reader of standard output stopped reading (| head): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt as exc:
        _end_children()
        return stopped(f"tacc {args.command}", term.terminated, exc)
    except Exception as exc:  # noqa: BLE001 -- the one place an unexpected error becomes exit 3
        _end_children()
        # a worker killed by the same SIGTERM broke the pool before it reached us; or the signal's exception was
        # dropped by C code that raised another (numpy's import_array: an ImportError)
        if term.terminated or term.interrupted:
            return stopped(f"tacc {args.command}", term.terminated)
        if args.debug:
            traceback.print_exc()
        print(_internal_error(exc, args.command), file=sys.stderr)
        return EXIT_INTERNAL


#: the runner's arguments (``simulate.iter_runs``) whose errors come during the sweep, not when it is called (a Dask
#: scheduler that stopped answering after ``_check_scheduler`` connected to it is found when the sweep starts), by
#: the run option the user wrote.
_RUN_OPTION_FIELDS = {"scheduler": "--scheduler"}


def _end_children() -> None:
    """Kill this process's child processes (run workers, the figures' helper) after an interrupt or an error.

    A command stopped mid-sweep can leave a pool nobody will shut down (its generator not closed yet), and Python's
    exit joins every child process: `tacc report` interrupted on a full cache printed "interrupted" and then
    waited forever for two idle workers."""
    mp = sys.modules.get("multiprocessing")
    if mp is None:
        return
    for p in mp.active_children():
        p.kill()
    for p in mp.active_children():
        p.join(5)


if __name__ == "__main__":
    from reports._entry import skip_last_collection
    exit_status = main()
    skip_last_collection()
    sys.exit(exit_status)
