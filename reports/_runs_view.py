"""``tacc runs`` (a folder of saved runs as tables) and the loading step of ``tacc report --from``.

Saved runs are a runner's cache folder (``--cache DIR``, or a report's ``OUT/runs``) or tables written by
``tacc runs DIR --to parquet|csv``; both are read by ``simulate.load_runs``. The report's analysis takes the records
of one configuration at each budget of its sweep from them, with no simulation.
"""

from __future__ import annotations

import json
from pathlib import Path

from bounds import Config, TaccInputError
from simulate import POLICIES, config_id, frame_records, load_runs, save_frames

__all__ = ["saved_config", "runs_by_budget", "render", "cmd_runs"]


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
            raise TaccInputError("from", cfg.name, f"no saved run of this configuration at budget "
                                 f"{cfg.params.budget:g}: the folder holds {len(runs)} run(s) of other "
                                 f"configurations or budgets" + (f" ({unknown} of no known configuration)"
                                                                 if unknown else ""))
        picked[float(cfg.params.budget)] = rows
    full = picked[float(configs[-1].params.budget)]
    if policies is None:
        saved = set(full["policy"])
        policies = tuple(p for p in POLICIES if p in saved) + tuple(sorted(saved - set(POLICIES)))
    policies = tuple(policies)
    found: set[int] | None = None
    for b, rows in picked.items():
        for p in policies:
            s = set(rows.loc[rows["policy"] == p, "seed"].tolist())
            if not s:
                raise TaccInputError("from", p, f"no saved run of this policy at budget {b:g}")
            found = s if found is None else found & s
    if found is None:
        raise TaccInputError("policies", policies, "must name at least one policy")
    if seeds is None:
        seeds = tuple(sorted(found))
        if not seeds:
            raise TaccInputError("from", "seeds", "no seed is saved for every budget and policy")
    else:
        asked = seeds
        seeds = tuple(int(s) for s in seeds)
        missing = sorted(set(seeds) - found)
        if missing:
            have = f"the {len(found)} saved ones ({_spans(sorted(found))})" if found else "the saved ones"
            raise TaccInputError("--seeds", _spans(list(asked)) if isinstance(asked, range) else list(seeds),
                                 f"{len(missing)} of the {len(seeds)} seed(s) asked for are not saved in the folder "
                                 f"for every budget and policy: {_spans(missing)}; omit --seeds to use {have}")
    by = {}
    for b, rows in picked.items():
        for p in policies:
            sel = rows[(rows["policy"] == p) & rows["seed"].isin(seeds)].drop_duplicates("seed").sort_values("seed")
            by[b, p] = frame_records(frames, sel)
    return by, policies, seeds


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
    return table(["config", "budget", "policy", "runs", "first seed", "last seed", "mean regret", "event failed"],
                 rows)


def cmd_runs(args) -> int:
    """``tacc runs DIR [--to parquet|csv] [--out OUT]``."""
    frames = load_runs(args.dir)
    print(render(frames))
    if args.to:
        files = save_frames(frames, args.out, args.to)
        print(f"\n{len(frames.runs)} runs, {len(frames.arms)} arm rows written to "
              + ", ".join(str(Path(f)) for f in files))
    return 0
