"""Run records as tables: one row per run and one per (run, arm), as pandas DataFrames with typed columns.

A sweep's records become :class:`RunFrames` (``records_frame``), tables on disk (``save_frames``: Parquet or
CSV) and records again (``frame_records``), equal field by field to the ones the engines made, so an analysis
(``tacc report --from DIR``) can start from saved runs with no simulation. A cache folder of the runner is read
the same way (``load_runs``): its records, linked to the configurations the runner keeps beside them.

pandas (and pyarrow for Parquet) are the optional extra ``tables`` (``pip install '.[tables]'``); nothing here
imports them until a table is built.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tomllib
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bounds import Config, TaccInputError, dump_config, parse_config
from simulate._cache import CACHE_ENTRIES, CacheMismatchWarning, RunCache, check_cache_folder, run_key_prefix
from simulate._group_read import add_group_read
from simulate._problem import config_json, config_key
from simulate._record import RunRecord
from simulate._tasks import Task

__all__ = ["RunFrames", "config_id", "records_frame", "frame_records", "save_frames", "load_frames",
           "save_configs", "load_runs", "describe_damaged", "FORMATS", "RUN_COLUMNS", "ARM_COLUMNS", "DAMAGED_COLUMNS",
           "INDEX_COLUMNS"]

#: table formats of :func:`save_frames`.
FORMATS = ("parquet", "csv")

#: per-run columns and their dtypes (lists and RDFE phases as JSON text: exact, and the same in CSV and Parquet).
RUN_COLUMNS = {
    "run": "int64", "key": "string", "config": "string", "config_id": "string", "budget": "float64",
    "policy": "string", "seed": "int64", "rounds": "int64", "cost": "float64", "regret": "float64",
    "event_held": "bool", "violation_arm": "Int64", "violation_fidelity": "string", "violation_count": "Int64",
    "output": "Int64", "checkpoints": "string", "regret_at": "string", "phases": "string", "trace": "string",
}
#: per-(run, arm) columns: the run's identity repeated, so a groupby needs no merge.
ARM_COLUMNS = {
    "run": "int64", "config": "string", "budget": "float64", "policy": "string", "seed": "int64", "arm": "int64",
    "n_low": "int64", "n_high": "int64", "continuation": "int64", "threshold_count": "int64",
    "high_in_window": "int64", "high_before_threshold": "int64", "regret_share": "float64",
}
CONFIG_COLUMNS = {"config_id": "string", "config": "string", "toml": "string"}
#: the per-run columns of ``load_runs(DIR, index_only=True)``: which run each row is, no result.
INDEX_COLUMNS = {c: RUN_COLUMNS[c] for c in ("run", "key", "config", "config_id", "budget", "policy", "seed",
                                             "checkpoints")}
_PER_ARM = ("n_low", "n_high", "continuation", "threshold_count", "high_in_window", "high_before_threshold",
            "regret_share")


def _pandas():
    try:
        import pandas
    except ImportError:
        raise TaccInputError("tables", "pandas", "tables need pandas: pip install '.[tables]' in the tacc repository "
                                                         "(the tables extra)") from None
    return pandas


def config_id(config: Config) -> str:
    """A short hash of everything in ``config`` that determines a run (its source excluded)."""
    return hashlib.sha256(config_key(config).encode()).hexdigest()[:16]


@dataclass(frozen=True, eq=False)
class RunFrames:
    """The tables of a set of runs.

    Attributes:
        runs: one row per run (:data:`RUN_COLUMNS`); ``run`` numbers the runs, ``key`` is the runner's cache key,
            ``config``/``config_id``/``budget`` are missing (NA) for records given without their task.
        arms: one row per (run, arm) (:data:`ARM_COLUMNS`).
        configs: one row per configuration: ``config_id``, name, and the configuration as TOML text.
        damaged: stored runs of a cache folder that are not in the tables because their record is damaged
            (:data:`DAMAGED_COLUMNS`: the run they are of, when known, and why), or None: none.
        origin: the folder the tables were read from (:func:`load_runs`, :func:`load_frames`), or None.
        records: with ``load_runs(DIR, index_only=True)``, the records themselves, entry ``run`` of each row,
            which :func:`frame_records` returns (``runs`` then holds only the columns :data:`INDEX_COLUMNS` and
            ``arms`` no row); otherwise None: the records are rebuilt from the tables.
    """

    runs: Any      # pandas DataFrames (pandas is an optional dependency, without type information)
    arms: Any
    configs: Any
    damaged: Any = None
    origin: str | None = None
    records: tuple | None = None

    def config(self, cid: str) -> Config:
        """The configuration with id ``cid``, read back from its TOML text."""
        rows = self.configs[self.configs["config_id"] == cid]
        if rows.empty:
            raise TaccInputError("config_id", cid, "no such configuration in these tables")
        return parse_config(tomllib.loads(rows["toml"].iloc[0]), source=f"tables:{cid}")


def _json(x) -> str:
    return json.dumps(x, allow_nan=True)


def _typed(df, columns: dict):
    pd = _pandas()
    df = df.reindex(columns=list(columns))
    for name, dtype in columns.items():
        if dtype == "bool":
            df[name] = df[name].astype(bool)
        elif dtype == "float64":
            df[name] = pd.to_numeric(df[name]).astype("float64")
        else:
            df[name] = df[name].astype(dtype)
    return df.reset_index(drop=True)


def records_frame(records, tasks=None) -> RunFrames:
    """The tables of ``records``; with ``tasks`` (the ``simulate.Task`` of each record, same order; None for a
    record whose task is unknown) every row also names its configuration, budget and cache key.

    >>> from bounds import load_config
    >>> from simulate import run_tasks, tasks_for
    >>> tasks = tasks_for([load_config("llm-residual")], ["tacc", "ucb"], range(2))
    >>> f = records_frame(run_tasks(tasks), tasks)
    >>> f.runs[["policy", "seed", "budget"]].values.tolist()
    [['tacc', 0, 128000.0], ['tacc', 1, 128000.0], ['ucb', 0, 128000.0], ['ucb', 1, 128000.0]]
    >>> len(f.arms), str(f.arms["n_low"].dtype)
    (16, 'int64')
    """
    pd = _pandas()
    records = list(records)
    tasks = [None] * len(records) if tasks is None else list(tasks)
    if len(tasks) != len(records):
        raise TaccInputError("tasks", len(tasks), f"must hold one task per record ({len(records)})")
    runs: list[dict] = []
    arms: dict[str, list] = {c: [] for c in ARM_COLUMNS}
    configs: dict[str, Config] = {}
    ids: dict[int, str] = {}
    cid: str | None
    name: str | None
    key: str | None
    for i, (rec, task) in enumerate(zip(records, tasks, strict=True)):
        if task is not None:
            if id(task.config) not in ids:                # tasks_for shares one Config object per configuration
                ids[id(task.config)] = config_id(task.config)
            cid = ids[id(task.config)]
            configs.setdefault(cid, task.config)
            name, budget, key = task.config.name, float(task.config.params.budget), task.key()
        else:
            cid = name = key = None
            budget = math.nan
        v = rec.violation
        d = rec.to_dict()
        runs.append({"run": i, "key": key, "config": name, "config_id": cid, "budget": budget,
                     "policy": rec.policy, "seed": rec.seed, "rounds": rec.rounds, "cost": rec.cost,
                     "regret": rec.regret, "event_held": rec.event_held,
                     "violation_arm": None if v is None else v.arm,
                     "violation_fidelity": None if v is None else v.fidelity,
                     "violation_count": None if v is None else v.count, "output": rec.output,
                     "checkpoints": _json(list(rec.checkpoints)), "regret_at": _json(list(rec.regret_at)),
                     "phases": _json(d["phases"]), "trace": None if rec.trace is None else _json(d["trace"])})
        K = rec.n_arms
        for col, val in (("run", i), ("config", name), ("budget", budget), ("policy", rec.policy),
                         ("seed", rec.seed)):
            arms[col] += [val] * K
        arms["arm"] += range(K)
        for col in _PER_ARM:
            arms[col] += getattr(rec, col)
    cfg = pd.DataFrame([{"config_id": cid, "config": c.name, "toml": dump_config(c)} for cid, c in configs.items()],
                       columns=list(CONFIG_COLUMNS))
    return RunFrames(_typed(pd.DataFrame(runs, columns=list(RUN_COLUMNS)), RUN_COLUMNS),
                     _typed(pd.DataFrame(arms), ARM_COLUMNS), _typed(cfg, CONFIG_COLUMNS))


def _na(x):
    return x is None or x is _pandas().NA or (isinstance(x, float) and math.isnan(x))


def _arm_list(arms) -> str:
    xs = [int(a) for a in arms]
    return ", ".join(map(str, xs)) if len(xs) <= 8 else f"{', '.join(map(str, xs[:8]))}, ... ({len(xs)} rows)"


def frame_records(frames: RunFrames, runs=None) -> list[RunRecord]:
    """The run records of ``frames`` (or of the rows ``runs`` of ``frames.runs``), in row order; each equals the
    record the engine made, field by field."""
    rows = frames.runs if runs is None else runs
    if frames.records is not None:        # an index of a cache folder: the records as read (load_runs)
        return [frames.records[r] for r in rows["run"].tolist()]
    arms = frames.arms[frames.arms["run"].isin(rows["run"])].sort_values(["run", "arm"])
    per_run = {r: g for r, g in arms.groupby("run", sort=False)}
    # the arms of a configuration: the most arm rows any of its runs has (a table with a row removed made a short
    # record, which failed deep in the checks as an internal error)
    n_arms: dict = {}
    for row in rows.itertuples(index=False):
        if row.run in per_run and not _na(row.config_id):
            n_arms[row.config_id] = max(n_arms.get(row.config_id, 0), len(per_run[row.run]))
    out = []
    for row in rows.itertuples(index=False):
        g = per_run.get(row.run)
        if g is None:
            raise TaccInputError("arms", int(row.run), "no arm rows for this run")
        want = len(g) if _na(row.config_id) else n_arms[row.config_id]
        if len(g) != want or g["arm"].tolist() != list(range(len(g))):
            raise TaccInputError("arms", int(row.run), f"the arms table holds arm rows {_arm_list(g['arm'])} of "
                                                       f"this run ({row.policy}, seed {int(row.seed)}), not arms "
                                                       f"0..{want - 1}: the table is incomplete or edited")
        viol = None if _na(row.violation_arm) else {"arm": int(row.violation_arm),
                                                      "fidelity": str(row.violation_fidelity),
                                                      "count": int(row.violation_count)}
        d = {"policy": str(row.policy), "seed": int(row.seed), "rounds": int(row.rounds), "cost": float(row.cost),
             "regret": float(row.regret), "event_held": bool(row.event_held), "violation": viol,
             "checkpoints": json.loads(row.checkpoints), "regret_at": json.loads(row.regret_at),
             "phases": json.loads(row.phases), "output": None if _na(row.output) else int(row.output),
             "trace": None if _na(row.trace) else json.loads(row.trace)}
        for col in _PER_ARM:
            d[col] = [float(x) for x in g[col]] if col == "regret_share" else [int(x) for x in g[col]]
        _check_regret(d, int(row.run))
        out.append(RunRecord.from_dict(d))
    return out


def _check_regret(d: dict, run: int) -> None:
    """A run read from a table (which carries no checksum, unlike the run cache) whose regret is not the sum of its
    arms' regret shares, as the engine makes it (``math.fsum``, correctly rounded: equal exactly), is refused: a
    regret cell multiplied by 100 in a spreadsheet was read as it stood, and the report put TACC's mean regret at
    116% of the theorem's bound while its verdicts, rebuilt from the counts, said nothing was violated."""
    total = math.fsum(d["regret_share"]) if all(map(math.isfinite, d["regret_share"])) else None
    if total is not None and d["regret"] != total:
        raise TaccInputError("runs", run, f"the regret of this run ({d['policy']}, seed {d['seed']}) is "
                                          f"{d['regret']!r} but its arms' regret shares sum to {total!r}: the table "
                                          "is edited or damaged (the engine makes the one the sum of the other)")


def save_frames(frames: RunFrames, out_dir, format: str = "parquet") -> list[Path]:
    """Write ``runs``, ``arms`` and ``configs`` as ``OUT/<table>.parquet`` (pyarrow) or ``.csv``; the files."""
    if format not in FORMATS:
        raise TaccInputError("to", format, f"must be one of {', '.join(FORMATS)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in ("runs", "arms", "configs"):
        df, path = getattr(frames, name), out / f"{name}.{format}"
        if format == "parquet":
            try:
                df.to_parquet(path, index=False)
            except ImportError:
                raise TaccInputError("to", format, "Parquet needs pyarrow: pip install '.[tables]' in the "
                                                            "tacc repository (the tables extra)") from None
        else:
            df.to_csv(path, index=False)
        paths.append(path)
    return paths


def load_frames(path) -> RunFrames:
    """The tables :func:`save_frames` wrote in folder ``path`` (Parquet if present, else CSV), typed again."""
    pd = _pandas()
    root = Path(path)
    for fmt in FORMATS:
        if all((root / f"{t}.{fmt}").is_file() for t in ("runs", "arms", "configs")):
            break
    else:
        raise TaccInputError("path", str(path), "holds no runs/arms/configs tables (.parquet or .csv)")

    def read(name, columns):
        p = root / f"{name}.{fmt}"
        if fmt == "parquet":
            df = pd.read_parquet(p)
        else:
            # every column as text, floats parsed by Python (exact round trip of repr), empty cells as NA
            df = pd.read_csv(p, dtype=str, keep_default_na=False)
        missing = [c for c in columns if c not in df.columns]
        if missing:
            raise TaccInputError("path", str(path), f"holds a table {p.name} without the column(s) "
                                                    f"{', '.join(missing)} (tables written by `tacc runs --to` have "
                                                    f"them all)")
        if fmt == "csv":
            for c, t in columns.items():
                if t == "float64":
                    df[c] = [math.nan if x == "" else float(x) for x in df[c]]
                elif t in ("Int64", "string"):
                    df[c] = df[c].astype("string").replace("", pd.NA)
                elif t == "bool":
                    df[c] = df[c].map({"True": True, "False": False})
                else:
                    df[c] = df[c].astype("int64")
        return _typed(df, columns)

    try:
        tables = [read(name, columns) for name, columns in (("runs", RUN_COLUMNS), ("arms", ARM_COLUMNS),
                                                            ("configs", CONFIG_COLUMNS))]
    except TaccInputError:
        raise
    except (ValueError, TypeError, KeyError, OSError) as e:   # a damaged file: a clear error, not a crash
        raise TaccInputError("path", str(path), f"holds tables that cannot be read ({type(e).__name__}: "
                                                f"{str(e)[:200]})") from None
    return RunFrames(tables[0], tables[1], tables[2], origin=str(path))


# ------------------------------------------------------------------ a runner's cache folder
def save_configs(root, configs) -> None:
    """Keep each configuration in ``root/configs/<config_id>.json`` (once; the JSON form of
    ``bounds.config_to_dict``, made with the configuration's key), so the runs of a cache folder can be tabulated
    with their configuration (:func:`load_runs`). A kept file that does not parse, or whose content is not the
    configuration its name says, is written again, with a
    ``simulate.CacheMismatchWarning`` naming it. The folder and its files are group-readable whatever the
    umask, as the cache's ``runs.sqlite`` (``simulate._group_read``)."""
    folder = Path(root) / "configs"
    for cid, config in {config_id(c): c for c in configs}.items():
        path = folder / f"{cid}.json"
        text = config_json(config)
        if path.exists():
            try:
                same = path.read_bytes() == text.encode()
            except OSError:
                same = False
            if same:
                add_group_read(path)          # kept by an earlier version under a umask of 077
                continue
            problem = _read_saved(path)[1]
            if problem is None:          # the same configuration under another name, or another JSON layout
                continue
            warnings.warn(f"run cache {folder}: the saved configuration {path.name} is written again, {problem}",
                          CacheMismatchWarning, stacklevel=2)
        folder.mkdir(parents=True, exist_ok=True)
        add_group_read(folder, directory=True)    # readable by the group, as the cache's runs.sqlite
        tmp = path.with_suffix(f".tmp-{os.getpid()}")
        tmp.write_text(text)
        add_group_read(tmp)
        os.replace(tmp, path)


def _read_saved(path: Path) -> tuple[Config | None, str | None]:
    """The configuration kept in ``path`` (``.json``, or ``.toml`` of earlier versions), or None and what is wrong
    with the file: it cannot be read, does not parse, is not a configuration, or its content's
    :func:`config_id` is not its name (a damaged or edited file: the runs saved under it are of the named one)."""
    try:
        text = path.read_text()
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as e:    # JSONDecodeError, TOMLDecodeError are ValueErrors
        return None, f"it cannot be read ({type(e).__name__}: {e})"
    try:
        config = parse_config(data, source=str(path))
    except TaccInputError as e:        # the field and the reason; the value only when short (a whole table was quoted)
        text = str(e)
        return None, f"it is not a valid configuration ({text if len(text) <= 300 else f'{e.field}: {e.reason}'})"
    except (TypeError, ValueError, AttributeError) as e:
        return None, f"it is not a valid configuration ({type(e).__name__}: {str(e)[:200]})"
    cid = config_id(config)
    if cid != path.stem:
        return None, f"its content does not match its name (the content's id is {cid})"
    return config, None


def _saved_configs(folder: Path) -> tuple[list, int]:
    """The configurations :func:`save_configs` kept (``.json``; ``.toml`` in folders of earlier versions), and how
    many files were not used: one that does not parse or does not match its name is skipped with a
    ``simulate.CacheMismatchWarning`` naming it."""
    out, ignored = [], 0
    for p in sorted(folder.glob("*.json")) + sorted(folder.glob("*.toml")):
        config, problem = _read_saved(p)
        if problem is None:
            out.append(config)
        else:
            ignored += 1
            warnings.warn(f"run cache {folder}: the saved configuration {p.name} is not used, {problem}",
                          CacheMismatchWarning, stacklevel=3)
    return out, ignored


class _KeyMatcher:
    """Which saved configuration a cache key is of. A key is a prefix (a digest of everything but the seed,
    ``simulate._cache.run_key_prefix``) and the seed; each prefix is made once per (configuration, policy,
    checkpoints) tried, not once per record and configuration (that made reading a full cache twice as slow as
    the sweep that wrote it)."""

    def __init__(self, configs: list) -> None:
        self.configs = configs
        self.prefixes: dict[str, tuple] = {}    # prefix -> (configuration, policy, checkpoints)
        self.tried: set = set()                 # (policy, checkpoints) made for every configuration

    def _try(self, policy: str, checkpoints) -> None:
        if (policy, checkpoints) not in self.tried:
            self.tried.add((policy, checkpoints))
            for c in self.configs:
                self.prefixes.setdefault(run_key_prefix(config_key(c), policy, checkpoints), (c, policy, checkpoints))

    def task(self, key: str, policy: str | None = None, seed: int | None = None, checkpoints=None):
        """The ``simulate.Task`` whose key is ``key`` (of ``policy`` and ``seed`` when given, with regret
        checkpoints None or ``checkpoints``), or None."""
        cut = key.rfind(":") + 1
        prefix, text = key[:cut], key[cut:]
        hit = self.prefixes.get(prefix)
        if hit is None and policy is not None:
            self._try(policy, None)
            if checkpoints is not None:
                self._try(policy, tuple(checkpoints))
            hit = self.prefixes.get(prefix)
        if hit is None or (policy is not None and hit[1] != policy) or not text.isdigit() \
                or (seed is not None and int(text) != seed):
            return None
        return Task(hit[0], hit[1], int(text), hit[2])


#: the columns of ``RunFrames.damaged``.
DAMAGED_COLUMNS = {"key": "string", "config": "string", "config_id": "string", "budget": "float64",
                   "policy": "string", "seed": "Int64", "problem": "string"}


def _damaged_frame(damaged: list, match: _KeyMatcher, seen: set):
    """The stored rows that are not used (``simulate._cache.DamagedRun``) as :data:`DAMAGED_COLUMNS`: each named by
    its run (configuration, budget, policy, seed) when its key (or, for an intact record under another key, the
    record) says which run it is; its policy and checkpoints are tried among every policy and the checkpoints
    ``seen`` in the intact runs."""
    from simulate._registry import POLICIES

    rows = []
    for bad in damaged:
        task = None
        if bad.record is not None and bad.stored_key is not None:
            task = match.task(bad.stored_key, bad.record.policy, bad.record.seed, bad.record.checkpoints)
        if task is None:
            for policy in POLICIES + tuple(sorted({p for p, _ in seen} - set(POLICIES))):
                for cps in {None} | {c for p, c in seen if p == policy}:
                    match._try(policy, cps)
            task = match.task(bad.key)
        rows.append({"key": bad.key, "problem": bad.problem} | ({} if task is None else {
            "config": task.config.name, "config_id": config_id(task.config),
            "budget": float(task.config.params.budget), "policy": task.policy, "seed": task.seed}))
    return _typed(_pandas().DataFrame(rows, columns=list(DAMAGED_COLUMNS)), DAMAGED_COLUMNS)


def describe_damaged(row) -> str:
    """One damaged run of ``RunFrames.damaged`` in words: its policy, seed, budget and configuration, and why
    it is not used."""
    if _na(row.policy):
        return f"a run of no known configuration (key {row.key[:12]}...: {row.problem})"
    return f"{row.policy}, seed {int(row.seed)}, budget {row.budget:g} of {row.config} ({row.problem})"


def load_runs(path, *, index_only: bool = False) -> RunFrames:
    """The tables of a folder: tables written by :func:`save_frames`, or a runner's cache folder.

    For a cache folder, each record is matched to the configuration it was run with by its key (the runner's key,
    ``simulate.Task.key``, of the configurations kept in ``configs/``); a record whose configuration is
    not there keeps NA in ``config``, ``config_id`` and ``budget`` (and its cache key in ``key``). A kept
    configuration file that does not parse or does not match its name is not used (a
    ``simulate.CacheMismatchWarning`` names it, and one more says how many runs are then of no known
    configuration). A stored record that is damaged (its checksum or key does not match) is not in the tables:
    it is named in ``RunFrames.damaged`` and by a ``simulate.CacheMismatchWarning`` saying so (no run
    is made here; a sweep over the same cache makes it again).

    With ``index_only`` (a cache folder; tables are read whole) the tables are not built: ``runs`` says which run
    each row is (:data:`INDEX_COLUMNS`), ``records`` holds the records, and :func:`frame_records` returns them, as
    ``tacc report --from`` needs (building the tables and the records again from them took four times as long as
    reading the records).
    """
    root = Path(path)
    if not root.is_dir():
        raise TaccInputError("path", str(path), "is not a folder")
    tables = [f"runs.{f}" for f in FORMATS if (root / f"runs.{f}").is_file()]
    if len(tables) > 1:
        # reading one format would ignore the other in silence (older Parquet tables over newer CSV ones)
        raise TaccInputError("path", str(path), f"holds tables in more than one format ({', '.join(tables)}), "
                                                f"which may hold different runs: keep one format per folder")
    if tables and (root / CACHE_ENTRIES[0]).exists():
        # tables exported into a run cache must not hide the runs made after them: neither is read over the other
        raise TaccInputError("path", str(path), f"holds both a run cache ({CACHE_ENTRIES[0]}) and exported tables "
                                                f"({', '.join(tables)}), which may be older than its runs: move the "
                                                f"tables to a folder of their own")
    if tables:
        return load_frames(root)
    # a link is refused naming the argument; read only: a file that is not a run cache is refused, not moved aside
    store = RunCache(check_cache_folder(root, option="path"), read_only=True)
    configs, ignored = _saved_configs(root / "configs")
    match = _KeyMatcher(configs)
    records, tasks, keys = [], [], []
    bad: list = []
    try:
        for key, rec in store.items(bad):
            records.append(rec)
            tasks.append(match.task(key, rec.policy, rec.seed, rec.checkpoints))
            keys.append(key)
    except TaccInputError as e:
        if e.field != "root":
            raise
        raise TaccInputError("path", str(path), e.reason) from None
    finally:
        store.close()
    damaged = None
    if bad:
        damaged = _damaged_frame(bad, match, {(t.policy, t.checkpoints) for t in tasks if t is not None})
        named = [describe_damaged(r) for r in damaged.itertuples(index=False)]
        warnings.warn(f"run cache {root}: {len(named)} stored run(s) are damaged and left out of the tables (no run "
                      f"is made here): {'; '.join(named[:5])}{'; ...' if len(named) > 5 else ''}",
                      CacheMismatchWarning, stacklevel=2)
    if not records:
        raise TaccInputError("path", str(path), "holds no saved runs" + (f" but {len(bad)} damaged one(s)" if bad
                                                                         else ""))
    unknown = sum(t is None for t in tasks)
    if ignored and unknown:
        warnings.warn(f"run cache {root}: {unknown} of its {len(records)} run(s) have no known configuration "
                      f"({ignored} saved configuration file(s) not used)", CacheMismatchWarning, stacklevel=2)
    if index_only:
        return _index_frames(records, tasks, keys, damaged, str(path))
    frames = records_frame(records, tasks)
    if unknown:      # the cache key of a run with no known configuration too, so a caller that knows it can match it
        frames.runs["key"] = _pandas().Series(keys, dtype="string")
    return replace(frames, damaged=damaged, origin=str(path))


def _index_frames(records: list, tasks: list, keys: list, damaged, origin: str) -> RunFrames:
    """``load_runs(..., index_only=True)``: which run each record is (:data:`INDEX_COLUMNS`), and the records."""
    pd = _pandas()
    ids: dict[int, str] = {}
    configs: dict[str, Config] = {}
    cols: dict[str, list] = {c: [] for c in INDEX_COLUMNS}
    for i, (rec, task, key) in enumerate(zip(records, tasks, keys, strict=True)):
        if task is None:
            cid = name = None
            budget = math.nan
        else:
            cid = ids.get(id(task.config))
            if cid is None:
                cid = ids[id(task.config)] = config_id(task.config)
                configs.setdefault(cid, task.config)
            name, budget = task.config.name, float(task.config.params.budget)
        for col, val in (("run", i), ("key", key), ("config", name), ("config_id", cid), ("budget", budget),
                         ("policy", rec.policy), ("seed", rec.seed), ("checkpoints", _json(list(rec.checkpoints)))):
            cols[col].append(val)
    cfg = pd.DataFrame([{"config_id": cid, "config": c.name, "toml": dump_config(c)} for cid, c in configs.items()],
                       columns=list(CONFIG_COLUMNS))
    return RunFrames(_typed(pd.DataFrame(cols), INDEX_COLUMNS), _typed(pd.DataFrame(columns=list(ARM_COLUMNS)),
                                                                       ARM_COLUMNS),
                     _typed(cfg, CONFIG_COLUMNS), damaged=damaged, origin=origin, records=tuple(records))
