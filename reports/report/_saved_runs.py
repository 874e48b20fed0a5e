"""Saved runs: what ``tacc runs`` summarises (:func:`summarize_runs`, rendered by ``reports.views._runs``) and the
loading step of ``tacc report --from``.

Saved runs are a runner's cache folder (``--cache DIR``, or a report's ``OUT/runs``) or tables written by
``tacc runs DIR --to parquet|csv``; both are read by ``simulate.load_runs``. The report's analysis takes the records
of one configuration at each budget of its sweep from them, with no simulation.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from dataclasses import replace
from pathlib import Path

from bounds import Config, TaccInputError
from simulate import POLICIES, config_id, frame_records, load_runs

from reports.report._budgets import default_config
from reports.views import UNKNOWN, EventFailures, RunsRow, RunsSummary

__all__ = ["saved_runs", "saved_config", "runs_by_budget", "summarize_runs", "RunsSummary", "RunsRow", "EventFailures",
           "write_config_files", "TOML_FOLDER", "UNKNOWN"]


def saved_runs(option: str, folder, **options):
    """``simulate.load_runs(folder)``, its input errors naming the command line's ``option`` (``--from``, ``dir``)
    rather than the library's argument ``path``; a folder refused that holds a folder ``runs`` (a ``tacc report
    --out`` folder, whose runs are kept in ``OUT/runs``) is told to give that one."""
    try:
        return load_runs(folder, **options)
    except TaccInputError as e:
        if e.field != "path":
            raise
        runs = Path(folder) / "runs"
        hint = (f" (a `tacc report --out` folder keeps its runs in {runs}: give that folder)" if runs.is_dir()
                else "")
        raise TaccInputError(option, e.value, e.reason + hint) from None


def saved_config(frames, folder) -> Config:
    """The configuration ``tacc report --from DIR`` rebuilds when no CONFIG is given: the one configuration the
    saved runs are of. A report's sweep keeps it at each of its budgets (the same configuration but for the budget,
    halving); the largest is the report's. A folder holding runs of several configurations (a ``tacc check`` cache)
    is refused, naming ``--from`` (``folder``) and saying to give CONFIG; so is one whose runs match no saved
    configuration. A full budget whose saved configuration file is damaged is found from its runs' keys. The
    configuration's ``source`` says where it was read."""
    sweeps: dict[tuple, list] = {}
    for cid in frames.runs["config_id"].dropna().unique():
        c = frames.config(cid)
        sweeps.setdefault((c.name, config_id(replace(c, params=replace(c.params, budget=1.0)))), []).append(c)
    if not sweeps:
        raise TaccInputError("--from", str(folder), f"holds {len(frames.runs)} run(s), none matched to a "
                                                    "configuration saved with them (a run is matched by its key, "
                                                    "which holds a fingerprint of the code: runs made by other "
                                                    "code, another version of tacc, numba, numpy or Python, are not)")
    if len(sweeps) > 1:
        names = sorted(name for name, _ in sweeps)
        raise TaccInputError("--from", str(folder), f"holds runs of {len(sweeps)} configurations "
                                                    f"({', '.join(names[:6])}{', ...' if len(names) > 6 else ''}): "
                                                    "give the CONFIG to report on (a TOML file or a preset; "
                                                    f"`tacc runs {folder} --to csv` writes the saved configurations' "
                                                    "TOML)")
    (sweep,) = sweeps.values()
    best = max(sweep, key=lambda c: c.params.budget)
    # the full budget's configuration file may be damaged (not used, with a warning, when loading): its runs are then
    # of no known configuration, and they are found by their key under the same configuration at their budget
    loose = frames.runs[frames.runs["config_id"].isna()]
    for budget in sorted({json.loads(c)[-1] for c in loose["checkpoints"] if json.loads(c)}, reverse=True):
        if budget > best.params.budget:
            bigger = replace(best, params=replace(best.params, budget=float(budget)))
            if not _matched_by_key(frames.runs, bigger).empty:
                best = bigger
                break
    return replace(best, source=f"saved with the runs in {folder}")


def _matched_by_key(runs, config):
    """The rows of ``runs`` of no known configuration (its saved file damaged or missing: ``simulate.load_runs``
    warns) whose cache key is that of a run of ``config``."""
    from simulate import Task

    loose = runs[runs["config_id"].isna() & runs["key"].notna()]
    hit = [any(Task(config, p, int(s), cps).key() == k for cps in (None, tuple(json.loads(c))))
           for p, s, c, k in zip(loose["policy"], loose["seed"], loose["checkpoints"], loose["key"], strict=True)]
    return loose[hit]


def runs_by_budget(frames, configs, *, policies=None, seeds=None) -> tuple[dict, tuple, tuple]:
    """The saved records of ``configs`` (one configuration at each budget of a sweep) as ``{(budget, policy):
    [records in seed order]}``, with the policies and seeds used.

    Policies default to those saved at any budget (in the order of ``simulate.POLICIES``), each needed at every
    budget; seeds to those saved for every (budget, policy). Asked-for policies that are not all saved are refused
    (``from``), seeds (``--seeds``) likewise, naming what is missing.
    """
    runs = frames.runs
    picked = {}
    for cfg in configs:
        rows = runs[runs["config_id"] == config_id(cfg)]
        if rows.empty:
            rows = _matched_by_key(runs, cfg)
        if rows.empty:
            unknown = int(runs["config_id"].isna().sum())
            raise TaccInputError("config", cfg.name, f"no saved run of this configuration at budget "
                                 f"{cfg.params.budget:g} in the saved runs: they hold {len(runs)} run(s) of other "
                                 f"configurations or budgets" + (f" ({unknown} of no known configuration)"
                                                                 if unknown else "") +
                                 ". A report needs the runs of its five budgets (Lambda/16 to Lambda), which "
                                 "`tacc check` and `tacc simulate` do not make: `tacc report [CONFIG] --out OUT` "
                                 "makes them (and keeps them in OUT/runs)")
        picked[float(cfg.params.budget)] = rows
    asked = policies is not None
    if policies is None:
        # every policy saved at some budget of the sweep: one saved at the smaller budgets but not at the full one
        # (its runs there deleted) was left out of the report in silence
        saved = set().union(*(set(rows["policy"]) for rows in picked.values()))
        policies = tuple(p for p in POLICIES if p in saved) + tuple(sorted(saved - set(POLICIES)))
    policies = tuple(policies)
    if not policies:
        raise TaccInputError("policies", policies, "must name at least one policy")
    broken = _damaged_of(frames, configs, policies)
    have = {}
    for b, rows in picked.items():
        for p in policies:
            have[b, p] = set(rows.loc[rows["policy"] == p, "seed"].tolist())
            if not have[b, p] and not broken.get((b, p)) and asked:
                raise TaccInputError("policies", p, f"no saved run of this policy at budget {b:g} in the saved runs")
    complete = set.intersection(*have.values())
    if seeds is None:
        # every seed saved (or damaged) for some budget and policy must be there for all: a report over the seeds
        # common to all, dropping the others in silence, hid damaged runs (and one over different seeds per policy
        # would compare the policies on different runs)
        wanted = set.union(*have.values(), *(set(d) for d in broken.values()))
        gaps = _gaps(have, broken, wanted, configs[-1].name)
        if gaps:
            raise TaccInputError("--from", str(frames.origin or "the saved runs"),
                                 f"holds {len(wanted)} seed(s) ({_spans(sorted(wanted))}) but not every one for "
                                 f"every budget and policy: {gaps}; the report is not made over fewer seeds in "
                                 f"silence. {_remedy(frames, configs, wanted, complete)}")
        seeds = tuple(sorted(complete))
    else:
        asked = seeds
        seeds = tuple(int(s) for s in seeds)
        missing = sorted(set(seeds) - complete)
        if missing:
            nowhere = not broken and all(set(missing).isdisjoint(h) for h in have.values())
            where = "" if nowhere else f" ({_gaps(have, broken, set(seeds), configs[-1].name)})"
            # how to make the runs asked for, as for a missing run (the command to paste); then the seeds saved
            if complete == set.union(*have.values()) and not broken:
                instead = _remedy(frames, configs, set(seeds), complete, made_before=False,
                                  instead=f"; or omit --seeds to use the {len(complete)} saved ones "
                                          f"({_spans(sorted(complete))})")
            else:
                instead = _remedy(frames, configs, set(seeds), complete)
            raise TaccInputError("--seeds", _spans(list(asked)) if isinstance(asked, range) else list(seeds),
                                 f"{len(missing)} of the {len(seeds)} seed(s) asked for are not saved in the folder "
                                 f"for every budget and policy: {_spans(missing)}{where}. {instead}")
    by = {}
    for b, rows in picked.items():
        for p in policies:
            sel = rows[(rows["policy"] == p) & rows["seed"].isin(seeds)].drop_duplicates("seed").sort_values("seed")
            by[b, p] = frame_records(frames, sel)
    return by, policies, seeds


def _damaged_of(frames, configs, policies) -> dict:
    """The damaged runs of ``frames`` (``RunFrames.damaged``) of ``configs`` and ``policies``: ``{(budget, policy):
    {seed: why}}``."""
    from simulate import describe_damaged

    out: dict = {}
    bad = frames.damaged
    if bad is None:
        return out
    ids = {config_id(c): float(c.params.budget) for c in configs}
    for row in bad.itertuples(index=False):
        if isinstance(row.config_id, str) and row.config_id in ids and row.policy in policies:
            out.setdefault((ids[row.config_id], row.policy), {})[int(row.seed)] = describe_damaged(row)
    return out


def _gaps(have: dict, broken: dict, wanted: set, name: str, most: int = 6) -> str:
    """What lacks of ``wanted`` seeds of configuration ``name``, per (budget, policy): damaged runs named with why,
    missing ones as spans."""
    text = []
    for (b, p), seeds in sorted(have.items(), key=lambda x: (-x[0][0], x[0][1])):
        lack = sorted(wanted - seeds)
        if not lack:
            continue
        damaged = broken.get((b, p), {})
        gone = [s for s in lack if s not in damaged]
        if gone:
            text.append(f"{p} at budget {b:g} of {name}: seed(s) {_spans(gone)} not saved")
        text += [f"{damaged[s]}: damaged, not used" for s in lack if s in damaged]
    return "; ".join(text[:most]) + (f"; ... ({len(text) - most} more)" if len(text) > most else "")


def _remedy(frames, configs, wanted: set, complete: set, *, made_before: bool = True,
            instead: str | None = None) -> str:
    """How to make the lacking runs (a plain report over the same folder makes only those: a command to paste), or to
    report on the seeds saved for every budget and policy (``instead``: what to say for that, "; or ...").
    ``made_before``: the runs were saved once (missing or damaged since), not only asked for (``--seeds``)."""
    again = " again" if made_before else ""
    full = configs[-1]
    arg = _config_arg(full)
    folder = Path(frames.origin) if frames.origin else None
    seeds = f"--seeds {min(wanted)}:{max(wanted) + 1}"
    toml = None if arg is not None else _config_files(frames).get(config_id(full))
    if folder is not None and folder.name == "runs" and (folder / "runs.sqlite").exists():
        report_dir = folder.parent
        if made_before:             # the report's own runs, lost since: its own command makes them again
            where = f"--out {shlex.quote(str(report_dir))}"
        else:                       # seeds it never had: into its run cache, the report beside it (--out of the
            # report itself would replace it with one over those seeds alone)
            beside = report_dir.with_name(f"{report_dir.name}-seeds-{min(wanted)}-{max(wanted) + 1}")
            where = f"--cache {shlex.quote(str(folder))} --out {shlex.quote(str(beside))}"
        if arg is None and toml is not None:
            # the configuration exists only as saved with the runs: `tacc runs` writes it as a TOML file first
            tables = folder.with_name("runs-tables")
            arg = f" {shlex.quote(str(tables / TOML_FOLDER / toml))}"
            command = (f"tacc runs {shlex.quote(str(folder))} --to csv --out {shlex.quote(str(tables))} && "
                       f"tacc report{arg} {seeds} {where}")
        else:
            command = f"tacc report{' CONFIG' if arg is None else arg} {seeds} {where}"
        how = f"`{command}` makes them{again} (only those: the others are read from {folder})"
    elif folder is not None and (folder / "runs.sqlite").exists():
        how = (f"the sweep that saved them, run again with `--cache {folder}`, makes them again (only those)"
               if made_before else
               f"`tacc report{' CONFIG' if arg is None else arg} {seeds} --cache {shlex.quote(str(folder))} --out "
               f"OUT` makes them (only those: the others are read from {folder})")
    else:
        if arg is None and toml is not None and folder is not None and (folder / TOML_FOLDER / toml).is_file():
            arg = f" {shlex.quote(str(folder / TOML_FOLDER / toml))}"
        if made_before:
            how = "these are exported tables: export them again (`tacc runs DIR --to ...`) from a complete run cache"
            if arg is not None and toml is not None:
                how += f", or make them with `tacc report{arg} {seeds} --out OUT` (OUT/runs then holds all)"
        else:
            how = (f"these are exported tables: `tacc report{' CONFIG' if arg is None else arg} {seeds} --out OUT` "
                   f"makes them (OUT/runs then holds them, which `tacc runs OUT/runs --to ...` exports)")
    if len(wanted) != max(wanted) + 1 - min(wanted):
        how += f" (and the seeds between them not saved: {seeds} is every seed from {min(wanted)} to {max(wanted)})"
    a, b = _longest_span(complete)
    other = instead if instead is not None else "" if not complete else (
        f"; or report on the {len(complete)} seed(s) saved for every budget and policy with --seeds {a}:{b}"
        if b - a == len(complete) else
        f"; or report on seeds saved for every budget and policy ({_spans(sorted(complete))}), the longest span "
        f"with --seeds {a}:{b}")
    return f"To report on all {len(wanted)}: {how}{other}" + (
        f" (CONFIG: the configuration {full.name} they were made with; `tacc runs DIR --to csv --out X` writes it as "
        f"X/{TOML_FOLDER}/{toml or '<name>-budget-<budget>.toml'})" if " CONFIG " in how else "") + "."


def _config_arg(config) -> str | None:
    """The CONFIG argument of a ``tacc report`` command that makes runs of ``config`` (a leading space; "" for the
    built-in instance), or None: it exists as no file or preset."""
    from bounds import PRESETS, load_config

    source = str(config.source or "")
    if source.startswith("preset:"):
        return f" {source.removeprefix('preset:')}"
    if source and Path(source).is_file():
        return f" {shlex.quote(source)}"
    cid = config_id(config)
    if cid == config_id(default_config()):
        return ""
    return next((f" {name}" for name in PRESETS if config_id(load_config(name)) == cid), None)


#: the folder, beside exported tables, that ``tacc runs DIR --to ...`` writes each saved configuration into as TOML.
TOML_FOLDER = "configs"


def _config_files(frames) -> dict[str, str]:
    """The file name (in :data:`TOML_FOLDER`) of each configuration of ``frames``: ``<name>-budget-<budget>.toml``,
    its name made safe for a file name; with the configuration's id added where two would share one."""
    named = {}
    for cid in frames.configs["config_id"].tolist():
        c = frames.config(cid)
        b = float(c.params.budget)
        budget = str(int(b)) if b.is_integer() and abs(b) < 1e16 else repr(b)
        named[cid] = re.sub(r"[^A-Za-z0-9._-]", "_", c.name) + f"-budget-{budget}"
    shared = Counter(named.values())
    files = {cid: (f"{n}-{cid}" if shared[n] > 1 else n) + ".toml" for cid, n in named.items()}
    return dict(sorted(files.items(), key=lambda x: (frames.config(x[0]).name, frames.config(x[0]).params.budget)))


def write_config_files(frames, out) -> list[Path]:
    """Each configuration of ``frames`` as a TOML file in ``out/configs`` (a CONFIG that ``tacc report`` reads); the
    files."""
    folder = Path(out) / TOML_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    text = dict(zip(frames.configs["config_id"].tolist(), frames.configs["toml"].tolist(), strict=True))
    paths = []
    for cid, name in _config_files(frames).items():
        (folder / name).write_text(text[cid])
        paths.append(folder / name)
    return paths


def _longest_span(seeds: set) -> tuple[int, int]:
    """The longest run of consecutive seeds in ``seeds`` as (A, B): seeds A to B-1 (the first such run)."""
    best = (0, 0)
    for s in sorted(seeds):
        if s - 1 not in seeds:
            e = s
            while e in seeds:
                e += 1
            if e - s > best[1] - best[0]:
                best = (s, e)
    return best


def _spans(seeds: list, most: int = 6) -> str:
    """Sorted seeds as A:B spans (seeds A to B-1, as ``--seeds`` reads them: :func:`simulate.parse_seeds`), the
    first ``most``; a single seed A is A:A+1 too (a bare A would read as the count, seeds 0 to A-1).

    >>> _spans([0, 1, 2, 5, 7, 8])
    '0:3, 5:6, 7:9'
    """
    spans: list = []
    for x in seeds:
        if spans and x == spans[-1][1]:
            spans[-1][1] = x + 1
        else:
            spans.append([x, x + 1])
    text = [f"{a}:{b}" for a, b in spans]
    return ", ".join(text[:most]) + (f", ... ({len(text) - most} more)" if len(text) > most else "")


def summarize_runs(frames) -> RunsSummary:
    """The saved runs of ``frames`` per configuration, budget and policy, with the mean regret and the confidence
    event's failures; where the seed sets of a configuration's budgets and policies differ, the seeds each lacks of
    those saved for any."""
    r = frames.runs.copy()
    unknown = int(r["config"].isna().sum())
    r["config"] = _distinct_names(r)
    r["config"] = r["config"].fillna(UNKNOWN)
    g = r.groupby(["config", "budget", "policy"], dropna=False)
    saved = {c: set(x["seed"].tolist()) for c, x in r.groupby("config")}
    problems: dict = {}
    rows = tuple(RunsRow(c, b, p, len(x), x["seed"].min(), x["seed"].max(), x["regret"].mean(),
                         _event_failed(frames, x, problems), _spans(sorted(saved[c] - set(x["seed"].tolist()))))
                 for (c, b, p), x in g)
    damaged: tuple[str, ...] = ()
    if frames.damaged is not None and len(frames.damaged):
        from simulate import describe_damaged

        damaged = tuple(describe_damaged(r) for r in frames.damaged.itertuples(index=False))
    return RunsSummary(rows, unknown, damaged)


def _distinct_names(runs):
    """Each run's configuration name, with the configuration's id added where two configurations of one name and
    budget differ (a rho sweep's, or two files given one name): their runs are never pooled into one row. The id is
    the one the exported TOML files of such configurations carry (:func:`_config_files`)."""
    known = runs[runs["config_id"].notna()]
    ids = known.groupby(["config", "budget"])["config_id"].nunique()
    clash = {key for key, n in ids.items() if n > 1}
    if not clash:
        return runs["config"]
    return [f"{c} ({cid})" if (c, b) in clash else c
            for c, b, cid in zip(runs["config"], runs["budget"], runs["config_id"], strict=True)]


def _event_failed(frames, rows, problems: dict) -> EventFailures:
    """The runs of ``rows`` on which the confidence event of ``lem:ci`` failed, decided exactly: each run whose
    float check reported a failure is decided again on its observations (``certify.event_failures``, its problem
    built once per configuration in ``problems``); runs of no known configuration are counted by their float
    check."""
    flagged = rows[~rows["event_held"]]
    if flagged.empty:
        return EventFailures()
    known = flagged[flagged["config_id"].notna()]
    failed, rounding = 0, 0
    if len(known):
        from certify import event_failures
        from simulate import make_problem
        for cid, x in known.groupby("config_id"):
            if cid not in problems:
                problems[cid] = make_problem(frames.config(cid))
            f, r = event_failures(problems[cid], frame_records(frames, x))
            failed, rounding = failed + f, rounding + r
    return EventFailures(failed, rounding, len(flagged) - len(known))
