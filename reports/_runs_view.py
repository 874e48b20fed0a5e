"""``tacc runs`` (a folder of saved runs as tables) and the loading step of ``tacc report --from``.

Saved runs are a runner's cache folder (``--cache DIR``, or a report's ``OUT/runs``) or tables written by
``tacc runs DIR --to parquet|csv``; both are read by ``simulate.load_runs``. The report's analysis takes the records
of one configuration at each budget of its sweep from them, with no simulation.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from bounds import Config, TaccInputError
from simulate import POLICIES, config_id, frame_records, load_runs, save_frames

__all__ = ["saved_config", "runs_by_budget", "render", "cmd_runs"]


def saved_runs(option: str, folder, **options):
    """``simulate.load_runs(folder)``, its input errors naming the command line's ``option`` (``--from``, ``dir``)
    rather than the library's argument ``path``."""
    try:
        return load_runs(folder, **options)
    except TaccInputError as e:
        if e.field != "path":
            raise
        raise TaccInputError(option, e.value, e.reason) from None


def saved_config(frames, folder) -> Config:
    """The configuration ``tacc report --from DIR`` rebuilds when no CONFIG is given: the one configuration the
    saved runs are of. A report's sweep keeps it at each of its budgets (the same configuration but for the budget,
    halving); the largest is the report's. A folder holding runs of several configurations (a ``tacc check`` cache)
    is refused, naming ``--from`` (``folder``) and saying to give CONFIG; so is one whose runs match no saved
    configuration. A full budget whose saved configuration file is damaged is found from its runs' keys. The
    configuration's ``source`` says where it was read."""
    from dataclasses import replace

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

    Policies default to those saved at the full budget (in the order of ``simulate.POLICIES``); seeds to those
    saved for every (budget, policy). Asked-for policies that are not all saved are refused (``from``), seeds
    (``--seeds``) likewise, naming what is missing.
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
    full = picked[float(configs[-1].params.budget)]
    if policies is None:
        saved = set(full["policy"])
        policies = tuple(p for p in POLICIES if p in saved) + tuple(sorted(saved - set(POLICIES)))
    policies = tuple(policies)
    if not policies:
        raise TaccInputError("policies", policies, "must name at least one policy")
    broken = _damaged_of(frames, configs, policies)
    have = {}
    for b, rows in picked.items():
        for p in policies:
            have[b, p] = set(rows.loc[rows["policy"] == p, "seed"].tolist())
            if not have[b, p] and not broken.get((b, p)):
                raise TaccInputError("policies", p, f"no saved run of this policy at budget {b:g} in the saved runs")
    complete = set.intersection(*have.values())
    if seeds is None:
        # every seed saved (or damaged) for some budget and policy must be there for all: a report over the seeds
        # common to all, dropping the others in silence, hid damaged runs (and one over different seeds per policy
        # would compare the policies on different runs)
        wanted = set.union(*have.values(), *(set(d) for d in broken.values()))
        gaps = _gaps(have, broken, wanted)
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
            where = "" if nowhere else f" ({_gaps(have, broken, set(seeds))})"
            if complete == set.union(*have.values()) and not broken:
                instead = f"omit --seeds to use the {len(complete)} saved ones ({_spans(sorted(complete))})"
            else:
                instead = _remedy(frames, configs, set(seeds), complete)
            raise TaccInputError("--seeds", _spans(list(asked)) if isinstance(asked, range) else list(seeds),
                                 f"{len(missing)} of the {len(seeds)} seed(s) asked for are not saved in the folder "
                                 f"for every budget and policy: {_spans(missing)}; {instead}{where}")
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


def _gaps(have: dict, broken: dict, wanted: set, most: int = 6) -> str:
    """What lacks of ``wanted`` seeds, per (budget, policy): damaged runs named with why, missing ones as spans."""
    text = []
    for (b, p), seeds in sorted(have.items(), key=lambda x: (-x[0][0], x[0][1])):
        lack = sorted(wanted - seeds)
        if not lack:
            continue
        damaged = broken.get((b, p), {})
        gone = [s for s in lack if s not in damaged]
        if gone:
            text.append(f"{p} at budget {b:g}: seed(s) {_spans(gone)} not saved")
        text += [f"{damaged[s]}: damaged, not used" for s in lack if s in damaged]
    return "; ".join(text[:most]) + (f"; ... ({len(text) - most} more)" if len(text) > most else "")


def _remedy(frames, configs, wanted: set, complete: set) -> str:
    """How to make the lacking runs (a plain report over the same folder makes only those), or to report on the
    seeds saved for every budget and policy."""
    from reports._report import default_config

    full = configs[-1]
    source = str(full.source or "")
    if config_id(full) == config_id(replace(default_config(), params=full.params)):
        arg = ""
    elif source.startswith("preset:"):
        arg = f" {source.removeprefix('preset:')}"
    elif source and Path(source).is_file():
        arg = f" {source}"
    else:
        arg = " CONFIG"
    folder = Path(frames.origin) if frames.origin else None
    seeds = f"--seeds {min(wanted)}:{max(wanted) + 1}"
    if folder is not None and folder.name == "runs" and (folder / "runs.sqlite").exists():
        how = (f"`tacc report{arg} {seeds} --out {folder.parent}` makes them again (only those: the others are "
               f"read from {folder})")
    elif folder is not None and (folder / "runs.sqlite").exists():
        how = f"the sweep that saved them, run again with `--cache {folder}`, makes them again (only those)"
    else:
        how = "these are exported tables: export them again (`tacc runs DIR --to ...`) from a complete run cache"
    if len(wanted) != max(wanted) + 1 - min(wanted):
        how += f" (and the seeds between them not saved: {seeds} is every seed from {min(wanted)} to {max(wanted)})"
    a, b = _longest_span(complete)
    other = "" if not complete else (
        f"; or report on the {len(complete)} seed(s) saved for every budget and policy with --seeds {a}:{b}"
        if b - a == len(complete) else
        f"; or report on seeds saved for every budget and policy ({_spans(sorted(complete))}), the longest span "
        f"with --seeds {a}:{b}")
    return f"To report on all {len(wanted)}: {how}{other}" + (
        " (CONFIG: the configuration they were made with; `tacc runs DIR --to csv` writes its TOML)"
        if arg == " CONFIG" else "") + "."


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
    """Sorted seeds as A:B spans (seeds A to B-1, as ``--seeds`` reads them) and single seeds, the first ``most``.

    >>> _spans([0, 1, 2, 5, 7, 8])
    '0:3, 5, 7:9'
    """
    spans: list = []
    for x in seeds:
        if spans and x == spans[-1][1]:
            spans[-1][1] = x + 1
        else:
            spans.append([x, x + 1])
    text = [f"{a}" if b == a + 1 else f"{a}:{b}" for a, b in spans]
    return ", ".join(text[:most]) + (f", ... ({len(text) - most} more)" if len(text) > most else "")


def render(frames) -> str:
    """Runs per configuration, budget and policy, with the mean regret and the confidence event's failures."""
    from reports._tables import table

    r = frames.runs.copy()
    r["config"] = r["config"].fillna("(unknown)")
    g = r.groupby(["config", "budget", "policy"], dropna=False)
    rows = [(c, b, p, len(x), x["seed"].min(), x["seed"].max(), x["regret"].mean(), int((~x["event_held"]).sum()))
            for (c, b, p), x in g]
    text = table(["config", "budget", "policy", "runs", "first seed", "last seed", "mean regret", "event failed"],
                 rows)
    if frames.damaged is not None and len(frames.damaged):
        from simulate import describe_damaged

        text += (f"\n\n{len(frames.damaged)} damaged run(s), not in the table nor in exported tables (no run is made "
                 "here; the sweep that saved them, run again over the same folder, makes them again):\n"
                 + "\n".join(f"  {describe_damaged(r)}" for r in frames.damaged.itertuples(index=False)))
    return text


def cmd_runs(args) -> int:
    """``tacc runs DIR [--to parquet|csv] [--out OUT]``."""
    frames = saved_runs("dir", args.dir)
    print(render(frames))
    if args.to:
        files = save_frames(frames, args.out, args.to)
        print(f"\n{len(frames.runs)} runs, {len(frames.arms)} arm rows written to "
              + ", ".join(str(Path(f)) for f in files))
    return 0
