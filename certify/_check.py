"""The gate: run policies on configurations and seeds, judge every claim, and aggregate a certificate
(issue 4, items 3 and 8)."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from bounds import Config, TaccInputError, dump_config
from bounds import validate
from certify._assumptions import check_assumptions
from certify._claims import CLAIMS, LEM_CI, ClaimContext, claims_for
from certify._verdict import RunVerdict, Verdict, judge, judge_lem_ci
from simulate import make_problem, run_tasks, tasks_for

__all__ = ["DEFAULT_POLICIES", "ClaimSummary", "Reproducer", "Certificate", "check", "load_baseline",
           "unique_names", "sample_configs"]

#: the policies a check runs by default: every policy some run-level claim is about.
DEFAULT_POLICIES = ("tacc", "dnc", "mf-ucb", "ucb", "rdfe")


@dataclass(frozen=True)
class ClaimSummary:
    """One claim over every run checked: verdict counts, and the largest empirical / bound.

    ``max_ratio`` is over asserted runs (HOLDS and VIOLATED); ``max_ratio_all`` over every run, NOT_APPLICABLE and
    OFF_EVENT included (what the assumption or the event buys)."""

    key: str
    label: str
    statement: str
    paper: bool
    counts: dict
    max_ratio: float
    max_ratio_all: float


@dataclass(frozen=True)
class Reproducer:
    """A VIOLATED verdict: the configuration file, the seed and the command that reruns it."""

    claim: str
    label: str
    config: str
    policy: str
    seed: int | None
    path: str | None
    command: str
    accepted: bool


@dataclass(frozen=True)
class Certificate:
    """What ``tacc check`` reports: assumptions per configuration, every verdict, one summary per claim, and a
    reproducer per VIOLATED verdict. ``ok`` is False when a VIOLATED verdict is not accepted by the baseline."""

    configs: tuple
    policies: tuple
    seeds: tuple
    assumptions: dict
    verdicts: tuple
    summaries: tuple
    reproducers: tuple

    @property
    def ok(self) -> bool:
        return all(r.accepted for r in self.reproducers)

    @property
    def new_violations(self) -> tuple:
        return tuple(r for r in self.reproducers if not r.accepted)


def unique_names(configs) -> list[Config]:
    """The configurations with unique names (a repeated name gets a suffix -2, -3, ...)."""
    seen: Counter = Counter()
    out = []
    for c in configs:
        seen[c.name] += 1
        out.append(c if seen[c.name] == 1 else replace(c, name=f"{c.name}-{seen[c.name]}"))
    return out


def load_baseline(path) -> set:
    """Accepted findings: a JSON list of {"claim": key, "config": name} (``"*"`` matches any configuration)."""
    data = validate.json_file("baseline", path)
    if not isinstance(data, list) or not all(isinstance(d, dict) and {"claim", "config"} <= set(d) for d in data):
        raise TaccInputError("baseline", str(path), 'must be a JSON list of {"claim": ..., "config": ...}')
    return {(d["claim"], d["config"]) for d in data}


def _accepted(baseline: set, claim: str, config: str) -> bool:
    return (claim, config) in baseline or (claim, "*") in baseline


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")


def _summaries(verdicts) -> tuple:
    out = []
    for c in CLAIMS + (LEM_CI,):
        vs = [v for v in verdicts if v.claim == c.key]
        if not vs:
            continue
        counts = Counter(v.verdict.value for v in vs)
        asserted = [v.ratio for v in vs if v.verdict in (Verdict.HOLDS, Verdict.VIOLATED)]
        every = [v.ratio for v in vs if v.worst is not None]
        out.append(ClaimSummary(c.key, c.label, c.statement, c.paper,
                                {x.value: counts.get(x.value, 0) for x in Verdict},
                                max(asserted, default=math.nan), max(every, default=math.nan)))
    return tuple(out)


def check(configs, *, policies=DEFAULT_POLICIES, seeds=range(10), executor: str = "serial",
          workers: int | None = None, scheduler: str | None = None, cache=None, engine: str = "fast",
          progress: bool = False, reproducer_dir=None, baseline: set | None = None,
          records=None) -> Certificate:
    """Run ``policies`` on every configuration and seed, and judge every claim about them.

    Args:
        configs: ``bounds.Config`` objects (names are made unique).
        policies, seeds: what to run (``simulate`` policy names; seed integers).
        executor, workers, scheduler, cache, engine, progress: passed to ``simulate.run_tasks``.
        reproducer_dir: where to write a configuration file per VIOLATED verdict (None: not written).
        baseline: accepted (claim, configuration) findings (:func:`load_baseline`).
        records: run records already made, in ``simulate.tasks_for(configs, policies, seeds)`` order (skips the
            runs).
    """
    configs = unique_names(configs)
    seeds = tuple(int(s) for s in seeds)
    policies = tuple(policies)
    baseline = baseline or set()
    tasks = tasks_for(configs, policies, seeds)
    if records is None:
        records = run_tasks(tasks, executor=executor, workers=workers, scheduler=scheduler, cache=cache,
                            engine=engine, progress=progress)
    elif len(records) != len(tasks):
        raise TaccInputError("records", len(records), f"must hold one record per task ({len(tasks)})")
    contexts, assumptions = {}, {}
    for c in configs:
        problem = make_problem(c)
        assumptions[c.name] = check_assumptions(problem)
        contexts[c.name] = ClaimContext(problem, assumptions[c.name])
    verdicts: list[RunVerdict] = []
    groups: dict = {}
    for task, rec in zip(tasks, records):
        ctx = contexts[task.config.name]
        verdicts += [judge(c, ctx, rec) for c in claims_for(task.policy)]
        groups.setdefault((task.config.name, task.policy), []).append(rec)
    for (name, policy), recs in groups.items():
        verdicts.append(judge_lem_ci(contexts[name], recs))
    reproducers = []
    by_name = {c.name: c for c in configs}
    for v in verdicts:
        if v.verdict is not Verdict.VIOLATED:
            continue
        path = None
        if reproducer_dir is not None:
            d = Path(reproducer_dir)
            d.mkdir(parents=True, exist_ok=True)
            path = d / f"{_slug(v.config)}.toml"
            path.write_text(dump_config(by_name[v.config]))
        target = str(path) if path is not None else v.config
        seed_arg = f"{v.seed}:{v.seed + 1}" if v.seed is not None else f"{seeds[0]}:{seeds[-1] + 1}"
        reproducers.append(Reproducer(v.claim, v.label, v.config, v.policy, v.seed, None if path is None else str(path),
                                      f"tacc check {target} --policy {v.policy} --seeds {seed_arg}",
                                      _accepted(baseline, v.claim, v.config)))
    return Certificate(tuple(c.name for c in configs), policies, seeds, assumptions, tuple(verdicts),
                       _summaries(verdicts), tuple(reproducers))


def sample_configs(n: int, seed: int = 0) -> list[Config]:
    """``n`` generated configurations (half targeted at every arm class, half from the generic strategy), drawn
    by hypothesis deterministically from ``seed``; the same arguments give the same list."""
    import random

    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    from certify.strategies import configs as generic, targeted_configs

    if n <= 0:
        return []
    out: list = []
    rng = random.Random(seed)

    @settings(max_examples=n, database=None, deadline=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(targeted_configs(), generic(budget=st.integers(200, 5000))))
    def collect(config):
        if len(out) < n:
            out.append(replace(config, name=f"random-{len(out) + 1:03d}"))

    from hypothesis import seed as hypothesis_seed
    hypothesis_seed(rng.getrandbits(64))(collect)()
    return out
